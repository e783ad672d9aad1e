// When a dump does not say when it was taken, the evaluation instant must be at or after every instant the data
// proves has passed: the dump cannot predate any write it holds, so the newest of them is a lower bound
// ("estimated"). Each instant is marked by whose clock wrote it, and the output names the one that set the clock:
// - the API server's: creationTimestamp, managedFields[].time, and deletionTimestamp less
//   deletionGracePeriodSeconds (the time of the first delete request: BeforeDelete in
//   staging/src/k8s.io/apiserver/pkg/registry/rest/delete.go@02a7741e sets deletionTimestamp to
//   `metav1.Now().Add(time.Second * time.Duration(*options.GracePeriodSeconds))` with deletionGracePeriodSeconds the
//   same grace; a later request may only shorten it, and then sets deletionTimestamp − old grace + new grace, so the
//   difference stays that first request's time);
//   deletionTimestamp itself may be in the future and is not a lower bound;
// - the kubelet's: its node conditions' heartbeats and transitions, its Lease's acquireTime/renewTime, pod
//   conditions, status.startTime and containers' state times (startedAt/finishedAt, from the runtime);
// - kube-controller-manager's: taints' timeAdded (the node lifecycle controller stamps NoExecute taints,
//   pkg/controller/nodelifecycle/node_lifecycle_controller.go), the NodeStatusUnknown transitions it writes,
//   Job startTime/completionTime (job controller), workload conditions;
// - the reporting component's: events' times (firstTimestamp, lastTimestamp, eventTime, series);
// Not counted: conditions other agents write on Nodes (node-problem-detector, a distribution's agent) and conditions
// on custom resources (their operators). Reconsidered for issue 27 and kept out, on purpose: such a time is a
// reading of that agent's clock, and bounds only that clock, not the ones the replays compare against (the kubelet's
// heartbeats, kube-controller-manager's now); an agent running ahead (the cluster-info-dump fixture's distribution
// agent, 14 min after every cluster write) would move the evaluation of every object, expiring grace periods that
// have not expired. Nor does any output show them as past: the node replay reads only the kubelet's conditions
// (src/engine/nodelifecycle/conditions.ts CONDITIONS_SET_UNKNOWN), so leaving them out never shows a reported-past
// instant in the future. Every instant counted is one some output shows as past (a taint's age, AGE, a transition).
import type {KubeObject} from '../source.js'

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}/
/** The kubelet's own node conditions (pkg/kubelet/nodestatus/setters.go). */
const KUBELET_CONDITIONS = new Set(['Ready', 'MemoryPressure', 'DiskPressure', 'PIDPressure'])

/** Built-in kinds whose status.conditions the cluster's own components write (kubelet, scheduler, controllers). */
const COMPONENT_CONDITIONS = new Set([
  'Pod',
  'Deployment',
  'ReplicaSet',
  'StatefulSet',
  'DaemonSet',
  'Job',
  'ReplicationController',
  'Namespace',
  'PodDisruptionBudget',
])
const API = "the API server's clock"
const KUBELET = "the kubelet's clock"
const KCM = "kube-controller-manager's clock"

type Rec = Record<string, unknown>
const rec = (v: unknown): Rec | undefined => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Rec) : undefined)
const list = (v: unknown): Rec[] => (Array.isArray(v) ? (v.map(rec).filter(Boolean) as Rec[]) : [])

export class NewestWrite {
  private at: number | undefined
  private text: string | undefined
  private what = ''

  private see(candidate: unknown, what: () => string, less = 0): void {
    if (typeof candidate !== 'string' || !ISO.test(candidate)) return
    const parsed = Date.parse(candidate)
    if (Number.isNaN(parsed)) return
    const t = parsed - less
    if (this.at !== undefined && t <= this.at) return
    this.at = t
    this.text = less === 0 ? candidate : new Date(t).toISOString().replace('.000Z', 'Z')
    this.what = what()
  }

  add(o: KubeObject): void {
    const m = o.metadata
    const name = () => `${o.kind} ${m?.namespace ? `${m.namespace}/` : ''}${m?.name ?? ''}`
    const status = rec(o.status)
    const spec = rec(o.spec)
    this.see(m?.creationTimestamp, () => `creationTimestamp of ${name()}, ${API}`)
    for (const f of list(m?.managedFields)) this.see(f.time, () => `a write to ${name()} (managedFields), ${API}`)
    const grace = m?.deletionGracePeriodSeconds
    if (typeof grace === 'number' && Number.isFinite(grace) && grace >= 0)
      this.see(m?.deletionTimestamp, () => `the delete request of ${name()} (deletionTimestamp less ${grace}s grace), ${API}`, grace * 1000)
    if (o.kind === 'Lease') {
      this.see(spec?.renewTime, () => `renewTime of ${name()}, its holder's clock`)
      this.see(spec?.acquireTime, () => `acquireTime of ${name()}, its holder's clock`)
    }
    if (o.kind === 'Event') {
      const clock = "the reporting component's clock"
      this.see(o.firstTimestamp, () => `firstTimestamp of ${name()}, ${clock}`)
      this.see(o.lastTimestamp, () => `lastTimestamp of ${name()}, ${clock}`)
      this.see(o.eventTime, () => `eventTime of ${name()}, ${clock}`)
      this.see(rec(o.series)?.lastObservedTime, () => `series of ${name()}, ${clock}`)
      this.see(o.deprecatedFirstTimestamp, () => `firstTimestamp of ${name()}, ${clock}`)
      this.see(o.deprecatedLastTimestamp, () => `lastTimestamp of ${name()}, ${clock}`)
    }
    if (o.kind === 'Node') for (const t of list(spec?.taints)) this.see(t.timeAdded, () => `the ${t.key} taint's timeAdded on ${name()}, ${KCM}`)
    if (o.kind === 'Job') {
      this.see(status?.startTime, () => `startTime of ${name()}, ${KCM}`)
      this.see(status?.completionTime, () => `completionTime of ${name()}, ${KCM}`)
    }
    if (o.kind === 'Pod') {
      this.see(status?.startTime, () => `startTime of ${name()}, ${KUBELET}`)
      for (const key of ['initContainerStatuses', 'containerStatuses', 'ephemeralContainerStatuses'])
        for (const c of list(status?.[key]))
          for (const which of ['state', 'lastState'])
            for (const [phase, s] of Object.entries(rec(c[which]) ?? {}))
              for (const field of ['startedAt', 'finishedAt'])
                this.see(rec(s)?.[field], () => `${field} of container ${c.name} (${phase}) in ${name()}, ${KUBELET}`)
    }
    const conditionsClock: string | null | undefined =
      o.kind === 'Node'
        ? undefined
        : COMPONENT_CONDITIONS.has(String(o.kind))
          ? o.kind === 'Pod'
            ? 'the clock of the kubelet or the component that sets it'
            : 'the clock of its controller'
          : null
    for (const c of list(status?.conditions)) {
      const clock =
        conditionsClock === undefined ? (KUBELET_CONDITIONS.has(String(c.type)) ? (c.reason === 'NodeStatusUnknown' ? KCM : KUBELET) : null) : conditionsClock
      if (clock === null) continue
      this.see(c.lastHeartbeatTime, () => `the ${c.type} heartbeat of ${name()}, ${clock}`)
      this.see(c.lastTransitionTime, () => `the ${c.type} transition of ${name()}, ${clock}`)
      this.see(c.lastProbeTime, () => `the ${c.type} probe time of ${name()}, ${clock}`)
      this.see(c.lastUpdateTime, () => `the ${c.type} update time of ${name()}, ${clock}`)
    }
  }

  /** The newest instant seen and where it came from; undefined when the dump holds no usable time. */
  newest(): {at: string; what: string} | undefined {
    return this.text === undefined ? undefined : {at: this.text, what: this.what}
  }
}

export function newestTimestamp(objects: Iterable<KubeObject>): string | undefined {
  const w = new NewestWrite()
  for (const o of objects) w.add(o)
  return w.newest()?.at
}
