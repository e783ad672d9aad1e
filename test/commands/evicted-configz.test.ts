// `kubectl why evicted` live on a pod the kubelet evicted (test/fixtures/evictions/kubelet-memory.yaml served by the
// fake API server): the node's kubelet configuration is read with one GET of /api/v1/nodes/NAME/proxy/configz
// (cmd/kubelet/app/server.go setConfigz: {"kubeletconfig": <v1beta1 KubeletConfiguration>}). Worked by hand:
// - served, evictionHard memory.available 100Mi and evictionSoft memory.available 300Mi for 1m30s: the message's
//   "Threshold quantity: 100Mi" is the hard one (step evictionHard, result hard);
// - 403 (no get on nodes/proxy) or 404 (a kubelet serving no configz): the release's DefaultEvictionHard
//   (memory.available<100Mi on linux), said to be defaults, unverified, with the reason and what it leaves unknown.
// Run `npm run build` first.
import assert from 'node:assert/strict'
import {mkdtempSync, readFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {describe, test} from 'node:test'
import {fileURLToPath} from 'node:url'
import {parse} from 'yaml'
import {runCli} from '../support/cli.js'
import {FakeApiServer} from '../support/fake-apiserver/index.js'
import {onlyGets} from '../support/fake-apiserver/requests.js'

// biome-ignore lint/suspicious/noExplicitAny: parsed JSON of a command's output, whose fields the test reads one by one
type Any = any
const NODE = 'ip-10-0-3-12'
const CONFIGZ_PATH = `/api/v1/nodes/${NODE}/proxy/configz`
const items = parse(readFileSync(fileURLToPath(new URL('../fixtures/evictions/kubelet-memory.yaml', import.meta.url)), 'utf8')).items
const KUBELETCONFIG = {
  kubeletconfig: {
    evictionHard: {'memory.available': '100Mi', 'nodefs.available': '10%', 'nodefs.inodesFree': '5%', 'imagefs.available': '15%'},
    evictionSoft: {'memory.available': '300Mi'},
    evictionSoftGracePeriod: {'memory.available': '1m30s'},
    evictionPressureTransitionPeriod: '5m0s',
    evictionMaxPodGracePeriod: 0,
  },
}

async function evicted(configz: Record<string, unknown> | undefined, inject403 = false): Promise<{json: Any; paths: string[]}> {
  const server = await FakeApiServer.start({objects: structuredClone(items), version: 'v1.34.2', ...(configz ? {configz} : {})})
  try {
    if (inject403) server.inject({path: CONFIGZ_PATH, status: 403, times: Number.POSITIVE_INFINITY})
    const kubeconfig = server.writeKubeconfig(mkdtempSync(join(tmpdir(), 'evicted-configz-')), {namespace: 'shop'})
    const r = await runCli(['evicted', 'pod/orders-5c8f6d7b9-k2m4p', '--kubeconfig', kubeconfig, '--now', '2026-12-01T10:05:00Z', '-o', 'json'])
    let json: Any
    try {
      json = JSON.parse(r.stdout)
    } catch {
      assert.fail(`not JSON (exit ${r.code}): ${r.stdout}\n${r.stderr}`)
    }
    onlyGets(server.requests)
    return {json, paths: server.requests.map((q) => q.path)}
  } finally {
    await server.close()
  }
}

describe('evicted reads the kubelet configuration (configz) live', () => {
  test('served: the threshold in the message is the configured hard one; one GET of the node proxy', async () => {
    const {json, paths} = await evicted({[NODE]: KUBELETCONFIG})
    assert.equal(json.verdict, 'evictedByKubelet')
    const s = json.steps.find((x: Any) => x.rule === 'evictionHard')
    assert.ok(s, JSON.stringify(json.steps.map((x: Any) => x.rule)))
    assert.equal(s.result, 'hard')
    assert.match(s.why, /hard memory\.available<100Mi/)
    assert.match(s.why, /soft memory\.available<300Mi for 1m30s/)
    assert.equal(
      json.steps.some((x: Any) => x.rule === 'DefaultEvictionHard'),
      false,
    )
    assert.equal(paths.filter((p) => p === CONFIGZ_PATH).length, 1)
  })
  test('403: defaults, unverified, and why (get on nodes/proxy)', async () => {
    const {json} = await evicted({[NODE]: KUBELETCONFIG}, true)
    const s = json.steps.find((x: Any) => x.rule === 'DefaultEvictionHard')
    assert.equal(s.result, 'default')
    assert.match(
      s.why,
      /^defaults, unverified: the kubelet configuration could not be read \(GET \/api\/v1\/nodes\/ip-10-0-3-12\/proxy\/configz: forbidden: reading it needs get on nodes\/proxy\)/,
    )
    assert.match(
      s.why,
      /leaves evictionHard, evictionSoft and their grace periods, evictionMinimumReclaim, evictionPressureTransitionPeriod, evictionMaxPodGracePeriod unknown/,
    )
    assert.match(s.upstream, /defaults_linux\.go@2b02db1b:23-28/)
  })
  test('404 (the kubelet serves no configz): defaults, unverified, said so', async () => {
    const {json} = await evicted(undefined)
    const s = json.steps.find((x: Any) => x.rule === 'DefaultEvictionHard')
    assert.match(s.why, /not found: the kubelet serves no \/configz, or the node is gone/)
  })
})
