// Node Lease cleanup (issue 26 item 6; cleanups.md §8.3): who deletes a kube-node-lease Lease when its Node goes. No
// controller sweeps them: the kubelet's lease controller gives each Lease one ownerReference to its Node
// (pkg/kubelet/util/nodelease.go SetNodeOwnerFunc, at k/k@1f22a173 line 32: only while the Lease has no
// ownerReferences, with the Node's uid from a GET — retried on every renewal until that GET succeeds; no controller,
// no blockOwnerDeletion), and the garbage collector deletes the Lease once that owner is gone (its own replay). So a
// Lease without the reference is never collected, and one whose reference names another uid (an older Node of that
// name) is dangling and goes although a Node of that name exists. Pure.
import type {KubeObject} from '../../cluster/source.js'
import type {Actor, Step} from '../../explanation.js'

export const NODE_LEASE_NAMESPACE = 'kube-node-lease'
export const NODELEASE = 'pkg/kubelet/util/nodelease.go'

export interface NodeLeaseInput {
  lease: KubeObject
  /** The Node named like the Lease; undefined with nodeKnown 'absent' (the data proves it gone) or 'unknown'. */
  node?: KubeObject
  nodeKnown: 'found' | 'absent' | 'unknown'
}

export interface NodeLeaseReplay {
  case: 'noOwnerReference' | 'ownedBySameNode' | 'ownedByOtherUid' | 'ownedByMissingNode' | 'nodeUnknown'
  actor: Actor
  steps: Step[]
  headline: string
}

/** The Lease's fate when its Node goes, undefined for a Lease outside kube-node-lease (not a node Lease). */
export function replayNodeLease(input: NodeLeaseInput): NodeLeaseReplay | undefined {
  const m = input.lease.metadata ?? {}
  if (m.namespace !== NODE_LEASE_NAMESPACE) return undefined
  const name = m.name ?? ''
  const refs = (m.ownerReferences ?? []).filter((r) => r.kind === 'Node' && (r.apiVersion ?? 'v1') === 'v1')
  const nodeUid = input.node?.metadata?.uid
  const step = (result: string, why: string): Step => ({
    rule: 'SetNodeOwnerFunc',
    upstream: `${NODELEASE} SetNodeOwnerFunc; staging/src/k8s.io/component-helpers/apimachinery/lease/controller.go (newLeasePostProcessFunc on each renewal)`,
    inputs: {ownerReferences: refs.map((r) => `Node ${r.name} uid ${r.uid}`), node: input.nodeKnown === 'found' ? `uid ${nodeUid}` : input.nodeKnown},
    result,
    why,
  })
  const kubelet = (action: Actor['action'], evidence: string[], next: Actor['next']): Actor => ({
    actor: 'kubelet',
    action,
    rule: 'SetNodeOwnerFunc',
    evidence,
    next,
  })
  if (refs.length === 0) {
    const running = input.nodeKnown === 'found'
    const why = running
      ? `the Lease has no ownerReference to Node ${name}: the kubelet sets one on its next renewal (it retries until its GET of the Node succeeds); until then, deleting the Node would leave the Lease behind`
      : input.nodeKnown === 'absent'
        ? `the Lease has no ownerReference and Node ${name} is gone: no kubelet renews it and no owner points the garbage collector at it — it is never deleted`
        : `the Lease has no ownerReference; whether Node ${name} exists is not in the data`
    return {
      case: 'noOwnerReference',
      steps: [step('noOwnerReference', why)],
      actor: kubelet(
        'none',
        ['no ownerReferences'],
        input.nodeKnown === 'absent' ? [{command: `kubectl delete lease ${name} -n ${NODE_LEASE_NAMESPACE}`, why: 'nothing else ever removes it'}] : [],
      ),
      headline: input.nodeKnown === 'absent' ? `Nothing deletes Lease ${NODE_LEASE_NAMESPACE}/${name}: ${why}.` : '',
    }
  }
  const ref = refs[0]
  if (input.nodeKnown === 'unknown')
    return {
      case: 'nodeUnknown',
      steps: [step('nodeUnknown', `owned by Node ${ref.name} uid ${ref.uid}; the data cannot show whether that Node exists`)],
      actor: kubelet('none', [`ownerReference Node ${ref.name} uid ${ref.uid}`], []),
      headline: '',
    }
  const c: NodeLeaseReplay['case'] = input.nodeKnown === 'absent' ? 'ownedByMissingNode' : nodeUid === ref.uid ? 'ownedBySameNode' : 'ownedByOtherUid'
  const why =
    c === 'ownedBySameNode'
      ? `owned by Node ${ref.name} with its current uid: the garbage collector deletes the Lease once that Node is deleted`
      : c === 'ownedByOtherUid'
        ? `its ownerReference names uid ${ref.uid}, but Node ${ref.name} now has uid ${nodeUid} (an older Node of that name): the reference is dangling, and since SetNodeOwnerFunc writes only when there is none, the kubelet never corrects it — the garbage collector deletes the Lease and the kubelet creates a new one`
        : `Node ${ref.name} is gone: the reference is dangling and the garbage collector deletes the Lease`
  return {
    case: c,
    steps: [step(c, why)],
    actor: kubelet('none', [`ownerReference Node ${ref.name} uid ${ref.uid}`], []),
    headline: c === 'ownedBySameNode' ? '' : `Node Lease: ${why}.`,
  }
}
