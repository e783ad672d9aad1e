// npm run bench:startup — what a run costs before it does any work: whole-process medians (CPU and wall) of
// `--help`, `--version`, each command on its README example snapshot, the incident audit, and `node -e 0`, in one
// interleaved run (round after round, every case once per round, so load on the shared machine hits all alike),
// printed as ratios to `node -e 0` beside the targets of issue 14. Then, when strace(1) is installed, one more
// untimed run of each case counting the files it opened (from dist/, from node_modules/).
//   npm run bench:startup                          # 15 rounds
//   npm run bench:startup -- --rounds 31           # steadier medians
//   npm run bench:startup -- --bin /other/bin/run.js   # another checkout's build, same cases (before/after)
//   npm run bench:startup -- --no-files            # skip the strace runs
import {readdirSync} from 'node:fs'
import {dirname, join, resolve} from 'node:path'
import {fileURLToPath} from 'node:url'
import {countOpenedFiles, type OpenedFiles} from './support/opened-files.js'
import {median, meter, type ProcessRun, runProcess} from './support/process.js'

const arg = (name: string) => {
  const i = process.argv.indexOf(name)
  return i === -1 ? undefined : process.argv[i + 1]
}
const ROOT = fileURLToPath(new URL('..', import.meta.url))
const BIN = resolve(arg('--bin') ?? join(ROOT, 'bin/run.js'))
const PKG = dirname(dirname(BIN))
const rounds = Number(arg('--rounds') ?? 15)

interface Case {
  label: string
  argv: string[]
  /** CPU ratio to `node -e 0` the issue asks for. */
  target?: number
}

const ex = (name: string) => join(ROOT, 'examples', name)
const cli = (label: string, args: string[], target: number): Case => ({label, argv: [BIN, ...args], target})
// One case per command, on the example the README shows for it.
const commands: Record<string, Case> = {
  hash: cli('hash --all -n shop (hash-drift-after-upgrade)', ['hash', '--all', '-n', 'shop', '-f', ex('hash-drift-after-upgrade.json')], 2),
  gc: cli('gc --all -A (gc-recreated-deployment)', ['gc', '--all', '-A', '-f', ex('gc-recreated-deployment.json')], 2),
  node: cli('node (node-zone-outage)', ['node', '-f', ex('node-zone-outage.json')], 2),
  evicted: cli('evicted pod/web-… (node-zone-outage)', ['evicted', 'pod/web-7d9f4b6c8-x2k9p', '-n', 'shop', '-f', ex('node-zone-outage.json')], 2),
  replicas: cli('replicas rs/cart-… (replicas-quota)', ['replicas', 'rs/cart-7c9d8f6b5', '-n', 'shop', '-f', ex('replicas-quota.yaml')], 2),
  snapshot: cli('snapshot -f incident.yaml', ['snapshot', '-f', ex('incident.yaml')], 2),
  audit: cli('audit -A -f incident.yaml', ['audit', '-A', '-f', ex('incident.yaml')], 2.5),
  completion: cli('completion bash', ['completion', 'bash'], 2),
  // as --help and --version, which they answer in kubectl's words
  help: cli('help gc', ['help', 'gc'], 1.5),
  version: cli('version -f incident.yaml', ['version', '-f', ex('incident.yaml')], 2),
}
const reference: Case = {label: 'node -e 0', argv: ['-e', '0']}
const cases: Case[] = [reference, cli('--help', ['--help'], 1.5), cli('--version', ['--version'], 1.5), ...Object.values(commands)]

// A command without a case here is a command nobody measured: say so rather than skip it silently.
// (__complete is the hidden command shells call; it is measured through `completion`'s script only.)
const sources = readdirSync(join(ROOT, 'src/commands'))
  .filter((f) => f.endsWith('.ts') && !f.startsWith('__'))
  .map((f) => f.slice(0, -3))
const unmeasured = sources.filter((c) => !(c in commands))

const env = {...process.env, NO_COLOR: '1', KUBECONFIG: '/nonexistent/kubeconfig'}

async function main(): Promise<void> {
  console.log(`bench:startup: ${BIN}, Node ${process.version}, ${rounds} rounds, meter ${meter}`)
  if (unmeasured.length > 0) console.log(`no case for: ${unmeasured.join(', ')} (add one to bench/startup.ts)`)
  const runs = new Map<Case, ProcessRun[]>(cases.map((c) => [c, []]))
  // A warm-up round (page cache, the compile cache where there is one), not counted.
  for (let round = 0; round <= rounds; round++) {
    for (const c of cases) {
      const r = await runProcess(process.execPath, c.argv, {env, keepStdout: false})
      if (r.code > 1) throw new Error(`${c.label} exited ${r.code}: ${r.stderr.trim().split('\n').slice(0, 3).join(' | ')}`)
      if (round > 0) runs.get(c)!.push(r)
    }
  }
  const files = new Map<Case, OpenedFiles | undefined>()
  if (!process.argv.includes('--no-files')) for (const c of cases) files.set(c, await countOpenedFiles(process.execPath, c.argv, {env, root: PKG}))

  const ref = runs.get(reference)!
  const refCpu = median(ref.map((r) => r.cpuMs))
  const refWall = median(ref.map((r) => r.wallMs))
  console.log('')
  console.log(
    `${'case'.padEnd(44)} ${'CPU ms'.padStart(7)} ${'× node'.padStart(7)} ${'target'.padStart(7)} ${'wall ms'.padStart(8)} ${'× node'.padStart(7)} ${'peak MiB'.padStart(9)} ${'files: dist'.padStart(11)} ${'n_m'.padStart(5)} ${'all'.padStart(5)}`,
  )
  for (const c of cases) {
    const rs = runs.get(c)!
    const cpu = median(rs.map((r) => r.cpuMs))
    const wall = median(rs.map((r) => r.wallMs))
    const peak = median(rs.map((r) => r.peakKiB ?? Number.NaN)) / 1024
    const f = files.get(c)
    const met = c.target === undefined ? '' : `${cpu / refCpu <= c.target ? '✓' : '✗'} ≤${c.target}`
    console.log(
      `${c.label.padEnd(44)} ${cpu.toFixed(0).padStart(7)} ${(cpu / refCpu).toFixed(2).padStart(6)}× ${met.padStart(7)} ${wall.toFixed(0).padStart(8)} ${(wall / refWall).toFixed(2).padStart(6)}× ${peak.toFixed(0).padStart(9)} ` +
        `${String(f?.dist ?? '-').padStart(11)} ${String(f?.nodeModules ?? '-').padStart(5)} ${String(f?.total ?? '-').padStart(5)}`,
    )
  }
  if (files.size > 0 && [...files.values()].every((f) => f === undefined)) console.log('(files opened: strace is not installed)')
}

main().catch((err) => {
  console.error(err)
  process.exit(1)
})
