// StatefulSet ControllerRevision: getPatch bytes, HashControllerRevision (FNV-1 + probe), names.
import assert from 'node:assert/strict'
import {readFileSync} from 'node:fs'
import {describe, it} from 'node:test'
import {ControllerRevisionName, HashControllerRevision, statefulSetPatch} from '../../src/hash/controller-revision.js'
import {getLayout} from '../../src/hash/layouts.js'
import {inputFor, loadFixture, SHARED, sharedPresent, SKIP_SHARED} from './fixture.js'

const probe = (c: string): number | null => (c === 'nil' ? null : Number(c))
const enc = new TextEncoder()

// The CR vectors were produced by a controller that writes "creationTimestamp":null (before 1.34's
// omitzero); 1.33 is the newest such layout.
const CR_LAYOUT = '1.33'

describe('ControllerRevision vectors (committed fixture)', () => {
  const f = loadFixture()
  const templates = new Map(f.templates.map((t) => [t.id, t]))

  it('every vector: HashControllerRevision over getPatch(template) or the given raw, every probe', () => {
    assert.equal(f.controllerRevisions.length, 100)
    const wrong: string[] = []
    for (const cr of f.controllerRevisions) {
      const raw =
        cr.template !== undefined
          ? statefulSetPatch(getLayout(CR_LAYOUT), inputFor(templates.get(cr.template)!, CR_LAYOUT))
          : Buffer.from(cr.rawBase64!, 'base64')
      for (const [c, want] of Object.entries(cr.hashes)) {
        const got = HashControllerRevision(raw, probe(c))
        if (got !== want) wrong.push(`${cr.id} probe=${c}: got ${got}, want ${want}`)
      }
    }
    assert.deepEqual(wrong, [])
  })
})

describe('ControllerRevision vectors (../shared, byte for byte)', () => {
  it('getPatch writes exactly the raw the Go controller stored', (t) => {
    if (!sharedPresent) {
      t.skip(SKIP_SHARED)
      return
    }
    const f = loadFixture()
    let compared = 0
    for (const line of readFileSync(`${SHARED}vectors/public/controllerrevision.jsonl`, 'utf8').split('\n')) {
      if (line.trim() === '') continue
      const cr = JSON.parse(line) as {id: string; source: string; rawBase64: string; hashes: Record<string, string>}
      const raw = Buffer.from(cr.rawBase64, 'base64')
      const m = /^getPatch\(template (.+)\)$/.exec(cr.source)
      if (m) {
        const t = f.templates.find((x) => x.id === m[1])!
        const got = Buffer.from(statefulSetPatch(getLayout(CR_LAYOUT), inputFor(t, CR_LAYOUT)))
        assert.ok(got.equals(raw), `${cr.id}: patch differs\n got ${got.toString()}\nwant ${raw.toString()}`)
        compared++
      }
      for (const [c, want] of Object.entries(cr.hashes)) assert.equal(HashControllerRevision(raw, probe(c)), want, `${cr.id} probe=${c}`)
    }
    assert.equal(compared, 90)
  })
})

describe('StatefulSet revisions of 1.33 and 1.34 (upstream testdata, workloads.md §3.1–3.2)', () => {
  // pkg/controller/statefulset/testdata compatibility_revision_1.33.0.json: the defaulted template and
  // the revision name test-c77f6d978; 1.34 writes the same without "creationTimestamp":null.
  const raw133 =
    '{"spec":{"template":{"$patch":"replace","metadata":{"annotations":{"test":"value"},"creationTimestamp":null,"labels":{"app":"foo"}},"spec":{"containers":[{"image":"test","imagePullPolicy":"Always","name":"test","resources":{},"terminationMessagePath":"/dev/termination-log","terminationMessagePolicy":"File"}],"dnsPolicy":"ClusterFirst","restartPolicy":"Always","schedulerName":"default-scheduler","securityContext":{},"terminationGracePeriodSeconds":30}}}}'
  const raw134 = raw133.replace('"creationTimestamp":null,', '')
  const template = {
    metadata: {labels: {app: 'foo'}, annotations: {test: 'value'}, creationTimestamp: null},
    spec: {
      containers: [
        {
          name: 'test',
          image: 'test',
          resources: {},
          terminationMessagePath: '/dev/termination-log',
          terminationMessagePolicy: 'File',
          imagePullPolicy: 'Always',
        },
      ],
      restartPolicy: 'Always',
      terminationGracePeriodSeconds: 30,
      dnsPolicy: 'ClusterFirst',
      securityContext: {},
      schedulerName: 'default-scheduler',
    },
  }

  it('getPatch writes creationTimestamp:null up to 1.33 and omits it from 1.34 (omitzero)', () => {
    assert.equal(new TextDecoder().decode(statefulSetPatch(getLayout('1.33'), template)), raw133)
    assert.equal(new TextDecoder().decode(statefulSetPatch(getLayout('1.34'), template)), raw134)
  })

  it('hashes with probe 0 to the fixture names (FNV-1 733928534 → c77f6d978; 3325552446 → 776999688b)', () => {
    assert.equal(HashControllerRevision(enc.encode(raw133), 0), 'c77f6d978')
    assert.equal(ControllerRevisionName('test', HashControllerRevision(enc.encode(raw133), 0)), 'test-c77f6d978')
    assert.equal(HashControllerRevision(enc.encode(raw134), 0), '776999688b')
  })
})

describe('ControllerRevisionName', () => {
  it('keeps a prefix of up to 223 bytes and cuts a longer one to 223', () => {
    assert.equal(ControllerRevisionName('web', 'abc'), 'web-abc')
    const p223 = 'a'.repeat(223)
    assert.equal(ControllerRevisionName(p223, 'h'), `${p223}-h`)
    assert.equal(ControllerRevisionName('b'.repeat(230), 'xyz12'), `${'b'.repeat(223)}-xyz12`)
  })
})
