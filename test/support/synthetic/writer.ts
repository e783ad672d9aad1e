// writeSnapshot: streams a synthetic cluster into a snapshot file exactly as `kubectl why snapshot`
// lays it out (docs/snapshot-format.md): the header line ending in `"items":[`, one item per line, the
// closing `]}` — so the snapshot reader takes it a line at a time. gzip when the path ends in .gz.
// Written through a pipeline, so a slow disk or gzip pushes back on generation instead of piling up.
import {createWriteStream} from 'node:fs'
import {stat} from 'node:fs/promises'
import {Readable} from 'node:stream'
import {pipeline} from 'node:stream/promises'
import {createGzip} from 'node:zlib'
import {apiVersionOf, BUILTIN_KINDS} from '../../../src/cluster/builtin-kinds.js'
import {metadataOnlyKinds} from '../../../src/cluster/snapshot/capture.js'
import {DESCRIPTORS} from '../../../src/engine/replays.js'
import {fullKinds} from '../../../src/replay.js'
import {SyntheticCluster} from './generate.js'
import type {SyntheticClusterOptions} from './options.js'

export interface SnapshotOptions extends SyntheticClusterOptions {
  /** kubeconfig context recorded in the header. Default "synthetic". */
  context?: string
  /** Record discovery (the built-in kinds) in the header; without it readers fall back to the same list. Default true. */
  discovery?: boolean
  /** gzip level for .gz paths; 1 (default) is ~4× faster than 6 for ~15% more bytes. */
  gzipLevel?: number
}

export interface SnapshotWritten {
  path: string
  objects: number
  /** Uncompressed JSON bytes. */
  bytes: number
  /** Bytes on disk. */
  fileBytes: number
  seconds: number
}

/** Items are joined into chunks of about this size before they are written. */
const CHUNK = 1 << 20

function serverVersion(gitVersion: string): Record<string, string> {
  const m = /^v?(\d+)\.(\d+)/.exec(gitVersion) as RegExpExecArray
  return {
    major: m[1],
    minor: m[2],
    gitVersion,
    gitCommit: '0000000000000000000000000000000000000000',
    gitTreeState: 'clean',
    buildDate: '2024-10-22T20:28:14Z',
    goVersion: 'go1.22.8',
    compiler: 'gc',
    platform: 'linux/amd64',
  }
}

function headerLine(cluster: SyntheticCluster, options: SnapshotOptions): string {
  const o = cluster.plan.o
  const cached: string[] = []
  for (const lease of cluster.cachedLeases()) cached.push(JSON.stringify(lease))
  const header: Record<string, unknown> = {
    format: 1,
    capturedAt: o.now,
    serverVersion: serverVersion(o.kubernetesVersion),
    context: options.context ?? 'synthetic',
    namespace: 'default',
  }
  if (options.discovery ?? true) header.resources = BUILTIN_KINDS
  // Every other listable kind as metadata, as `kubectl why snapshot` records them (capture.ts): absence from them is proof.
  const metadataKinds = metadataOnlyKinds(BUILTIN_KINDS, fullKinds(DESCRIPTORS))
  header.metadataOnly = metadataKinds.map((t) => `${apiVersionOf(t)}/${t.kind}`)
  // And every list made, as capture.ts records them: without `lists` a reader takes the header for one written before
  // it was recorded, whose full kinds were a fixed few (snapshot/evidence.ts LISTED_IN_FULL_BEFORE_LISTS), so a kind
  // a replay has read in full since (Jobs, CronJobs, Namespaces) would be held but not proved complete — the cause of
  // the live and snapshot audits disagreeing once Jobs were read whole (a Job whose CronJob is gone: delete live,
  // unknown offline).
  header.lists = [
    {apiVersion: 'v1', kind: 'Node'},
    {apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', namespace: 'kube-node-lease'},
    {apiVersion: 'coordination.k8s.io/v1', kind: 'Lease'},
    ...fullKinds(DESCRIPTORS),
    ...metadataKinds.map((t) => ({apiVersion: apiVersionOf(t), kind: t.kind, metadataOnly: true})),
  ]
  // `cached` is spliced in as text: the leases are already serialised one by one.
  const head = JSON.stringify(header).slice(0, -1)
  return `{"apiVersion":"v1","kind":"List","metadata":{"resourceVersion":""},"kubectlWhy":${head},"cached":[${cached.join(',')}]},"items":[\n`
}

async function* chunks(cluster: SyntheticCluster, options: SnapshotOptions, tally: {objects: number; bytes: number}): AsyncGenerator<Buffer> {
  let chunk = headerLine(cluster, options)
  let pending: string | undefined
  for (const object of cluster.objects()) {
    // Each line but the last ends in a comma; the previous item is written once the next one exists.
    if (pending !== undefined) chunk += `${pending},\n`
    pending = JSON.stringify(object)
    tally.objects++
    if (chunk.length >= CHUNK) {
      const b = Buffer.from(chunk)
      tally.bytes += b.length
      yield b
      chunk = ''
    }
  }
  chunk += `${pending !== undefined ? `${pending}\n` : ''}]}\n`
  const b = Buffer.from(chunk)
  tally.bytes += b.length
  yield b
}

/** Generates the cluster `options` describe into a snapshot file at `path`. */
export async function writeSnapshot(path: string, options: SnapshotOptions = {}): Promise<SnapshotWritten> {
  const started = performance.now()
  const cluster = new SyntheticCluster(options)
  const tally = {objects: 0, bytes: 0}
  const source = Readable.from(chunks(cluster, options, tally), {objectMode: false})
  const sink = createWriteStream(path)
  if (path.endsWith('.gz')) await pipeline(source, createGzip({level: options.gzipLevel ?? 1}), sink)
  else await pipeline(source, sink)
  const fileBytes = (await stat(path)).size
  return {path, objects: tally.objects, bytes: tally.bytes, fileBytes, seconds: (performance.now() - started) / 1000}
}
