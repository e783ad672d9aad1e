// Property tests (fast-check, fixed seeds, bounded runs) for issue 31: the upstream monitor pass is re-stated below
// from node_lifecycle_controller.go (nlc.go@2b96ebcf tryUpdateNodeHealth :828-1031, handleDisruption :1033-1121),
// independently of src/, and run over generated histories; the offline replay, given only the snapshot at the end,
// must reach the same answer. The histories follow the model of docs/node-lifecycle-model.md: one controller running
// throughout, a pass every --node-monitor-period, each stamp written at a pass instant and seen by it.
import assert from 'node:assert/strict'
import {describe, it} from 'node:test'
import fc from 'fast-check'
import {analyzeCluster} from '../../../src/engine/nodelifecycle/analyze.js'
import type {LiveLeaseLookup} from '../../../src/engine/nodelifecycle/health.js'
import {NEWEST_DEFAULTS, type LeaseLike, type NodeLike, type Taint} from '../../../src/engine/nodelifecycle/types.js'

const P = 5 // --node-monitor-period, seconds
const G = 50 // --node-monitor-grace-period, seconds
const T0 = Date.parse('2026-06-01T12:00:00Z')
const sec = (s: number) => new Date(T0 + s * 1000).toISOString().replace('.000Z', 'Z')
const micro = (s: number) => new Date(T0 + s * 1000).toISOString().replace('Z', '000Z')

// ---- upstream, re-stated ----

interface History {
  created: number // the node's creationTimestamp (a pass instant, s)
  firstStampSkew: number // the kubelet's first heartbeat stamp is this many seconds before creation (clock behind)
  heartbeats: number[] // instants the kubelet changed lastHeartbeatTime (pass instants after creation)
  lease?: {created: number; renewals: number[]; withoutRenewTime: boolean}
  end: number // the last pass instant
  endMicros: number // the evaluation instant is end + this many µs (a pass runs then too)
}

/** Stamp values as the objects carry them at instant t. */
function stampsAt(h: History, t: number) {
  const hbs = [h.created, ...h.heartbeats].filter((x) => x <= t)
  const last = hbs.at(-1)!
  const hb = last === h.created ? h.created - h.firstStampSkew : last
  const leaseExists = h.lease !== undefined && h.lease.created <= t
  const renew = leaseExists && !h.lease!.withoutRenewTime ? h.lease!.renewals.filter((x) => x <= t).at(-1) : undefined
  return {hb, leaseExists, renew}
}

/**
 * tryUpdateNodeHealth steps 1-5 over the history: returns whether the pass at the evaluation instant finds the node
 * stale, or 'earlier' when a pass before it already did (the snapshot would then show the controller's write).
 */
function reference(h: History): boolean | 'earlier' {
  type Rec = {probe: number; savedHb: number; lease: {renew?: number} | null}
  let rec: Rec | undefined
  const passes: number[] = []
  for (let t = h.created; t <= h.end; t += P) passes.push(t * 1e6)
  const evalAt = h.end * 1e6 + h.endMicros
  if (h.endMicros > 0) passes.push(evalAt)
  for (const tUs of passes) {
    const s = stampsAt(h, Math.floor(tUs / 1e6))
    let savedLease: {renew?: number} | null = null
    if (!rec)
      rec = {probe: tUs, savedHb: s.hb, lease: null} // first sight: probe = now
    else {
      savedLease = rec.lease
      // A heartbeat change rebuilds the record, without its lease (nlc.go:915-935).
      if (rec.savedHb !== s.hb) rec = {probe: tUs, savedHb: s.hb, lease: null}
    }
    // Step 4: observedLease != nil && (savedLease == nil || savedLease.renewTime.Before(observed.renewTime)).
    if (s.leaseExists) {
      const before = savedLease !== null && savedLease.renew !== undefined && s.renew !== undefined && savedLease.renew < s.renew
      if (savedLease === null || before) {
        rec.lease = {renew: s.renew}
        rec.probe = tUs
      }
    }
    const stale = tUs > rec.probe + G * 1e6
    if (tUs === evalAt) return stale
    if (stale) return 'earlier'
  }
  return false
}

// ---- the snapshot at the end, and the replay ----

function snapshotNode(h: History): {node: NodeLike; lease?: LeaseLike} {
  const s = stampsAt(h, h.end)
  const node: NodeLike = {
    metadata: {name: 'n1', uid: 'n1', creationTimestamp: sec(h.created), labels: {'topology.kubernetes.io/zone': 'a'}},
    spec: {},
    status: {conditions: [{type: 'Ready', status: 'True', reason: 'KubeletReady', lastHeartbeatTime: sec(s.hb), lastTransitionTime: sec(h.created)}]},
  }
  if (!s.leaseExists) return {node}
  return {
    node,
    lease: {
      metadata: {name: 'n1', namespace: 'kube-node-lease', resourceVersion: '10', creationTimestamp: sec(h.lease!.created)},
      spec: {holderIdentity: 'n1', leaseDurationSeconds: 40, ...(s.renew !== undefined ? {renewTime: micro(s.renew)} : {})},
    },
  }
}

/** Two healthy nodes in another zone keep the cluster out of master disruption mode. */
function healthy(name: string, end: number): {node: NodeLike; lease: LeaseLike} {
  return {
    node: {
      metadata: {name, uid: name, creationTimestamp: sec(-86400), labels: {'topology.kubernetes.io/zone': 'b'}},
      spec: {},
      status: {conditions: [{type: 'Ready', status: 'True', lastHeartbeatTime: sec(end), lastTransitionTime: sec(-86400)}]},
    },
    lease: {metadata: {name, namespace: 'kube-node-lease', resourceVersion: '11'}, spec: {renewTime: micro(end)}},
  }
}

function replayStale(h: History): boolean {
  const {node, lease} = snapshotNode(h)
  const others = [healthy('h1', h.end), healthy('h2', h.end)]
  const leases = new Map<string, LeaseLike>(others.map((o) => [o.node.metadata!.name!, o.lease]))
  if (lease) leases.set('n1', lease)
  const live = new Map([...leases].map(([n, l]) => [n, {kind: 'found', lease: l} as LiveLeaseLookup]))
  const nowMicros = (T0 + h.end * 1000) * 1000 + h.endMicros
  const c = analyzeCluster({
    nodes: [node, ...others.map((o) => o.node)],
    cachedLeases: leases,
    liveLeases: live,
    now: Math.floor(nowMicros / 1000),
    nowMicros,
    settings: NEWEST_DEFAULTS,
    leaseInformerSyncRV: '1000',
  })
  return c.nodes.find((n) => n.name === 'n1')!.stale
}

// ---- generators: leases present / absent / stale / without renewTime, heartbeats newer than leases, nodes created
// within the grace, microsecond clocks ----

const grid = (lo: number, hi: number) => fc.integer({min: lo / P, max: hi / P}).map((k) => k * P)
const history: fc.Arbitrary<History> = fc
  .record({
    created: grid(0, 60),
    firstStampSkew: fc.oneof(fc.constant(0), fc.integer({min: 1, max: 600})),
    heartbeats: fc.uniqueArray(grid(5, 200), {maxLength: 4}),
    lease: fc.option(fc.record({created: grid(0, 200), renewals: fc.uniqueArray(grid(0, 200), {maxLength: 6}), withoutRenewTime: fc.boolean()}), {
      nil: undefined,
    }),
    span: grid(0, 120),
    endMicros: fc.oneof(fc.constant(0), fc.integer({min: 1, max: 999}), fc.integer({min: 1000, max: P * 1e6 - 1})),
  })
  .map(({created, firstStampSkew, heartbeats, lease, span, endMicros}) => {
    const end = Math.max(...heartbeats, ...(lease ? [lease.created, ...lease.renewals] : []), created) + span
    const hbs = heartbeats.filter((x) => x > created).sort((a, b) => a - b)
    const l = lease
      ? {
          created: Math.max(lease.created, created),
          // The kubelet creates its Lease with renewTime set; a Lease without one never gains one here (with a nil
          // saved renewTime, MicroTime.Before is false: later renewals would not count until a heartbeat change).
          renewals: [...new Set([Math.max(lease.created, created), ...lease.renewals.filter((x) => x >= Math.max(lease.created, created))])].sort(
            (a, b) => a - b,
          ),
          withoutRenewTime: lease.withoutRenewTime,
        }
      : undefined
    // A skewed first stamp stays the only heartbeat: later stamps would carry the skew too (not modelled).
    return {created, firstStampSkew: hbs.length === 0 ? firstStampSkew : 0, heartbeats: hbs, lease: l, end, endMicros}
  })

describe('properties: the replay agrees with the re-stated tryUpdateNodeHealth (issue 31)', () => {
  it('stale or not at the evaluation instant, over generated histories (seed 3101)', () => {
    fc.assert(
      fc.property(history, (h) => {
        const ref = reference(h)
        fc.pre(ref !== 'earlier') // the controller already wrote Unknown: another snapshot shape
        assert.equal(replayStale(h), ref, JSON.stringify(h))
      }),
      {seed: 3101, numRuns: 600},
    )
  })
})

// ---- handleDisruption: every path into and out of master disruption, one pass ----

type Kind = 'fresh' | 'staleNow' | 'unknown' | 'unknownTainted'
const UNREACH: Taint = {key: 'node.kubernetes.io/unreachable', effect: 'NoExecute', timeAdded: sec(-300)}

function clusterNode(name: string, zone: string, k: Kind): {node: NodeLike; lease: LeaseLike} {
  const unknown = k === 'unknown' || k === 'unknownTainted'
  return {
    node: {
      metadata: {name, uid: name, creationTimestamp: sec(-86400), labels: {'topology.kubernetes.io/zone': zone}},
      spec: {taints: k === 'unknownTainted' ? [UNREACH] : []},
      status: {
        conditions: [
          {
            type: 'Ready',
            status: unknown ? 'Unknown' : 'True',
            reason: unknown ? 'NodeStatusUnknown' : 'KubeletReady',
            lastHeartbeatTime: sec(-700),
            lastTransitionTime: sec(unknown ? -400 : -86400),
          },
        ],
      },
    },
    // fresh: renewed 1 s ago; staleNow: 51 s ago (> 50 s grace: Unknown this pass); unknown: long ago.
    lease: {
      metadata: {name, namespace: 'kube-node-lease', resourceVersion: '7'},
      spec: {renewTime: micro(k === 'fresh' ? -1 : k === 'staleNow' ? -51 : -450)},
    },
  }
}

/** ComputeZoneState (nlc.go:1318-1336), re-stated: float32 share against the 0.55 default, more than 2 not ready. */
function zoneState(notReady: number, ready: number): 'Full' | 'Partial' | 'Normal' {
  if (ready === 0 && notReady > 0) return 'Full'
  if (notReady > 2 && Math.fround(notReady / (ready + notReady)) >= Math.fround(0.55)) return 'Partial'
  return 'Normal'
}

describe('properties: master disruption entry strips the NoExecute taints in the same pass (issue 31 class 1)', () => {
  it('entered iff every zone is Full after the pass and not all before; then no node keeps its taint (seed 3102)', () => {
    const kind = fc.constantFrom<Kind>('fresh', 'staleNow', 'unknown', 'unknownTainted')
    fc.assert(
      fc.property(fc.array(fc.array(kind, {minLength: 1, maxLength: 4}), {minLength: 1, maxLength: 3}), (zones) => {
        const built = zones.flatMap((ks, z) => ks.map((k, i) => ({k, ...clusterNode(`z${z}n${i}`, `zone-${z}`, k)})))
        const leases = new Map(built.map((b) => [b.node.metadata!.name!, b.lease]))
        const live = new Map([...leases].map(([n, l]) => [n, {kind: 'found', lease: l} as LiveLeaseLookup]))
        const c = analyzeCluster({
          nodes: built.map((b) => b.node),
          cachedLeases: leases,
          liveLeases: live,
          now: T0,
          settings: NEWEST_DEFAULTS,
          leaseInformerSyncRV: '1000',
        })
        // Before the pass the conditions stand as written (staleNow still True); after it staleNow is Unknown.
        const before = zones.map((ks) =>
          zoneState(ks.filter((k) => k === 'unknown' || k === 'unknownTainted').length, ks.filter((k) => k === 'fresh' || k === 'staleNow').length),
        )
        const after = zones.map((ks) => zoneState(ks.filter((k) => k !== 'fresh').length, ks.filter((k) => k === 'fresh').length))
        const allWere = before.every((s) => s === 'Full')
        const allAre = after.every((s) => s === 'Full')
        const expected = allAre && !allWere ? 'entered' : allAre && allWere ? 'stays' : allWere ? 'exited' : 'none'
        if (expected === 'stays' && c.contradicted) return // refused from the taints' times: another test's case
        assert.equal(c.masterDisruptionChange, expected, JSON.stringify(zones))
        for (const b of built) {
          const n = c.nodes.find((x) => x.name === b.node.metadata!.name)!
          if (expected === 'entered') {
            assert.equal(n.noExecute.present, undefined, n.name)
            assert.equal(n.noExecute.removedThisPass !== undefined, b.k === 'unknownTainted', n.name)
          } else assert.equal(n.noExecute.removedThisPass, undefined, n.name)
        }
      }),
      {seed: 3102, numRuns: 400},
    )
  })
})
