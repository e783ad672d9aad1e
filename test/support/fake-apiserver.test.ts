// The fake API server against what kube-apiserver does, request by request with plain HTTPS.
// Expected values come from upstream (k8s.io/apiserver, k8s.io/apimachinery) and real server
// output; each test names where.
import assert from 'node:assert/strict'
import {mkdtempSync, readFileSync} from 'node:fs'
import {request} from 'node:https'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {after, before, describe, test} from 'node:test'
import type {KubeObject} from '../../src/cluster/source.js'
import {parseJson} from '../../src/util/json.js'
import {FakeApiServer} from './fake-apiserver/index.js'

interface Reply {
  status: number
  headers: Record<string, string | string[] | undefined>
  text: string
  // biome-ignore lint/suspicious/noExplicitAny: parsed JSON of a command's output, whose fields the test reads one by one
  body: any
}

function call(server: FakeApiServer, path: string, o: {accept?: string; token?: string | null; method?: string; timeoutMs?: number} = {}): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = {}
    if (o.token !== null) headers.authorization = `Bearer ${o.token ?? server.token}`
    if (o.accept) headers.accept = o.accept
    const req = request(`${server.url}${path}`, {method: o.method ?? 'GET', ca: server.caPem, headers, timeout: o.timeoutMs}, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8')
        let body: unknown
        try {
          body = parseJson(text)
        } catch {
          body = undefined
        }
        resolve({status: res.statusCode ?? 0, headers: res.headers, text, body})
      })
    })
    req.on('timeout', () => req.destroy(new Error('client timeout')))
    req.on('error', reject)
    req.end()
  })
}

const pod = (namespace: string, name: string, labels: Record<string, string> = {}, nodeName = 'node-a'): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: {name, namespace, labels},
  spec: {nodeName, containers: [{name: 'c', image: 'nginx'}]},
  status: {phase: 'Running'},
})

const WIDGETS = {
  group: 'example.com',
  version: 'v1',
  kind: 'Widget',
  resource: 'widgets',
  namespaced: true,
  verbs: ['get', 'list', 'watch'],
  shortNames: ['wd'],
}

function objects(): KubeObject[] {
  return [
    // deliberately out of order: the server keeps etcd's key order (namespace/name)
    pod('web', 'web-b', {app: 'web', tier: 'front'}),
    pod('web', 'web-a', {app: 'web', tier: 'front'}, 'node-b'),
    pod('web', 'api-a', {app: 'api', tier: 'back'}),
    pod('db', 'pg-0', {app: 'pg'}, 'node-b'),
    pod('a-b', 'x', {}), // "a-b/x" sorts before "db/..." and "web/..." ('-' < '/' in bytes)
    {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: {name: 'web', namespace: 'web', uid: 'f0e1d2c3-0000-4000-8000-000000000001', resourceVersion: '5000'},
      spec: {replicas: 2},
    },
    {apiVersion: 'v1', kind: 'Node', metadata: {name: 'node-a'}, spec: {}},
    {apiVersion: 'v1', kind: 'Node', metadata: {name: 'node-b'}, spec: {unschedulable: true}},
    {apiVersion: 'example.com/v1', kind: 'Widget', metadata: {name: 'w', namespace: 'web'}, spec: {size: 9007199254740993n}},
  ]
}

let server: FakeApiServer
before(async () => {
  server = await FakeApiServer.start({objects: objects(), extraResources: [WIDGETS]})
})
after(async () => server.close())

const names = (list: {items: KubeObject[]}) => list.items.map((o) => `${o.metadata?.namespace ? `${o.metadata.namespace}/` : ''}${o.metadata?.name}`)

describe('authentication and verbs', () => {
  test('no token or a wrong one: 401 with the Status the authentication filter writes', async () => {
    // staging/src/k8s.io/apiserver/pkg/endpoints/handlers/responsewriters: Unauthorized -> errors.NewUnauthorized("Unauthorized")
    const expected = '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"Unauthorized","reason":"Unauthorized","code":401}\n'
    for (const token of [null, 'wrong']) {
      const r = await call(server, '/api/v1/pods', {token})
      assert.equal(r.status, 401)
      assert.equal(r.text, expected)
      assert.equal(r.headers['content-type'], 'application/json')
    }
  })

  test('any verb but GET: 405 MethodNotAllowed, and the request log shows it', async () => {
    server.clearRequests()
    // errors.NewMethodNotSupported(qualifiedResource, action)
    const cases: [string, string, string][] = [
      ['POST', '/api/v1/namespaces/web/pods', 'create is not supported on resources of kind "pods"'],
      ['PUT', '/apis/apps/v1/namespaces/web/deployments/web', 'update is not supported on resources of kind "deployments.apps"'],
      ['PATCH', '/api/v1/nodes/node-a', 'patch is not supported on resources of kind "nodes"'],
      ['DELETE', '/api/v1/namespaces/web/pods/web-a', 'delete is not supported on resources of kind "pods"'],
      ['DELETE', '/api/v1/namespaces/web/pods', 'deletecollection is not supported on resources of kind "pods"'],
    ]
    for (const [method, path, message] of cases) {
      const r = await call(server, path, {method})
      assert.equal(r.status, 405)
      const group = path.startsWith('/apis/apps') ? 'apps' : ''
      const kind = path.split('/').find((p) => ['pods', 'deployments', 'nodes'].includes(p))
      assert.deepEqual(r.body, {
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message,
        reason: 'MethodNotAllowed',
        details: group ? {group, kind} : {kind},
        code: 405,
      })
    }
    assert.deepEqual(
      server.requests.map((r) => r.method),
      ['POST', 'PUT', 'PATCH', 'DELETE', 'DELETE'],
    )
    // and nothing changed
    assert.equal((await call(server, '/api/v1/namespaces/web/pods/web-a')).status, 200)
  })

  test('the request log has method, path, query, accept and headers', async () => {
    server.clearRequests()
    await call(server, '/api/v1/pods?limit=2&labelSelector=app%3Dweb', {accept: 'application/json'})
    assert.equal(server.requests.length, 1)
    const r = server.requests[0]
    assert.equal(r.method, 'GET')
    assert.equal(r.path, '/api/v1/pods')
    assert.deepEqual(r.query, {limit: '2', labelSelector: 'app=web'})
    assert.equal(r.accept, 'application/json')
    assert.equal(r.headers.authorization, `Bearer ${server.token}`)
  })
})

describe('version and discovery', () => {
  test('/version is version.Info, indented (responsewriters.WriteRawJSON)', async () => {
    const r = await call(server, '/version')
    assert.equal(r.status, 200)
    assert.deepEqual(Object.keys(r.body), ['major', 'minor', 'gitVersion', 'gitCommit', 'gitTreeState', 'buildDate', 'goVersion', 'compiler', 'platform'])
    assert.equal(r.body.gitVersion, 'v1.32.4')
    assert.equal(r.body.minor, '32')
    assert.ok(r.text.startsWith('{\n  "major": "1",'))
  })

  test('/api is APIVersions without apiVersion; /apis is an APIGroupList with preferred versions', async () => {
    const api = await call(server, '/api')
    assert.deepEqual(api.body, {
      kind: 'APIVersions',
      versions: ['v1'],
      serverAddressByClientCIDRs: [{clientCIDR: '0.0.0.0/0', serverAddress: new URL(server.url).host}],
    })
    const apis = await call(server, '/apis')
    assert.equal(apis.body.kind, 'APIGroupList')
    assert.equal(apis.body.apiVersion, 'v1')
    const apps = apis.body.groups.find((g: {name: string}) => g.name === 'apps')
    assert.deepEqual(apps, {name: 'apps', versions: [{groupVersion: 'apps/v1', version: 'v1'}], preferredVersion: {groupVersion: 'apps/v1', version: 'v1'}})
    // kube-apiserver lists groups by priority: apiregistration.k8s.io, apps, events.k8s.io first (aggregator.go)
    assert.deepEqual(
      apis.body.groups.slice(0, 3).map((g: {name: string}) => g.name),
      ['apiregistration.k8s.io', 'apps', 'events.k8s.io'],
    )
    assert.ok(
      apis.body.groups.some((g: {name: string}) => g.name === 'example.com'),
      'extra resources are served',
    )
  })

  test('APIResourceList: /api/v1 without apiVersion, /apis/G/V with it, resources as metav1.APIResource', async () => {
    const core = await call(server, '/api/v1')
    assert.deepEqual(Object.keys(core.body), ['kind', 'groupVersion', 'resources'])
    assert.deepEqual(
      core.body.resources.find((r: {name: string}) => r.name === 'pods'),
      {
        name: 'pods',
        singularName: 'pod',
        namespaced: true,
        kind: 'Pod',
        verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
        shortNames: ['po'],
        categories: ['all'],
      },
    )
    assert.deepEqual(core.body.resources.find((r: {name: string}) => r.name === 'nodes').namespaced, false)
    const apps = await call(server, '/apis/apps/v1')
    assert.deepEqual(Object.keys(apps.body), ['kind', 'apiVersion', 'groupVersion', 'resources'])
    assert.equal(apps.body.groupVersion, 'apps/v1')
    const crd = await call(server, '/apis/example.com/v1')
    assert.deepEqual(crd.body.resources, [
      {name: 'widgets', singularName: 'widget', namespaced: true, kind: 'Widget', verbs: ['get', 'list', 'watch'], shortNames: ['wd']},
    ])
    assert.equal((await call(server, '/apis/example.com')).body.preferredVersion.version, 'v1')
  })

  test('aggregated discovery when asked, as kubectl 1.30+ asks, with the content type client-go checks', async () => {
    const accept =
      'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json'
    const r = await call(server, '/apis', {accept})
    assert.equal(r.headers['content-type'], 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList')
    assert.equal(r.body.kind, 'APIGroupDiscoveryList')
    assert.equal(r.body.apiVersion, 'apidiscovery.k8s.io/v2')
    const apps = r.body.items.find((i: {metadata: {name?: string}}) => i.metadata.name === 'apps')
    const deploy = apps.versions[0].resources.find((x: {resource: string}) => x.resource === 'deployments')
    // apidiscovery/v2 types.go: resource, responseKind, scope, singularResource, verbs, shortNames, categories
    assert.deepEqual(deploy, {
      resource: 'deployments',
      responseKind: {group: 'apps', version: 'v1', kind: 'Deployment'},
      scope: 'Namespaced',
      singularResource: 'deployment',
      verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
      shortNames: ['deploy'],
      categories: ['all'],
    })
    assert.equal(apps.versions[0].freshness, 'Current')
    const core = await call(server, '/api', {accept})
    assert.equal(core.body.items.length, 1)
    assert.equal(core.body.items[0].metadata.name, undefined, 'the core group has the empty name')
    // a plain Accept gets the legacy document
    assert.equal((await call(server, '/apis', {accept: 'application/json'})).body.kind, 'APIGroupList')
  })

  test('a path nothing serves: 404 with the NotFound Status of the not-found handler', async () => {
    for (const path of ['/apis/nope.io/v1/things', '/api/v1/namespaces/web/things', '/api/v1/namespaces/web/nodes', '/nothing']) {
      const r = await call(server, path)
      assert.equal(r.status, 404, path)
      assert.equal(
        r.text,
        '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"the server could not find the requested resource","reason":"NotFound","details":{},"code":404}\n',
      )
    }
  })
})

describe('GET', () => {
  test('one object: kind then apiVersion first (Go TypeMeta order), resourceVersion and uid filled in', async () => {
    const r = await call(server, '/api/v1/namespaces/web/pods/web-a')
    assert.equal(r.status, 200)
    assert.ok(r.text.startsWith('{"kind":"Pod","apiVersion":"v1","metadata":{"name":"web-a","namespace":"web","uid":"'))
    assert.ok(r.text.endsWith('}\n'))
    assert.match(r.body.metadata.uid, /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/)
    assert.match(r.body.metadata.resourceVersion, /^\d+$/)
    const again = await call(server, '/api/v1/namespaces/web/pods/web-a')
    assert.equal(again.body.metadata.uid, r.body.metadata.uid, 'deterministic')
  })

  test('stored(): what the server holds, as a GET would return it', async () => {
    const held = server.stored({apiVersion: 'v1', kind: 'Pod', namespace: 'web', name: 'web-a'})
    const r = await call(server, '/api/v1/namespaces/web/pods/web-a')
    assert.deepEqual(held, {...r.body, kind: 'Pod', apiVersion: 'v1'})
    assert.equal(server.stored({apiVersion: 'v1', kind: 'Pod', namespace: 'web', name: 'nope'}), undefined)
  })

  test('a given uid and resourceVersion are kept; the server revision starts above the highest', async () => {
    const r = await call(server, '/apis/apps/v1/namespaces/web/deployments/web')
    assert.equal(r.body.metadata.uid, 'f0e1d2c3-0000-4000-8000-000000000001')
    assert.equal(r.body.metadata.resourceVersion, '5000')
    assert.ok(Number(server.resourceVersion) > 5000)
  })

  test('not found: errors.NewNotFound, "pods \\"x\\" not found", qualified with the group for others', async () => {
    const r = await call(server, '/api/v1/namespaces/web/pods/x')
    assert.equal(r.status, 404)
    assert.equal(
      r.text,
      '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"pods \\"x\\" not found","reason":"NotFound","details":{"name":"x","kind":"pods"},"code":404}\n',
    )
    const d = await call(server, '/apis/apps/v1/namespaces/db/deployments/web')
    assert.deepEqual(d.body, {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'deployments.apps "web" not found',
      reason: 'NotFound',
      details: {name: 'web', group: 'apps', kind: 'deployments'},
      code: 404,
    })
  })

  test('namespaces exist for every namespace in use, plus the four every cluster has', async () => {
    const r = await call(server, '/api/v1/namespaces/web')
    assert.equal(r.status, 200)
    assert.deepEqual(r.body.metadata.labels, {'kubernetes.io/metadata.name': 'web'})
    assert.deepEqual(r.body.status, {phase: 'Active'})
    const list = await call(server, '/api/v1/namespaces')
    assert.deepEqual(names(list.body), ['a-b', 'db', 'default', 'kube-node-lease', 'kube-public', 'kube-system', 'web'])
  })

  test('int64 beyond 2^53 is written exactly', async () => {
    const r = await call(server, '/apis/example.com/v1/namespaces/web/widgets/w')
    assert.ok(r.text.includes('"size":9007199254740993'))
    assert.equal(r.body.spec.size, 9007199254740993n)
  })
})

describe('LIST', () => {
  test('items in etcd key order, a <Kind>List with the current resourceVersion; built-in items without kind/apiVersion', async () => {
    const r = await call(server, '/api/v1/pods')
    assert.equal(r.body.kind, 'PodList')
    assert.equal(r.body.apiVersion, 'v1')
    assert.deepEqual(r.body.metadata, {resourceVersion: server.resourceVersion})
    assert.deepEqual(names(r.body), ['a-b/x', 'db/pg-0', 'web/api-a', 'web/web-a', 'web/web-b'])
    // a typed list's items have an empty TypeMeta (real PodList bodies start items with "metadata")
    assert.ok(r.text.includes('"items":[{"metadata":{"name":"x"'))
    assert.equal(r.body.items[0].kind, undefined)
    const ns = await call(server, '/api/v1/namespaces/web/pods')
    assert.deepEqual(names(ns.body), ['web/api-a', 'web/web-a', 'web/web-b'])
  })

  test('custom resource lists keep apiVersion and kind on items (unstructured)', async () => {
    const r = await call(server, '/apis/example.com/v1/widgets')
    assert.equal(r.body.kind, 'WidgetList')
    assert.equal(r.body.items[0].apiVersion, 'example.com/v1')
    assert.equal(r.body.items[0].kind, 'Widget')
  })

  test('an empty list has "items":[]', async () => {
    const r = await call(server, '/api/v1/namespaces/empty/pods')
    assert.equal(r.text, `{"kind":"PodList","apiVersion":"v1","metadata":{"resourceVersion":"${server.resourceVersion}"},"items":[]}\n`)
  })
})

describe('pagination', () => {
  const decode = (t: string) => JSON.parse(Buffer.from(t, 'base64url').toString('utf8'))

  test('limit/continue across pages: upstream token format, remainingItemCount, every item once', async () => {
    const rv = server.resourceVersion
    const p1 = await call(server, '/api/v1/pods?limit=2')
    assert.deepEqual(names(p1.body), ['a-b/x', 'db/pg-0'])
    assert.equal(p1.body.metadata.resourceVersion, rv)
    assert.equal(p1.body.metadata.remainingItemCount, 3)
    // storage.EncodeContinue: {"v":"meta.k8s.io/v1","rv":<rev>,"start":<last key>"\x00"}, base64url without padding
    assert.deepEqual(decode(p1.body.metadata.continue), {v: 'meta.k8s.io/v1', rv: Number(rv), start: 'db/pg-0\u0000'})
    assert.doesNotMatch(p1.body.metadata.continue, /[=+/]/)
    const p2 = await call(server, `/api/v1/pods?limit=2&continue=${p1.body.metadata.continue}`)
    assert.deepEqual(names(p2.body), ['web/api-a', 'web/web-a'])
    assert.equal(p2.body.metadata.remainingItemCount, 1)
    const p3 = await call(server, `/api/v1/pods?limit=2&continue=${p2.body.metadata.continue}`)
    assert.deepEqual(names(p3.body), ['web/web-b'])
    assert.deepEqual(p3.body.metadata, {resourceVersion: rv}, 'no continue on the last page')
  })

  test('a page that ends exactly at the end has no continue (etcd reports no more keys)', async () => {
    const r = await call(server, '/api/v1/namespaces/web/pods?limit=3')
    assert.equal(r.body.items.length, 3)
    assert.equal(r.body.metadata.continue, undefined)
  })

  test('namespaced pages: the token key is relative to the namespace prefix', async () => {
    const r = await call(server, '/api/v1/namespaces/web/pods?limit=1')
    assert.equal(decode(r.body.metadata.continue).start, 'api-a\u0000')
    const r2 = await call(server, `/api/v1/namespaces/web/pods?limit=1&continue=${r.body.metadata.continue}`)
    assert.deepEqual(names(r2.body), ['web/web-a'])
  })

  test("every page is read at the first page's revision: writes in between do not show", async () => {
    const p1 = await call(server, '/api/v1/namespaces/web/pods?limit=1')
    server.put(pod('web', 'web-c', {app: 'web'}))
    server.remove({apiVersion: 'v1', kind: 'Pod', namespace: 'web', name: 'web-b'})
    const p2 = await call(server, `/api/v1/namespaces/web/pods?limit=10&continue=${p1.body.metadata.continue}`)
    assert.deepEqual(names(p2.body), ['web/web-a', 'web/web-b'])
    assert.equal(p2.body.metadata.resourceVersion, p1.body.metadata.resourceVersion)
    const fresh = await call(server, '/api/v1/namespaces/web/pods')
    assert.deepEqual(names(fresh.body), ['web/api-a', 'web/web-a', 'web/web-c'])
    server.remove({apiVersion: 'v1', kind: 'Pod', namespace: 'web', name: 'web-c'})
    server.put(pod('web', 'web-b', {app: 'web', tier: 'front'}))
  })

  test("an expired token: 410 Expired with upstream's message and a token to go on inconsistently", async () => {
    const p1 = await call(server, '/api/v1/pods?limit=2')
    server.expireContinueTokens()
    const r = await call(server, `/api/v1/pods?limit=2&continue=${p1.body.metadata.continue}`)
    assert.equal(r.status, 410)
    // storage/etcd3/errors.go handleCompactedErrorForPaging: inconsistentContinue, ListMeta.Continue at rv -1
    assert.equal(
      r.body.message,
      'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, ' +
        'or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - ' +
        'objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.',
    )
    assert.equal(r.body.reason, 'Expired')
    assert.equal(r.body.code, 410)
    assert.equal(r.body.details, undefined)
    assert.deepEqual(decode(r.body.metadata.continue), {v: 'meta.k8s.io/v1', rv: -1, start: 'db/pg-0\u0000'})
    const rest = await call(server, `/api/v1/pods?limit=10&continue=${r.body.metadata.continue}`)
    assert.equal(rest.status, 200)
    assert.deepEqual(names(rest.body), ['web/api-a', 'web/web-a', 'web/web-b'])
    assert.equal(rest.body.metadata.resourceVersion, server.resourceVersion, 'read at the latest revision')
    // a new list after expiry works
    assert.equal((await call(server, '/api/v1/pods?limit=2')).status, 200)
  })

  test('a malformed token, or a resourceVersion with one: 400 as ValidateListOptions says', async () => {
    const bad = await call(server, '/api/v1/pods?limit=2&continue=not*base64')
    assert.equal(bad.status, 400)
    assert.match(bad.body.message, /^invalid continue token: continue key is not valid: /)
    const p1 = await call(server, '/api/v1/pods?limit=2')
    const rv = await call(server, `/api/v1/pods?limit=2&resourceVersion=5&continue=${p1.body.metadata.continue}`)
    assert.equal(rv.status, 400)
    assert.equal(rv.body.message, 'specifying resource version is not allowed when using continue')
  })

  test('resourceVersion=0 is served by the watch cache, which ignores limit', async () => {
    const r = await call(server, '/api/v1/pods?limit=2&resourceVersion=0')
    assert.equal(r.body.items.length, 5)
    assert.equal(r.body.metadata.continue, undefined)
  })
})

describe('selectors', () => {
  const list = async (q: string) => {
    const r = await call(server, `/api/v1/pods?${q}`)
    assert.equal(r.status, 200, r.text)
    return names(r.body)
  }
  const sel = (s: string) => `labelSelector=${encodeURIComponent(s)}`

  test('label selectors: =, ==, !=, in, notin, exists, !exists (labels.Parse semantics)', async () => {
    assert.deepEqual(await list(sel('app=web')), ['web/web-a', 'web/web-b'])
    assert.deepEqual(await list(sel('app==api')), ['web/api-a'])
    // != and notin also match objects without the key
    assert.deepEqual(await list(sel('app!=web')), ['a-b/x', 'db/pg-0', 'web/api-a'])
    assert.deepEqual(await list(sel('app in (api, pg)')), ['db/pg-0', 'web/api-a'])
    assert.deepEqual(await list(sel('app notin (web,pg)')), ['a-b/x', 'web/api-a'])
    assert.deepEqual(await list(sel('tier')), ['web/api-a', 'web/web-a', 'web/web-b'])
    assert.deepEqual(await list(sel('!tier')), ['a-b/x', 'db/pg-0'])
    assert.deepEqual(await list(sel('app=web,tier=front')), ['web/web-a', 'web/web-b'])
    assert.deepEqual(await list(sel('')), ['a-b/x', 'db/pg-0', 'web/api-a', 'web/web-a', 'web/web-b'])
  })

  test('a label selector that does not parse: 400 BadRequest', async () => {
    for (const s of ['app in web', 'app=(x', '=x', 'a,']) {
      const r = await call(server, `/api/v1/pods?${sel(s)}`)
      assert.equal(r.status, 400, s)
      assert.equal(r.body.reason, 'BadRequest')
      assert.match(r.body.message, /^unable to parse requirement: /)
    }
  })

  test('field selectors: metadata.name, metadata.namespace, spec.nodeName with =, ==, !=', async () => {
    const f = (s: string) => `fieldSelector=${encodeURIComponent(s)}`
    assert.deepEqual(await list(f('metadata.name=web-a')), ['web/web-a'])
    assert.deepEqual(await list(f('metadata.namespace==db')), ['db/pg-0'])
    assert.deepEqual(await list(f('spec.nodeName=node-b')), ['db/pg-0', 'web/web-a'])
    assert.deepEqual(await list(f('spec.nodeName!=node-b')), ['a-b/x', 'web/api-a', 'web/web-b'])
    assert.deepEqual(await list(f('spec.nodeName=node-b,metadata.namespace=web')), ['web/web-a'])
    assert.deepEqual(await list(`${f('spec.nodeName=node-a')}&${sel('app=web')}`), ['web/web-b'])
    const nodes = await call(server, `/api/v1/nodes?${f('spec.unschedulable=true')}`)
    assert.deepEqual(names(nodes.body), ['node-b'])
  })

  test("an unsupported field: 400, in the words of the kind's conversion func", async () => {
    // pkg/apis/core/v1/conversion.go (pods) and runtime.DefaultMetaV1FieldSelectorConversion (the rest)
    const p = await call(server, '/api/v1/pods?fieldSelector=spec.foo%3Dbar')
    assert.equal(p.status, 400)
    assert.deepEqual(p.body, {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'field label not supported: spec.foo',
      reason: 'BadRequest',
      code: 400,
    })
    const d = await call(server, '/apis/apps/v1/deployments?fieldSelector=spec.replicas%3D2')
    assert.equal(d.status, 400)
    assert.equal(d.body.message, '"spec.replicas" is not a known field selector: only "metadata.name", "metadata.namespace"')
    const op = await call(server, '/api/v1/pods?fieldSelector=spec.nodeName')
    assert.equal(op.status, 400)
    assert.equal(op.body.message, "invalid selector: 'spec.nodeName'; can't understand 'spec.nodeName'")
  })

  test('with a selector, pages are filled and remainingItemCount is left out (etcd3 GetList)', async () => {
    const p1 = await call(server, `/api/v1/pods?limit=1&${sel('app=web')}`)
    assert.deepEqual(names(p1.body), ['web/web-a'])
    assert.equal(p1.body.metadata.remainingItemCount, undefined)
    const p2 = await call(server, `/api/v1/pods?limit=1&${sel('app=web')}&continue=${p1.body.metadata.continue}`)
    assert.deepEqual(names(p2.body), ['web/web-b'])
    // the last key of the key space was returned: no continue
    assert.equal(p2.body.metadata.continue, undefined)
    // a non-matching tail: the page stops where the keys run out, so the last page can be short or empty
    const q1 = await call(server, `/api/v1/pods?limit=1&${sel('app=pg')}`)
    assert.deepEqual(names(q1.body), ['db/pg-0'])
    const q2 = await call(server, `/api/v1/pods?limit=1&${sel('app=pg')}&continue=${q1.body.metadata.continue}`)
    assert.deepEqual(q2.body.items, [])
    assert.equal(q2.body.metadata.continue, undefined)
  })
})

describe('metadata-only', () => {
  const LIST = 'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1'
  const ONE = 'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1'

  test('a list: PartialObjectMetadataList whose items are kind PartialObjectMetadata (handlers/response.go)', async () => {
    const r = await call(server, '/api/v1/namespaces/db/pods', {accept: LIST})
    const full = await call(server, '/api/v1/namespaces/db/pods/pg-0')
    assert.deepEqual(r.body, {
      kind: 'PartialObjectMetadataList',
      apiVersion: 'meta.k8s.io/v1',
      metadata: {resourceVersion: server.resourceVersion},
      items: [{kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: full.body.metadata}],
    })
  })

  test('one object: PartialObjectMetadata', async () => {
    const r = await call(server, '/apis/apps/v1/namespaces/web/deployments/web', {accept: ONE})
    assert.deepEqual(Object.keys(r.body), ['kind', 'apiVersion', 'metadata'])
    assert.equal(r.body.kind, 'PartialObjectMetadata')
    assert.equal(r.body.metadata.uid, 'f0e1d2c3-0000-4000-8000-000000000001')
  })

  test('pages and continue work the same in metadata form', async () => {
    const p1 = await call(server, '/api/v1/pods?limit=3', {accept: LIST})
    assert.equal(p1.body.items.length, 3)
    assert.equal(p1.body.metadata.remainingItemCount, 2)
    const p2 = await call(server, `/api/v1/pods?limit=3&continue=${p1.body.metadata.continue}`, {accept: LIST})
    assert.equal(p2.body.items.length, 2)
  })

  test('the first acceptable type of the header wins; fallbacks after it are used when it is not', async () => {
    const withFallback = await call(server, '/api/v1/pods', {
      accept: `application/vnd.kubernetes.protobuf;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,${LIST},application/json`,
    })
    assert.equal(withFallback.body.kind, 'PartialObjectMetadataList')
    const unknownAs = await call(server, '/api/v1/pods', {accept: 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json'})
    assert.equal(unknownAs.body.kind, 'PodList', 'no Table here: the JSON fallback')
    const none = await call(server, '/api/v1/pods', {accept: 'application/vnd.kubernetes.protobuf'})
    assert.equal(none.status, 406)
    assert.equal(none.body.reason, 'NotAcceptable')
  })

  test('asking a GET for a list form (or a LIST for an object form): 406 NotAcceptable', async () => {
    const r = await call(server, '/api/v1/namespaces/db/pods/pg-0', {accept: LIST})
    assert.equal(r.status, 406)
    assert.equal(r.body.message, 'you requested PartialObjectMetadataList, but the requested object is not a list (*core.Pod)')
    const l = await call(server, '/api/v1/pods', {accept: ONE})
    assert.equal(l.status, 406)
    assert.equal(l.body.message, 'you requested PartialObjectMetadata, but the requested object is a list (*core.PodList)')
  })
})

describe('server-side Table (nodes)', () => {
  const TABLE = 'application/json;as=Table;v=v1;g=meta.k8s.io'
  test('printNode columns, a row per node with its metadata (includeObject unset = Metadata)', async () => {
    const r = await call(server, '/api/v1/nodes', {accept: TABLE})
    assert.equal(r.status, 200)
    assert.deepEqual([r.body.kind, r.body.apiVersion], ['Table', 'meta.k8s.io/v1'])
    assert.deepEqual(
      r.body.columnDefinitions.map((c: Reply['body']) => [c.name, c.priority]),
      [
        ['Name', 0],
        ['Status', 0],
        ['Roles', 0],
        ['Age', 0],
        ['Version', 0],
        ['Internal-IP', 1],
        ['External-IP', 1],
        ['OS-Image', 1],
        ['Kernel-Version', 1],
        ['Container-Runtime', 1],
      ],
    )
    // node-a: no Ready condition -> "Unknown"; node-b: also cordoned -> "Unknown,SchedulingDisabled"; neither has a
    // creationTimestamp -> "<unknown>" age; no nodeInfo or addresses: "" version, <none> IPs, <unknown> the rest.
    assert.deepEqual(
      r.body.rows.map((row: Reply['body']) => row.cells),
      [
        ['node-a', 'Unknown', '<none>', '<unknown>', '', '<none>', '<none>', '<unknown>', '<unknown>', '<unknown>'],
        ['node-b', 'Unknown,SchedulingDisabled', '<none>', '<unknown>', '', '<none>', '<none>', '<unknown>', '<unknown>', '<unknown>'],
      ],
    )
    assert.deepEqual(
      r.body.rows.map((row: Reply['body']) => [row.object.kind, row.object.metadata.name, row.object.spec]),
      [
        ['PartialObjectMetadata', 'node-a', undefined],
        ['PartialObjectMetadata', 'node-b', undefined],
      ],
    )
  })

  test('includeObject None drops the object, Object keeps it whole, anything else is a 400; limit pages it', async () => {
    const none = await call(server, '/api/v1/nodes?includeObject=None', {accept: TABLE})
    assert.deepEqual(
      none.body.rows.map((row: Reply['body']) => row.object),
      [null, null],
    )
    const whole = await call(server, '/api/v1/nodes?includeObject=Object', {accept: TABLE})
    assert.deepEqual([whole.body.rows[1].object.kind, whole.body.rows[1].object.spec], ['Node', {unschedulable: true}])
    const bad = await call(server, '/api/v1/nodes?includeObject=Some', {accept: TABLE})
    assert.deepEqual([bad.status, bad.body.message], [400, 'unrecognized includeObject value: "Some"'])
    const p1 = await call(server, '/api/v1/nodes?limit=1', {accept: TABLE})
    assert.equal(p1.body.rows.length, 1)
    const p2 = await call(server, `/api/v1/nodes?limit=1&continue=${p1.body.metadata.continue}`, {accept: TABLE})
    assert.deepEqual([p2.body.rows[0].cells[0], p2.body.metadata.continue], ['node-b', undefined])
  })

  test('a Table the server does not offer: 406 when it is the only type accepted (pods here; nodes with tables: false)', async () => {
    const pods = await call(server, '/api/v1/pods', {accept: TABLE})
    assert.deepEqual([pods.status, pods.body.reason], [406, 'NotAcceptable'])
    const plain = await FakeApiServer.start({objects: [{apiVersion: 'v1', kind: 'Node', metadata: {name: 'n'}}], tables: false})
    try {
      const r = await call(plain, '/api/v1/nodes', {accept: TABLE})
      assert.deepEqual([r.status, r.body.reason], [406, 'NotAcceptable'])
      const v2 = await call(server, '/api/v1/nodes', {accept: 'application/json;as=Table;v=v2;g=meta.k8s.io'})
      assert.equal(v2.status, 406)
    } finally {
      await plain.close()
    }
  })
})

describe('the watch cache', () => {
  test('lagCache: resourceVersion=0 reads keep the old state while fresh reads see writes; syncCache catches up', async () => {
    const before = await call(server, '/api/v1/namespaces/db/pods/pg-0')
    const rvAtLag = server.resourceVersion
    server.lagCache()
    const changed = pod('db', 'pg-0', {app: 'pg', changed: 'yes'}, 'node-b')
    server.put(changed)
    server.put(pod('db', 'pg-1', {app: 'pg'}))
    const cachedGet = await call(server, '/api/v1/namespaces/db/pods/pg-0?resourceVersion=0')
    assert.deepEqual(cachedGet.body, before.body)
    const freshGet = await call(server, '/api/v1/namespaces/db/pods/pg-0')
    assert.equal(freshGet.body.metadata.labels.changed, 'yes')
    assert.ok(Number(freshGet.body.metadata.resourceVersion) > Number(before.body.metadata.resourceVersion))
    const cachedList = await call(server, '/api/v1/namespaces/db/pods?resourceVersion=0')
    assert.deepEqual(names(cachedList.body), ['db/pg-0'])
    assert.equal(cachedList.body.metadata.resourceVersion, rvAtLag, 'the cache reports the revision it is at')
    assert.deepEqual(names((await call(server, '/api/v1/namespaces/db/pods')).body), ['db/pg-0', 'db/pg-1'])
    // a resourceVersion the cache has not reached: 504 Timeout "Too large resource version"
    const ahead = await call(server, `/api/v1/namespaces/db/pods/pg-0?resourceVersion=${server.resourceVersion}`)
    assert.equal(ahead.status, 504)
    assert.match(ahead.body.message, /^Timeout: Too large resource version: \d+, current: \d+$/)
    assert.equal(ahead.headers['retry-after'], '1')
    server.syncCache()
    const synced = await call(server, '/api/v1/namespaces/db/pods/pg-0?resourceVersion=0')
    assert.equal(synced.body.metadata.labels.changed, 'yes')
    assert.deepEqual(names((await call(server, '/api/v1/namespaces/db/pods?resourceVersion=0')).body), ['db/pg-0', 'db/pg-1'])
    server.remove({apiVersion: 'v1', kind: 'Pod', namespace: 'db', name: 'pg-1'})
  })
})

describe('faults', () => {
  test("forbid: 403 on GET and LIST with RBAC's wording, per namespace or cluster scope, until lifted", async () => {
    const f = server.forbid({resource: 'pods'})
    // responsewriters.forbiddenMessage + errors.NewForbidden
    const list = await call(server, '/api/v1/namespaces/web/pods')
    assert.equal(list.status, 403)
    assert.deepEqual(list.body, {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: `pods is forbidden: User "${server.user}" cannot list resource "pods" in API group "" in the namespace "web"`,
      reason: 'Forbidden',
      details: {kind: 'pods'},
      code: 403,
    })
    const all = await call(server, '/api/v1/pods')
    assert.equal(all.body.message, `pods is forbidden: User "${server.user}" cannot list resource "pods" in API group "" at the cluster scope`)
    const one = await call(server, '/api/v1/namespaces/web/pods/web-a')
    assert.equal(one.body.message, `pods "web-a" is forbidden: User "${server.user}" cannot get resource "pods" in API group "" in the namespace "web"`)
    assert.deepEqual(one.body.details, {name: 'web-a', kind: 'pods'})
    assert.equal(f.hits, 3)
    f.lift()
    assert.equal((await call(server, '/api/v1/pods')).status, 200)
    const g = server.forbid({resource: 'deployments', group: 'apps', namespace: 'web'})
    const d = await call(server, '/apis/apps/v1/namespaces/web/deployments')
    assert.equal(
      d.body.message,
      `deployments.apps is forbidden: User "${server.user}" cannot list resource "deployments" in API group "apps" in the namespace "web"`,
    )
    assert.deepEqual(d.body.details, {group: 'apps', kind: 'deployments'})
    assert.equal((await call(server, '/apis/apps/v1/namespaces/db/deployments')).status, 200)
    g.lift()
  })

  test('inject 429: plain text as priority-and-fairness writes it, with Retry-After; then normal again', async () => {
    server.inject({path: '/api/v1/nodes', status: 429, retryAfterSeconds: 3})
    const r = await call(server, '/api/v1/nodes')
    assert.equal(r.status, 429)
    // server/filters/maxinflight.go tooManyRequests: http.Error(w, "Too many requests, please try again later.", 429)
    assert.equal(r.text, 'Too many requests, please try again later.\n')
    assert.equal(r.headers['retry-after'], '3')
    assert.equal(r.headers['content-type'], 'text/plain; charset=utf-8')
    assert.equal((await call(server, '/api/v1/nodes')).status, 200)
  })

  test('inject 429 in the Status form (errors.NewTooManyRequests), Retry-After from details', async () => {
    server.inject({path: /\/nodes$/, status: 429, body: 'status', retryAfterSeconds: 2, times: 2})
    for (let i = 0; i < 2; i++) {
      const r = await call(server, '/api/v1/nodes?limit=5')
      assert.equal(r.status, 429)
      assert.equal(r.headers['retry-after'], '2')
      assert.deepEqual(r.body, {
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message: 'Too many requests, please try again later.',
        reason: 'TooManyRequests',
        details: {retryAfterSeconds: 2},
        code: 429,
      })
    }
    assert.equal((await call(server, '/api/v1/nodes')).status, 200)
  })

  test('inject 500, 409, 410: their Status bodies', async () => {
    server.inject({path: '/api/v1/nodes', status: 500, message: 'etcdserver: request timed out'})
    const e = await call(server, '/api/v1/nodes')
    assert.deepEqual(e.body, {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'Internal error occurred: etcdserver: request timed out',
      reason: 'InternalError',
      details: {causes: [{message: 'etcdserver: request timed out'}]},
      code: 500,
    })
    server.inject({path: '/api/v1/nodes/node-a', status: 409})
    const c = await call(server, '/api/v1/nodes/node-a')
    assert.deepEqual(c.body, {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'Operation cannot be fulfilled on nodes "node-a": the object has been modified; please apply your changes to the latest version and try again',
      reason: 'Conflict',
      details: {name: 'node-a', kind: 'nodes'},
      code: 409,
    })
    server.inject({path: '/api/v1/nodes', status: 410})
    const g = await call(server, '/api/v1/nodes')
    assert.deepEqual(g.body, {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'The resourceVersion for the provided list is too old.',
      reason: 'Expired',
      code: 410,
    })
  })

  test('inject with method and a query condition; times counts only matching requests', async () => {
    const f = server.inject({method: 'GET', path: /^\/api\/v1\/pods$/, status: 500, when: (q) => q.continue !== undefined, times: 1})
    const p1 = await call(server, '/api/v1/pods?limit=2')
    assert.equal(p1.status, 200)
    assert.equal((await call(server, `/api/v1/pods?limit=2&continue=${p1.body.metadata.continue}`)).status, 500)
    assert.equal((await call(server, `/api/v1/pods?limit=2&continue=${p1.body.metadata.continue}`)).status, 200)
    assert.equal(f.hits, 1)
  })

  test('delayMs: a slow answer trips a client timeout, and the server carries on', async () => {
    server.inject({path: '/api/v1/nodes', delayMs: 500})
    await assert.rejects(call(server, '/api/v1/nodes', {timeoutMs: 100}), /client timeout/)
    assert.equal((await call(server, '/api/v1/nodes')).status, 200)
    server.delayMs = 150
    const t = Date.now()
    await call(server, '/version')
    assert.ok(Date.now() - t >= 140)
    server.delayMs = 0
  })
})

describe('kubeconfig', () => {
  test('a normal kubeconfig: server URL, certificate-authority file, bearer token, context namespace', () => {
    const dir = mkdtempSync(join(tmpdir(), 'fake-kc-'))
    const file = server.writeKubeconfig(dir, {context: 'ctx', namespace: 'web', user: 'me'})
    const text = readFileSync(file, 'utf8')
    assert.match(text, new RegExp(`server: "${server.url}"`))
    assert.match(text, /certificate-authority: ".*\/certs\/ca\.crt"/)
    assert.match(text, new RegExp(`token: "${server.token}"`))
    assert.match(text, /namespace: "web"/)
    assert.match(text, /current-context: "ctx"/)
    assert.equal(server.caPem, readFileSync(server.caFile, 'utf8'))
  })
})

describe('scale', () => {
  test('30,000 pods: start, a full list streamed, and pages of 500, quickly', async () => {
    const many: KubeObject[] = []
    for (let i = 0; i < 30_000; i++) many.push(pod(`ns-${i % 50}`, `p-${i}`, {i: String(i % 7)}, `node-${i % 300}`))
    let t = Date.now()
    const big = await FakeApiServer.start({objects: many})
    const startMs = Date.now() - t
    try {
      t = Date.now()
      const all = await call(big, '/api/v1/pods')
      assert.equal(all.body.items.length, 30_000)
      const listMs = Date.now() - t
      let pages = 0
      let token = ''
      let count = 0
      do {
        const r = await call(big, `/api/v1/pods?limit=500${token ? `&continue=${token}` : ''}`)
        count += r.body.items.length
        token = r.body.metadata.continue ?? ''
        pages++
      } while (token)
      assert.equal(count, 30_000)
      assert.equal(pages, 60)
      const node = await call(big, '/api/v1/pods?fieldSelector=spec.nodeName%3Dnode-7')
      assert.equal(node.body.items.length, 100)
      // generous bounds (CI machines are shared): they catch a quadratic slip, not a few percent
      assert.ok(startMs < 20_000 && listMs < 20_000, `start ${startMs} ms, list ${listMs} ms`)
    } finally {
      await big.close()
    }
  })
})
