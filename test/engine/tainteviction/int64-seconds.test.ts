// tolerationSeconds is a Go int64 with no range check in validation, and getMinTolerationTime
// (pkg/controller/tainteviction/taint_eviction.go@5ce22905:161-183) returns time.Duration(min) * time.Second, an
// int64 multiplication that wraps. A pod with such a value is one the API server serves: the dump reader keeps it
// (values beyond 2^53 as bigint) and `evicted` replays what Go computes. Worked by hand:
// - 9223372036854775807 (math.MaxInt64): upstream's "none set" sentinel → -1 → forever;
// - 9223372037: 9223372037 × 10^9 = 9223372037000000000 > 2^63 - 1, wraps to 9223372037000000000 - 2^64 =
//   -9223372036709551616 ns < 0 → processPodOnNode reads it as forever;
// - 2^60 = 1152921504606846976: 2^60 × 10^9 = 2^69 × 5^9, a multiple of 2^64 → 0 ns → deleted at once;
// - 9223372036: 9223372036000000000 ≤ 2^63 - 1, no wrap: a timer of 9223372036 s (~292 years) from the taint.
// The pod and node are test/fixtures/evictions/taint-manager.yaml's, before the deletion (no deletionTimestamp, no
// DisruptionTarget, no event); the unreachable taint was added at 09:58:00.
import assert from 'node:assert/strict'
import {mkdtempSync, readFileSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {test} from 'node:test'
import {runCli} from '../../support/cli.js'

const base = readFileSync(new URL('../../fixtures/evictions/taint-manager.yaml', import.meta.url), 'utf8')
  .split('\n- apiVersion: v1\n  kind: Event')[0]
  .replace('    deletionTimestamp: "2026-12-01T10:03:30Z"\n    deletionGracePeriodSeconds: 30\n', '')
  .replace(/ {4}- \{type: DisruptionTarget[^\n]*\n/, '')
const dir = mkdtempSync(join(tmpdir(), 'tol-int64-'))

async function evicted(seconds: string): Promise<{verdict: string; summary: string; tolerations: {tolerationSeconds: unknown}[]; text: string}> {
  const text = base.replace('effect: NoExecute, tolerationSeconds: 300}\n    containers', `effect: NoExecute, tolerationSeconds: ${seconds}}\n    containers`)
  assert.notEqual(text, base)
  const file = join(dir, `${seconds}.yaml`)
  writeFileSync(file, text)
  const r = await runCli(['evicted', 'pod/cart-5b4c3d2e1-r7s8t', '-n', 'shop', '-f', file, '--now', '2026-12-01T10:00:00Z', '-o', 'json'])
  assert.equal(r.stderr, '')
  return {...JSON.parse(r.stdout), text: r.stdout}
}

test('math.MaxInt64 seconds: forever, said to be upstream\'s "none set" sentinel', async () => {
  const e = await evicted('9223372036854775807')
  assert.equal(e.verdict, 'toleratedForever')
  assert.match(e.summary, /math\.MaxInt64/)
  assert.match(e.text, /"tolerationSeconds": 9223372036854775807[,\n]/)
})

test('9223372037 seconds: the Duration wraps negative, forever, said so (not "without tolerationSeconds")', async () => {
  const e = await evicted('9223372037')
  assert.equal(e.verdict, 'toleratedForever')
  assert.match(e.summary, /wraps Go's int64/)
  assert.doesNotMatch(e.summary, /without tolerationSeconds/)
})

test('2^60 seconds: the Duration wraps to 0, deleted at once, said so (not "tolerationSeconds ≤ 0"); the value printed whole', async () => {
  const e = await evicted('1152921504606846976')
  assert.equal(e.verdict, 'evictedImmediately')
  assert.match(e.summary, /1152921504606846976 s × 1e9 ns wraps/)
  assert.doesNotMatch(e.summary, /≤ 0/)
  assert.doesNotMatch(e.text, /1152921504606847000/)
})

test('9223372036 seconds: no wrap, a timer of ~292 years', async () => {
  const e = await evicted('9223372036')
  assert.equal(e.verdict, 'evictAt')
  // 9223372036 s = 2562047 h (9223369200 s) + 2836 s = 2562047h47m16s, as Go's Duration prints it.
  assert.match(e.summary, /: 2562047h47m16s \(the smallest first-match tolerationSeconds/)
})
