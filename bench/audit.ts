// npm run bench:audit — `kubectl why audit -A` over the issue's cluster (synthetic, seeded: 5,000 nodes, 150,000 pods,
// 2,000 Deployments with 20,000 ReplicaSets, 100,000 other owned objects, with a few incidents) served by the fake API
// server from this process: wall time and peak memory of the audit, against `kubectl get` of the same lists (the
// resources the audit listed, as full JSON in chunks of 500) on the same server in the same run, as a ratio; then the
// same audit over a snapshot file of that cluster. Both CLIs run as child processes, spawned asynchronously (the fake
// server answers from this process); peak memory is their maximum resident set (bench/support/process.ts).
//   node --import tsx bench/audit.ts              # the issue's size
//   node --import tsx bench/audit.ts --nodes 1000 # smaller, same shape
//   ... --skip-kubectl                            # the audit alone
//   ... --skip-snapshot                           # the live audit only
//   ... --skip-live                               # the snapshot audit only (no fake server, no kubectl)
//   ... --rounds 3                                # the two audits 3 times each, alternating: medians and their ratio
//   ... --nodes 20000 --memory-max 1G             # issue 29's sizes (20,000 and 65,000 nodes), each audit in a memory
//                                                 # cgroup of that limit (a child of this process's own, v1 or v2), as the
//                                                 # CronJob runs it; where no cgroup can be made, --max-old-space-size
//                                                 # from the limit as bin/heap.js would give it (a proxy, said so)
import {existsSync, mkdirSync, mkdtempSync, readFileSync, rmdirSync, rmSync, writeFileSync} from 'node:fs'
import {loadavg, tmpdir} from 'node:os'
import {join} from 'node:path'
import {BIN} from '../test/support/cli.js'
import {FakeApiServer, type RequestRecord} from '../test/support/fake-apiserver/index.js'
import {SyntheticCluster, writeSnapshot} from '../test/support/synthetic/index.js'
import {median, runProcess} from './support/process.js'

const arg = (name: string) => {
  const i = process.argv.indexOf(name)
  return i === -1 ? undefined : process.argv[i + 1]
}
const nodes = Number(arg('--nodes') ?? 5000)
const rounds = Number(arg('--rounds') ?? 1)
const memoryMax = arg('--memory-max')
// The issue's cluster at 5,000 nodes (the generator's defaults scale with nodes), and some trouble for every check.
const options = {seed: 11, nodes, notReadyNodes: Math.ceil(nodes / 100), danglingOwners: Math.ceil(nodes / 50), stuckForeground: 3}

interface Run {
  seconds: number
  /** user + system CPU seconds: on a shared machine, what the process itself cost. */
  cpu: number
  peakMiB: number
  code: number
  load: string
  /** The report's size (stdout bytes). */
  reportBytes?: number
}

const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')

/** A child process, measured by bench/support/process.ts; stdout counted and dropped. */
async function timed(cmd: string, args: string[], env: NodeJS.ProcessEnv = process.env): Promise<Run & {stdoutBytes: number; stderr: string}> {
  const before = load()
  const r = await runProcess(cmd, args, {env, keepStdout: false})
  const peakMiB = r.peakKiB === undefined ? Number.NaN : r.peakKiB / 1024
  return {
    seconds: r.wallMs / 1000,
    cpu: r.cpuMs / 1000,
    peakMiB,
    code: r.code,
    load: `${before} → ${load()}`,
    stdoutBytes: r.stdoutBytes,
    reportBytes: r.stdoutBytes,
    stderr: r.stderr.trim(),
  }
}

/** The collections the audit listed, as kubectl resource names (plural.group). */
function listedResources(requests: readonly RequestRecord[]): string[] {
  const out = new Set<string>()
  for (const r of requests) {
    if (r.query.continue !== undefined) continue
    const m = /^\/(?:api\/v1|apis\/([^/]+)\/[^/]+)(?:\/namespaces\/[^/]+)?\/([a-z]+)$/.exec(r.path)
    if (m) out.add(m[1] ? `${m[2]}.${m[1]}` : m[2])
  }
  return [...out]
}

/** 1G, 512M, 2Gi, 1073741824: bytes. */
function parseSize(text: string): number {
  const m = /^(\d+(?:\.\d+)?)\s*([KMG]i?)?B?$/i.exec(text.trim())
  if (!m) throw new Error(`--memory-max ${text}: give bytes or a size such as 1G`)
  const unit = {'': 1, k: 2 ** 10, m: 2 ** 20, g: 2 ** 30}[(m[2] ?? '').slice(0, 1).toLowerCase() as '' | 'k' | 'm' | 'g']
  return Math.round(Number(m[1]) * unit)
}

/**
 * A memory cgroup with `limit` bytes, made under this process's own (cgroup v2: memory.max; v1: memory.limit_in_bytes),
 * and the command line that runs a command inside it; undefined where the machine does not let us make one.
 */
function memoryCgroup(limit: number): {wrap: (cmd: string, args: string[]) => [string, string[]]; remove: () => void; where: string} | undefined {
  try {
    const lines = readFileSync('/proc/self/cgroup', 'utf8').split('\n')
    const v1 = lines.map((l) => /^\d+:memory:(.*)$/.exec(l)?.[1]).find((x) => x !== undefined)
    const v2 = lines.map((l) => /^0::(.*)$/.exec(l)?.[1]).find((x) => x !== undefined)
    const [base, file] =
      v1 !== undefined && existsSync('/sys/fs/cgroup/memory')
        ? [join('/sys/fs/cgroup/memory', v1), 'memory.limit_in_bytes']
        : v2 !== undefined && existsSync('/sys/fs/cgroup/cgroup.controllers')
          ? [join('/sys/fs/cgroup', v2), 'memory.max']
          : [undefined, undefined]
    if (!base || !file) return undefined
    const dir = join(base, `bench-audit-${process.pid}`)
    mkdirSync(dir)
    writeFileSync(join(dir, file), String(limit))
    return {
      where: `${dir} (${file} ${limit})`,
      // The shell joins the cgroup, then becomes the command: the meter measures the command itself.
      wrap: (cmd, args) => ['sh', ['-c', `echo $$ > ${dir}/cgroup.procs && exec "$@"`, 'sh', cmd, ...args]],
      remove: () => {
        try {
          rmdirSync(dir)
        } catch {
          // still busy (a process left in it): left for the system
        }
      },
    }
  } catch {
    return undefined
  }
}

/** What an audit under a memory limit gets without a cgroup: bin/heap.js's heap for that limit (a proxy for the limit). */
function heapFlagFor(limit: number): string {
  const limitMiB = Math.floor(limit / 2 ** 20)
  return `--max-old-space-size=${limitMiB - Math.max(160, Math.ceil(limitMiB * 0.2))}`
}

const limitBytes = memoryMax === undefined ? undefined : parseSize(memoryMax)
const cgroup = limitBytes === undefined ? undefined : memoryCgroup(limitBytes)

/** The audit's command line, inside the memory limit when one is asked for. */
function auditCommand(args: string[]): [string, string[]] {
  if (limitBytes === undefined) return [process.execPath, [BIN, ...args]]
  if (cgroup) return cgroup.wrap(process.execPath, [BIN, ...args])
  return [process.execPath, [heapFlagFor(limitBytes), BIN, ...args]]
}

/** The issue's goals for the peak (issue 29): 20,000 nodes inside the shipped 1 GiB CronJob, 65,000 under 2 GiB. */
const goal = nodes <= 20_000 ? {bytes: 2 ** 30, text: '1 GiB (the shipped CronJob) up to 20,000 nodes'} : {bytes: 2 * 2 ** 30, text: '2 GiB at 65,000 nodes'}

const row = (label: string, r: Run) =>
  `${label.padEnd(48)} ${r.seconds.toFixed(1).padStart(7)} s wall ${r.cpu.toFixed(1).padStart(7)} s CPU ${r.peakMiB.toFixed(0).padStart(6)} MiB peak${r.reportBytes === undefined ? '' : ` ${(r.reportBytes / 2 ** 20).toFixed(1).padStart(6)} MiB report`}  (load average ${r.load})`

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-audit-'))
  try {
    const cluster = new SyntheticCluster(options)
    const c = cluster.counts
    const owned = (c.ConfigMap ?? 0) + (c.Secret ?? 0) + (c.Service ?? 0) + (c.EndpointSlice ?? 0) + (c.CronJob ?? 0) + (c.Job ?? 0)
    console.log(
      `synthetic cluster (seed ${options.seed}): ${c.Node} nodes, ${c.Pod} pods, ${c.Deployment} Deployments, ${c.ReplicaSet} ReplicaSets, ${owned} other owned objects, ${c.Event} events; ` +
        `${options.notReadyNodes} nodes down, ${options.danglingOwners} dangling owners, ${options.stuckForeground} stuck foreground deletions`,
    )
    console.log(`load average at start ${load()} (2 cores, shared with other work)`)
    const skipLive = process.argv.includes('--skip-live')
    const skipSnapshot = process.argv.includes('--skip-snapshot')
    const live = skipLive ? undefined : await liveSetup(cluster, dir)
    let file: string | undefined
    if (!skipSnapshot) {
      const t = Date.now()
      file = join(dir, 'cluster.json')
      const written = await writeSnapshot(file, options)
      console.log(
        `snapshot file: ${written.objects} objects, ${(written.fileBytes / 2 ** 20).toFixed(0)} MiB, written in ${((Date.now() - t) / 1000).toFixed(1)} s`,
      )
    }
    // Round after round, the two audits one after the other, the first of them alternating: load on the shared
    // machine falls on both alike. The figures are medians over the rounds.
    const liveRuns: Run[] = []
    const offlineRuns: Run[] = []
    let liveFailed = false
    let offlineFailed = false
    if (limitBytes !== undefined)
      console.log(
        cgroup
          ? `each audit in a memory cgroup: ${cgroup.where}`
          : `no memory cgroup could be made here: each audit gets ${heapFlagFor(limitBytes)}, what bin/heap.js gives in a ${memoryMax} container (a proxy for the limit, not the limit)`,
      )
    for (let round = 0; round < rounds; round++) {
      const order = round % 2 === 0 ? ['live', 'snapshot'] : ['snapshot', 'live']
      for (const which of order) {
        if (which === 'live' && live && !liveFailed) {
          // Said, and the snapshot runs still made: a live failure must not hide the other figure.
          try {
            liveRuns.push(await live.audit())
          } catch (err) {
            console.log((err as Error).message)
            liveFailed = true
          }
        }
        if (which === 'snapshot' && file && !offlineFailed) {
          const [cmd, args] = auditCommand(['audit', '-A', '-f', file, '-o', 'json', '--fail-on', 'none'])
          const r = await timed(cmd, args, {...process.env, NO_COLOR: '1'})
          if (r.code !== 0) {
            // Said (exit, time, peak, the first line: a refusal at the start, or V8's dump), and the live runs still made.
            console.log(
              `snapshot audit FAILED (exit ${r.code}) after ${r.seconds.toFixed(1)} s, ${r.cpu.toFixed(1)} s CPU, ${r.peakMiB.toFixed(0)} MiB peak: ${failureLine(r.stderr)}`,
            )
            offlineFailed = true
          } else offlineRuns.push(r)
        }
      }
    }
    const audit = liveRuns.length > 0 ? medianRun(liveRuns) : undefined
    const offline = offlineRuns.length > 0 ? medianRun(offlineRuns) : undefined
    const kubectlRun = live && audit ? await live.kubectl() : undefined
    await live?.close()
    const runs = rounds > 1 ? ` (median of ${rounds})` : ''

    console.log('')
    if (audit) console.log(row(`kubectl why audit -A (live)${runs}`, audit))
    if (kubectlRun && kubectlRun.run.code === 0) console.log(row(`kubectl get (${kubectlRun.resources} kinds, each)`, kubectlRun.run))
    if (offline) console.log(row(`kubectl why audit -A -f snapshot${runs}`, offline))
    for (const [what, r] of [
      ['live', audit],
      ['snapshot', offline],
    ] as const)
      if (r)
        console.log(
          `${what} audit peak: ${r.peakMiB.toFixed(0)} MiB, ${((r.peakMiB * 2 ** 20) / goal.bytes).toFixed(2)}× the goal (issue 29: ${goal.text}); ${(r.peakMiB / (nodes / 1000)).toFixed(0)} MiB and ${(r.cpu / (nodes / 1000)).toFixed(1)} CPU-s per 1,000 nodes`,
        )
    if (audit && kubectlRun && kubectlRun.run.code === 0) {
      const kubectl = kubectlRun.run
      console.log(
        `ratio audit / kubectl get: ${(audit.seconds / kubectl.seconds).toFixed(2)}× wall time, ${(audit.cpu / kubectl.cpu).toFixed(2)}× CPU, ${(audit.peakMiB / kubectl.peakMiB).toFixed(2)}× peak memory (goal, issue 14: at most 0.15× kubectl get)`,
      )
    }
    if (audit && offline) {
      console.log(
        `ratio snapshot audit / live audit: ${(offline.seconds / audit.seconds).toFixed(2)}× wall time, ${(offline.cpu / audit.cpu).toFixed(2)}× CPU, ${(offline.peakMiB / audit.peakMiB).toFixed(2)}× peak memory (goal: no slower than live)`,
      )
    }
  } finally {
    cgroup?.remove()
    rmSync(dir, {recursive: true, force: true})
  }
}

/** The line that says why an audit failed: its own one-line error, or V8's. */
function failureLine(stderr: string): string {
  const lines = stderr.split('\n')
  return (lines.find((l) => /^error: /.test(l)) ?? lines.find((l) => /Error|FATAL/.test(l)) ?? lines[0] ?? '').slice(0, 400)
}

/** Medians of each figure over the runs (each its own median: the runs need not agree on which was slowest). */
function medianRun(runs: Run[]): Run {
  return {
    seconds: median(runs.map((r) => r.seconds)),
    cpu: median(runs.map((r) => r.cpu)),
    peakMiB: median(runs.map((r) => r.peakMiB)),
    code: runs[0].code,
    ...(runs[0].reportBytes === undefined ? {} : {reportBytes: median(runs.map((r) => r.reportBytes ?? 0))}),
    load: runs.length === 1 ? runs[0].load : `${runs[0].load.split(' → ')[0]} → ${runs[runs.length - 1].load.split(' → ')[1]}`,
  }
}

/**
 * The fake API server with the cluster loaded, and the runs against it: the live audit (any number of times), then
 * kubectl get of the lists the first audit read, on the same server.
 */
async function liveSetup(cluster: SyntheticCluster, dir: string) {
  const t = Date.now()
  const server = await FakeApiServer.start({objects: cluster.objects(), version: cluster.plan.o.kubernetesVersion})
  console.log(`fake API server loaded in ${((Date.now() - t) / 1000).toFixed(1)} s`)
  const kubeconfig = server.writeKubeconfig(dir)
  const now = cluster.plan.o.now
  let resources: string[] | undefined

  const audit = async (): Promise<Run> => {
    server.clearRequests()
    const [cmd, args] = auditCommand(['audit', '-A', '--kubeconfig', kubeconfig, '--now', now, '-o', 'json', '--fail-on', 'none'])
    const r = await timed(cmd, args, {...process.env, NO_COLOR: '1'})
    if (r.code !== 0)
      throw new Error(
        `live audit FAILED (exit ${r.code}) after ${r.seconds.toFixed(1)} s, ${r.cpu.toFixed(1)} s CPU, ${r.peakMiB.toFixed(0)} MiB peak: ${failureLine(r.stderr)}`,
      )
    if (resources === undefined) {
      const requests = [...server.requests]
      resources = listedResources(requests)
      console.log(`audit -A: ${requests.length} requests, ${resources.length} kinds listed, ${(r.stdoutBytes / 2 ** 20).toFixed(1)} MiB of JSON report`)
    }
    return r
  }

  // One kubectl per kind, one after the other: a single `kubectl get a,b,c -o json` holds every list in memory at once
  // to print one List (about 2 GiB at a tenth of this size), which a shared machine cannot give it at full size.
  // Its discovery cache goes to a fresh HOME, so it starts cold as the audit does.
  const kubectl = async (): Promise<{run: Run; resources: number}> => {
    const home = join(dir, 'home')
    const run: Run = {seconds: 0, cpu: 0, peakMiB: 0, code: process.argv.includes('--skip-kubectl') ? -1 : 0, load: load()}
    for (const resource of run.code === 0 ? (resources ?? []) : []) {
      const r = await timed('kubectl', ['--kubeconfig', kubeconfig, 'get', resource, '-A', '-o', 'json', '--chunk-size=500'], {...process.env, HOME: home})
      if (r.code !== 0) {
        console.log(`kubectl get ${resource} failed or kubectl is missing (exit ${r.code}): ${r.stderr.split('\n')[0]}`)
        run.code = r.code
        break
      }
      run.seconds += r.seconds
      run.cpu += r.cpu
      run.peakMiB = Math.max(run.peakMiB, r.peakMiB)
    }
    run.load += ` → ${load()}`
    return {run, resources: resources?.length ?? 0}
  }

  return {audit, kubectl, close: () => server.close()}
}

main().catch((err) => {
  console.error(err)
  process.exit(1)
})
