// EqualIgnoreHash (pkg/controller/deployment/util/deployment_util.go:619): the two templates, each without its
// pod-template-hash label, compared with apiequality.Semantic.DeepEqual. The inputs are not changed.
import type {CompiledLayout} from '../../hash/compile.js'
import {isObj} from '../../util/json.js'
import {POD_TEMPLATE_HASH_LABEL} from '../history/constants.js'
import {semanticTemplateEqual} from './semantic.js'

/** A shallow copy of the template without its pod-template-hash label (the copy's label map may end up empty). */
export function withoutHashLabel(template: unknown): unknown {
  if (!isObj(template) || !isObj(template.metadata) || !isObj(template.metadata.labels)) return template
  if (!Object.hasOwn(template.metadata.labels, POD_TEMPLATE_HASH_LABEL)) return template
  const {[POD_TEMPLATE_HASH_LABEL]: _, ...labels} = template.metadata.labels
  return {...template, metadata: {...template.metadata, labels}}
}

export function EqualIgnoreHash(layout: CompiledLayout, t1: unknown, t2: unknown): boolean {
  return semanticTemplateEqual(layout, withoutHashLabel(t1), withoutHashLabel(t2))
}
