// `kubectl why audit` end to end against the fake API server: each kind listed at most once, paginated, metadata-only
// where only the collector reads it, the watch cache only for the node Leases, GETs only; --checks reads no more than
// those checks declare; the same findings from a snapshot file of the same cluster; exit codes for each --fail-on;
// a 403 on one kind gives a partial report naming the RBAC rule (exit by findings, not 2); progress on stderr only
// when asked for off a terminal. Run `npm run build` first.
import assert from 'node:assert/strict'
import {mkdtempSync, readFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {after, before, describe, test} from 'node:test'
import {fileURLToPath} from 'node:url'
import {parse} from 'yaml'
import {BUILTIN_KINDS} from '../../src/cluster/builtin-kinds.js'
import type {KubeObject} from '../../src/cluster/source.js'
import {type Any, auditSchema} from '../audit/schema.js'
import {CHECK_OF_CONTROLLER} from '../../src/render/audit.js'
import {runCli} from '../support/cli.js'
import {FakeApiServer, type RequestRecord} from '../support/fake-apiserver/index.js'
import {SyntheticCluster, writeSnapshot} from '../support/synthetic/index.js'

const EXAMPLES = fileURLToPath(new URL('../../examples/', import.meta.url))
const INCIDENT_NOW = '2026-11-29T10:00:00Z'
const valid = auditSchema()
// The check of each finding's controller, from the registry.
const CHECK = CHECK_OF_CONTROLLER
const line = (f: Any) => `${f.severity} ${CHECK[f.controller]} ${f.verdict} ${f.subject.kind} ${f.subject.namespace ?? ''}/${f.subject.name}`

/** A list request: a collection path (no object name after the resource), first page only; not a count (countsOf). */
function listsOf(requests: RequestRecord[]): RequestRecord[] {
  return requests.filter(
    (r) =>
      r.query.continue === undefined &&
      r.query.limit !== '1' &&
      /^\/(api\/v1|apis\/[^/]+\/[^/]+)(\/namespaces\/[^/]+)?\/[a-z]+$/.test(r.path) &&
      !/^\/api\/v1\/namespaces\/[^/]+$/.test(r.path) &&
      r.path !== '/api/v1/namespaces/',
  )
}
/** The count before a watch-cache list (src/audit/gather.ts countFirst): a quorum page of one, for remainingItemCount. */
const countsOf = (requests: RequestRecord[]) => requests.filter((r) => r.query.limit === '1')
const resourceOf = (path: string) => {
  const m = /^\/(?:api\/v1|apis\/([^/]+)\/[^/]+)(?:\/namespaces\/[^/]+)?\/([a-z]+)$/.exec(path)!
  return `${m[1] ?? ''}/${m[2]}`
}
const METADATA = /as=PartialObjectMetadataList;g=meta\.k8s\.io;v=v1/

async function run(args: string[], env: Record<string, string | undefined> = {}): Promise<{code: number; json: Any; stderr: string}> {
  const r = await runCli(['audit', ...args, '-o', 'json'], {env})
  let json: Any
  try {
    json = JSON.parse(r.stdout)
  } catch {
    assert.fail(`not JSON (exit ${r.code}): ${r.stdout.slice(0, 500)}\n${r.stderr}`)
  }
  return {code: r.code, json, stderr: r.stderr}
}

describe('a synthetic cluster of 30 nodes and 900 pods', () => {
  // 600 events: a list over two pages, now that pods come from the watch cache (one piece) for the ReplicaSet replay.
  const options = {seed: 8, nodes: 30, notReadyNodes: 3, danglingOwners: 4, stuckForeground: 1, events: 600}
  const cluster = new SyntheticCluster(options)
  let server: FakeApiServer
  let kubeconfig: string
  let requests: RequestRecord[]
  let live: Any
  const dir = mkdtempSync(join(tmpdir(), 'audit-cmd-'))

  before(async () => {
    server = await FakeApiServer.start({objects: cluster.objects(), version: cluster.plan.o.kubernetesVersion})
    kubeconfig = server.writeKubeconfig(dir)
    server.clearRequests()
    const r = await run(['-A', '--kubeconfig', kubeconfig, '--now', cluster.plan.o.now])
    requests = [...server.requests]
    live = r.json
    assert.equal(r.stderr, '', 'nothing on stderr off a terminal without --progress')
    assert.equal(r.code, 1)
  })
  after(async () => server.close())

  test('the report validates and every check ran complete', () => {
    assert.ok(valid(live), JSON.stringify(valid.errors, null, 1))
    assert.deepEqual(
      live.summary.checks.map((c: Any) => [c.name, c.status]),
      [
        ['hash', 'complete'],
        ['gc', 'complete'],
        ['deleting', 'complete'],
        ['node', 'complete'],
        ['evicted', 'complete'],
        ['replicas', 'complete'],
      ],
    )
    assert.deepEqual(live.summary.notChecked, [])
  })

  test('each kind is listed once; nothing but GET is sent', () => {
    assert.deepEqual(
      requests.filter((r) => r.method !== 'GET').map((r) => `${r.method} ${r.path}`),
      [],
    )
    const lists = listsOf(requests)
    const kinds = lists.map((r) => resourceOf(r.path))
    assert.deepEqual(
      kinds.filter((k, i) => kinds.indexOf(k) !== i),
      [],
      'a kind listed twice',
    )
    assert.equal(live.summary.reads.lists, lists.length)
    assert.ok(kinds.includes('/pods') && kinds.includes('apps/replicasets') && kinds.includes('/events'))
    assert.ok(!kinds.includes('/secrets'), 'Secrets are never read')
  })

  test('paginated quorum reads (limit 500, no resourceVersion), events over two pages; the node Leases and the pods from the watch cache', () => {
    for (const r of listsOf(requests)) {
      if (resourceOf(r.path) === 'coordination.k8s.io/leases') assert.equal(r.query.resourceVersion, '0', "leases: the informer's view")
      // The ReplicaSet controller's informer view of pods (issue 13: the audit and `kubectl why replicas` now agree).
      else if (resourceOf(r.path) === '/pods') assert.equal(r.query.resourceVersion, '0', "pods: the informer's view")
      else {
        assert.equal(r.query.resourceVersion, undefined, `${r.path} is a quorum read`)
        assert.equal(r.query.limit, '500', `${r.path} is paginated`)
      }
    }
    // The pages of the events' list (not the page of one that counts them first: countsOf).
    const eventPages = requests.filter((r) => r.path === '/api/v1/events' && r.query.limit !== '1')
    assert.equal(eventPages.length, 2)
    assert.ok(eventPages[1].query.continue)
    // Before anything is read, each watch-cache list without a selector and the largest kinds are counted, each by a
    // quorum page of one object's metadata (its remainingItemCount: the heap budget refuses a cluster too large at
    // the start, not as the watch cache's list of every pod comes in one piece).
    const cached = listsOf(requests).filter((r) => r.query.resourceVersion === '0' && r.query.labelSelector === undefined)
    const counts = countsOf(requests)
    for (const path of ['/api/v1/pods', '/api/v1/events', '/apis/apps/v1/replicasets', ...cached.map((r) => r.path)])
      assert.ok(
        counts.some((r) => r.path === path),
        `${path} counted first`,
      )
    const firstList = requests.indexOf(listsOf(requests)[0])
    for (const r of counts) {
      assert.equal(r.query.resourceVersion, undefined, `${r.path}: a quorum count`)
      assert.match(r.accept ?? '', /as=PartialObjectMetadataList/, `${r.path}: metadata only`)
      assert.ok(requests.indexOf(r) < firstList, `${r.path}: counted before any list is read`)
    }
  })

  test('metadata-only where only the collector reads the kind; whole objects where another check reads them', () => {
    const accept = new Map(listsOf(requests).map((r) => [resourceOf(r.path), r.accept ?? '']))
    for (const k of ['/configmaps', '/services', 'discovery.k8s.io/endpointslices']) assert.match(accept.get(k)!, METADATA, k)
    // Jobs whole: TTL-after-finished and the CronJob's history limits read their spec and status (gc descriptor).
    for (const k of [
      '/pods',
      '/nodes',
      'apps/replicasets',
      'apps/deployments',
      'apps/controllerrevisions',
      '/events',
      'coordination.k8s.io/leases',
      'batch/jobs',
    ])
      assert.doesNotMatch(accept.get(k)!, METADATA, k)
  })

  test("the only single-object reads are the collector's owner confirmations (fresh, metadata-only)", () => {
    const gets = requests.filter(
      (r) =>
        !listsOf(requests).includes(r) &&
        !countsOf(requests).includes(r) &&
        r.query.continue === undefined &&
        !/^\/(api|apis)(\/[^/]+(\/[^/]+)?)?$/.test(r.path) &&
        r.path !== '/version',
    )
    assert.equal(gets.length, live.summary.reads.gets)
    for (const g of gets) {
      assert.equal(g.query.resourceVersion, undefined)
      assert.match(g.accept ?? '', /as=PartialObjectMetadata;g=meta\.k8s\.io;v=v1/)
    }
  })

  test('what the synthetic incidents make of it', () => {
    const c = (name: string) => live.summary.checks.find((x: Any) => x.name === name)
    // 3 nodes stopped: whatever their taint state, none is healthy; the other 27 are.
    assert.equal(c('node').verdicts.healthy, 27)
    assert.equal(c('node').evaluated, 30)
    // Every pod of the cluster is considered by the eviction check, and every ReplicaSet replayed.
    assert.equal(c('evicted').evaluated, cluster.counts.Pod)
    assert.equal(c('replicas').evaluated, cluster.counts.ReplicaSet)
    // 4 dangling owners: 4 objects the collector deletes, at least.
    assert.ok(c('gc').verdicts.delete >= 4)
    assert.ok(c('gc').verdicts.waitForBlockingDependents >= 1, 'the stuck foreground deletion')
  })

  test('a continue token that expires mid-list (410): that list is read again from the start, once; the same findings', async () => {
    server.clearRequests()
    const fault = server.inject({path: '/api/v1/events', when: (q) => q.continue !== undefined, status: 410})
    const r = await run(['-A', '--kubeconfig', kubeconfig, '--now', cluster.plan.o.now])
    assert.equal(fault.hits, 1)
    assert.equal(r.code, 1)
    assert.deepEqual(r.json.summary.notChecked, [])
    assert.deepEqual(r.json.findings.map(line), live.findings.map(line))
    assert.equal(listsOf(server.requests).filter((q) => q.path === '/api/v1/events').length, 2)
  })

  test('--checks replicas lists ReplicaSets, pods, events and namespaces, nothing else', async () => {
    server.clearRequests()
    const r = await run(['-A', '--checks', 'replicas', '--kubeconfig', kubeconfig, '--now', cluster.plan.o.now, '--fail-on', 'none'])
    assert.equal(r.code, 0)
    assert.deepEqual(
      listsOf(server.requests)
        .map((q) => resourceOf(q.path))
        .sort(),
      ['/events', '/namespaces', '/pods', 'apps/replicasets'],
    )
    assert.deepEqual(r.json.findings.map(line), live.findings.filter((f: Any) => f.controller === 'replicaset').map(line))
  })

  test('a snapshot file of the same cluster gives the same findings', async () => {
    const file = join(dir, 'snapshot.json')
    await writeSnapshot(file, options)
    const r = await run(['-A', '-f', file])
    assert.equal(r.code, 1)
    assert.deepEqual(r.json.findings.map(line), live.findings.map(line))
    // The synthetic writer records the watch-cache view of the node Leases only; the one Lease list (-A, watch-cache
    // view) is answered from it in kube-node-lease and from the quorum view elsewhere, so the kube-system leader Lease
    // is there offline as live, and the collector replays the same objects.
    const verdicts = (j: Any) => j.summary.checks.map((c: Any) => c.verdicts)
    const offline = verdicts(r.json)
    const online = verdicts(live)
    assert.deepEqual(offline, online)
  })

  test('--progress writes progress lines to stderr off a terminal, and stdout stays the report', async () => {
    const r = await run(['-A', '--kubeconfig', kubeconfig, '--now', cluster.plan.o.now, '--progress', '--checks', 'node'])
    assert.match(r.stderr, /^audit: listed 1\/3 kinds, \d+ objects read — /m)
    assert.match(r.stderr, /^audit: listed 3\/3 kinds, \d+ objects read — /m)
    assert.match(r.stderr, /^audit: node: replaying$/m)
    assert.ok(valid(r.json))
  })
})

describe('the incident example, served live', () => {
  const doc = parse(readFileSync(`${EXAMPLES}incident.yaml`, 'utf8')) as {items: KubeObject[]}
  let server: FakeApiServer
  let kubeconfig: string
  const args = () => ['-A', '--kubeconfig', kubeconfig, '--now', INCIDENT_NOW]

  before(async () => {
    server = await FakeApiServer.start({objects: structuredClone(doc.items), version: 'v1.32.4'})
    kubeconfig = server.writeKubeconfig(mkdtempSync(join(tmpdir(), 'audit-incident-')))
  })
  after(async () => server.close())

  test('the same four findings as offline', async () => {
    const r = await run(args())
    assert.equal(r.code, 1)
    assert.deepEqual(r.json.findings.map(line), [
      'critical replicas createsFailing ReplicaSet shop/checkout-6b5f97d66c',
      'warning gc delete ConfigMap shop/web-canary-env',
      'warning node unhealthy Node /worker-c1',
      'warning evicted evictAt Pod shop/web-85d7f67c4d-2xk9p',
    ])
    assert.equal(r.json.source.mode, 'live')
  })

  // Partial fails loudly (issue 15): an incomplete audit exits 1 whatever its findings, unless --no-fail-on-partial.
  test('403 on CronJobs: a partial report naming the rule; incomplete, so exit 1 even with --fail-on none (not 2)', async () => {
    const denied = server.forbid({resource: 'cronjobs', group: 'batch'})
    try {
      const r = await run(args())
      assert.equal(r.code, 1)
      assert.equal(r.stderr, 'kubectl-why audit: incomplete: gc: partial — list batch/v1 CronJob (and 1 more: summary.incomplete)\n')
      assert.deepEqual(
        [r.json.summary.complete, r.json.summary.incomplete, r.json.summary.failOnPartial],
        [false, ['gc: partial — list batch/v1 CronJob', 'deleting: partial — list batch/v1 CronJob'], true],
      )
      assert.ok(valid(r.json), JSON.stringify(valid.errors, null, 1))
      assert.deepEqual(
        r.json.summary.notChecked.map((n: Any) => [n.apiVersion, n.kind, n.reason, n.status, n.checks, n.rule, n.command]),
        [
          [
            'batch/v1',
            'CronJob',
            'Forbidden',
            403,
            ['gc', 'deleting'],
            {apiGroups: ['batch'], resources: ['cronjobs'], verbs: ['get', 'list']},
            'kubectl create clusterrole NAME --verb=get,list --resource=cronjobs.batch',
          ],
        ],
      )
      assert.deepEqual(
        r.json.summary.checks.map((c: Any) => c.status),
        ['complete', 'partial', 'partial', 'complete', 'complete', 'complete'],
      )
      assert.equal(r.json.findings.length, 4)
      const none = await run([...args(), '--fail-on', 'none'])
      assert.equal(none.code, 1, 'incomplete')
      const lenient = await run([...args(), '--fail-on', 'none', '--no-fail-on-partial'])
      assert.deepEqual([lenient.code, lenient.json.summary.exitCode, lenient.json.summary.failOnPartial], [0, 0, false])
    } finally {
      denied.lift()
    }
  })

  // A snapshot taken under the same RBAC replays its recorded gaps as the live run reports them (issue 15).
  test('403 on CronJobs, then a snapshot taken under it: the same partial statuses, not-checked entry and exit offline', async () => {
    const denied = server.forbid({resource: 'cronjobs', group: 'batch'})
    try {
      const live = await run(args())
      const file = join(mkdtempSync(join(tmpdir(), 'audit-gap-')), 'snap.json')
      const snap = await runCli(['snapshot', '-A', '--kubeconfig', kubeconfig, '--out', file])
      assert.ok(snap.code === 0 || snap.code === 1, snap.stderr)
      const offline = await run(['-A', '-f', file, '--now', INCIDENT_NOW])
      const shape = (j: Any) => ({
        statuses: j.summary.checks.map((c: Any) => c.status),
        incomplete: j.summary.incomplete,
        exitCode: j.summary.exitCode,
        notChecked: j.summary.notChecked.map((n: Any) => [n.apiVersion, n.kind, n.reason, n.status, n.checks, n.rule]),
      })
      assert.deepEqual(shape(offline.json), shape(live.json))
      assert.equal(offline.code, 1)
      const junit = await runCli(['audit', '-A', '-f', file, '--now', INCIDENT_NOW, '-o', 'junit'])
      assert.match(
        junit.stdout,
        /<testcase name="gc not read: CronJob\.batch" classname="kubectl-why\.gc\.CronJob" time="0">\n {6}<skipped message="not read: Forbidden 403: /,
      )
    } finally {
      denied.lift()
    }
  })

  // Issue 15: every Lease is captured — the leader Lease too — so the collector should replay the same objects offline.
  test('a snapshot of the live cluster: the same verdicts offline, check by check', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'audit-leases-')), 'snap.json')
    const snap = await runCli(['snapshot', '-A', '--kubeconfig', kubeconfig, '--out', file])
    assert.equal(snap.code, 0, snap.stderr)
    const verdicts = (j: Any) => j.summary.checks.map((c: Any) => c.verdicts)
    assert.deepEqual(verdicts((await run(['-A', '-f', file, '--now', INCIDENT_NOW])).json), verdicts((await run(args())).json))
  })

  test('403 on nodes: the node and evicted checks do not run, the others do', async () => {
    const denied = server.forbid({resource: 'nodes'})
    try {
      const r = await run(args())
      assert.equal(r.code, 1)
      assert.deepEqual(
        r.json.summary.checks.map((c: Any) => c.status),
        ['complete', 'partial', 'partial', 'notRun', 'notRun', 'complete'],
      )
      assert.deepEqual(
        r.json.summary.notChecked.map((n: Any) => [n.kind, n.checks]),
        [['Node', ['hash', 'gc', 'deleting', 'node', 'evicted']]],
      )
      // The node Leases' owners are Nodes, which cannot be read now: the collector's replay does not guess them gone.
      assert.deepEqual(r.json.findings.map(line), [
        'critical replicas createsFailing ReplicaSet shop/checkout-6b5f97d66c',
        'warning gc delete ConfigMap shop/web-canary-env',
        ...['a1', 'a2', 'b1', 'b2', 'c1', 'c2'].map((n) => `warning gc unknown Lease kube-node-lease/worker-${n}`),
      ])
      const unknown = r.json.findings.find((f: Any) => f.verdict === 'unknown')
      assert.match(unknown.summary, /^Unknown: owner Node worker-a1 could not be read \(403\)/)
      // Two checks read nothing of their kinds: that never passes, whatever --fail-on and --fail-on-partial say.
      const lenient = await run([...args(), '--fail-on', 'none', '--no-fail-on-partial'])
      assert.equal(lenient.code, 1)
      assert.deepEqual(
        lenient.json.summary.incomplete.filter((x: string) => / not run /.test(x)).map((x: string) => x.split(':')[0]),
        ['node', 'evicted'],
      )
    } finally {
      denied.lift()
    }
  })

  // Scope (issue 15): node health is cluster-scoped and covers the whole cluster; gc covers the namespace's objects,
  // the node Leases and every cluster-scoped object; the others follow -n.
  test("-n shop: the namespace's objects, every node, and what each check covered", async () => {
    const r = await run(['-n', 'shop', '--kubeconfig', kubeconfig, '--now', INCIDENT_NOW])
    assert.deepEqual(r.json.scope, {namespace: 'shop'})
    assert.equal(r.json.findings.length, 4)
    const cover = Object.fromEntries(
      r.json.summary.checks.map((c: Any) => [c.name, [c.coverage.allNamespaces, c.coverage.namespaces, c.coverage.clusterScoped]]),
    )
    assert.deepEqual(cover, {
      hash: [false, ['shop'], false],
      gc: [false, ['shop', 'kube-node-lease'], true],
      deleting: [false, ['shop', 'kube-node-lease'], true],
      node: [false, [], true],
      evicted: [false, ['shop'], false],
      replicas: [false, ['shop'], false],
    })
    assert.equal(r.json.summary.checks.find((c: Any) => c.name === 'node').evaluated, 6, 'all six nodes')
  })

  test('-n default (no workload there): the node that is down is still found, and the audit fails', async () => {
    const r = await run(['-n', 'default', '--kubeconfig', kubeconfig, '--now', INCIDENT_NOW])
    assert.equal(r.code, 1)
    assert.deepEqual(r.json.findings.map(line), ['warning node unhealthy Node /worker-c1'])
    const table = await runCli(['audit', '-n', 'default', '--kubeconfig', kubeconfig, '--now', INCIDENT_NOW])
    assert.match(
      table.stdout.split('\n')[0],
      /^kubectl why audit — namespace default; gc: namespace default, node Leases \(kube-node-lease\), cluster-scoped objects \(whole cluster\); deleting: namespace default, node Leases \(kube-node-lease\), cluster-scoped objects \(whole cluster\); node: whole cluster — /,
    )
  })

  // Issue 19: an audit where every list is forbidden exited 0 with "No findings".
  test('every list forbidden, every check: never exit 0 — exit 2, one line', async () => {
    const seen = new Set<string>()
    const denied = BUILTIN_KINDS.filter((t) => !seen.has(`${t.group}/${t.resource}`) && seen.add(`${t.group}/${t.resource}`)).map((t) =>
      server.forbid({resource: t.resource, group: t.group}),
    )
    try {
      for (const extra of [[], ['--fail-on', 'none', '--no-fail-on-partial']]) {
        const r = await runCli(['audit', ...args(), ...extra])
        assert.notEqual(r.code, 0, extra.join(' '))
        assert.equal(r.code, 2, r.stderr)
        assert.match(r.stderr, /^error: nothing could be audited: /)
      }
    } finally {
      for (const d of denied) d.lift()
    }
  })

  test('nothing readable at all, or refused credentials: exit 2, one line', async () => {
    const denied = ['pods', 'nodes', 'events', 'namespaces'].map((resource) => server.forbid({resource}))
    const denied2 = [server.forbid({resource: 'replicasets', group: 'apps'}), server.forbid({resource: 'leases', group: 'coordination.k8s.io'})]
    try {
      const r = await runCli(['audit', ...args(), '--checks', 'node,evicted,replicas'])
      assert.equal(r.code, 2)
      assert.match(r.stderr, /^error: nothing could be audited: /)
      assert.equal(r.stderr.trim().split('\n').length, 1)
    } finally {
      for (const d of [...denied, ...denied2]) d.lift()
    }
    const bad = server.writeKubeconfig(mkdtempSync(join(tmpdir(), 'audit-401-')), {token: 'wrong'})
    const r = await runCli(['audit', '-A', '--kubeconfig', bad])
    assert.equal(r.code, 2)
    assert.equal(r.stderr.trim().split('\n').length, 1)
  })
})

describe('exit codes and --fail-on', () => {
  const cases: [string, string, number][] = [
    // The incident has a critical and three warnings.
    ['incident.yaml', 'none', 0],
    ['incident.yaml', 'info', 1],
    ['incident.yaml', 'warning', 1],
    ['incident.yaml', 'critical', 1],
    // gc-mixed-owners has one info finding (patchRemoveOwnerRefs) and nothing worse.
    ['gc-mixed-owners.json', 'critical', 0],
    ['gc-mixed-owners.json', 'warning', 0],
    ['gc-mixed-owners.json', 'info', 1],
    // gc-recreated-deployment: warnings, no critical.
    ['gc-recreated-deployment.json', 'critical', 0],
    ['gc-recreated-deployment.json', 'warning', 1],
  ]
  // --fail-on alone: these examples' audits are complete but for gc-recreated-deployment's (below).
  for (const [file, failOn, code] of cases) {
    test(`${file} --fail-on ${failOn} --no-fail-on-partial: exit ${code}`, async () => {
      const r = await run(['-A', '-f', `${EXAMPLES}${file}`, '--fail-on', failOn, '--no-fail-on-partial'])
      assert.equal(r.code, code)
      assert.equal(r.json.summary.failing > 0, code === 1)
    })
  }
  test('the default is warning', async () => {
    assert.equal((await run(['-A', '-f', `${EXAMPLES}gc-mixed-owners.json`])).code, 0)
    assert.equal((await run(['-A', '-f', `${EXAMPLES}gc-recreated-deployment.json`])).code, 1)
  })
  test("--fail-on-partial is the default: gc-recreated-deployment's Deployment cannot be replayed (its ReplicaSets are metadata only), so even --fail-on critical exits 1", async () => {
    const r = await run(['-A', '-f', `${EXAMPLES}gc-recreated-deployment.json`, '--fail-on', 'critical'])
    assert.deepEqual([r.code, r.json.summary.failing, r.json.summary.incomplete], [1, 0, ['hash: partial — Deployment shop/web']])
  })
  test('usage errors exit 2 with one line: an unknown check, no check, a bad --fail-on, -o wrong', async () => {
    for (const [args, message] of [
      [['--checks', 'gc,hpa'], /unknown check "hpa"/],
      [['--checks', ','], /--checks names no check/],
      [['--fail-on', 'fatal'], /fail-on/],
      [['-o', 'xml'], /output/],
    ] as [string[], RegExp][]) {
      const r = await runCli(['audit', '-A', '-f', `${EXAMPLES}incident.yaml`, ...args])
      assert.equal(r.code, 2, args.join(' '))
      assert.match(r.stderr, message)
      assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr)
    }
  })
  test('the table: summary, then the findings worst first, without colour when piped', async () => {
    const r = await runCli(['audit', '-A', '-f', `${EXAMPLES}incident.yaml`])
    assert.equal(r.code, 1)
    assert.ok(!r.stdout.includes('\u001B['), 'no ANSI escape')
    const lines = r.stdout.split('\n')
    // The one table style (src/render/layout.ts, kubectl's): no borders, no padding before the first column.
    assert.match(lines[1], /^CHECK +STATUS +OBJECTS +CRITICAL +WARNING +INFO/)
    assert.ok(lines.some((l) => /^replicas +complete +3 +1 +0 +0/.test(l)))
    const findings = lines.filter((l) => /^(critical|warning|info) /.test(l))
    assert.deepEqual(
      findings.map((l) => l.split(/\s+/).slice(0, 3).join(' ')),
      ['critical replicas createsFailing', 'warning gc delete', 'warning node unhealthy', 'warning evicted evictAt'],
    )
  })
})
