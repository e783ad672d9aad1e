// Label selector semantics of k8s.io/apimachinery/pkg/labels: "!=" and "notin" match objects that lack
// the key; "in" and "=" require it; "!key" requires absence; requirements are ANDed.
import assert from 'node:assert/strict'
import {test} from 'node:test'
import {parseFieldSelector, parseLabelSelector} from '../../src/cluster/selectors.js'
import {UserError} from '../../src/errors.js'

test('equality, inequality and their behaviour on a missing key', () => {
  assert.equal(parseLabelSelector('app=web')({app: 'web'}), true)
  assert.equal(parseLabelSelector('app==web')({app: 'db'}), false)
  assert.equal(parseLabelSelector('app!=web')({}), true)
  assert.equal(parseLabelSelector('app!=web')(undefined), true)
  assert.equal(parseLabelSelector('app=web')(undefined), false)
})

test('set-based requirements', () => {
  const sel = parseLabelSelector('env in (prod, staging),tier notin (db)')
  assert.equal(sel({env: 'prod'}), true)
  assert.equal(sel({env: 'prod', tier: 'db'}), false)
  assert.equal(sel({env: 'dev'}), false)
  assert.equal(sel({tier: 'web'}), false)
})

test('existence and absence; empty selector matches everything', () => {
  assert.equal(parseLabelSelector('canary')({canary: ''}), true)
  assert.equal(parseLabelSelector('!canary')({canary: 'x'}), false)
  assert.equal(parseLabelSelector('!canary')({}), true)
  assert.equal(parseLabelSelector('')({}), true)
  assert.equal(parseLabelSelector('app.kubernetes.io/name=x')({'app.kubernetes.io/name': 'x'}), true)
})

test('malformed selectors are a UserError', () => {
  assert.throws(() => parseLabelSelector('app in web'), UserError)
  assert.throws(() => parseLabelSelector('!app=web'), UserError)
  assert.throws(
    () => parseFieldSelector('spec.replicas=3'),
    (e: Error) => e instanceof UserError && /not supported/.test(e.message),
  )
})

test('event and pod field selectors, as the API server accepts them', () => {
  const event = {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: {name: 'e', namespace: 'shop'},
    involvedObject: {kind: 'ReplicaSet', name: 'web-1', uid: 'u1'},
    reason: 'FailedCreate',
    type: 'Warning',
    source: {component: 'replicaset-controller'},
  }
  assert.equal(parseFieldSelector('involvedObject.kind=ReplicaSet,involvedObject.name=web-1')(event), true)
  assert.equal(parseFieldSelector('involvedObject.uid=u2')(event), false)
  assert.equal(parseFieldSelector('reason=FailedCreate,type=Warning,source=replicaset-controller')(event), true)
  assert.equal(parseFieldSelector('status.phase=Running')({metadata: {}, status: {phase: 'Running'}}), true)
  assert.equal(parseFieldSelector('status.phase!=Running')({metadata: {}}), true)
})
