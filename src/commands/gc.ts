import {Args} from '@oclif/core'
import {WhyCommand} from '../base-command.js'
import {sharedFlags} from '../flags.js'

export default class Gc extends WhyCommand {
  static override summary = 'Replay the garbage collector for one object: why it was (or will be) deleted, or why it stays.'
  static override description = `Classifies every owner reference the way the garbage collector does (solid, dangling, waiting for
dependents deletion) using fresh, uncached reads and UID comparison, and says which branch the collector
takes: keep, patch the owner references, delete (with which propagation), or wait — and why.`

  static override examples = [
    {description: 'Why was this ReplicaSet deleted (or why is it still here)?', command: '<%= config.bin %> gc replicaset/web-7d9f4b6c8 -n shop'},
    {description: 'Why is this ConfigMap stuck deleting?', command: '<%= config.bin %> gc configmap/settings -n shop -o wide'},
  ]

  static override args = {
    target: Args.string({description: 'KIND/NAME of the object, e.g. replicaset/web-7d9f4b6c8', required: true}),
  }

  static override flags = {...sharedFlags}

  async run(): Promise<void> {
    const {flags} = await this.parse(Gc)
    this.setupOutput(flags)
    this.notImplemented('kubectl why gc', 5)
  }
}
