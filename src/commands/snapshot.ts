import {Flags} from '@oclif/core'
import {WhyCommand} from '../base-command.js'
import {connectionFlags, outputFlags} from '../flags.js'

export default class Snapshot extends WhyCommand {
  static override summary = 'Save everything the other commands read, for offline replay with -f.'
  static override description = `Captures nodes, node leases (both the watch-cache and the quorum view), pods, ReplicaSets,
Deployments, DaemonSets, StatefulSets, ControllerRevisions, events, the kube-controller-manager pod, and
the metadata of every other listable kind (for ownership), with the capture time and the server version,
into one file that -f/--snapshot reads back. Secrets are saved as metadata only. Read-only: GETs only.`

  static override examples = [
    {description: 'Save the cluster at the moment of an incident', command: '<%= config.bin %> snapshot --out incident.json.gz'},
    {description: 'Replay later, as of the capture time', command: '<%= config.bin %> node -f incident.json.gz'},
  ]

  static override flags = {
    ...connectionFlags,
    debug: outputFlags.debug,
    out: Flags.string({description: 'Write to this file (gzip when it ends in .gz) instead of stdout.'}),
  }

  async run(): Promise<void> {
    const {flags} = await this.parse(Snapshot)
    this.setupOutput(flags)
    this.notImplemented('kubectl why snapshot', 2)
  }
}
