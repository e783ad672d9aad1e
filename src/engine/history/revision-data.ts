// What a ControllerRevision holds, as both the DaemonSet and the StatefulSet controllers store and compare it: the
// patch of the template (Data.Raw), read back byte for byte, the template inside it, and the revision number.
import type {CompiledLayout} from '../../hash/compile.js'
import {statefulSetPatch} from '../../hash/controller-revision.js'
import {goJsonMarshal, type GoJson} from '../../hash/go-json.js'
import {isObj} from '../../util/json.js'
import type {ControllerRevision} from './types.js'

/**
 * getPatch (update.go:499): the DaemonSet as JSON, decoded into a map, reduced to
 * {"spec":{"template":<template + "$patch":"replace">}}, written by json.Marshal (sorted keys, HTML-safe escapes).
 * Only the template matters; how it is written depends on the version's struct tags (omitempty, omitzero).
 */
export function getPatch(layout: CompiledLayout, template: unknown): string {
  return new TextDecoder().decode(statefulSetPatch(layout, template))
}

/**
 * A revision's Data.Raw. The API server returns the stored bytes as embedded JSON; the controllers wrote them with
 * json.Marshal of a map, so writing the parsed value back the same way gives the stored bytes again.
 */
export function rawOf(cr: ControllerRevision): string | undefined {
  return cr.data === undefined || cr.data === null ? undefined : goJsonMarshal(cr.data as GoJson)
}

/** The pod template a revision's data holds (without "$patch"), or undefined when it holds none. */
export function templateOfRevision(cr: ControllerRevision): Record<string, unknown> | undefined {
  const d = cr.data
  if (!isObj(d) || !isObj(d.spec) || !isObj(d.spec.template)) return undefined
  const {$patch: _, ...template} = d.spec.template
  return template
}

export function revisionNumber(cr: ControllerRevision): number {
  const r = cr.revision
  return typeof r === 'bigint' ? Number(r) : typeof r === 'number' ? r : 0
}
