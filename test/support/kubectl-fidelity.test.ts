// The fake API server checked by the real kubectl: whatever kubectl makes of it (discovery,
// pagination, selectors, Status errors, throttling) must be what it makes of a real cluster.
// Uses the kubectl on PATH; skipped, saying so, when there is none.
import assert from 'node:assert/strict'
import {spawn, spawnSync} from 'node:child_process'
import {mkdtempSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {after, before, describe, test} from 'node:test'
import type {KubeObject} from '../../src/cluster/source.js'
import {parseJson} from '../../src/util/json.js'
import {FakeApiServer} from './fake-apiserver/index.js'

const probe = spawnSync('kubectl', ['version', '--client'], {encoding: 'utf8'})
const KUBECTL = probe.status === 0 ? probe.stdout.split('\n')[0] : undefined
const SKIP = KUBECTL ? false : 'no kubectl on PATH (`kubectl version --client` failed): the fidelity check needs the real client'

interface Run {
  code: number
  stdout: string
  stderr: string
}

let server: FakeApiServer
let home: string
let kubeconfig: string

/** kubectl with a private HOME and discovery cache, so nothing leaks between runs or from the machine. */
function kubectl(args: string[], o: {kubeconfigFile?: string} = {}): Promise<Run> {
  return new Promise((resolve, reject) => {
    const env = {PATH: process.env.PATH ?? '', HOME: home}
    const child = spawn('kubectl', ['--kubeconfig', o.kubeconfigFile ?? kubeconfig, '--cache-dir', join(home, 'cache'), ...args], {env})
    const out: Buffer[] = []
    const err: Buffer[] = []
    child.stdout.on('data', (d: Buffer) => out.push(d))
    child.stderr.on('data', (d: Buffer) => err.push(d))
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000)
    child.on('error', reject)
    child.on('close', (code) => {
      clearTimeout(timer)
      resolve({code: code ?? -1, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8')})
    })
  })
}

const pod = (namespace: string, name: string, labels: Record<string, string>, nodeName: string): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: {name, namespace, labels, creationTimestamp: '2026-11-29T09:00:00Z'},
  spec: {nodeName, containers: [{name: 'app', image: 'registry.example/app:1.2.3', resources: {requests: {cpu: '100m'}}}]},
  status: {phase: 'Running', startTime: '2026-11-29T09:00:05Z'},
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
    pod('shop', 'web-7d9f4b6c8-abcde', {app: 'web', 'pod-template-hash': '7d9f4b6c8'}, 'node-a'),
    pod('shop', 'web-7d9f4b6c8-fghij', {app: 'web', 'pod-template-hash': '7d9f4b6c8'}, 'node-b'),
    pod('shop', 'api-5c6b7d8e9-klmno', {app: 'api'}, 'node-a'),
    pod('default', 'web-standalone', {app: 'web'}, 'node-b'),
    pod('kube-system', 'kube-controller-manager-node-a', {component: 'kube-controller-manager', tier: 'control-plane'}, 'node-a'),
    {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: {name: 'web', namespace: 'shop', generation: 3, creationTimestamp: '2026-11-28T09:00:00Z', labels: {app: 'web'}},
      spec: {
        replicas: 2,
        selector: {matchLabels: {app: 'web'}},
        template: {metadata: {labels: {app: 'web'}}, spec: {containers: [{name: 'app', image: 'registry.example/app:1.2.3'}]}},
      },
      status: {observedGeneration: 3, replicas: 2, readyReplicas: 2, availableReplicas: 2, updatedReplicas: 2, collisionCount: 1},
    },
    {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: {name: 'api', namespace: 'shop', creationTimestamp: '2026-11-28T09:00:00Z'},
      spec: {
        replicas: 1,
        selector: {matchLabels: {app: 'api'}},
        template: {metadata: {labels: {app: 'api'}}, spec: {containers: [{name: 'app', image: 'registry.example/api:2'}]}},
      },
    },
    {
      apiVersion: 'v1',
      kind: 'Node',
      metadata: {name: 'node-a', creationTimestamp: '2026-11-01T00:00:00Z', labels: {'topology.kubernetes.io/zone': 'z1'}},
      status: {conditions: [{type: 'Ready', status: 'True', lastHeartbeatTime: '2026-11-29T09:59:50Z'}], nodeInfo: {kubeletVersion: 'v1.32.4'}},
    },
    {
      apiVersion: 'v1',
      kind: 'Node',
      metadata: {name: 'node-b', creationTimestamp: '2026-11-01T00:00:00Z', labels: {'topology.kubernetes.io/zone': 'z2'}},
      spec: {taints: [{key: 'node.kubernetes.io/unreachable', effect: 'NoExecute', timeAdded: '2026-11-29T09:58:00Z'}]},
      status: {conditions: [{type: 'Ready', status: 'Unknown', lastHeartbeatTime: '2026-11-29T09:50:00Z'}]},
    },
    {
      apiVersion: 'example.com/v1',
      kind: 'Widget',
      metadata: {name: 'big', namespace: 'shop', creationTimestamp: '2026-11-29T09:00:00Z'},
      spec: {serial: 9007199254740993n},
    },
  ]
}

/** What the server serves for one object: its own GET, with kind and apiVersion as kubectl shows them. */
async function served(o: KubeObject): Promise<KubeObject> {
  const {group, version} = o.apiVersion!.includes('/')
    ? {group: o.apiVersion!.split('/')[0], version: o.apiVersion!.split('/')[1]}
    : {group: '', version: o.apiVersion!}
  const resource = o.kind === 'Widget' ? 'widgets' : `${o.kind!.toLowerCase()}s`
  const base = group === '' ? `/api/${version}` : `/apis/${group}/${version}`
  const ns = o.metadata?.namespace ? `/namespaces/${o.metadata.namespace}` : ''
  const res = await fetchJson(`${base}${ns}/${resource}/${o.metadata!.name}`)
  return res as KubeObject
}

async function fetchJson(path: string): Promise<unknown> {
  // node's fetch cannot take a CA; the https module can
  const {request} = await import('node:https')
  return new Promise((resolve, reject) => {
    request(`${server.url}${path}`, {ca: server.caPem, headers: {authorization: `Bearer ${server.token}`}}, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.on('end', () => resolve(parseJson(Buffer.concat(chunks).toString('utf8'))))
    })
      .on('error', reject)
      .end()
  })
}

const OBJECTS = objects()
const key = (o: KubeObject) => `${o.metadata?.namespace ?? ''}/${o.metadata?.name}`

// so the summary counts it as skipped, with the reason
if (SKIP) test('kubectl fidelity check', (t) => t.skip(SKIP))

describe(`kubectl against the fake API server (${KUBECTL ?? 'kubectl missing'})`, {skip: SKIP}, () => {
  before(async () => {
    server = await FakeApiServer.start({objects: OBJECTS, extraResources: [WIDGETS]})
    home = mkdtempSync(join(tmpdir(), 'kubectl-fidelity-'))
    kubeconfig = server.writeKubeconfig(home, {namespace: 'shop'})
  })
  after(async () => server?.close())

  test('get pods -A -o json --chunk-size=2: every pod, as served, in etcd order, read in pages of 2', async () => {
    server.clearRequests()
    const r = await kubectl(['get', 'pods', '-A', '-o', 'json', '--chunk-size=2'])
    assert.equal(r.code, 0, r.stderr)
    const list = parseJson(r.stdout) as {apiVersion: string; kind: string; metadata: unknown; items: KubeObject[]}
    assert.equal(list.kind, 'List')
    assert.equal(list.apiVersion, 'v1')
    const pods = OBJECTS.filter((o) => o.kind === 'Pod')
    const expected = await Promise.all([...pods].sort((a, b) => (key(a) < key(b) ? -1 : 1)).map(served))
    // kubectl puts apiVersion and kind back on each item (the server's PodList items have none)
    assert.deepEqual(list.items, expected)
    const pages = server.requests.filter((q) => q.path === '/api/v1/pods')
    assert.equal(pages.length, 3, 'ceil(5 / 2) pages')
    assert.deepEqual(
      pages.map((q) => q.query.limit),
      ['2', '2', '2'],
    )
    assert.equal(pages[0].query.continue, undefined)
    assert.ok(pages[1].query.continue && pages[2].query.continue)
  })

  test('get deployments -n shop -o json: the deployments as served', async () => {
    const r = await kubectl(['get', 'deployments', '-n', 'shop', '-o', 'json'])
    assert.equal(r.code, 0, r.stderr)
    const list = parseJson(r.stdout) as {items: KubeObject[]}
    const deployments = OBJECTS.filter((o) => o.kind === 'Deployment').sort((a, b) => (key(a) < key(b) ? -1 : 1))
    assert.deepEqual(list.items, await Promise.all(deployments.map(served)))
    assert.deepEqual(
      list.items.map((d) => d.metadata?.name),
      ['api', 'web'],
    )
  })

  test('get nodes: kubectl prints the server-side Table (printNode: NAME, STATUS, ROLES, AGE, VERSION; -o wide adds five)', async () => {
    server.clearRequests()
    const r = await kubectl(['get', 'nodes'])
    assert.equal(r.code, 0, r.stderr)
    assert.match(server.requests.find((q) => q.path === '/api/v1/nodes')?.accept ?? '', /as=Table;v=v1;g=meta\.k8s\.io/)
    // Both nodes were created 2026-11-01T00:00:00Z: HumanDuration prints whole days from 8 days to 2 years.
    const days = `${Math.floor((Date.now() - Date.parse('2026-11-01T00:00:00Z')) / 86_400_000)}d`
    // node-a: Ready True, no role label, kubelet v1.32.4; node-b: Ready Unknown prints NotReady, no nodeInfo.
    assert.deepEqual(
      r.stdout
        .trim()
        .split('\n')
        .map((l) => l.split(/\s+/)),
      [
        ['NAME', 'STATUS', 'ROLES', 'AGE', 'VERSION'],
        ['node-a', 'Ready', '<none>', days, 'v1.32.4'],
        ['node-b', 'NotReady', '<none>', days],
      ],
    )
    const wide = await kubectl(['get', 'nodes', '-o', 'wide'])
    assert.deepEqual(wide.stdout.trim().split('\n')[0].split(/\s+/), [
      'NAME',
      'STATUS',
      'ROLES',
      'AGE',
      'VERSION',
      'INTERNAL-IP',
      'EXTERNAL-IP',
      'OS-IMAGE',
      'KERNEL-VERSION',
      'CONTAINER-RUNTIME',
    ])
    assert.deepEqual(wide.stdout.trim().split('\n')[1].split(/\s+/).slice(5), ['<none>', '<none>', '<unknown>', '<unknown>', '<unknown>'])
    const json = parseJson((await kubectl(['get', 'nodes', '-o', 'json'])).stdout) as {items: KubeObject[]}
    assert.deepEqual(json.items, await Promise.all(OBJECTS.filter((o) => o.kind === 'Node').map(served)))
  })

  test('get nodes from a server without the Table: kubectl falls back to the plain list and its NAME/AGE columns', async () => {
    const plain = await FakeApiServer.start({objects: OBJECTS.filter((o) => o.kind === 'Node'), tables: false})
    try {
      const r = await kubectl(['get', 'nodes'], {kubeconfigFile: plain.writeKubeconfig(mkdtempSync(join(tmpdir(), 'kubectl-plain-')))})
      assert.equal(r.code, 0, r.stderr)
      const lines = r.stdout.trim().split('\n')
      assert.match(lines[0], /^NAME\s+AGE$/)
      assert.deepEqual(
        lines.slice(1).map((l) => l.split(/\s+/)[0]),
        ['node-a', 'node-b'],
      )
    } finally {
      await plain.close()
    }
  })

  test("get pod nope: exit 1 and kubectl's rendering of the NotFound Status", async () => {
    const r = await kubectl(['get', 'pod', 'nope'])
    assert.equal(r.code, 1)
    assert.equal(r.stdout, '')
    assert.equal(r.stderr.trim(), 'Error from server (NotFound): pods "nope" not found')
  })

  test('get pod nope -n nosuch: kubectl asks for the namespace after the 404 and reports that instead', async () => {
    server.clearRequests()
    const r = await kubectl(['get', 'pod', 'nope', '-n', 'nosuch'])
    assert.equal(r.code, 1)
    assert.equal(r.stderr.trim(), 'Error from server (NotFound): namespaces "nosuch" not found')
    assert.deepEqual(
      server.requests.map((q) => q.path).filter((p) => p.startsWith('/api/v1/')),
      ['/api/v1/namespaces/nosuch/pods/nope', '/api/v1/namespaces/nosuch'],
    )
  })

  test('get pods -l app=web: the selector reaches the server, the matching pods come back', async () => {
    server.clearRequests()
    const r = await kubectl(['get', 'pods', '-l', 'app=web', '-o', 'json'])
    assert.equal(r.code, 0, r.stderr)
    const list = parseJson(r.stdout) as {items: KubeObject[]}
    assert.deepEqual(list.items.map(key), ['shop/web-7d9f4b6c8-abcde', 'shop/web-7d9f4b6c8-fghij'])
    const req = server.requests.find((q) => q.path === '/api/v1/namespaces/shop/pods')
    assert.equal(req?.query.labelSelector, 'app=web', 'the context namespace (shop) and the selector')
    const names = await kubectl(['get', 'pods', '-A', '-l', 'app in (web, api),app!=api', '-o', 'name'])
    assert.equal(names.stdout, 'pod/web-standalone\npod/web-7d9f4b6c8-abcde\npod/web-7d9f4b6c8-fghij\n')
  })

  test("field selectors: spec.nodeName works, an unsupported field is kubectl's BadRequest", async () => {
    const r = await kubectl(['get', 'pods', '-A', '--field-selector', 'spec.nodeName=node-b', '-o', 'name'])
    assert.equal(r.code, 0, r.stderr)
    assert.equal(r.stdout, 'pod/web-standalone\npod/web-7d9f4b6c8-fghij\n')
    const bad = await kubectl(['get', 'deployments', '--field-selector', 'spec.replicas=2'])
    assert.equal(bad.code, 1)
    assert.equal(
      bad.stderr.trim(),
      'Error from server (BadRequest): Unable to find "apps/v1, Resource=deployments" that match label selector "", field selector "spec.replicas=2": "spec.replicas" is not a known field selector: only "metadata.name", "metadata.namespace"',
    )
  })

  test('a custom resource is discovered and listed; its int64 beyond 2^53 survives', async () => {
    const r = await kubectl(['get', 'widgets', '-o', 'json'])
    assert.equal(r.code, 0, r.stderr)
    assert.match(r.stdout, /"serial": 9007199254740993/)
    const list = parseJson(r.stdout) as {items: KubeObject[]}
    assert.deepEqual(list.items, [await served(OBJECTS.find((o) => o.kind === 'Widget')!)])
    const short = await kubectl(['get', 'wd', 'big', '-o', 'name'])
    assert.equal(short.stdout, 'widget.example.com/big\n')
  })

  test('forbidden: kubectl shows the RBAC message from the 403 Status', async () => {
    const f = server.forbid({resource: 'pods', namespace: 'shop'})
    const r = await kubectl(['get', 'pods'])
    f.lift()
    assert.equal(r.code, 1)
    assert.equal(
      r.stderr.trim(),
      `Error from server (Forbidden): pods is forbidden: User "${server.user}" cannot list resource "pods" in API group "" in the namespace "shop"`,
    )
  })

  test('a 429 with Retry-After in the plain-text form: client-go waits and retries, kubectl succeeds', async () => {
    server.clearRequests()
    server.inject({path: '/api/v1/nodes', status: 429, retryAfterSeconds: 1})
    const t = Date.now()
    const r = await kubectl(['get', 'nodes', '-o', 'name'])
    assert.equal(r.code, 0, r.stderr)
    assert.equal(r.stdout, 'node/node-a\nnode/node-b\n')
    assert.equal(server.requests.filter((q) => q.path === '/api/v1/nodes').length, 2)
    assert.ok(Date.now() - t >= 1000, 'it honoured Retry-After: 1')
  })

  test('a 503 with Retry-After, and a 429 in the Status form: retried the same way', async () => {
    server.clearRequests()
    server.inject({path: '/api/v1/nodes', status: 503, retryAfterSeconds: 1})
    server.inject({path: '/api/v1/nodes', status: 429, body: 'status', retryAfterSeconds: 1})
    const r = await kubectl(['get', 'nodes', '-o', 'name'])
    assert.equal(r.code, 0, r.stderr)
    assert.equal(server.requests.filter((q) => q.path === '/api/v1/nodes').length, 3)
  })

  test('an expired continue token mid-list: kubectl reports the 410 Expired message', async () => {
    server.inject({path: '/api/v1/pods', status: 410, when: (q) => q.continue !== undefined})
    const r = await kubectl(['get', 'pods', '-A', '--chunk-size=2', '-o', 'name'])
    assert.equal(r.code, 1)
    // kubectl neither restarts nor follows the offered inconsistent token: it prints the first page and fails
    assert.equal(r.stdout, 'pod/web-standalone\npod/kube-controller-manager-node-a\n')
    assert.match(
      r.stderr,
      /^Error from server \(Expired\): The provided continue parameter is too old to display a consistent list result\. You can start a new list without the continue parameter, or use the continue token in this response/,
    )
  })

  test('without aggregated discovery kubectl falls back to the per-group documents and still works', async () => {
    const legacy = await FakeApiServer.start({objects: OBJECTS, extraResources: [WIDGETS], aggregatedDiscovery: false})
    try {
      const file = legacy.writeKubeconfig(home, {fileName: 'legacy', namespace: 'shop'})
      const r = await kubectl(['get', 'deployments', '-o', 'name'], {kubeconfigFile: file})
      assert.equal(r.code, 0, r.stderr)
      assert.equal(r.stdout, 'deployment.apps/api\ndeployment.apps/web\n')
      const paths = new Set(legacy.requests.map((q) => q.path))
      assert.ok(paths.has('/api/v1') && paths.has('/apis/apps/v1'), 'legacy discovery documents were read')
    } finally {
      await legacy.close()
    }
  })

  test('a wrong token: kubectl says it must be logged in', async () => {
    // discovery cached by a good run first: the 401 then comes on the list, whose Status message kubectl shows
    assert.equal((await kubectl(['api-resources', '-o', 'name'])).code, 0)
    const file = server.writeKubeconfig(home, {fileName: 'wrong-token', token: 'nope'})
    const r = await kubectl(['get', 'pods'], {kubeconfigFile: file})
    assert.equal(r.code, 1)
    assert.equal(r.stderr.trim(), 'error: You must be logged in to the server (Unauthorized)')
    // with nothing cached the 401 comes on discovery, where client-go has its own words for it
    const cold = await kubectl(['get', 'pods', '--cache-dir', join(home, 'cold-cache')], {kubeconfigFile: file})
    assert.equal(cold.code, 1)
    assert.equal(
      cold.stderr.trim().split('\n').at(-1),
      'error: You must be logged in to the server (the server has asked for the client to provide credentials)',
    )
  })

  test('kubectl sent nothing but GET', () => {
    assert.ok(server.requests.length > 0)
    assert.deepEqual([...new Set(server.requests.map((q) => q.method))], ['GET'])
  })
})
