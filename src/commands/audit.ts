import * as Flags from '@oclif/core/flags'
import {CHECK_NAMES, DEFAULT_CHECKS, DESCRIPTION, parseChecks, UNAVAILABLE} from '../audit/checks.js'
import {serviceAccountKubeconfig} from '../audit/in-cluster.js'
import {runAudit} from '../audit/run.js'
import {checkSelection} from '../audit/select.js'
import {readSuppressions} from '../audit/suppress.js'
import {type CommonFlags, WhyCommand} from '../base-command.js'
import {chooseVersion} from '../cluster/version.js'
import {sharedFlags} from '../flags.js'
import {renderAudit} from '../render/audit.js'
import {auditJsonChunks} from '../render/audit-json.js'
import {junitChunks} from '../render/audit-junit.js'
import {Progress} from '../render/progress.js'
import {controllerManagerFlags, settingsOverrides} from '../settings/flags.js'

type AuditFlags = Omit<CommonFlags, 'output'> &
  Partial<Record<keyof typeof controllerManagerFlags, string>> & {
    output: 'table' | 'wide' | 'json' | 'yaml' | 'junit' | 'html'
    checks?: string
    'skip-checks'?: string
    selector?: string
    'field-selector'?: string
    ignore?: string
    limit?: number
    sort: 'severity' | 'age' | 'name'
    'fail-on-partial': boolean
    progress: boolean
  }

export default class Audit extends WhyCommand {
  static override summary = 'Run every replay over a namespace or the whole cluster, for CI and scheduled audits.'
  static override description =
    `Reads the cluster once — one paginated list per kind, metadata only where no check needs more, a few lists at a time — and runs every check over what it read:
${CHECK_NAMES.filter((c) => !UNAVAILABLE[c])
  .map((c) => `  ${c.padEnd(9)}${DESCRIPTION[c]}`)
  .join('\n')}

Scope: namespaced checks follow -n, -A or the context's namespace; the node check always covers the whole cluster (nodes are cluster-scoped), and gc adds every cluster-scoped object and the node Leases to the namespace's objects. The header and the JSON's coverage say what each check covered.

The exit code: 0 nothing at or above --fail-on (default warning) and the audit complete; 1 findings at or above it, or the audit incomplete (a kind it could not read, a check partial) — --fail-on-partial is on by default, --no-fail-on-partial lets an incomplete audit pass on its findings, but a check that could read nothing of its kinds, or could not run, fails the audit always; 2 a usage or input error; 3 an internal error (a bug: report it with the --debug output). So \`kubectl why audit -A -o junit > report.xml\` gates a pipeline.

-l/--selector and --field-selector choose which objects' findings are reported (everything is still read: the replays need the whole picture). --ignore FILE suppresses accepted findings (YAML: check, verdict, kind, namespace and name patterns, a reason, an optional expiry date); they are counted and listed, never dropped. The table groups findings by check and verdict and shows the first --limit of each (by default as many as fit one screen per check); -o wide lists them all, -o json and -o yaml print the whole AuditReport (schemas/audit-report.json); -o junit one test suite per check with a test case per evaluated object. A kind you may not list (403) is reported with the RBAC rule that would allow it. deploy/ runs the audit in the cluster on a schedule.
${Object.entries(UNAVAILABLE)
  .map(([c, why]) => `\nThe ${c} check is not available yet: ${why}.`)
  .join('')}`

  static override examples = [
    {description: 'Audit the whole cluster; the job fails on warnings or on an incomplete read', command: '<%= config.bin %> audit -A'},
    {
      description: 'As JUnit XML for the CI system, with accepted findings suppressed',
      command: '<%= config.bin %> audit -A -o junit --ignore audit-ignore.yaml > audit.xml',
    },
    {
      description: 'One namespace, garbage collector and ReplicaSets only, fail only on critical findings',
      command: '<%= config.bin %> audit -n shop --checks gc,replicas --fail-on critical',
    },
    {description: 'Only the objects of one app, oldest first', command: '<%= config.bin %> audit -A -l app=web --sort age'},
    {description: 'Audit a saved incident snapshot, offline', command: '<%= config.bin %> audit -A -f examples/incident.yaml'},
  ]

  static override flags = {
    ...sharedFlags,
    ...controllerManagerFlags,
    output: Flags.option({
      char: 'o',
      options: ['table', 'wide', 'json', 'yaml', 'junit', 'html'] as const,
      description: 'Output format (junit: JUnit XML for CI; html: one self-contained report file).',
      default: 'table' as const,
      helpGroup: 'OUTPUT',
    })(),
    checks: Flags.string({description: `Which checks to run, comma-separated (default: ${DEFAULT_CHECKS.join(',')}).`, helpGroup: 'EVALUATION'}),
    'skip-checks': Flags.string({description: 'Checks not to run, comma-separated.', helpGroup: 'EVALUATION'}),
    selector: Flags.string({
      char: 'l',
      description: 'Report only objects with these labels (a label selector, as kubectl: app=web,tier!=db, env in (a,b)).',
      helpGroup: 'EVALUATION',
    }),
    'field-selector': Flags.string({
      description: 'Report only objects whose fields match (metadata.name, metadata.namespace, spec.nodeName, status.phase).',
      helpGroup: 'EVALUATION',
    }),
    ignore: Flags.string({
      description: 'A YAML file of suppressions (check, verdict, kind, namespace, name, reason, expires): matching findings are listed as suppressed.',
      helpGroup: 'EVALUATION',
    }),
    'fail-on-partial': Flags.boolean({
      description: 'Exit 1 when the audit is incomplete (default on; --no-fail-on-partial to pass on the findings alone).',
      default: true,
      allowNo: true,
      helpGroup: 'EVALUATION',
    }),
    limit: Flags.integer({
      description: 'Findings shown per check and verdict in the table (default: one screen per check; 0: all).',
      min: 0,
      helpGroup: 'OUTPUT',
    }),
    sort: Flags.option({
      options: ['severity', 'age', 'name'] as const,
      description: 'Order of the findings: severity (worst first), age (oldest object first) or name.',
      default: 'severity' as const,
      helpGroup: 'OUTPUT',
    })(),
    progress: Flags.boolean({
      description: 'Progress lines on stderr even when it is not a terminal (a terminal always gets them).',
      default: false,
      helpGroup: 'OUTPUT',
    }),
  }

  async run(): Promise<void> {
    const parsed = await this.parse(Audit)
    const flags = parsed.flags as AuditFlags
    this.setupOutput(flags as CommonFlags)
    const checks = parseChecks(flags.checks, flags['skip-checks'])
    const selection = {labelSelector: flags.selector, fieldSelector: flags['field-selector']}
    checkSelection(selection)
    const suppressions = flags.ignore === undefined ? undefined : readSuppressions(flags.ignore)
    const inCluster = await serviceAccountKubeconfig(flags)
    // The one progress line (src/render/progress.ts); --progress also logs the lines worth keeping off a terminal.
    const progress = flags.progress ? new Progress(process.stderr, true) : this.statusLine
    const source = await this.openSource({...flags, kubeconfig: inCluster?.path ?? flags.kubeconfig} as CommonFlags)
    try {
      const version = chooseVersion(this.versionOverride(flags as CommonFlags), await source.serverVersion().catch(() => undefined))
      const report = await runAudit(source, {
        checks,
        namespace: this.namespace(flags as CommonFlags, source),
        version,
        overrides: settingsOverrides(flags),
        failOn: flags['fail-on'] ?? 'warning',
        failOnPartial: flags['fail-on-partial'],
        selection,
        suppressions,
        ignoreFile: flags.ignore,
        sort: flags.sort,
        progress: progress.line,
      })
      progress.clear()
      this.statusLine.clear()
      const format = flags.output
      if (format === 'json') await this.writeChunks(auditJsonChunks(report))
      else if (format === 'junit') await this.writeChunks(junitChunks(report))
      else if (format === 'yaml' || format === 'html') await this.writeData(report, format)
      else await this.writeChunks([renderAudit(report, {wide: format === 'wide', limit: flags.limit})])
      // One --fail-on rule (the base command's); an incomplete audit fails by the report's own rule (summary.exitCode).
      this.failOnFindings(report.findings, flags as CommonFlags)
      if (report.summary.exitCode === 1) process.exitCode = 1
      if (!report.summary.complete && (format === 'json' || format === 'yaml' || format === 'junit' || format === 'html')) {
        const n = report.summary.incomplete.length
        process.stderr.write(
          `kubectl-why audit: incomplete: ${report.summary.incomplete[0]}${n > 1 ? ` (and ${n - 1} more: summary.incomplete)` : ''}${report.summary.failOnPartial ? '' : ' (--no-fail-on-partial)'}\n`,
        )
      }
    } finally {
      progress.clear()
      this.statusLine.clear()
      await source.close?.()
      inCluster?.remove()
    }
  }
}
