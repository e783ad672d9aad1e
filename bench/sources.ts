// How fast the two sources read a large cluster, against the reference the issue names: `kubectl get`
// of the same lists on the same (fake) API server, in the same run.
//   npm run bench:sources                 # 1,000 nodes / 30,000 pods
//   npm run bench:sources -- --full       # 5,000 nodes / 150,000 pods
//   npm run bench:sources -- --formats [--nodes 1000]   # the snapshot reader per dump format (JSON List, YAML, ...)
//   npm run bench:sources -- --readers [--rounds 7]     # only the JSON readers against JSON.parse (issue 29.4)
// Last, the two JSON readers against JSON.parse of the same bytes, in one loop (CPU time, medians of --rounds, default 5):
// the snapshot reader (json-stream.ts, fed the file in read-input.ts's 1 MiB pieces, each item handed to a sink that
// keeps none, then the depth check documents.ts makes of each item) and the live page reader (json-body.ts, fed a
// 500-pod page as the fake API server writes it in 64 KiB pieces). Target: within 1.3× (issue 29.4).
import {spawn} from 'node:child_process'
import {mkdtempSync, readFileSync} from 'node:fs'
import {request} from 'node:https'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {performance} from 'node:perf_hooks'
import {JsonBody} from '../src/cluster/live/json-body.js'
import {LiveSource} from '../src/cluster/live/live-source.js'
import {JsonStreamReader, type JsonStreamSink} from '../src/cluster/snapshot/json-stream.js'
import {SnapshotSource} from '../src/cluster/snapshot/snapshot-source.js'
import {tooDeep} from '../src/util/json.js'
import {FakeApiServer} from '../test/support/fake-apiserver/index.js'
import {SyntheticCluster, writeSnapshot} from '../test/support/synthetic/index.js'

if (process.argv.includes('--formats')) {
  // The snapshot reader per dump format (bench/sources-formats.ts), alone.
  await import('./sources-formats.js')
  process.exit(0)
}
const full = process.argv.includes('--full')
const readersOnly = process.argv.includes('--readers')
const roundsAt = process.argv.indexOf('--rounds')
const rounds = roundsAt === -1 ? 5 : Number(process.argv[roundsAt + 1])
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

if (!readersOnly) {
  const rss0 = process.memoryUsage().rss
  const snap = await timed(async () => {
    const s = await SnapshotSource.open(written.path)
    return (await s.list({kind: 'Pod'})).items.length
  })
  console.log(
    `snapshot source: open + list ${snap.value} pods: ${secs(snap.ms)} (${Math.round(written.objects / (snap.ms / 1000))} objects/s), RSS +${mib(process.memoryUsage().rss - rss0)}`,
  )
}

const server = await FakeApiServer.start({objects: new SyntheticCluster(options).objects(), version: 'v1.31.2'})
const kubeconfig = server.writeKubeconfig(dir, {})
if (!readersOnly) {
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
}

/** A 500-pod page as the server writes it (what LiveSource's list reads a page at a time). */
const page = await new Promise<Buffer>((resolve, reject) => {
  const url = new URL('/api/v1/pods?limit=500', server.url)
  const req = request(url, {ca: server.caPem, headers: {Authorization: `Bearer ${server.token}`, Accept: 'application/json'}}, (res) => {
    const pieces: Buffer[] = []
    res.on('data', (d: Buffer) => pieces.push(d))
    res.on('end', () => resolve(Buffer.concat(pieces)))
    res.on('error', reject)
  })
  req.on('error', reject)
  req.end()
})
await server.close()

const pieces = (b: Buffer, size: number) => Array.from({length: Math.ceil(b.length / size)}, (_, i) => b.subarray(i * size, (i + 1) * size))
const snapBytes = readFileSync(written.path)
const snapPieces = pieces(snapBytes, 1 << 20)
// The stricter floor for an item-at-a-time reader: each item's line decoded and JSON.parse'd, the lines found beforehand.
const snapLines: Buffer[] = []
for (let at = snapBytes.indexOf(0x0a) + 1, nl = snapBytes.indexOf(0x0a, at); nl !== -1; at = nl + 1, nl = snapBytes.indexOf(0x0a, at)) {
  let end = nl
  if (snapBytes[end - 1] === 0x2c) end--
  if (snapBytes[at] === 0x7b) snapLines.push(snapBytes.subarray(at, end))
}
const pagePieces = pieces(page, 64 << 10)
let kept = 0
const sink: JsonStreamSink = {
  listStart() {},
  item(value) {
    // documents.ts collectItem's check of each item read (util/json.ts MAX_DEPTH): part of reading it.
    if (!tooDeep(value)) kept++
  },
  documentEnd() {},
}
const PAGE_REPEAT = 20
const samples = {snapParse: [] as number[], snapItems: [] as number[], snapReader: [] as number[], pageParse: [] as number[], pageReader: [] as number[]}
// CPU time of this process (user + system), not wall time: the machine is shared, and a ratio of wall times taken
// while other processes run is a ratio of their load too. GC helper threads count, for the reader and JSON.parse alike.
const cpuMs = () => {
  const u = process.cpuUsage()
  return (u.user + u.system) / 1000
}
const clock = (into: number[], times: number, fn: () => void) => {
  const t = cpuMs()
  for (let k = 0; k < times; k++) fn()
  into.push((cpuMs() - t) / times)
}
for (let r = 0; r < rounds; r++) {
  clock(samples.snapParse, 1, () => JSON.parse(snapBytes.toString('utf8')))
  clock(samples.snapItems, 1, () => {
    for (const line of snapLines) JSON.parse(line.toString('utf8'))
  })
  clock(samples.snapReader, 1, () => {
    const reader = new JsonStreamReader(sink, written.path)
    for (const p of snapPieces) reader.push(p)
    reader.end()
  })
  clock(samples.pageParse, PAGE_REPEAT, () => JSON.parse(page.toString('utf8')))
  clock(samples.pageReader, PAGE_REPEAT, () => {
    const body = new JsonBody('page')
    for (const p of pagePieces) body.push(p)
    body.result()
  })
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]
const TARGET = 1.3
console.log(`JSON readers against JSON.parse of the same bytes (CPU ms, medians of ${rounds} rounds in one loop; target ≤ ${TARGET}×):`)
for (const [label, bytes, parse, reader] of [
  [`snapshot reader, ${mib(snapBytes.length)} file (json-stream.ts)`, snapBytes.length, samples.snapParse, samples.snapReader],
  [`live page reader, 500 pods, ${(page.length / 2 ** 20).toFixed(1)} MiB (json-body.ts)`, page.length, samples.pageParse, samples.pageReader],
] as const) {
  const ratio = median(reader) / median(parse)
  console.log(
    `  ${label}: ${median(reader).toFixed(1)} ms, JSON.parse ${median(parse).toFixed(1)} ms (${(bytes / 2 ** 20 / (median(parse) / 1000)).toFixed(0)} MiB/s): ${ratio.toFixed(2)}× ${ratio <= TARGET ? 'within' : 'OVER'} ${TARGET}×`,
  )
}
console.log(
  `  snapshot reader against JSON.parse of each item's line (${snapLines.length} lines found beforehand): ${median(samples.snapItems).toFixed(1)} ms, ${(median(samples.snapReader) / median(samples.snapItems)).toFixed(2)}×`,
)
if (kept === 0) throw new Error('the readers read no items')
