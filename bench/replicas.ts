// npm run bench:replicas — `kubectl why replicas` through the fake API server on one namespace holding 2,000
// ReplicaSets, 60,000 pods and 200,000 events (synthetic, seeded): wall time and peak memory of the CLI for one
// ReplicaSet and for --all, the requests it made, the field selector on its event list, and kubectl get of
// the same lists on the same server as a baseline (the fake server shares this process, so wall times include
// its work; CPU time is the CLI's own).
import {spawn} from 'node:child_process'
import {existsSync, mkdtempSync, readFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import type {KubeObject} from '../src/cluster/source.js'
import {BIN} from '../test/support/cli.js'
import {FakeApiServer} from '../test/support/fake-apiserver/index.js'
import {generateCluster} from '../test/support/synthetic/index.js'

const NOW = '2026-11-29T03:00:00Z'
const options = {seed: 7, now: NOW, nodes: 100, namespaces: 1, deployments: 200, replicaSetsPerDeployment: 10, pods: 60_000, events: 200_000, otherOwned: 500}

interface Run {
  seconds: number
  /** CPU time of the CLI process itself (user + system), apart from waiting for the API server. */
  cpuSeconds: number
  peakMiB: number
  code: number
  requests: number
  stdoutBytes: number
}

/** Runs the built CLI under /usr/bin/time (peak RSS), or polls /proc for VmHWM where time(1) is missing. */
function cli(server: FakeApiServer, args: string[], program: string[] = [process.execPath, BIN]): Promise<Run> {
  return new Promise((resolve, reject) => {
    server.clearRequests()
    const useTime = existsSync('/usr/bin/time')
    const cmd = useTime ? '/usr/bin/time' : program[0]
    const argv = useTime ? ['-f', '__TIME__ %e %M %U %S', ...program, ...args] : [...program.slice(1), ...args]
    const started = process.hrtime.bigint()
    const child = spawn(cmd, argv, {env: {...process.env, NO_COLOR: '1'}})
    let out = 0
    let err = ''
    let hwm = 0
    const poll = useTime ? undefined : setInterval(() => {
      try {
        const m = /VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))
        if (m) hwm = Math.max(hwm, Number(m[1]))
      } catch {}
    }, 20)
    child.stdout.on('data', (d: Buffer) => (out += d.length))
    child.stderr.on('data', (d: Buffer) => (err += d.toString()))
    child.on('error', reject)
    child.on('close', (code) => {
      if (poll) clearInterval(poll)
      const seconds = Number(process.hrtime.bigint() - started) / 1e9
      const m = /__TIME__ ([\d.]+) (\d+) ([\d.]+) ([\d.]+)/.exec(err)
      if (m) hwm = Number(m[2])
      const cpuSeconds = m ? Number(m[3]) + Number(m[4]) : Number.NaN
      if ((code ?? 2) >= 2) return reject(new Error(`exit ${code}: ${err.replace(/__TIME__.*/, '').trim()}`))
      resolve({seconds, cpuSeconds, peakMiB: hwm / 1024, code: code ?? -1, requests: server.requests.length, stdoutBytes: out})
    })
  })
}

async function main(): Promise<void> {
  const t0 = Date.now()
  const objects: KubeObject[] = [...generateCluster(options)]
  const ns = (objects.find((o) => o.kind === 'ReplicaSet' && o.metadata?.namespace !== 'kube-system')?.metadata?.namespace)!
  const count = (kind: string) => objects.filter((o) => o.kind === kind && o.metadata?.namespace === ns).length
  const counts = {replicaSets: count('ReplicaSet'), pods: count('Pod'), events: count('Event')}
  const busiest = objects.filter((o) => o.kind === 'ReplicaSet' && o.metadata?.namespace === ns)
    .sort((a, b) => Number((b.spec as {replicas?: number}).replicas ?? 0) - Number((a.spec as {replicas?: number}).replicas ?? 0))[0]
  const server = await FakeApiServer.start({objects, version: 'v1.31.2'})
  const kubeconfig = server.writeKubeconfig(mkdtempSync(join(tmpdir(), 'bench-replicas-')))
  console.log(`namespace ${ns}: ${counts.replicaSets} ReplicaSets, ${counts.pods} pods, ${counts.events} events (${objects.length} objects in all; generated and loaded in ${((Date.now() - t0) / 1000).toFixed(1)} s)`)

  const common = ['--kubeconfig', kubeconfig, '-n', ns, '--now', NOW, '--fail-on', 'none']
  const single = await cli(server, ['replicas', `replicaset/${busiest.metadata!.name}`, ...common, '-o', 'json'])
  const eventLists = server.requests.filter((r) => r.path.endsWith('/events'))
  const all = await cli(server, ['replicas', '--all', ...common, '-o', 'json'])
  // The baseline: kubectl reading what --all reads (ReplicaSets, pods and ReplicaSet events of the namespace).
  const kubectl = await cli(server, ['--kubeconfig', kubeconfig, '-n', ns, 'get', 'replicasets,pods', '--chunk-size=500', '-o', 'json'], ['kubectl'])
    .catch((err: Error) => (console.log(`kubectl get failed or is missing: ${err.message.split('\n')[0]}`), undefined))
  const kubectlEvents = await cli(server, ['--kubeconfig', kubeconfig, '-n', ns, 'get', 'events', '--field-selector', 'involvedObject.kind=ReplicaSet', '--chunk-size=500', '-o', 'json'], ['kubectl'])
    .catch(() => undefined)
  await server.close()

  const row = (label: string, r: Run) => `${label.padEnd(28)} ${r.seconds.toFixed(2).padStart(7)} s wall  ${r.cpuSeconds.toFixed(2).padStart(6)} s CPU  ${r.peakMiB.toFixed(0).padStart(6)} MiB peak  ${String(r.requests).padStart(5)} requests  ${(r.stdoutBytes / 1024).toFixed(0).padStart(7)} KiB out`
  console.log(row(`replicas rs/${busiest.metadata!.name.slice(0, 12)}…`, single))
  console.log(row('replicas --all', all))
  if (kubectl) console.log(row('kubectl get rs,pods -o json', kubectl))
  if (kubectlEvents) console.log(row('kubectl get events (RS)', kubectlEvents))
  if (kubectl && kubectlEvents) {
    const base = kubectl.seconds + kubectlEvents.seconds
    console.log(`--all / (kubectl get rs,pods + kubectl get events) = ${(all.seconds / base).toFixed(2)}× wall, ${(all.cpuSeconds / (kubectl.cpuSeconds + kubectlEvents.cpuSeconds)).toFixed(2)}× CPU`)
  }
  console.log(`events request of the single run: fieldSelector=${eventLists[0]?.query.fieldSelector ?? '(none)'}`)
  console.log(`ratios: --all / one = ${(all.seconds / single.seconds).toFixed(2)}× wall, ${(all.cpuSeconds / single.cpuSeconds).toFixed(2)}× CPU, ${(all.peakMiB / single.peakMiB).toFixed(2)}× memory; --all = ${((all.seconds * 1000) / counts.replicaSets).toFixed(2)} ms per ReplicaSet`)
}

main().catch((err) => {
  console.error(err)
  process.exit(1)
})
