// npm run bench:hash — ComputeHash throughput over every public template of the newest version, next
// to its two reference points measured in the same run: the FNV floor (a plain FNV-1a loop over the
// already-encoded spew texts) and JSON.stringify of the same parsed templates. Also: what the time
// beyond the floor is spent on, layout inference over every version as a multiple of one hash, and the
// FNV implementation choice (Uint8Array loop vs a string/charCode loop as fnv-plus does it).
//
// Each figure is CPU time (process.cpuUsage, so time spent descheduled on a busy machine does not
// count), the best of many short interleaved samples.
import {readFileSync} from 'node:fs'
import {hashPodTemplate} from '../src/hash/compute-hash.js'
import {fnv1a32, FNV32_OFFSET, FNV32_PRIME} from '../src/hash/fnv.js'
import {sameUnder} from '../src/hash/def-bits.js'
import {forgetInferences, inferLayouts} from '../src/hash/infer.js'
import {layoutVersions} from '../src/hash/layout-data.js'
import {getLayout} from '../src/hash/layouts.js'
import {encodeSum32} from '../src/hash/safe-encode.js'
import {spewTemplate} from '../src/hash/spew.js'
import {parseJson} from '../src/util/json.js'

interface Fixture {
  versions: string[]
  templates: {id: string; input: unknown; hashes: [string, string, string][]}[]
}
const fixture = parseJson(readFileSync(new URL('../test/fixtures/hash/vectors.json', import.meta.url), 'utf8')) as Fixture
const newest = fixture.versions[fixture.versions.length - 1]
const templates = fixture.templates.map((t) => t.input)
const expectedNil = fixture.templates.map((t) => t.hashes[t.hashes.length - 1][2].split(' ')[0])
for (const v of layoutVersions()) getLayout(v)
const layout = getLayout(newest)

// The same texts, already encoded, for the floor; and a bigint-free copy for JSON.stringify.
const texts = templates.map((t) => spewTemplate(layout, t, {text: true}).text!)
const latin1Texts = texts.map((b) => Buffer.from(b).toString('latin1'))
const plain = templates.map((t) => JSON.parse(JSON.stringify(t, (_k, v: unknown) => (typeof v === 'bigint' ? Number(v) : v))) as unknown)
const textBytes = texts.reduce((n, b) => n + b.length, 0) / texts.length

// Sanity: the benchmark hashes what the tests check.
templates.forEach((t, i) => {
  if (hashPodTemplate(t, {version: newest}).hash !== expectedNil[i]) throw new Error(`bench: wrong hash for ${fixture.templates[i].id}`)
})

let sink = 0
const P = FNV32_PRIME
/** FNV-1a over a JavaScript string's char codes: what fnv-plus does (here over latin1 text = the bytes). */
function fnvString(s: string): number {
  let h = FNV32_OFFSET
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), P)
  return h
}

/** Every object and array of a decoded template visited with for…in, nothing written: the JS floor of any walk. */
function iterate(v: unknown): number {
  if (Array.isArray(v)) {
    let n = 0
    for (let i = 0; i < v.length; i++) n += iterate(v[i])
    return n
  }
  if (v === null || typeof v !== 'object') return 1
  let n = 0
  const o = v as Record<string, unknown>
  for (const k in o) n += iterate(o[k])
  return n
}

const cases: Record<string, () => void> = {
  computeHash: () => {
    for (const t of templates) sink ^= hashPodTemplate(t, {version: newest}).state
  },
  fnvFloor: () => {
    for (const b of texts) sink ^= fnv1a32(b)
  },
  fnvCharCodes: () => {
    for (const s of latin1Texts) sink ^= fnvString(s)
  },
  renderOnly: () => {
    for (const t of templates) sink ^= spewTemplate(layout, t, {text: true, skipHash: true}).text!.length
  },
  iterateOnly: () => {
    for (const t of templates) sink ^= iterate(t)
  },
  jsonStringify: () => {
    for (const t of plain) sink ^= JSON.stringify(t).length
  },
}
const subset = templates.slice(0, 97)
const labels = subset.map((t) => hashPodTemplate(t, {version: fixture.versions[0]}).hash)
// Cold: inferences are remembered by template content, and a warm round would measure that lookup (it showed
// inference at 1.1× one hash) instead of inference, which a cluster's many distinct templates each pay in full.
const inference = (): void => {
  forgetInferences()
  subset.forEach((t, i) => {
    sink ^= inferLayouts(t, labels[i], {maxCollisionCount: 10}).matches.length
  })
}
// One full hash for each distinct text, written out (versions whose layouts agree on every struct the text touches
// share one): what inferLayouts does, without its cache and its collision-count search.
const versionsNewestFirst = [...layoutVersions()].reverse()
const hashPerText = (): void => {
  for (const t of subset) {
    const seen: {layout: ReturnType<typeof getLayout>; bits: Uint32Array; state: number}[] = []
    for (const v of versionsNewestFirst) {
      const l = getLayout(v)
      if (seen.some((c) => sameUnder(c.layout, l, c.bits))) continue
      const r = spewTemplate(l, t, {record: true, skipUnknownPaths: true})
      seen.push({layout: l, bits: r.visited!, state: r.state})
    }
    sink ^= seen.length
  }
}
const oneHashSubset = (): void => {
  for (const t of subset) sink ^= hashPodTemplate(t, {version: newest}).state
}

const best: Record<string, number> = {}
const time = (name: string, fn: () => void, reps: number, per: number): void => {
  const t0 = process.cpuUsage()
  for (let r = 0; r < reps; r++) fn()
  const d = process.cpuUsage(t0)
  const us = (d.user + d.system) / (reps * per)
  best[name] = Math.min(best[name] ?? Infinity, us)
}
// Many short samples: a sample that ran undisturbed is the one that counts. ComputeHash and its two
// reference points run first, on their own, so the JIT's type feedback is what a hashing run sees;
// the breakdown and inference (other modes of the same serializer) come after.
const phases: Record<string, () => void>[] = [
  {computeHash: cases.computeHash, fnvFloor: cases.fnvFloor, jsonStringify: cases.jsonStringify},
  {renderOnly: cases.renderOnly, fnvCharCodes: cases.fnvCharCodes, iterateOnly: cases.iterateOnly},
]
for (const phase of phases) {
  for (let round = 0; round < 60; round++) {
    for (const [name, fn] of Object.entries(phase)) time(name, fn, name === 'jsonStringify' ? 4 : 1, templates.length)
  }
}
for (let round = 0; round < 20; round++) {
  time('inference', inference, 1, subset.length)
  time('oneHash', oneHashSubset, 1, subset.length)
  time('hashPerText', hashPerText, 1, subset.length)
}

const stats = subset.map((t, i) => inferLayouts(t, labels[i], {maxCollisionCount: 10}).stats)
const avgTexts = stats.reduce((n, s) => n + s.texts, 0) / stats.length

const perSec = (us: number): string => `${Math.round(1e6 / us).toLocaleString('en-US')}/s`
const row = (label: string, us: number, extra = ''): string => `  ${label.padEnd(46)} ${us.toFixed(1).padStart(7)} µs  ${perSec(us).padStart(12)}${extra}`
console.log(
  `kubectl-why hash benchmark: ${templates.length} public templates, layout ${newest}, ${Math.round(textBytes).toLocaleString('en-US')} bytes of spew text on average (sum ${encodeSum32(sink >>> 0).length > 0 ? 'ok' : ''})`,
)
console.log(row('ComputeHash (serialize + FNV-1a, no text built)', best.computeHash, `   ${(best.computeHash / best.fnvFloor).toFixed(2)}× the FNV floor`))
console.log(row('FNV floor: FNV-1a loop over the encoded texts', best.fnvFloor))
console.log(
  row('JSON.stringify of the same templates', best.jsonStringify, `   ComputeHash is ${(best.computeHash / best.jsonStringify).toFixed(1)}× JSON.stringify`),
)
console.log(
  `where the ${(best.computeHash - best.fnvFloor).toFixed(1)} µs beyond the floor go: walking the decoded JSON by layout (for…in, field lookup, type checks), quantities, map-key sorting, UTF-8:`,
)
console.log(row('  of which, for…in over the same JSON alone', best.iterateOnly, '   the floor of any walk over these objects in JavaScript'))
console.log(row('the same text written to a buffer, not hashed', best.renderOnly, '   (--show-serialization, inference: byte stores cost about what FNV does)'))
console.log(
  row('FNV-1a over char codes of a string (fnv-plus style)', best.fnvCharCodes, `   ${(best.fnvCharCodes / best.fnvFloor).toFixed(2)}× the Uint8Array loop`),
)
console.log(`layout inference over all ${layoutVersions().length} versions, collisionCount unset and 0–10 (${subset.length} templates, cold):`)
console.log(
  row('inferLayouts', best.inference, `   ${(best.inference / best.oneHash).toFixed(1)}× one ComputeHash (${best.oneHash.toFixed(1)} µs on these templates)`),
)
console.log(
  row(
    'for comparison: one full hash per distinct text',
    best.hashPerText,
    `   ${(best.hashPerText / best.oneHash).toFixed(1)}× (one per version and collision count: ${layoutVersions().length * 12}×)`,
  ),
)
console.log(
  `  ${avgTexts.toFixed(1)} distinct texts per template (versions whose layouts agree on every struct the text touches share one), each rendered once`,
)
