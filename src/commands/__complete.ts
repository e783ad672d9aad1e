import {Command} from '@oclif/core/command'
import {complete, type CompletableCommand, connectionOf} from '../completion/complete.js'
import {clusterLookup} from '../completion/lookup.js'

export default class Complete extends Command {
  static override hidden = true
  static override strict = false
  static override summary = "Shell completion (cobra's __complete protocol, as kubectl_complete-why and the completion scripts call it)."

  async run(): Promise<void> {
    const words = this.argv.length === 0 ? [''] : this.argv
    const commands: CompletableCommand[] = this.config.commands
      .filter((c) => !c.hidden)
      .map((c) => ({
        id: c.id,
        summary: c.summary,
        flags: Object.entries(c.flags).map(([name, f]) => ({
          name,
          char: f.char,
          takesValue: f.type === 'option',
          options: f.type === 'option' ? f.options : undefined,
        })),
      }))
    const lookup = clusterLookup(connectionOf(words))
    const result = await complete(words, commands, lookup)
    await lookup.close().catch(() => undefined)
    process.stdout.write(`${[...result.candidates, `:${result.directive}`].join('\n')}\n`)
  }
}
