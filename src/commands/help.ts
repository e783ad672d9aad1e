// `kubectl why help [COMMAND]`, as kubectl's help command (k8s.io/kubectl v0.34.0 pkg/cmd/help/help.go:47 RunHelp):
// with no command the root help, with one that command's help, exactly what `--help` prints (the help class oclif loads
// for --help: src/help/help.ts). A word that names no command is a usage error as an unknown command is
// (src/hooks/command-not-found.ts), with cobra's suggestions: kubectl prints "Unknown help topic" (help.go:54) and the
// root usage with exit 0, which a script cannot tell from help.
import * as Args from '@oclif/core/args'
import {loadHelpClass} from '@oclif/core/help'
import {WhyCommand} from '../base-command.js'
import {UserError} from '../errors.js'
import {escapeControls} from '../render/terminal-safe.js'
import {suggestionsFor} from '../util/suggestions.js'

export default class Help extends WhyCommand {
  static override summary = 'Help about any command.'
  static override description = 'The same text as --help: `help` for kubectl why itself, `help COMMAND` (e.g. `help gc`) for a command.'
  static override examples = [
    {description: 'What kubectl why does, and its commands', command: '<%= config.bin %> help'},
    {description: 'The same as gc --help', command: '<%= config.bin %> help gc'},
  ]

  static override strict = false
  static override args = {command: Args.string({description: 'The command to describe.', required: false, ignoreStdin: true})}

  async run(): Promise<void> {
    const {argv} = await this.parse(Help)
    const words = (argv as string[]).filter((w) => !w.startsWith('-'))
    const id = words[0]
    if (id !== undefined && !this.config.findCommand(id)) {
      const known = this.config.commands
        .filter((c) => !c.hidden)
        .map((c) => c.id)
        .sort()
      const suggestions = suggestionsFor(id, known)
      throw new UserError(
        `unknown help topic ${escapeControls(JSON.stringify(id))} for ${JSON.stringify(String(this.config.bin))}`,
        suggestions.length > 0 ? `did you mean ${suggestions.join(', ')}?` : `the commands: ${known.join(', ')}`,
      )
    }
    const HelpClass = await loadHelpClass(this.config)
    const help = new HelpClass(this.config, this.config.pjson.oclif.helpOptions ?? this.config.pjson.helpOptions)
    // oclif's showHelp takes the word help for itself (`help --help` is the root help); `help help` is this command's.
    const self = id === 'help' ? this.config.findCommand('help') : undefined
    if (self) await help.showCommandHelp(self, [])
    else await help.showHelp(id === undefined ? [] : [id])
  }
}
