import * as Args from '@oclif/core/args'
import {WhyCommand} from '../base-command.js'
import {parseTarget} from '../cluster/target.js'
import {type NodeLifecycleWorld, readNodeLifecycle, readNodeLifecycleFor} from '../engine/nodelifecycle/drive.js'
import {explainPod, readPod} from '../engine/tainteviction/drive.js'
import {nodeFromEvents} from '../engine/tainteviction/evidence.js'
import {UserError} from '../errors.js'
import {sharedFlags} from '../flags.js'
import {renderEvicted} from '../render/node-evicted.js'
import {controllerManagerFlags, settingsOverrides} from '../settings/flags.js'

export default class Evicted extends WhyCommand {
  static override summary = 'Replay taint-based eviction for one pod: which taints, which tolerations, which deadline.'
  static override description = `Matches the pod's tolerations against its node's NoExecute taints the way the taint-eviction controller does
(only the first matching toleration per taint counts; Lt/Gt only with the TaintTolerationComparisonOperators gate)
and replays its timer over the taints in the order they arrived: counted from when the controller first saw the pod
with a taint — not from the taint's timeAdded —, a running timer stands when later taints arrive, and one that has
fired decides. When the node is not ready but not tainted yet, says why (queued in its zone, zone rate 0, master
disruption mode, lease circuit breaker).

Verdicts: notAffected, toleratedForever, evictAt, evictedImmediately, evicted, notEvictedBecause; from the pod's own record and the other actors' replays: evictedByKubelet, terminatedByShutdown, preemptedByKubelet, preempted, evictedByApi, deletedByPodGC, rejectedAtAdmission, evictionBlocked, willBeCollected, beingDeleted, atRisk, disrupted.`

  static override examples = [
    {description: 'Why was this pod evicted?', command: '<%= config.bin %> evicted pod/api-7d9f4b6c8-x2k9p -n shop'},
    {
      description: 'When will it be evicted, as of an instant in a dump?',
      command: '<%= config.bin %> evicted pod/api-7d9f4b6c8-x2k9p -n shop -f dump.json --now 2026-11-29T03:12:00Z',
    },
  ]

  static override args = {
    target: Args.string({description: 'the pod: NAME, pod/NAME or pod NAME', required: false, ignoreStdin: true}),
    name: Args.string({description: "NAME, after the TYPE word (kubectl's TYPE NAME form)", required: false, ignoreStdin: true}),
  }

  static override flags = {...sharedFlags, ...controllerManagerFlags}

  async run(): Promise<void> {
    const {args, flags} = await this.parse(Evicted)
    this.setupOutput(flags)
    const target = parseTarget([args.target, args.name], {command: 'evicted', naturalKind: 'Pod', example: 'pod/web-7d9f4b6c8-x2k9p -n shop'})
    if (!target) throw new UserError('which pod? give its NAME (or pod/NAME)', 'e.g. kubectl why evicted web-7d9f4b6c8-x2k9p -n shop')
    const {name} = target
    if (flags['all-namespaces']) throw new UserError('a pod cannot be looked up by name across all namespaces', 'use -n NAMESPACE')
    const options = {versionOverride: this.versionOverride(flags), overrides: settingsOverrides(flags)}
    await this.answerFrom(flags, async (source) => {
      const namespace = this.namespace(flags, source)!
      const live = source.describe().mode === 'live'
      // Live: the pod's node's reads start as soon as the pod is read, beside its events and the actors' context.
      let early: {node: string; world: Promise<NodeLifecycleWorld | undefined>} | undefined
      const read = await readPod(source, namespace, name, (pod) => {
        const node = pod?.spec?.nodeName
        if (!live || !node) return
        early = {node, world: readNodeLifecycleFor(source, node, options)}
        // Awaited below; a failure fails the command there, not as an unhandled rejection while the pod's reads run.
        early.world.catch(() => undefined)
      })
      if (!read.pod && !read.events.some((e) => (e.involvedObject ?? e.regarding)?.name === name)) {
        throw new UserError(
          `pod "${name}" not found in namespace ${namespace}, and no events about it remain`,
          'events expire after an hour by default; look at the node with `kubectl why node`',
        )
      }
      // Live: the pod's node, the Leases and that node's zone only, as `node NAME` reads (issue 29 point 3); a node
      // that is gone, or a snapshot, gets every node.
      const nodeName = read.pod?.spec?.nodeName ?? nodeFromEvents(read.events, name)
      const zoneWorld = nodeName && live ? await (early?.node === nodeName ? early.world : readNodeLifecycleFor(source, nodeName, options)) : undefined
      const world = zoneWorld ?? (await readNodeLifecycle(source, options))
      world.source.partial = [...(world.source.partial ?? []), ...read.problems]
      const e = explainPod(world, namespace, name, read.pod, read.events, read.context)
      if (zoneWorld) e.reads = world.reads
      return {data: e, severities: [e.severity], views: {table: (wide, src) => renderEvicted(e, wide, undefined, src)}}
    })
  }
}
