// The flags every cluster-reading command shares, with kubectl's names and meanings, and the audit's own. Defined once here.
import {readFileSync} from 'node:fs'
import * as Errors from '@oclif/core/errors'
import * as Flags from '@oclif/core/flags'
import {checkTemplate, type OutputFormat} from './render/output.js'

/** kubectl's template forms of -o: the template after the first '=' (cli-runtime v0.34.0 pkg/genericclioptions/jsonpath_flags.go:34, :69). */
const TEMPLATE_FORM = /^(jsonpath|jsonpath-file|jsonpath-as-json)(=|$)/s

/**
 * -o's values: the named formats, and kubectl's jsonpath=TEMPLATE, jsonpath-file=FILE, jsonpath-as-json=TEMPLATE.
 * oclif checks a value with `options.includes` before its parse runs, and completion, help and the man page list
 * `options`: a list that also admits the template forms keeps all of that, the forms listed by their prefix.
 */
class OutputOptions extends Array<string> {
  override includes(value: string): boolean {
    return super.includes(value) || TEMPLATE_FORM.test(value)
  }
}

/**
 * kubectl's ToPrinter before any read (jsonpath_flags.go:62): a form without a template refused (:87), a jsonpath-file
 * read into its jsonpath= form (:93 `error reading --template …`), a template parsed (:101 `error parsing jsonpath …`).
 * CLIError: exit 2, one line.
 */
function parseOutput(value: string): OutputFormat | 'junit' {
  const m = TEMPLATE_FORM.exec(value)
  if (!m) return value as OutputFormat | 'junit'
  const form = m[1]
  let template = value.slice(m[0].length)
  if (m[2] === '' || template === '') throw new Errors.CLIError('template format specified but no template given')
  if (form === 'jsonpath-file') {
    try {
      template = readFileSync(template, 'utf8')
    } catch (err) {
      throw new Errors.CLIError(`error reading --template ${template}, ${(err as Error).message}`)
    }
  }
  const format = `${form === 'jsonpath-as-json' ? 'jsonpath-as-json' : 'jsonpath'}=${template}` as OutputFormat
  try {
    checkTemplate(format)
  } catch (err) {
    throw new Errors.CLIError((err as Error).message)
  }
  return format
}

const TEMPLATE_FORMS = ['name', 'jsonpath=', 'jsonpath-file=', 'jsonpath-as-json=']

/** -o/--output over these formats plus name and the jsonpath forms. */
function outputFlag(formats: readonly (OutputFormat | 'junit')[], description: string) {
  return Flags.custom<OutputFormat | 'junit'>({
    char: 'o',
    options: OutputOptions.from([...formats, ...TEMPLATE_FORMS]),
    description: `${description} name: kubectl's kind.group/name of the object asked about (with --all, for the audit and for node without a NAME: of each object with a finding or result, each node). jsonpath=TEMPLATE (or jsonpath-file=FILE, jsonpath-as-json=TEMPLATE): kubectl's JSONPath template over the -o json document.`,
    default: 'table',
    helpGroup: 'OUTPUT',
    parse: async (value: string) => parseOutput(value),
  })()
}

export const connectionFlags = {
  kubeconfig: Flags.string({description: 'Path to the kubeconfig file (default: $KUBECONFIG, then ~/.kube/config).', helpGroup: 'CLUSTER'}),
  context: Flags.string({description: 'The kubeconfig context to use.', helpGroup: 'CLUSTER'}),
  namespace: Flags.string({char: 'n', description: 'Namespace (default: the context\'s namespace, else "default").', helpGroup: 'CLUSTER'}),
  'all-namespaces': Flags.boolean({char: 'A', description: 'Look across all namespaces.', helpGroup: 'CLUSTER', default: false}),
  'request-timeout': Flags.string({
    description:
      'How long to wait for one request, its retries included, before giving up, e.g. 10s, 1m; 0 waits forever. Default: forever at a terminal, 5m when neither stdin nor stdout is one (CronJob, CI).',
    helpGroup: 'CLUSTER',
  }),
  as: Flags.string({description: 'Username to impersonate for the operation (as kubectl --as).', helpGroup: 'CLUSTER'}),
  'as-group': Flags.string({
    description: 'Group to impersonate for the operation; repeat the flag for several groups.',
    multiple: true,
    multipleNonGreedy: true,
    helpGroup: 'CLUSTER',
  }),
  'as-uid': Flags.string({description: 'UID to impersonate for the operation.', helpGroup: 'CLUSTER'}),
  // kubectl's connection flags (client-go tools/clientcmd/overrides.go RecommendedConfigOverrideFlags, listed by
  // `kubectl options` v1.32), over the kubeconfig as clientcmd merges them (src/cluster/live/kubeconfig.ts).
  user: Flags.string({description: 'The name of the kubeconfig user to use.', helpGroup: 'CLUSTER'}),
  cluster: Flags.string({description: 'The name of the kubeconfig cluster to use.', helpGroup: 'CLUSTER'}),
  server: Flags.string({char: 's', description: 'The address and port of the Kubernetes API server.', helpGroup: 'CLUSTER'}),
  token: Flags.string({description: 'Bearer token for authentication to the API server.', helpGroup: 'CLUSTER'}),
  'certificate-authority': Flags.string({description: 'Path to a cert file for the certificate authority.', helpGroup: 'CLUSTER'}),
  'insecure-skip-tls-verify': Flags.boolean({
    description: "Do not check the server's certificate (insecure; as kubectl's flag).",
    default: false,
    helpGroup: 'CLUSTER',
  }),
  'tls-server-name': Flags.string({description: "Server name to check the server's certificate against (default: the server's host).", helpGroup: 'CLUSTER'}),
  'client-certificate': Flags.string({description: 'Path to a client certificate file for TLS.', helpGroup: 'CLUSTER'}),
  'client-key': Flags.string({description: 'Path to a client key file for TLS.', helpGroup: 'CLUSTER'}),
  username: Flags.string({description: 'Username for basic authentication to the API server.', helpGroup: 'CLUSTER'}),
  password: Flags.string({description: 'Password for basic authentication to the API server.', helpGroup: 'CLUSTER'}),
  // klog's -v as kubectl's request log reads it (client-go transport/round_trippers.go DebugWrappers).
  v: Flags.integer({
    char: 'v',
    min: 0,
    description:
      'Log level, as kubectl -v: 6 each request (method, URL, status, time), 7 its headers (credentials masked), 8 bodies to 1 KiB, 9 to 10 KiB, 10 whole; on stderr.',
    helpGroup: 'CLUSTER',
  }),
}

export const snapshotFlag = {
  snapshot: Flags.string({
    char: 'f',
    description: 'Read a saved dump instead of a live cluster: a file (JSON/YAML, .gz too), a directory of them, or - for stdin.',
    helpGroup: 'CLUSTER',
  }),
}

export const evaluationFlags = {
  now: Flags.string({
    description: 'Evaluate as of this instant (RFC 3339). Default: the live clock, or the capture time of a snapshot.',
    helpGroup: 'EVALUATION',
  }),
  'k8s-version': Flags.string({description: "Assume this control-plane version (X.Y). Default: the server's, or the snapshot's.", helpGroup: 'EVALUATION'}),
  'fail-on': Flags.option({
    options: ['none', 'info', 'warning', 'critical'] as const,
    description: 'Exit 1 when a finding is at or above this severity; none never fails.',
    default: 'warning' as const,
    helpGroup: 'EVALUATION',
  })(),
}

export const outputFlags = {
  output: outputFlag(['table', 'wide', 'json', 'yaml', 'html'], 'Output format (html: one self-contained report file, e.g. > report.html).'),
  'allow-missing-template-keys': Flags.boolean({
    description: 'If true, ignore any errors in templates when a field or map key is missing in the template (as kubectl; -o jsonpath).',
    default: true,
    allowNo: true,
    helpGroup: 'OUTPUT',
  }),
  color: Flags.option({
    options: ['auto', 'always', 'never'] as const,
    description: 'Colours: auto (a terminal, or FORCE_COLOR; not with NO_COLOR), always, never.',
    default: 'auto' as const,
    helpGroup: 'OUTPUT',
  })(),
  'no-color': Flags.boolean({description: 'Plain text without colours: --color=never.', default: false, helpGroup: 'OUTPUT'}),
  debug: Flags.boolean({description: 'Print stack traces and request logs on errors.', default: false, helpGroup: 'OUTPUT'}),
  // src/render/progress.ts; a bare --progress (its old boolean form) means always (WhyCommand.init).
  progress: Flags.option({
    options: ['auto', 'always', 'never'] as const,
    description: 'The progress line on stderr: auto (a terminal only), always (also off a terminal, as log lines), never.',
    default: 'auto' as const,
    helpGroup: 'OUTPUT',
  })(),
}

export const sharedFlags = {...connectionFlags, ...snapshotFlag, ...evaluationFlags, ...outputFlags}

/** The audit's -o, with junit. */
export const auditOutputFlag = {
  output: outputFlag(['table', 'wide', 'json', 'yaml', 'junit', 'html'], 'Output format (junit: JUnit XML for CI; html: one self-contained report file).'),
}

/** The audit's own flags, in the order its help lists them after --checks (defined beside the command: its help names the default checks). */
export const auditFlags = {
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
}
