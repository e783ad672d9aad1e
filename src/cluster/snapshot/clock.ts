// When a dump does not say when it was taken, the newest write inside it is the best evidence of the capture
// time: the dump cannot predate any write it holds, so that instant is a lower bound ("estimated"). Only clocks
// that are the cluster's own count: times the API server stamps (creationTimestamp, managedFields[].time), the
// kubelet's Lease renewals and its own node conditions (Ready, MemoryPressure, DiskPressure, PIDPressure), and
// events. Conditions other agents write on Nodes (node-problem-detector, a distribution's own agent) run on
// their own schedules and clocks and are not used; neither is deletionTimestamp, which is set in the future
// (the request's time plus the grace period).
import type {KubeObject} from '../source.js'

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}/
/** The kubelet's own node conditions (pkg/kubelet/nodestatus/setters.go). */
const KUBELET_CONDITIONS = new Set(['Ready', 'MemoryPressure', 'DiskPressure', 'PIDPressure'])

export class NewestWrite {
  private at: number | undefined
  private text: string | undefined
  private what = ''

  private see(candidate: unknown, what: () => string): void {
    if (typeof candidate !== 'string' || !ISO.test(candidate)) return
    const t = Date.parse(candidate)
    if (Number.isNaN(t) || (this.at !== undefined && t <= this.at)) return
    this.at = t
    this.text = candidate
    this.what = what()
  }

  add(o: KubeObject): void {
    const m = o.metadata
    const name = () => `${o.kind} ${m?.namespace ? `${m.namespace}/` : ''}${m?.name ?? ''}`
    this.see(m?.creationTimestamp, () => `creationTimestamp of ${name()}`)
    const fields = m?.managedFields
    if (Array.isArray(fields)) for (const f of fields as {time?: unknown}[]) this.see(f?.time, () => `a write to ${name()} (managedFields)`)
    if (o.kind === 'Lease') this.see((o.spec as {renewTime?: unknown} | undefined)?.renewTime, () => `renewTime of ${name()}`)
    if (o.kind === 'Event') {
      this.see(o.lastTimestamp, () => `lastTimestamp of ${name()}`)
      this.see(o.eventTime, () => `eventTime of ${name()}`)
      this.see((o.series as {lastObservedTime?: unknown} | undefined)?.lastObservedTime, () => `series of ${name()}`)
      this.see(o.deprecatedLastTimestamp, () => `lastTimestamp of ${name()}`)
    }
    if (o.kind === 'Node') {
      const conditions = (o.status as {conditions?: unknown} | undefined)?.conditions
      if (Array.isArray(conditions)) {
        for (const c of conditions as {type?: unknown; lastHeartbeatTime?: unknown; lastTransitionTime?: unknown}[]) {
          if (!KUBELET_CONDITIONS.has(String(c?.type))) continue
          this.see(c.lastHeartbeatTime, () => `the ${c.type} heartbeat of ${name()}`)
          this.see(c.lastTransitionTime, () => `the ${c.type} transition of ${name()}`)
        }
      }
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
