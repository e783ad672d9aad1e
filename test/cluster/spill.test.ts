// SpilledObjects (src/cluster/spill.ts) gives back what it was given, in order: across chunks, with text JSON must
// escape, and with an object JSON cannot write (an int64 beyond 2^53, kept as a bigint) in its place.
import assert from 'node:assert/strict'
import {test} from 'node:test'
import type {KubeObject} from '../../src/cluster/source.js'
import {SpilledObjects} from '../../src/cluster/spill.js'

const pod = (i: number): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: {name: `web-${i}`, namespace: `ns-${i % 7}`, labels: {app: 'web', note: 'line\nbreak, "quoted" \u2028 é 🚀'}},
  spec: {nodeName: `node-${i % 13}`, tolerations: [{key: 'k', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: i}]},
})

test('objects come back equal and in order, over several chunks, one kept as it is for its bigint', () => {
  const s = new SpilledObjects()
  const given: KubeObject[] = []
  for (let i = 0; i < 3000; i++) {
    // 3,000 pods of ~300 bytes of JSON: more than one 256 KiB chunk.
    const o = i === 1234 ? {...pod(i), spec: {tolerations: [{tolerationSeconds: 2n ** 60n}]}} : pod(i)
    given.push(o)
    s.add(o)
  }
  assert.equal(s.count, 3000)
  const chunks = [...s.chunksOf()]
  assert.ok(chunks.length > 2, `${chunks.length} chunks`)
  const back = chunks.flat()
  assert.equal(back.length, 3000)
  assert.deepEqual(back, given)
  assert.equal((back[1234].spec as {tolerations: {tolerationSeconds: bigint}[]}).tolerations[0].tolerationSeconds, 2n ** 60n)
  // Compressed: far less than the JSON text (3,000 × ~300 bytes).
  assert.ok(s.bytes < 300_000 / 4, `${s.bytes} bytes`)
  // Read twice, the same again (chunks are not consumed).
  assert.deepEqual([...s.chunksOf()].flat(), given)
})

test('nothing added: no chunk', () => {
  assert.deepEqual([...new SpilledObjects().chunksOf()], [])
})
