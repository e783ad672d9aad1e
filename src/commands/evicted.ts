import {Args} from '@oclif/core'
import {WhyCommand} from '../base-command.js'
import {sharedFlags} from '../flags.js'

export default class Evicted extends WhyCommand {
  static override summary = 'Replay taint-based eviction for one pod: which taints, which tolerations, which deadline.'
  static override description = `Matches the pod's tolerations against its node's NoExecute taints the way the taint-eviction controller does
(only the first matching toleration per taint counts) and gives the eviction deadline, counted from when the
controller first saw the pod with the taint.`

  static override examples = [
    {description: 'Why was this pod evicted?', command: '<%= config.bin %> evicted pod/api-7d9f4b6c8-x2k9p -n shop'},
  ]

  static override args = {
    target: Args.string({description: 'pod/NAME', required: true}),
  }

  static override flags = {...sharedFlags}

  async run(): Promise<void> {
    const {flags} = await this.parse(Evicted)
    this.setupOutput(flags)
    this.notImplemented('kubectl why evicted', 6)
  }
}
