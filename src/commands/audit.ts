import {once} from 'node:events'
import {Flags} from '@oclif/core'
import {type CommonFlags, WhyCommand} from '../base-command.js'
import {chooseVersion} from '../cluster/version.js'
import {CHECK_NAMES, DEFAULT_CHECKS, DESCRIPTION, parseChecks, UNAVAILABLE} from '../audit/checks.js'
import {serviceAccountKubeconfig} from '../audit/in-cluster.js'
import {runAudit} from '../audit/run.js'
import type {Severity} from '../explanation.js'
import {sharedFlags} from '../flags.js'
import {renderAudit} from '../render/audit.js'
import {auditJsonChunks} from '../render/audit-json.js'
import {junitChunks} from '../render/audit-junit.js'
import {formatData} from '../render/output.js'
import {controllerManagerFlags, settingsOverrides} from '../settings/flags.js'

type AuditFlags = Omit<CommonFlags, 'output'> & Partial<Record<keyof typeof controllerManagerFlags, string>> & {
  output: 'table' | 'wide' | 'json' | 'yaml' | 'junit'
  checks?: string
  progress: boolean
}

/** Writes pieces of output as the pipe takes them, about 64 KiB at a time. */
async function writeChunks(chunks: Iterable<string>): Promise<void> {
  let buffer = ''
  const flush = async () => {
    if (buffer === '') return
    const ok = process.stdout.write(buffer)
    buffer = ''
    if (!ok) await once(process.stdout, 'drain')
  }
  for (const c of chunks) {
    buffer += c
    if (buffer.length >= 65_536) await flush()
  }
  await flush()
}

/** Progress on a terminal: one line, rewritten at most ten times a second. */
const TTY_INTERVAL_MS = 100

export default class Audit extends WhyCommand {
  static override summary = 'Run every replay over a namespace or the whole cluster, for CI and scheduled audits.'
  static override description = `Reads the cluster once — one paginated list per kind, metadata only where no check needs more, a few lists at a time — and runs every check over what it read:
${CHECK_NAMES.filter((c) => !UNAVAILABLE[c]).map((c) => `  ${c.padEnd(9)}${DESCRIPTION[c]}`).join('\n')}

Findings come worst first. The exit code follows --fail-on (default warning): 0 nothing at or above it, 1 findings at or above it, 2 a usage or input error, 3 an internal error (a bug: report it with the --debug output); so \`kubectl why audit -A -o junit > report.xml\` gates a pipeline.

A kind you may not list (403) is reported as not checked, with the RBAC rule that would allow it, and the rest runs. -o json and -o yaml print an AuditReport (schemas/audit-report.json); -o junit one test suite per check and one test case per finding (a failure for warning and critical). deploy/ runs it in the cluster on a schedule.
${Object.entries(UNAVAILABLE).map(([c, why]) => `\nThe ${c} check is not available yet: ${why}.`).join('')}`

  static override examples = [
    {description: 'Audit the whole cluster; the job fails on warnings', command: '<%= config.bin %> audit -A'},
    {description: 'As JUnit XML for the CI system', command: '<%= config.bin %> audit -A -o junit > audit.xml'},
    {description: 'One namespace, garbage collector and ReplicaSets only, fail only on critical findings', command: '<%= config.bin %> audit -n shop --checks gc,replicas --fail-on critical'},
    {description: 'Audit a saved incident snapshot, offline', command: '<%= config.bin %> audit -A -f examples/incident.yaml'},
  ]

  static override flags = {
    ...sharedFlags,
    ...controllerManagerFlags,
    output: Flags.option({char: 'o', options: ['table', 'wide', 'json', 'yaml', 'junit'] as const, description: 'Output format (junit: JUnit XML for CI).', default: 'table' as const, helpGroup: 'OUTPUT'})(),
    checks: Flags.string({description: `Which checks to run, comma-separated (default: ${DEFAULT_CHECKS.join(',')}).`, helpGroup: 'EVALUATION'}),
    progress: Flags.boolean({description: 'Progress lines on stderr even when it is not a terminal (a terminal always gets them).', default: false, helpGroup: 'OUTPUT'}),
  }

  async run(): Promise<void> {
    const parsed = await this.parse(Audit)
    const flags = parsed.flags as AuditFlags
    this.setupOutput(flags as CommonFlags)
    const checks = parseChecks(flags.checks)
    const failOn: Severity = flags['fail-on'] ?? 'warning'
    const inCluster = serviceAccountKubeconfig(flags)
    const progress = this.progress(flags.progress)
    const source = await this.openSource({...flags, kubeconfig: inCluster?.path ?? flags.kubeconfig} as CommonFlags)
    try {
      const version = chooseVersion(this.versionOverride(flags as CommonFlags), await source.serverVersion().catch(() => undefined))
      const report = await runAudit(source, {
        checks, namespace: this.namespace(flags as CommonFlags, source), version, overrides: settingsOverrides(flags), failOn, progress: progress.line,
      })
      progress.clear()
      const format = flags.output
      if (format === 'json') await writeChunks(auditJsonChunks(report))
      else if (format === 'junit') await writeChunks(junitChunks(report))
      else if (format === 'yaml') this.write(formatData(report, format))
      else this.write(renderAudit(report, format === 'wide'))
      if (report.summary.failing > 0) {
        // oclif ends the process at once on exit(1): a large report on a pipe must be out first.
        await new Promise<void>((resolve) => process.stdout.write('', () => resolve()))
        this.exit(1)
      }
    } finally {
      progress.clear()
      await source.close?.()
      inCluster?.remove()
    }
  }

  /** A rewritten line on a terminal; with --progress elsewhere, the lines worth keeping (a kind listed, a check started). */
  private progress(forced: boolean): {line?: (text: string, final?: boolean) => void; clear: () => void} {
    if (process.stderr.isTTY) {
      let last = 0
      let shown = false
      return {
        line: (text, final) => {
          const t = Date.now()
          if (!final && t - last < TTY_INTERVAL_MS) return
          last = t
          shown = true
          process.stderr.write(`\r\u001B[2K${text.slice(0, (process.stderr.columns || 120) - 1)}`)
        },
        clear: () => {
          if (shown) process.stderr.write('\r\u001B[2K')
          shown = false
        },
      }
    }
    if (forced) return {line: (text, final) => final && process.stderr.write(`${text}\n`), clear: () => {}}
    return {clear: () => {}}
  }
}
