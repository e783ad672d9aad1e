// `kubectl why hash daemonset/NAME`: the DaemonSet controller's view of its ControllerRevisions
// (pkg/controller/daemon/update.go): which revision Matches the DaemonSet now (byte-equal patch), each revision's
// controller-revision-hash against ComputeHash of the template it stores, the name snapshot would create and what a
// collision does (with the stale-collisionCount guard), and which pods are on which revision. Pure.
import {nextOf, workloadNextSteps} from '../deployment/next.js'
import {UnreproducibleHashError} from '../../hash/errors.js'
import {ComputeHash} from '../../hash/compute-hash.js'
import {getLayout} from '../../hash/layouts.js'
import {daemonSetRevisionName} from '../../hash/names.js'
import type {Explanation, Step} from '../../explanation.js'
import {claimed, claimObjects, type ClaimResult, MissingDataError} from '../deployment/claim.js'
import {collisionCountOf, comparisonLayout, type HashVerdict, plural, severityOf, templateOf} from '../deployment/common.js'
import {checkTemplateLabel, describeCount, isRedacted, type LabelCheck, suffixOf} from '../history/label-check.js'
import {semanticTemplateEqual} from '../deployment/semantic.js'
import {CONTROLLER_REVISION_HASH_LABEL} from '../history/constants.js'
import {countsToTry} from '../deployment/explain.js'
import type {PodMeta, Workload, WorkloadInput} from '../deployment/types.js'
import type {ControllerRevision} from '../history/types.js'
import {getPatch, rawOf, revisionNumber, templateOfRevision} from '../history/revision-data.js'
import {constructHistory, type DaemonSetHistory, predictSnapshot, type SnapshotPrediction} from './history.js'
import {hashesByRelease} from '../../hash/infer.js'
import {versionRange} from '../history/label-check.js'
import {
  candidateReleases,
  groupByRelease,
  markOneRelease,
  type RevisionByRelease,
  answersByReleaseStep,
  revisionPreamble,
  settleRelease,
} from '../history/by-release.js'
import {daemonPods, IsPodUpdated, templateGeneration} from './pods.js'

const UPDATE = 'pkg/controller/daemon/update.go'

export interface DaemonSetHashInput extends WorkloadInput<Workload> {
  /** Every ControllerRevision of the DaemonSet's namespace, as the controller's informer sees them. */
  controllerRevisions: readonly ControllerRevision[]
  /** The namespace's pods (metadata is enough). */
  pods?: readonly PodMeta[]
  /** Every ControllerRevision of the namespace by name, when controllerRevisions holds only the candidates (--all). */
  byName?: ReadonlyMap<string, ControllerRevision>
}

export interface DaemonSetRevisionRow {
  name: string
  revision: number
  claim: ClaimResult
  /** Its data is byte-equal to the patch the controller builds now (Match). */
  current?: boolean
  /** The current revision dedupCurHistories keeps when several match. */
  keeper?: boolean
  createdAt?: string
  label: LabelCheck
  /** The label was missing: the controller sets it to the revision's name (a legacy shim). */
  labelFromName?: boolean
  pods: number
}

export interface DaemonSetHashReplay {
  version?: string
  collisionCount: number | null
  computed?: {hash: string; name: string}
  computeError?: string
  /** The revision the controller treats as current (dedup keeper), if any Matches. */
  currentRevision?: string
  revisions: DaemonSetRevisionRow[]
  snapshot?: SnapshotPrediction & {revision: number}
  /** No revision is in the data: the pods' hash labels checked against the DaemonSet's template instead. */
  podRevisions?: {label: string; pods: number; current: LabelCheck}[]
  /** The DaemonSet's template holds redacted values: no hash of it is the controller's. */
  templateRedacted?: true
  templateGeneration?: string
  pods: {total: number; updated: number; updatedByHash: number; updatedByGeneration: number; terminating: number; onUnknownRevision: number}
  collisionCountHistory?: {evidence: {holder: string; from: number | null}[]; why: string}
  /** The data does not settle the controller's release and the answer depends on it: the answer of each. */
  byRelease?: RevisionByRelease
}

export function explainDaemonSetHash(input: DaemonSetHashInput): Explanation {
  const ds = input.workload
  const s = input.settings
  const template = templateOf(ds)
  const N = collisionCountOf(ds)
  const steps: Step[] = []
  const counts = countsToTry(N)

  const claims = claimObjects(ds, input.controllerRevisions)
  const histories = claimed(claims)
  const claimOf = new Map(claims.map((c) => [c.object, c.result]))
  steps.push({
    rule: 'controlledHistories',
    upstream: `${UPDATE}:457`,
    inputs: {selector: ds.spec?.selector, revisionsInNamespace: input.controllerRevisions.length},
    result: `${histories.length} claimed`,
    why: `ClaimControllerRevisions: ${plural(histories.length, 'revision')} controlled by the DaemonSet (or adopted) and matching its selector`,
  })

  const byName =
    input.byName ?? new Map(input.controllerRevisions.filter((c) => c.metadata.namespace === ds.metadata.namespace).map((c) => [c.metadata.name, c]))
  let patch: string | undefined
  let history: DaemonSetHistory | undefined
  let computed: DaemonSetHashReplay['computed']
  let computeError: string | undefined
  let snapshot: DaemonSetHashReplay['snapshot']
  if (s.version === undefined) {
    computeError = s.versionNote ?? "no struct layout for the cluster's version"
  } else {
    patch = getPatch(getLayout(s.version), template)
    history = constructHistory(patch, histories)
    try {
      const hash = ComputeHash(template, N, s.version)
      computed = {hash, name: daemonSetRevisionName(ds.metadata.name, hash)}
    } catch (err) {
      if (!(err instanceof UnreproducibleHashError)) throw err
      computeError = err.computeError
    }
  }
  steps.push(
    computed
      ? {
          rule: 'ComputeHash',
          upstream: 'pkg/controller/controller_utils.go:1395',
          inputs: {version: s.version, collisionCount: N},
          result: computed.hash,
          why: `the hash snapshot names a new revision with: "${computed.name}" (uncut, update.go:528)`,
        }
      : {
          rule: 'ComputeHash',
          upstream: 'pkg/controller/controller_utils.go:1395',
          inputs: {version: s.version ?? null, collisionCount: N},
          result: 'unavailable',
          why: computeError!,
        },
  )
  if (history) {
    steps.push({
      rule: 'Match',
      upstream: `${UPDATE}:487`,
      inputs: {patchBytes: patch!.length},
      result: history.current.length > 0 ? history.current.map((c) => c.metadata.name).join(', ') : 'none',
      why:
        history.current.length > 0
          ? `the revision's data is byte-equal to getPatch(ds) as a ${s.version} controller writes it${history.current.length > 1 ? `; dedupCurHistories keeps ${history.keeper!.metadata.name} (highest revision${history.keeperTie ? ', tied: the last in informer order wins, so which one is not certain' : ''}), relabels pods to its hash and deletes the others` : ''}`
          : `no revision's data is byte-equal to getPatch(ds) under ${s.version} (the template changed, or a serializer change such as 1.34 dropping "creationTimestamp":null altered the bytes)`,
    })
  }

  // Each revision's hash label against ComputeHash of the template its data stores.
  const rows: DaemonSetRevisionRow[] = histories
    .map((cr) => {
      const labelled = cr.metadata.labels?.[CONTROLLER_REVISION_HASH_LABEL]
      const label = labelled ?? cr.metadata.name
      const stored = templateOfRevision(cr)
      const check: LabelCheck =
        stored === undefined
          ? {
              label,
              result: 'unreproducible',
              reason: 'invalidTemplate',
              explained: true,
              why: 'the revision holds no spec.template in its data (metadata only, or not a DaemonSet revision)',
            }
          : checkTemplateLabel(stored, label, {
              settings: s,
              counts,
              createdAt: cr.metadata.creationTimestamp ?? undefined,
              nameSuffix: suffixOf(cr.metadata.name),
            })
      return {
        name: cr.metadata.name,
        revision: revisionNumber(cr),
        claim: claimOf.get(cr) ?? 'owned',
        ...(history?.current.includes(cr) ? {current: true} : {}),
        ...(history?.keeper === cr ? {keeper: true} : {}),
        ...(cr.metadata.creationTimestamp ? {createdAt: cr.metadata.creationTimestamp} : {}),
        label: check,
        ...(labelled === undefined ? {labelFromName: true} : {}),
        pods: 0,
      }
    })
    .sort((a, b) => a.revision - b.revision)
  for (const r of rows) {
    steps.push({
      rule: 'ComputeHash',
      upstream: 'pkg/controller/controller_utils.go:1395',
      inputs: {revision: r.name, label: r.label.label ?? null},
      result: r.label.result,
      why: `${r.name} (revision ${r.revision}${r.current ? ', current' : ''}): ${r.labelFromName ? 'no controller-revision-hash label (the controller sets it to the name); ' : ''}${r.label.why}`,
    })
  }

  // No revision in the data at all: a DaemonSet that has run has one, so the data lacks them (must-gather does not
  // collect ControllerRevisions). Its pods' hash labels still tell which template they were created from.
  const redacted = isRedacted(template)
  const daemon = daemonPods(ds, input.pods ?? []).filter((p) => !p.metadata.deletionTimestamp)
  let podRevisions: DaemonSetHashReplay['podRevisions']
  if (histories.length === 0 && daemon.length > 0) {
    const groups = new Map<string, number>()
    for (const p of daemon) {
      const h = p.metadata.labels?.[CONTROLLER_REVISION_HASH_LABEL]
      if (h !== undefined) groups.set(h, (groups.get(h) ?? 0) + 1)
    }
    podRevisions = [...groups].map(([label, pods]) => ({label, pods, current: checkTemplateLabel(template, label, {settings: s, counts})}))
    steps.push({
      rule: 'constructHistory',
      upstream: `${UPDATE}:293`,
      result: 'no revisions in the data',
      why: `the DaemonSet's pods carry ${podRevisions.map((g) => `${g.label} (${plural(g.pods, 'pod')}: ${g.current.result === 'unreproducible' ? "not its template's hash" : g.current.why})`).join('; ')}`,
      inferred: {evidence: "controller-revision-hash labels of the DaemonSet's pods; its ControllerRevisions are not in the data", confidence: 'likely'},
    })
  } else if (histories.length === 0) {
    const st = ds.status ?? {}
    // syncDaemonSet builds its history before it writes status: an observed generation means a revision was made.
    const ran = ['currentNumberScheduled', 'numberReady', 'updatedNumberScheduled', 'observedGeneration'].some(
      (k) => typeof st[k] === 'number' && (st[k] as number) > 0,
    )
    if (ran && !redacted)
      throw new MissingDataError(
        `DaemonSet ${ds.metadata.namespace}/${ds.metadata.name}: its status shows the controller has synced it, but none of its ControllerRevisions — nor its pods — is in the data`,
      )
  }
  const podCurrent = podRevisions?.find((g) => g.current.result === 'matches' || g.current.result === 'otherLayout')

  // The version is only assumed (none recorded or inferable): bytes written by another version's serializer do not
  // Match, so a revision whose template equals the DaemonSet's semantically stands in for the current one.
  let assumedCurrent: ControllerRevision | undefined
  if (history && !history.keeper && s.versionAssumed) {
    const layout = comparisonLayout(s)
    assumedCurrent = [...histories]
      .sort((a, b) => revisionNumber(b) - revisionNumber(a))
      .find((cr) => {
        const stored = templateOfRevision(cr)
        return stored !== undefined && semanticTemplateEqual(layout, stored, template)
      })
    if (assumedCurrent) {
      history.keeper = assumedCurrent
      const row = rows.find((r) => r.name === assumedCurrent!.metadata.name)
      if (row) row.keeper = true
      steps.push({
        rule: 'Match',
        upstream: `${UPDATE}:487`,
        result: assumedCurrent.metadata.name,
        why: `no revision's bytes equal the patch a ${s.version} controller writes, but the cluster's version is not known and ${assumedCurrent.metadata.name} holds the same template (semantically): it is taken as current`,
        inferred: {evidence: 'semantic equality of the stored template; the serializer that wrote it depends on the unknown version', confidence: 'likely'},
      })
    }
  }

  // The create path when nothing Matches.
  const keeper = history?.keeper
  if (history && !keeper && computed && !podRevisions && !redacted) {
    const p = predictSnapshot(ds, template, patch!, N, s.version!, byName)
    snapshot = {...p, revision: history.currRevision}
    const last = p.attempts[p.attempts.length - 1]
    steps.push({
      rule: 'snapshot',
      upstream: `${UPDATE}:522`,
      inputs: {name: computed.name, revision: history.currRevision},
      result: p.collision ? 'collision' : p.existing ? `returns ${p.existing}` : `creates ${p.creates}`,
      why: p.collision
        ? `Create fails with AlreadyExists: ${p.collision.holder} exists and ${p.collision.why}. The controller GETs the DaemonSet live; its collisionCount is still ${describeCount(N).replace('collisionCount ', '')}, the one it hashed with, so it bumps it to ${(N ?? 0) + 1} and requeues; ` +
          (p.creates
            ? `the next sync creates ${last.name} (hash ${last.hash}, ${describeCount(last.collisionCount)}).`
            : `the next ${p.attempts.length - 1} names are taken as well.`)
        : p.existing
          ? `${p.existing} already exists and Matches: snapshot returns it (it was created earlier)`
          : `creates ControllerRevision ${p.creates} (revision ${history.currRevision}, controller-revision-hash ${computed.hash})`,
    })
  }

  // The data does not settle the release (issue 27.3): ComputeHash (controller_utils.go:1395, v1.34.0) and getPatch's
  // bytes (update.go:499) differ across releases, so which revision Matches and what snapshot creates (update.go:522)
  // are given for every candidate release whose answer differs, each with the releases computing it.
  let byRelease: RevisionByRelease | undefined
  const cands = candidateReleases(s)
  if (cands && computed && !redacted) {
    const hashOf = new Map<string, string>()
    for (const g of hashesByRelease(template, N, cands.versions)) for (const v of g.versions) hashOf.set(v, g.hash)
    const answers = groupByRelease(cands.versions, (v) => {
      const hash = hashOf.get(v)!
      const name = daemonSetRevisionName(ds.metadata.name, hash)
      // Only pods name the revisions: what the controller does with revisions the data lacks cannot be told.
      if (podRevisions) return {hash, name, outcome: 'notInData'}
      const p = getPatch(getLayout(v), template)
      const h = constructHistory(p, histories)
      if (h.keeper) return {hash, name, outcome: 'current', revision: h.keeper.metadata.name}
      const sn = predictSnapshot(ds, template, p, N, v, byName)
      const made = sn.creates ?? sn.existing
      return {hash, name, outcome: sn.collision ? 'collision' : sn.existing ? 'returnsExisting' : 'creates', ...(made ? {revision: made} : {})}
    })
    if (answers.length > 1) {
      // The pods' labels are a hash some release computed: the releases whose hash it is agree with the data.
      let agreeing: RevisionByRelease['agreeing']
      for (const g of [...(podRevisions ?? [])].sort((a, b) => b.pods - a.pods)) {
        const versions = answers.filter((a) => a.hash === g.label).flatMap((a) => a.versions)
        if (versions.length > 0) {
          agreeing = {what: `${plural(g.pods, 'pod')} of the DaemonSet`, label: g.label, versions}
          break
        }
      }
      byRelease = {
        candidates: cands.versions,
        why: cands.why,
        answers,
        settle: settleRelease('DaemonSet', ds.metadata.namespace),
        ...(agreeing ? {agreeing} : {}),
      }
      markOneRelease(steps, s.version, ['ComputeHash', 'Match', 'snapshot'])
      steps.push(answersByReleaseStep('snapshot', `${UPDATE}:522`, cands, N, answers))
    } else {
      const c = steps.find((x) => x.rule === 'ComputeHash' && x.result === computed!.hash)
      if (c)
        c.why += `; every release the data leaves possible (${versionRange(cands.versions)}) computes the same and does the same: the version did not matter`
    }
  }

  // Pods.
  const gen = templateGeneration(ds)
  const hash = keeper ? (keeper.metadata.labels?.[CONTROLLER_REVISION_HASH_LABEL] ?? keeper.metadata.name) : computed?.hash
  const pods = daemonPods(ds, input.pods ?? [])
  const live = pods.filter((p) => !p.metadata.deletionTimestamp)
  const byLabel = new Map(rows.map((r) => [r.label.label, r]))
  let updatedByHash = 0
  let updatedByGeneration = 0
  let onUnknown = 0
  for (const p of live) {
    const h = p.metadata.labels?.[CONTROLLER_REVISION_HASH_LABEL]
    const r = h === undefined ? undefined : byLabel.get(h)
    if (r) r.pods++
    else onUnknown++
    const u = IsPodUpdated(p, hash, gen)
    if (u.by === 'hash') updatedByHash++
    else if (u.by === 'generation') updatedByGeneration++
  }
  const podSummary = {
    total: live.length,
    updated: updatedByHash + updatedByGeneration,
    updatedByHash,
    updatedByGeneration,
    terminating: pods.length - live.length,
    onUnknownRevision: onUnknown,
  }
  if (input.pods !== undefined) {
    steps.push({
      rule: 'IsPodUpdated',
      upstream: 'pkg/controller/daemon/util/daemonset_util.go',
      inputs: {hash: hash ?? null, templateGeneration: gen ?? null},
      result: `${podSummary.updated}/${live.length} updated`,
      why: `a pod is updated when its controller-revision-hash is the current revision's${gen !== undefined ? ` or its pod-template-generation is ${gen}` : ''}: ${updatedByHash} by hash, ${updatedByGeneration} by generation${onUnknown > 0 ? `; ${plural(onUnknown, 'pod')} carry a hash no revision has` : ''}`,
    })
  }

  // collisionCount > 0: which objects explain it, and the guard that keeps one collision from bumping it twice.
  let collisionCountHistory: DaemonSetHashReplay['collisionCountHistory']
  if (N !== null && N > 0 && s.version !== undefined && patch !== undefined && computed) {
    const evidence: {holder: string; from: number | null}[] = []
    const before: (number | null)[] = [null]
    for (let c = 1; c < N; c++) before.push(c)
    for (const c of before) {
      const name = daemonSetRevisionName(ds.metadata.name, ComputeHash(template, c, s.version))
      const holder = byName.get(name)
      if (holder && rawOf(holder) !== patch) evidence.push({holder: name, from: c})
    }
    for (const r of rows) {
      if (r.label.result !== 'matches' || typeof r.label.collisionCount !== 'number' || r.label.collisionCount === 0) continue
      const stored = templateOfRevision(byName.get(r.name)!)
      const from = r.label.collisionCount === 1 ? null : r.label.collisionCount - 1
      const name = daemonSetRevisionName(ds.metadata.name, ComputeHash(stored, from, s.version))
      const holder = byName.get(name)
      if (holder && name !== r.name && !evidence.some((e) => e.holder === name)) evidence.push({holder: name, from})
    }
    const why =
      `status.collisionCount is ${N}: ${evidence.length > 0 ? evidence.map((e) => `${e.holder} holds the name a template got with ${describeCount(e.from)}`).join('; ') : 'no revision in the data explains it (the one that held the name was deleted since, or — before the guard, 1.11 and earlier — concurrent syncs bumped it more than once)'}. ` +
      `The guard: on AlreadyExists with another template, snapshot re-reads the DaemonSet live and bumps only if the live count still equals the one it hashed with; otherwise it returns "found a stale collision count (…, expected …) of DaemonSet "${ds.metadata.name}" while processing; will retry until it is updated" and requeues, so one collision bumps once (kubernetes#66476, #67461; upstream formats the two *int32 with %d, so the message shows two pointer values, not the counts)`
    collisionCountHistory = {evidence, why}
    steps.push({rule: 'snapshot', upstream: `${UPDATE}:566`, inputs: {collisionCount: N}, result: evidence.length > 0 ? 'explained' : 'unexplained', why})
  }

  const unreproducible = rows.filter((r) => r.label.result === 'unreproducible')
  const drift = rows.filter((r) => r.label.result === 'otherLayout')
  let verdict: HashVerdict
  const cannotTell =
    !keeper &&
    ((podRevisions !== undefined && !podCurrent) || (redacted && histories.length === 0) || (redacted && !podCurrent && history !== undefined && !keeper))
  if (podRevisions && podCurrent) verdict = podCurrent.current.result === 'matches' ? (unreproducibleOf(rows) ? 'unreproducible' : 'upToDate') : 'hashDrift'
  else if (cannotTell) verdict = 'unreproducible'
  else if (history && !keeper && snapshot?.collision) verdict = 'collision'
  else if (history && !keeper && !snapshot?.existing) verdict = 'rolloutPending'
  else if (unreproducible.length > 0) verdict = 'unreproducible'
  else if (drift.length > 0) verdict = 'hashDrift'
  else verdict = 'upToDate'
  const replay: DaemonSetHashReplay = {
    ...(s.version !== undefined ? {version: s.version} : {}),
    collisionCount: N,
    ...(computed ? {computed} : {}),
    ...(computeError ? {computeError} : {}),
    ...(keeper ? {currentRevision: keeper.metadata.name} : {}),
    revisions: rows,
    ...(snapshot ? {snapshot} : {}),
    ...(podRevisions ? {podRevisions} : {}),
    ...(redacted ? {templateRedacted: true as const} : {}),
    ...(gen !== undefined ? {templateGeneration: gen} : {}),
    pods: podSummary,
    ...(collisionCountHistory ? {collisionCountHistory} : {}),
    ...(byRelease ? {byRelease} : {}),
  }
  // With the release unsettled, a collision is only as certain as the releases that agree on it: under every
  // candidate it keeps its severity; under some only it is information naming them.
  let severity = severityOf(verdict, {unexplained: cannotTell ? !redacted : unreproducible.some((r) => !r.label.explained)})
  if (verdict === 'collision' && byRelease && !byRelease.answers.every((a) => a.outcome === 'collision')) severity = 'info'
  return {
    subject: {
      kind: 'DaemonSet',
      apiVersion: 'apps/v1',
      namespace: ds.metadata.namespace,
      name: ds.metadata.name,
      ...(ds.metadata.uid ? {uid: ds.metadata.uid} : {}),
    },
    controller: 'daemonset',
    verdict,
    severity,
    summary: byRelease
      ? `${revisionPreamble('DaemonSet', byRelease)} ${summarize(verdict, replay, input.pods !== undefined)}`
      : summarize(verdict, replay, input.pods !== undefined),
    ...nextOf(workloadNextSteps('DaemonSet', ds.metadata.namespace, ds.metadata.name, verdict)),
    steps,
    evaluatedAt: new Date(input.now).toISOString(),
    source: input.source,
    daemonSet: replay,
  }
}

function unreproducibleOf(rows: readonly DaemonSetRevisionRow[]): boolean {
  return rows.some((r) => r.label.result === 'unreproducible')
}

function podsText(r: DaemonSetHashReplay, withPods: boolean): string {
  if (!withPods) return ''
  const p = r.pods
  if (p.total === 0) return ' No pods.'
  return p.updated === p.total
    ? ` All ${plural(p.total, 'pod')} are updated${p.updatedByGeneration > 0 ? ` (${p.updatedByGeneration} by pod-template-generation only)` : ''}.`
    : ` ${p.updated} of ${plural(p.total, 'pod')} are updated; ${p.total - p.updated} still run an older revision (a rolling update in progress).`
}

function summarize(verdict: HashVerdict, r: DaemonSetHashReplay, withPods: boolean): string {
  const b = r.byRelease
  const v = b?.agreeing ? versionRange(b.agreeing.versions) : b ? `${r.version} (one of ${versionRange(b.candidates)})` : (r.version ?? "the cluster's")
  const cur = r.revisions.find((x) => x.keeper)
  const bad = r.revisions.filter((x) => x.label.result === 'unreproducible')
  const drifted = r.revisions.filter((x) => x.label.result === 'otherLayout')
  const pods = podsText(r, withPods)
  switch (verdict) {
    case 'collision': {
      const sn = r.snapshot!
      const last = sn.attempts[sn.attempts.length - 1]
      return `No revision matches the DaemonSet's template, and the name a ${v} controller gives a new one, ${sn.attempts[0].name}, is taken by a revision with another template: the controller bumps status.collisionCount to ${(r.collisionCount ?? 0) + 1} and ${sn.creates ? `creates ${last.name}` : 'keeps colliding'}.${pods}`
    }
    case 'rolloutPending': {
      if (!r.snapshot) return `No revision matches the DaemonSet's template; the name of the next one cannot be computed (${r.computeError}).${pods}`
      if (b?.answers.some((a) => a.outcome === 'creates' || a.outcome === 'collision')) {
        const made = b.answers.filter((a) => a.outcome === 'creates' || a.outcome === 'collision')
        return `Under ${versionRange(made.flatMap((a) => a.versions))} no revision's data equals the DaemonSet's template as that release writes it: the controller creates a ControllerRevision (revision ${r.snapshot.revision}) named ${r.computed?.name.replace(/-[^-]+$/, '') ?? 'NAME'}-<its release's hash, above>.${pods}`
      }
      const byGen = r.pods.updatedByGeneration > 0 && r.pods.updated === r.pods.total && r.pods.total > 0
      return (
        `No revision's data equals the DaemonSet's template as a ${v} controller writes it: it creates ControllerRevision ${r.snapshot.creates} (revision ${r.snapshot.revision}, hash ${r.snapshot.attempts[r.snapshot.attempts.length - 1].hash}).` +
        (byGen
          ? ` Its pods still count as updated by pod-template-generation ${r.templateGeneration}, so they are not restarted (an upgrade changed the patch bytes, not the template).`
          : pods)
      )
    }
    case 'unreproducible':
      if (r.revisions.length === 0 || (!cur && r.templateRedacted)) {
        const groups = (r.podRevisions ?? []).map((g) => `${g.label} (${plural(g.pods, 'pod')})`).join(', ')
        return r.templateRedacted
          ? `The DaemonSet's template holds redacted values (***HIDDEN***): no hash computed from it is the controller's, so which revision is current cannot be told from this data.${groups ? ` Its pods carry ${groups}.` : ''}`
          : `None of the DaemonSet's ControllerRevisions is in the data, and its pods' controller-revision-hash (${groups}) is not the hash of its template under any known layout (${r.podRevisions?.[0]?.current.why ?? ''}): a rolling update from another revision, or a template changed after the capture.`
      }
      return `${cur ? `Revision ${cur.name} is current. ` : ''}The controller-revision-hash of ${bad.map((x) => x.name).join(', ')} is reproduced by no known layout: ${bad[0].label.why}.${pods}`
    case 'hashDrift':
      if (r.revisions.length === 0 && r.podRevisions) {
        const g = r.podRevisions.find((x) => x.current.result === 'otherLayout')!
        return `None of the DaemonSet's ControllerRevisions is in the data; ${plural(g.pods, 'pod')} carry ${g.label}, its template's hash ${g.current.why.replace(/^written/, 'as written')}; a ${v} controller computes ${r.computed?.hash ?? '?'} but matches revisions by their data, so nothing restarts.${pods}`
      }
      return `${cur ? `Revision ${cur.name} is current (its data equals the DaemonSet's patch). ` : ''}${drifted.map((x) => x.name).join(', ')} ${drifted.length === 1 ? 'was' : 'were'} named by another controller version (${drifted[0].label.why}); the controller matches revisions by their data, not by name, so nothing changes.${pods}`
    default:
      if (r.revisions.length === 0 && r.podRevisions) {
        const g = r.podRevisions.find((x) => x.current.result === 'matches')!
        return `None of the DaemonSet's ControllerRevisions is in the data; ${plural(g.pods, 'pod')} carry ${g.label}, the hash a ${v} controller computes for its template (${describeCount(g.current.collisionCount)}), so the current revision is ${r.computed?.name ?? `${g.label}`}.${pods}`
      }
      return `Revision ${cur?.name ?? '?'} (revision ${cur?.revision ?? '?'}) is current: its data equals the DaemonSet's patch and its hash is what a ${v} controller computes (${describeCount(cur?.label.collisionCount)}).${pods}`
  }
}
