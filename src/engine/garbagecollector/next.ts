// What a person can do about each verdict (issue 16 item 4): the command that shows more, or the object and field to
// change, with why. Never a write the tool performs itself: kubectl-why only reads. keep and noOwners need nothing.
import {splitApiVersion} from '../../cluster/builtin-kinds.js'
import type {NextStep} from '../../explanation.js'
import {describeObject, FINALIZER_FOREGROUND, FINALIZER_ORPHAN, type GcObject, isNamespace} from './model.js'
import type {GcReplay, RefReport} from './replay.js'

/** `kind[.group]/name` as kubectl and kubectl-why accept it; core and apps kinds need no group. */
export function typedName(apiVersion: string, kind: string, name: string): string {
  const {group} = splitApiVersion(apiVersion)
  return `${kind.toLowerCase()}${group && group !== 'apps' ? `.${group}` : ''}/${name}`
}

function nsFlag(namespace: string | undefined): string {
  return namespace ? ` -n ${namespace}` : ''
}

function whyGc(o: GcObject, extra = ''): string {
  return `kubectl why gc ${typedName(o.apiVersion, o.kind, o.metadata.name)}${nsFlag(o.metadata.namespace)}${extra}`
}

function refField(o: GcObject, ref: RefReport): string {
  return `${describeObject(o)}: metadata.ownerReferences[${ref.index}] (${ref.ref.kind} ${ref.ref.name}, uid ${ref.ref.uid})`
}

/**
 * Who removes a finalizer, for the common ones (upstream names); any other is removed by the controller that owns its
 * domain prefix. Deleting the finalizer by hand skips that controller's cleanup.
 */
export function finalizerHolder(f: string): string {
  switch (f) {
    case FINALIZER_FOREGROUND:
    case FINALIZER_ORPHAN:
      return 'the garbage collector (kube-controller-manager)'
    case 'kubernetes.io/pvc-protection':
      return 'the pvc-protection controller (kube-controller-manager), once no pod uses the claim'
    case 'kubernetes.io/pv-protection':
      return 'the pv-protection controller (kube-controller-manager), once no claim is bound to the volume'
    case 'kubernetes':
      return 'the namespace controller (kube-controller-manager), once every object in the namespace is gone'
    case 'batch.kubernetes.io/job-tracking':
      return 'the Job controller (kube-controller-manager), once it has counted the pod'
    case 'service.kubernetes.io/load-balancer-cleanup':
      return 'the service controller (cloud-controller-manager), once the cloud load balancer is deleted'
    case 'customresourcecleanup.apiextensions.k8s.io':
      return "the API server's CRD finalizer, once every custom resource of the definition is deleted"
    case 'external-attacher/kubernetes-io-csi':
      return 'the CSI external-attacher, once the volume is detached'
    default: {
      const domain = f.includes('/') ? f.slice(0, f.indexOf('/')) : f
      return `the controller that owns "${domain}" (an operator or add-on: its logs say why it has not)`
    }
  }
}

export function gcNext(r: GcReplay): NextStep[] | undefined {
  const o = r.item
  const m = o.metadata
  const aborted = r.abortedAt === undefined ? undefined : r.refs[r.abortedAt]
  switch (r.verdict) {
    case 'keep':
    case 'noOwners':
      return undefined
    case 'delete': {
      const dangling = r.refs.filter((x) => x.outcome === 'dangling')
      const steps: NextStep[] = dangling.map((x) => ({
        change: refField(o, x),
        why: `its owner is gone${x.lookup?.foundUid ? ` (a ${x.ref.kind} of that name has uid ${x.lookup.foundUid})` : ''}: if it should stay, remove this reference before the collector deletes it, which it does within seconds; otherwise nothing to do`,
      }))
      if (r.refs.some((x) => x.outcome === 'waitingForDependentsDeletion')) {
        const w = r.refs.find((x) => x.outcome === 'waitingForDependentsDeletion')!
        steps.push({
          command: `kubectl why gc ${typedName(w.ref.apiVersion, w.ref.kind, w.ref.name)}${nsFlag(w.lookup?.namespace)} --tree`,
          why: `its owner ${w.ref.kind} ${w.ref.name} is being deleted in the foreground: this object goes with it; the tree shows what else does`,
        })
      }
      return steps.length > 0 ? steps : [{command: whyGc(o, ' --tree'), why: 'shows its owners and dependents, each edge as the collector classifies it'}]
    }
    case 'patchRemoveOwnerRefs':
      return [
        {
          command: whyGc(o, ' --tree'),
          why: `nothing to do: the collector patches off the reference(s) to ${r.refs
            .filter((x) => x.outcome !== 'solid')
            .map((x) => `${x.ref.kind} ${x.ref.name}`)
            .join(', ')} itself and keeps the object; the tree shows the owners`,
        },
      ]
    case 'waitBeingDeleted': {
      const fs = m.finalizers ?? []
      if (fs.length === 0 && isNamespace(o))
        return [
          {
            command: `kubectl get namespace ${m.name} -o jsonpath='{.spec.finalizers} {.status.conditions}'`,
            why: 'the namespace controller removes spec.finalizers "kubernetes" only once discovery succeeds and all content is gone: its conditions name what remains',
          },
        ]
      if (fs.length === 0)
        return [
          {
            command: `kubectl get ${typedName(o.apiVersion, o.kind, m.name)}${nsFlag(m.namespace)}`,
            why: 'no finalizer is left: the API server removes it when its grace period ends (pods: when the kubelet confirms)',
          },
        ]
      return fs.map((f) => ({
        change: `${describeObject(o)}: metadata.finalizers "${f}"`,
        why: `"${f}" is removed by ${finalizerHolder(f)}; look there first: removing it by hand skips that controller's cleanup`,
      }))
    }
    case 'removeFinalizer':
      return [
        {
          command: 'kubectl logs -n kube-system -l component=kube-controller-manager --tail=500 | grep -i garbage',
          why: 'no dependent blocks it: the collector should remove foregroundDeletion now; if it has not, its log says why (down, lagging, or the patch is rejected)',
        },
        {
          change: `${describeObject(o)}: metadata.finalizers "${FINALIZER_FOREGROUND}"`,
          why: 'removing it by hand finishes the deletion the collector would finish',
        },
      ]
    case 'waitForBlockingDependents': {
      const first = (r.blocking ?? []).slice(0, 3)
      return first.map((b) => ({
        command: whyGc(b.dependent),
        why: `${describeObject(b.dependent)} holds it with blockOwnerDeletion=true${b.replay ? ` (${b.replay.verdict}${b.replay.propagationPolicy ? ` ${b.replay.propagationPolicy}` : ''})` : ''}: it must go first`,
      }))
    }
    case 'orphanDependentsThenRemoveFinalizer':
      return [
        {
          command: whyGc(o, ' --tree'),
          why: "nothing to do: the collector removes this owner from its dependents' references, then the orphan finalizer; the tree lists those dependents",
        },
      ]
    case 'stuckRestMapping': {
      const {group} = splitApiVersion(aborted?.ref.apiVersion ?? '')
      return [
        {command: `kubectl api-resources${group ? ` --api-group=${group}` : ''}`, why: `shows which versions of ${aborted?.ref.kind} the server serves`},
        ...(aborted
          ? [
              {
                change: `${refField(o, aborted)}: apiVersion ${aborted.ref.apiVersion}`,
                why: 'point it at a served version (or restore the CRD or API that served it): until then the collector retries forever and deletes nothing',
              },
            ]
          : []),
      ]
    }
    case 'stuckNamespacedOwnerOfClusterScopedObject':
      return aborted
        ? [
            {
              change: refField(o, aborted),
              why: 'a cluster-scoped object cannot have a namespaced owner: remove the reference; the collector will never act on it',
            },
          ]
        : undefined
    case 'notMonitored': {
      const held = (m.finalizers ?? []).filter((f) => f === FINALIZER_FOREGROUND || f === FINALIZER_ORPHAN)
      return held.length > 0
        ? held.map((f) => ({
            change: `${describeObject(o)}: metadata.finalizers "${f}"`,
            why: 'only the collector removes it, and it does not watch this type: remove it by hand',
          }))
        : undefined
    }
    case 'unknown': {
      const last = r.steps.at(-1)
      if (!aborted && last?.rule === 'blockingDependents') {
        // Absence not proven (replay.ts unprovenDependentKinds): the lists that settle it, not a hand-removed finalizer.
        const lists = last.why.split('; the list that settles it: ')[1]?.split('; ') ?? []
        return [
          ...lists.map((command) => ({command, why: 'shows whether a dependent still names it with blockOwnerDeletion=true'})),
          {command: whyGc(o), why: 'against the live cluster, or a `kubectl why snapshot` file (it records what it listed, so its absences prove something)'},
        ]
      }
      if (!aborted) return [{command: whyGc(o), why: 'the replay is incomplete: run it again'}]
      const owner = `${typedName(aborted.ref.apiVersion, aborted.ref.kind, aborted.ref.name)}${nsFlag(aborted.lookup?.namespace)}`
      if (aborted.unknownReason === 'notInData' || aborted.unknownReason === 'nameOnly') {
        return [
          {
            command: `kubectl get ${owner} -o jsonpath='{.metadata.uid}'`,
            why: `against the live cluster: the collector keeps it if this prints ${aborted.ref.uid}, and deletes it if it prints another uid or NotFound`,
          },
          {
            command: whyGc(o),
            why: `run against the live cluster, or a \`kubectl why snapshot\` file (it records what it listed, so its absences prove something): this data does not show whether ${aborted.ref.kind} ${aborted.ref.name} ${aborted.unknownReason === 'nameOnly' ? 'has that uid' : 'exists'}`,
          },
        ]
      }
      const {group} = splitApiVersion(aborted.ref.apiVersion)
      if (aborted.unknownReason === 'servedUnknown')
        return [
          {
            command: `kubectl api-resources${group ? ` --api-group=${group}` : ''} -o wide`,
            why: `against the live cluster: whether ${aborted.ref.apiVersion} ${aborted.ref.kind} is served (then the collector reads the owner) or not (then it is stuck for good)`,
          },
          {
            command: whyGc(o),
            why: 'against the live cluster, or a `kubectl why snapshot` file (it records the API discovery this data lacks)',
          },
        ]
      return [
        {
          command: `kubectl auth can-i get ${aborted.lookup?.key.resource ?? aborted.ref.kind.toLowerCase()}${group ? `.${group}` : ''}${nsFlag(aborted.lookup?.namespace)}`,
          why: `the owner could not be read (${typeof aborted.lookup?.status === 'number' ? aborted.lookup.status : (aborted.lookup?.error ?? 'error')}); with get on it, the replay can tell solid from dangling`,
        },
      ]
    }
  }
}
