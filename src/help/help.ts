// oclif's help, without ejs on the way. oclif passes every string of the help (each summary, description, example,
// flag text, and again inside each wrap) through ejs.render, which compiles a new Function per string: ~25 ms of
// `--help`, though the only template the commands use is `<%= config.bin %>`. Here strings without a template, and
// those whose only template is that one, are rendered as ejs renders them; anything else still goes to ejs.
// test/help/help.test.ts holds the whole output, root and command by command, to oclif's own Help.
import type {Command} from '@oclif/core/command'
import {CommandHelp, Help, HelpFormatter} from '@oclif/core/help'
import type {Config, HelpOptions} from '@oclif/core/interfaces'
import {colorize} from '@oclif/core/ux'

const CONFIG_BIN = /<%=\s*config\.bin\s*%>/g

/** ejs's escapeXML: what `<%=` does to a value. */
const escapeXML = (s: string) => s.replace(/[&<>'"]/g, (c) => `&${{'&': 'amp', '<': 'lt', '>': 'gt', "'": '#39', '"': '#34'}[c]};`)

/** The formatter's render, with ejs only for templates other than `<%= config.bin %>`. */
function withoutEjs(formatter: HelpFormatter, config: Config): void {
  const ejsRender = formatter.render
  const bin = escapeXML(String(config.bin))
  formatter.render = (template: string) => {
    if (!template.includes('<%') && !template.includes('%>')) return template
    const rendered = template.replace(CONFIG_BIN, () => bin)
    return rendered.includes('<%') || rendered.includes('%>') ? ejsRender(template) : rendered
  }
}

class WhyCommandHelp extends CommandHelp {
  constructor(command: Command.Loadable, config: Config, opts: HelpOptions) {
    super(command, config, opts)
    withoutEjs(this, config)
  }
}

/** oclif's RootHelp (help/root.js, not exported, so not replaceable like CommandHelp), rendered without ejs. */
class WhyRootHelp extends HelpFormatter {
  constructor(config: Config, opts: Partial<HelpOptions>) {
    super(config, opts)
    withoutEjs(this, config)
  }

  root(): string {
    const lines = this.render(this.config.pjson.oclif.description || this.config.pjson.description || '').split('\n')
    const theme = this.config.theme
    const version = this.section('VERSION', this.wrap(colorize(theme?.version, this.config.userAgent)))
    const usage = this.section(
      this.opts.usageHeader || 'USAGE',
      this.wrap(`${colorize(theme?.dollarSign, '$')} ${colorize(theme?.bin, this.config.bin)} ${colorize(theme?.sectionDescription, '[COMMAND]')}`),
    )
    const rest = lines.slice(1).join('\n')
    const description = rest ? this.section('DESCRIPTION', this.wrap(colorize(theme?.sectionDescription, rest))) : undefined
    const output = [colorize(theme?.commandSummary, lines[0]), version, usage, description].filter(Boolean).join('\n\n')
    return this.opts.stripAnsi ? output.replace(ANSI, '') : output
  }
}

// ansis.strip's pattern, which RootHelp uses for stripAnsi.
// biome-ignore lint/suspicious/noControlCharactersInRegex: the escape character is what it matches
const ANSI = /[\u001b\u009b][[()#;?]*(?:[0-9]{1,4}(?:;[0-9]{0,4})*)?[0-9A-ORZcf-nqry=><]/g

export default class WhyHelp extends Help {
  protected override CommandHelpClass = WhyCommandHelp

  constructor(config: Config, options: Partial<HelpOptions> = {}) {
    super(config, options)
    withoutEjs(this, config)
  }

  /**
   * `help --help` (and `help gc --help`) describes the help command, as cobra does for kubectl (the help flag asks
   * about the command it is given to); oclif's showHelp skips the word help and would print the root help.
   */
  override async showHelp(argv: string[]): Promise<void> {
    const end = argv.indexOf('--')
    const words = end === -1 ? argv : argv.slice(0, end)
    const flags = new Set(['--help', ...(this.config.pjson.oclif.additionalHelpFlags ?? [])])
    const self = words[0] === 'help' && words.some((w) => flags.has(w)) ? this.config.findCommand('help') : undefined
    if (self) return this.showCommandHelp(self)
    return super.showHelp(argv)
  }

  override formatRoot(): string {
    return new WhyRootHelp(this.config, this.opts).root()
  }
}
