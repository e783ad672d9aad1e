import assert from 'node:assert/strict'
import {describe, it} from 'node:test'
import {commandInForce, editCommand, nextStepLines} from '../../src/render/next-steps.js'

describe('next steps as pasted', () => {
  it('a kubectl-why command gets the dump and context in force; a kubectl command only the context', () => {
    const src = {snapshot: 'my dumps/incident.yaml', context: 'prod'}
    assert.equal(commandInForce('kubectl why node worker-c1', src), "kubectl why node worker-c1 -f 'my dumps/incident.yaml' --context prod")
    assert.equal(commandInForce('kubectl describe node worker-c1', src), 'kubectl describe node worker-c1 --context prod')
    assert.equal(commandInForce('kubectl why gc job/x -f a.yaml', {snapshot: 'b.yaml'}), 'kubectl why gc job/x -f a.yaml')
    assert.equal(commandInForce('journalctl -u kubelet', src), 'journalctl -u kubelet')
  })
  it('a change names the object to edit', () => {
    assert.equal(editCommand('ResourceQuota shop/shop-quota: spec.hard'), 'kubectl edit resourcequota shop-quota -n shop')
    assert.equal(editCommand('the pod template of ReplicaSet shop/web-1: spec.tolerations'), 'kubectl edit replicaset web-1 -n shop')
    assert.equal(editCommand('raise the limit'), undefined)
  })
  it('the command whole on its line, every line of the why a shell comment', () => {
    const lines = nextStepLines([{command: 'kubectl why node n1', why: 'one two three four five six'}], {}, 20, 2)
    // width 20, indent 2: the why wraps to 20-2-4 = 14 columns after "    # ".
    assert.deepEqual(lines, ['  kubectl why node n1', '    # one two three', '    # four five six'])
  })
})
