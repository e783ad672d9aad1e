import * as Flags from '@oclif/core/flags'
import {CHECK_NAMES, DEFAULT_CHECKS, DESCRIPTION, parseChecks, UNAVAILABLE} from '../audit/checks.js'
import {serviceAccountKubeconfig} from '../audit/in-cluster.js'
import {auditProjectionPlan} from '../audit/project.js'
import {runAudit} from '../audit/run.js'
import {checkSelection} from '../audit/select.js'
import {readSuppressions} from '../audit/suppress.js'
import {WhyCommand} from '../base-command.js'
import {chooseVersion} from '../cluster/version.js'
import {auditFlags, auditOutputFlag, sharedFlags} from '../flags.js'
import {renderAudit} from '../render/audit.js'
import {auditJsonChunks} from '../render/audit-json.js'
import {junitChunks} from '../render/audit-junit.js'
import {controllerManagerFlags, settingsOverrides} from '../settings/flags.js'

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
    ...auditOutputFlag,
    checks: Flags.string({description: `Which checks to run, comma-separated (default: ${DEFAULT_CHECKS.join(',')}).`, helpGroup: 'EVALUATION'}),
    ...auditFlags,
  }

  /** A snapshot keeps only what the checks read, as it arrives. */
  protected override projection = () => auditProjectionPlan()

  async run(): Promise<void> {
    const {flags} = await this.parse(Audit)
    this.setupOutput(flags)
    const selection = {labelSelector: flags.selector, fieldSelector: flags['field-selector']}
    const checks = parseChecks(flags.checks, flags['skip-checks'])
    checkSelection(selection)
    const suppressions = flags.ignore === undefined ? undefined : readSuppressions(flags.ignore)
    const {'fail-on': failOn, 'fail-on-partial': failOnPartial, sort, ignore: ignoreFile} = flags
    const o = {checks, selection, suppressions, ignoreFile, failOn, failOnPartial, sort, overrides: settingsOverrides(flags)}
    const inCluster = await serviceAccountKubeconfig(flags)
    // The one progress line (src/render/progress.ts), as --progress=auto|always|never says (setupOutput).
    const progress = this.statusLine
    try {
      await this.answerFrom(
        {...flags, kubeconfig: inCluster?.path ?? flags.kubeconfig},
        async (source) => {
          const version = chooseVersion(this.versionOverride(flags), await source.serverVersion().catch(() => undefined))
          const report = await runAudit(source, {...o, namespace: this.namespace(flags, source), version, progress: progress.line})
          const {incomplete, complete, exitCode} = report.summary
          const more = incomplete.length > 1 ? ` (and ${incomplete.length - 1} more: summary.incomplete)` : ''
          return {
            data: report,
            severities: report.findings.map((f) => f.severity),
            // An incomplete audit fails by the report's own rule (summary.exitCode), and says so where the table does not.
            failed: exitCode === 1,
            notice: complete ? undefined : `kubectl-why audit: incomplete: ${incomplete[0]}${more}${failOnPartial ? '' : ' (--no-fail-on-partial)'}\n`,
            views: {
              table: (wide, src) => [renderAudit(report, {wide, limit: flags.limit, source: src})],
              json: (src) => auditJsonChunks(report, src),
              junit: (src) => junitChunks(report, src),
            },
          }
        },
        flags,
      )
    } finally {
      inCluster?.remove()
    }
  }
}
