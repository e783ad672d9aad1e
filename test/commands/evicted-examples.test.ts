// examples/evicted-memory-pressure.json end to end: what examples/evicted-memory-pressure.md says the tool must
// conclude (worked out by hand there), the JSON validated against schemas/evicted.json, and the table naming the
// actor. Run `npm run build` first.
import assert from 'node:assert/strict'
import {describe, test} from 'node:test'
import {fileURLToPath} from 'node:url'
import {runCli} from '../support/cli.js'
import {validatorFor} from '../support/schemas.js'

// biome-ignore lint/suspicious/noExplicitAny: parsed JSON of a command's output, whose fields the test reads one by one
type Any = any

const EXAMPLE = fileURLToPath(new URL('../../examples/evicted-memory-pressure.json', import.meta.url))
const validEvicted = validatorFor('evicted')
const ARGS = ['evicted', 'pod/cart-6b9d7c5f4-x7k2p', '-n', 'shop', '-f', EXAMPLE]

describe('examples/evicted-memory-pressure.json', () => {
  test('evicted -o json: evictedByKubelet, the kubelet at 10:00:05 by rankMemoryPressure, the neighbours placed', async () => {
    const r = await runCli([...ARGS, '-o', 'json'])
    assert.equal(r.stderr, '', r.stderr)
    assert.equal(r.code, 1)
    const j: Any = JSON.parse(r.stdout)
    assert.ok(validEvicted(j), JSON.stringify(validEvicted.errors))
    assert.deepEqual([j.verdict, j.severity], ['evictedByKubelet', 'warning'])
    assert.deepEqual(
      j.actors.map((a: Any) => [a.actor, a.action, a.at, a.rule]),
      [['kubelet', 'evicted', '2026-11-29T10:00:05Z', 'rankMemoryPressure']],
    )
    assert.equal(j.timeline.disruptedAt, '2026-11-29T10:00:05Z')
    const defaults = j.steps.find((s: Any) => s.rule === 'DefaultEvictionHard')
    assert.equal(defaults.result, 'default')
    const rank = j.steps.find((s: Any) => s.rule === 'rankMemoryPressure')
    assert.deepEqual([rank.inputs.qosClass, rank.inputs.aboveRequest], ['Burstable', true])
    assert.deepEqual(rank.inputs.neighbours.map((n: Any) => [n.pod, n.standing]).sort(), [
      ['kube-system/kube-proxy-ip-10-0-1-7', 'critical'],
      ['shop/cart-6b9d7c5f4-m4q8z', 'dependsOnUsage'],
      ['shop/payments-5f7c9d8b6-q2w4e', 'rankedAfter'],
    ])
    assert.match(
      j.actors[0].next[0].change,
      /ReplicaSet shop\/cart-6b9d7c5f4: spec\.containers\[\]\.resources\.requests\.memory \(cart: memory request ≥ 1520852Ki\)/,
    )
  })
  test('the table names the actor on one line; -o wide adds its evidence', async () => {
    const r = await runCli([...ARGS, '--no-color'])
    assert.match(r.stdout, /evictedByKubelet \(warning\)/)
    assert.match(r.stdout, /^ {2}kubelet {2}evicted {2}2026-11-29T10:00:05Z {2}rankMemoryPressure$/m)
    const w = await runCli([...ARGS, '--no-color', '-o', 'wide'])
    assert.match(w.stdout, /condition DisruptionTarget=True, reason TerminationByKubelet/)
  })
})
