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
import {mkdtempSync, rmSync} from 'node:fs'
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
        if (which === 'snapshot' && file) {
          const r = await timed(process.execPath, [BIN, 'audit', '-A', '-f', file, '-o', 'json', '--fail-on', 'none'], {...process.env, NO_COLOR: '1'})
          if (r.code !== 0) throw new Error(`audit -f exited ${r.code}: ${r.stderr}`)
          offlineRuns.push(r)
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
    if (offline)
      console.log(`snapshot audit peak: ${offline.peakMiB.toFixed(0)} MiB (goal: under 1 GiB at 5,000 nodes, aimed at 850 MiB so that noise never crosses it)`)
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
    rmSync(dir, {recursive: true, force: true})
  }
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
    const r = await timed(process.execPath, [BIN, 'audit', '-A', '--kubeconfig', kubeconfig, '--now', now, '-o', 'json', '--fail-on', 'none'], {
      ...process.env,
      NO_COLOR: '1',
    })
    if (r.code !== 0) {
      const last = r.stderr.split('\n').find((l) => /Error/.test(l)) ?? r.stderr.split('\n')[0]
      throw new Error(`live audit FAILED (exit ${r.code}) after ${r.seconds.toFixed(1)} s, ${r.peakMiB.toFixed(0)} MiB peak: ${last}`)
    }
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
