// npm run bench:hash-check — the audit's hash check (the hash --all report, src/engine/workloads/drive.ts hashReport,
// which the check runs) over bench:audit's synthetic cluster, per ReplicaSet label, as a ratio to bench:hash's
// per-template cost measured in the same loop on the same templates: ComputeHash of each ReplicaSet's template under
// the cluster's layout. The synthetic labels are random (test/support/synthetic/README.md), so every label misses and
// goes through layout inference over every layout: the worst case. Also shown: that inference alone (inferLayouts over
// the same templates and labels, cold: each template seen once per round), the floor of a check that must say which
// layout, if any, wrote each label.
//   node --import tsx bench/hash-check.ts              # 1,000 nodes (bench:audit's shape)
//   node --import tsx bench/hash-check.ts --nodes 300  # smaller
//   node --cpu-prof --import tsx bench/hash-check.ts --only check   # one measurement alone (check, computeHash, inference), to profile it
// CPU time (process.cpuUsage), best of --rounds (default 5) interleaved rounds.
import {mkdtempSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {SnapshotSource} from '../src/cluster/snapshot/snapshot-source.js'
import {hashContext, hashReport} from '../src/engine/workloads/drive.js'
import {withoutHashLabel} from '../src/engine/deployment/equal-ignore-hash.js'
import {hashPodTemplate} from '../src/hash/compute-hash.js'
import {inferLayouts} from '../src/hash/infer.js'
import {writeSnapshot} from '../test/support/synthetic/index.js'

const arg = (name: string) => {
  const i = process.argv.indexOf(name)
  return i === -1 ? undefined : process.argv[i + 1]
}
const nodes = Number(arg('--nodes') ?? 1000)
const rounds = Number(arg('--rounds') ?? 5)
const only = arg('--only')
const options = {seed: 11, nodes, notReadyNodes: Math.ceil(nodes / 100), danglingOwners: Math.ceil(nodes / 50), stuckForeground: 3}

const dir = mkdtempSync(join(tmpdir(), 'bench-hash-check-'))
try {
  const file = join(dir, 'cluster.json')
  await writeSnapshot(file, options)
  const source = await SnapshotSource.open(file)
  const replicaSets = (await source.list({apiVersion: 'apps/v1', kind: 'ReplicaSet'})).items as {
    spec?: {template?: {metadata?: {labels?: Record<string, string>}}}
  }[]
  const templates = replicaSets.map((rs) => withoutHashLabel(rs.spec?.template))
  const labels = replicaSets.map((rs) => rs.spec?.template?.metadata?.labels?.['pod-template-hash'] ?? '')
  const version = (await hashContext(source, undefined)).resolve([]).settings.version!

  let sink = 0
  const best: Record<string, number> = {}
  const cpu = async (name: string, fn: () => Promise<void> | void) => {
    if (only !== undefined && only !== name) return
    const t0 = process.cpuUsage()
    await fn()
    const d = process.cpuUsage(t0)
    best[name] = Math.min(best[name] ?? Number.POSITIVE_INFINITY, (d.user + d.system) / 1000)
  }
  let checked = 0
  for (let r = 0; r < rounds; r++) {
    await cpu('check', async () => {
      const report = await hashReport(await hashContext(source, undefined), undefined)
      checked = report.labels.checked
      sink ^= report.results.length
    })
    await cpu('computeHash', () => {
      for (const t of templates) sink ^= hashPodTemplate(t, {version}).state
    })
    await cpu('inference', () => {
      templates.forEach((t, i) => {
        sink ^= inferLayouts(t, labels[i], {maxCollisionCount: 10}).matches.length
      })
    })
  }
  const per = (ms: number) => (ms * 1000) / templates.length
  const row = (label: string, ms: number | undefined, extra = '') =>
    ms === undefined
      ? `  ${label.padEnd(58)} (not measured)`
      : `  ${label.padEnd(58)} ${ms.toFixed(0).padStart(6)} ms ${per(ms).toFixed(1).padStart(7)} µs/template${extra}`
  console.log(
    `hash check over the synthetic cluster (seed ${options.seed}, ${nodes} nodes): ${templates.length} ReplicaSets, ${checked} labels checked, layout ${version}, best of ${rounds} (sink ${sink & 1})`,
  )
  console.log(row('the hash check (hashReport, as audit --checks hash runs it)', best.check, `   ${(best.check / best.computeHash).toFixed(1)}× ComputeHash`))
  console.log(row("ComputeHash of each template under the cluster's layout", best.computeHash, '   (bench:hash per-template cost, these templates)'))
  console.log(row('inferLayouts over every layout, each label (cold)', best.inference, `   ${(best.inference / best.computeHash).toFixed(1)}× ComputeHash`))
} finally {
  rmSync(dir, {recursive: true, force: true})
}
