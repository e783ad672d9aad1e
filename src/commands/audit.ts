import {WhyCommand} from '../base-command.js'
import {sharedFlags} from '../flags.js'

export default class Audit extends WhyCommand {
  static override summary = 'Run every replay over a namespace or the whole cluster, for CI and scheduled audits.'
  static override description = `Reads the cluster once (one paginated list per kind) and runs every check over it: workload hashes, the
garbage collector, node lifecycle, taint eviction and ReplicaSets. Findings come worst first; the exit code
follows --fail-on, so a pipeline can gate on it.`

  static override examples = [
    {description: 'Audit the whole cluster, fail the job on warnings', command: '<%= config.bin %> audit -A'},
    {description: 'Audit a saved incident snapshot', command: '<%= config.bin %> audit -f examples/incident.json'},
  ]


  static override flags = {...sharedFlags}

  async run(): Promise<void> {
    const {flags} = await this.parse(Audit)
    this.setupOutput(flags)
    this.notImplemented('kubectl why audit', 8)
  }
}
