// The clock of a dump with no capture time is at or after every instant the data proves passed (issue 27 point 1).
// The dumps are written as `kubectl get -o yaml` prints them; each expected instant is worked by hand in the test.
import assert from 'node:assert/strict'
import {mkdtempSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {test} from 'node:test'
import {SnapshotSource} from '../../../src/cluster/snapshot/snapshot-source.js'

function dump(yaml: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'kw-clock-'))
  const file = join(dir, 'dump.yaml')
  writeFileSync(file, yaml)
  return file
}

test('a NoExecute taint present in the dump is past: the clock is at its timeAdded, not 6s before it', async () => {
  // Newest heartbeat 10:00:00 (kubelet); the node lifecycle controller added the unreachable taint at 10:00:06.
  // The first round took 10:00:00 and showed the taint "added in 6s"; the clock must be >= 10:00:06.
  const s = await SnapshotSource.open(
    dump(`apiVersion: v1
kind: List
items:
- apiVersion: v1
  kind: Node
  metadata: {name: n1, creationTimestamp: "2026-11-29T09:00:00Z"}
  spec:
    taints:
    - {key: node.kubernetes.io/unreachable, effect: NoExecute, timeAdded: "2026-11-29T10:00:06Z"}
  status:
    conditions:
    - {type: Ready, status: Unknown, reason: NodeStatusUnknown, lastHeartbeatTime: "2026-11-29T10:00:00Z", lastTransitionTime: "2026-11-29T10:00:05Z"}
`),
  )
  assert.equal(s.now().toISOString(), '2026-11-29T10:00:06.000Z')
  const from = String(s.describe().settings?.clock.from)
  assert.match(from, /node\.kubernetes\.io\/unreachable taint's timeAdded on Node n1/)
  assert.match(from, /kube-controller-manager's clock/)
})

test('an object deleted 23 min after its creation is evaluated at or after the delete request, not at its creation', async () => {
  // created 10:00:00; deletionTimestamp 10:23:30 with grace 30s => the delete request was at 10:23:00 (API server's
  // clock). No other time in the dump, so the clock is 10:23:00 and its AGE is 23m, not 0s. The deletionTimestamp
  // itself (10:23:30) is in the future of the request and is not a lower bound.
  const s = await SnapshotSource.open(
    dump(`apiVersion: v1
kind: Pod
metadata:
  name: web-1
  namespace: shop
  creationTimestamp: "2026-11-29T10:00:00Z"
  deletionTimestamp: "2026-11-29T10:23:30Z"
  deletionGracePeriodSeconds: 30
spec: {containers: [{name: c, image: nginx}]}
`),
  )
  assert.equal(s.now().toISOString(), '2026-11-29T10:23:00.000Z')
  assert.equal((s.now().getTime() - Date.parse('2026-11-29T10:00:00Z')) / 60000, 23)
  assert.match(String(s.describe().settings?.clock.from), /delete request of Pod shop\/web-1 \(deletionTimestamp less 30s grace\), the API server's clock/)
})

test("events, container states, Jobs and Leases are lower bounds; a foreign agent's node condition is not", async () => {
  // Each object holds one instant later than its creation. node-problem-detector's KernelDeadlock transition
  // (11:00:09) is a reading of its own clock, which no output shows: it does not count (clock.ts says why). The
  // newest of the rest is the kubelet's Ready heartbeat, 11:00:08.
  const s = await SnapshotSource.open(
    dump(`apiVersion: v1
kind: List
items:
- apiVersion: v1
  kind: Event
  metadata: {name: e1, namespace: shop, creationTimestamp: "2026-11-29T11:00:00Z"}
  firstTimestamp: "2026-11-29T11:00:00Z"
  lastTimestamp: "2026-11-29T11:00:04Z"
- apiVersion: v1
  kind: Pod
  metadata: {name: p, namespace: shop, creationTimestamp: "2026-11-29T11:00:00Z"}
  status:
    containerStatuses:
    - name: app
      state: {terminated: {exitCode: 0, startedAt: "2026-11-29T11:00:01Z", finishedAt: "2026-11-29T11:00:05Z"}}
- apiVersion: batch/v1
  kind: Job
  metadata: {name: j, namespace: shop, creationTimestamp: "2026-11-29T11:00:00Z"}
  status: {startTime: "2026-11-29T11:00:00Z", completionTime: "2026-11-29T11:00:06Z"}
- apiVersion: coordination.k8s.io/v1
  kind: Lease
  metadata: {name: n1, namespace: kube-node-lease, creationTimestamp: "2026-11-29T11:00:00Z"}
  spec: {holderIdentity: n1, acquireTime: "2026-11-29T11:00:00.000000Z", renewTime: "2026-11-29T11:00:07.250000Z"}
- apiVersion: v1
  kind: Node
  metadata: {name: n1, creationTimestamp: "2026-11-29T11:00:00Z"}
  status:
    conditions:
    - {type: Ready, status: "True", lastHeartbeatTime: "2026-11-29T11:00:08Z", lastTransitionTime: "2026-11-29T11:00:00Z"}
    - {type: KernelDeadlock, status: "False", lastHeartbeatTime: "2026-11-29T11:00:02Z", lastTransitionTime: "2026-11-29T11:00:09Z"}
`),
  )
  assert.equal(s.now().toISOString(), '2026-11-29T11:00:08.000Z')
  assert.match(String(s.describe().settings?.clock.from), /Ready heartbeat of Node n1, the kubelet's clock/)
})

test('each kind alone moves the clock: with the node the Ready heartbeat (11:00:08) sets it; without it the Lease (11:00:07.25)', async () => {
  const base = (extra: string) => `apiVersion: v1
kind: List
items:
- apiVersion: v1
  kind: Event
  metadata: {name: e1, namespace: shop, creationTimestamp: "2026-11-29T11:00:00Z"}
  lastTimestamp: "2026-11-29T11:00:04Z"
- apiVersion: coordination.k8s.io/v1
  kind: Lease
  metadata: {name: n1, namespace: kube-node-lease, creationTimestamp: "2026-11-29T11:00:00Z"}
  spec: {holderIdentity: n1, renewTime: "2026-11-29T11:00:07.250000Z"}
${extra}`
  const withNode = await SnapshotSource.open(
    dump(
      base(`- apiVersion: v1
  kind: Node
  metadata: {name: n1, creationTimestamp: "2026-11-29T11:00:00Z"}
  status:
    conditions:
    - {type: Ready, status: "True", lastHeartbeatTime: "2026-11-29T11:00:08Z", lastTransitionTime: "2026-11-29T11:00:00Z"}
`),
    ),
  )
  assert.equal(withNode.now().toISOString(), '2026-11-29T11:00:08.000Z')
  assert.match(String(withNode.describe().settings?.clock.from), /Ready heartbeat of Node n1, the kubelet's clock/)
  const leaseOnly = await SnapshotSource.open(dump(base('')))
  assert.equal(leaseOnly.now().toISOString(), '2026-11-29T11:00:07.250Z')
  assert.match(String(leaseOnly.describe().settings?.clock.from), /renewTime of Lease kube-node-lease\/n1, its holder's clock/)
})
