import {Args} from '@oclif/core'
import {WhyCommand} from '../base-command.js'
import {sharedFlags} from '../flags.js'

export default class Replicas extends WhyCommand {
  static override summary = 'Replay the ReplicaSet controller: expectations, claims, slow start, and which pods go first.'
  static override description = `Replays the ReplicaSet controller for one ReplicaSet: the pods it owns, adopts, releases or ignores, the
active pods, what manageReplicas would do now (creates in slow-start batches, or exactly which pods it
deletes first), and the expectations it is waiting on, inferred from its events.`

  static override examples = [
    {description: 'Why is my ReplicaSet stuck at 3/5?', command: '<%= config.bin %> replicas replicaset/web-7d9f4b6c8 -n shop'},
  ]

  static override args = {
    target: Args.string({description: 'replicaset/NAME', required: true}),
  }

  static override flags = {...sharedFlags}

  async run(): Promise<void> {
    const {flags} = await this.parse(Replicas)
    this.setupOutput(flags)
    this.notImplemented('kubectl why replicas', 7)
  }
}
