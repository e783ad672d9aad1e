// The synthetic cluster generator (test/support/synthetic/): deterministic, counts as asked, ownership
// consistent, names and timestamps valid, incidents shaped as the controllers leave them, and snapshots
// the snapshot source reads back.
import assert from 'node:assert/strict'
import {mkdtempSync, readFileSync, rmSync} from 'node:fs'
import {request} from 'node:https'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {after, describe, it} from 'node:test'
import {gunzipSync} from 'node:zlib'
import {SnapshotSource} from '../../src/cluster/snapshot/snapshot-source.js'
import type {KubeObject} from '../../src/cluster/source.js'
import {FakeApiServer} from './fake-apiserver/index.js'
import {generateCluster, STUCK_POD_FINALIZER, SyntheticCluster, writeSnapshot, type SyntheticClusterOptions} from './synthetic/index.js'
import {DNS1123_LABEL, DNS1123_SUBDOMAIN} from './synthetic/names.js'
import {permute, uniqueSuffix} from './synthetic/prng.js'

const NOW = '2026-11-29T03:00:00Z'
const NOW_MS = Date.parse(NOW)
/** A few hundred objects with every kind of incident present. */
const SMALL: SyntheticClusterOptions = {
  seed: 42,
  now: NOW,
  nodes: 8,
  zones: 3,
  namespaces: 3,
  deployments: 5,
  replicaSetsPerDeployment: 3,
  pods: 120,
  daemonSets: 2,
  statefulSets: 2,
  otherOwned: 40,
  events: 25,
  notReadyNodes: 3,
  notReadySeconds: [600, 1200],
  danglingOwners: 5,
  stuckForeground: 1,
}

const all = (options: SyntheticClusterOptions): KubeObject[] => [...generateCluster(options)]
const key = (o: KubeObject): string => `${o.kind}/${o.metadata?.namespace ?? ''}/${o.metadata?.name}`
const ofKind = (objects: KubeObject[], kind: string): KubeObject[] => objects.filter((o) => o.kind === kind)
// biome-ignore lint/suspicious/noExplicitAny: parsed JSON of a command's output, whose fields the test reads one by one
type Any = any

/** Every RFC 3339 string anywhere in a value, with its path. */
function timestamps(v: unknown, path = '', out: [string, string][] = []): [string, string][] {
  if (typeof v === 'string' && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/.test(v)) out.push([path, v])
  else if (Array.isArray(v)) for (const [i, x] of v.entries()) timestamps(x, `${path}[${i}]`, out)
  else if (v !== null && typeof v === 'object') for (const [k, x] of Object.entries(v)) timestamps(x, path ? `${path}.${k}` : k, out)
  return out
}

describe('synthetic cluster generator', () => {
  const objects = all(SMALL)
  const byUid = new Map(objects.map((o) => [o.metadata?.uid as string, o]))

  it('is deterministic: same seed gives identical objects, another seed different ones', () => {
    assert.equal(JSON.stringify(all(SMALL)), JSON.stringify(objects))
    const other = all({...SMALL, seed: 43})
    assert.equal(other.length, objects.length)
    assert.notEqual(JSON.stringify(other), JSON.stringify(objects))
    assert.notEqual(other[0].metadata?.uid, objects[0].metadata?.uid)
  })

  it('streams: the first object arrives without the rest being built', () => {
    const big = generateCluster({nodes: 2000, pods: 60_000, now: NOW})
    const started = performance.now()
    assert.equal(big.next().value?.kind, 'Namespace')
    // Building 100,000 objects takes seconds; one object after planning takes well under one.
    assert.ok(performance.now() - started < 1500)
  })

  it('yields exactly the counts the options ask for', () => {
    const counts: Record<string, number> = {}
    for (const o of objects) counts[o.kind as string] = (counts[o.kind as string] ?? 0) + 1
    const cluster = new SyntheticCluster(SMALL)
    assert.deepEqual(counts, cluster.counts)
    assert.equal(objects.length, cluster.total)
    assert.equal(counts.Node, 8)
    assert.equal(counts.Pod, 120)
    assert.equal(counts.Deployment, 5)
    assert.equal(counts.ReplicaSet, 15)
    assert.equal(counts.DaemonSet, 2)
    assert.equal(counts.StatefulSet, 2)
    assert.equal(counts.ControllerRevision, 8)
    assert.equal(counts.Event, 25)
    assert.equal(counts.Namespace, 4 + 3)
    assert.equal(ofKind(objects, 'Lease').filter((l) => l.metadata?.namespace === 'kube-node-lease').length, 8)
    const other = ['ConfigMap', 'Secret', 'Service', 'EndpointSlice', 'CronJob', 'Job'].reduce((n, k) => n + (counts[k] ?? 0), 0)
    assert.equal(other, 40)
    // podsPerReplicaSet instead of a total: every current ReplicaSet holds exactly that many.
    const fixed = all({...SMALL, pods: undefined, podsPerReplicaSet: 4})
    for (const rs of ofKind(fixed, 'ReplicaSet')) assert.ok([0, 4].includes((rs.spec as Any).replicas))
    assert.equal(ofKind(fixed, 'Pod').filter((p) => p.metadata?.ownerReferences?.[0].kind === 'ReplicaSet').length, 20)
  })

  it('gives every object a unique uid and a unique name within its kind and namespace', () => {
    assert.equal(byUid.size, objects.length)
    assert.equal(new Set(objects.map(key)).size, objects.length)
    // Also with many zones, incidents everywhere and hundreds of dangling objects.
    const heavy = all({now: NOW, nodes: 30, zones: 30, notReadyNodes: 29, notReadyTaints: 'all', stuckForeground: 12, danglingOwners: 600, events: 300})
    assert.equal(new Set(heavy.map((o) => o.metadata?.uid)).size, heavy.length)
    assert.equal(new Set(heavy.map(key)).size, heavy.length)
  })

  it('never repeats a generated pod name suffix, even at benchmark scale (random 5-letter suffixes would)', () => {
    assert.deepEqual(new Set(Array.from({length: 1000}, (_, i) => permute(i, 1000, 7))).size, 1000)
    const suffixes = new Set<string>()
    for (let i = 0; i < 200_000; i++) suffixes.add(uniqueSuffix(i, 42))
    assert.equal(suffixes.size, 200_000)
    for (const s of [...suffixes].slice(0, 100)) assert.match(s, /^[bcdfghjklmnpqrstvwxz2456789]{5}$/)
  })

  it('keeps ownership consistent: every owner exists (same kind, name, namespace) except the deliberately dangling ones', () => {
    const dangling: KubeObject[] = []
    for (const o of objects) {
      for (const ref of o.metadata?.ownerReferences ?? []) {
        const owner = byUid.get(ref.uid)
        if (!owner) {
          dangling.push(o)
          continue
        }
        assert.equal(owner.kind, ref.kind, key(o))
        assert.equal(owner.apiVersion, ref.apiVersion, key(o))
        assert.equal(owner.metadata?.name, ref.name, key(o))
        if (owner.metadata?.namespace !== undefined) assert.equal(owner.metadata.namespace, o.metadata?.namespace, key(o))
      }
    }
    assert.equal(dangling.length, SMALL.danglingOwners)
    for (const o of dangling) assert.ok(['ConfigMap', 'Secret', 'Service', 'Job'].includes(o.kind as string))
    // Workload controllers set controller + blockOwnerDeletion; at most one controller reference per object.
    for (const o of objects) {
      const refs = o.metadata?.ownerReferences ?? []
      assert.ok(refs.filter((r) => r.controller).length <= 1, key(o))
      for (const r of refs)
        if (r.controller && ['ReplicaSet', 'Deployment', 'DaemonSet', 'StatefulSet'].includes(r.kind)) assert.equal(r.blockOwnerDeletion, true, key(o))
    }
  })

  it('puts every pod on a generated node, and labels it the way its controller does', () => {
    const nodes = new Set(ofKind(objects, 'Node').map((n) => n.metadata?.name))
    for (const p of ofKind(objects, 'Pod')) {
      assert.ok(nodes.has((p.spec as Any).nodeName), key(p))
      const owner = byUid.get(p.metadata?.ownerReferences?.[0].uid as string) as Any
      const labels = p.metadata?.labels ?? {}
      if (owner.kind === 'ReplicaSet') {
        assert.equal(labels['pod-template-hash'], owner.metadata.labels['pod-template-hash'])
        assert.ok(p.metadata?.name?.startsWith(`${owner.metadata.name}-`))
        assert.deepEqual(
          (p.spec as Any).tolerations.map((t: Any) => [t.key, t.tolerationSeconds]),
          [
            ['node.kubernetes.io/not-ready', 300],
            ['node.kubernetes.io/unreachable', 300],
          ],
        )
      } else if (owner.kind === 'DaemonSet') {
        const rev = ofKind(objects, 'ControllerRevision').find((c) => c.metadata?.name === `${owner.metadata.name}-${labels['controller-revision-hash']}`)
        assert.ok(rev, `${key(p)}: its controller-revision-hash names a ControllerRevision`)
      } else if (owner.kind === 'StatefulSet') {
        assert.equal(labels['controller-revision-hash'], owner.status.updateRevision)
      }
    }
    // Leases: one per node, named after it, held by it, owned by it.
    for (const l of ofKind(objects, 'Lease').filter((x) => x.metadata?.namespace === 'kube-node-lease')) {
      assert.ok(nodes.has(l.metadata?.name))
      assert.equal((l.spec as Any).holderIdentity, l.metadata?.name)
      assert.equal((l.spec as Any).leaseDurationSeconds, 40)
      assert.match((l.spec as Any).renewTime, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/)
      assert.equal(byUid.get(l.metadata?.ownerReferences?.[0].uid as string)?.metadata?.name, l.metadata?.name)
    }
  })

  it('stores pod templates fully defaulted and gives Deployments one current ReplicaSet', () => {
    for (const d of ofKind(objects, 'Deployment') as Any[]) {
      const spec = d.spec.template.spec
      assert.equal(spec.restartPolicy, 'Always')
      assert.equal(spec.dnsPolicy, 'ClusterFirst')
      assert.equal(spec.schedulerName, 'default-scheduler')
      assert.equal(spec.terminationGracePeriodSeconds, 30)
      assert.deepEqual(spec.securityContext, {})
      for (const c of spec.containers) {
        assert.equal(c.terminationMessagePath, '/dev/termination-log')
        assert.equal(c.terminationMessagePolicy, 'File')
        assert.equal(c.imagePullPolicy, 'IfNotPresent')
        for (const p of c.ports) assert.equal(p.protocol, 'TCP')
        for (const probe of [c.livenessProbe, c.readinessProbe].filter(Boolean)) {
          assert.deepEqual([probe.timeoutSeconds, probe.periodSeconds, probe.successThreshold, probe.failureThreshold], [1, 10, 1, 3])
        }
      }
      const rss = ofKind(objects, 'ReplicaSet').filter((r) => r.metadata?.ownerReferences?.[0].uid === d.metadata.uid) as Any[]
      assert.equal(rss.length, 3)
      const current = rss.filter(
        (r) => r.metadata.annotations['deployment.kubernetes.io/revision'] === d.metadata.annotations['deployment.kubernetes.io/revision'],
      )
      assert.equal(current.length, 1)
      assert.equal(current[0].spec.replicas, d.spec.replicas)
      for (const r of rss) {
        assert.equal(r.metadata.name, `${d.metadata.name}-${r.metadata.labels['pod-template-hash']}`)
        assert.match(r.metadata.labels['pod-template-hash'], /^[bcdfghjklmnpqrstvwxz2456789]{8,10}$/)
        if (r !== current[0]) assert.equal(r.spec.replicas, 0)
      }
    }
  })

  it('uses DNS-1123 names', () => {
    for (const o of objects) {
      const name = o.metadata?.name as string
      assert.ok(name.length <= 253 && DNS1123_SUBDOMAIN.test(name), key(o))
      if (o.metadata?.namespace !== undefined) assert.ok(DNS1123_LABEL.test(o.metadata.namespace) && o.metadata.namespace.length <= 63, key(o))
      if (o.kind === 'Namespace' || o.kind === 'Service') assert.ok(DNS1123_LABEL.test(name) && name.length <= 63, key(o))
      for (const v of Object.values(o.metadata?.labels ?? {}))
        assert.ok(v.length <= 63 && /^([A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?)?$/.test(v), `${key(o)} label ${v}`)
    }
  })

  it('dates everything relative to now: never after it (deletions in grace excepted), never before the cluster', () => {
    for (const o of objects) {
      for (const [path, t] of timestamps(o)) {
        const ms = Date.parse(t)
        const limit = path === 'metadata.deletionTimestamp' ? NOW_MS + 30_000 : NOW_MS
        assert.ok(ms <= limit, `${key(o)} ${path} ${t} is after now`)
        assert.ok(ms >= NOW_MS - 400 * 86_400_000, `${key(o)} ${path} ${t} predates the cluster`)
      }
    }
    // Moving `now` moves every timestamp by exactly as much.
    const later = all({...SMALL, now: '2026-11-30T03:00:00Z'})
    objects.forEach((o, i) => {
      const a = timestamps(o)
      const b = timestamps(later[i])
      assert.equal(a.length, b.length, key(o))
      for (const [j, [path, t]] of a.entries()) assert.equal(Date.parse(b[j][1]) - Date.parse(t), 86_400_000, `${key(o)} ${path}`)
    })
  })

  it('has a kube-controller-manager mirror pod with its command line', () => {
    const kcm = ofKind(objects, 'Pod').find((p) => p.metadata?.labels?.component === 'kube-controller-manager') as Any
    assert.equal(kcm.metadata.namespace, 'kube-system')
    assert.equal(kcm.metadata.ownerReferences[0].kind, 'Node')
    assert.ok(kcm.spec.containers[0].command.includes('--node-monitor-grace-period=40s'))
    const tuned = all({...SMALL, controllerManagerArgs: {'node-monitor-grace-period': '50s', 'node-eviction-rate': null}})
    const cmd = (ofKind(tuned, 'Pod').find((p) => p.metadata?.labels?.component === 'kube-controller-manager') as Any).spec.containers[0].command
    assert.ok(cmd.includes('--node-monitor-grace-period=50s'))
    assert.ok(!cmd.some((a: string) => a.startsWith('--node-eviction-rate')))
  })

  it('stops kubelets on notReadyNodes: stale Lease and heartbeat, Unknown conditions, unreachable taints as asked', () => {
    const stale = (l: Any): boolean => Date.parse(l.spec.renewTime) < NOW_MS - 40_000
    const check = (taints: 'all' | 'none' | 'mixed'): {tainted: number; unknown: number} => {
      const objs = all({...SMALL, notReadyTaints: taints})
      const leases = ofKind(objs, 'Lease').filter((l) => l.metadata?.namespace === 'kube-node-lease')
      assert.equal(leases.filter(stale).length, 3)
      let tainted = 0
      let unknown = 0
      for (const n of ofKind(objs, 'Node') as Any[]) {
        const ready = n.status.conditions.find((c: Any) => c.type === 'Ready')
        const lease = leases.find((l) => l.metadata?.name === n.metadata.name)
        if (!stale(lease)) {
          assert.equal(ready.status, 'True')
          continue
        }
        assert.ok(Date.parse(ready.lastHeartbeatTime) <= Date.parse((lease!.spec as Any).renewTime) + 1000)
        if (ready.status === 'Unknown') {
          unknown++
          assert.equal(ready.reason, 'NodeStatusUnknown')
          assert.ok(n.status.conditions.every((c: Any) => c.status === 'Unknown'))
        }
        const keys = (n.spec.taints ?? []).filter((t: Any) => t.key === 'node.kubernetes.io/unreachable')
        if (keys.length > 0) {
          tainted++
          assert.deepEqual(keys.map((t: Any) => t.effect).sort(), ['NoExecute', 'NoSchedule'])
          for (const t of keys) assert.ok(t.timeAdded)
        }
      }
      return {tainted, unknown}
    }
    // Stopped 10–20 minutes ago: long past the 40 s grace period, so all three are Unknown.
    assert.deepEqual(check('all'), {tainted: 3, unknown: 3})
    assert.deepEqual(check('none'), {tainted: 0, unknown: 3})
    assert.deepEqual(check('mixed'), {tainted: 2, unknown: 3})
    // Workload pods on a node tainted more than 300 s ago were deleted by the taint-eviction controller.
    const objs = all({...SMALL, notReadyTaints: 'all'})
    const evicted = ofKind(objs, 'Pod').filter((p: Any) => p.status.conditions.some((c: Any) => c.type === 'DisruptionTarget')) as Any[]
    assert.ok(evicted.length > 0)
    for (const p of evicted) {
      assert.ok(p.metadata.deletionTimestamp)
      assert.notEqual(p.metadata.ownerReferences[0].kind, 'DaemonSet')
    }
  })

  it('puts all not-ready nodes in one zone when notReadyZone is given', () => {
    const objs = all({...SMALL, nodes: 12, notReadyNodes: 3, notReadyZone: 'eu-west-1b'})
    const stale = ofKind(objs, 'Lease').filter((l: Any) => l.metadata.namespace === 'kube-node-lease' && Date.parse(l.spec.renewTime) < NOW_MS - 40_000)
    const zoneOf = new Map(ofKind(objs, 'Node').map((n) => [n.metadata?.name, n.metadata?.labels?.['topology.kubernetes.io/zone']]))
    assert.deepEqual(
      stale.map((l) => zoneOf.get(l.metadata?.name)),
      ['eu-west-1b', 'eu-west-1b', 'eu-west-1b'],
    )
  })

  it('leaves stuckForeground Deployments waiting on blocking dependents held by a finalizer', () => {
    const stuck = ofKind(objects, 'Deployment').filter((d) => d.metadata?.deletionTimestamp) as Any[]
    assert.equal(stuck.length, 1)
    assert.deepEqual(stuck[0].metadata.finalizers, ['foregroundDeletion'])
    const rs = ofKind(objects, 'ReplicaSet').find((r) => r.metadata?.ownerReferences?.[0].uid === stuck[0].metadata.uid && r.metadata?.deletionTimestamp) as Any
    assert.deepEqual(rs.metadata.finalizers, ['foregroundDeletion'])
    const pods = ofKind(objects, 'Pod').filter((p) => p.metadata?.ownerReferences?.[0].uid === rs.metadata.uid) as Any[]
    assert.equal(pods.length, stuck[0].spec.replicas)
    for (const p of pods) {
      assert.deepEqual(p.metadata.finalizers, [STUCK_POD_FINALIZER])
      assert.ok(p.metadata.deletionTimestamp)
      assert.equal(p.metadata.ownerReferences[0].blockOwnerDeletion, true)
    }
  })

  it('keeps ControllerRevision data as the controllers write it', () => {
    for (const cr of ofKind(objects, 'ControllerRevision') as Any[]) {
      assert.equal(cr.data.spec.template.$patch, 'replace')
      assert.deepEqual(Object.keys(cr.data.spec.template), [...Object.keys(cr.data.spec.template)].sort())
      assert.ok(Number.isInteger(cr.revision) && cr.revision >= 1)
      assert.equal(cr.metadata.name, `${cr.metadata.ownerReferences[0].name}-${cr.metadata.labels['controller.kubernetes.io/hash']}`)
    }
  })

  it('gives events involved objects that exist, within the last hour', () => {
    for (const e of ofKind(objects, 'Event') as Any[]) {
      const involved = byUid.get(e.involvedObject.uid)
      assert.ok(involved, `${key(e)} involves ${e.involvedObject.kind}/${e.involvedObject.name}`)
      assert.equal(involved?.metadata?.name, e.involvedObject.name)
      assert.ok(Date.parse(e.firstTimestamp) >= NOW_MS - 3_600_000)
      assert.ok(Date.parse(e.lastTimestamp) >= Date.parse(e.firstTimestamp))
      assert.ok(e.count >= 1)
    }
  })

  it('can be served by the fake API server, with a watch cache that lags on the Leases', async () => {
    const cluster = new SyntheticCluster({...SMALL, leaseCacheLagSeconds: 30})
    const server = await FakeApiServer.start({objects: cluster.objects('cached'), version: cluster.plan.o.kubernetesVersion})
    // A plain HTTPS GET, as any client sends it (the live source is tested on its own).
    const get = (path: string): Promise<Any> =>
      new Promise((resolve, reject) => {
        const req = request(`${server.url}${path}`, {ca: readFileSync(server.caFile), headers: {Authorization: `Bearer ${server.token}`}}, (res) => {
          const chunks: Buffer[] = []
          res.on('data', (c: Buffer) => chunks.push(c))
          res.on('end', () => resolve(JSON.parse(Buffer.concat(chunks).toString('utf8'))))
        })
        req.on('error', reject)
        req.end()
      })
    try {
      server.lagCache()
      for (const lease of cluster.leases('fresh')) server.put(lease)
      assert.equal((await get('/api/v1/pods')).items.length, 120)
      const lease = `/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases/${cluster.plan.nodes[1].name}`
      const fresh = await get(lease)
      const cached = await get(`${lease}?resourceVersion=0`)
      assert.ok(Date.parse(cached.spec.renewTime) < Date.parse(fresh.spec.renewTime))
    } finally {
      await server.close()
    }
  })

  describe('writeSnapshot', () => {
    const dir = mkdtempSync(join(tmpdir(), 'synthetic-'))
    after(() => rmSync(dir, {recursive: true, force: true}))
    const options = {...SMALL, leaseCacheLagSeconds: 30}

    it('writes the snapshot layout: header line, one item per line, closing line; gzip for .gz', async () => {
      const plain = await writeSnapshot(join(dir, 's.json'), options)
      const gz = await writeSnapshot(join(dir, 's.json.gz'), options)
      const text = readFileSync(plain.path, 'utf8')
      assert.equal(gunzipSync(readFileSync(gz.path)).toString('utf8'), text)
      const doc = JSON.parse(text)
      assert.equal(doc.kind, 'List')
      assert.equal(doc.kubectlWhy.format, 1)
      assert.equal(doc.kubectlWhy.capturedAt, NOW)
      assert.equal(doc.kubectlWhy.serverVersion.gitVersion, 'v1.31.2')
      // Every listable kind but Nodes, node Leases and the fully read ones, as `kubectl why snapshot` records them, so a
      // snapshot's evidence proves the absence of a missing ConfigMap owner (it recorded only Secrets before). Jobs and
      // CronJobs are read whole (TTL-after-finished, CronJob history limits), so they are not metadata-only.
      for (const k of ['v1/Secret', 'v1/ConfigMap', 'v1/Service']) assert.ok(doc.kubectlWhy.metadataOnly.includes(k), k)
      for (const k of ['v1/Pod', 'v1/Node', 'apps/v1/ReplicaSet', 'apps/v1/Deployment', 'batch/v1/CronJob', 'batch/v1/Job'])
        assert.ok(!doc.kubectlWhy.metadataOnly.includes(k), k)
      assert.equal(doc.kubectlWhy.cached.length, 8)
      assert.equal(doc.items.length, plain.objects)
      assert.equal(doc.items.length, new SyntheticCluster(options).total)
      const lines = text.split('\n')
      assert.match(lines[0], /^\{"apiVersion":"v1","kind":"List","metadata":\{"resourceVersion":""\},"kubectlWhy":\{.*\},"items":\[$/)
      assert.equal(lines.length, plain.objects + 3)
      assert.equal(lines.at(-2), ']}')
      assert.equal(lines.at(-1), '')
    })

    it('is read back by the snapshot source: clock, counts, fresh and lagging cached Leases', async () => {
      const path = join(dir, 'read.json.gz')
      await writeSnapshot(path, options)
      const source = await SnapshotSource.open(path)
      assert.equal(source.now().toISOString(), '2026-11-29T03:00:00.000Z')
      assert.equal((await source.list({kind: 'Pod'})).items.length, 120)
      assert.equal((await source.list({kind: 'ReplicaSet', apiVersion: 'apps/v1'})).items.length, 15)
      const healthy = ofKind(objects, 'Lease').find(
        (l: Any) => l.metadata.namespace === 'kube-node-lease' && Date.parse(l.spec.renewTime) > NOW_MS - 10_000,
      ) as Any
      const fresh = (await source.get({kind: 'Lease', namespace: 'kube-node-lease', name: healthy.metadata.name, view: 'fresh'})) as Any
      const cached = (await source.get({kind: 'Lease', namespace: 'kube-node-lease', name: healthy.metadata.name, view: 'cached'})) as Any
      assert.equal(fresh.spec.renewTime, healthy.spec.renewTime)
      assert.ok(Date.parse(cached.spec.renewTime) <= NOW_MS - 30_000, 'the watch cache is 30 s behind')
      assert.ok(Number(cached.metadata.resourceVersion) < Number(fresh.metadata.resourceVersion))
    })
  })
})
