import * as Args from '@oclif/core/args'
import {WhyCommand} from '../base-command.js'
import {explainContext, explainWorld, readNodeLifecycle, readNodeLifecycleFor} from '../engine/nodelifecycle/drive.js'
import {explainNode} from '../engine/nodelifecycle/explain.js'
import {podsOnNode, readPodsOnNode} from '../engine/tainteviction/drive.js'
import {parseTarget} from '../cluster/target.js'
import {UserError} from '../errors.js'
import {sharedFlags} from '../flags.js'
import {renderCluster, renderNode} from '../render/node.js'
import {controllerManagerFlags, settingsOverrides} from '../settings/flags.js'

export default class Node extends WhyCommand {
  static override summary = 'Replay node lifecycle: heartbeats, leases, grace periods, zone state and taints, on a timeline.'
  static override description = `Recomputes node health from the NodeReady heartbeat and the kube-node-lease Lease as the node lifecycle
controller observes them, with the grace periods in force, the lease-cache circuit breaker, the zone
disruption state and its eviction rate, and says which taints each node should carry and when.

Node verdicts: healthy, withinGrace, unhealthy, taintPending, taintBlocked, circuitOpen, excluded, unknown (the
data holds no Lease for a node whose status heartbeat is old: it cannot tell).
Cluster verdicts: healthy, degraded, masterDisruption, circuitOpen, noNodes.
On a dump, zone states and master disruption mode hold for the nodes in the data; a verdict the data contradicts
is not given. Controller-manager settings come from its static pod in kube-system when visible, else the release
defaults; the flags below override either, and the output says which values were used and where they came from.`

  static override examples = [
    {description: 'Why was node worker-3 tainted?', command: '<%= config.bin %> node worker-3'},
    {description: 'All nodes, grouped by zone, problems first', command: '<%= config.bin %> node'},
    {description: 'As of a given instant, from a dump', command: '<%= config.bin %> node -f dump.json --now 2026-11-29T03:00:00Z'},
    {description: 'With a longer grace period than the cluster uses', command: '<%= config.bin %> node --node-monitor-grace-period=2m'},
  ]

  static override args = {
    target: Args.string({description: 'NAME of one node, node/NAME or node NAME (all nodes when omitted)', required: false, ignoreStdin: true}),
    name: Args.string({description: "NAME, after the TYPE word (kubectl's TYPE NAME form)", required: false, ignoreStdin: true}),
  }

  static override flags = {...sharedFlags, ...controllerManagerFlags}

  async run(): Promise<void> {
    const {args, flags} = await this.parse(Node)
    this.setupOutput(flags)
    // ToOptions: a plain object from the flags; a bad one is a usage error before anything is read.
    const name = parseTarget([args.target, args.name], {command: 'node', naturalKind: 'Node', example: 'worker-1'})?.name
    const options = {versionOverride: this.versionOverride(flags), overrides: settingsOverrides(flags)}
    await this.answerFrom(flags, async (source) => {
      if (name === undefined) {
        const world = await readNodeLifecycle(source, options)
        const e = explainWorld(world)
        return {data: e, severities: [e.severity], views: {table: (wide, src) => renderCluster(e, wide, undefined, src)}}
      }
      // Live: the node, the Leases and its zone, other zones only when the decision needs them (issue 29 point 3).
      // A snapshot is in memory already: every node is replayed, as `node` and the audit do.
      const live = source.describe().mode === 'live'
      // The node's pods do not depend on the replay: asked for while it is read.
      const pods = live ? readPodsOnNode(source, name) : undefined
      const world = live ? await readNodeLifecycleFor(source, name, options) : await readNodeLifecycle(source, options)
      const a = world?.analysis.nodes.find((n) => n.name === name)
      if (!world || !a)
        throw new UserError(
          `node "${name}" not found`,
          !world
            ? 'no Node of that name exists; run `kubectl why node` to list them'
            : world.nodes.length === 0
              ? 'the data holds no Node'
              : `${world.nodes.length} nodes exist; run \`kubectl why node\` to list them`,
        )
      const e = explainNode(a, world.analysis, explainContext(world))
      e.pods = await podsOnNode(source, world, name, pods)
      e.reads = world.reads
      return {data: e, severities: [e.severity], views: {table: (wide, src) => renderNode(e, wide, undefined, src)}}
    })
  }
}
