// npm run bench:replicas — `kubectl why replicas` through the fake API server on one namespace holding 2,000
// ReplicaSets, 60,000 pods and 200,000 events (synthetic, seeded): wall time and peak memory of the CLI for one
// ReplicaSet and for --all, the requests it made, the field selector on its event list, and kubectl get of
// the same lists on the same server as a baseline (the fake server shares this process, so wall times include
// its work; CPU time is the CLI's own).
import {mkdtempSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import type {KubeObject} from '../src/cluster/source.js'
import {BIN} from '../test/support/cli.js'
import {FakeApiServer} from '../test/support/fake-apiserver/index.js'
import {generateCluster} from '../test/support/synthetic/index.js'
import {runProcess} from './support/process.js'

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

/** Runs the built CLI (or kubectl) as a process measured by bench/support/process.ts; stdout counted and dropped. */
async function cli(server: FakeApiServer, args: string[], program: string[] = [process.execPath, BIN]): Promise<Run> {
  server.clearRequests()
  const r = await runProcess(program[0], [...program.slice(1), ...args], {env: {...process.env, NO_COLOR: '1'}, keepStdout: false})
  if (r.code >= 2 || r.code < 0) throw new Error(`exit ${r.code}: ${r.stderr.trim()}`)
  return {
    seconds: r.wallMs / 1000,
    cpuSeconds: r.cpuMs / 1000,
    peakMiB: (r.peakKiB ?? Number.NaN) / 1024,
    code: r.code,
    requests: server.requests.length,
    stdoutBytes: r.stdoutBytes,
  }
}

async function main(): Promise<void> {
  const t0 = Date.now()
  const objects: KubeObject[] = [...generateCluster(options)]
  const ns = objects.find((o) => o.kind === 'ReplicaSet' && o.metadata?.namespace !== 'kube-system')?.metadata?.namespace ?? 'default'
  const count = (kind: string) => objects.filter((o) => o.kind === kind && o.metadata?.namespace === ns).length
  const counts = {replicaSets: count('ReplicaSet'), pods: count('Pod'), events: count('Event')}
  const busiest = objects
    .filter((o) => o.kind === 'ReplicaSet' && o.metadata?.namespace === ns)
    .sort((a, b) => Number((b.spec as {replicas?: number}).replicas ?? 0) - Number((a.spec as {replicas?: number}).replicas ?? 0))[0]
  const server = await FakeApiServer.start({objects, version: 'v1.31.2'})
  const kubeconfig = server.writeKubeconfig(mkdtempSync(join(tmpdir(), 'bench-replicas-')))
  console.log(
    `namespace ${ns}: ${counts.replicaSets} ReplicaSets, ${counts.pods} pods, ${counts.events} events (${objects.length} objects in all; generated and loaded in ${((Date.now() - t0) / 1000).toFixed(1)} s)`,
  )

  const common = ['--kubeconfig', kubeconfig, '-n', ns, '--now', NOW, '--fail-on', 'none']
  const single = await cli(server, ['replicas', `replicaset/${busiest.metadata!.name}`, ...common, '-o', 'json'])
  const eventLists = server.requests.filter((r) => r.path.endsWith('/events'))
  const all = await cli(server, ['replicas', '--all', ...common, '-o', 'json'])
  // The baseline: kubectl reading what --all reads (ReplicaSets, pods and ReplicaSet events of the namespace).
  const kubectl = await cli(server, ['--kubeconfig', kubeconfig, '-n', ns, 'get', 'replicasets,pods', '--chunk-size=500', '-o', 'json'], ['kubectl']).catch(
    (err: Error) => {
      console.log(`kubectl get failed or is missing: ${err.message.split('\n')[0]}`)
      return undefined
    },
  )
  const kubectlEvents = await cli(
    server,
    ['--kubeconfig', kubeconfig, '-n', ns, 'get', 'events', '--field-selector', 'involvedObject.kind=ReplicaSet', '--chunk-size=500', '-o', 'json'],
    ['kubectl'],
  ).catch(() => undefined)
  await server.close()

  const row = (label: string, r: Run) =>
    `${label.padEnd(28)} ${r.seconds.toFixed(2).padStart(7)} s wall  ${r.cpuSeconds.toFixed(2).padStart(6)} s CPU  ${r.peakMiB.toFixed(0).padStart(6)} MiB peak  ${String(r.requests).padStart(5)} requests  ${(r.stdoutBytes / 1024).toFixed(0).padStart(7)} KiB out`
  console.log(row(`replicas rs/${(busiest.metadata?.name ?? '').slice(0, 12)}…`, single))
  console.log(row('replicas --all', all))
  if (kubectl) console.log(row('kubectl get rs,pods -o json', kubectl))
  if (kubectlEvents) console.log(row('kubectl get events (RS)', kubectlEvents))
  if (kubectl && kubectlEvents) {
    const base = kubectl.seconds + kubectlEvents.seconds
    console.log(
      `--all / (kubectl get rs,pods + kubectl get events) = ${(all.seconds / base).toFixed(2)}× wall, ${(all.cpuSeconds / (kubectl.cpuSeconds + kubectlEvents.cpuSeconds)).toFixed(2)}× CPU`,
    )
  }
  console.log(`events request of the single run: fieldSelector=${eventLists[0]?.query.fieldSelector ?? '(none)'}`)
  console.log(
    `ratios: --all / one = ${(all.seconds / single.seconds).toFixed(2)}× wall, ${(all.cpuSeconds / single.cpuSeconds).toFixed(2)}× CPU, ${(all.peakMiB / single.peakMiB).toFixed(2)}× memory; --all = ${((all.seconds * 1000) / counts.replicaSets).toFixed(2)} ms per ReplicaSet`,
  )
}

main().catch((err) => {
  console.error(err)
  process.exit(1)
})
