// PersistentVolume reclaim (issue 26 item 6; cleanups.md §8.1): whether the PV controller (kube-controller-manager's
// `persistentvolume-binder`) or an external provisioner deletes a PersistentVolume. Upstream:
// pkg/controller/volume/persistentvolume/pv_controller.go syncVolume (a bound volume whose claim is gone, or whose
// claim has another uid, is released: "volume is released and reclaim policy %q will be executed") and reclaimVolume
// (an annotation pv.kubernetes.io/migrated-to hands it to the CSI external-provisioner; Retain does nothing, Recycle
// scrubs it, Delete runs deleteVolumeOperation — for a volume provisioned by an external provisioner
// (pv.kubernetes.io/provisioned-by naming no in-tree plugin, or a CSI source) the external-provisioner deletes the
// backing volume and then the PV). Pure: the PV, what the data shows of its claim, and nothing else.
import type {KubeObject} from '../../cluster/source.js'
import type {Actor, Step} from '../../explanation.js'

export const PV_CONTROLLER = 'pkg/controller/volume/persistentvolume/pv_controller.go'
/** volume.AnnMigratedTo and AnnDynamicallyProvisioned (pkg/controller/volume/persistentvolume/util). */
export const ANN_MIGRATED_TO = 'pv.kubernetes.io/migrated-to'
export const ANN_PROVISIONED_BY = 'pv.kubernetes.io/provisioned-by'

export interface PvReclaimInput {
  pv: KubeObject
  /** The claim named by spec.claimRef: found (with its uid), absent (the data proves it gone), or unknown. */
  claim: {known: 'found'; uid?: string} | {known: 'absent'} | {known: 'unknown'; why?: string}
}

export interface PvReclaimReplay {
  released: boolean | undefined
  policy: string
  actor: Actor
  steps: Step[]
  headline: string
}

interface PvLike {
  metadata?: {name?: string; annotations?: Record<string, string> | null}
  spec?: {persistentVolumeReclaimPolicy?: string; claimRef?: {namespace?: string; name?: string; uid?: string} | null; csi?: {driver?: string} | null}
  status?: {phase?: string}
}

export function replayPvReclaim(input: PvReclaimInput): PvReclaimReplay {
  const pv = input.pv as PvLike
  const name = pv.metadata?.name ?? ''
  // The API server defaults persistentVolumeReclaimPolicy to Retain (Delete for dynamically provisioned volumes,
  // which the provisioner writes from the StorageClass).
  const policy = pv.spec?.persistentVolumeReclaimPolicy ?? 'Retain'
  const phase = pv.status?.phase ?? ''
  const ref = pv.spec?.claimRef
  const ann = pv.metadata?.annotations ?? {}
  const migrated = ann[ANN_MIGRATED_TO]
  const external =
    pv.spec?.csi?.driver ?? (ann[ANN_PROVISIONED_BY] && !ann[ANN_PROVISIONED_BY].startsWith('kubernetes.io/') ? ann[ANN_PROVISIONED_BY] : undefined)
  const claimText = ref ? `claim ${ref.namespace}/${ref.name}${ref.uid ? ` uid ${ref.uid}` : ''}` : 'no claimRef'
  // syncVolume: released when the claim it was bound to is gone (or is another object with that name).
  let released: boolean | undefined
  let why: string
  if (phase === 'Released' || phase === 'Failed') {
    released = true
    why = `status.phase ${phase}: the claim has already let it go`
  } else if (!ref?.uid) {
    released = false
    why = `${claimText}: not bound (a claimRef without uid is only a pre-binding)`
  } else if (input.claim.known === 'absent') {
    released = true
    why = `${claimText} is gone: syncVolume releases the volume and executes its reclaim policy`
  } else if (input.claim.known === 'found') {
    released = input.claim.uid !== undefined && input.claim.uid !== ref.uid
    why = released
      ? `${claimText}, but that claim now has uid ${input.claim.uid}: another claim of the same name, so the volume is released`
      : `bound to ${claimText}, which exists: nothing is reclaimed while it does`
  } else {
    released = undefined
    why = `bound to ${claimText}; ${input.claim.why ?? 'whether the claim exists is not in the data'}`
  }
  const steps: Step[] = [
    {
      rule: 'syncVolume',
      upstream: `${PV_CONTROLLER} (syncVolume, reclaimVolume)`,
      inputs: {
        phase: phase || null,
        claimRef: ref ? `${ref.namespace}/${ref.name}` : null,
        policy,
        migratedTo: migrated ?? null,
        externalProvisioner: external ?? null,
      },
      result: released === undefined ? 'unknown' : released ? 'released' : 'bound',
      why,
    },
  ]
  const actorName = migrated || external ? 'external-provisioner' : 'persistentvolume-binder'
  const mk = (action: Actor['action'], rule: string, evidence: string[], next: Actor['next']): Actor => ({actor: actorName, action, rule, evidence, next})
  if (released !== true) {
    const later =
      policy === 'Delete'
        ? `reclaim policy Delete: the volume${migrated || external ? ` (deleted by the external provisioner ${migrated ?? external})` : ''} and its backing storage go once the claim is deleted`
        : policy === 'Retain'
          ? 'reclaim policy Retain: it is kept (Released) after its claim goes, until an admin deletes it'
          : `reclaim policy ${policy}`
    steps.push({rule: 'reclaimVolume', upstream: `${PV_CONTROLLER} reclaimVolume`, inputs: {policy}, result: 'notYet', why: later})
    return {released, policy, steps, actor: mk('none', 'reclaimVolume', [why, later], []), headline: ''}
  }
  if (migrated) {
    const w = `annotated ${ANN_MIGRATED_TO}: ${migrated}: reclaimVolume leaves it to the CSI external-provisioner`
    steps.push({rule: 'reclaimVolume', upstream: `${PV_CONTROLLER} reclaimVolume`, inputs: {migratedTo: migrated}, result: 'external', why: w})
  }
  if (policy === 'Retain') {
    const w = 'reclaim policy Retain: nothing deletes it; it stays Released until an admin deletes it (and its backing storage)'
    steps.push({rule: 'reclaimVolume', upstream: `${PV_CONTROLLER} reclaimVolume`, inputs: {policy}, result: 'retain', why: w})
    return {
      released,
      policy,
      steps,
      actor: mk(
        'none',
        'reclaimVolume',
        [why, w],
        [{command: `kubectl delete pv ${name}`, why: 'Retain: only a person deletes it (clean the backing storage first if it is meant to go)'}],
      ),
      headline: `Nothing deletes PersistentVolume ${name}: ${why}, and its ${w}.`,
    }
  }
  if (policy === 'Delete') {
    const by =
      migrated || external
        ? `the external provisioner (${migrated ?? external}) deletes the backing volume, then the PV`
        : 'the PV controller deletes the backing volume (deleteVolumeOperation), then the PV'
    const failed = phase === 'Failed'
    steps.push({
      rule: 'deleteVolumeOperation',
      upstream: `${PV_CONTROLLER} reclaimVolume, deleteVolumeOperation`,
      inputs: {policy, phase},
      result: failed ? 'failed' : 'delete',
      why: failed ? `status.phase Failed: a deletion was tried and failed (events VolumeFailedDelete say why); ${by} on a retry` : by,
    })
    return {
      released,
      policy,
      steps,
      actor: mk(
        'willDelete',
        'deleteVolumeOperation',
        [why, `reclaim policy Delete`],
        failed ? [{command: `kubectl get events --field-selector involvedObject.name=${name}`, why: 'VolumeFailedDelete names what the deletion hit'}] : [],
      ),
      headline: failed
        ? `PersistentVolume ${name} is Failed: its reclaim policy Delete was tried and failed (${why}); ${by} once the cause is fixed.`
        : `PersistentVolume ${name} is deleted by its reclaim policy Delete: ${why}; ${by}.`,
    }
  }
  const w = `reclaim policy ${policy}${policy === 'Recycle' ? ': a scrubber pod wipes it and it becomes Available again (deprecated; in-tree NFS and hostPath only)' : ''}`
  steps.push({rule: 'reclaimVolume', upstream: `${PV_CONTROLLER} reclaimVolume`, inputs: {policy}, result: policy, why: w})
  return {released, policy, steps, actor: mk('none', 'reclaimVolume', [why, w], []), headline: ''}
}
