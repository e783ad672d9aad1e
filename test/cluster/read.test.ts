// The read toolkit every driver and the audit share: a whole list over pages with the 410 restart, the bounded pool,
// a failed read in one line.
import assert from 'node:assert/strict'
import {describe, it} from 'node:test'
import {listAll, PAGE_SIZE, pool, readFailure, readProblem} from '../../src/cluster/read.js'
import type {ClusterSource, KubeObject, ListRequest} from '../../src/cluster/source.js'
import {ReadError} from '../../src/errors.js'

const obj = (name: string): KubeObject => ({apiVersion: 'v1', kind: 'Pod', metadata: {name}})

/** A source whose pages() hands out a, b, then (as a source does on an expired continue token) restarts: a, b, c. */
function restartingSource(seen: ListRequest[]): ClusterSource {
  return {
    async *pages(request: ListRequest) {
      seen.push(request)
      yield [obj('a'), obj('b')]
      request.onRestart?.()
      yield [obj('a'), obj('b')]
      yield [obj('c')]
    },
  } as unknown as ClusterSource
}

describe('listAll', () => {
  it('asks for PAGE_SIZE pages and keeps one consistent list across a restart: a, b, c (not a, b, a, b, c)', async () => {
    const seen: ListRequest[] = []
    const items = await listAll(restartingSource(seen), {apiVersion: 'v1', kind: 'Pod'})
    assert.deepEqual(
      items.map((o) => o.metadata?.name),
      ['a', 'b', 'c'],
    )
    assert.equal(seen[0].pageSize, PAGE_SIZE)
  })
  it('keeps each item as map makes it', async () => {
    const items = await listAll(restartingSource([]), {apiVersion: 'v1', kind: 'Pod'}, (o) => ({...o, kind: 'Slim'}))
    assert.deepEqual(
      items.map((o) => o.kind),
      ['Slim', 'Slim', 'Slim'],
    )
  })
})

describe('pool', () => {
  it('never has more than width calls in flight, and takes every item once, in order', async () => {
    let inFlight = 0
    let most = 0
    const started: number[] = []
    const gates: (() => void)[] = []
    const run = pool([10, 11, 12, 13, 14], 2, async (item, index) => {
      started.push(item)
      assert.equal(item, 10 + index)
      inFlight++
      most = Math.max(most, inFlight)
      await new Promise<void>((resolve) => gates.push(resolve))
      inFlight--
    })
    // Release the calls one by one: each release lets the next item start.
    while (started.length < 5 || gates.length > 0) {
      await new Promise((r) => setImmediate(r))
      gates.shift()?.()
    }
    await run
    assert.equal(most, 2)
    assert.deepEqual(started, [10, 11, 12, 13, 14])
  })
  it('with no items, calls nothing', async () => {
    let calls = 0
    await pool([], 4, async () => {
      calls++
    })
    assert.equal(calls, 0)
  })
})

describe('readFailure', () => {
  it('the reason and status of an API error, else the message', () => {
    const forbidden = new ReadError('Forbidden', 'pods is forbidden', {status: 403})
    assert.equal(readFailure(forbidden), 'Forbidden (403): pods is forbidden')
    assert.equal(readFailure(new Error('socket hang up')), 'socket hang up')
    assert.deepEqual(readProblem('list v1 Pod', forbidden), {what: 'list v1 Pod', reason: 'Forbidden (403): pods is forbidden'})
  })
})
