// Names derived from hashes, with the length limits worked out from the upstream rules.
import assert from 'node:assert/strict'
import {describe, it} from 'node:test'
import {daemonSetRevisionName, generateReplicaSetName, replicaSetNameFor} from '../../src/hash/names.js'

describe('generateReplicaSetName (sync.go, 1.34+)', () => {
  it('is <deployment>-<hash> when that fits 253 characters', () => {
    assert.equal(generateReplicaSetName('web', '5c649576f'), 'web-5c649576f')
    const fits = 'a'.repeat(243) // 243 + 1 + 9 = 253
    assert.equal(generateReplicaSetName(fits, '5c649576f'), `${fits}-5c649576f`)
  })

  it('cuts the deployment name so the whole name is 253 characters', () => {
    const long = 'b'.repeat(250)
    const name = generateReplicaSetName(long, '5c649576f')
    assert.equal(name, `${'b'.repeat(243)}-5c649576f`)
    assert.equal(name.length, 253)
    // a 10-character hash leaves 242
    assert.equal(generateReplicaSetName(long, '6c5f67b5f7'), `${'b'.repeat(242)}-6c5f67b5f7`)
  })
})

describe('the ReplicaSet name by controller version', () => {
  it('before 1.34 the name is never cut, and one over 253 characters cannot be created', () => {
    const long = 'c'.repeat(250)
    const r = replicaSetNameFor(33, long, '5c649576f')
    assert.equal(r.name, `${long}-5c649576f`)
    assert.match(r.warning ?? '', /260 characters, over the 253 limit/)
    assert.deepEqual(replicaSetNameFor(33, 'web', 'h'), {name: 'web-h'})
    assert.equal(replicaSetNameFor(34, long, '5c649576f').name.length, 253)
  })
})

describe('the DaemonSet ControllerRevision name (daemon/update.go snapshot)', () => {
  it('is <daemonset>-<hash>, never cut', () => {
    assert.equal(daemonSetRevisionName('agent', '7d9f4b6c8'), 'agent-7d9f4b6c8')
    assert.equal(daemonSetRevisionName('d'.repeat(250), 'x').length, 252)
  })
})
