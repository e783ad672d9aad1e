// The flags every cluster-reading command shares, with kubectl's names and meanings. Defined once here.
import * as Flags from '@oclif/core/flags'

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
  output: Flags.option({
    char: 'o',
    options: ['table', 'wide', 'json', 'yaml', 'html'] as const,
    description: 'Output format (html: one self-contained report file, e.g. > report.html).',
    default: 'table' as const,
    helpGroup: 'OUTPUT',
  })(),
  color: Flags.option({
    options: ['auto', 'always', 'never'] as const,
    description: 'Colours: auto (a terminal, or FORCE_COLOR; not with NO_COLOR), always, never.',
    default: 'auto' as const,
    helpGroup: 'OUTPUT',
  })(),
  'no-color': Flags.boolean({description: 'Plain text without colours: --color=never.', default: false, helpGroup: 'OUTPUT'}),
  debug: Flags.boolean({description: 'Print stack traces and request logs on errors.', default: false, helpGroup: 'OUTPUT'}),
}

export const sharedFlags = {...connectionFlags, ...snapshotFlag, ...evaluationFlags, ...outputFlags}
