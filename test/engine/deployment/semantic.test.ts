// Semantic.DeepEqual over a PodTemplateSpec, each expectation worked out from the Go rules
// (apimachinery equality/semantic.go and the forked reflect/deep_equal.go): what decodes to equal structs is equal.
import assert from 'node:assert/strict'
import {describe, test} from 'node:test'
import {getLayout} from '../../../src/hash/layouts.js'
import {semanticTemplateEqual} from '../../../src/engine/deployment/semantic.js'

const layout = getLayout('1.31')
const eq = (a: unknown, b: unknown) => semanticTemplateEqual(layout, a, b) && semanticTemplateEqual(layout, b, a)
const c = (container: Record<string, unknown>) => ({spec: {containers: [{name: 'app', image: 'app:1', ...container}]}})

describe('semanticTemplateEqual', () => {
  test('Quantity compares with Cmp: "1" = "1000m", "1Gi" = "1073741824", "500m" ≠ "0.6"', () => {
    assert.equal(eq(c({resources: {limits: {cpu: '1'}}}), c({resources: {limits: {cpu: '1000m'}}})), true)
    assert.equal(eq(c({resources: {requests: {memory: '1Gi'}}}), c({resources: {requests: {memory: '1073741824'}}})), true)
    assert.equal(eq(c({resources: {limits: {cpu: '500m'}}}), c({resources: {limits: {cpu: '0.6'}}})), false)
  })
  test('a nil slice or map equals an empty one', () => {
    assert.equal(eq(c({args: []}), c({})), true)
    assert.equal(eq({metadata: {labels: {}}, spec: {}}, {metadata: {}, spec: {}}), true)
  })
  test('a nil pointer differs from a pointer to a zero struct (securityContext {} vs absent)', () => {
    assert.equal(eq({spec: {securityContext: {}}}, {spec: {}}), false)
    assert.equal(eq({spec: {terminationGracePeriodSeconds: 0}}, {spec: {}}), false)
  })
  test('an absent scalar is its zero value: "" and false and 0', () => {
    assert.equal(eq({spec: {hostname: ''}}, {spec: {}}), true)
    assert.equal(eq({spec: {hostNetwork: false}}, {spec: {}}), true)
    assert.equal(eq(c({ports: [{containerPort: 80, hostPort: 0}]}), c({ports: [{containerPort: 80}]})), true)
  })
  test('IntOrString: 8080 and "8080" are different structs', () => {
    const probe = (port: unknown) => c({livenessProbe: {httpGet: {port}}})
    assert.equal(eq(probe(8080), probe('8080')), false)
    assert.equal(eq(probe('http'), probe('http')), true)
  })
  test('metav1.Time by instant; null is the zero time', () => {
    assert.equal(eq({metadata: {creationTimestamp: '2026-01-01T00:00:00Z'}}, {metadata: {creationTimestamp: '2026-01-01T01:00:00+01:00'}}), true)
    assert.equal(eq({metadata: {creationTimestamp: null}}, {metadata: {}}), true)
    assert.equal(eq({metadata: {creationTimestamp: '2026-01-01T00:00:00Z'}}, {metadata: {}}), false)
  })
  test('fields the struct lacks are dropped by the decoder', () => {
    assert.equal(eq({spec: {notAField: 1}}, {spec: {}}), true)
  })
  test('order matters in slices, not in maps', () => {
    assert.equal(eq(c({args: ['a', 'b']}), c({args: ['b', 'a']})), false)
    assert.equal(eq({metadata: {labels: {a: '1', b: '2'}}}, {metadata: {labels: {b: '2', a: '1'}}}), true)
  })
})
