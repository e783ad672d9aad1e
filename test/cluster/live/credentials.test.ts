// Credentials and trust read from the kubeconfig before any request, each problem one line naming what is wrong,
// as clientcmd and client-go name it (validation.go, transport/config.go, plugin/pkg/client/auth/oidc), and a fake
// API server showing the request is never sent when the configuration is refused.
import assert from 'node:assert/strict'
import {chmodSync, mkdtempSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {after, before, test} from 'node:test'
import {LiveSource} from '../../../src/cluster/live/live-source.js'
import {UserError} from '../../../src/errors.js'
import {FakeApiServer, type KubeconfigOptions} from '../../support/fake-apiserver/index.js'

let server: FakeApiServer
let dir: string
let n = 0
before(async () => {
  server = await FakeApiServer.start({objects: []})
  dir = mkdtempSync(join(tmpdir(), 'credentials-'))
})
after(async () => server.close())

const kubeconfig = (o: KubeconfigOptions) => server.writeKubeconfig(dir, {fileName: `kubeconfig-${++n}`, ...o})

async function open(file: string, warnings: string[] = []) {
  return LiveSource.open({kubeconfig: file, requestTimeout: 10_000, interactive: false, warn: (l) => warnings.push(l)}, {HOME: dir})
}

/** Opening fails with one line matching `message`, and the server saw no request. */
async function refused(file: string, message: RegExp | string) {
  server.clearRequests()
  await assert.rejects(open(file), (e: Error) => {
    assert.ok(e instanceof UserError, `a UserError, not ${e.name}`)
    if (typeof message === 'string') assert.equal(e.message, message)
    else assert.match(e.message, message)
    assert.ok(!e.message.includes('\n'), 'one line')
    return true
  })
  assert.equal(server.requests.length, 0, 'no request was sent')
}

test('a missing CA file is named in one line, not ENOENT', async () => {
  const file = kubeconfig({noCa: true, clusterFields: {'certificate-authority': join(dir, 'missing-ca.crt')}})
  await refused(file, `unable to read certificate-authority ${join(dir, 'missing-ca.crt')} for cluster "fake-apiserver": no such file`)
})

test('an unreadable client key and a missing token file are named too', async () => {
  const key = join(dir, 'unreadable.key')
  writeFileSync(key, 'x')
  chmodSync(key, 0o000)
  const cert = join(dir, 'client.crt')
  writeFileSync(cert, 'x')
  // root reads any file whatever its mode: then only the message shape of the missing file is checked
  if (process.getuid?.() !== 0)
    await refused(
      kubeconfig({userFields: {'client-certificate': cert, 'client-key': key}}),
      /^unable to read client-key .*unreadable\.key for user "fake-apiserver-user": permission denied$/,
    )
  await refused(
    kubeconfig({userFields: {tokenFile: join(dir, 'no-token')}}),
    /^unable to read tokenFile .*no-token for user "fake-apiserver-user": no such file$/,
  )
})

test('a token file ending in a newline is trimmed, as client-go does (the request succeeds)', async () => {
  const tokenFile = join(dir, 'token')
  writeFileSync(tokenFile, `${server.token}\n`)
  const s = await open(kubeconfig({userFields: {tokenFile}}))
  assert.equal((await s.serverVersion())?.gitVersion, 'v1.32.4')
  assert.equal(server.requests.at(-1)?.headers.authorization, `Bearer ${server.token}`)
  await s.close()
})

test("an empty token file is refused with client-go's words", async () => {
  const tokenFile = join(dir, 'empty-token')
  writeFileSync(tokenFile, '\n')
  await refused(kubeconfig({userFields: {tokenFile}}), `read empty token from file "${tokenFile}"`)
})

test('a client certificate without its key is refused', async () => {
  const cert = join(dir, 'only.crt')
  writeFileSync(cert, 'x')
  await refused(kubeconfig({userFields: {'client-certificate': cert}}), 'user "fake-apiserver-user" has a client certificate without a key')
})

test('token and username/password together are refused (transport.Config)', async () => {
  await refused(
    kubeconfig({userFields: {token: 'a', username: 'u', password: 'p'}}),
    'user "fake-apiserver-user": username/password or bearer token may be set, but not both',
  )
})

test('a context without a user: one warning before any request, then anonymous requests', async () => {
  const warnings: string[] = []
  server.clearRequests()
  const s = await open(kubeconfig({userFields: null}), warnings)
  assert.deepEqual(warnings, ['context "fake-apiserver" names no user: requests are sent without credentials (anonymous)'])
  assert.equal(server.requests.length, 0, 'the warning came before any request')
  // The fake server refuses anonymous requests as a cluster without anonymous auth does: 401, said as such.
  await assert.rejects(
    s.serverVersion(),
    (e: Error) => /Unauthorized/.test(e.message) && /no credentials \(the context names no user\)/.test((e as UserError).hint ?? ''),
  )
  await s.close()
})

test('auth providers: removed ones and unknown ones named before any request', async () => {
  await refused(
    kubeconfig({userFields: {'auth-provider': {name: 'gcp', config: {}}}}),
    /^user "fake-apiserver-user": The gcp auth plugin has been removed: use the "gke-gcloud-auth-plugin"/,
  )
  await refused(kubeconfig({userFields: {'auth-provider': {name: 'azure', config: {}}}}), /^user "fake-apiserver-user": The azure auth plugin has been removed/)
  await refused(
    kubeconfig({userFields: {'auth-provider': {name: 'acme-sso', config: {}}}}),
    'user "fake-apiserver-user": no Auth Provider found for name "acme-sso"',
  )
})

const jwt = (exp: number) => `${Buffer.from('{"alg":"none"}').toString('base64url')}.${Buffer.from(JSON.stringify({exp})).toString('base64url')}.sig`

test('oidc: the fields client-go requires, an expired id-token without refresh-token, and a valid id-token used as bearer', async () => {
  await refused(
    kubeconfig({userFields: {'auth-provider': {name: 'oidc', config: {'client-id': 'k'}}}}),
    'user "fake-apiserver-user": the oidc auth provider must provide idp-issuer-url',
  )
  await refused(
    kubeconfig({userFields: {'auth-provider': {name: 'oidc', config: {'idp-issuer-url': 'https://issuer.example'}}}}),
    'user "fake-apiserver-user": the oidc auth provider must provide client-id',
  )
  const base = {'idp-issuer-url': 'https://issuer.example', 'client-id': 'k'}
  const past = Math.floor(Date.now() / 1000) - 3600
  await refused(
    kubeconfig({userFields: {'auth-provider': {name: 'oidc', config: {...base, 'id-token': jwt(past)}}}}),
    'user "fake-apiserver-user": no valid oidc id-token, and cannot refresh without refresh-token',
  )
  await refused(
    kubeconfig({userFields: {'auth-provider': {name: 'oidc', config: {...base, 'id-token': jwt(past), 'refresh-token': 'r'}}}}),
    /the oidc id-token has expired and kubectl-why does not refresh it/,
  )
  const token = jwt(Math.floor(Date.now() / 1000) + 3600)
  const s = await open(kubeconfig({userFields: {'auth-provider': {name: 'oidc', config: {...base, 'id-token': token}}}}))
  server.clearRequests()
  await s.serverVersion().catch(() => undefined) // the fake accepts only its own token: 401, but the header is what counts
  assert.equal(server.requests[0]?.headers.authorization, `Bearer ${token}`)
  await s.close()
})

test('basic auth is sent as client-go sends it', async () => {
  const s = await open(kubeconfig({userFields: {username: 'admin', password: 's3cret'}}))
  server.clearRequests()
  await s.serverVersion().catch(() => undefined)
  assert.equal(server.requests[0]?.headers.authorization, `Basic ${Buffer.from('admin:s3cret').toString('base64')}`)
  await s.close()
})

// clientcmd client_config.go getUserIdentificationPartialConfig (v0.32.4:277-287): with `token` the file is not read
// up front; round_trippers.go bearerAuthRoundTripper.RoundTrip (:317-322) sends the file's token when it can be read,
// else the kubeconfig's. kubectl v1.32 on this fake server: exit 0 with the token beside a missing file.
test('token beside a missing tokenFile: the token is sent (kubectl uses it); beside a readable one, the file wins', async () => {
  server.clearRequests()
  const missing = await open(kubeconfig({userFields: {token: server.token, tokenFile: join(dir, 'never-written')}}))
  assert.equal((await missing.serverVersion())?.gitVersion, 'v1.32.4')
  assert.equal(server.requests.at(-1)?.headers.authorization, `Bearer ${server.token}`)
  await missing.close()
  const file = join(dir, 'file-token')
  writeFileSync(file, `${server.token}\n`)
  const both = await open(kubeconfig({userFields: {token: 'stale-kubeconfig-token', tokenFile: file}}))
  assert.equal((await both.serverVersion())?.gitVersion, 'v1.32.4')
  assert.equal(server.requests.at(-1)?.headers.authorization, `Bearer ${server.token}`, "the file's token, not the kubeconfig's")
  await both.close()
})
