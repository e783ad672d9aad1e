// npm run bench:validate — the cost of the boundary validation (src/cluster/validate) at the size (synthetic,
// seeded: 5,000 nodes, 150,000 pods): objects/s of the hand-written checker against ajv (v8, compiled, same shape for
// Pod and Node written as JSON Schema below) over the generator's stream, in CPU time; then the audit over a snapshot
// file of that cluster in this process, with the time spent inside the validation measured, as a share of the audit.
//   node --import tsx bench/validate.ts               # the size
//   node --import tsx bench/validate.ts --nodes 500   # smaller, same shape
//   ... --skip-audit                                  # the throughput part only
import {mkdtempSync, rmSync} from 'node:fs'
import {loadavg, tmpdir} from 'node:os'
import {join} from 'node:path'
import {Ajv} from 'ajv'
import {CHECK_NAMES} from '../src/audit/checks.js'
import {runAudit} from '../src/audit/run.js'
import {openSource} from '../src/cluster/open.js'
import type {KubeObject} from '../src/cluster/source.js'
import {ValidatedSource} from '../src/cluster/validate/validated-source.js'
import {invalidOf} from '../src/cluster/validate/validate-object.js'
import {chooseVersion} from '../src/cluster/version.js'
import {isRfc3339} from '../src/util/parse.js'
import {SyntheticCluster, writeSnapshot} from '../test/support/synthetic/index.js'
import {auditProjectionPlan} from '../src/audit/project.js'

const arg = (name: string) => {
  const i = process.argv.indexOf(name)
  return i === -1 ? undefined : process.argv[i + 1]
}
const nodes = Number(arg('--nodes') ?? 5000)
const options = {seed: 11, nodes, notReadyNodes: Math.ceil(nodes / 100), danglingOwners: Math.ceil(nodes / 50), stuckForeground: 3}
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')
const cpuMs = () => {
  const u = process.cpuUsage()
  return (u.user + u.system) / 1000
}

// The same fields as kinds.ts for Pod and Node, as JSON Schema (null allowed where the checker takes it as absent).
const str = {type: ['string', 'null']}
const time = {type: ['string', 'null'], format: 'rfc3339'}
const int32 = {type: ['integer', 'null'], minimum: -(2 ** 31), maximum: 2 ** 31 - 1}
const int64 = {type: ['integer', 'null'], minimum: Number.MIN_SAFE_INTEGER, maximum: Number.MAX_SAFE_INTEGER}
const bool = {type: ['boolean', 'null']}
const strMap = {type: ['object', 'null'], additionalProperties: {type: 'string'}}
const list = (items: object) => ({type: ['array', 'null'], items})
const obj = (properties: object, required: string[] = []) => ({type: ['object', 'null'], properties, required})
const nonEmpty = {type: 'string', minLength: 1}
const metadata = obj(
  {
    name: nonEmpty,
    generateName: str,
    namespace: str,
    uid: str,
    resourceVersion: str,
    generation: int64,
    creationTimestamp: time,
    deletionTimestamp: time,
    deletionGracePeriodSeconds: int64,
    labels: strMap,
    annotations: strMap,
    finalizers: list({type: 'string'}),
    ownerReferences: list({
      type: 'object',
      required: ['apiVersion', 'kind', 'name', 'uid'],
      properties: {apiVersion: nonEmpty, kind: nonEmpty, name: nonEmpty, uid: nonEmpty, controller: bool, blockOwnerDeletion: bool},
    }),
  },
  ['name'],
)
const condition = {
  type: 'object',
  required: ['type', 'status'],
  properties: {
    type: {type: 'string'},
    status: {type: 'string'},
    reason: str,
    message: str,
    lastTransitionTime: time,
    lastHeartbeatTime: time,
    lastProbeTime: time,
    lastUpdateTime: time,
  },
}
const containerStatus = {type: 'object', properties: {name: str, restartCount: int32, ready: bool, started: bool}}
const base = {apiVersion: nonEmpty, kind: nonEmpty, metadata}
const podSchema = {
  type: 'object',
  required: ['apiVersion', 'kind', 'metadata'],
  properties: {
    ...base,
    spec: obj({
      nodeName: str,
      tolerations: list({type: 'object', properties: {key: str, operator: str, value: str, effect: str, tolerationSeconds: int64}}),
      containers: list({type: 'object', properties: {name: str, image: str, command: list({type: 'string'}), args: list({type: 'string'})}}),
      initContainers: list({type: 'object', properties: {name: str, restartPolicy: str}}),
    }),
    status: obj({phase: str, conditions: list(condition), containerStatuses: list(containerStatus), initContainerStatuses: list(containerStatus)}),
  },
}
const nodeSchema = {
  type: 'object',
  required: ['apiVersion', 'kind', 'metadata'],
  properties: {
    ...base,
    spec: obj({
      taints: list({type: 'object', required: ['key', 'effect'], properties: {key: {type: 'string'}, value: str, effect: {type: 'string'}, timeAdded: time}}),
      unschedulable: bool,
    }),
    status: obj({conditions: list(condition), phase: str}),
  },
}

// ajv gets the checker's own timestamp test as its format, so that the two differ only in how they walk an object.
const ajv = new Ajv({allErrors: false, strict: false})
ajv.addFormat('rfc3339', {type: 'string', validate: isRfc3339})
const ajvPod = ajv.compile(podSchema)
const ajvNode = ajv.compile(nodeSchema)

/** Up to this many objects of each kind are kept in memory and validated ROUNDS times, interleaved with ajv. */
const SAMPLE = 30_000
const ROUNDS = 7

interface KindRate {
  n: number
  sampled: number
  handMs: number
  ajvMs?: number
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]

function timeOf(list: readonly KubeObject[], check: (o: KubeObject) => boolean): number {
  const t0 = cpuMs()
  for (const o of list) if (!check(o)) throw new Error(`a generated ${o.kind} is refused`)
  return cpuMs() - t0
}

/** Median CPU time per kind over ROUNDS interleaved rounds (load on a shared machine moves single rounds a lot). */
function throughput(): {objects: number; handMs: number; perKind: Map<string, KindRate>} {
  const cluster = new SyntheticCluster(options)
  const samples = new Map<string, KubeObject[]>()
  const counts = new Map<string, number>()
  let objects = 0
  for (const o of cluster.objects()) {
    objects++
    counts.set(o.kind!, (counts.get(o.kind!) ?? 0) + 1)
    const list = samples.get(o.kind!) ?? []
    if (list.length < SAMPLE) list.push(o)
    samples.set(o.kind!, list)
  }
  // A first pass of the checker removes the null fields it meets (Go's zero values), as it does on the first read.
  for (const list of samples.values()) for (const o of list) invalidOf(o)
  const perKind = new Map<string, KindRate>()
  let handMs = 0
  for (const [kind, list] of samples) {
    const a = kind === 'Pod' ? ajvPod : kind === 'Node' ? ajvNode : undefined
    const hand: number[] = []
    const other: number[] = []
    for (let r = 0; r < ROUNDS; r++) {
      hand.push(timeOf(list, (o) => invalidOf(o) === undefined))
      if (a) other.push(timeOf(list, (o) => a(o) as boolean))
    }
    const n = counts.get(kind)!
    const e: KindRate = {n, sampled: list.length, handMs: median(hand) * (n / list.length), ajvMs: a ? median(other) * (n / list.length) : undefined}
    handMs += e.handMs
    perKind.set(kind, e)
  }
  return {objects, handMs, perKind}
}

const rate = (n: number, ms: number) =>
  `${Math.round(n / (ms / 1000))
    .toLocaleString('en-US')
    .padStart(11)} objects/s`

/** The audit with the check measured (hrtime around each call) or bypassed (every object taken as it is). */
async function audit(file: string, bypass = false): Promise<{wallMs: number; cpuMs: number; checkMs: number; checked: number; findings: number}> {
  // Time inside the boundary's per-object check, measured around each call (hrtime costs ~0.1 µs, the check ~1 µs).
  const proto = ValidatedSource.prototype as unknown as {check: (...args: unknown[]) => KubeObject | undefined}
  const original = proto.check
  let checkNs = 0n
  let checked = 0
  proto.check = function (this: unknown, ...args: unknown[]) {
    if (bypass) return args[0] as KubeObject
    const t0 = process.hrtime.bigint()
    const r = original.apply(this, args)
    checkNs += process.hrtime.bigint() - t0
    checked++
    return r
  }
  try {
    const w0 = performance.now()
    const c0 = cpuMs()
    const source = await openSource({snapshot: file, requestTimeout: 0, slim: auditProjectionPlan()})
    const version = chooseVersion(undefined, await source.serverVersion())
    const report = await runAudit(source, {checks: CHECK_NAMES, namespace: undefined, version, overrides: {}, failOn: 'warning'})
    return {wallMs: performance.now() - w0, cpuMs: cpuMs() - c0, checkMs: Number(checkNs) / 1e6, checked, findings: report.findings.length}
  } finally {
    proto.check = original
  }
}

async function main(): Promise<void> {
  console.log(`synthetic cluster (seed ${options.seed}, ${nodes} nodes); load average ${load()}`)
  const t = throughput()
  console.log(
    `\nthroughput, CPU time (median of ${ROUNDS} interleaved rounds over up to ${SAMPLE.toLocaleString('en-US')} objects of each kind; totals scaled to the ${t.objects.toLocaleString('en-US')} objects):`,
  )
  for (const [kind, e] of [...t.perKind].sort((a, b) => b[1].n - a[1].n)) {
    const vsAjv = e.ajvMs === undefined ? '' : `   ajv ${rate(e.n, e.ajvMs)}  (hand-written / ajv time: ${(e.handMs / e.ajvMs).toFixed(2)})`
    console.log(`  ${kind.padEnd(20)} ${String(e.n).padStart(8)}  hand-written ${rate(e.n, e.handMs)}${vsAjv}`)
  }
  console.log(
    `  ${'all'.padEnd(20)} ${String(t.objects).padStart(8)}  hand-written ${rate(t.objects, t.handMs)}  (${(t.handMs / 1000).toFixed(2)} s CPU for the whole cluster)`,
  )
  if (process.argv.includes('--skip-audit')) return
  const dir = mkdtempSync(join(tmpdir(), 'bench-validate-'))
  try {
    const file = join(dir, 'cluster.json')
    await writeSnapshot(file, options)
    const a = await audit(file)
    console.log(
      `\naudit -A over the snapshot (${a.checked.toLocaleString('en-US')} objects checked, ${a.findings} findings): ${(a.wallMs / 1000).toFixed(1)} s wall, ${(a.cpuMs / 1000).toFixed(1)} s CPU; ` +
        `inside the check ${(a.checkMs / 1000).toFixed(2)} s wall = ${((100 * a.checkMs) / a.wallMs).toFixed(1)}% of the wall time (load average ${load()})`,
    )
    const b = await audit(file, true)
    console.log(
      `the same audit with the check bypassed: ${(b.wallMs / 1000).toFixed(1)} s wall, ${(b.cpuMs / 1000).toFixed(1)} s CPU (${b.findings} findings); ` +
        `checked / bypassed CPU: ${(a.cpuMs / b.cpuMs).toFixed(3)} (load average ${load()})`,
    )
  } finally {
    rmSync(dir, {recursive: true, force: true})
  }
}

await main()
