// The evicted check: pods the taint-eviction controller deletes, has deleted (its evidence: the DisruptionTarget
// condition, its TaintManagerEviction events) or is kept from deleting. Each is replayed by explainEvicted. A pod
// bound to a node that carries no NoExecute taint, is owed none and is not held by the circuit breaker, with no
// eviction evidence, is notAffected by the engine's first rules (explain.ts decide()) and is counted without a replay.
import type {KubeObject, ResourceType} from '../../cluster/source.js'
import {noExecuteTaints} from '../../engine/nodelifecycle/taints.js'
import {explainEvicted} from '../../engine/tainteviction/explain.js'
import type {EventLike, PodLike} from '../../engine/tainteviction/types.js'
import type {Explanation} from '../../explanation.js'
import {type Check, type CheckContext, type CheckResult, count, notRun, readNeed} from '../context.js'
import type {CheckNeeds} from '../needs.js'
import {nodeLifecycle, nodeLifecycleNeeds} from './node-lifecycle.js'

const key = (namespace: string | undefined, name: string | undefined) => `${namespace ?? ''}/${name ?? ''}`

function regarding(e: EventLike) {
  return e.involvedObject ?? e.regarding
}

export const evictedCheck: Check = {
  name: 'evicted',
  needs(_types: readonly ResourceType[]): CheckNeeds {
    return {
      lists: [
        ...nodeLifecycleNeeds('evicted'),
        {check: 'evicted', key: 'pods', ref: {apiVersion: 'v1', kind: 'Pod'}, scope: 'audit', detail: 'full', view: 'fresh', required: true, why: 'tolerations, binding time and eviction evidence of every pod'},
        {check: 'evicted', key: 'events', ref: {apiVersion: 'v1', kind: 'Event'}, scope: 'audit', detail: 'full', view: 'fresh', required: false, why: 'TaintManagerEviction events (pods already evicted)'},
      ],
      gets: [{check: 'evicted', ref: {apiVersion: 'coordination.k8s.io/v1', kind: 'Lease'}, why: 'the live lease double-check of stale nodes (circuit breaker)'}],
    }
  },

  async run(ctx: CheckContext): Promise<CheckResult> {
    const outcome = await nodeLifecycle(ctx, 'evicted')
    if (!outcome.ok) return notRun('evicted', outcome.problems, outcome.why)
    const {world} = outcome
    const problems = [...world.problems]
    const pods = readNeed(ctx, 'evicted', 'pods', problems, 'no pod can be replayed')
    if (!pods.ok) return notRun('evicted', problems, 'the pods could not be listed')
    const events = readNeed(ctx, 'evicted', 'events', problems, 'pods already evicted and deleted are not found, and evidence on live pods is limited to their DisruptionTarget condition')

    const byPod = new Map<string, EventLike[]>()
    const evictionNamed = new Set<string>()
    if (events.ok) {
      for (const e of events.items as EventLike[]) {
        const o = regarding(e)
        if ((o?.kind ?? 'Pod') !== 'Pod' || !o?.name) continue
        const k = key(o.namespace ?? e.metadata?.namespace, o.name)
        const list = byPod.get(k)
        if (list) list.push(e)
        else byPod.set(k, [e])
        if (e.reason === 'TaintManagerEviction') evictionNamed.add(k)
      }
    }
    const nodes = new Map(world.nodes.map((n) => [n.metadata?.name ?? '', n]))
    const analyses = new Map(world.analysis.nodes.map((a) => [a.name, a]))
    // Nodes where the engine can reach a verdict other than notAffected: a NoExecute taint present or owed, or the breaker.
    const affected = new Set<string>()
    for (const a of world.analysis.nodes) {
      const n = nodes.get(a.name)
      if ((n && noExecuteTaints(n).length > 0) || a.noExecute.expected !== undefined || a.verdict === 'circuitOpen') affected.add(a.name)
    }

    const verdicts: Record<string, number> = {}
    const findings: Explanation[] = []
    const seen = new Set<string>()
    const replay = (namespace: string, name: string, pod: PodLike | undefined) => {
      const nodeName = pod?.spec?.nodeName
      const e = explainEvicted({
        namespace, name, pod, events: byPod.get(key(namespace, name)) ?? [], node: nodeName ? nodes.get(nodeName) : undefined,
        nodeAnalysis: nodeName ? analyses.get(nodeName) : undefined, cluster: world.analysis, now: world.now, settings: world.settings.settings, source: world.source,
      })
      count(verdicts, e.verdict)
      if (e.severity !== 'none') findings.push(e)
    }
    let skipped = 0
    for (const p of pods.items as (KubeObject & PodLike)[]) {
      const namespace = p.metadata?.namespace ?? ''
      const name = p.metadata?.name ?? ''
      seen.add(key(namespace, name))
      const evidence = evictionNamed.has(key(namespace, name))
        || (p.status?.conditions ?? []).some((c) => c.type === 'DisruptionTarget' && c.status === 'True' && c.reason === 'DeletionByTaintManager')
      if (evidence || (p.spec?.nodeName && affected.has(p.spec.nodeName))) replay(namespace, name, p)
      else skipped++
    }
    if (skipped > 0) count(verdicts, 'notAffected', skipped)
    // Pods the controller evicted that are gone: only their events remain.
    let gone = 0
    for (const k of evictionNamed) {
      if (seen.has(k)) continue
      const slash = k.indexOf('/')
      const namespace = k.slice(0, slash)
      if (ctx.namespace !== undefined && namespace !== ctx.namespace) continue
      gone++
      replay(namespace, k.slice(slash + 1), undefined)
    }
    const notes = [`${affected.size} node(s) carry or are owed a NoExecute taint, or are held by the circuit breaker; the pods on the others are notAffected without a replay`]
    if (gone > 0) notes.push(`${gone} pod(s) no longer exist and are known from their TaintManagerEviction events`)
    return {check: 'evicted', status: problems.length > 0 ? 'partial' : 'complete', evaluated: pods.items.length + gone, verdicts, findings, problems, notes}
  },
}
