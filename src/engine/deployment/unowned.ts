// ReplicaSets and ControllerRevisions whose controller is not in the data (a dump of ReplicaSets without their
// Deployments, a support bundle): no controller decision can be replayed, but each label can still be checked against
// its own template or data — how a user learns which version wrote it, or that nothing reproduces it.
import type {Severity} from '../../explanation.js'
import {checkRevision, revOf} from '../history/controller-history.js'
import {templateOfRevision} from '../history/revision-data.js'
import {getControllerOf} from '../../apimachinery/owner-references.js'
import {checkTemplateLabel, type LabelCheck, suffixOf} from '../history/label-check.js'
import {CONTROLLER_REVISION_HASH_LABEL, POD_TEMPLATE_HASH_LABEL} from '../history/constants.js'
import {withoutHashLabel} from './equal-ignore-hash.js'
import type {ReplicaSet} from './types.js'
import type {ControllerRevision, HashSettings} from '../history/types.js'

export interface UnownedRow {
  kind: 'ReplicaSet' | 'ControllerRevision'
  namespace?: string
  name: string
  /** "Deployment web (uid …)", or absent when the object has no controller. */
  owner?: string
  label: LabelCheck
  severity: Severity
}

function severity(l: LabelCheck): Severity {
  return l.result === 'unreproducible' ? (l.explained ? 'info' : 'warning') : l.result === 'otherLayout' ? 'info' : 'none'
}

/** Label checks for the objects whose controller (by uid) is not among `owners`. */
export function checkUnowned(
  replicaSets: readonly ReplicaSet[],
  revisions: readonly ControllerRevision[],
  owners: ReadonlySet<string>,
  settings: HashSettings,
): UnownedRow[] {
  const out: UnownedRow[] = []
  for (const rs of replicaSets) {
    const c = getControllerOf(rs)
    if (c && owners.has(c.uid)) continue
    const template = rs.spec?.template as {metadata?: {labels?: Record<string, string>}} | undefined
    const label = template?.metadata?.labels?.[POD_TEMPLATE_HASH_LABEL] ?? rs.metadata.labels?.[POD_TEMPLATE_HASH_LABEL]
    if (label === undefined) continue
    const check =
      template === undefined
        ? {
            label,
            result: 'unreproducible' as const,
            reason: 'invalidTemplate' as const,
            explained: true,
            why: 'the ReplicaSet has no spec.template in the data',
          }
        : checkTemplateLabel(withoutHashLabel(template), label, {
            settings,
            counts: [null],
            createdAt: rs.metadata.creationTimestamp ?? undefined,
            nameSuffix: suffixOf(rs.metadata.name),
          })
    out.push({
      kind: 'ReplicaSet',
      namespace: rs.metadata.namespace,
      name: rs.metadata.name,
      ...(c ? {owner: `${c.kind} ${c.name} (uid ${c.uid})`} : {}),
      label: check,
      severity: severity(check),
    })
  }
  for (const cr of revisions) {
    const c = getControllerOf(cr)
    if (!c || owners.has(c.uid)) continue
    let check: LabelCheck
    if (c.kind === 'StatefulSet') {
      check = checkRevision(c.name, revOf(cr), 0, settings.maxInferredCollisionCount).label
    } else if (c.kind === 'DaemonSet') {
      const stored = templateOfRevision(cr)
      const label = cr.metadata.labels?.[CONTROLLER_REVISION_HASH_LABEL] ?? suffixOf(cr.metadata.name)
      check =
        stored === undefined
          ? {label, result: 'unreproducible', reason: 'invalidTemplate', explained: true, why: 'the revision holds no spec.template in its data'}
          : checkTemplateLabel(stored, label, {
              settings,
              counts: [null],
              createdAt: cr.metadata.creationTimestamp ?? undefined,
              nameSuffix: suffixOf(cr.metadata.name),
            })
    } else {
      continue
    }
    out.push({
      kind: 'ControllerRevision',
      namespace: cr.metadata.namespace,
      name: cr.metadata.name,
      owner: `${c.kind} ${c.name} (uid ${c.uid})`,
      label: check,
      severity: severity(check),
    })
  }
  return out
}
