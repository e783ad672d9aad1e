import {Args, Flags} from '@oclif/core'
import {WhyCommand} from '../base-command.js'
import {sharedFlags} from '../flags.js'

export default class Hash extends WhyCommand {
  static override summary = "Recompute a workload's pod-template-hash / controller-revision-hash as its controller does."
  static override description = `Recomputes, byte for byte, the hash the Deployment, DaemonSet or StatefulSet controller of this
cluster's Kubernetes version derives from the pod template (FNV over Go's spew dump of the struct, with
status.collisionCount), names the ReplicaSet or ControllerRevision it implies, and explains which existing
revision the controller treats as current, which labels came from an older controller, and collisions.`

  static override examples = [
    {description: 'Why does my Deployment have two ReplicaSets with the same template?', command: '<%= config.bin %> hash deployment/web -n shop'},
    {description: 'The same question against a saved dump, as of the capture time', command: '<%= config.bin %> hash deployment/web -n shop -f incident.json'},
    {description: 'Hash a template offline for a given version', command: '<%= config.bin %> hash --template rs.yaml --k8s-version 1.29'},
  ]

  static override args = {
    target: Args.string({description: 'deployment/NAME, daemonset/NAME or statefulset/NAME', required: false}),
  }

  static override flags = {
    ...sharedFlags,
    template: Flags.string({description: 'Hash the template(s) in this file (or - for stdin) instead of reading a cluster.'}),
    'collision-count': Flags.integer({description: 'Use this collisionCount instead of the object\'s status.collisionCount.', min: 0, max: 2_147_483_647}),
    'show-serialization': Flags.boolean({description: 'Print the exact text that was hashed.', default: false}),
  }

  async run(): Promise<void> {
    const {flags} = await this.parse(Hash)
    this.setupOutput(flags)
    this.notImplemented('kubectl why hash', 3)
  }
}
