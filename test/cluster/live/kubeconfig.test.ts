// Expected behaviour is kubectl's (client-go clientcmd/loader.go): with several KUBECONFIG files the
// first file to set a map key or current-context wins, duplicates are ignored, missing files skipped,
// relative paths resolve against the file that holds them.
import assert from 'node:assert/strict'
import {mkdirSync, mkdtempSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {test} from 'node:test'
import {inClusterConfig, noKubeconfigReason, resolveKubeconfig} from '../../../src/cluster/live/kubeconfig.js'
import {UserError} from '../../../src/errors.js'

const dir = mkdtempSync(join(tmpdir(), 'kubeconfig-'))
mkdirSync(join(dir, 'a'))
mkdirSync(join(dir, 'b'))
const fileA = join(dir, 'a', 'config')
const fileB = join(dir, 'b', 'config')
writeFileSync(
  fileA,
  `
apiVersion: v1
kind: Config
current-context: ctx-a
clusters:
- name: shared
  cluster: {server: https://a.example:6443, certificate-authority: ca-a.crt}
contexts:
- name: ctx-a
  context: {cluster: shared, user: user-a, namespace: shop}
- name: dup
  context: {cluster: shared, user: user-a, namespace: from-a}
users:
- name: user-a
  user: {token: aaa}
`,
)
writeFileSync(
  fileB,
  `
current-context: ctx-b
clusters:
- name: shared
  cluster: {server: https://b.example:6443}
- name: only-b
  cluster: {server: https://only-b.example, certificate-authority: ../b/ca-b.crt}
contexts:
- name: ctx-b
  context: {cluster: only-b, user: user-b}
- name: dup
  context: {cluster: only-b, user: user-b, namespace: from-b}
users:
- name: user-b
  user: {client-certificate: certs/b.crt, client-key: /abs/b.key}
`,
)

const env = (list: string[]) => ({KUBECONFIG: list.join(':'), HOME: '/nonexistent'})

test('the first file to set current-context wins', () => {
  assert.equal(resolveKubeconfig({}, env([fileA, fileB]))!.context, 'ctx-a')
  assert.equal(resolveKubeconfig({}, env([fileB, fileA]))!.context, 'ctx-b')
})

test('the first file to define a name wins, and duplicate names do not fail', () => {
  const r = resolveKubeconfig({context: 'dup'}, env([fileA, fileB]))!
  assert.equal(r.namespace, 'from-a')
  assert.equal(r.server, 'https://a.example:6443') // cluster "shared" from file A, not B
  assert.equal(resolveKubeconfig({context: 'dup'}, env([fileB, fileA]))!.namespace, 'from-b')
})

test('relative paths resolve against the file that names them', () => {
  const r = resolveKubeconfig({context: 'ctx-b'}, env([fileA, fileB]))!
  const onlyB = r.merged.clusters.find((c) => c.name === 'only-b')!.cluster as Record<string, string>
  assert.equal(onlyB['certificate-authority'], join(dir, 'b', 'ca-b.crt'))
  const shared = r.merged.clusters.find((c) => c.name === 'shared')!.cluster as Record<string, string>
  assert.equal(shared['certificate-authority'], join(dir, 'a', 'ca-a.crt'))
  const userB = r.merged.users.find((u) => u.name === 'user-b')!.user as Record<string, string>
  assert.equal(userB['client-certificate'], join(dir, 'b', 'certs', 'b.crt'))
  assert.equal(userB['client-key'], '/abs/b.key')
})

test('missing files in KUBECONFIG are skipped; a context without namespace means "default"', () => {
  const r = resolveKubeconfig({}, env([join(dir, 'missing'), fileB]))!
  assert.equal(r.context, 'ctx-b')
  assert.equal(r.namespace, 'default')
})

test('--kubeconfig replaces KUBECONFIG and must exist', () => {
  assert.equal(resolveKubeconfig({kubeconfig: fileB}, env([fileA]))!.context, 'ctx-b')
  assert.throws(
    () => resolveKubeconfig({kubeconfig: join(dir, 'nope')}, env([fileA])),
    (e: Error) => e instanceof UserError && /no such file/.test(e.message),
  )
})

test('an unknown --context is a clear error listing the known ones', () => {
  assert.throws(
    () => resolveKubeconfig({context: 'prod'}, env([fileA, fileB])),
    (e: Error) =>
      e instanceof UserError &&
      e.message === `context "prod" not found in $KUBECONFIG (${[fileA, fileB].join(':')})` &&
      /ctx-a, dup, ctx-b/.test((e as UserError).hint!),
  )
})

test('nothing configured: no config (the caller then tries in-cluster)', () => {
  assert.equal(resolveKubeconfig({}, {HOME: '/nonexistent'}), undefined)
})

test('in-cluster: service host and port plus the mounted token, CA and namespace', () => {
  const sa = mkdtempSync(join(tmpdir(), 'sa-'))
  writeFileSync(join(sa, 'token'), 'tok')
  writeFileSync(join(sa, 'ca.crt'), 'ca')
  writeFileSync(join(sa, 'namespace'), 'audit\n')
  const r = inClusterConfig({KUBERNETES_SERVICE_HOST: '10.0.0.1', KUBERNETES_SERVICE_PORT: '443'}, sa)!
  assert.equal(r.server, 'https://10.0.0.1:443')
  assert.equal(r.namespace, 'audit')
  assert.equal(inClusterConfig({KUBERNETES_SERVICE_HOST: 'fd00::1', KUBERNETES_SERVICE_PORT: '443'}, sa)!.server, 'https://[fd00::1]:443')
  assert.equal(inClusterConfig({}, sa), undefined)
})

test('a KUBECONFIG naming only missing files is not "unset": the files are named (kubectl: "Config not found: FILE")', () => {
  const a = join(dir, 'gone-1')
  const b = join(dir, 'gone-2')
  assert.equal(resolveKubeconfig({}, {KUBECONFIG: `${a}:${b}`, HOME: '/nonexistent'}), undefined)
  assert.equal(noKubeconfigReason({KUBECONFIG: `${a}:${b}`, HOME: '/nonexistent'}), `$KUBECONFIG names ${a}, ${b}, none of which exists`)
  assert.equal(noKubeconfigReason({KUBECONFIG: a, HOME: '/nonexistent'}), `$KUBECONFIG names ${a}, which does not exist`)
  assert.equal(noKubeconfigReason({HOME: '/nonexistent'}), '$KUBECONFIG is unset and /nonexistent/.kube/config does not exist')
})

test('clusters, users or contexts written as a mapping: one line naming the file and the field (kubectl refuses it too)', () => {
  for (const [kind, body] of [
    ['clusters', 'clusters:\n  c1:\n    server: https://x.example\n'],
    ['users', 'users:\n  u1: {token: t}\n'],
    ['contexts', 'contexts:\n  c1: {cluster: c1}\n'],
  ]) {
    const file = join(dir, `map-${kind}`)
    writeFileSync(file, `apiVersion: v1\nkind: Config\ncurrent-context: c1\n${body}`)
    assert.throws(
      () => resolveKubeconfig({kubeconfig: file}, {}),
      (e: Error) =>
        e instanceof UserError && e.message.startsWith(`error loading config file "${file}": ${kind} is a mapping, not a list`) && !e.message.includes('\n'),
    )
  }
})
