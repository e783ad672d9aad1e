// `kubectl why hash --all -n NS` against the fake API server on a synthetic namespace of 20,000 ReplicaSets under
// 2,000 Deployments, next to `kubectl get` of the same lists (Deployments, DaemonSets, StatefulSets, ReplicaSets,
// ControllerRevisions of that namespace, -o json) on the same server in the same run.
//   node --import tsx bench/hash-all.ts            # 2,000 Deployments × 10 ReplicaSets
//   node --import tsx bench/hash-all.ts --small    # 200 × 10
//   node --import tsx bench/hash-all.ts --phases   # only the cold phases below, 11 rounds (--rounds N)
// First, the cold cost of the example `hash --all -n shop -f examples/hash-drift-after-upgrade.json` by phase, each in
// fresh processes (loading layouts is a first-run cost a warm loop would hide), as ratios to `node -e 0`'s whole
// process in the same interleaved run: the phases are what that command's hash work adds to its start-up.
// The synthetic pod-template-hash labels are random (test/support/synthetic/README.md), so every ReplicaSet also goes
// through layout inference over all 18 layouts: the worst case for the label checks. Wall time and peak RSS per process.
import {mkdtempSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {performance} from 'node:perf_hooks'
import {fileURLToPath} from 'node:url'
import {FakeApiServer} from '../test/support/fake-apiserver/index.js'
import {SyntheticCluster} from '../test/support/synthetic/index.js'
import {median, mib, runProcess, secs} from './support/process.js'

const small = process.argv.includes('--small')
const deployments = small ? 200 : 2_000
const options = {
  seed: 4,
  nodes: 50,
  namespaces: 1,
  deployments,
  replicaSetsPerDeployment: 10,
  pods: small ? 2_000 : 12_000,
  statefulSets: 0,
  otherOwned: 0,
  events: 0,
}
const BIN = fileURLToPath(new URL('../bin/run.js', import.meta.url))

const run = (cmd: string, args: string[]) => runProcess(cmd, args, {env: {...process.env, NO_COLOR: '1'}})

if (process.argv.includes('--phase-child')) {
  await phaseChild(process.argv[process.argv.indexOf('--phase-child') + 1])
  process.exit(0)
}
await coldPhases()
if (process.argv.includes('--phases')) process.exit(0)

const cluster = new SyntheticCluster(options)
const objects = [...cluster.objects()]
const ns = objects.find((o) => o.kind === 'Deployment' && o.metadata?.namespace !== 'kube-system')!.metadata!.namespace!
const count = (kind: string) => objects.filter((o) => o.kind === kind && o.metadata?.namespace === ns).length
console.log(`namespace ${ns}: ${count('Deployment')} Deployments, ${count('ReplicaSet')} ReplicaSets, ${count('Pod')} pods (${objects.length} objects in all)`)
const t0 = performance.now()
const server = await FakeApiServer.start({objects, version: 'v1.31.2'})
objects.length = 0
console.log(`fake API server loaded in ${secs(performance.now() - t0)}`)
const kubeconfig = server.writeKubeconfig(mkdtempSync(join(tmpdir(), 'bench-hash-all-')), {})

try {
  const why = await run(process.execPath, [BIN, 'hash', '--all', '-n', ns, '--kubeconfig', kubeconfig, '-o', 'json', '--fail-on', 'none'])
  if (why.code !== 0) throw new Error(`kubectl why hash failed (${why.code}): ${why.stderr}`)
  const report = JSON.parse(why.stdout) as {workloads: Record<string, number>; labels: Record<string, number>; counts: Record<string, number>}
  const replicaSets = report.labels.checked
  console.log(
    `kubectl why hash --all -n ${ns}: ${report.workloads.Deployment} Deployments, ${replicaSets} labels checked in ${secs(why.wallMs)} → ${(why.wallMs / replicaSets).toFixed(2)} ms per ReplicaSet; peak RSS ${mib(why.peakKiB)}; ${(why.stdoutBytes / 1048576).toFixed(1)} MiB of JSON`,
  )
  console.log(`  verdicts ${JSON.stringify(report.counts)}; labels ${JSON.stringify(report.labels)}`)
  const requests = server.requests.length
  console.log(`  ${requests} requests, all GET: ${server.requests.every((r) => r.method === 'GET')}`)

  const k = await run('kubectl', [
    '--kubeconfig',
    kubeconfig,
    'get',
    'deployments,daemonsets,statefulsets,replicasets,controllerrevisions',
    '-n',
    ns,
    '--chunk-size=500',
    '-o',
    'json',
  ])
  if (k.code !== 0) {
    console.log(`kubectl get failed or is missing: ${k.stderr.split('\n')[0]}`)
  } else {
    console.log(
      `kubectl get deployments,daemonsets,statefulsets,replicasets,controllerrevisions -n ${ns} --chunk-size=500 -o json: ${(k.stdoutBytes / 1048576).toFixed(1)} MiB in ${secs(k.wallMs)}; peak RSS ${mib(k.peakKiB)}`,
    )
    console.log(
      `ratio hash --all / kubectl get: ${(why.wallMs / k.wallMs).toFixed(2)}× time, ${why.peakKiB && k.peakKiB ? `${(why.peakKiB / k.peakKiB).toFixed(2)}× memory` : 'memory n/a'}`,
    )
  }
} finally {
  await server.close()
}

/** One fresh process: the phases in order, CPU ms each (process.cpuUsage), as JSON on stdout. */
async function phaseChild(mode: string): Promise<void> {
  const cpu = () => {
    const u = process.cpuUsage()
    return (u.user + u.system) / 1000
  }
  const out: Record<string, number> = {}
  let last = cpu()
  const phase = (name: string) => {
    const now = cpu()
    out[name] = now - last
    last = now
  }
  const example = fileURLToPath(new URL('../examples/hash-drift-after-upgrade.json', import.meta.url))
  const {openSource} = await import('../src/cluster/open.js')
  const {runHashWorkload} = await import('../src/engine/workloads/drive.js')
  const {layoutData, layoutVersions} = await import('../src/hash/layout-data.js')
  const {getLayout} = await import('../src/hash/layouts.js')
  phase('import (tsx)')
  const source = await openSource({snapshot: example})
  phase('open the snapshot')
  if (mode === 'split') {
    layoutData()
    phase('parse data/layouts/compiled.json')
    getLayout('1.31')
    phase('load the 1.31 layout')
    for (const v of layoutVersions()) getLayout(v)
    phase('load the other layouts')
  }
  await runHashWorkload(source, {all: true}, {namespace: 'shop'})
  phase(mode === 'split' ? 'hash --all, layouts compiled' : 'hash --all (everything)')
  await runHashWorkload(source, {all: true}, {namespace: 'shop'})
  phase('hash --all again (warm)')
  process.stdout.write(JSON.stringify(out))
}

async function coldPhases(): Promise<void> {
  const i = process.argv.indexOf('--rounds')
  const rounds = i === -1 ? 11 : Number(process.argv[i + 1])
  const self = fileURLToPath(import.meta.url)
  const child = (mode: string) => run(process.execPath, ['--import', 'tsx', self, '--phase-child', mode])
  const ref: number[] = []
  const phases = new Map<string, number[]>()
  for (let round = 0; round <= rounds; round++) {
    const r = await run(process.execPath, ['-e', '0'])
    for (const mode of ['whole', 'split']) {
      const c = await child(mode)
      if (c.code !== 0) throw new Error(`phase child ${mode} failed (${c.code}): ${c.stderr}`)
      if (round === 0) continue
      for (const [name, ms] of Object.entries(JSON.parse(c.stdout) as Record<string, number>)) {
        if (name.startsWith('import') || name.startsWith('open')) continue
        const l = phases.get(name) ?? []
        l.push(ms)
        phases.set(name, l)
      }
    }
    if (round > 0) ref.push(r.cpuMs)
  }
  const refCpu = median(ref)
  console.log(`cold phases of hash --all -n shop -f examples/hash-drift-after-upgrade.json (CPU, median of ${rounds} fresh processes)`)
  console.log(`  ${'node -e 0 (whole process, the reference)'.padEnd(44)} ${refCpu.toFixed(1).padStart(7)} ms`)
  for (const [name, l] of phases) {
    const m = median(l)
    console.log(`  ${name.padEnd(44)} ${m.toFixed(1).padStart(7)} ms ${(m / refCpu).toFixed(2).padStart(6)}× node`)
  }
}
