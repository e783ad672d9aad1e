// -o junit parses as XML (a strict reader of our own, test/audit/xml.ts) and has the JUnit shape CI systems read:
// <testsuites> of <testsuite name tests failures errors skipped>, each <testcase name classname> holding a
// <failure message type> for warning and critical findings, <skipped> for kinds not read, output for info ones;
// counts agree with the cases. Names and messages with XML's special and forbidden characters stay well-formed.
import assert from 'node:assert/strict'
import {describe, test} from 'node:test'
import {fileURLToPath} from 'node:url'
import type {AuditReport} from '../../src/audit/report.js'
import {renderJunit} from '../../src/render/audit-junit.js'
import {runCli} from '../support/cli.js'
import {parseXml, type XmlElement} from './xml.js'

const INCIDENT = fileURLToPath(new URL('../../examples/incident.yaml', import.meta.url))

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
    assert.deepEqual(s.children.filter((c) => c.name !== 'testcase' && c.name !== 'properties').map((c) => c.name), [])
    for (const p of s.children.filter((c) => c.name === 'properties')) for (const prop of p.children) {
      assert.equal(prop.name, 'property')
      assert.ok('name' in prop.attributes && 'value' in prop.attributes)
    }
    for (const c of cases) {
      assert.ok(c.attributes.name && c.attributes.classname, 'testcase needs name and classname')
      for (const x of c.children) assert.ok(['failure', 'skipped', 'system-out'].includes(x.name), `unexpected <${x.name}> in a testcase`)
      const f = c.children.filter((x) => x.name === 'failure')
      assert.ok(f.length <= 1)
      for (const x of f) assert.ok(x.attributes.message !== undefined && x.attributes.type !== undefined)
    }
    const sf = cases.filter((c) => c.children.some((x) => x.name === 'failure')).length
    const ss = cases.filter((c) => c.children.some((x) => x.name === 'skipped')).length
    assert.deepEqual([Number(s.attributes.tests), Number(s.attributes.failures), Number(s.attributes.skipped), Number(s.attributes.errors)], [cases.length, sf, ss, 0], s.attributes.name)
    tests += cases.length
    failures += sf
    skipped += ss
  }
  assert.deepEqual([Number(root.attributes.tests), Number(root.attributes.failures), Number(root.attributes.skipped)], [tests, failures, skipped])
}

describe('the strict XML reader refuses what is not well-formed', () => {
  for (const bad of ['<a><b></a></b>', '<a>x & y</a>', '<a b="1" b="2"/>', '<a b=1/>', '<a>&nbsp;</a>', '<a/><b/>', '<a>\u0001</a>', '<a>', '<a x="<"/>']) {
    test(JSON.stringify(bad), () => assert.throws(() => parseXml(bad)))
  }
  test('and reads what is', () => {
    const r = parseXml('<?xml version="1.0" encoding="UTF-8"?>\n<a x="&quot;1&quot; &amp; &#10;"><!-- c --><b/>t&lt;&#x41;</a>\n')
    assert.deepEqual([r.attributes.x, r.children.length, r.text], ['"1" & \n', 1, 't<A'])
  })
})

describe('-o junit', () => {
  test('the incident example: one suite per check that ran, a failure per warning or critical finding', async () => {
    const r = await runCli(['audit', '-A', '-f', INCIDENT, '-o', 'junit'])
    assert.equal(r.code, 1, r.stderr)
    const root = parseXml(r.stdout)
    assertJunit(root)
    assert.deepEqual(root.children.map((s) => [s.attributes.name, s.attributes.tests, s.attributes.failures]), [
      ['kubectl-why audit: hash', '0', '0'], ['kubectl-why audit: gc', '1', '1'], ['kubectl-why audit: node', '1', '1'], ['kubectl-why audit: evicted', '1', '1'], ['kubectl-why audit: replicas', '1', '1']])
    const replicas = root.children[4].children.find((c) => c.name === 'testcase')!
    assert.equal(replicas.attributes.name, 'createsFailing: ReplicaSet shop/checkout-6b5f97d66c')
    assert.equal(replicas.children[0].attributes.type, 'critical')
    assert.match(replicas.children[0].attributes.message, /^critical: 3 active pod\(s\) for 4 desired/)
  })

  test('special and forbidden characters, info findings and kinds not read', () => {
    const nasty = 'a <b> & "c" \'d\'\u0007 \n end ]]>'
    const finding = (severity: 'info' | 'warning', name: string) => ({
      subject: {kind: 'ConfigMap', namespace: 'shop', name}, controller: 'garbagecollector', verdict: 'delete', severity, summary: nasty,
      steps: [{rule: 'r<1>', upstream: 'u&v', result: '"x"', why: nasty}], evaluatedAt: '2026-11-29T10:00:00Z', source: {mode: 'snapshot' as const},
    })
    const zero = {critical: 0, warning: 0, info: 0, none: 0}
    const report: AuditReport = {
      apiVersion: 'kubectl-why/v1', kind: 'AuditReport', scope: {allNamespaces: true}, evaluatedAt: '2026-11-29T10:00:00.000Z', source: {mode: 'snapshot'},
      summary: {
        failOn: 'warning', failing: 1, findings: {...zero, warning: 1, info: 1},
        checks: [{name: 'gc', controller: 'garbagecollector', description: 'd', status: 'partial', evaluated: 2, findings: {...zero, warning: 1, info: 1}, verdicts: {delete: 2}, problems: [{what: 'list "x"', reason: nasty}], notes: []}],
        notChecked: [{apiVersion: 'batch/v1', kind: 'CronJob', resource: 'cronjobs', reason: 'Forbidden', status: 403, message: nasty, checks: ['gc'],
          rule: {apiGroups: ['batch'], resources: ['cronjobs'], verbs: ['get', 'list']}, command: 'kubectl create clusterrole NAME --verb=get,list --resource=cronjobs.batch'}],
        reads: {lists: 1, gets: 0, objects: 2},
      },
      findings: [finding('warning', 'w&<x>'), finding('info', 'i"y"')],
    }
    const root = parseXml(renderJunit(report))
    assertJunit(root)
    const cases = root.children[0].children.filter((c) => c.name === 'testcase')
    assert.deepEqual(cases.map((c) => [c.attributes.name, c.children.map((x) => x.name)]), [
      ['delete: ConfigMap shop/w&<x>', ['failure']], ['delete: ConfigMap shop/i"y"', ['system-out']], ['not checked: CronJob.batch', ['skipped']]])
    // The forbidden BEL is dropped, everything else comes back as written.
    assert.equal(cases[0].children[0].attributes.message, `warning: ${nasty.replace('\u0007', '')}`)
    assert.match(cases[2].children[0].attributes.message, /kubectl create clusterrole NAME --verb=get,list --resource=cronjobs\.batch$/)
  })
})
