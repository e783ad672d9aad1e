// deploy/: the ClusterRole grants exactly what the audit reads — both sides derived from code: the rules from the
// checks' declared reads (rulesFor), and, running the CronJob's own command with in-cluster configuration against
// the fake API server that enforces the ClusterRole (everything else answers 403), every list the role allows is
// made and nothing is refused. No Secrets, no wildcards. The manifests name each other consistently.
import assert from 'node:assert/strict'
import {copyFileSync, mkdtempSync, readFileSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {after, before, describe, test} from 'node:test'
import {fileURLToPath} from 'node:url'
import {parse, parseAllDocuments} from 'yaml'
import {DEFAULT_CHECKS} from '../../src/audit/checks.js'
import {SERVICE_ACCOUNT_DIR_ENV} from '../../src/audit/in-cluster.js'
import {type PolicyRule, rulesFor} from '../../src/audit/rbac.js'
import {auditPlan} from '../../src/audit/run.js'
import {BUILTIN_KINDS} from '../../src/cluster/builtin-kinds.js'
import type {KubeObject} from '../../src/cluster/source.js'
import {runCli} from '../support/cli.js'
import {FakeApiServer} from '../support/fake-apiserver/index.js'
import {type Any, auditSchema} from './schema.js'

const DEPLOY = fileURLToPath(new URL('../../deploy/', import.meta.url))
const manifest = (name: string): Any => parse(readFileSync(join(DEPLOY, name), 'utf8'))
const triples = (rules: PolicyRule[]) =>
  rules.flatMap((r) => r.apiGroups.flatMap((g) => r.resources.flatMap((res) => r.verbs.map((v) => `${g}/${res}:${v}`)))).sort()

const role = manifest('clusterrole.yaml')
const sa = manifest('serviceaccount.yaml')
const binding = manifest('clusterrolebinding.yaml')
const cronjob = manifest('cronjob.yaml')

describe('deploy/clusterrole.yaml', () => {
  test("is exactly the rules derived from the checks' reads over the built-in kinds", () => {
    assert.deepEqual(triples(role.rules), triples(rulesFor(auditPlan(DEFAULT_CHECKS, BUILTIN_KINDS, undefined))))
  })
  test('read-only, no Secrets, no wildcards', () => {
    const all = triples(role.rules)
    assert.ok(
      all.every((t) => /:(get|list)$/.test(t)),
      'only get and list',
    )
    assert.ok(!all.some((t) => t.startsWith('/secrets:')), 'no Secrets')
    // No subresource: get on nodes/proxy authorizes every kubelet API (exec through a WebSocket upgrade included),
    // so a read-only role never holds it; evicted pod/NAME's configz GET is left to the person who runs it.
    assert.ok(!all.some((t) => t.split(':')[0].split('/').length > 2), `no subresource: ${all.filter((t) => t.split(':')[0].split('/').length > 2)}`)
    assert.ok(!JSON.stringify(role.rules).includes('*'), 'no wildcards')
    assert.equal(
      role.rules.some((r: Any) => r.nonResourceURLs),
      false,
    )
  })
  test('events are listed, never read one by one', () => {
    assert.ok(triples(role.rules).includes('/events:list'))
    assert.ok(!triples(role.rules).includes('/events:get'))
  })
})

describe('deploy/ manifests name each other', () => {
  test('ServiceAccount ← ClusterRoleBinding → ClusterRole; the CronJob runs as the ServiceAccount; kustomization lists them all', () => {
    assert.deepEqual(binding.roleRef, {apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: role.metadata.name})
    assert.deepEqual(binding.subjects, [{kind: 'ServiceAccount', name: sa.metadata.name, namespace: sa.metadata.namespace}])
    const pod = cronjob.spec.jobTemplate.spec.template.spec
    assert.equal(pod.serviceAccountName, sa.metadata.name)
    assert.equal(cronjob.metadata.namespace, sa.metadata.namespace)
    assert.deepEqual(pod.containers[0].args.slice(0, 4), ['audit', '-A', '-o', 'json'])
    const kustomization = manifest('kustomization.yaml')
    assert.deepEqual([...kustomization.resources].sort(), [
      'clusterrole.yaml',
      'clusterrolebinding.yaml',
      'cronjob.yaml',
      'namespace.yaml',
      'serviceaccount.yaml',
    ])
    for (const f of kustomization.resources) assert.equal(parseAllDocuments(readFileSync(join(DEPLOY, f), 'utf8')).length, 1)
  })
})

describe("the CronJob's command, in-cluster, against a server that enforces the ClusterRole", () => {
  const incident = parse(readFileSync(fileURLToPath(new URL('../../examples/incident.yaml', import.meta.url)), 'utf8')) as {items: KubeObject[]}
  const args: string[] = [...cronjob.spec.jobTemplate.spec.template.spec.containers[0].args, '--now', '2026-11-29T10:00:00Z']
  const valid = auditSchema()
  let server: FakeApiServer
  let env: Record<string, string>
  const granted = new Map<string, Set<string>>()
  for (const r of role.rules as PolicyRule[]) for (const g of r.apiGroups) for (const res of r.resources) granted.set(`${g}/${res}`, new Set(r.verbs))

  before(async () => {
    server = await FakeApiServer.start({objects: structuredClone(incident.items), version: 'v1.32.4', user: 'system:serviceaccount:kubectl-why:kubectl-why'})
    // RBAC: whatever the role does not grant is refused, verb by verb.
    const seen = new Set<string>()
    for (const t of BUILTIN_KINDS) {
      const k = `${t.group}/${t.resource}`
      if (seen.has(k)) continue
      seen.add(k)
      const denied = ['get', 'list', 'watch'].filter((v) => !granted.get(k)?.has(v))
      if (denied.length > 0) server.forbid({resource: t.resource, group: t.group, verbs: denied})
    }
    const dir = mkdtempSync(join(tmpdir(), 'audit-sa-'))
    writeFileSync(join(dir, 'token'), server.token)
    copyFileSync(server.caFile, join(dir, 'ca.crt'))
    writeFileSync(join(dir, 'namespace'), sa.metadata.namespace)
    const url = new URL(server.url)
    env = {KUBERNETES_SERVICE_HOST: url.hostname, KUBERNETES_SERVICE_PORT: url.port, [SERVICE_ACCOUNT_DIR_ENV]: dir}
  })
  after(async () => server.close())

  test("runs with the service account's token and CA; nothing is refused; every list the role allows is made", async () => {
    server.clearRequests()
    const r = await runCli(args, {env})
    assert.equal(r.stderr, '')
    assert.equal(r.code, 1, 'the incident has findings at or above warning')
    const j = JSON.parse(r.stdout)
    assert.ok(valid(j), JSON.stringify(valid.errors, null, 1))
    assert.deepEqual([j.source.mode, j.source.context], ['live', 'in-cluster'])
    assert.deepEqual(j.summary.notChecked, [])
    assert.deepEqual(
      j.summary.checks.filter((c: Any) => c.problems.length > 0).map((c: Any) => c.problems),
      [],
    )
    assert.equal(j.findings.length, 4)
    for (const q of server.requests) {
      assert.equal(q.method, 'GET')
      assert.equal(q.headers.authorization, `Bearer ${server.token}`)
    }
    // Nothing else: each resource the role lets the audit list was listed.
    const listed = new Set(
      server.requests
        .map((q) => /^\/(?:api\/v1|apis\/([^/]+)\/[^/]+)(?:\/namespaces\/[^/]+)?\/([a-z]+)$/.exec(q.path))
        .filter((m) => m)
        .map((m) => `${m![1] ?? ''}/${m![2]}`),
    )
    const allowedLists = [...granted].filter(([, v]) => v.has('list')).map(([k]) => k)
    assert.deepEqual(
      allowedLists.filter((k) => !listed.has(k)),
      [],
    )
  })

  test('a role without CronJobs: a partial report that names the rule to add; incomplete, exit 1', async () => {
    const denied = server.forbid({resource: 'cronjobs', group: 'batch'})
    try {
      const r = await runCli(args, {env})
      assert.equal(r.code, 1)
      const j = JSON.parse(r.stdout)
      // The rule named is the one the ClusterRole has for CronJobs.
      assert.deepEqual(
        j.summary.notChecked.map((n: Any) => n.rule),
        [{apiGroups: ['batch'], resources: ['cronjobs'], verbs: [...granted.get('batch/cronjobs')!].sort()}],
      )
      assert.match(j.summary.notChecked[0].message, /system:serviceaccount:kubectl-why:kubectl-why/)
      assert.deepEqual(
        [j.summary.complete, j.summary.incomplete],
        [false, ['gc: partial — list batch/v1 CronJob', 'deleting: partial — list batch/v1 CronJob']],
      )
    } finally {
      denied.lift()
    }
  })
})
