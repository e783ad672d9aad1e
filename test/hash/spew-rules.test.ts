// spew's %#v rules and the decode/round-trip rules on small templates, with the expected text written
// out by hand from go-spew's format.go and the README's observations (not produced by the serializer).
import assert from 'node:assert/strict'
import {describe, it} from 'node:test'
import {ComputeHash, hashPodTemplate} from '../../src/hash/compute-hash.js'
import {HashInputError, UnreproducibleHashError} from '../../src/hash/errors.js'

const V = '1.36'
const text = (t: unknown): string => new TextDecoder().decode(hashPodTemplate(t, {version: V, text: true}).text)
const bytes = (t: unknown): Buffer => Buffer.from(hashPodTemplate(t, {version: V, text: true}).text!)
const pod = (meta: object, container: object = {}, spec: object = {}) => ({
  metadata: {creationTimestamp: null, ...meta},
  spec: {containers: [{name: 'c', image: 'i', resources: {}, ...container}], ...spec},
})

describe('spew text', () => {
  it('starts with the root type and prints every ObjectMeta field, zero values included', () => {
    assert.ok(
      text(pod({})).startsWith(
        '(v1.PodTemplateSpec){ObjectMeta:(v1.ObjectMeta){Name:(string) GenerateName:(string) Namespace:(string) SelfLink:(string) UID:(types.UID) ResourceVersion:(string) Generation:(int64)0 CreationTimestamp:(v1.Time){Time:(time.Time){wall:(uint64)0 ext:(int64)0 loc:(*time.Location)<nil>}} DeletionTimestamp:(*v1.Time)<nil> ',
      ),
    )
  })

  it('writes strings raw: no quotes, no escapes', () => {
    assert.ok(text(pod({labels: {q: 'a"b', nl: 'e\nf', tab: 'g\th'}})).includes('Labels:(map[string]string)map[nl:e\nf q:a"b tab:g\th]'))
  })

  it('sorts map keys as Go strings (UTF-8 bytes), not as JavaScript does (UTF-16 units)', () => {
    // UTF-8: z 7A < é C3 A9 < ｚ EF BD 9A < U+FFFD EF BF BD < 😀 F0 9F 98 80; UTF-16 would put 😀 (D83D) before ｚ (FF5A)
    const t = pod({annotations: {'😀': '5', '\ufffd': '4', ｚ: '3', é: '2', z: '1'}})
    assert.ok(text(t).includes('Annotations:(map[string]string)map[z:1 é:2 ｚ:3 \ufffd:4 😀:5]'))
  })

  it("turns a lone surrogate into U+FFFD (EF BF BD), as Go's JSON decoder does", () => {
    const b = bytes(pod({annotations: {s: 'x\ud800y'}}))
    assert.ok(b.includes(Buffer.from('map[s:x\xef\xbf\xbdy]', 'latin1')))
  })

  it('prints nil and empty slices as the protobuf round trip leaves them', () => {
    // [] comes back nil; [""] is a one-element slice whose element prints as nothing
    assert.ok(text(pod({}, {args: []})).includes('Args:([]string)<nil>'))
    assert.ok(text(pod({}, {args: ['']})).includes('Args:([]string)[]'))
    assert.ok(text(pod({}, {args: ['', '']})).includes('Args:([]string)[ ]'))
    assert.ok(text(pod({}, {args: ['a', 'b']})).includes('Args:([]string)[a b]'))
  })

  it('treats empty maps, null and absent fields alike', () => {
    const h = ComputeHash(pod({}), null, V)
    assert.equal(ComputeHash(pod({labels: {}}), null, V), h)
    assert.equal(ComputeHash(pod({labels: null, annotations: {}}), null, V), h)
  })

  it('prints pointers with their type and value, nil as <nil>, and a pointer to an empty struct in full', () => {
    const t = text(pod({}, {}, {terminationGracePeriodSeconds: 30, securityContext: {}}))
    assert.ok(t.includes('TerminationGracePeriodSeconds:(*int64)30 ActiveDeadlineSeconds:(*int64)<nil>'))
    assert.ok(
      t.includes(
        'SecurityContext:(*v1.PodSecurityContext){SELinuxOptions:(*v1.SELinuxOptions)<nil> WindowsOptions:(*v1.WindowsSecurityContextOptions)<nil> RunAsUser:(*int64)<nil>',
      ),
    )
    assert.ok(t.includes('AutomountServiceAccountToken:(*bool)<nil>'))
    assert.ok(text(pod({}, {}, {automountServiceAccountToken: false})).includes('AutomountServiceAccountToken:(*bool)false'))
  })

  it('prints named string types under their own name and slice elements without a prefix', () => {
    const t = text(pod({}, {ports: [{containerPort: 80, protocol: 'TCP'}]}, {restartPolicy: 'Always'}))
    assert.ok(t.includes('Ports:([]v1.ContainerPort)[{Name:(string) HostPort:(int32)0 ContainerPort:(int32)80 Protocol:(v1.Protocol)TCP HostIP:(string)}]'))
    assert.ok(t.includes('RestartPolicy:(v1.RestartPolicy)Always'))
  })

  it('prints IntOrString\'s fields: a JSON number is Type 0, a JSON string Type 1 (even "8080")', () => {
    const probe = (port: unknown) => text(pod({}, {livenessProbe: {tcpSocket: {port}}}))
    assert.ok(probe(8080).includes('Port:(intstr.IntOrString){Type:(intstr.Type)0 IntVal:(int32)8080 StrVal:(string)}'))
    assert.ok(probe('8080').includes('Port:(intstr.IntOrString){Type:(intstr.Type)1 IntVal:(int32)0 StrVal:(string)8080}'))
  })

  it('prints an embedded struct under its type name', () => {
    assert.ok(
      text(pod({}, {livenessProbe: {exec: {command: ['true']}}})).includes(
        'LivenessProbe:(*v1.Probe){ProbeHandler:(v1.ProbeHandler){Exec:(*v1.ExecAction){Command:([]string)[true]}',
      ),
    )
  })

  it("prints a quantity's internals; a map value has no type prefix", () => {
    assert.ok(
      text(pod({}, {resources: {limits: {cpu: '500m'}}})).includes(
        'Limits:(v1.ResourceList)map[cpu:{i:(resource.int64Amount){value:(int64)500 scale:(resource.Scale)-3} d:(resource.infDecAmount){Dec:(*inf.Dec)<nil>} s:(string)500m Format:(resource.Format)DecimalSI}]',
      ),
    )
  })

  it("prints managedFields' fieldsV1 as its raw JSON bytes, in the order the JSON has them", () => {
    const raw = '{"f:spec":{"f:replicas":{}},"f:metadata":{".":{}}}'
    const t = text(pod({managedFields: [{manager: 'm', operation: 'Update', fieldsType: 'FieldsV1', fieldsV1: JSON.parse(raw)}]}))
    assert.ok(t.includes(`FieldsV1:(*v1.FieldsV1){Raw:([]uint8)[${[...Buffer.from(raw)].join(' ')}]}`))
  })

  it('writes int64 values beyond 2^53 exactly', () => {
    assert.ok(text(pod({}, {}, {activeDeadlineSeconds: 9007199254740993n})).includes('ActiveDeadlineSeconds:(*int64)9007199254740993'))
  })

  it('ignores JSON fields the version does not have, and reports them', () => {
    const plain = pod({})
    const withExtra = {...plain, spec: {...plain.spec, futureField: {a: 1}, containers: [{...plain.spec.containers[0], alsoNew: true}]}}
    const r = hashPodTemplate(withExtra, {version: V})
    assert.equal(r.hash, ComputeHash(plain, null, V))
    assert.deepEqual(r.unknownFields, ['spec.futureField', 'spec.containers[0].alsoNew'])
    // hostnameOverride is known from 1.34 only
    assert.deepEqual(hashPodTemplate(pod({}, {}, {hostnameOverride: 'h'}), {version: '1.33'}).unknownFields, ['spec.hostnameOverride'])
  })
})

describe('input the API server would not have returned', () => {
  const inputError = (t: unknown, path: string, reason: RegExp) =>
    assert.throws(
      () => ComputeHash(t, null, V),
      (e) => e instanceof HashInputError && e.path === path && reason.test(e.reason),
    )

  it('names the field path, and gives no hash', () => {
    inputError('not an object', '', /expected an object \(v1\.PodTemplateSpec\), got string/)
    inputError([], '', /got an array/)
    inputError(pod({}, {ports: [{containerPort: '80'}]}), 'spec.containers[0].ports[0].containerPort', /expected an integer \(int32\), got string "80"/)
    inputError(pod({}, {ports: [{containerPort: 2 ** 31}]}), 'spec.containers[0].ports[0].containerPort', /overflows int32/)
    inputError(pod({}, {ports: [{containerPort: 1.5}]}), 'spec.containers[0].ports[0].containerPort', /expected an integer/)
    inputError(pod({}, {resources: {limits: {cpu: 'lots'}}}), 'spec.containers[0].resources.limits.cpu', /quantity "lots" does not parse/)
    inputError(pod({labels: {a: 1}}), 'metadata.labels.a', /expected a string/)
    inputError(pod({labels: {'app.kubernetes.io/name': 1}}), 'metadata.labels["app.kubernetes.io/name"]', /expected a string/)
    inputError(pod({}, {args: 'x'}), 'spec.containers[0].args', /expected an array/)
    inputError(pod({}, {}, {hostNetwork: 'true'}), 'spec.hostNetwork', /expected a boolean/)
  })

  it("refuses a non-null timestamp: the real hash depends on the controller-manager's time zone", () => {
    assert.throws(
      () => ComputeHash(pod({creationTimestamp: '2026-01-01T00:00:00Z'}), null, V),
      (e) => e instanceof UnreproducibleHashError && e.path === 'metadata.creationTimestamp' && /time zone/.test(e.message),
    )
  })
})
