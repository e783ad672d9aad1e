// Writes a synthetic cluster snapshot, e.g. the audit benchmark's:
//   node --import tsx test/support/synthetic/cli.ts --nodes 5000 --pods 150000 --out /tmp/big.json.gz
// Every SyntheticClusterOptions field is a flag in kebab case (--not-ready-nodes 40); --help lists them.
import {parseArgs} from 'node:util'
import type {NotReadyTaints} from './options.js'
import {writeSnapshot, type SnapshotOptions} from './writer.js'

const NUMBERS = [
  'seed',
  'nodes',
  'zones',
  'namespaces',
  'deployments',
  'replica-sets-per-deployment',
  'pods-per-replica-set',
  'pods',
  'daemon-sets',
  'stateful-sets',
  'replicas-per-stateful-set',
  'revisions-per-workload',
  'other-owned',
  'events',
  'not-ready-nodes',
  'lease-cache-lag-seconds',
  'dangling-owners',
  'stuck-foreground',
  'gzip-level',
] as const
const STRINGS = ['now', 'kubernetes-version', 'cluster-name', 'region', 'not-ready-zone', 'not-ready-taints', 'context', 'not-ready-seconds'] as const

const camel = (flag: string): string => flag.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase())

function usage(): string {
  return `usage: node --import tsx test/support/synthetic/cli.ts --out FILE[.gz] [options]
  numbers: ${NUMBERS.map((f) => `--${f}`).join(' ')}
  strings: ${STRINGS.map((f) => `--${f}`).join(' ')} (--not-ready-seconds MIN,MAX; --not-ready-taints all|none|mixed)
  --kcm-arg NAME=VALUE (repeatable): a kube-controller-manager flag, e.g. --kcm-arg node-monitor-grace-period=50s
  --no-discovery: leave discovery out of the header`
}

async function main(): Promise<void> {
  const {values} = parseArgs({
    options: {
      out: {type: 'string'},
      help: {type: 'boolean'},
      'no-discovery': {type: 'boolean'},
      'kcm-arg': {type: 'string', multiple: true},
      ...Object.fromEntries([...NUMBERS, ...STRINGS].map((f) => [f, {type: 'string' as const}])),
    },
    strict: true,
  })
  if (values.help || !values.out) {
    process.stderr.write(`${usage()}\n`)
    process.exit(values.help ? 0 : 2)
  }
  const options: Record<string, unknown> = {}
  const v = values as Record<string, string | undefined>
  for (const f of NUMBERS) {
    if (v[f] === undefined) continue
    const n = Number(v[f])
    if (!Number.isInteger(n)) throw new Error(`--${f}: "${v[f]}" is not an integer`)
    options[camel(f)] = n
  }
  for (const f of STRINGS) if (v[f] !== undefined) options[camel(f)] = v[f]
  if (v['not-ready-seconds'] !== undefined) options.notReadySeconds = v['not-ready-seconds'].split(',').map(Number)
  if (v['not-ready-taints'] !== undefined) options.notReadyTaints = v['not-ready-taints'] as NotReadyTaints
  if (values['kcm-arg']) {
    options.controllerManagerArgs = Object.fromEntries(
      values['kcm-arg'].map((a) => {
        const eq = a.indexOf('=')
        if (eq === -1) throw new Error(`--kcm-arg: "${a}" is not NAME=VALUE`)
        return [a.slice(0, eq).replace(/^--/, ''), a.slice(eq + 1)]
      }),
    )
  }
  if (values['no-discovery']) options.discovery = false
  const written = await writeSnapshot(values.out as string, options as SnapshotOptions)
  const mb = (n: number): string => (n / 1048576).toFixed(1)
  process.stdout.write(
    `${written.objects} objects written to ${written.path} in ${written.seconds.toFixed(2)} s ` +
      `(${Math.round(written.objects / written.seconds)} objects/s; ${mb(written.bytes)} MiB JSON, ${mb(written.fileBytes)} MiB on disk; ` +
      `peak RSS ${mb(process.resourceUsage().maxRSS * 1024)} MiB)\n`,
  )
}

main().catch((err: Error) => {
  process.stderr.write(`synthetic cluster: ${err.message}\n`)
  process.exit(2)
})
