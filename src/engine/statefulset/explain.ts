// `kubectl why hash statefulset/NAME`: getStatefulSetRevisions (pkg/controller/statefulset/stateful_set_control.go:266)
// replayed: the candidate revision a controller of this version builds from the set (getPatch bytes,
// HashControllerRevision with status.collisionCount as the probe, ControllerRevisionName), which existing revision is
// equal to it, whether it reuses, rolls back, reuses by semantic comparison (StatefulSetSemanticRevisionComparison) or
// creates a revision (and collides), each revision's name against its own data, and the pods on each revision. Pure.
import {nextOf, workloadNextSteps} from '../deployment/next.js'
import {ControllerRevisionName} from '../../hash/controller-revision.js'
import {getLayout} from '../../hash/layouts.js'
import type {Explanation, Step} from '../../explanation.js'
import {claimed, claimObjects, type ClaimResult, MissingDataError} from '../deployment/claim.js'
import {collisionCountOf, type HashVerdict, severityOf, templateOf} from '../deployment/common.js'
import {getControllerOf} from '../../apimachinery/owner-references.js'
import {semanticTemplateEqual} from '../deployment/semantic.js'
import {CONTROLLER_REVISION_HASH_LABEL} from '../history/constants.js'
import {diagnose, isRedacted, type LabelCheck, versionRange} from '../history/label-check.js'
import {layoutVersions} from '../../hash/layout-data.js'
import type {PodMeta, Workload, WorkloadInput} from '../deployment/types.js'
import type {ControllerRevision} from '../history/types.js'
import {
  checkRevision,
  type CreateAttempt,
  EqualRevision,
  FindEqualRevisions,
  hashRaw,
  predictCreateRevision,
  type Rev,
  revOf,
  SortControllerRevisions,
} from '../history/controller-history.js'
import {getPatch, templateOfRevision} from '../history/revision-data.js'
import {nextRevision} from './next-revision.js'
import {
  candidateReleases,
  groupByRelease,
  markOneRelease,
  type RevisionByRelease,
  answersByReleaseStep,
  revisionPreamble,
  settleRelease,
} from '../history/by-release.js'

const SSC = 'pkg/controller/statefulset/stateful_set_control.go'
const HISTORY = 'pkg/controller/history/controller_history.go'
export const SEMANTIC_GATE = 'StatefulSetSemanticRevisionComparison'

export interface StatefulSetHashInput extends WorkloadInput<Workload> {
  controllerRevisions: readonly ControllerRevision[]
  pods?: readonly PodMeta[]
  /** Every ControllerRevision of the namespace by name, when controllerRevisions holds only the candidates (--all). */
  byName?: ReadonlyMap<string, ControllerRevision>
}

export type RevisionDecision = 'latest' | 'rollback' | 'semanticReuse' | 'create'

export interface StatefulSetRevisionRow {
  name: string
  revision: number
  claim: ClaimResult
  createdAt?: string
  /** The name's hash against HashControllerRevision of the revision's own data (the layout does not matter). */
  label: LabelCheck
  /** controller.kubernetes.io/hash, and the collision count it was computed with (it keeps the first attempt's). */
  hashLabel?: string
  hashLabelCount?: number
  role?: 'current' | 'update' | 'currentAndUpdate'
  pods: string[]
}

export interface StatefulSetHashReplay {
  version?: string
  collisionCount: number
  candidate?: {hash: string; name: string; revision: number}
  computeError?: string
  decision?: RevisionDecision
  gate?: {name: string; enabled: boolean | null; why: string}
  updateRevision?: string
  currentRevision?: string
  revisions: StatefulSetRevisionRow[]
  create?: {attempts: CreateAttempt[]; creates?: string; returnsExisting?: string; spurious?: boolean}
  rollbackTo?: string
  /** No revision is in the data: status.updateRevision checked against the names the set's template gets instead. */
  statusRevision?: {name: string; check: LabelCheck}
  status: {currentRevision?: string; updateRevision?: string}
  pods: {total: number; onUnknownRevision: string[]}
  /** The data does not settle the controller's release and the answer depends on it: the answer of each. */
  byRelease?: RevisionByRelease
}

/** Whether the controller has the semantic comparison: beta and on from 1.35, backported to 1.34.2 (kubernetes#135087). */
export function semanticGate(minor: number | undefined, patch: number | undefined, override: boolean | undefined): {enabled: boolean | null; why: string} {
  if (override !== undefined) return {enabled: override, why: `--feature-gates ${SEMANTIC_GATE}=${override}`}
  if (minor === undefined) return {enabled: null, why: 'the control-plane version is unknown'}
  if (minor >= 35) return {enabled: true, why: `beta and on by default in 1.${minor}`}
  if (minor < 34) return {enabled: false, why: `1.${minor} predates it (1.33 and older write the bytes 1.33 wrote)`}
  if (patch === undefined)
    return {enabled: null, why: '1.34.2 and later have it (backport kubernetes#135087); 1.34.0 and 1.34.1 do not, and the patch version is unknown'}
  return patch >= 2
    ? {enabled: true, why: `1.34.${patch} has the backport (kubernetes#135087)`}
    : {enabled: false, why: `1.34.${patch} lacks it (added in 1.34.2, kubernetes#135087)`}
}

export function explainStatefulSetHash(input: StatefulSetHashInput): Explanation {
  const set = input.workload
  const s = input.settings
  const template = templateOf(set)
  const N = collisionCountOf(set) ?? 0
  const steps: Step[] = []

  const claims = claimObjects(set, input.controllerRevisions)
  const owned = claimed(claims)
  const claimOf = new Map(claims.map((c) => [c.object.metadata.name, c.result]))
  const revs = SortControllerRevisions(owned.map(revOf))
  const byName = new Map<string, Rev>()
  const lookup =
    input.byName ?? new Map(input.controllerRevisions.filter((c) => c.metadata.namespace === set.metadata.namespace).map((c) => [c.metadata.name, c]))
  const revByName = {
    get: (name: string) => {
      if (!byName.has(name)) {
        const c = lookup.get(name)
        if (c) byName.set(name, revOf(c))
      }
      return byName.get(name)
    },
  }
  steps.push({
    rule: 'ListRevisions',
    upstream: HISTORY,
    inputs: {selector: set.spec?.selector, revisionsInNamespace: input.controllerRevisions.length},
    result: `${revs.length} revisions`,
    why: `ControllerRevisions matching the selector, controlled by the StatefulSet or orphaned (adopted); sorted by revision: ${revs.map((r) => `${r.name} (${r.revision})`).join(', ') || 'none'}`,
  })

  const rows: StatefulSetRevisionRow[] = revs.map((r) => {
    const c = checkRevision(set.metadata.name, r, N, s.maxInferredCollisionCount)
    return {
      name: r.name,
      revision: r.revision,
      claim: claimOf.get(r.name) ?? 'owned',
      ...(r.created ? {createdAt: r.created} : {}),
      label: c.label,
      ...(r.hashLabel !== undefined ? {hashLabel: r.hashLabel} : {}),
      ...(c.hashLabelCount !== undefined ? {hashLabelCount: c.hashLabelCount} : {}),
      pods: [],
    }
  })
  for (const r of rows) {
    steps.push({
      rule: 'HashControllerRevision',
      upstream: HISTORY,
      inputs: {revision: r.name},
      result: r.label.result,
      why: `${r.name} (revision ${r.revision}): ${r.label.why}`,
    })
  }

  let candidate: StatefulSetHashReplay['candidate']
  let computeError: string | undefined
  let decision: RevisionDecision | undefined
  let update: Rev | undefined
  let create: StatefulSetHashReplay['create']
  let rollbackTo: string | undefined
  let gate: StatefulSetHashReplay['gate']
  const latest = revs[revs.length - 1]
  // No revision in the data (must-gather and support bundles do not collect them): status names the update revision,
  // and which serializer (version) and probe give that name is still checkable from the set's template.
  let statusRevision: StatefulSetHashReplay['statusRevision']
  const named = set.status?.updateRevision ?? set.status?.currentRevision
  if (revs.length === 0 && named) {
    statusRevision = {
      name: named,
      check: checkStatusRevision(set.metadata.name, template, named, N, s.version, s.maxInferredCollisionCount, set.metadata.creationTimestamp ?? undefined),
    }
    steps.push({
      rule: 'getStatefulSetRevisions',
      upstream: `${SSC}:266`,
      inputs: {statusUpdateRevision: named},
      result: statusRevision.check.result,
      why: `no ControllerRevision is in the data; ${named}: ${statusRevision.check.why}`,
      inferred: {evidence: "status.updateRevision and the set's template; its ControllerRevisions are not in the data", confidence: 'likely'},
    })
  } else if (revs.length === 0 && ((set.status?.replicas ?? 0) > 0 || (set.status?.readyReplicas ?? 0) > 0)) {
    throw new MissingDataError(
      `StatefulSet ${set.metadata.namespace}/${set.metadata.name}: its status counts ${set.status?.replicas ?? set.status?.readyReplicas} replicas, but neither its ControllerRevisions nor status.updateRevision is in the data`,
    )
  }
  if (statusRevision) {
    // nothing to replay: the revisions the decision is made from are not in the data
  } else if (s.version === undefined) {
    computeError = s.versionNote ?? "no struct layout for the cluster's version"
  } else {
    const layout = getLayout(s.version)
    const raw = getPatch(layout, template)
    const hash = hashRaw(raw, N)
    const next = nextRevision(revs)
    const cand: Rev = {name: ControllerRevisionName(set.metadata.name, hash), revision: next, hashLabel: hash, raw}
    candidate = {hash, name: cand.name, revision: next}
    steps.push({
      rule: 'newRevision',
      upstream: 'pkg/controller/statefulset/stateful_set_utils.go',
      inputs: {version: s.version, collisionCount: N, revision: next},
      result: cand.name,
      why: `getPatch(set) as a ${s.version} controller writes it, FNV-1 32 with the probe "${N}" (status.collisionCount, 0 when unset), SafeEncoded: ${hash}`,
    })
    const equal = FindEqualRevisions(revs, cand)
    let g: {enabled: boolean | null; why: string} | undefined
    if (equal.length > 0 && EqualRevision(latest, equal[equal.length - 1])) {
      decision = 'latest'
      update = latest
    } else if (equal.length > 0) {
      decision = 'rollback'
      update = equal[equal.length - 1]
      rollbackTo = update.name
    } else {
      g = semanticGate(s.minor, s.patch, s.gates?.[SEMANTIC_GATE])
      // setMatchesLatestExistingRevision: apply the latest revision to the set, re-default, re-encode, compare.
      // Replayed by re-encoding the latest revision's template with this version's serializer; re-defaulting of
      // fields a newer version defaults is not replayed (such revisions would compare unequal here).
      const stored = latest ? templateOfRevision(latest.object!) : undefined
      const semanticallyEqual = stored !== undefined && getPatch(layout, stored) === raw
      if (latest && semanticallyEqual) gate = {name: SEMANTIC_GATE, enabled: g.enabled, why: g.why}
      // With the version only assumed, a latest revision holding the same template is what the controller has.
      const assumed = s.versionAssumed === true && latest !== undefined && stored !== undefined && semanticTemplateEqual(layout, stored, template)
      if (assumed && !semanticallyEqual)
        gate = {
          name: SEMANTIC_GATE,
          enabled: null,
          why: "the cluster's version is not known: the latest revision holds the same template, written by another version's serializer",
        }
      if ((latest && semanticallyEqual && g.enabled !== false) || assumed) {
        decision = 'semanticReuse'
        update = latest
      } else {
        decision = 'create'
        const p = predictCreateRevision(set.metadata.name, raw, N, revByName)
        create = {...p, ...(latest && semanticallyEqual ? {spurious: true} : {})}
      }
    }
    const why: Record<RevisionDecision, string> = {
      latest: `the latest revision ${latest?.name} is equal to the candidate (EqualRevision: byte-equal data): the update revision is unchanged (SSC:291)`,
      rollback: `${rollbackTo} (revision ${update?.revision}) is equal to the candidate but is not the latest: a rollback — UpdateControllerRevision renumbers it to ${next}, no new object (SSC:294)`,
      semanticReuse: `no revision is byte-equal, but ${SEMANTIC_GATE} (${gate?.why}) applies the latest revision ${latest?.name} to the set, re-defaults it and finds it equal: it is reused, no new revision (SSC:303)`,
      create: create?.spurious
        ? `no revision is byte-equal; the latest, ${latest?.name}, has the same template written by an older serializer, but without ${SEMANTIC_GATE} (${gate?.why}) the controller creates a new revision and rolls every pod although nothing changed (kubernetes#134773)`
        : `no revision is equal to the candidate: CreateControllerRevision (SSC:308)`,
    }
    steps.push({
      rule: 'getStatefulSetRevisions',
      upstream: `${SSC}:266`,
      inputs: {equal: equal.map((r) => r.name)},
      result: decision,
      why: why[decision],
      ...(decision === 'semanticReuse' || create?.spurious
        ? {
            inferred: {
              evidence: "the latest revision's template re-encoded with this version's serializer equals the candidate's bytes; re-defaulting is not replayed",
              confidence: g?.enabled === null ? 'possible' : 'likely',
            },
          }
        : {}),
    })
    if (create) {
      const last = create.attempts[create.attempts.length - 1]
      const collided = create.attempts.filter((a) => a.taken)
      steps.push({
        rule: 'CreateControllerRevision',
        upstream: HISTORY,
        inputs: {name: cand.name},
        result: create.creates ? `creates ${create.creates}` : create.returnsExisting ? `returns ${create.returnsExisting}` : 'collides',
        why:
          collided.length > 0
            ? `${collided.map((a) => a.name).join(', ')} ${collided.length === 1 ? 'exists' : 'exist'} with other data: collisionCount goes to ${last.collisionCount} within the sync, and ${create.creates ? `${create.creates} is created (its controller.kubernetes.io/hash label keeps ${hash}); status.collisionCount becomes ${last.collisionCount}` : 'every name tried is taken'}`
            : create.returnsExisting
              ? `${create.returnsExisting} exists with the same bytes: it is returned`
              : `${create.creates} is created as revision ${next}`,
      })
    }
  }
  if (create?.creates) update = {name: create.creates, revision: candidate!.revision}
  else if (create?.returnsExisting) update = revByName.get(create.returnsExisting)

  // currentRevision: status.currentRevision when such a revision exists, else the update revision (SSC:316).
  const statusCurrent = set.status?.currentRevision
  const current = revs.find((r) => r.name === statusCurrent) ?? update
  for (const r of rows) {
    const isCur = r.name === current?.name
    const isUpd = r.name === update?.name
    if (isCur || isUpd) r.role = isCur && isUpd ? 'currentAndUpdate' : isCur ? 'current' : 'update'
  }
  if (update || current) {
    steps.push({
      rule: 'getStatefulSetRevisions',
      upstream: `${SSC}:316`,
      inputs: {statusCurrentRevision: statusCurrent ?? null, statusUpdateRevision: set.status?.updateRevision ?? null},
      result: `current ${current?.name ?? '?'}, update ${update?.name ?? '?'}`,
      why: `the current revision is the one status.currentRevision names${revs.some((r) => r.name === statusCurrent) ? '' : ' — none exists, so it is the update revision'}`,
    })
  }

  // Pods: controller-revision-hash holds the full revision name.
  const pods = (input.pods ?? []).filter(
    (p) => p.metadata.namespace === set.metadata.namespace && getControllerOf(p)?.uid === set.metadata.uid && !p.metadata.deletionTimestamp,
  )
  const rowByName = new Map(rows.map((r) => [r.name, r]))
  const unknown: string[] = []
  for (const p of pods.sort((a, b) => ordinal(a.metadata.name) - ordinal(b.metadata.name))) {
    const r = rowByName.get(p.metadata.labels?.[CONTROLLER_REVISION_HASH_LABEL] ?? '')
    if (r) r.pods.push(p.metadata.name)
    else unknown.push(p.metadata.name)
  }
  if (input.pods !== undefined) {
    steps.push({
      rule: 'computeReplicaStatus',
      upstream: `${SSC}:370`,
      result:
        rows
          .filter((r) => r.pods.length > 0)
          .map((r) => `${r.pods.length} on ${r.name}`)
          .join(', ') || 'no pods',
      why: `pods carry their revision's full name in controller-revision-hash${unknown.length > 0 ? `; ${unknown.join(', ')} name${unknown.length === 1 ? 's' : ''} no existing revision` : ''}`,
    })
  }

  // The data does not settle the release (issue 27.3): getPatch's bytes (stateful_set_utils.go getPatch, v1.34.0) and
  // so the candidate's hash and name differ across releases, and so may getStatefulSetRevisions' decision (SSC:266:
  // which revision is equal, the semantic comparison's gate). Every candidate release whose answer differs is given.
  let byRelease: RevisionByRelease | undefined
  const cands = candidateReleases(s)
  if (cands && candidate) {
    const next = nextRevision(revs)
    const answers = groupByRelease(cands.versions, (v) => {
      const layout = getLayout(v)
      const raw = getPatch(layout, template)
      const hash = hashRaw(raw, N)
      const name = ControllerRevisionName(set.metadata.name, hash)
      const equal = FindEqualRevisions(revs, {name, revision: next, hashLabel: hash, raw})
      if (equal.length > 0 && EqualRevision(latest, equal[equal.length - 1])) return {hash, name, outcome: 'latest', revision: latest.name}
      if (equal.length > 0) return {hash, name, outcome: 'rollback', revision: equal[equal.length - 1].name}
      // setMatchesLatestExistingRevision (SSC:303) under this release's gate; the patch release is not known.
      const g = semanticGate(Number(v.split('.')[1]), undefined, s.gates?.[SEMANTIC_GATE])
      const stored = latest ? templateOfRevision(latest.object!) : undefined
      if (latest && stored !== undefined && getPatch(layout, stored) === raw && g.enabled !== false)
        return {hash, name, outcome: 'semanticReuse', revision: latest.name, semanticGate: g.enabled}
      const p = predictCreateRevision(set.metadata.name, raw, N, revByName)
      const made = p.creates ?? p.returnsExisting
      return {
        hash,
        name,
        outcome: p.attempts.some((a) => a.taken) ? 'collision' : p.returnsExisting ? 'returnsExisting' : 'creates',
        ...(made ? {revision: made} : {}),
      }
    })
    if (answers.length > 1) {
      byRelease = {candidates: cands.versions, why: cands.why, answers, settle: settleRelease('StatefulSet', set.metadata.namespace)}
      markOneRelease(steps, s.version, ['newRevision', 'getStatefulSetRevisions', 'CreateControllerRevision'])
      steps.push(answersByReleaseStep('getStatefulSetRevisions', `${SSC}:266`, cands, N, answers))
    } else {
      const c = steps.find((x) => x.rule === 'newRevision')
      if (c)
        c.why += `; every release the data leaves possible (${versionRange(cands.versions)}) writes the same bytes and decides the same: the version did not matter`
    }
  }

  const unreproducible = rows.filter((r) => r.label.result === 'unreproducible')
  let verdict: HashVerdict
  const sr = statusRevision?.check
  if (sr) verdict = sr.result === 'matches' ? 'upToDate' : sr.result === 'otherLayout' ? 'hashDrift' : 'unreproducible'
  else if (decision === 'create' && create?.attempts.some((a) => a.taken)) verdict = 'collision'
  else if (decision === 'create' || decision === 'rollback') verdict = 'rolloutPending'
  else if (unreproducible.length > 0) verdict = 'unreproducible'
  else if (decision === 'semanticReuse') verdict = 'hashDrift'
  else verdict = 'upToDate'
  let severity = severityOf(verdict, {unexplained: sr ? sr.explained === false : unreproducible.some((r) => !r.label.explained)})
  if (verdict === 'rolloutPending' && create?.spurious) severity = 'warning'
  // With the release unsettled, a collision or a spurious rollout is only as certain as the releases that agree on
  // it: under every candidate it keeps its severity; under some only it is information naming them.
  if (byRelease && verdict === 'collision' && !byRelease.answers.every((a) => a.outcome === 'collision')) severity = 'info'
  if (byRelease && create?.spurious) severity = 'info'

  const replay: StatefulSetHashReplay = {
    ...(s.version !== undefined ? {version: s.version} : {}),
    collisionCount: N,
    ...(candidate ? {candidate} : {}),
    ...(computeError ? {computeError} : {}),
    ...(decision ? {decision} : {}),
    ...(gate ? {gate} : {}),
    ...(update ? {updateRevision: update.name} : {}),
    ...(current ? {currentRevision: current.name} : {}),
    revisions: rows,
    ...(create ? {create} : {}),
    ...(rollbackTo ? {rollbackTo} : {}),
    ...(statusRevision ? {statusRevision} : {}),
    status: {...(statusCurrent ? {currentRevision: statusCurrent} : {}), ...(set.status?.updateRevision ? {updateRevision: set.status.updateRevision} : {})},
    pods: {total: pods.length, onUnknownRevision: unknown},
    ...(byRelease ? {byRelease} : {}),
  }
  return {
    subject: {
      kind: 'StatefulSet',
      apiVersion: 'apps/v1',
      namespace: set.metadata.namespace,
      name: set.metadata.name,
      ...(set.metadata.uid ? {uid: set.metadata.uid} : {}),
    },
    controller: 'statefulset',
    verdict,
    severity,
    summary: byRelease
      ? `${revisionPreamble('StatefulSet', byRelease)} ${summarize(verdict, replay, input.pods !== undefined)}`
      : summarize(verdict, replay, input.pods !== undefined),
    ...nextOf(workloadNextSteps('StatefulSet', set.metadata.namespace, set.metadata.name, verdict)),
    steps,
    evaluatedAt: new Date(input.now).toISOString(),
    source: input.source,
    statefulSet: replay,
  }
}

/** Which versions' serializers and which probes give the set's template the name status records. */
function checkStatusRevision(
  setName: string,
  template: unknown,
  name: string,
  collisionCount: number,
  version: string | undefined,
  max: number,
  createdAt: string | undefined,
): LabelCheck {
  const probes = [...new Set([collisionCount, ...Array.from({length: Math.max(max, collisionCount) + 1}, (_, i) => i)])]
  const byRaw = new Map<string, string[]>()
  for (const v of layoutVersions()) {
    const raw = getPatch(getLayout(v), template)
    const l = byRaw.get(raw)
    if (l) l.push(v)
    else byRaw.set(raw, [v])
  }
  const found: {versions: string[]; collisionCount: number}[] = []
  for (const [raw, versions] of byRaw) {
    for (const p of probes) {
      if (ControllerRevisionName(setName, hashRaw(raw, p)) === name) {
        found.push({versions, collisionCount: p})
        break
      }
    }
  }
  const suffix = name.slice(name.lastIndexOf('-') + 1)
  const atVersion = version === undefined ? undefined : found.find((f) => f.versions.includes(version))
  if (atVersion)
    return {
      label: suffix,
      result: 'matches',
      collisionCount: atVersion.collisionCount,
      why: `getPatch of the template as a ${version} controller writes it, hashed with the probe ${atVersion.collisionCount}, gives this name`,
    }
  if (found.length > 0) {
    return {
      label: suffix,
      result: 'otherLayout',
      reproducedBy: found.map((f) => ({versions: f.versions, collisionCount: f.collisionCount})),
      why: `written by a ${versionRange(found[0].versions)} controller (its serializer; probe ${found[0].collisionCount})${version ? `, whose bytes differ from what a ${version} controller writes` : ''}`,
    }
  }
  if (isRedacted(template))
    return {label: suffix, result: 'unreproducible', ...diagnose(template, suffix, {settings: {maxInferredCollisionCount: max}, counts: [], createdAt})}
  const created = createdAt ? Date.parse(createdAt) : Number.NaN
  if (!Number.isNaN(created) && created < Date.parse('2020-12-08T00:00:00Z')) {
    return {
      label: suffix,
      result: 'unreproducible',
      reason: 'predatesLayouts',
      explained: false,
      why: `no known serializer (1.20 on) with probe 0–${probes.length - 1} gives the template this name; the set was created ${createdAt}, before 1.20, and the revision may be as old (older controllers serialized and hashed differently) — or the template changed after the capture`,
    }
  }
  return {
    label: suffix,
    result: 'unreproducible',
    reason: 'unknown',
    explained: false,
    why: `no known serializer (${layoutVersions()[0]} on) with probe 0–${probes.length - 1} gives the template this name: the template changed after the update revision was written (a rollout not yet recorded, or an edited dump), or a version outside the layouts wrote it`,
  }
}

function ordinal(name: string): number {
  const m = /-(\d+)$/.exec(name)
  return m ? Number(m[1]) : Number.MAX_SAFE_INTEGER
}

function podsText(r: StatefulSetHashReplay, withPods: boolean): string {
  if (!withPods) return ''
  const on = r.revisions.filter((x) => x.pods.length > 0)
  if (r.pods.total === 0) return ' No pods.'
  const parts = on.map((x) => `${x.pods.join(', ')} on ${x.name}${x.role ? ` (${x.role === 'currentAndUpdate' ? 'current and update' : x.role})` : ''}`)
  if (r.pods.onUnknownRevision.length > 0)
    parts.push(`${r.pods.onUnknownRevision.join(', ')} on ${r.revisions.length === 0 ? 'revisions not in the data' : 'a revision that no longer exists'}`)
  const rolling = on.length > 1 || (on.length === 1 && on[0].name !== r.updateRevision)
  return ` ${parts.join('; ')}${rolling ? ': a rolling update in progress (highest ordinal first)' : ''}.`
}

function summarize(verdict: HashVerdict, r: StatefulSetHashReplay, withPods: boolean): string {
  const b = r.byRelease
  const v = b ? `${r.version} (one of ${versionRange(b.candidates)})` : (r.version ?? "the cluster's")
  const pods = podsText(r, withPods)
  if (r.statusRevision) {
    const c = r.statusRevision.check
    const lead = `None of the StatefulSet's ControllerRevisions is in the data; status.updateRevision is ${r.statusRevision.name}`
    if (verdict === 'upToDate')
      return `${lead}, the name a ${v} controller gives its template (probe ${c.collisionCount}): the update revision is current with the template.${pods}`
    if (verdict === 'hashDrift') return `${lead}, ${c.why}: harmless, the controller compares revisions by their data.${pods}`
    return `${lead}, which no known serializer and probe give its template: ${c.why}.${pods}`
  }
  const upd = r.revisions.find((x) => x.name === r.updateRevision)
  switch (verdict) {
    case 'collision': {
      const c = r.create!
      const last = c.attempts[c.attempts.length - 1]
      return `No revision equals the StatefulSet's template; the name a ${v} controller gives the new one, ${c.attempts[0].name}, is taken by a revision with other data, so within the same sync it retries with collisionCount ${last.collisionCount} and ${c.creates ? `creates ${c.creates}, then writes status.collisionCount ${last.collisionCount}` : 'every name it tries is taken'}.${pods}`
    }
    case 'rolloutPending':
      if (r.decision === 'rollback')
        return `The StatefulSet's template equals revision ${r.rollbackTo}'s: the controller renumbers it to revision ${r.candidate!.revision} (UpdateControllerRevision, no new object) and rolls the pods back to it.${pods}`
      if (r.create?.spurious)
        return `A ${v} controller writes the same template with different bytes than the latest revision (${r.revisions[r.revisions.length - 1].name}); without ${SEMANTIC_GATE} (${r.gate?.why}) it creates ${r.create.creates} (revision ${r.candidate!.revision}) and restarts every pod although nothing changed (kubernetes#134773; fixed in 1.34.2 and 1.35).${pods}`
      if (!r.candidate) return `The StatefulSet's update revision cannot be computed (${r.computeError}).${pods}`
      if (b?.answers.some((a) => a.outcome === 'creates' || a.outcome === 'collision'))
        return `No revision equals the StatefulSet's template under ${versionRange(b.answers.filter((a) => a.outcome === 'creates' || a.outcome === 'collision').flatMap((a) => a.versions))}: the controller creates a ControllerRevision (revision ${r.candidate.revision}) named ${r.candidate.name.replace(/-[^-]+$/, '')}-<its release's hash, above> and rolls the pods to it, highest ordinal first.${pods}`
      return `No revision equals the StatefulSet's template: a ${v} controller creates ControllerRevision ${r.create?.creates ?? r.candidate.name} (revision ${r.candidate.revision}) and rolls the pods to it, highest ordinal first.${pods}`
    case 'unreproducible': {
      const bad = r.revisions.filter((x) => x.label.result === 'unreproducible')
      return `${upd ? `Revision ${upd.name} is the update revision. ` : ''}The name of ${bad.map((x) => x.name).join(', ')} is not reproduced from ${bad.length === 1 ? 'its' : 'their'} data: ${bad[0].label.why}.${pods}`
    }
    case 'hashDrift':
      return `The latest revision ${upd?.name} was written by an older serializer (a ${v} controller writes the same template as ${r.candidate!.name}), but ${SEMANTIC_GATE} finds them equal, so it is reused: no new revision, no rollout.${pods}`
    default:
      return `Revision ${upd?.name ?? '?'} (revision ${upd?.revision ?? '?'}) is the update revision: the StatefulSet's template, as a ${v} controller writes it, is byte-equal to its data (hash ${r.candidate?.hash} with collisionCount ${r.collisionCount})${r.currentRevision && r.currentRevision !== r.updateRevision ? `; the current revision is ${r.currentRevision}` : ''}.${pods}`
  }
}
