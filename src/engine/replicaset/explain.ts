// The ReplicaSet controller replay for one ReplicaSet (pkg/controller/replicaset/replica_set.go
// syncReplicaSet, RS:755): claims, active pods, expectations (inferred), manageReplicas, status, failures.
// Pure: objects, a clock and settings in; an Explanation out.
import type {Explanation, Severity, SourceDescription, Step} from '../../explanation.js'
import {filterClaimedPods, filterTerminatingPods} from './active-pods.js'
import {claimPods, type ClaimResult, type Recheck} from './claim.js'
import {BURST_REPLICAS, EXPECTATIONS_TIMEOUT_MS} from './constants.js'
import {digestEvents} from './events.js'
import {analyseCreateFailures, type CreateFailures} from './failures.js'
import {gatesFor} from './gates.js'
import {type ExpectationsInference, inferExpectations} from './infer-expectations.js'
import {type ManagePlan, planManageReplicas} from './manage.js'
import {nextSteps} from './next.js'
import {isPodReady, num, phaseOf} from './pod-util.js'
import {getIndirectlyRelatedPods} from './pods-to-delete.js'
import {deletionCost, RANK_RULES} from './ranking.js'
import {describeSelector, labelSelectorAsSelector, type Selector, SelectorError} from '../../apimachinery/labels.js'
import {calculateStatus, compareStatus, replicaFailure} from './status.js'
import {human, instant, iso} from './time.js'
import type {CoreEvent, Lease, Pod, ReplicaSet, ReplicaSetSettings, Verdict} from './types.js'

export class ReplicaSetInputError extends Error {}

export interface ReplicaSetReplayInput {
  replicaSet: ReplicaSet
  /** Every pod of the namespace as the controller's informer sees it (watch-cache view). */
  pods: readonly Pod[]
  /** The quorum view of the namespace's pods, when read separately (metadata suffices). */
  freshPods?: readonly Pod[]
  /** The namespace's ReplicaSets, for the co-location rank (siblings under the same controller). */
  replicaSets?: readonly ReplicaSet[]
  /** The ReplicaSet's events; undefined when they could not be read. */
  events?: readonly CoreEvent[]
  /** The uncached GET before adoption; undefined when no adoption is attempted or it was not read. */
  recheck?: Recheck
  /** Whether the namespace is terminating; undefined when unknown. */
  namespaceTerminating?: boolean
  /** The kube-controller-manager leader election Lease, when readable. */
  leaderLease?: Lease
  now: number
  settings: ReplicaSetSettings
  source: SourceDescription
}

export interface PodRow {
  name: string
  node: string
  phase: string
  ready: boolean
  created?: string
  deletionCost?: number
  invalidDeletionCost?: string
}

export interface DeletionRow extends PodRow {
  position: number
  chosen: boolean
  rank: number
  /** Why it goes before the next pod in the order. */
  beforeNext?: {rule: number; name: string; detail?: string}
}

export interface ReplicaSetReplay {
  desired: number
  active: number
  diff: number
  terminating: number
  selector: string
  claims: {
    owned: number
    adopt: string[]
    release: string[]
    ignore: {pod: string; why: string}[]
    recheck?: {performed: boolean; error?: string}
  }
  expectations: {
    state: ExpectationsInference['state']
    waiting: boolean
    confidence: ExpectationsInference['confidence']
    setAt?: string
    expiresAt?: string
    outstanding: {add: number; del: number}
    unobserved: ExpectationsInference['unobserved']
    burst?: ExpectationsInference['burst']
    gatedSignature: boolean
    evidence: string[]
  }
  manage: {
    runs: boolean
    /** current: planned on the pods the controller sees now; afterObservation: once the operations it waits for are observed. */
    basis: 'current' | 'afterObservation'
    action: ManagePlan['action']
    count: number
    capped: boolean
    batches?: number[]
    worstCaseDoomedCalls?: number
    deleteOrder?: DeletionRow[]
    sorted?: boolean
    /** Pods of which any `slots` may go: the choice depends on the informer's list order. */
    tie?: {pods: string[]; slots: number; reason: 'equal' | 'notTransitive'; witness?: string}
  }
  status: {
    recorded: {replicas: number; readyReplicas: number; availableReplicas: number; observedGeneration?: number; generation?: number}
    computed: ReturnType<typeof calculateStatus>
    current: boolean
    mismatches: string[]
  }
  createFailures?: CreateFailures
  eventsFromOtherIncarnation: number
}

function row(pod: Pod): PodRow {
  const cost = deletionCost(pod.metadata.annotations)
  const r: PodRow = {name: pod.metadata.name, node: pod.spec?.nodeName ?? '', phase: phaseOf(pod), ready: isPodReady(pod)}
  if (pod.metadata.creationTimestamp) r.created = pod.metadata.creationTimestamp
  if (pod.metadata.annotations?.['controller.kubernetes.io/pod-deletion-cost'] !== undefined) r.deletionCost = cost.cost
  if (cost.invalid !== undefined) r.invalidDeletionCost = cost.invalid
  return r
}

function desiredReplicas(rs: ReplicaSet): number {
  const r = rs.spec?.replicas
  // The API server defaults spec.replicas to 1; a dump may omit defaulted fields.
  if (r === undefined || r === null) return 1
  const n = num(r)
  if (!Number.isInteger(n) || n < 0) throw new ReplicaSetInputError(`ReplicaSet ${rs.metadata.name} has spec.replicas ${String(r)}, which is not a count`)
  return n
}

export function explainReplicaSet(input: ReplicaSetReplayInput): Explanation {
  const {replicaSet: rs, now} = input
  if (!rs.metadata?.name || !rs.metadata.uid) throw new ReplicaSetInputError('the ReplicaSet has no metadata.name or metadata.uid')
  const gates = gatesFor(input.settings)
  const desired = desiredReplicas(rs)
  let selector: Selector
  try {
    selector = labelSelectorAsSelector(rs.spec?.selector)
  } catch (err) {
    if (err instanceof SelectorError) throw new ReplicaSetInputError(`ReplicaSet ${rs.metadata.name} has an invalid selector: ${err.message}`)
    throw err
  }
  const steps: Step[] = []
  const ns = rs.metadata.namespace ?? ''
  const deleting = Boolean(rs.metadata.deletionTimestamp)
  const nsPods = input.pods.filter((p) => (p.metadata.namespace ?? ns) === ns)

  // Claims (RS:797-805): owned + orphans, active only, then ClaimPods.
  const claim: ClaimResult = claimPods(rs, selector, nsPods, input.recheck)
  const claimedActive = claim.claims.filter((c) => c.claimed).map((c) => c.pod)
  const adopt = claim.claims.filter((c) => c.action === 'adopt')
  const release = claim.claims.filter((c) => c.action === 'release')
  const ignore = claim.claims.filter((c) => c.action === 'ignore')
  const terminating = filterClaimedPods(rs.metadata.uid, selector, filterTerminatingPods(nsPods))
  steps.push({
    rule: 'FilterPodsByOwner+FilterActivePods',
    upstream: 'pkg/controller/controller_utils.go:1169,1001',
    inputs: {podsInNamespace: nsPods.length, selector: describeSelector(rs.spec?.selector)},
    result: `${claim.considered} active pods owned or orphaned`,
    why: `pods whose controllerRef is this ReplicaSet plus every orphan in ${ns}; terminating (deletionTimestamp) and finished (Succeeded/Failed) pods do not count (${terminating.length} terminating, counted apart)`,
  })
  steps.push({
    rule: 'ClaimPods',
    upstream: 'pkg/controller/controller_ref_manager.go:69',
    inputs: {owned: claim.claims.filter((c) => c.action === 'owned').length, adopt: adopt.length, release: release.length, ignore: ignore.length},
    result: claim.claimError ? 'error' : adopt.length > 0 ? 'adopt' : release.length > 0 ? 'release' : 'claimed',
    why: claim.claimError
      ? `${claim.claimError}: claimPods returns this error and syncReplicaSet stops before manageReplicas and before the status update`
      : adopt.length > 0
        ? `${adopt.length} orphan(s) match the selector and are adopted after the uncached recheck of the ReplicaSet (${input.recheck === undefined ? 'not read: assumed to pass' : 'passed'})`
        : release.length > 0
          ? `${release.length} owned pod(s) no longer match the selector and are released`
          : deleting
            ? 'the ReplicaSet is being deleted: owned matching pods stay claimed, nothing is adopted or released'
            : 'every active candidate is owned and matches the selector',
  })

  // Expectations (RS:789): inferred.
  const digest = input.events === undefined ? undefined : digestEvents(rs, input.events)
  const computed = calculateStatus(rs, claimedActive, terminating, now)
  const statusCmp = compareStatus(rs, computed)
  const failure = replicaFailure(rs)
  const diff = claimedActive.length - desired
  const leaderSince = instant(input.leaderLease?.spec?.acquireTime)
  const expectations = inferExpectations({
    rs,
    now,
    pods: nsPods,
    freshPods: input.freshPods,
    actions: digest?.actions,
    diff,
    status: statusCmp,
    failure: failure?.status === 'True' ? failure : undefined,
    namespaceTerminating: input.namespaceTerminating,
    leaderSince: leaderSince ?? undefined,
  })
  steps.push({
    rule: 'SatisfiedExpectations',
    upstream: 'pkg/controller/controller_utils.go:195',
    inputs: {
      setAt: expectations.setAt,
      expiresAt: expectations.expiresAt,
      outstanding: expectations.outstanding,
      timeoutSeconds: EXPECTATIONS_TIMEOUT_MS / 1000,
    },
    result: expectations.waiting ? 'unsatisfied' : 'satisfied',
    why: expectations.evidence.join('; '),
    inferred: {evidence: expectations.evidence.join('; '), confidence: expectations.confidence},
  })

  // manageReplicas (RS:818): only when expectations are satisfied and the RS is not being deleted. While the
  // controller waits, what it does next is planned on the view it will have once the operations it waits
  // for are observed.
  const basis = expectations.waiting && expectations.unobserved.length > 0 ? 'afterObservation' : 'current'
  const planPods = basis === 'afterObservation' ? afterObservation(nsPods, input.freshPods, expectations, now) : nsPods
  const planActive =
    basis === 'afterObservation'
      ? claimPods(rs, selector, planPods, input.recheck)
          .claims.filter((c) => c.claimed)
          .map((c) => c.pod)
      : claimedActive
  const related = getIndirectlyRelatedPods(rs, input.replicaSets ?? [rs], planPods)
  const plan = planManageReplicas(planActive, desired, related, now, gates)
  const manageRuns = !deleting && !expectations.waiting && claim.claimError === undefined
  steps.push({
    rule: 'manageReplicas',
    upstream: 'pkg/controller/replicaset/replica_set.go:649',
    inputs: {active: claimedActive.length, desired, diff, burstReplicas: BURST_REPLICAS},
    result: !manageRuns ? 'skipped' : plan.action === 'none' ? 'nothing to do' : `${plan.action} ${plan.count}`,
    why: !manageRuns
      ? deleting
        ? 'the ReplicaSet has a deletionTimestamp: syncReplicaSet never calls manageReplicas (RS:818)'
        : claim.claimError
          ? 'the claim error aborts the sync first'
          : 'expectations are not satisfied: syncReplicaSet skips manageReplicas and only updates status'
      : plan.action === 'none'
        ? `${claimedActive.length} active pods = spec.replicas`
        : `${Math.abs(diff)} ${diff < 0 ? 'missing' : 'surplus'}${plan.capped ? `, capped at burstReplicas ${BURST_REPLICAS} per sync` : ''}`,
  })
  if (plan.action === 'create' && !deleting && claim.claimError === undefined) {
    steps.push({
      rule: 'slowStartBatch',
      upstream: 'pkg/controller/replicaset/replica_set.go:887',
      inputs: {count: plan.count, initialBatchSize: 1},
      result: (plan.batches ?? []).join(', '),
      why: `ExpectCreations(${plan.count}) then batches of 1, 2, 4, …; a failure stops after its batch: if creates fail from the start, 1 doomed call per sync, at worst ${plan.worstCaseDoomedCalls} (a whole batch)`,
    })
  }
  if (plan.action === 'delete' && plan.deletion && !deleting && claim.claimError === undefined) {
    const d = plan.deletion
    steps.push({
      rule: 'getPodsToDelete',
      upstream: 'pkg/controller/replicaset/replica_set.go:941; pkg/controller/controller_utils.go:843',
      inputs: {
        candidates: claimedActive.length,
        deleting: plan.count,
        relatedPods: related?.length ?? null,
        logarithmicBuckets: gates.LogarithmicScaleDown,
        podDeletionCost: gates.PodDeletionCost,
      },
      result: d.chosen.map((p) => p.metadata.name).join(', '),
      why: !d.sorted
        ? 'every active pod goes: upstream does not sort them'
        : `sorted by ActivePodsWithRanks${d.cut?.rule ? `; the cut falls on rule ${d.cut.rule} (${RANK_RULES[d.cut.rule]}${d.cut.detail ? `: ${d.cut.detail}` : ''})` : ''}${d.tie ? `; ${d.tie.pods.length} pods straddle the cut (${d.tie.reason === 'equal' ? 'equal on every rule' : 'Less is not transitive among them'}) and Go's unstable sort over the informer's list order picks ${d.tie.slots} of them: which ones, this replay cannot know` : ''}${related === undefined ? '; no controller reference, so every co-location rank is 0' : ''}`,
    })
  }

  // calculateStatus (RS:824): always written, even when gated.
  const recordedGeneration = rs.status?.observedGeneration === undefined ? undefined : num(rs.status.observedGeneration)
  steps.push({
    rule: 'calculateStatus',
    upstream: 'pkg/controller/replicaset/replica_set_utils.go:96',
    inputs: {
      recorded: {
        replicas: num(rs.status?.replicas),
        readyReplicas: num(rs.status?.readyReplicas),
        availableReplicas: num(rs.status?.availableReplicas),
        observedGeneration: recordedGeneration,
        generation: rs.metadata.generation === undefined ? undefined : num(rs.metadata.generation),
      },
      computed,
    },
    result: statusCmp.generationObserved && statusCmp.countsMatch ? 'current' : 'stale',
    why:
      statusCmp.generationObserved && statusCmp.countsMatch
        ? 'the recorded status matches the pods now: the controller has synced since they reached this state (status is written even when manageReplicas is skipped)'
        : `the next sync writes ${[...statusCmp.mismatches, ...(statusCmp.generationObserved ? [] : ['observedGeneration'])].join(', ')}`,
  })

  const failures = analyseCreateFailures(digest?.actions, failure)
  if (failures) {
    steps.push({
      rule: 'createPods',
      upstream: 'pkg/controller/controller_utils.go:592',
      inputs: {failedCalls: failures.failedCalls, firstAt: failures.firstAt, lastAt: failures.lastAt, condition: failures.condition?.reason},
      result: failures.failingNow ? 'failing' : 'recovered',
      why: `${failures.detail ?? 'creates fail'}: ${failures.error ?? ''}`.trim(),
    })
  }

  // The verdict, in the order syncReplicaSet meets the conditions.
  const freshDeleting =
    input.recheck?.read === 'found' && input.recheck.replicaSet.metadata.uid === rs.metadata.uid && Boolean(input.recheck.replicaSet.metadata.deletionTimestamp)
  let verdict: Verdict
  let severity: Severity
  if (deleting || freshDeleting) {
    verdict = 'beingDeleted'
    severity = 'info'
  } else if (adopt.length > 0) {
    verdict = 'adoptionPending'
    severity = claim.claimError ? 'warning' : 'info'
  } else if (expectations.waiting) {
    verdict = 'waitingForExpectations'
    severity = 'warning'
  } else if (diff < 0 && failures?.failingNow) {
    verdict = 'createsFailing'
    severity = 'critical'
  } else if (diff < 0) {
    verdict = 'willCreate'
    severity = expectations.gatedSignature ? 'warning' : 'info'
  } else if (diff > 0) {
    verdict = 'willDelete'
    severity = expectations.gatedSignature ? 'warning' : 'info'
  } else {
    verdict = 'converged'
    severity = release.length > 0 ? 'info' : 'none'
  }

  const replay: ReplicaSetReplay = {
    desired,
    active: claimedActive.length,
    diff,
    terminating: terminating.length,
    selector: describeSelector(rs.spec?.selector),
    claims: {
      owned: claim.claims.filter((c) => c.action === 'owned').length,
      adopt: adopt.map((c) => c.pod.metadata.name),
      release: release.map((c) => c.pod.metadata.name),
      ignore: ignore.map((c) => ({pod: c.pod.metadata.name, why: c.why})),
      ...(claim.adoptionAttempted ? {recheck: {performed: input.recheck !== undefined, ...(claim.claimError ? {error: claim.claimError} : {})}} : {}),
    },
    expectations: {
      state: expectations.state,
      waiting: expectations.waiting,
      confidence: expectations.confidence,
      ...(expectations.setAt ? {setAt: expectations.setAt} : {}),
      ...(expectations.expiresAt ? {expiresAt: expectations.expiresAt} : {}),
      outstanding: expectations.outstanding,
      unobserved: expectations.unobserved,
      ...(expectations.burst ? {burst: expectations.burst} : {}),
      gatedSignature: expectations.gatedSignature,
      evidence: expectations.evidence,
    },
    manage: {
      runs: manageRuns,
      basis,
      action: plan.action,
      count: plan.count,
      capped: plan.capped,
      ...(plan.batches ? {batches: plan.batches, worstCaseDoomedCalls: plan.worstCaseDoomedCalls} : {}),
      ...(plan.deletion ? deletionView(plan) : {}),
    },
    status: {
      recorded: {
        replicas: num(rs.status?.replicas),
        readyReplicas: num(rs.status?.readyReplicas),
        availableReplicas: num(rs.status?.availableReplicas),
        ...(recordedGeneration !== undefined ? {observedGeneration: recordedGeneration} : {}),
        ...(rs.metadata.generation !== undefined ? {generation: num(rs.metadata.generation)} : {}),
      },
      computed,
      current: statusCmp.generationObserved && statusCmp.countsMatch,
      mismatches: statusCmp.mismatches,
    },
    ...(failures ? {createFailures: failures} : {}),
    eventsFromOtherIncarnation: digest?.otherIncarnation ?? 0,
  }

  const explanation: Explanation = {
    subject: {kind: 'ReplicaSet', apiVersion: 'apps/v1', namespace: ns, name: rs.metadata.name, uid: rs.metadata.uid},
    controller: 'replicaset',
    verdict,
    severity,
    summary: summarize(verdict, replay, expectations, failures, claim, now, rs),
    steps,
    evaluatedAt: iso(now),
    source: input.source,
    replicaSet: replay,
  }
  const next = nextSteps({
    verdict,
    rs,
    createFailures: failures,
    claimError: claim.claimError,
    adopt: replay.claims.adopt,
    release: replay.claims.release,
    chosen: (replay.manage.deleteOrder ?? []).filter((d) => d.chosen).map((d) => d.name),
    tie: replay.manage.tie,
    unobserved: expectations.unobserved.map((u) => u.pod),
    expiresAt: expectations.expiresAt,
  })
  if (next) explanation.next = next
  return explanation
}

/** The informer's view once the unobserved operations arrive: deleted pods terminating, created pods present. */
function afterObservation(pods: readonly Pod[], fresh: readonly Pod[] | undefined, e: ExpectationsInference, now: number): Pod[] {
  const freshByName = new Map((fresh ?? []).map((p) => [p.metadata.name, p]))
  const out = [...pods]
  for (const u of e.unobserved) {
    const i = out.findIndex((p) => p.metadata.name === u.pod)
    if (u.op === 'delete' && i !== -1) {
      const f = freshByName.get(u.pod)
      out[i] = {...out[i], metadata: {...out[i].metadata, deletionTimestamp: f?.metadata.deletionTimestamp ?? iso(now)}}
    } else if (u.op === 'create' && i === -1) {
      const f = freshByName.get(u.pod)
      if (f) out.push(f)
    }
  }
  return out
}

function deletionView(plan: ManagePlan): Pick<ReplicaSetReplay['manage'], 'deleteOrder' | 'sorted' | 'tie'> {
  const d = plan.deletion!
  return {
    sorted: d.sorted,
    deleteOrder: d.candidates.map((c) => ({
      ...row(c.pod),
      position: c.position,
      chosen: c.chosen,
      rank: c.rank,
      ...(c.versusNext?.rule
        ? {beforeNext: {rule: c.versusNext.rule, name: RANK_RULES[c.versusNext.rule], ...(c.versusNext.detail ? {detail: c.versusNext.detail} : {})}}
        : {}),
    })),
    ...(d.tie
      ? {
          tie: {
            pods: d.tie.pods.map((p) => p.metadata.name),
            slots: d.tie.slots,
            reason: d.tie.reason,
            ...(d.tie.witness ? {witness: witnessText(d.tie.witness)} : {}),
          },
        }
      : {}),
  }
}

/** "b before a (rule 7, …), a before c (rule 6, …), yet c before b (rule 6, …)": why Less orders these three inconsistently. */
function witnessText(w: NonNullable<NonNullable<ManagePlan['deletion']>['tie']>['witness'] & {}): string {
  const pair = (p: (typeof w.pairs)[number]) =>
    p.comparison.less && p.comparison.rule
      ? `${p.before.metadata.name} before ${p.after.metadata.name} (rule ${p.comparison.rule}: ${p.comparison.detail ?? RANK_RULES[p.comparison.rule]})`
      : p.comparison.rule
        ? `${p.after.metadata.name} before ${p.before.metadata.name} (rule ${p.comparison.rule}: ${p.comparison.detail ?? RANK_RULES[p.comparison.rule]})`
        : `${p.before.metadata.name} and ${p.after.metadata.name} equal on every rule`
  return `${w.pairs.slice(0, 2).map(pair).join(', ')}, yet ${pair(w.pairs[2])}${w.cycle ? ': a cycle' : ''}`
}

function tieText(t: NonNullable<ReplicaSetReplay['manage']['tie']>): string {
  const why =
    t.reason === 'equal'
      ? 'they compare equal on every rule'
      : `ActivePodsWithRanks.Less is not a strict weak order among them${t.witness ? ` (${t.witness})` : ''}`
  return `order-dependent: which ${t.slots} of ${t.pods.join(', ')} go depends on the order the informer lists them — ${why}`
}

function summarize(
  verdict: Verdict,
  r: ReplicaSetReplay,
  e: ExpectationsInference,
  f: CreateFailures | undefined,
  claim: ClaimResult,
  now: number,
  rs: ReplicaSet,
): string {
  const head = `${r.active} active pod(s) for ${r.desired} desired${r.terminating ? ` (${r.terminating} more terminating, not counted)` : ''}`
  const statusNote = r.status.current ? ' Its status is still updated while it waits, which is why status looks current while the pods do not change.' : ''
  switch (verdict) {
    case 'beingDeleted':
      return `${head}. The ReplicaSet is being deleted (deletionTimestamp ${rs.metadata.deletionTimestamp ?? 'set in the uncached read'}): the controller neither creates, deletes nor adopts pods; it only updates status while the garbage collector removes the dependents.`
    case 'adoptionPending':
      return claim.claimError
        ? `${head}. ${r.claims.adopt.length} orphan pod(s) match the selector but adoption is refused — ${claim.claimError} — and the whole sync aborts before manageReplicas and the status update.`
        : `${head}, counting adoptions: ${r.claims.adopt.length} orphan pod(s) match the selector (${r.claims.adopt.slice(0, 5).join(', ')}${r.claims.adopt.length > 5 ? ', …' : ''}); the next sync rechecks the ReplicaSet with an uncached GET, patches in its controller reference, then ${nextAction(r)}.`
    case 'waitingForExpectations': {
      const pending =
        e.unobserved.length > 0
          ? `${e.outstanding.del ? `${e.outstanding.del} delete(s)` : ''}${e.outstanding.del && e.outstanding.add ? ' and ' : ''}${e.outstanding.add ? `${e.outstanding.add} create(s)` : ''} it issued (${e.unobserved
              .map((u) => u.pod)
              .slice(0, 5)
              .join(', ')}) to be observed by its informer`
          : 'operations it issued that its informer has not observed (inferred from the status, not from a named pod)'
      const window = e.expiresAt
        ? ` or until the expectations expire at ${e.expiresAt} (${expiryIn(e.expiresAt, now)})`
        : ' or until the 5-minute expectations timeout'
      return `${head}. The controller is waiting for ${pending}; it skips manageReplicas until then${window}, then ${nextAction(r)}.${statusNote}`
    }
    case 'createsFailing': {
      const what = f?.detail ? `${f.detail}: ` : ''
      return `${head}. Creates fail — ${what}${f?.error ?? 'see the ReplicaFailure condition'}. Each sync expects ${r.manage.count} create(s), makes 1 doomed call (slow start begins with a batch of 1), subtracts the rest from its expectations and retries with exponential backoff (5 ms doubling, at most 16m40s apart)${f?.failedCalls ? `; ${f.failedCalls} failed call(s) on record${f.firstAt ? ` since ${f.firstAt}` : ''}` : ''}.`
    }
    case 'willCreate':
      return `${head}. ${e.gatedSignature && e.state === 'expired' ? `The expectations expired at ${e.expiresAt} but nothing has re-synced the ReplicaSet since; at its next sync it ` : 'The next sync '}creates ${r.manage.count} pod(s)${r.manage.capped ? ` (capped at ${BURST_REPLICAS})` : ''} in slow-start batches ${(r.manage.batches ?? []).join(', ')}.`
    case 'willDelete':
      return `${head}. ${e.gatedSignature && e.state === 'expired' ? `The expectations expired at ${e.expiresAt} but nothing has re-synced the ReplicaSet since; at its next sync it ` : 'The next sync '}deletes ${r.manage.count} pod(s), in this order: ${(
        r.manage.deleteOrder ?? []
      )
        .filter((d) => d.chosen)
        .map((d) => d.name)
        .join(', ')}${r.manage.tie ? ` (${tieText(r.manage.tie)})` : ''}.`
    case 'converged':
      return `${head}: nothing to do.${r.claims.release.length ? ` ${r.claims.release.length} pod(s) no longer match the selector and are released.` : ''}`
  }
}

function nextAction(r: ReplicaSetReplay): string {
  if (r.manage.action === 'none') return 'has nothing to create or delete'
  if (r.manage.action === 'create') return `creates ${r.manage.count} pod(s) in slow-start batches ${(r.manage.batches ?? []).join(', ')}`
  return `deletes ${r.manage.count} pod(s): ${(r.manage.deleteOrder ?? [])
    .filter((d) => d.chosen)
    .map((d) => d.name)
    .join(', ')}`
}

function expiryIn(at: string, now: number): string {
  const ms = Date.parse(at) - now
  return ms >= 0 ? `in ${human(ms)}` : `${human(-ms)} ago`
}
