// `kubectl why gc --all -A` against the fake API server on a synthetic cluster of about 100,000 objects with
// owner references, next to `kubectl get` of the same lists on the same server in the same run.
//   npm run bench:gc                      # ~100,000 owned objects
//   npm run bench:gc -- --small           # a quick ~10,000
//   npm run bench:gc -- --with-name       # also time kubectl get -o name
// Reports wall time, objects/second and the peak RSS of each process (bench/support/process.ts).
import {mkdtempSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {performance} from 'node:perf_hooks'
import {fileURLToPath} from 'node:url'
import {BUILTIN_KINDS} from '../src/cluster/builtin-kinds.js'
import {GcDiscovery} from '../src/engine/garbagecollector/index.js'
import {FakeApiServer} from '../test/support/fake-apiserver/index.js'
import {SyntheticCluster} from '../test/support/synthetic/index.js'
import {mib, runProcess, secs} from './support/process.js'

const small = process.argv.includes('--small')
const options = small
  ? {seed: 1, nodes: 100, pods: 5_000, deployments: 60, otherOwned: 4_000, danglingOwners: 30, stuckForeground: 2}
  : {seed: 1, nodes: 1_000, pods: 50_000, deployments: 600, otherOwned: 48_500, danglingOwners: 300, stuckForeground: 5}
const BIN = fileURLToPath(new URL('../bin/run.js', import.meta.url))
const dir = mkdtempSync(join(tmpdir(), 'bench-gc-'))

const run = (cmd: string, args: string[], keepStdout = true) => runProcess(cmd, args, {env: {...process.env, NO_COLOR: '1'}, keepStdout})

const cluster = new SyntheticCluster(options)
let owned = 0
let total = 0
const objects = [...cluster.objects()]
for (const o of objects) {
  total++
  if ((o.metadata?.ownerReferences ?? []).length > 0) owned++
}
console.log(`synthetic cluster: ${total} objects, ${owned} with owner references (${JSON.stringify(options)})`)
const t0 = performance.now()
const server = await FakeApiServer.start({objects, version: 'v1.31.2'})
objects.length = 0
console.log(`fake API server loaded in ${secs(performance.now() - t0)}`)
const kubeconfig = server.writeKubeconfig(dir, {})

try {
  // kubectl why gc --all -A
  server.clearRequests()
  const gc = await run(process.execPath, [BIN, 'gc', '--all', '-A', '-o', 'json', '--kubeconfig', kubeconfig, '--fail-on', 'none'])
  if (gc.code !== 0) throw new Error(`gc --all -A failed (${gc.code}): ${gc.stderr}`)
  const report = JSON.parse(gc.stdout)
  const requests = server.requests.length
  const writes = server.requests.filter((r) => r.method !== 'GET').length
  console.log(
    `kubectl why gc --all -A: ${report.objects} objects replayed in ${secs(gc.wallMs)} → ${Math.round(report.objects / (gc.wallMs / 1000))} objects/s; peak RSS ${mib(gc.peakKiB)}`,
  )
  console.log(
    `  ${requests} requests (${writes} not GET), ${report.ownerGets} owner GETs, ${report.monitoredTypes} monitored types; counts ${JSON.stringify(report.counts)}`,
  )

  // kubectl get of the same lists: every monitored type, all namespaces, pages of 500
  const types = new GcDiscovery(BUILTIN_KINDS).monitoredTypes().map((t) => (t.group ? `${t.resource}.${t.group}` : t.resource))
  for (const output of process.argv.includes('--with-name') ? ['json', 'name'] : ['json']) {
    // kubectl's JSON for 100,000 full objects is larger than a JavaScript string can hold: count bytes, not items.
    const k = await run('kubectl', ['--kubeconfig', kubeconfig, 'get', types.join(','), '-A', '--chunk-size=500', '-o', output], output === 'name')
    if (k.code !== 0) {
      console.log(`kubectl get failed or is missing: ${k.stderr.split('\n')[0]}`)
      break
    }
    const what = output === 'name' ? `${k.stdout.split('\n').filter(Boolean).length} objects` : `${mib(k.stdoutBytes / 1024)} of JSON`
    console.log(
      `kubectl get <${types.length} monitored types> -A --chunk-size=500 -o ${output}: ${what} in ${secs(k.wallMs)}; peak RSS ${mib(k.peakKiB)}; gc/kubectl time ratio ${(gc.wallMs / k.wallMs).toFixed(2)}×`,
    )
  }
} finally {
  await server.close()
}
