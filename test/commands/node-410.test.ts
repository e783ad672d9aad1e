// Issue 19 / 13.1: an expired continue token (410 Gone) on a node list page. The driver lists nodes with
// source.list(), which restarts the list once without a token, as client-go's pager does; `kubectl why node` used to
// fail with exit 2 ("The provided continue parameter is too old"). 501 nodes make two pages of 500. Run
// `npm run build` first.
import assert from 'node:assert/strict'
import {mkdtempSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {after, describe, test} from 'node:test'
import type {KubeObject} from '../../src/cluster/source.js'
import {at, mkLease, mkNode} from '../engine/nodelifecycle/cluster-builder.js'
import {runCli} from '../support/cli.js'
import {FakeApiServer} from '../support/fake-apiserver/index.js'

let server: FakeApiServer | undefined
after(async () => {
  await server?.close()
})

describe('node list with a 410 on its continue page', () => {
  test('restarts once and answers for all 501 nodes', async () => {
    const objects: KubeObject[] = []
    for (let i = 0; i < 501; i++) objects.push(mkNode(`n${String(i).padStart(3, '0')}`, 'a'), mkLease(`n${String(i).padStart(3, '0')}`, -2))
    server = await FakeApiServer.start({objects, version: 'v1.33.2'})
    const kubeconfig = server.writeKubeconfig(mkdtempSync(join(tmpdir(), 'why-node-410-')))
    const fault = server.inject({path: '/api/v1/nodes', when: (q) => q.continue !== undefined, status: 410})
    const r = await runCli(['node', '--kubeconfig', kubeconfig, '--now', at(0), '-o', 'json'])
    assert.equal(r.code, 0, r.stderr)
    const j = JSON.parse(r.stdout)
    assert.equal(j.nodes.length, 501)
    assert.equal(j.verdict, 'healthy')
    assert.equal(fault.hits, 1)
    // First page, the 410 on the second, then the list again from the start: two first pages.
    const firstPages = server.requests.filter((q) => q.path === '/api/v1/nodes' && q.query.continue === undefined)
    assert.equal(firstPages.length, 2)
  })
})
