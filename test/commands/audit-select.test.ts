// Choosing what the audit reports, over the incident example (examples/incident.md: four findings — ReplicaSet
// shop/checkout-6b5f97d66c, ConfigMap shop/web-canary-env, Node worker-c1, Pod shop/web-85d7f67c4d-2xk9p): -l and
// --field-selector on the objects' own labels and fields, --skip-checks, --ignore suppression files (listed, counted,
// expiring), --sort, --limit, and the colours of --color. Expected values come from the objects in
// examples/incident.yaml, read by hand. Run `npm run build` first.
import assert from 'node:assert/strict'
import {mkdtempSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {describe, test} from 'node:test'
import {fileURLToPath} from 'node:url'
import {auditSchema} from '../audit/schema.js'
import {runCli} from '../support/cli.js'

// biome-ignore lint/suspicious/noExplicitAny: the report's JSON, read field by field
type Any = any
const INCIDENT = fileURLToPath(new URL('../../examples/incident.yaml', import.meta.url))
const ZONE = fileURLToPath(new URL('../../examples/node-zone-outage.json', import.meta.url))
const NOW = '2026-11-29T10:00:00Z'
const dir = mkdtempSync(join(tmpdir(), 'audit-select-'))
const valid = auditSchema()
const subject = (f: Any) => `${f.subject.kind} ${f.subject.namespace ? `${f.subject.namespace}/` : ''}${f.subject.name}`

async function audit(args: string[], file = INCIDENT): Promise<{code: number; json: Any; stderr: string}> {
  const r = await runCli(['audit', '-A', '-f', file, '--now', NOW, '-o', 'json', ...args])
  assert.ok(r.stdout.startsWith('{'), `${args.join(' ')}: exit ${r.code}: ${r.stderr}`)
  const json = JSON.parse(r.stdout)
  // Every report here, with its selection and suppressions, is an AuditReport as schemas/audit-report.json has it.
  assert.ok(valid(json), JSON.stringify(valid.errors, null, 1))
  return {code: r.code, json, stderr: r.stderr}
}

function ignoreFile(text: string): string {
  const f = join(dir, `ignore-${Math.random().toString(36).slice(2)}.yaml`)
  writeFileSync(f, text)
  return f
}

describe('-l and --field-selector: the findings about matching objects', () => {
  test('-l app=checkout: the ReplicaSet (labels app=checkout) only; the others are counted as left out', async () => {
    const r = await audit(['-l', 'app=checkout'])
    assert.deepEqual(r.json.findings.map(subject), ['ReplicaSet shop/checkout-6b5f97d66c'])
    assert.deepEqual(r.json.summary.selection, {labelSelector: 'app=checkout', excluded: {hash: 0, gc: 1, deleting: 0, node: 1, evicted: 1, replicas: 0}})
    assert.equal(r.code, 1, 'the ReplicaSet is critical')
  })
  test('-l app=web,pod-template-hash=85d7f67c4d: the web pod on worker-c1', async () => {
    assert.deepEqual((await audit(['-l', 'app=web,pod-template-hash=85d7f67c4d'])).json.findings.map(subject), ['Pod shop/web-85d7f67c4d-2xk9p'])
  })
  test('--field-selector spec.nodeName=worker-c1: pods on that node (the ConfigMap, the Node and the ReplicaSet have no such field)', async () => {
    assert.deepEqual((await audit(['--field-selector', 'spec.nodeName=worker-c1'])).json.findings.map(subject), ['Pod shop/web-85d7f67c4d-2xk9p'])
  })
  test('--field-selector metadata.namespace=shop: the three namespaced findings; the Node has no namespace', async () => {
    const r = await audit(['--field-selector', 'metadata.namespace=shop'])
    assert.deepEqual(r.json.findings.map(subject).sort(), [
      'ConfigMap shop/web-canary-env',
      'Pod shop/web-85d7f67c4d-2xk9p',
      'ReplicaSet shop/checkout-6b5f97d66c',
    ])
  })
  test('a selector that matches nothing: no findings, exit 0', async () => {
    const r = await audit(['-l', 'app=none'])
    assert.deepEqual([r.code, r.json.findings.length], [0, 0])
  })
  test('bad selectors are usage errors (exit 2, one line)', async () => {
    for (const args of [
      ['-l', 'app in ('],
      ['--field-selector', 'spec.bogus=x'],
    ]) {
      const r = await runCli(['audit', '-A', '-f', INCIDENT, ...args])
      assert.equal(r.code, 2, args.join(' '))
      assert.equal(r.stderr.trim().split('\n').length, 1)
    }
  })
})

describe('--checks and --skip-checks', () => {
  test('--skip-checks gc,node: the other four run; the two are not selected', async () => {
    const r = await audit(['--skip-checks', 'gc,node'])
    assert.deepEqual(
      r.json.summary.checks.map((c: Any) => [c.name, c.status]),
      [
        ['hash', 'complete'],
        ['gc', 'notSelected'],
        ['deleting', 'complete'],
        ['node', 'notSelected'],
        ['evicted', 'complete'],
        ['replicas', 'complete'],
      ],
    )
    assert.deepEqual(r.json.findings.map(subject), ['ReplicaSet shop/checkout-6b5f97d66c', 'Pod shop/web-85d7f67c4d-2xk9p'])
  })
})

describe('--ignore FILE', () => {
  test('a suppressed finding is listed with its rule and reason, counted, and leaves the exit code', async () => {
    const f = ignoreFile(`suppressions:
  - check: gc
    verdict: delete
    namespace: shop
    name: web-canary-*
    reason: the release job deletes canary configs
  - check: replicas
    name: checkout-*
    reason: quota raised in TICKET-1
  - check: node
    reason: every node, until the zone is back
  - check: evicted
    reason: pods on worker-c1
`)
    const r = await audit(['--ignore', f])
    assert.deepEqual(r.json.findings, [])
    assert.equal(r.code, 0)
    assert.equal(r.json.suppressed.count, 4)
    assert.deepEqual(
      r.json.suppressed.findings.map((x: Any) => [x.rule, x.check, x.verdict, x.severity, `${x.subject.namespace ?? ''}/${x.subject.name}`]).sort(),
      [
        [1, 'gc', 'delete', 'warning', 'shop/web-canary-env'],
        [2, 'replicas', 'createsFailing', 'critical', 'shop/checkout-6b5f97d66c'],
        [3, 'node', 'unhealthy', 'warning', '/worker-c1'],
        [4, 'evicted', 'evictAt', 'warning', 'shop/web-85d7f67c4d-2xk9p'],
      ].sort(),
    )
    assert.deepEqual(
      r.json.summary.checks.map((c: Any) => c.suppressed),
      [0, 1, 0, 1, 1, 1],
    )
    assert.match(r.json.summary.line, /4 suppressed/)
  })
  test('an expired rule no longer applies, and says so; a rule that matches nothing counts 0', async () => {
    const f = ignoreFile(`- check: gc
  name: web-canary-env
  reason: was to be cleaned up by November
  expires: 2026-11-28
- check: gc
  name: something-else
  reason: never matches
  expires: 2026-11-29T10:00:01Z
`)
    const r = await audit(['--ignore', f])
    // 2026-11-28 as a date runs through the end of that day UTC: before the evaluation instant 2026-11-29T10:00:00Z.
    assert.deepEqual(
      r.json.suppressed.rules.map((x: Any) => [x.index, x.expires, x.expired, x.matched]),
      [
        [1, '2026-11-29T00:00:00.000Z', true, 1],
        [2, '2026-11-29T10:00:01.000Z', false, 0],
      ],
    )
    assert.equal(r.json.suppressed.count, 0)
    assert.equal(r.json.suppressed.expiredMatches, 1)
    assert.ok(r.json.findings.some((x: Any) => x.subject.name === 'web-canary-env'))
    const table = await runCli(['audit', '-A', '-f', INCIDENT, '--now', NOW, '--ignore', f])
    assert.match(
      table.stdout,
      /rule 1 \(gc web-canary-env\) expired at 2026-11-29T00:00:00.000Z: no longer applies — 1 finding\(s\) it matched are reported again/,
    )
  })
  test('a file that is not a list of entries with check and reason is a usage error naming the entry', async () => {
    for (const [text, message] of [
      ['- check: gc\n', /entry 1: reason is required/],
      ['- check: gc\n  reason: x\n  namespaces: shop\n', /entry 1: unknown field "namespaces"/],
      ['- check: hpa\n  reason: x\n', /entry 1: unknown check "hpa"/],
      ['- check: gc\n  reason: x\n  expires: 2026-02-30\n', /entry 1: expires "2026-02-30" is not a calendar date/],
      ['just text\n', /no suppressions list/],
    ] as [string, RegExp][]) {
      const r = await runCli(['audit', '-A', '-f', INCIDENT, '--ignore', ignoreFile(text)])
      assert.equal(r.code, 2, text)
      assert.match(r.stderr, message)
      assert.equal(r.stderr.trim().split('\n').length, 1)
    }
  })
})

describe('--sort', () => {
  test('age: oldest object first (Node worker-c1 2026-10-01, ConfigMap 2026-11-28T15:00, ReplicaSet 11-29T08:00:00, Pod 08:00:01)', async () => {
    assert.deepEqual((await audit(['--sort', 'age'])).json.findings.map(subject), [
      'Node worker-c1',
      'ConfigMap shop/web-canary-env',
      'ReplicaSet shop/checkout-6b5f97d66c',
      'Pod shop/web-85d7f67c4d-2xk9p',
    ])
  })
  test('name: namespace/name (the Node has no namespace)', async () => {
    assert.deepEqual((await audit(['--sort', 'name'])).json.findings.map(subject), [
      'Node worker-c1',
      'ReplicaSet shop/checkout-6b5f97d66c',
      'Pod shop/web-85d7f67c4d-2xk9p',
      'ConfigMap shop/web-canary-env',
    ])
  })
})

describe('the table for many findings', () => {
  test('grouped by check and verdict with counts; --limit 1 shows one of each and says how many more', async () => {
    const r = await runCli(['audit', '-A', '-f', ZONE, '--limit', '1'])
    const lines = r.stdout.split('\n')
    // node-zone-outage.md: four unhealthy nodes (worker-c1..c4).
    const node = lines.findIndex((l) => /^node — 4 findings: unhealthy 4$/.test(l))
    assert.ok(node > 0, r.stdout)
    assert.match(lines[node + 1], /^ {2}unhealthy \(warning\): 4, the first 1$/)
    assert.match(lines[node + 2], /^warning +node +unhealthy +Node worker-c\d$/)
    // Then the finding's summary and next steps (as many lines as they take), then how many more.
    assert.match(lines.slice(node + 3).find((l) => !l.startsWith('   '))!, /^ {2}… and 3 more unhealthy$/)
    assert.match(r.stdout, /finding\(s\) not shown: -o wide lists every finding, -o json is the whole report/)
    // The summary line: node 4 warning (above); evicted 4 warning — 3 evicted and 1 evictAt (node-zone-outage.md).
    assert.match(
      lines.filter(Boolean).at(-1)!,
      /^kubectl-why audit FAILED: 0 critical, \d+ warning, \d+ info — hash clean; gc [^;]+; deleting clean; node 4 warning; evicted 4 warning; replicas clean$/,
    )
    const wide = await runCli(['audit', '-A', '-f', ZONE, '-o', 'wide', '--limit', '1'])
    assert.equal(wide.stdout.split('\n').filter((l) => /^warning +node +unhealthy/.test(l)).length, 4, '-o wide lists them all')
  })
})

describe('--color', () => {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the escape that starts an ANSI colour
  const ESC = /\u001B\[/
  const table = (args: string[], env: Record<string, string | undefined>) =>
    runCli(['audit', '-A', '-f', INCIDENT, '--now', NOW, ...args], {env: {NO_COLOR: undefined, FORCE_COLOR: undefined, ...env}})
  test('auto: none through a pipe; FORCE_COLOR=1 gives colours through the pipe (as chalk reads it); NO_COLOR turns them off', async () => {
    assert.doesNotMatch((await table([], {})).stdout, ESC)
    assert.match((await table([], {FORCE_COLOR: '1'})).stdout, ESC)
    assert.doesNotMatch((await table([], {FORCE_COLOR: '0'})).stdout, ESC)
    assert.doesNotMatch((await table([], {NO_COLOR: '1'})).stdout, ESC)
  })
  test("always and never are the user's word; --no-color is never", async () => {
    assert.match((await table(['--color', 'always'], {NO_COLOR: '1'})).stdout, ESC)
    assert.doesNotMatch((await table(['--color=never'], {FORCE_COLOR: '1'})).stdout, ESC)
    assert.doesNotMatch((await table(['--no-color'], {FORCE_COLOR: '3'})).stdout, ESC)
  })
})
