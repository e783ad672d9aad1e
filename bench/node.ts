// `kubectl why node` (all nodes) and `kubectl why evicted` for one pod against the fake API server on a synthetic
// cluster of 5,000 nodes with their Leases and 150,000 pods, next to `kubectl get nodes,leases -A -o json` on the
// same server in the same run.
//   npm run bench:node               # 5,000 nodes, 150,000 pods
//   npm run bench:node -- --small    # 500 nodes, 15,000 pods
// Reports wall time and peak RSS of each process (bench/support/process.ts), and the ratios to kubectl get.
import {mkdtempSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {performance} from 'node:perf_hooks'
import {fileURLToPath} from 'node:url'
import type {KubeObject} from '../src/cluster/source.js'
import {FakeApiServer} from '../test/support/fake-apiserver/index.js'
import {SyntheticCluster} from '../test/support/synthetic/index.js'
import {mib, ratio, runProcess, secs} from './support/process.js'

const small = process.argv.includes('--small')
const nodes = small ? 500 : 5_000
const options = {
  seed: 1,
  nodes,
  pods: nodes * 30,
  otherOwned: nodes,
  notReadyNodes: Math.round(nodes / 100),
  notReadyTaints: 'mixed' as const,
  kubernetesVersion: 'v1.33.2',
}
const BIN = fileURLToPath(new URL('../bin/run.js', import.meta.url))
const dir = mkdtempSync(join(tmpdir(), 'bench-node-'))

const run = (cmd: string, args: string[]) => runProcess(cmd, args, {env: {...process.env, NO_COLOR: '1'}})

const cluster = new SyntheticCluster(options)
const objects: KubeObject[] = [...cluster.objects()]
const count = (kind: string) => objects.filter((o) => o.kind === kind).length
console.log(`synthetic cluster: ${objects.length} objects: ${count('Node')} nodes, ${count('Lease')} leases, ${count('Pod')} pods (${JSON.stringify(options)})`)
// A pod on a not-ready node, for `evicted`.
const notReady = new Set(
  objects
    .filter(
      (o) =>
        o.kind === 'Node' &&
        ((o.status as {conditions?: {type: string; status: string}[]})?.conditions ?? []).some((c) => c.type === 'Ready' && c.status !== 'True'),
    )
    .map((o) => o.metadata?.name),
)
const victim =
  objects.find(
    (o) =>
      o.kind === 'Pod' && notReady.has((o.spec as {nodeName?: string})?.nodeName) && !(o.metadata?.ownerReferences ?? []).some((r) => r.kind === 'DaemonSet'),
  ) ?? objects.find((o) => o.kind === 'Pod' && o.metadata?.namespace !== 'kube-system')!
const t0 = performance.now()
const server = await FakeApiServer.start({objects, version: options.kubernetesVersion})
objects.length = 0
console.log(`fake API server loaded in ${secs(performance.now() - t0)}`)
const kubeconfig = server.writeKubeconfig(dir, {})
const now = ['--now', '2026-11-29T03:00:00Z']

try {
  server.clearRequests()
  const node = await run(process.execPath, [BIN, 'node', '-o', 'json', '--kubeconfig', kubeconfig, '--fail-on', 'none', ...now])
  if (node.code !== 0) throw new Error(`why node failed (${node.code}): ${node.stderr}`)
  const report = JSON.parse(node.stdout)
  const verdicts: Record<string, number> = {}
  for (const n of report.nodes) verdicts[n.verdict] = (verdicts[n.verdict] ?? 0) + 1
  const writes = server.requests.filter((r) => r.method !== 'GET').length
  console.log(
    `kubectl why node (all): ${report.nodes.length} nodes in ${secs(node.wallMs)}; peak RSS ${mib(node.peakKiB)}; ${server.requests.length} requests (${writes} not GET); cluster ${report.verdict}; ${JSON.stringify(verdicts)}`,
  )

  server.clearRequests()
  const ns = victim.metadata?.namespace ?? 'default'
  const evicted = await run(process.execPath, [
    BIN,
    'evicted',
    `pod/${victim.metadata?.name}`,
    '-n',
    ns,
    '-o',
    'json',
    '--kubeconfig',
    kubeconfig,
    '--fail-on',
    'none',
    ...now,
  ])
  if (evicted.code !== 0) throw new Error(`why evicted failed (${evicted.code}): ${evicted.stderr}`)
  const e = JSON.parse(evicted.stdout)
  console.log(
    `kubectl why evicted pod/${victim.metadata?.name} -n ${ns}: ${e.verdict} in ${secs(evicted.wallMs)}; peak RSS ${mib(evicted.peakKiB)}; ${server.requests.length} requests`,
  )

  const k = await run('kubectl', ['--kubeconfig', kubeconfig, 'get', 'nodes,leases', '-A', '--chunk-size=500', '-o', 'json'])
  if (k.code !== 0) console.log(`kubectl get failed or is missing: ${k.stderr.split('\n')[0]}`)
  else {
    const items = (JSON.parse(k.stdout).items ?? []).length
    console.log(`kubectl get nodes,leases -A -o json: ${items} objects in ${secs(k.wallMs)}; peak RSS ${mib(k.peakKiB)}`)
    console.log(
      `ratios to kubectl get: why node time ${ratio(node.wallMs, k.wallMs)}, memory ${ratio(node.peakKiB, k.peakKiB)}; why evicted time ${ratio(evicted.wallMs, k.wallMs)}, memory ${ratio(evicted.peakKiB, k.peakKiB)}`,
    )
  }
} finally {
  await server.close()
}
