// One suite, two sources: the live source against the fake API server, and the snapshot source over a
// file holding the same objects. Every answer must be the same; expected values are read off the
// fixture (test/fixtures/snapshots/contract-objects.yaml) by hand.
import assert from 'node:assert/strict'
import {mkdtempSync, readFileSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {after, before, describe, test} from 'node:test'
import {fileURLToPath} from 'node:url'
import {LiveSource} from '../../src/cluster/live/live-source.js'
import {SnapshotSource} from '../../src/cluster/snapshot/snapshot-source.js'
import type {ClusterSource, KubeObject} from '../../src/cluster/source.js'
import {ReadError} from '../../src/errors.js'
import {parseYamlDocuments, stringifyJson} from '../../src/util/json.js'
import {FakeApiServer} from '../support/fake-apiserver/index.js'

const OBJECTS = parseYamlDocuments(
  readFileSync(fileURLToPath(new URL('../fixtures/snapshots/contract-objects.yaml', import.meta.url)), 'utf8'),
)[0] as KubeObject[]
const VERSION = {major: '1', minor: '31', gitVersion: 'v1.31.2'}
const names = (items: KubeObject[]) => items.map((o) => o.metadata?.name)

async function liveSource(): Promise<{source: ClusterSource; server: FakeApiServer}> {
  const server = await FakeApiServer.start({objects: structuredClone(OBJECTS), version: VERSION})
  const kubeconfig = server.writeKubeconfig(mkdtempSync(join(tmpdir(), 'contract-')), {namespace: 'default'})
  const source = await LiveSource.open({kubeconfig, requestTimeout: 10_000})
  return {source, server}
}

async function snapshotSource(): Promise<{source: ClusterSource}> {
  const path = join(mkdtempSync(join(tmpdir(), 'contract-')), 'dump.json')
  writeFileSync(path, stringifyJson({apiVersion: 'v1', kind: 'List', items: OBJECTS}, 2))
  writeFileSync(join(path, '..', 'version.json'), JSON.stringify(VERSION))
  return {source: await SnapshotSource.open(join(path, '..'))}
}

for (const [label, open] of [
  ['live (fake API server)', liveSource],
  ['snapshot file', snapshotSource],
] as const) {
  describe(`ClusterSource contract: ${label}`, () => {
    let source: ClusterSource
    let server: FakeApiServer | undefined
    before(async () => {
      const opened = await open()
      source = opened.source
      server = (opened as {server?: FakeApiServer}).server
    })
    after(async () => {
      await source.close?.()
      await server?.close()
    })

    test('server version', async () => {
      assert.equal((await source.serverVersion())?.gitVersion, 'v1.31.2')
    })

    test('get returns the object unchanged, int64 beyond 2^53 included', async () => {
      const d = await source.get({apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'shop', name: 'web'})
      assert.deepEqual(
        d,
        OBJECTS.find((o) => o.metadata?.uid === 'dep-web'),
      )
      const memory = (d!.spec as {template: {spec: {containers: {resources: {limits: {memory: unknown}}}[]}}}).template.spec.containers[0].resources.limits
        .memory
      assert.equal(memory, 9223372036854775807n)
    })

    test('get of an absent object is undefined; in another namespace too', async () => {
      assert.equal(await source.get({kind: 'Pod', namespace: 'shop', name: 'nope'}), undefined)
      assert.equal(await source.get({kind: 'Pod', namespace: 'data', name: 'web-5d4ddc985d-a'}), undefined)
    })

    test('cluster-scoped get', async () => {
      assert.equal((await source.get({kind: 'Node', name: 'worker-2'}))?.metadata?.uid, 'node-2')
    })

    test('list across namespaces, in one namespace, by label, by field', async () => {
      assert.deepEqual(names((await source.list({kind: 'Pod'})).items), ['db-0', 'web-5d4ddc985d-a', 'web-5d4ddc985d-b'])
      assert.deepEqual(names((await source.list({kind: 'Pod', namespace: 'shop'})).items), ['web-5d4ddc985d-a', 'web-5d4ddc985d-b'])
      assert.deepEqual(names((await source.list({kind: 'Pod', labelSelector: 'app!=web'})).items), ['db-0'])
      assert.deepEqual(names((await source.list({kind: 'Pod', fieldSelector: 'spec.nodeName=worker-1'})).items), ['db-0', 'web-5d4ddc985d-a'])
    })

    test('pages of 2 carry every item once, in order', async () => {
      const seen: string[] = []
      for await (const page of source.pages({kind: 'Pod', pageSize: 2})) {
        assert.ok(page.length <= 2)
        seen.push(...(names(page) as string[]))
      }
      assert.deepEqual(seen, ['db-0', 'web-5d4ddc985d-a', 'web-5d4ddc985d-b'])
    })

    test('metadata-only list: real apiVersion/kind, metadata only', async () => {
      const {items} = await source.list({apiVersion: 'v1', kind: 'ConfigMap', namespace: 'shop', metadataOnly: true})
      assert.equal(items.length, 1)
      assert.deepEqual(Object.keys(items[0]).sort(), ['apiVersion', 'kind', 'metadata'])
      assert.equal(items[0].kind, 'ConfigMap')
      assert.equal(items[0].apiVersion, 'v1')
      assert.deepEqual(items[0].metadata, OBJECTS.find((o) => o.metadata?.uid === 'cm-settings')!.metadata)
    })

    test('metadata-only get: the object as PartialObjectMetadata, with its real apiVersion and kind', async () => {
      const cm = await source.get({apiVersion: 'v1', kind: 'ConfigMap', namespace: 'shop', name: 'settings', metadataOnly: true})
      assert.deepEqual(cm, {apiVersion: 'v1', kind: 'ConfigMap', metadata: OBJECTS.find((o) => o.metadata?.uid === 'cm-settings')!.metadata})
    })

    test('discovery lists the kinds with scope and verbs', async () => {
      const types = await source.discovery()
      const dep = types.find((t) => t.group === 'apps' && t.kind === 'Deployment')
      assert.equal(dep?.resource, 'deployments')
      assert.equal(dep?.namespaced, true)
      assert.ok(dep?.verbs.includes('list'))
      assert.equal(types.find((t) => t.kind === 'Node')?.namespaced, false)
    })

    test('an unserved kind is NotServed', async () => {
      await assert.rejects(source.list({apiVersion: 'example.com/v1', kind: 'Widget'}), (e: Error) => e instanceof ReadError && e.reason === 'NotServed')
    })

    test('default namespace', () => {
      assert.equal(source.defaultNamespace(), 'default')
    })
  })
}
