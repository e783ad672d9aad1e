// "Did you mean this?" as cobra's SuggestionsFor: Levenshtein distance ≤ 2 ignoring case, or a prefix. The
// expected suggestions are worked by hand in each case.
import assert from 'node:assert/strict'
import {test} from 'node:test'
import {didYouMean, ld, suggestionsFor} from '../../src/util/suggestions.js'
import {runCli} from '../support/cli.js'

test('ld: the Levenshtein distance, case ignored when asked', () => {
  assert.equal(ld('kitten', 'sitting', false), 3) // k→s, e→i, +g
  assert.equal(ld('', 'abc', false), 3)
  assert.equal(ld('GC', 'gc', true), 0)
  assert.equal(ld('GC', 'gc', false), 2)
  assert.equal(ld('evicetd', 'evicted', true), 2) // e↔t swapped: two substitutions
})

test('suggestionsFor: within distance 2, or starting with what was typed, in the order given', () => {
  const commands = ['audit', 'completion', 'evicted', 'gc', 'hash', 'node', 'replicas', 'snapshot']
  assert.deepEqual(suggestionsFor('evicetd', commands), ['evicted'])
  assert.deepEqual(suggestionsFor('hsah', commands), ['hash']) // h,s→a,a→s,h: 2 substitutions
  // "n": gc by distance (n→g, +c = 2), node by prefix; hash is 4 away.
  assert.deepEqual(suggestionsFor('n', commands), ['gc', 'node'])
  assert.deepEqual(suggestionsFor('REPL', commands), ['replicas']) // a prefix, case ignored
  assert.deepEqual(suggestionsFor('nosuch', commands), [])
  assert.equal(didYouMean([]), '')
  assert.equal(didYouMean(['gc', 'node']), '\n\nDid you mean this?\n\tgc\n\tnode\n')
})

test("a mistyped command: its own word (not oclif's colon-joined id), the suggestions as kubectl prints them, exit 2", async () => {
  const r = await runCli(['evicetd', 'pod/x'])
  assert.equal(r.code, 2)
  assert.equal(r.stderr, 'error: unknown command "evicetd" for "kubectl why"\n\nDid you mean this?\n\tevicted\n\n')
  const n = await runCli(['n', 'worker-1'])
  assert.equal(n.stderr, 'error: unknown command "n" for "kubectl why"\n\nDid you mean this?\n\tgc\n\tnode\n\n')
})

test('a mistyped command holding a C1 CSI (U+009B) is shown visibly, not sent to the terminal raw', async () => {
  // JSON.stringify leaves U+009B as it is; the terminal sanitiser shows it as \x9b (src/render/terminal-safe.ts).
  const r = await runCli(['x\u009b2J', 'pod/x'])
  assert.equal(r.code, 2)
  assert.equal(r.stderr.includes('\u009b'), false)
  assert.match(r.stderr, /^error: unknown command "x\\x9b2J" for "kubectl why"/)
})
