// The node-pressure replay over a dump (src/engine/podeviction/kubelet.ts): the message parsed as helpers.go
// evictionMessage writes it, and the neighbours placed against the evicted pod by rankMemoryPressure's
// comparators where the data (requests, priorities, no usage stats) allows. Worked by hand per case.
import assert from 'node:assert/strict'
import {describe, test} from 'node:test'
import {DEFAULT_EVICTION_HARD, parseEvictionMessage, replayNodePressure} from '../../../src/engine/podeviction/kubelet.js'
import type {NodeLike, PodLike} from '../../../src/engine/podeviction/types.js'

// nodeLowMessageFmt "The node was low on resource: %v. " + thresholdMetMessageFmt "Threshold quantity: %v, available: %v. "
// + containerMessageFmt "Container %s was using %s, request is %s, has larger consumption of %v. "
const NEW =
  'The node was low on resource: memory. Threshold quantity: 100Mi, available: 91572Ki. Container app was using 1520852Ki, request is 256Mi, has larger consumption of memory. '
// The older containerMessageFmt "Container %s was using %s, which exceeds its request of %s. " and no threshold part.
const OLD = 'The node was low on resource: memory. Container app was using 600Mi, which exceeds its request of 0. '

const pod = (name: string, priority: number, memory: {requests?: string; limits?: string}, phase = 'Running'): PodLike => ({
  metadata: {name, namespace: 'ns'},
  spec: {
    nodeName: 'n1',
    priority,
    containers: [{name: 'app', resources: {requests: memory.requests ? {memory: memory.requests} : {}, limits: memory.limits ? {memory: memory.limits} : {}}}],
  },
  status: {phase},
})
const node: NodeLike = {
  metadata: {name: 'n1', labels: {'kubernetes.io/os': 'linux'}},
  status: {conditions: [{type: 'MemoryPressure', status: 'True', lastTransitionTime: '2026-06-01T11:58:00Z'}]},
}

describe('parseEvictionMessage', () => {
  test('the current format: resource, threshold, available, the container above its request', () => {
    assert.deepEqual(parseEvictionMessage(NEW), {
      resource: 'memory',
      threshold: '100Mi',
      available: '91572Ki',
      containers: [{name: 'app', usage: '1520852Ki', request: '256Mi'}],
    })
  })
  test('the older format: no threshold part, "which exceeds its request of"', () => {
    assert.deepEqual(parseEvictionMessage(OLD), {resource: 'memory', containers: [{name: 'app', usage: '600Mi', request: '0'}]})
  })
  test('not an eviction message', () => {
    assert.equal(parseEvictionMessage('Pod was rejected: The node had condition: [MemoryPressure]. '), undefined)
  })
})

describe('replayNodePressure', () => {
  const evicted = pod('victim', 0, {requests: '256Mi'})
  test('signal, default threshold, QoS, above request; neighbours by priority', () => {
    const r = replayNodePressure({
      pod: evicted,
      message: NEW,
      node,
      podsOnNode: [
        evicted,
        pod('cheap', -10, {requests: '64Mi'}),
        pod('same', 0, {}),
        pod('important', 1000, {requests: '1Gi', limits: '1Gi'}),
        pod('gone', -10, {}, 'Failed'),
      ],
    })
    assert.deepEqual(r.signals, ['memory.available', 'allocatableMemory.available'])
    assert.equal(r.condition?.type, 'MemoryPressure')
    // 100Mi is defaults_linux.go's memory.available.
    assert.equal(r.thresholdIsDefault, true)
    assert.equal(r.rank, 'rankMemoryPressure')
    assert.equal(r.qosClass, 'Burstable')
    assert.equal(r.aboveRequest, true)
    // The Failed pod is not active: not ranked. cheap (priority −10 < 0) would have gone first had it been above its
    // request; same priority → usage decides; important (1000 > 0) ranks after whatever its usage.
    assert.deepEqual(
      r.neighbours.map((n) => [n.name, n.standing]),
      [
        ['ns/cheap', 'precedesIfAboveRequest'],
        ['ns/same', 'dependsOnUsage'],
        ['ns/important', 'rankedAfter'],
      ],
    )
  })
  test('a configured threshold (500Mi on Linux) is not the default', () => {
    const r = replayNodePressure({pod: evicted, message: NEW.replace('100Mi', '500Mi'), node, podsOnNode: []})
    assert.equal(r.thresholdIsDefault, false)
  })
  test('Windows defaults: memory.available 500Mi', () => {
    assert.equal(DEFAULT_EVICTION_HARD.windows['memory.available'], '500Mi')
    const win = {...node, metadata: {name: 'n1', labels: {'kubernetes.io/os': 'windows'}}}
    assert.equal(replayNodePressure({pod: evicted, message: NEW.replace('100Mi', '500Mi'), node: win, podsOnNode: []}).thresholdIsDefault, true)
  })
  test('a critical neighbour is never a candidate', () => {
    const r = replayNodePressure({pod: evicted, message: NEW, node, podsOnNode: [pod('dns', 2000000000, {})]})
    assert.equal(r.neighbours[0].standing, 'critical')
  })
})
