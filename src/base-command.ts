// What every kubectl-why command shares: flag → options conversion, opening the source, writing
// results, exit codes (0 clean, 1 findings at or above --fail-on, 2 usage/input error, 3 internal error) and the
// one-line error policy (stack traces only with --debug).
//
// A command is wiring, in kubectl's ToOptions/Complete/Validate/Run shape: it turns its flags into a plain options
// object (usage errors before anything is opened), then answers through the source with an Answer — the data, the
// severities and the views drawn from the data. Only this file chooses the format, writes (with backpressure),
// clears progress, applies --fail-on and sets the exit code.
import {once} from 'node:events'
import {Command} from '@oclif/core/command'
import * as Errors from '@oclif/core/errors'
import chalk from 'chalk'
import {openSource, type SourceOptions} from './cluster/open.js'
import type {ProjectionPlan} from './cluster/projection.js'
import type {ClusterSource} from './cluster/source.js'
import {errorLine, UserError} from './errors.js'
import {kubectlBooleans} from './kubectl-argv.js'
import {failsOn, type Severity} from './explanation.js'
import {type ColourMode, colourLevel} from './render/colour.js'
import {Progress, type ProgressMode} from './render/progress.js'
import {terminalSafe} from './render/terminal-safe.js'
import {type SourceInForce, withCommandsInForce} from './render/next-steps.js'
import {type DataFormat, type DataOptions, formatData, isDataFormat, isTextData, type OutputFormat} from './render/output.js'
import {type MinorVersion, parseDuration, parseInstant, parseMinorVersion} from './util/parse.js'

export interface CommonFlags {
  kubeconfig?: string
  context?: string
  namespace?: string
  'all-namespaces'?: boolean
  'request-timeout'?: string
  as?: string
  'as-group'?: string[]
  'as-uid'?: string
  user?: string
  cluster?: string
  server?: string
  token?: string
  'certificate-authority'?: string
  'insecure-skip-tls-verify'?: boolean
  'tls-server-name'?: string
  'client-certificate'?: string
  'client-key'?: string
  username?: string
  password?: string
  v?: number
  snapshot?: string
  now?: string
  'k8s-version'?: string
  'fail-on'?: Severity
  /** -o: one of OutputFormat, or a command's own (the audit's junit); print() picks the writer. */
  output?: OutputFormat | 'junit'
  'no-color'?: boolean
  color?: ColourMode
  progress?: ProgressMode
  debug?: boolean
  /** kubectl's, for -o jsonpath (src/render/output.ts). */
  'allow-missing-template-keys'?: boolean
}

/** What a command answers: what -o json|yaml|html print, what --fail-on weighs, and how the other formats draw it. */
export interface Answer {
  data: unknown
  severities: readonly Severity[]
  views: Views
  /** The run fails whatever --fail-on says (an incomplete audit, by its report's own rule). */
  failed?: boolean
  /** A line for stderr after a format a person does not read at the terminal (the table says it itself). */
  notice?: string
}

/**
 * How a command's answer is drawn. Each view is given the command line's source options (src/render/next-steps.ts
 * SourceInForce), which its next steps carry so that, pasted, they reproduce the same view.
 */
export interface Views {
  /** -o table, and -o wide (more columns): one string, or pieces written as the pipe takes them. */
  table(wide: boolean, src: SourceInForce): string | Iterable<string>
  /** A format written otherwise than from the data (the audit's streamed JSON, JUnit XML). */
  json?: (src: SourceInForce) => Iterable<string>
  junit?: (src: SourceInForce) => Iterable<string>
}

export abstract class WhyCommand extends Command {
  protected debugEnabled = process.argv.includes('--debug')
  /** The one progress line of a run, as --progress says (setupOutput); write() clears it before the answer. */
  protected readonly statusLine = new Progress()

  /** kubectl's `--flag=true|false` for booleans, before oclif parses (src/kubectl-argv.ts). */
  override async init(): Promise<void> {
    const flags = Object.entries(this.ctor.flags ?? {}).filter(([, f]) => f.type === 'boolean')
    // --progress was a boolean (progress off a terminal too): bare, it still means that, now --progress=always.
    const bare = this.argv.indexOf('--progress')
    if (bare >= 0 && 'progress' in (this.ctor.flags ?? {}) && !['auto', 'always', 'never'].includes(this.argv[bare + 1] ?? ''))
      this.argv = [...this.argv.slice(0, bare), '--progress=always', ...this.argv.slice(bare + 1)]
    this.argv = kubectlBooleans(
      this.argv,
      flags.map(([name, f]) => ({name, char: f.char, allowNo: 'allowNo' in f && f.allowNo === true})),
    )
    await super.init()
  }

  /** Colours as --color says (src/render/colour.ts): auto follows FORCE_COLOR, then NO_COLOR, then the terminal. */
  protected setupOutput(flags: CommonFlags): void {
    this.debugEnabled = flags.debug === true
    this.statusLine.mode = flags.progress ?? 'auto'
    chalk.level = colourLevel(flags['no-color'] ? 'never' : (flags.color ?? 'auto'), process.env, process.stdout.isTTY, chalk.level) as typeof chalk.level
    process.stdout.on('error', (err: NodeJS.ErrnoException) => {
      // The reader left early (`| head`): not delivered, so not 0; 141 as a shell reports kubectl's SIGPIPE (bin/exit-guard.js).
      if (err.code === 'EPIPE') process.exit(141)
    })
  }

  /** What the command's replays read of each kind, when it reads only that (a snapshot then keeps only that). */
  protected projection?: () => ProjectionPlan

  protected sourceOptions(flags: CommonFlags): SourceOptions {
    return {
      snapshot: flags.snapshot,
      kubeconfig: flags.kubeconfig,
      context: flags.context,
      // Not given: the live source picks the default (none at a terminal, a bound in unattended runs).
      requestTimeout: flags['request-timeout'] === undefined ? undefined : parseDuration(flags['request-timeout'], 'request-timeout'),
      impersonate: {user: flags.as, uid: flags['as-uid'], groups: flags['as-group']},
      connection: {
        user: flags.user,
        cluster: flags.cluster,
        server: flags.server,
        token: flags.token,
        'certificate-authority': flags['certificate-authority'],
        'insecure-skip-tls-verify': flags['insecure-skip-tls-verify'],
        'tls-server-name': flags['tls-server-name'],
        'client-certificate': flags['client-certificate'],
        'client-key': flags['client-key'],
        username: flags.username,
        password: flags.password,
      },
      now: flags.now === undefined ? undefined : parseInstant(flags.now, 'now'),
      // A command that reads through projections (the audit: src/audit/project.ts) has a snapshot apply them as it reads.
      slim: this.projection?.(),
      debug: flags.debug,
      verbosity: flags.v,
      progress: this.statusLine.line,
      // The source's lines (a context name, a server's message) reach the terminal through the one sanitiser.
      warn: (line) => this.stderr(`warning: ${line}\n`),
      log: (line) => this.stderr(`${line}\n`),
    }
  }

  protected async openSource(flags: CommonFlags): Promise<ClusterSource> {
    return openSource(this.sourceOptions(flags))
  }

  /** The namespace to read: undefined for -A, else -n, else the source's default. */
  protected namespace(flags: CommonFlags, source: ClusterSource): string | undefined {
    if (flags['all-namespaces']) return undefined
    return flags.namespace ?? source.defaultNamespace()
  }

  /**
   * TYPE/NAME or --all, exactly one (gc, hash, replicas): giving both or neither is a usage error naming both forms.
   * form: how the object is named in the message; which: the question when neither is given; example: an argument.
   */
  protected targetOrAll<T>(target: T | undefined, all: boolean, say: {form: string; which: string; example: string}): T | undefined {
    if (all && target) throw new UserError(`give either ${say.form} or --all, not both`, `e.g. kubectl why ${this.id} --all -n shop`)
    if (!all && !target) throw new UserError(say.which, `e.g. kubectl why ${this.id} ${say.example}`)
    return target
  }

  protected versionOverride(flags: CommonFlags): MinorVersion | undefined {
    return flags['k8s-version'] === undefined ? undefined : parseMinorVersion(flags['k8s-version'])
  }

  private clearProgress(): void {
    this.statusLine.clear()
  }

  /** Opens the source the flags name, answers through it, prints the answer; the source is closed whatever happens. */
  protected async answerFrom(flags: CommonFlags, answer: (source: ClusterSource) => Promise<Answer>, typed: CommonFlags = flags): Promise<void> {
    const source = await this.openSource(flags)
    try {
      // The flags as typed (not a kubeconfig the command wrote for itself) give the next steps their source in force.
      await this.print(await answer(source), typed)
    } finally {
      this.clearProgress()
      await source.close?.()
    }
  }

  /**
   * The answer in the format -o names, then the exit code: 1 when a severity is at or above --fail-on (or the answer
   * failed). It sets the code rather than exiting: oclif's exit calls process.exit, which drops what is still queued
   * for a piped stdout.
   */
  protected async print(
    answer: Answer,
    flags: Pick<CommonFlags, 'output' | 'fail-on' | 'allow-missing-template-keys' | 'snapshot' | 'context'> &
      Partial<Pick<CommonFlags, 'kubeconfig' | 'cluster' | 'user' | 'server'>>,
  ): Promise<void> {
    const format = flags.output ?? 'table'
    // The source options a next step needs to reproduce this view when pasted (-f FILE, --kubeconfig, --context,
    // --cluster, --user, --server): the user's own. Never a credential (--token, --password, certificates' keys).
    const src: SourceInForce = {
      snapshot: flags.snapshot,
      kubeconfig: flags.kubeconfig,
      context: flags.context,
      cluster: flags.cluster,
      user: flags.user,
      server: flags.server,
    }
    const own = format === 'json' || format === 'junit' ? answer.views[format] : undefined
    if (own) await this.writeChunks(own(src), true)
    // The data keeps each engine's next step and carries beside it the command line the text prints (commandInForce).
    else if (isDataFormat(format))
      await this.writeData(withCommandsInForce(answer.data, src), format, {allowMissingTemplateKeys: flags['allow-missing-template-keys']})
    else {
      const out = answer.views.table(format === 'wide', src)
      if (typeof out === 'string') this.write(out)
      else await this.writeChunks(out)
    }
    const failOn = flags['fail-on'] ?? 'warning'
    if (answer.failed || answer.severities.some((s) => failsOn(s, failOn))) process.exitCode = 1
    if (answer.notice !== undefined && format !== 'table' && format !== 'wide') this.stderr(answer.notice)
  }

  /** Text for a person: its controls shown, the colour map's escapes kept (src/render/terminal-safe.ts). `exact`: data, as is. */
  protected write(text: string, exact = false): void {
    this.clearProgress()
    process.stdout.write(exact ? text : terminalSafe(text))
  }

  /**
   * A line for stderr (a warning, a notice, --debug): progress cleared, and made terminal-safe as write() makes the
   * answer, since it carries text from the data (a context's name, a server's message, a dump's header).
   */
  protected stderr(text: string): void {
    this.clearProgress()
    process.stderr.write(terminalSafe(text))
  }

  /** -o json|yaml|name|jsonpath|html: the data, or the HTML report drawn from it (loaded only when asked for, written a piece at a time). */
  protected async writeData(value: unknown, format: DataFormat, options: DataOptions = {}): Promise<void> {
    // -o name and -o jsonpath print the data's strings as text: at a terminal, shown safe as every text answer is;
    // in a pipe exact, as kubectl prints them.
    if (format !== 'html') {
      const text = formatData(value, format, options)
      // Nothing to print is an answer here (bin/exit-guard.js); -o name says so on stderr, as kubectl get does.
      if (text === '') {
        process.emit('kubectl-why:answered' as never)
        if (format === 'name') this.stderr('No resources found.\n')
      }
      return this.write(text, !(isTextData(format) && process.stdout.isTTY))
    }
    const {renderHtmlChunks} = await import('./render/html/index.js')
    await this.writeChunks(renderHtmlChunks(value, this.id ?? ''), true)
  }

  /**
   * Pieces of output written as the pipe takes them, about 64 KiB at a time (a 5,000-node report is never one string);
   * text made terminal-safe as write() does, unless `exact` (JSON, JUnit, HTML).
   */
  protected async writeChunks(chunks: Iterable<string>, exact = false): Promise<void> {
    this.clearProgress()
    let buffer = ''
    const flush = async () => {
      if (buffer === '') return
      const ok = process.stdout.write(exact ? buffer : terminalSafe(buffer))
      buffer = ''
      if (!ok) await once(process.stdout, 'drain')
    }
    for (const c of chunks) {
      buffer += c
      if (buffer.length >= 65_536) await flush()
    }
    await flush()
  }

  private oneLine(err: Error): string {
    if (err instanceof UserError) return errorLine(err)
    const text = (err.message || String(err))
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean)
      .join(' ')
    // Flag and argument errors come from oclif's parser as CLIError.
    if (err instanceof Errors.CLIError) return `${text.replace(/\s*See more help with --help\.?$/, '')}; see \`kubectl why ${this.id ?? ''} --help\``
    return `${text} (run with --debug for details)`
  }

  override async catch(err: Error & {exitCode?: number; oclif?: {exit?: number}}): Promise<unknown> {
    if (err instanceof Errors.ExitError) throw err
    this.clearProgress()
    if (this.debugEnabled) process.stderr.write(terminalSafe(`${err.stack ?? err}\n`))
    if (!isInputError(err)) {
      // Anything else is a bug in kubectl-why, whatever the input: exit 3, never the usage/input code 2.
      const text = (err?.message || String(err)).split('\n')[0].trim()
      process.stderr.write(
        terminalSafe(
          `error: internal error (a bug in kubectl-why, not in your input): ${err?.name ?? 'Error'}: ${text}; ` +
            `please report it with the output of the same command run with --debug${this.debugEnabled ? ' (above)' : ''}\n`,
        ),
      )
      process.exit(3)
    }
    process.stderr.write(terminalSafe(`error: ${this.oneLine(err)}\n`))
    process.exit(2)
  }
}

/**
 * Exit 2: the project's errors (UserError and its subclasses), oclif's flag and argument errors, and the system's
 * refusals of a file or socket the user named (ENOENT, EACCES...: an error with a syscall).
 */
export function isInputError(err: unknown): boolean {
  if (err instanceof UserError || err instanceof Errors.CLIError) return true
  const e = err as NodeJS.ErrnoException | undefined
  return typeof e?.code === 'string' && typeof e.syscall === 'string'
}
