// bin/heap.js: the heap sized from the container's memory limit. The numbers are worked by hand from its rule:
// old space = limit − max(160 MiB, 20 % of the limit), none below 128 MiB, nothing when no limit or a heap flag.
import assert from 'node:assert/strict'
import {createRequire} from 'node:module'
import {test} from 'node:test'

const require = createRequire(import.meta.url)
const {heapFor} = require('../bin/heap.js') as {heapFor: (limit: number, total: number, flags: string) => number | undefined}
const MiB = 2 ** 20
const TOTAL = 24 * 1024 * MiB

test('a 1 GiB limit: 1024 − max(160, 204.8→205) = 819 MiB of old space', () => {
  assert.equal(heapFor(1024 * MiB, TOTAL, ''), 819)
})

test('2 GiB: 2048 − 410 = 1638; 512 MiB: the 160 MiB floor, 352', () => {
  assert.equal(heapFor(2048 * MiB, TOTAL, ''), 1638)
  assert.equal(heapFor(512 * MiB, TOTAL, ''), 352)
})

test('no limit: cgroup v1 reports 2^63 rounded down to a page, v2 "max" (libuv: the machine total or more)', () => {
  assert.equal(heapFor(Number(9223372036854771712n), TOTAL, ''), undefined)
  assert.equal(heapFor(TOTAL, TOTAL, ''), undefined)
  assert.equal(heapFor(0, TOTAL, ''), undefined)
})

test('a heap flag given (NODE_OPTIONS or node’s own arguments) is the user’s choice', () => {
  assert.equal(heapFor(1024 * MiB, TOTAL, '--max-old-space-size=600'), undefined)
  assert.equal(heapFor(1024 * MiB, TOTAL, ' --max_old_space_size=600'), undefined)
})

test('a limit too small to leave 128 MiB of heap (256 MiB → 96): left to node’s own default', () => {
  assert.equal(heapFor(256 * MiB, TOTAL, ''), undefined)
})
