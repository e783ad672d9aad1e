import assert from 'node:assert/strict'
import {describe, it} from 'node:test'
import {commandInForce, editCommand, nextStepLines, withCommandsInForce} from '../../src/render/next-steps.js'

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

describe('the source in force in a pipeline or before a comment (issue 28.2)', () => {
  const src = {snapshot: 'd.yaml', context: 'prod'}
  it('is added to each kubectl command of a pipeline, never to the command it pipes into', () => {
    // Before, "--context prod" went at the end of the line: to grep, which rejects it, and not to kubectl logs.
    assert.equal(
      commandInForce('kubectl logs -n kube-system -l component=kube-controller-manager --tail=500 | grep -i garbage', src),
      'kubectl logs -n kube-system -l component=kube-controller-manager --tail=500 --context prod | grep -i garbage',
    )
    // hash --template hashes what is piped in and reads no cluster: nothing added to it; the kubectl get gets the context.
    assert.equal(
      commandInForce('kubectl get replicasets -n shop -o yaml | kubectl why hash --template - --show-serialization', src),
      'kubectl get replicasets -n shop -o yaml --context prod | kubectl why hash --template - --show-serialization',
    )
  })
  it('goes before a trailing comment, and a | or # inside quotes is a word', () => {
    assert.equal(commandInForce('kubectl describe node a   # on it', src), 'kubectl describe node a --context prod   # on it')
    assert.equal(commandInForce("kubectl get pods -l 'a|b' -o 'jsonpath={.x}#'", {context: 'c'}), "kubectl get pods -l 'a|b' -o 'jsonpath={.x}#' --context c")
    assert.equal(commandInForce('journalctl -u kubelet   # on worker-1', src), 'journalctl -u kubelet   # on worker-1')
  })
  it('a dump from stdin: the why says to pipe it in again', () => {
    const lines = nextStepLines([{command: 'kubectl why node n1', why: 'w'}], {snapshot: '-'}, 200, 0)
    assert.deepEqual(lines, ['kubectl why node n1 -f -', '  # w (-f -: pipe the same dump in again)'])
  })
})

describe('withCommandsInForce: JSON carries the command the text prints', () => {
  it('adds commandInForce to every next step at any depth, changes nothing else and leaves the input as it was', () => {
    const step = {command: 'kubectl why node n1', why: 'w'}
    const change = {change: 'Deployment shop/web: spec.replicas', why: 'w'}
    const vague = {change: 'raise the limit', why: 'w'}
    const other = {counts: {keep: 3}, next: 'not steps'}
    const data = {
      kind: 'GcReport',
      other,
      findings: [{next: [step, change, vague], actors: [{actor: 'kubelet', next: [step]}]}],
    }
    const before = JSON.stringify(data)
    const out = withCommandsInForce(data, {snapshot: 'd.yaml'})
    assert.equal(JSON.stringify(data), before, 'the input is not changed')
    assert.equal(out.other, other, 'what holds no next step is shared')
    assert.deepEqual(out.findings[0].next, [
      {command: 'kubectl why node n1', why: 'w', commandInForce: 'kubectl why node n1 -f d.yaml'},
      {change: 'Deployment shop/web: spec.replicas', why: 'w', commandInForce: 'kubectl edit deployment web -n shop'},
      {change: 'raise the limit', why: 'w'},
    ])
    assert.deepEqual(out.findings[0].actors[0].next, [{...step, commandInForce: 'kubectl why node n1 -f d.yaml'}])
  })
})

describe('the connection flags in force (issue 28.2 with 28.5)', () => {
  // Worked by hand: each flag the user typed is added once, after -f/--context's place, in the order kubectl lists
  // them; a value with a space is single-quoted; a flag the command already has is not added again; a credential
  // (--token) is never part of SourceInForce, so it cannot be echoed.
  it('adds --kubeconfig, --cluster, --user and --server to kubectl and kubectl-why commands', () => {
    const src = {kubeconfig: '/tmp/my kube', cluster: 'prod', user: 'oncall', server: 'https://10.0.0.1:6443'}
    assert.equal(
      commandInForce('kubectl why gc pod/x -n a', src),
      "kubectl why gc pod/x -n a --kubeconfig '/tmp/my kube' --cluster prod --user oncall --server https://10.0.0.1:6443",
    )
    assert.equal(
      commandInForce('kubectl get node n1 -s https://other:6443', src),
      "kubectl get node n1 -s https://other:6443 --kubeconfig '/tmp/my kube' --cluster prod --user oncall",
    )
    assert.equal(commandInForce('journalctl -u kubelet', src), 'journalctl -u kubelet')
  })
})
