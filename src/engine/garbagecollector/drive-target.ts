// `kubectl why gc`'s reads and replays: --all (every object in scope, driveGcAll) or the object named, read as the
// collector reads an object it is about to act on (a fresh, uncached, metadata-only GET: garbagecollector.go
// attemptToDeleteItem's getObject) and replayed by driveGcOne. Only the source is read; an object not found, or
// found without a uid, is said in one line.
import {apiVersionOf} from '../../cluster/builtin-kinds.js'
import {resolveResource} from '../../cluster/resolve.js'
import type {ClusterSource} from '../../cluster/source.js'
import type {Target} from '../../cluster/target.js'
import {chooseVersion} from '../../cluster/version.js'
import {UserError} from '../../errors.js'
import type {Problem, SourceDescription} from '../../explanation.js'
import type {MinorVersion} from '../../util/parse.js'
import {driveGcAll, driveGcOne, type GcAllResult, type GcDriveOptions} from './drive.js'
import {drivePendingDeletions, type PendingDeletionsResult} from '../deletions/drive.js'
import {driveGcActors} from './drive-actors.js'
import {explainGc, type GcExplanation} from './explain.js'
import type {GcTree} from './tree.js'

export interface GcRequest {
  /** The object; absent: --all. */
  target?: Target
  /** The namespace to look in (undefined: -A, which a namespaced kind cannot be named across). */
  namespace: string | undefined
  tree: boolean
  maxDepth: number
  versionOverride?: MinorVersion
  progress?: (line: string) => void
}

export type GcAnswer =
  | {all: GcAllResult & {deletions?: PendingDeletionsResult}; now: Date; source: SourceDescription}
  | {all?: undefined; explanation: GcExplanation; tree?: GcTree}

export async function driveGc(source: ClusterSource, req: GcRequest): Promise<GcAnswer> {
  const minor = chooseVersion(req.versionOverride, await source.serverVersion().catch(() => undefined))?.minor
  const snapshotGaps = source.describe().mode === 'snapshot' ? source.problems() : []
  const options: GcDriveOptions = {now: source.now(), minor, maxDepth: req.maxDepth, progress: req.progress, snapshotGaps}
  const description = (problems: readonly Problem[]): SourceDescription => {
    const d = source.describe()
    return {...d, ...(minor !== undefined ? {k8sVersion: `1.${minor}`} : {}), partial: [...(d.partial ?? []), ...problems]}
  }
  if (!req.target) {
    const all = await driveGcAll(source, req.namespace, options)
    // Pending and stuck deletions, its own section: the audit's deleting check, one driver (deletions/drive.ts).
    const deletions = await drivePendingDeletions(source, req.namespace, options)
    return {all: {...all, deletions}, now: options.now, source: description([...all.problems, ...deletions.problems])}
  }
  const {type, name} = req.target
  const t = resolveResource(await source.discovery(), type)
  if (t.namespaced && req.namespace === undefined) throw new UserError('a resource cannot be retrieved by name across all namespaces', 'use -n NAMESPACE')
  const namespace = t.namespaced ? req.namespace : undefined
  const raw = await source.get({apiVersion: apiVersionOf(t), kind: t.kind, namespace, name, view: 'fresh', metadataOnly: true})
  if (!raw) {
    throw new UserError(
      `${t.resource}${t.group ? `.${t.group}` : ''} "${name}" not found${namespace ? ` in namespace ${namespace}` : ''}`,
      `if it was garbage-collected, its owners were gone or being deleted; look for it with \`kubectl get events --field-selector involvedObject.name=${name}\``,
    )
  }
  const one = await driveGcOne(source, raw, t, {...options, tree: req.tree})
  if (!one) throw new UserError(`${t.kind} "${name}": the answer has no metadata.uid`)
  // Every other mechanism that deletes the object or holds its deletion, around the collector's answer (issue 26).
  const explanation = await driveGcActors(source, explainGc(one.replay, options.now, description(one.problems)), options)
  return {explanation, tree: one.tree}
}
