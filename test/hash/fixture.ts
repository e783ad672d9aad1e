// The committed vectors fixture (test/fixtures/hash/vectors.json, from scripts/gen-hash-fixture.ts) and
// the shared vectors it was derived from (../shared/k8s-hash, when present).
import {existsSync, readFileSync} from 'node:fs'
import {fileURLToPath} from 'node:url'
import {parseJson} from '../../src/util/json.js'

type Segment = string | number
type Op = {op: 'remove'; path: Segment[]} | {op: 'add' | 'replace'; path: Segment[]; value: unknown}

export interface FixtureTemplate {
  id: string
  input: unknown
  patches?: Record<string, Op[]>
  hashes: [string, string, string][]
}

export interface FixtureRevision {
  id: string
  template?: string
  rawBase64?: string
  hashes: Record<string, string>
}

export interface Fixture {
  versions: string[]
  collisionCounts: string[]
  templates: FixtureTemplate[]
  controllerRevisions: FixtureRevision[]
}

const FIXTURE = new URL('../fixtures/hash/vectors.json', import.meta.url)
export const SHARED = fileURLToPath(new URL('../../../shared/k8s-hash/', import.meta.url))
export const sharedPresent = existsSync(SHARED)

let fixture: Fixture | undefined
export function loadFixture(): Fixture {
  fixture ??= parseJson(readFileSync(FIXTURE, 'utf8'), 'vectors.json') as Fixture
  return fixture
}

function apply(doc: unknown, ops: Op[]): unknown {
  const root = structuredClone(doc)
  for (const op of ops) {
    let parent = root as Record<string | number, unknown>
    for (const seg of op.path.slice(0, -1)) parent = parent[seg] as Record<string | number, unknown>
    const last = op.path[op.path.length - 1]
    if (op.op === 'remove') {
      if (Array.isArray(parent)) parent.splice(last as number, 1)
      else delete parent[last]
    } else {
      parent[last] = op.value
    }
  }
  return root
}

/** The template's input as the given version's API server returned it. */
export function inputFor(t: FixtureTemplate, version: string): unknown {
  const f = loadFixture()
  let doc = t.input
  for (let i = f.versions.length - 1; i >= 0 && f.versions[i] !== version; i--) {
    const older = f.versions[i - 1]
    const ops = t.patches?.[older]
    if (ops) doc = apply(doc, ops)
  }
  return doc
}

/** The expected hash for a version and collision count ("nil", "0", …). */
export function expectedHash(t: FixtureTemplate, version: string, collisionCount: string): string {
  const f = loadFixture()
  const minor = (v: string) => Number(v.split('.')[1])
  const run = t.hashes.find(([from, to]) => minor(from) <= minor(version) && minor(version) <= minor(to))
  if (!run) throw new Error(`fixture has no hashes for ${t.id} ${version}`)
  return run[2].split(' ')[f.collisionCounts.indexOf(collisionCount)]
}

export interface SharedVector {
  id: string
  input: unknown
  spew: string
  hashes: Record<string, string>
}

export function sharedVectors(version: string): SharedVector[] {
  const text = readFileSync(`${SHARED}vectors/public/v${version}.jsonl`, 'utf8')
  return text
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => parseJson(l) as SharedVector)
}

export const SKIP_SHARED = `../shared not present: ${SHARED} is missing, so the byte-for-byte comparison with the upstream vectors is skipped (the committed fixture still checks every hash)`
