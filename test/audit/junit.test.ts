// -o junit as CI systems read it. Two readers: test-results-parser (a third-party JUnit consumer from npm, the one
// testbeats publishes results with: it decides PASS/FAIL/SKIP per case as a CI system does) and our strict XML reader
// (test/audit/xml.ts: well-formedness, attributes such as classname the consumer does not expose). What is asserted:
// one suite per check; a case per evaluated subject (so a clean audit has passing cases, ≥ 1 per check); names that
// are check + kind + namespace/name only; failures with severity, summary, steps and next steps; <skipped> for a read
// refused (with its RBAC rule) and for suppressed findings; counts that agree with the cases.
import assert from 'node:assert/strict'
import {mkdtempSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {describe, test} from 'node:test'
import {fileURLToPath} from 'node:url'
import {parse as parseJunit} from 'test-results-parser'
import {DEFAULT_CHECKS} from '../../src/audit/checks.js'
import {type AuditOptions, runAudit} from '../../src/audit/run.js'
import type {ClusterSource, ListRequest} from '../../src/cluster/source.js'
import {SnapshotSource} from '../../src/cluster/snapshot/snapshot-source.js'
import {chooseVersion} from '../../src/cluster/version.js'
import {ReadError} from '../../src/errors.js'
import {renderJunit} from '../../src/render/audit-junit.js'
import {parseXml, type XmlElement} from './xml.js'

const EXAMPLES = fileURLToPath(new URL('../../examples/', import.meta.url))
const dir = mkdtempSync(join(tmpdir(), 'junit-'))
let n = 0

/** What a CI system makes of the document. */
function consume(xml: string) {
  const file = join(dir, `report-${n++}.xml`)
  writeFileSync(file, xml)
  return parseJunit({type: 'junit', files: [file]})
}

/** The structural rules of the JUnit XML schema CI systems (Jenkins, GitLab, Azure) accept. */
function assertJunit(root: XmlElement): void {
  assert.equal(root.name, 'testsuites')
  let tests = 0
  let failures = 0
  let skipped = 0
  for (const s of root.children) {
    assert.equal(s.name, 'testsuite')
    for (const a of ['name', 'tests', 'failures', 'errors', 'skipped']) assert.ok(a in s.attributes, `testsuite lacks ${a}`)
    const cases = s.children.filter((c) => c.name === 'testcase')
    assert.deepEqual(
      s.children.filter((c) => c.name !== 'testcase' && c.name !== 'properties').map((c) => c.name),
      [],
    )
    for (const c of cases) {
      assert.ok(c.attributes.name && c.attributes.classname, 'testcase needs name and classname')
      for (const x of c.children) assert.ok(['failure', 'skipped', 'system-out'].includes(x.name), `unexpected <${x.name}> in a testcase`)
      assert.ok(c.children.filter((x) => x.name === 'failure').length <= 1)
    }
    const sf = cases.filter((c) => c.children.some((x) => x.name === 'failure')).length
    const ss = cases.filter((c) => c.children.some((x) => x.name === 'skipped')).length
    assert.deepEqual(
      [Number(s.attributes.tests), Number(s.attributes.failures), Number(s.attributes.skipped), Number(s.attributes.errors)],
      [cases.length, sf, ss, 0],
      s.attributes.name,
    )
    // Names are unique within a suite: a CI system keys a case's history on suite + classname + name.
    const keys = cases.map((c) => `${c.attributes.classname} ${c.attributes.name}`)
    assert.deepEqual(
      keys.filter((k, i) => keys.indexOf(k) !== i),
      [],
      s.attributes.name,
    )
    tests += cases.length
    failures += sf
    skipped += ss
  }
  assert.deepEqual([Number(root.attributes.tests), Number(root.attributes.failures), Number(root.attributes.skipped)], [tests, failures, skipped])
}

/** A snapshot, optionally with lists of some kinds refused (403) as a live server under narrower RBAC refuses them. */
async function audit(example: string, options: Partial<AuditOptions> = {}, forbid: string[] = []) {
  const snapshot = await SnapshotSource.open(`${EXAMPLES}${example}`)
  const refuse = (r: ListRequest) => {
    if (forbid.includes(r.kind)) throw new ReadError('Forbidden', `${r.kind.toLowerCase()}s is forbidden: User "ci" cannot list it`, {status: 403})
  }
  const source: ClusterSource = Object.assign(Object.create(snapshot), {
    list: async (r: ListRequest) => {
      refuse(r)
      return snapshot.list(r)
    },
    pages: (r: ListRequest) => {
      refuse(r)
      return snapshot.pages(r)
    },
  })
  const version = chooseVersion(undefined, await snapshot.serverVersion())
  return runAudit(source, {checks: DEFAULT_CHECKS, version, overrides: {}, failOn: 'warning', ...options})
}

describe('the strict XML reader refuses what is not well-formed', () => {
  for (const bad of ['<a><b></a></b>', '<a>x & y</a>', '<a b="1" b="2"/>', '<a b=1/>', '<a>&nbsp;</a>', '<a/><b/>', '<a>\u0001</a>', '<a>', '<a x="<"/>']) {
    test(JSON.stringify(bad), () => assert.throws(() => parseXml(bad)))
  }
})

describe('-o junit', () => {
  test('a clean audit (hash-up-to-date): passing cases, at least one per check, no failure', async () => {
    const xml = renderJunit(await audit('hash-up-to-date.json'))
    assertJunit(parseXml(xml))
    const read = consume(xml)
    assert.equal(read.failed, 0)
    assert.deepEqual(
      read.suites.map((s) => s.name),
      DEFAULT_CHECKS.map((c) => `kubectl-why.${c}`),
    )
    for (const s of read.suites) assert.ok(s.cases.filter((c) => c.status === 'PASS').length >= 1, `${s.name} has a passing case`)
    // The Deployment web is evaluated (upToDate): its own passing case in the hash suite, named without its verdict.
    const hash = read.suites[0].cases.map((c) => [c.name, c.status])
    assert.deepEqual(hash, [
      ['hash: evaluated', 'PASS'],
      ['hash Deployment shop/web', 'PASS'],
    ])
    // Its output is its verdict (hash-up-to-date.md: upToDate).
    const web = parseXml(xml).children[0].children.find((c) => c.attributes.name === 'hash Deployment shop/web')!
    assert.equal(web.children[0].text, 'upToDate (none)')
  })

  test('the incident: a case per evaluated subject; the four findings fail with severity, summary, steps and next steps', async () => {
    const r = await audit('incident.yaml')
    const xml = renderJunit(r)
    const root = parseXml(xml)
    assertJunit(root)
    const read = consume(xml)
    // Failing cases are the four findings at or above --fail-on warning (examples/incident.md).
    const failed = read.suites.flatMap((s) => s.cases.filter((c) => c.status === 'FAIL').map((c) => c.name))
    assert.deepEqual(failed.sort(), [
      'evicted Pod shop/web-85d7f67c4d-2xk9p',
      'gc ConfigMap shop/web-canary-env',
      'node Node worker-c1',
      'replicas ReplicaSet shop/checkout-6b5f97d66c',
    ])
    // One case per evaluated subject plus the check's own: the counts each check reports.
    for (const s of read.suites) {
      const c = r.summary.checks.find((x) => `kubectl-why.${x.name}` === s.name)!
      assert.equal(s.cases.length, c.evaluated + 1, s.name)
    }
    // The node suite holds the six nodes, by name: worker-c1 fails, the five others pass.
    const nodes = read.suites.find((s) => s.name === 'kubectl-why.node')!.cases.filter((c) => c.name !== 'node: evaluated')
    assert.deepEqual(
      nodes.map((c) => `${c.name} ${c.status}`).sort(),
      ['a1', 'a2', 'b1', 'b2', 'c1', 'c2'].map((x) => `node Node worker-${x} ${x === 'c1' ? 'FAIL' : 'PASS'}`),
    )
    const rs = root.children
      .find((s) => s.attributes.name === 'kubectl-why.replicas')!
      .children.find((c) => c.attributes.name === 'replicas ReplicaSet shop/checkout-6b5f97d66c')!
    assert.equal(rs.attributes.classname, 'kubectl-why.replicas.ReplicaSet')
    const failure = rs.children[0]
    assert.equal(failure.attributes.type, 'critical')
    assert.match(failure.attributes.message, /^critical: 3 active pod\(s\) for 4 desired/)
    const finding = r.findings.find((f) => f.subject.name === 'checkout-6b5f97d66c')!
    for (const s of finding.steps) assert.ok(failure.text.includes(`- ${s.rule}: ${s.result}`), `step ${s.rule}`)
    for (const x of finding.next ?? []) assert.ok(failure.text.includes(x.why), `next step ${x.why}`)
  })

  test('case names do not change with the verdict: the same subject under another severity keeps its name', async () => {
    const before = consume(renderJunit(await audit('incident.yaml')))
    const after = consume(renderJunit(await audit('incident.yaml', {failOn: 'critical'})))
    const names = (x: typeof before) => x.suites.flatMap((s) => s.cases.map((c) => `${s.name} ${c.name}`))
    assert.deepEqual(names(after), names(before))
    // With --fail-on critical only the ReplicaSet fails; the other three findings pass with their text as output.
    assert.deepEqual(
      after.suites.flatMap((s) => s.cases.filter((c) => c.status === 'FAIL').map((c) => c.name)),
      ['replicas ReplicaSet shop/checkout-6b5f97d66c'],
    )
  })

  test("a refused list: <skipped> with the RBAC rule in the suites it fed; the check's case fails as incomplete", async () => {
    const r = await audit('incident.yaml', {}, ['CronJob'])
    const xml = renderJunit(r)
    assertJunit(parseXml(xml))
    const gc = consume(xml).suites.find((s) => s.name === 'kubectl-why.gc')!
    const skipped = gc.cases.filter((c) => c.status === 'SKIP')
    assert.deepEqual(
      skipped.map((c) => c.name),
      ['gc not read: CronJob.batch'],
    )
    const root = parseXml(xml)
    const el = root.children.find((s) => s.attributes.name === 'kubectl-why.gc')!.children.find((c) => c.attributes.name === 'gc not read: CronJob.batch')!
    assert.match(
      el.children[0].attributes.message,
      /needs apiGroups \["batch"\] resources \[cronjobs\] verbs \[get, list\]: kubectl create clusterrole NAME --verb=get,list --resource=cronjobs\.batch$/,
    )
    assert.equal(gc.cases.find((c) => c.name === 'gc: evaluated')!.status, 'FAIL', '--fail-on-partial is the default')
    const lenient = consume(renderJunit(await audit('incident.yaml', {failOnPartial: false}, ['CronJob'])))
    assert.equal(lenient.suites.find((s) => s.name === 'kubectl-why.gc')!.cases.find((c) => c.name === 'gc: evaluated')!.status, 'PASS')
  })

  test('nodes refused: the node and evicted checks do not run — their cases fail, whatever --fail-on-partial says', async () => {
    const read = consume(renderJunit(await audit('incident.yaml', {failOnPartial: false}, ['Node'])))
    for (const check of ['node', 'evicted']) {
      const s = read.suites.find((x) => x.name === `kubectl-why.${check}`)!
      assert.equal(s.cases.find((c) => c.name === `${check}: evaluated`)!.status, 'FAIL', check)
      assert.ok(
        s.cases.some((c) => c.name === `${check} not read: Node` && c.status === 'SKIP'),
        check,
      )
    }
  })

  test('a subject the check could not replay is its own case, skipped, with why (gc-stuck-namespace holds its Deployment without a template)', async () => {
    const hash = consume(renderJunit(await audit('gc-stuck-namespace.json'))).suites.find((s) => s.name === 'kubectl-why.hash')!
    assert.deepEqual(
      hash.cases.map((c) => [c.name, c.status]),
      [
        ['hash: evaluated', 'FAIL'],
        ['hash Deployment team-a/api', 'SKIP'],
      ],
    )
  })

  test('suppressed findings are skipped cases that say why; the others still fail', async () => {
    const r = await audit('incident.yaml', {
      suppressions: [{check: 'gc', verdict: 'delete', namespace: 'shop', name: 'web-canary-*', reason: 'the release job removes it'}],
    })
    const gc = consume(renderJunit(r)).suites.find((s) => s.name === 'kubectl-why.gc')!
    const c = gc.cases.find((x) => x.name === 'gc ConfigMap shop/web-canary-env')!
    assert.equal(c.status, 'SKIP')
    assert.equal(gc.failed, 0)
  })

  test('special and forbidden characters stay well-formed and come back as written', async () => {
    const r = await audit('incident.yaml')
    const nasty = 'a <b> & "c" \'d\'\u0007 \n end ]]>'
    r.findings[0].summary = nasty
    const xml = renderJunit(r)
    assertJunit(parseXml(xml))
    // The message attribute is one line (not every reader decodes &#10;); the body has the text as written.
    const failure = consume(xml)
      .suites.flatMap((s) => s.cases)
      .find((c) => c.name === 'replicas ReplicaSet shop/checkout-6b5f97d66c')!
    assert.equal(failure.failure, 'critical: a <b> & "c" \'d\' end ]]>')
    const el = parseXml(xml)
      .children.find((s) => s.attributes.name === 'kubectl-why.replicas')!
      .children.find((c) => c.attributes.name === 'replicas ReplicaSet shop/checkout-6b5f97d66c')!
    assert.ok(el.children[0].text.startsWith(`critical: createsFailing: ${nasty.replace('\u0007', '')}\n`))
  })
})
