// -o jsonpath and -o name next to the real kubectl: kubectl reads lists from the fake API server twice, as -o json
// and as -o jsonpath=TEMPLATE (or -o name); src/util/jsonpath.ts run over the first must print exactly the second,
// and src/render/output.ts's names must be kubectl's. The expected text is kubectl's own output. Templates that walk
// a map with * or .. are left out: kubectl visits map keys in Go's random order.
// Uses the kubectl on PATH; skipped, saying so, when there is none.
import assert from 'node:assert/strict'
import {spawn, spawnSync} from 'node:child_process'
import {mkdtempSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {after, before, describe, test} from 'node:test'
import type {KubeObject} from '../../src/cluster/source.js'
import {namesOf} from '../../src/render/output.js'
import {parseJson} from '../../src/util/json.js'
import {parseJsonPath} from '../../src/util/jsonpath.js'
import {FakeApiServer} from '../support/fake-apiserver/index.js'

const probe = spawnSync('kubectl', ['version', '--client'], {encoding: 'utf8'})
const KUBECTL = probe.status === 0 ? probe.stdout.split('\n')[0] : undefined
const SKIP = KUBECTL ? false : 'no kubectl on PATH (`kubectl version --client` failed): the comparison needs the real client'

let server: FakeApiServer
let home: string
let kubeconfig: string

function kubectl(args: string[]): Promise<{code: number; stdout: string; stderr: string}> {
  return new Promise((resolve, reject) => {
    const child = spawn('kubectl', ['--kubeconfig', kubeconfig, '--cache-dir', join(home, 'cache'), ...args], {env: {PATH: process.env.PATH ?? '', HOME: home}})
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

const pod = (name: string, labels: Record<string, string>, nodeName: string, extra: Record<string, unknown> = {}): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: {name, namespace: 'shop', labels, creationTimestamp: '2026-11-29T09:00:00Z', ...extra},
  spec: {nodeName, containers: [{name: 'app', image: 'registry.example/app:1.2.3', resources: {requests: {cpu: '100m', memory: '64Mi'}}}]},
  status: {phase: 'Running', startTime: '2026-11-29T09:00:05Z'},
})

const WIDGETS = {group: 'example.com', version: 'v1', kind: 'Widget', resource: 'widgets', namespaced: true, verbs: ['get', 'list', 'watch']}

const OBJECTS: KubeObject[] = [
  pod('web-7d9f4b6c8-abcde', {app: 'web', 'pod-template-hash': '7d9f4b6c8'}, 'node-a', {annotations: {note: 'a <b> & c'}}),
  pod('web-7d9f4b6c8-fghij', {app: 'web', 'pod-template-hash': '7d9f4b6c8'}, 'node-b'),
  pod('api-5c6b7d8e9-klmno', {app: 'api'}, 'node-a'),
  {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: {name: 'web', namespace: 'shop', generation: 3, creationTimestamp: '2026-11-28T09:00:00Z'},
    spec: {replicas: 2, selector: {matchLabels: {app: 'web'}}, template: {metadata: {labels: {app: 'web'}}, spec: {containers: [{name: 'app', image: 'x'}]}}},
    status: {observedGeneration: 3, replicas: 2, collisionCount: 1},
  },
  {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: {name: 'api', namespace: 'shop', creationTimestamp: '2026-11-28T09:00:00Z'},
    spec: {replicas: 1, selector: {matchLabels: {app: 'api'}}, template: {metadata: {labels: {app: 'api'}}, spec: {containers: [{name: 'app', image: 'y'}]}}},
  },
  {
    apiVersion: 'example.com/v1',
    kind: 'Widget',
    metadata: {name: 'big', namespace: 'shop', creationTimestamp: '2026-11-29T09:00:00Z'},
    spec: {serial: 9007199254740993n, ratio: 0.25, large: 1500000.5, tiny: 0.00001, count: 1000000},
  },
]

const TEMPLATES: Record<string, string[]> = {
  pods: [
    '{.items[*].metadata.name}',
    '{range .items[*]}{.metadata.name}{"\\t"}{.spec.nodeName}{"\\n"}{end}',
    '{.items[?(@.metadata.labels.app=="web")].metadata.name}',
    '{.items[0].metadata.labels}',
    '{.items[0].metadata.annotations}',
    '{.items[*].spec.containers[0].resources}',
    '{.items[-1:].metadata.name}',
    '{.items[0:3:2].metadata.name}',
    "{.items[*]['metadata.name', 'status.phase']}",
    '{.items[0].metadata.labels.pod-template-hash}',
    '{.items[?(@.metadata.annotations.note)].metadata.name}',
    'names: {.items[*].metadata.missing}!',
    // each pod has one container: containers[1] fails, and evalArray's input beside the error keeps the pod
    '{.items[?(@.spec.containers[1])].metadata.name}',
    '{.items[?(@.metadata.annotations)].metadata.name}',
    '{.kind} {.apiVersion}',
  ],
  deployments: [
    '{.items[*].spec.replicas}',
    '{range .items[*]}{.metadata.name}={.status.collisionCount}{"\\n"}{end}',
    '{.items[?(@.spec.replicas>1)].metadata.name}',
    '{.items[?(@.spec.replicas>=1)].metadata.name}',
    '{range .items[*]}{range .spec.template.spec.containers[*]}{.image},{end};{end}',
  ],
  widgets: [
    '{.items[0].spec}',
    '{.items[0].spec.serial} {.items[0].spec.ratio} {.items[0].spec.large} {.items[0].spec.tiny} {.items[0].spec.count}',
    '{.items[?(@.spec.ratio<0.5)].metadata.name}',
  ],
}

if (SKIP) test('kubectl -o jsonpath / -o name comparison', (t) => t.skip(SKIP))

describe(`-o jsonpath and -o name as ${KUBECTL ?? 'kubectl (missing)'} prints them`, {skip: SKIP}, () => {
  before(async () => {
    server = await FakeApiServer.start({objects: OBJECTS, extraResources: [WIDGETS]})
    home = mkdtempSync(join(tmpdir(), 'output-kubectl-'))
    kubeconfig = server.writeKubeconfig(home, {namespace: 'shop'})
  })
  after(async () => server?.close())

  for (const [resource, templates] of Object.entries(TEMPLATES)) {
    for (const template of templates) {
      test(`get ${resource} -o jsonpath=${template}`, async () => {
        const json = await kubectl(['get', resource, '-o', 'json'])
        assert.equal(json.code, 0, json.stderr)
        const expected = await kubectl(['get', resource, '-o', `jsonpath=${template}`])
        assert.equal(expected.code, 0, expected.stderr)
        assert.equal(parseJsonPath(template).execute(parseJson(json.stdout)), expected.stdout)
      })
    }
  }

  test('jsonpath-as-json: the same indented array kubectl prints', async () => {
    const template = '{.items[*].metadata.name}'
    const json = await kubectl(['get', 'pods', '-o', 'json'])
    const expected = await kubectl(['get', 'pods', '-o', `jsonpath-as-json=${template}`])
    assert.equal(expected.code, 0, expected.stderr)
    assert.equal(parseJsonPath(template, true, true).execute(parseJson(json.stdout)), expected.stdout)
  })

  test('--allow-missing-template-keys=false: a missing field fails in both', async () => {
    const template = '{.items[*].metadata.missing}'
    const r = await kubectl(['get', 'pods', '-o', `jsonpath=${template}`, '--allow-missing-template-keys=false'])
    assert.notEqual(r.code, 0)
    assert.match(r.stderr, /missing is not found/)
    const json = await kubectl(['get', 'pods', '-o', 'json'])
    assert.throws(() => parseJsonPath(template, false).execute(parseJson(json.stdout)), /^Error: missing is not found$/)
  })

  test("-o name: kubectl's kind.group/name for each object, core kinds without a group", async () => {
    const r = await kubectl(['get', 'deployments,pods,widgets', '-o', 'name'])
    assert.equal(r.code, 0, r.stderr)
    const json = parseJson((await kubectl(['get', 'deployments,pods,widgets', '-o', 'json'])).stdout) as {items: KubeObject[]}
    // Each object as an answer's subject (kind, apiVersion, name), one answer per object.
    const ours = json.items.flatMap((o) =>
      namesOf({subject: {kind: o.kind, apiVersion: o.apiVersion, namespace: o.metadata?.namespace, name: o.metadata?.name}}),
    )
    assert.equal(ours.map((n) => `${n}\n`).join(''), r.stdout)
    assert.match(r.stdout, /^deployment\.apps\/api\n/)
    assert.match(r.stdout, /\npod\/api-5c6b7d8e9-klmno\n/)
    assert.match(r.stdout, /\nwidget\.example\.com\/big\n$/)
  })
})
