// The in-cluster configuration (rest.InClusterConfig) from a service-account directory given as a source option,
// the way a CronJob pod reads it: KUBERNETES_SERVICE_HOST/PORT, the mounted token (ending in a newline, as the
// kubelet writes it), CA and namespace; used only when no kubeconfig is found.
import assert from 'node:assert/strict'
import {copyFileSync, mkdtempSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {after, before, test} from 'node:test'
import {LiveSource} from '../../../src/cluster/live/live-source.js'
import {FakeApiServer} from '../../support/fake-apiserver/index.js'

let server: FakeApiServer
before(async () => {
  server = await FakeApiServer.start({objects: []})
})
after(async () => server.close())

test('serviceAccountDir: token, CA and namespace from the directory, the server from the environment', async () => {
  const sa = mkdtempSync(join(tmpdir(), 'sa-'))
  writeFileSync(join(sa, 'token'), `${server.token}\n`)
  copyFileSync(server.caFile, join(sa, 'ca.crt'))
  writeFileSync(join(sa, 'namespace'), 'audit')
  const url = new URL(server.url)
  const env = {HOME: join(sa, 'no-home'), KUBERNETES_SERVICE_HOST: url.hostname, KUBERNETES_SERVICE_PORT: url.port}
  const s = await LiveSource.open({serviceAccountDir: sa, requestTimeout: 10_000}, env)
  assert.equal((await s.serverVersion())?.gitVersion, 'v1.32.4')
  assert.equal(s.defaultNamespace(), 'audit')
  assert.equal(s.describe().context, 'in-cluster')
  await s.close()
})

test("a kubeconfig, when there is one, comes before the service account (kubectl's order)", async () => {
  const sa = mkdtempSync(join(tmpdir(), 'sa-'))
  writeFileSync(join(sa, 'token'), 'not-used')
  const home = mkdtempSync(join(tmpdir(), 'home-'))
  const kubeconfig = server.writeKubeconfig(home, {namespace: 'from-kubeconfig'})
  const s = await LiveSource.open(
    {serviceAccountDir: sa, requestTimeout: 10_000},
    {KUBECONFIG: kubeconfig, KUBERNETES_SERVICE_HOST: '10.0.0.1', KUBERNETES_SERVICE_PORT: '443'},
  )
  assert.equal(s.defaultNamespace(), 'from-kubeconfig')
  await s.close()
})
