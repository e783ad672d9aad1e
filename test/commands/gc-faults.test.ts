// `kubectl why gc` against the fake API server when lists fail (issue 19): an expired continue token (410) restarts
// the list and loses nothing; a list that cannot be read is reported as partial, by --all and by --tree, never
// dropped with exit 0 as if the kind were empty.
import assert from 'node:assert/strict'
import {mkdtempSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {after, before, describe, test} from 'node:test'
import type {KubeObject, OwnerReference} from '../../src/cluster/source.js'
import {runCli} from '../support/cli.js'
import {FakeApiServer} from '../support/fake-apiserver/index.js'

// biome-ignore lint/suspicious/noExplicitAny: parsed JSON of a command's output, whose fields the test reads one by one
type Any = any

const ref = (apiVersion: string, kind: string, name: string, uid: string): OwnerReference => ({
  apiVersion,
  kind,
  name,
  uid,
  controller: true,
  blockOwnerDeletion: true,
})
function o(apiVersion: string, kind: string, name: string, uid: string, owners: OwnerReference[] = []): KubeObject {
  return {
    apiVersion,
    kind,
    metadata: {
      name,
      namespace: 'shop',
      uid,
      resourceVersion: '10',
      creationTimestamp: '2026-11-29T01:00:00Z',
      ...(owners.length ? {ownerReferences: owners} : {}),
    },
  }
}

// 600 pods (two pages of the driver's 500), all of one ReplicaSet but the last, whose ReplicaSet is gone.
const PODS = 600
const OBJECTS: KubeObject[] = [
  o('apps/v1', 'Deployment', 'web', 'd-1'),
  o('apps/v1', 'ReplicaSet', 'web-1', 'rs-1', [ref('apps/v1', 'Deployment', 'web', 'd-1')]),
]
for (let i = 0; i < PODS - 1; i++) OBJECTS.push(o('v1', 'Pod', `web-1-${i}`, `p-${i}`, [ref('apps/v1', 'ReplicaSet', 'web-1', 'rs-1')]))
OBJECTS.push(o('v1', 'Pod', 'zz-orphan', 'p-orphan', [ref('apps/v1', 'ReplicaSet', 'gone-1', 'rs-gone')]))

let server: FakeApiServer
let kubeconfig: string
before(async () => {
  server = await FakeApiServer.start({objects: structuredClone(OBJECTS), version: 'v1.31.2'})
  kubeconfig = server.writeKubeconfig(mkdtempSync(join(tmpdir(), 'gc-faults-')))
})
after(async () => server.close())

async function gc(args: string[]): Promise<{code: number; json: Any; stdout: string; stderr: string}> {
  const r = await runCli(['gc', ...args, '--kubeconfig', kubeconfig])
  let json: Any
  if (args.includes('json')) json = JSON.parse(r.stdout)
  return {code: r.code, json, stdout: r.stdout, stderr: r.stderr}
}

describe('gc --all -A and 410', () => {
  test('one expired continue token: the pod list is read again, every pod replayed, the orphan found', async () => {
    const fault = server.inject({path: '/api/v1/pods', when: (q) => q.continue !== undefined, status: 410})
    try {
      const {code, json} = await gc(['--all', '-A', '-o', 'json'])
      assert.equal(fault.hits, 1)
      assert.equal(code, 1, 'the orphaned pod is deleted: a warning')
      // 599 pods and the ReplicaSet kept, the orphan deleted (the Deployment and the server's own objects: noOwners).
      assert.equal(json.counts.keep, PODS)
      assert.equal(json.counts.delete, 1)
      assert.deepEqual(
        json.findings.map((f: Any) => f.subject.name),
        ['zz-orphan'],
      )
      assert.deepEqual(json.source.partial ?? [], [])
    } finally {
      fault.lift()
    }
  })

  test('a list that keeps failing is reported as partial, and the other kinds still answer', async () => {
    const fault = server.inject({path: '/api/v1/pods', when: (q) => q.continue !== undefined, status: 410, times: 100})
    try {
      const {json} = await gc(['--all', '-A', '-o', 'json'])
      const pods = (json.source.partial as Any[]).filter((p) => p.what === 'list v1 Pod')
      assert.equal(pods.length, 1, JSON.stringify(json.source.partial))
      assert.match(pods[0].reason, /410|Gone|Expired/)
      assert.ok(!json.findings.some((f: Any) => f.subject.kind === 'Pod'), 'no pod is judged from a list that was not read')
      assert.equal(json.counts.keep, 1, 'the ReplicaSet')
    } finally {
      fault.lift()
    }
  })
})

describe('gc --tree and unreadable dependents', () => {
  test('403 on pods: the tree says its pods could not be listed (table and JSON)', async () => {
    const fault = server.forbid({resource: 'pods'})
    try {
      const table = await gc(['rs/web-1', '-n', 'shop', '--tree'])
      assert.match(table.stdout, /partial: list v1 Pod: Forbidden \(403\).*dependents of that kind may be missing/s)
      const {json} = await gc(['rs/web-1', '-n', 'shop', '--tree', '-o', 'json'])
      assert.deepEqual(json.tree.object.children, [])
      assert.deepEqual(
        json.tree.partial.map((p: Any) => p.what),
        ['list v1 Pod'],
      )
      assert.ok(json.source.partial.some((p: Any) => p.what === 'list v1 Pod'))
    } finally {
      fault.lift()
    }
  })

  test('one 410 on the pods: every dependent is there', async () => {
    const fault = server.inject({path: '/api/v1/pods', when: (q) => q.continue !== undefined, status: 410})
    try {
      const {json} = await gc(['rs/web-1', '-n', 'shop', '--tree', '-o', 'json'])
      assert.equal(json.tree.object.children.length + (json.tree.object.more ?? 0), PODS - 1)
      assert.equal(json.tree.partial, undefined)
    } finally {
      fault.lift()
    }
  })
})
