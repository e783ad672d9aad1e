// gc namespace/NAME against the fake API server: the namespace controller's replay reads the namespace whole, lists
// every namespaced deletable type in it and the APIServices, and sends nothing but GET. Answer worked by hand: demo is
// being deleted with spec.finalizers [kubernetes] and holds one ConfigMap held by example.com/hold, so the namespace
// controller blocks its deletion and names that ConfigMap.
import assert from 'node:assert/strict'
import {mkdtempSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {after, before, describe, test} from 'node:test'
import type {KubeObject} from '../../src/cluster/source.js'
import {runCli} from '../support/cli.js'
import {FakeApiServer} from '../support/fake-apiserver/index.js'

const OBJECTS: KubeObject[] = [
  {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: {name: 'demo', uid: 'ns-demo', resourceVersion: '10', deletionTimestamp: '2026-11-29T01:00:00Z'},
    spec: {finalizers: ['kubernetes']},
    status: {phase: 'Terminating'},
  },
  {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: {
      name: 'settings',
      namespace: 'demo',
      uid: 'cm-1',
      resourceVersion: '11',
      deletionTimestamp: '2026-11-29T01:00:01Z',
      finalizers: ['example.com/hold'],
    },
  },
]

let server: FakeApiServer
let kubeconfig: string
before(async () => {
  server = await FakeApiServer.start({objects: structuredClone(OBJECTS), version: 'v1.34.1'})
  kubeconfig = server.writeKubeconfig(mkdtempSync(join(tmpdir(), 'gc-ns-')))
})
after(async () => server.close())

describe('gc namespace/NAME, live', () => {
  test('the namespace controller blocks it, held by the ConfigMap; only GETs are sent', async () => {
    server.clearRequests()
    const r = await runCli(['gc', 'namespace/demo', '--kubeconfig', kubeconfig, '-o', 'json', '--now', '2026-11-29T03:00:00Z'])
    assert.notEqual(r.code, 2, r.stderr)
    const json = JSON.parse(r.stdout)
    assert.equal(json.actors[0].actor, 'namespace')
    assert.equal(json.actors[0].action, 'blocksDeletion')
    assert.match(json.summary, /ConfigMap settings \("example\.com\/hold"\)/)
    const requests = [...server.requests]
    assert.deepEqual(
      requests.filter((q) => q.method !== 'GET').map((q) => `${q.method} ${q.path}`),
      [],
    )
    assert.ok(requests.some((q) => q.path === '/api/v1/namespaces/demo/configmaps'))
    assert.ok(requests.some((q) => q.path === '/api/v1/namespaces/demo/pods'))
  })
})
