import {Args} from '@oclif/core'
import {WhyCommand} from '../base-command.js'
import {sharedFlags} from '../flags.js'

export default class Node extends WhyCommand {
  static override summary = 'Replay node lifecycle: heartbeats, leases, grace periods, zone state and taints, on a timeline.'
  static override description = `Recomputes node health from the NodeReady heartbeat and the kube-node-lease Lease as the node lifecycle
controller observes them, with the grace periods in force, the lease-cache circuit breaker, the zone
disruption state and its eviction rate, and says which taints each node should carry and when.`

  static override examples = [
    {description: 'Why was node worker-3 tainted?', command: '<%= config.bin %> node worker-3'},
    {description: 'All nodes, grouped by zone, problems first', command: '<%= config.bin %> node'},
    {description: 'As of a given instant, from a dump', command: '<%= config.bin %> node -f dump.json --now 2026-11-29T03:00:00Z'},
  ]

  static override args = {
    target: Args.string({description: 'NAME of one node (all nodes when omitted)', required: false}),
  }

  static override flags = {...sharedFlags}

  async run(): Promise<void> {
    const {flags} = await this.parse(Node)
    this.setupOutput(flags)
    this.notImplemented('kubectl why node', 6)
  }
}
