// How fast the two sources read a large cluster, against the reference the issue names: `kubectl get`
// of the same lists on the same (fake) API server, in the same run.
//   npm run bench:sources                 # 1,000 nodes / 30,000 pods
//   npm run bench:sources -- --full       # 5,000 nodes / 150,000 pods
//   npm run bench:sources -- --formats [--nodes 1000]   # the snapshot reader per dump format (JSON List, YAML, ...)
import {spawn} from 'node:child_process'
import {mkdtempSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {performance} from 'node:perf_hooks'
import {LiveSource} from '../src/cluster/live/live-source.js'
import {SnapshotSource} from '../src/cluster/snapshot/snapshot-source.js'
import {FakeApiServer} from '../test/support/fake-apiserver/index.js'
import {SyntheticCluster, writeSnapshot} from '../test/support/synthetic/index.js'

if (process.argv.includes('--formats')) {
  // The snapshot reader per dump format (bench/sources-formats.ts), alone.
  await import('./sources-formats.js')
  process.exit(0)
}
const full = process.argv.includes('--full')
const options = full ? {seed: 1, nodes: 5000, pods: 150_000} : {seed: 1, nodes: 1000, pods: 30_000}
const dir = mkdtempSync(join(tmpdir(), 'bench-sources-'))
const mib = (b: number) => `${(b / 2 ** 20).toFixed(0)} MiB`
const secs = (ms: number) => `${(ms / 1000).toFixed(2)} s`

async function timed<T>(fn: () => Promise<T>): Promise<{ms: number; value: T}> {
  const t = performance.now()
  const value = await fn()
  return {ms: performance.now() - t, value}
}

console.log(`synthetic cluster: ${options.nodes} nodes, ${options.pods} pods`)
const written = await writeSnapshot(join(dir, 'snap.json'), options)
console.log(`  snapshot file: ${written.objects} objects, ${mib(written.fileBytes)}, written in ${written.seconds.toFixed(1)} s`)

const rss0 = process.memoryUsage().rss
const snap = await timed(async () => {
  const s = await SnapshotSource.open(written.path)
  return (await s.list({kind: 'Pod'})).items.length
})
console.log(
  `snapshot source: open + list ${snap.value} pods: ${secs(snap.ms)} (${Math.round(written.objects / (snap.ms / 1000))} objects/s), RSS +${mib(process.memoryUsage().rss - rss0)}`,
)

const server = await FakeApiServer.start({objects: new SyntheticCluster(options).objects(), version: 'v1.31.2'})
const kubeconfig = server.writeKubeconfig(dir, {})
for (const [label, metadataOnly] of [
  ['full objects', false],
  ['metadata only', true],
] as const) {
  const live = await timed(async () => {
    const s = await LiveSource.open({kubeconfig, requestTimeout: 0})
    const n = (await s.list({kind: 'Pod', pageSize: 500, metadataOnly})).items.length
    await s.close?.()
    return n
  })
  let kubectlMs = Number.NaN
  const args = ['--kubeconfig', kubeconfig, 'get', 'pods', '-A', '--chunk-size=500', ...(metadataOnly ? ['-o', 'name'] : ['-o', 'json'])]
  // Spawned asynchronously: the fake server answers from this very process.
  const t = performance.now()
  const k = await new Promise<{code: number | null; err: string}>((resolve) => {
    const child = spawn('kubectl', args, {stdio: ['ignore', 'ignore', 'pipe']})
    let err = ''
    child.stderr.on('data', (d: Buffer) => (err += d.toString()))
    child.on('error', (e) => resolve({code: -1, err: e.message}))
    child.on('close', (code) => resolve({code, err}))
  })
  if (k.code === 0) kubectlMs = performance.now() - t
  else console.log(`  kubectl unavailable or failed: ${k.err.split('\n')[0]}`)
  console.log(
    `live source, ${label}: list ${live.value} pods in pages of 500: ${secs(live.ms)}; kubectl get pods -A ${args.includes('json') ? '-o json' : '-o name'} --chunk-size=500: ${secs(kubectlMs)}; ratio ${(live.ms / kubectlMs).toFixed(2)}×`,
  )
}
await server.close()
