// When the data does not settle the controller's release (settings.candidates): ComputeHash and the create path of
// getNewReplicaSet (pkg/controller/deployment/sync.go) for every release it leaves possible, one answer per distinct
// result — never the newest release's alone — and which release set the Deployment's own ReplicaSet agrees with.
import type {CompiledLayout} from '../../hash/compile.js'
import {hashesByRelease, inferLayouts} from '../../hash/infer.js'
import {replicaSetNameFor} from '../../hash/names.js'
import {versionRange} from '../history/label-check.js'
import type {HashSettings} from '../history/types.js'
import {predictCreate} from './create.js'
import type {ReplicaSet, Workload} from './types.js'

export interface ReleaseAnswer {
  /** The releases (oldest first) whose controllers give this answer. */
  versions: string[]
  hash: string
  name: string
  /** The name is over 253 characters and these releases do not cut it (before 1.34): every create fails. */
  nameError?: string
  /** Without a new ReplicaSet: what the create path does under these releases. */
  create?: 'creates' | 'adopts' | 'collision'
  /** The name finally created (after any collision bumps). */
  creates?: string
}

export interface ByRelease {
  /** The releases the data leaves possible. */
  candidates: string[]
  /** Why the data does not settle the release. */
  why: string
  /** One per distinct answer, oldest releases first; more than one (else the answer does not depend on the release). */
  answers: ReleaseAnswer[]
  /** The evidence that would settle it. */
  settle: string[]
  /** The Deployment's new ReplicaSet (or the one its pods name) and the candidate releases its label reproduces with. */
  agreeing?: {replicaSet: string; label: string; versions: string[]}
}

const minorOf = (v: string) => Number(v.split('.')[1])

/**
 * The answers of ComputeHash and generateReplicaSetName (the name rule changed in 1.34) for each candidate release,
 * grouped where they agree; with `create`, also the create path's outcome for each group (predictCreate under the
 * group's newest release: the group's releases hash alike, so they collide alike).
 */
export function answersByRelease(
  layout: CompiledLayout,
  d: Workload,
  template: unknown,
  collisionCount: number | null,
  candidates: readonly string[],
  byName: ReadonlyMap<string, ReplicaSet>,
  create: boolean,
): ReleaseAnswer[] {
  const out: ReleaseAnswer[] = []
  for (const g of hashesByRelease(template, collisionCount, candidates)) {
    const byNaming = new Map<string, ReleaseAnswer>()
    for (const v of g.versions) {
      const named = replicaSetNameFor(minorOf(v), d.metadata.name, g.hash)
      const key = `${named.name}\n${named.warning ?? ''}`
      const a = byNaming.get(key)
      if (a) a.versions.push(v)
      else byNaming.set(key, {versions: [v], hash: g.hash, name: named.name, ...(named.warning ? {nameError: named.warning} : {})})
    }
    out.push(...byNaming.values())
  }
  if (create) {
    for (const a of out) {
      const v = a.versions[a.versions.length - 1]
      const p = predictCreate(layout, d, template, collisionCount, v, minorOf(v), byName)
      a.create = p.adopts ? 'adopts' : p.collision ? 'collision' : 'creates'
      if (p.creates) a.creates = p.creates
    }
  }
  return out
}

/** The candidate releases under which a ReplicaSet's label is its template's hash, with one of the counts the controller may have used. */
export function releasesAgreeing(template: unknown, label: string | undefined, counts: readonly (number | null)[], settings: HashSettings): string[] {
  if (label === undefined || !settings.candidates) return []
  const wanted = new Set(settings.candidates.versions)
  const {matches} = inferLayouts(template, label, {maxCollisionCount: Math.max(settings.maxInferredCollisionCount, ...counts.map((c) => c ?? 0))})
  const found = new Set<string>()
  for (const m of matches) if (counts.includes(m.collisionCount)) for (const v of m.versions) if (wanted.has(v)) found.add(v)
  return [...found].sort((a, b) => minorOf(a) - minorOf(b))
}

/** "1.20–1.22: 66b6c48dd5; 1.23: 9456bbbf9; …" */
export function answersText(answers: readonly ReleaseAnswer[], what: (a: ReleaseAnswer) => string = (a) => a.hash): string {
  return answers.map((a) => `${versionRange(a.versions)}: ${what(a)}`).join('; ')
}
