// compareStrings orders as Go's `<` does (bytes), whatever the machine's locale; and nothing in src/ sorts by
// locale (localeCompare, Intl.Collator): its order changes with the machine, and its first use costs ~10 ms.
import assert from 'node:assert/strict'
import {readdirSync, readFileSync} from 'node:fs'
import {join} from 'node:path'
import {test} from 'node:test'
import {compareStrings} from '../../src/util/compare.js'

test('compareStrings: byte order, worked by hand from the ASCII table', () => {
  // '-' 0x2d < '1' 0x31 < '9' 0x39 < 'B' 0x42 < '_' 0x5f < 'a' 0x61 < 'b' 0x62; a prefix sorts first.
  const sorted = ['b', 'a', 'B', '_x', '-y', '9', '10', 'ab', 'a'].sort(compareStrings)
  assert.deepEqual(sorted, ['-y', '10', '9', 'B', '_x', 'a', 'a', 'ab', 'b'])
  assert.equal(compareStrings('web-1', 'web-1'), 0)
  // The collator would put 'a' before 'B' (case second); Go puts 'B' first.
  assert.ok(compareStrings('B', 'a') < 0)
})

test('src/ sorts no strings by locale', () => {
  const files = (dir: string): string[] =>
    readdirSync(dir, {withFileTypes: true}).flatMap((e) => (e.isDirectory() ? files(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : []))
  const offenders = files('src').filter((f) => /\.localeCompare\(|Intl\.Collator/.test(readFileSync(f, 'utf8').replace(/^\s*\/\/.*$/gm, '')))
  assert.deepEqual(offenders, [])
})
