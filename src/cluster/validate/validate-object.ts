// One object against its kind's shape (kinds.ts): the common part (apiVersion, kind, metadata) first, then the kind's.
import {groupKindKey} from '../object-store.js'
import type {KubeObject} from '../source.js'
import {KIND_SHAPES, OBJECT} from './kinds.js'
import {type Check, compiledOf, type Mismatch, mismatchText} from './shape.js'

export interface Invalid {
  /** "Pod shop/web-1", or the kind and the object's place when its name is unusable. */
  what: string
  /** "metadata.ownerReferences is a string, want a list". */
  reason: string
}

/** apiVersion → kind → its shape (or null: metadata only), so that no key string is built per object. */
const byType = new Map<string, Map<string, Check | null>>()

function shapeOf(apiVersion: string, kind: string): Check | null {
  let kinds = byType.get(apiVersion)
  if (!kinds) {
    kinds = new Map()
    byType.set(apiVersion, kinds)
  }
  let shape = kinds.get(kind)
  if (shape === undefined) {
    const check = KIND_SHAPES.get(groupKindKey(apiVersion, kind))
    shape = check ? compiledOf(check) : null
    kinds.set(kind, shape)
  }
  return shape
}

let object: Check | undefined

export function mismatchOf(o: unknown): Mismatch | undefined {
  object ??= compiledOf(OBJECT)
  const m = object(o)
  if (m) return m
  const k = o as KubeObject
  return shapeOf(k.apiVersion!, k.kind!)?.(o)
}

/** A projection applied only to objects that fit; the others pass whole, for the boundary to report. */
export function fitsFirst(project: (o: KubeObject) => KubeObject): (o: KubeObject) => KubeObject {
  return (o) => (mismatchOf(o) === undefined ? project(o) : o)
}

/** How a problem names the object: kind, namespace/name, as far as they are usable. */
export function nameOf(o: unknown, place?: string): string {
  const k = (o !== null && typeof o === 'object' ? o : {}) as {kind?: unknown; metadata?: {namespace?: unknown; name?: unknown}}
  const kind = typeof k.kind === 'string' && k.kind !== '' ? k.kind : 'an object'
  const meta = k.metadata !== null && typeof k.metadata === 'object' ? k.metadata : {}
  const named = typeof meta.name === 'string' && meta.name !== ''
  const ns = typeof meta.namespace === 'string' && meta.namespace !== '' ? `${meta.namespace}/` : ''
  if (named) return `${kind} ${ns}${meta.name}`
  return `${kind}${ns ? ` in ${ns.slice(0, -1)}` : ''}${place ? ` (${place})` : ''}`
}

export function invalidOf(o: unknown, place?: string): Invalid | undefined {
  const m = mismatchOf(o)
  return m ? {what: nameOf(o, place), reason: mismatchText(m)} : undefined
}
