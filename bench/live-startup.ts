// npm run bench:live — what a live run costs before its first request, next to kubectl on the same fake API server:
// whole-process medians of wall time, CPU (user + system) and the time from spawn to the first request the server
// receives, in one interleaved run (round after round, every case once per round, so load on the shared machine hits
// all alike), printed as ratios to `node -e 0` and to `kubectl get node NAME -o json`.
//   npm run bench:live                       # 11 rounds
//   npm run bench:live -- --rounds 21        # steadier medians
//   npm run bench:live -- --bin /other/bin/run.js   # another checkout's build (before/after)
// The cases: the live source alone (open, one GET of the node, close; the build's chunk, else bundled from src/), `kubectl-why node NAME`
// (the whole CLI: oclif, the source, the node replay's reads), the same with an exec credential plugin (counting how
// often the plugin ran), kubectl, and `node -e 0`. "first request" includes the meter's own spawn (bench/support).
import {spawnSync} from 'node:child_process'
import {chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {dirname, join, resolve} from 'node:path'
import {fileURLToPath} from 'node:url'
import {build} from 'esbuild'
import {FakeApiServer} from '../test/support/fake-apiserver/index.js'
import {median, meter, type ProcessRun, runProcess} from './support/process.js'
import {byteRelay} from './support/relay.js'

const arg = (name: string) => {
  const i = process.argv.indexOf(name)
  return i === -1 ? undefined : process.argv[i + 1]
}
const ROOT = fileURLToPath(new URL('..', import.meta.url))
const BIN = resolve(arg('--bin') ?? join(ROOT, 'bin/run.js'))
const rounds = Number(arg('--rounds') ?? 11)
const NODE = 'worker-1'

const server = await FakeApiServer.start({
  objects: [
    {
      apiVersion: 'v1',
      kind: 'Node',
      metadata: {name: NODE, labels: {'topology.kubernetes.io/zone': 'z1'}},
      status: {conditions: [{type: 'Ready', status: 'True', lastHeartbeatTime: new Date().toISOString()}], nodeInfo: {kubeletVersion: 'v1.32.4'}},
    },
    {
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: {name: NODE, namespace: 'kube-node-lease'},
      spec: {holderIdentity: NODE, renewTime: new Date().toISOString()},
    },
  ],
})
// The bytes the server sends each command (issue 29 point 3: requests and bytes next to kubectl get's).
const relay = await byteRelay(server.url)
const dir = mkdtempSync(join(tmpdir(), 'bench-live-'))
const kubeconfig = server.writeKubeconfig(dir, {server: relay.url})
// The same cluster through an exec credential plugin that prints the server's token (no expiry: cached for the run).
const counter = join(dir, 'exec-runs')
writeFileSync(counter, '')
const plugin = join(dir, 'credential-plugin')
writeFileSync(
  plugin,
  `#!/bin/sh\necho run >> ${JSON.stringify(counter)}\necho '{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{"token":${JSON.stringify(server.token)}}}'\n`,
)
chmodSync(plugin, 0o755)
const execKubeconfig = join(dir, 'kubeconfig-exec')
writeFileSync(
  execKubeconfig,
  readFileSync(kubeconfig, 'utf8').replace(
    / {4}token: .*\n/,
    `    exec: {apiVersion: client.authentication.k8s.io/v1, command: ${JSON.stringify(plugin)}, interactiveMode: Never}\n`,
  ),
)

const kubectlProbe = spawnSync('kubectl', ['version', '--client'], {encoding: 'utf8'})
const haveKubectl = kubectlProbe.status === 0

interface Case {
  label: string
  cmd: string
  args: string[]
  requests: boolean
}
// The live source alone: without the CLI around it, the cost of authentication, TLS and the first GET. As the build
// ships it when the build has it (its chunk in dist/chunks/, loaded with bin/compile-cache.js as bin/run.js loads
// it); else bundled from src/ with esbuild (one file, no compile cache), whatever layout dist/ has.
const packageRoot = join(dirname(BIN), '..')
const chunks = join(packageRoot, 'dist', 'chunks')
const shippedChunk = existsSync(chunks) ? readdirSync(chunks).find((f) => /^live-source-[\w-]*\.js$/.test(f)) : undefined
const steps = `const s = await LiveSource.open({kubeconfig: ${JSON.stringify(kubeconfig)}, requestTimeout: 10000})
await s.get({kind: 'Node', name: ${JSON.stringify(NODE)}})
await s.close()`
let probeArgs: string[]
if (shippedChunk) {
  const cache = join(packageRoot, 'bin', 'compile-cache.js')
  const load = `${existsSync(cache) ? `require(${JSON.stringify(cache)});` : ''}const {LiveSource} = require(${JSON.stringify(join(chunks, shippedChunk))})`
  probeArgs = ['-e', `${load}\n;(async () => {\n${steps}\n})()`]
} else {
  const liveBundle = join(dir, 'live-source.mjs')
  await build({
    entryPoints: [join(ROOT, 'src/cluster/live/live-source.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outfile: liveBundle,
    logLevel: 'error',
    // CommonJS dependencies bundled into ESM need a require (the usual esbuild banner).
    banner: {js: "import {createRequire as __createRequire} from 'node:module'; const require = __createRequire(import.meta.url);"},
  })
  probeArgs = ['--input-type=module', '-e', `import {LiveSource} from ${JSON.stringify(liveBundle)}\n${steps}`]
}
const cases: Case[] = [
  {label: 'node -e 0', cmd: process.execPath, args: ['-e', '0'], requests: false},
  {label: 'live source: open + GET node', cmd: process.execPath, args: probeArgs, requests: true},
  {label: `kubectl-why node ${NODE}`, cmd: process.execPath, args: [BIN, 'node', NODE, '--kubeconfig', kubeconfig], requests: true},
  {label: `kubectl-why node ${NODE} (exec plugin)`, cmd: process.execPath, args: [BIN, 'node', NODE, '--kubeconfig', execKubeconfig], requests: true},
  ...(haveKubectl
    ? [
        {
          label: `kubectl get node ${NODE} -o json`,
          cmd: 'kubectl',
          args: ['get', 'node', NODE, '-o', 'json', '--kubeconfig', kubeconfig, '--cache-dir', join(dir, 'cache')],
          requests: true,
        },
      ]
    : []),
]

interface Sample {
  run: ProcessRun
  firstRequestMs: number
  requests: number
  bytes: number
}
const samples = new Map<string, Sample[]>(cases.map((c) => [c.label, []]))
const env = {...process.env, HOME: dir, NO_COLOR: '1'}
let execRuns = 0
for (let round = 0; round < rounds; round++) {
  for (const c of cases) {
    server.clearRequests()
    relay.reset()
    const before = readFileSync(counter, 'utf8').split('\n').filter(Boolean).length
    const started = performance.timeOrigin + performance.now()
    const run = await runProcess(c.cmd, c.args, {env})
    if (run.code !== 0 && !c.label.startsWith('kubectl-why')) throw new Error(`${c.label} exited ${run.code}: ${run.stderr}`)
    if (run.code > 1) throw new Error(`${c.label} exited ${run.code}: ${run.stderr}`)
    if (c.label.endsWith('(exec plugin)')) execRuns = Math.max(execRuns, readFileSync(counter, 'utf8').split('\n').filter(Boolean).length - before)
    const first = server.requests[0]?.at
    // Let the relay deliver the last bytes before counting.
    await new Promise((r) => setTimeout(r, 20))
    samples
      .get(c.label)!
      .push({run, firstRequestMs: c.requests && first !== undefined ? first - started : Number.NaN, requests: server.requests.length, bytes: relay.bytes()})
  }
}
relay.close()
await server.close()

const med = (label: string, f: (s: Sample) => number) => median(samples.get(label)!.map(f))
const base = cases[0].label
const kubectlLabel = cases.find((c) => c.cmd === 'kubectl')?.label
const x = (a: number, b: number | undefined) => (b === undefined || !Number.isFinite(a) || !b ? '   n/a' : `${(a / b).toFixed(2).padStart(5)}×`)
const ms = (v: number) => (Number.isFinite(v) ? `${v.toFixed(0).padStart(5)} ms` : '      —')
console.log(`bench:live — ${rounds} interleaved rounds, medians; meter ${meter}; ${BIN}`)
console.log(`live source alone: ${shippedChunk ? `dist/chunks/${shippedChunk} (as shipped, compile cache)` : 'bundled from src/ (no dist/ chunk found)'}`)
console.log(
  `${'case'.padEnd(42)} ${'wall'.padStart(8)} ${'CPU'.padStart(8)} ${'1st req'.padStart(8)} reqs     bytes  CPU÷node  CPU÷kubectl  1st req÷kubectl  wall÷kubectl`,
)
for (const c of cases) {
  const wall = med(c.label, (s) => s.run.wallMs)
  const cpu = med(c.label, (s) => s.run.cpuMs)
  const first = med(c.label, (s) => s.firstRequestMs)
  const kCpu = kubectlLabel ? med(kubectlLabel, (s) => s.run.cpuMs) : undefined
  const kFirst = kubectlLabel ? med(kubectlLabel, (s) => s.firstRequestMs) : undefined
  const kWall = kubectlLabel ? med(kubectlLabel, (s) => s.run.wallMs) : undefined
  const bytes = c.requests ? `${(med(c.label, (s) => s.bytes) / 1024).toFixed(1)} KiB` : '—'
  console.log(
    `${c.label.padEnd(42)} ${ms(wall)} ${ms(cpu)} ${ms(first)} ${String(med(c.label, (s) => s.requests)).padStart(4)} ${bytes.padStart(9)}  ${x(
      cpu,
      med(base, (s) => s.run.cpuMs),
    )}    ${x(cpu, kCpu)}       ${x(first, kFirst)}       ${x(wall, kWall)}`,
  )
}
console.log(`exec credential plugin runs per kubectl-why node process: ${execRuns} (kubectl: 1)`)
if (!haveKubectl) console.log('kubectl not found on PATH: the kubectl row and ratios are left out')
console.log('target (issue 14): kubectl-why node NAME ≤ 2× the CPU of kubectl get node NAME -o json')
