import * as Args from '@oclif/core/args'
import {WhyCommand} from '../base-command.js'
import {SCRIPTS, SHELLS} from '../completion/scripts.js'

export default class Completion extends WhyCommand {
  static override summary = 'Print a shell completion script (bash, zsh or fish).'
  static override description = `Completes commands, flags, flag values and the names of namespaces, nodes, pods, ReplicaSets and
workloads from the current context (or from the dump given with -f), with a 3-second limit per lookup.
For \`kubectl why <TAB>\` (kubectl 1.26+), put the kubectl_complete-why executable this package installs on PATH.`

  static override examples = [
    {description: 'bash, for this shell', command: 'source <(<%= config.bin %> completion bash)'},
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a zsh parameter in the example command, not a template
    {description: 'zsh, installed', command: '<%= config.bin %> completion zsh > "${fpath[1]}/_kubectl-why"'},
    {description: 'fish', command: '<%= config.bin %> completion fish > ~/.config/fish/completions/kubectl-why.fish'},
  ]

  static override args = {shell: Args.string({description: 'bash, zsh or fish', options: [...SHELLS], required: true, ignoreStdin: true})}

  async run(): Promise<void> {
    const {args} = await this.parse(Completion)
    this.write(SCRIPTS[args.shell as keyof typeof SCRIPTS])
  }
}
