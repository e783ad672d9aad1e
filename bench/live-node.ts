// npm run bench:live-node — `kubectl-why node NAME` and `kubectl-why evicted pod/NAME` on a large live cluster (the
// fake API server, 20,000 nodes in 3 zones by default, every node healthy so its zone is Normal), next to
// `kubectl get node NAME -o json` (issue 29 point 3: target ≤ 3× its wall time). For each command: median wall
// time and CPU over interleaved rounds, the requests it made and the bytes the server sent (counted by a TCP relay
// in front of the server: TLS passes through it unchanged).
//   npm run bench:live-node                               # 20,000 nodes, 5 rounds
//   npm run bench:live-node -- --nodes 5000 --rounds 9
//   npm run bench:live-node -- --bin /other/checkout/bin/run.js   # another build (before/after)
//   npm run bench:live-node -- --before /other/checkout/bin/run.js   # both builds in the same rounds
//   npm run bench:live-node -- --serve   # keep the cluster up and print its kubeconfig, for runs by hand (-v 6)
import {spawnSync} from 'node:child_process'
import {mkdtempSync} from 'node:fs'
import {cpus, loadavg, tmpdir} from 'node:os'
import {join, resolve} from 'node:path'
import {fileURLToPath} from 'node:url'
import type {KubeObject} from '../src/cluster/source.js'
import {FakeApiServer} from '../test/support/fake-apiserver/index.js'
import {median, runProcess} from './support/process.js'
import {byteRelay} from './support/relay.js'

const arg = (name: string) => {
  const i = process.argv.indexOf(name)
  return i === -1 ? undefined : process.argv[i + 1]
}
const ROOT = fileURLToPath(new URL('..', import.meta.url))
const BIN = resolve(arg('--bin') ?? join(ROOT, 'bin/run.js'))
/** Another build run in the same interleaved rounds (before/after on one loaded machine). */
const BEFORE = arg('--before') ? resolve(arg('--before')!) : undefined
const NODES = Number(arg('--nodes') ?? 20_000)
const rounds = Number(arg('--rounds') ?? 5)
const ZONES = ['eu-west-1a', 'eu-west-1b', 'eu-west-1c']
const now = Date.now()
const iso = (ms: number) => new Date(ms).toISOString()

// A node about the size a kubelet writes (labels, annotations, addresses, capacity, five conditions, node info, a
// few images): ~3 KiB of JSON.
function node(i: number): KubeObject {
  const name = `node-${String(i).padStart(5, '0')}`
  const zone = ZONES[i % ZONES.length]
  const cond = (type: string, status: string, reason: string) => ({
    type,
    status,
    reason,
    message: `kubelet ${reason}`,
    lastHeartbeatTime: iso(now - 120_000),
    lastTransitionTime: iso(now - 86_400_000),
  })
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name,
      uid: `00000000-0000-0000-0000-${String(i).padStart(12, '0')}`,
      creationTimestamp: iso(now - 30 * 86_400_000),
      labels: {
        'beta.kubernetes.io/arch': 'amd64',
        'beta.kubernetes.io/os': 'linux',
        'kubernetes.io/arch': 'amd64',
        'kubernetes.io/hostname': name,
        'kubernetes.io/os': 'linux',
        'node.kubernetes.io/instance-type': 'm6i.2xlarge',
        'topology.kubernetes.io/region': 'eu-west-1',
        'topology.kubernetes.io/zone': zone,
      },
      annotations: {'node.alpha.kubernetes.io/ttl': '0', 'volumes.kubernetes.io/controller-managed-attach-detach': 'true'},
    },
    spec: {podCIDR: `10.${i >> 8}.${i & 255}.0/24`, providerID: `aws:///${zone}/i-${i.toString(16).padStart(17, '0')}`},
    status: {
      addresses: [
        {type: 'InternalIP', address: `10.0.${i >> 8}.${i & 255}`},
        {type: 'Hostname', address: name},
      ],
      capacity: {cpu: '8', 'ephemeral-storage': '104845292Ki', memory: '32386544Ki', pods: '110'},
      allocatable: {cpu: '7910m', 'ephemeral-storage': '95551679124', memory: '31369712Ki', pods: '110'},
      conditions: [
        cond('MemoryPressure', 'False', 'KubeletHasSufficientMemory'),
        cond('DiskPressure', 'False', 'KubeletHasNoDiskPressure'),
        cond('PIDPressure', 'False', 'KubeletHasSufficientPID'),
        cond('Ready', 'True', 'KubeletReady'),
      ],
      nodeInfo: {
        architecture: 'amd64',
        bootID: 'b0f3c1a2-0000-4000-8000-000000000000',
        containerRuntimeVersion: 'containerd://1.7.22',
        kernelVersion: '6.1.109',
        kubeProxyVersion: 'v1.33.4',
        kubeletVersion: 'v1.33.4',
        machineID: 'ec2b1c0ffee',
        operatingSystem: 'linux',
        osImage: 'Amazon Linux 2023',
        systemUUID: 'ec2b1c0f-fee0-0000-0000-000000000000',
      },
      images: Array.from({length: 6}, (_, k) => ({names: [`registry.example.com/team/app-${k}@sha256:${'0'.repeat(64)}`], sizeBytes: 50_000_000 + k})),
    },
  }
}
function lease(i: number): KubeObject {
  const name = `node-${String(i).padStart(5, '0')}`
  return {
    apiVersion: 'coordination.k8s.io/v1',
    kind: 'Lease',
    metadata: {name, namespace: 'kube-node-lease', creationTimestamp: iso(now - 30 * 86_400_000)},
    spec: {holderIdentity: name, leaseDurationSeconds: 40, renewTime: new Date(now - 3000).toISOString().replace('Z', '000Z')},
  }
}
const objects: KubeObject[] = []
for (let i = 0; i < NODES; i++) objects.push(node(i), lease(i))
const TARGET = 'node-00001'
objects.push({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: {name: 'web-1', namespace: 'shop', uid: 'pod-web-1', creationTimestamp: iso(now - 3_600_000)},
  spec: {nodeName: TARGET, containers: [{name: 'c', image: 'img'}]},
  status: {phase: 'Running'},
})

const server = await FakeApiServer.start({objects, version: 'v1.33.4'})
// The bytes the server sends each command, counted by a relay in front of it.
const relay = await byteRelay(server.url)
const dir = mkdtempSync(join(tmpdir(), 'bench-live-node-'))
const kubeconfig = server.writeKubeconfig(dir, {server: relay.url})

if (process.argv.includes('--serve')) {
  // Keep the cluster up for runs by hand (-v 6 shows each request's milliseconds): stop with Ctrl-C.
  console.log(`serving ${NODES} nodes; --kubeconfig ${kubeconfig} --now ${iso(now)}`)
  await new Promise(() => {})
}
const haveKubectl = spawnSync('kubectl', ['version', '--client'], {encoding: 'utf8'}).status === 0
// --now: the cluster's stamps are fixed at start; a run minutes later would otherwise find every lease past its grace.
const at = ['--now', iso(now)]
const whyCases = (bin: string, tag: string) => [
  {label: `kubectl-why node ${TARGET}${tag}`, cmd: process.execPath, args: [bin, 'node', TARGET, '--kubeconfig', kubeconfig, '-o', 'json', ...at]},
  {
    label: `kubectl-why evicted pod/web-1${tag}`,
    cmd: process.execPath,
    args: [bin, 'evicted', 'pod/web-1', '-n', 'shop', '--kubeconfig', kubeconfig, '-o', 'json', ...at],
  },
]
const cases = [
  ...whyCases(BIN, ''),
  ...(BEFORE ? whyCases(BEFORE, ' (before)') : []),
  ...(haveKubectl
    ? [
        {
          label: `kubectl get node ${TARGET} -o json`,
          cmd: 'kubectl',
          args: ['get', 'node', TARGET, '-o', 'json', '--kubeconfig', kubeconfig, '--cache-dir', join(dir, 'cache')],
        },
      ]
    : []),
]
const loadStart = loadavg()[0]
const samples = new Map(cases.map((c) => [c.label, [] as {wall: number; cpu: number; requests: number; bytes: number}[]]))
const env = {...process.env, HOME: dir, NO_COLOR: '1'}
for (let round = 0; round < rounds; round++) {
  for (const c of cases) {
    server.clearRequests()
    relay.reset()
    const run = await runProcess(c.cmd, c.args, {env, keepStdout: false})
    if (run.code > 1) throw new Error(`${c.label} exited ${run.code}: ${run.stderr}`)
    // Let the relay deliver the last bytes before counting.
    await new Promise((r) => setTimeout(r, 50))
    samples.get(c.label)!.push({wall: run.wallMs, cpu: run.cpuMs, requests: server.requests.length, bytes: relay.bytes()})
  }
}
relay.close()
await server.close()

const med = (label: string, f: (s: {wall: number; cpu: number; requests: number; bytes: number}) => number) => median(samples.get(label)!.map(f))
const kubectl = cases.find((c) => c.cmd === 'kubectl')?.label
console.log(
  `bench:live-node — ${NODES} nodes in ${ZONES.length} zones (all Normal), ${rounds} interleaved rounds, medians; ${BIN}${BEFORE ? ` (before: ${BEFORE})` : ''}`,
)
console.log(`load average (1 min) at the start ${loadStart.toFixed(1)}, at the end ${loadavg()[0].toFixed(1)} on ${cpus().length} CPUs`)
console.log(`${'case'.padEnd(48)} ${'wall'.padStart(8)} ${'CPU'.padStart(8)} ${'reqs'.padStart(5)} ${'bytes'.padStart(11)}  wall÷kubectl  CPU÷kubectl`)
for (const c of cases) {
  const wall = med(c.label, (s) => s.wall)
  const cpu = med(c.label, (s) => s.cpu)
  const k = kubectl ? med(kubectl, (s) => s.wall) : undefined
  const kc = kubectl ? med(kubectl, (s) => s.cpu) : undefined
  console.log(
    `${c.label.padEnd(48)} ${`${wall.toFixed(0)} ms`.padStart(8)} ${`${cpu.toFixed(0)} ms`.padStart(8)} ${String(med(c.label, (s) => s.requests)).padStart(5)} ${`${(med(c.label, (s) => s.bytes) / 1024).toFixed(0)} KiB`.padStart(11)}  ${(k ? `${(wall / k).toFixed(2)}×` : 'n/a').padStart(12)}  ${(kc ? `${(cpu / kc).toFixed(2)}×` : 'n/a').padStart(11)}`,
  )
}
console.log('target (issue 29.3): kubectl-why node NAME ≤ 3× the wall time of kubectl get node NAME -o json when its zone is Normal')
