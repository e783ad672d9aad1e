// `kubectl why hash deployment/NAME`: the Deployment controller's view of its ReplicaSets (pkg/controller/deployment):
// the hash and name it computes now, which ReplicaSet it treats as new and which as old, whether each
// ReplicaSet's pod-template-hash is what its own template hashes to (and if not, which layout wrote it), and what
// the create path would do: create, adopt, or collide and bump status.collisionCount. Pure.
import {nextOf, workloadNextSteps} from './next.js'
import {UnreproducibleHashError} from '../../hash/errors.js'
import type {Explanation, Step} from '../../explanation.js'
import {labelSelectorAsSelector} from '../../apimachinery/labels.js'
import {claimed, claimObjects, type ClaimResult, MissingDataError} from './claim.js'
import {collisionCountOf, comparisonLayout, type HashVerdict, plural, severityOf, templateOf} from './common.js'
import {getControllerOf} from '../../apimachinery/owner-references.js'
import {checkTemplateLabel, describeCount, isRedacted, type LabelCheck, suffixOf} from '../history/label-check.js'
import {REVISION_ANNOTATION, REVISION_HISTORY_ANNOTATION} from './constants.js'
import {POD_TEMPLATE_HASH_LABEL} from '../history/constants.js'
import {type CollisionCountEvidence, type CreatePrediction, explainCollisionCount, predictCreate} from './create.js'
import {withoutHashLabel} from './equal-ignore-hash.js'
import {FindNewReplicaSet, FindOldReplicaSets, MaxRevision} from './find.js'
import {answersByRelease, answersText, type ByRelease, releasesAgreeing} from './releases.js'
import type {PodMeta, ReplicaSet, Workload, WorkloadInput} from './types.js'
import {versionRange as rangeOf} from '../history/label-check.js'

const SYNC = 'pkg/controller/deployment/sync.go'
const UTIL = 'pkg/controller/deployment/util/deployment_util.go'

export interface DeploymentHashInput extends WorkloadInput<Workload> {
  /** Every ReplicaSet of the Deployment's namespace, as the controller's informer sees them. */
  replicaSets: readonly ReplicaSet[]
  /** The namespace's pods (metadata is enough): they reveal ReplicaSets the data lacks. */
  pods?: readonly PodMeta[]
  /** Every ReplicaSet of the namespace by name, when replicaSets holds only the Deployment's candidates (--all). */
  byName?: ReadonlyMap<string, ReplicaSet>
}

export interface ReplicaSetRow {
  name: string
  uid?: string
  role: 'new' | 'old'
  /** An old ReplicaSet whose template also equals the Deployment's (newer than the new one: kubernetes#40415). */
  sameTemplate?: boolean
  claim: ClaimResult
  revision?: string
  revisionHistory?: string
  createdAt?: string
  replicas: {desired?: number; current?: number; ready?: number; available?: number}
  label: LabelCheck
}

/** A ReplicaSet the data does not hold but pods point to (their controller owner reference). */
export interface MissingReplicaSet {
  name: string
  pods: number
  label?: string
  /** Whether the Deployment's current template hashes to the pods' label (then it is the new ReplicaSet). */
  current: LabelCheck
}

export interface DeploymentHashReplay {
  version?: string
  collisionCount: number | null
  paused: boolean
  deleting: boolean
  computed?: {hash: string; name: string; truncated?: boolean; nameError?: string}
  /** Why nothing is computed now (no layout for the cluster's version, a non-null timestamp). */
  computeError?: string
  /** The Deployment's template holds redacted values: no hash of it is the controller's. */
  templateRedacted?: true
  /** The revision a ReplicaSet created now gets (MaxRevision of the old ones + 1); only when one would be created. */
  nextRevision?: string
  newReplicaSet?: string
  replicaSets: ReplicaSetRow[]
  missingReplicaSets?: MissingReplicaSet[]
  notClaimed?: {name: string; claim: ClaimResult; why: string}[]
  create?: CreatePrediction
  collisionCountHistory?: {evidence: CollisionCountEvidence[]; why: string}
  /** The data does not settle the controller's release and the answer depends on it: the answer of each. */
  byRelease?: ByRelease
}

function num(v: unknown): number | undefined {
  return typeof v === 'number' ? v : undefined
}

function labelOf(rs: ReplicaSet): string | undefined {
  const t = rs.spec?.template as {metadata?: {labels?: Record<string, string>}} | undefined
  return t?.metadata?.labels?.[POD_TEMPLATE_HASH_LABEL] ?? rs.metadata.labels?.[POD_TEMPLATE_HASH_LABEL]
}

/** Counts a ReplicaSet of this Deployment may have been created with: the current one, unset, then 1..current. */
export function countsToTry(collisionCount: number | null): (number | null)[] {
  const out: (number | null)[] = [collisionCount, null]
  for (let c = 1; c <= (collisionCount ?? 0); c++) out.push(c)
  return [...new Set(out)]
}

function missingReplicaSets(
  d: Workload,
  template: unknown,
  input: DeploymentHashInput,
  counts: (number | null)[],
  matchSelector: (l?: Record<string, string>) => boolean,
): MissingReplicaSet[] {
  const known = input.byName ?? new Set(input.replicaSets.map((r) => r.metadata.name))
  const groups = new Map<string, PodMeta[]>()
  for (const p of input.pods ?? []) {
    if (p.metadata.namespace !== d.metadata.namespace) continue
    const c = getControllerOf(p)
    if (c?.kind !== 'ReplicaSet' || known.has(c.name) || !matchSelector(p.metadata.labels)) continue
    const l = groups.get(c.name)
    if (l) l.push(p)
    else groups.set(c.name, [p])
  }
  return [...groups].map(([name, pods]) => {
    const label = pods[0].metadata.labels?.[POD_TEMPLATE_HASH_LABEL]
    const current = checkTemplateLabel(template, label, {settings: input.settings, counts, nameSuffix: suffixOf(name)})
    return {name, pods: pods.length, ...(label !== undefined ? {label} : {}), current}
  })
}

export function explainDeploymentHash(input: DeploymentHashInput): Explanation {
  const d = input.workload
  const s = input.settings
  const template = templateOf(d)
  const N = collisionCountOf(d)
  const layout = comparisonLayout(s)
  const minor = s.minor ?? (s.version ? Number(s.version.split('.')[1]) : undefined)
  const steps: Step[] = []
  const counts = countsToTry(N)

  // getReplicaSetsForDeployment → ClaimReplicaSets (controller_ref_manager.go ClaimObject).
  const claims = claimObjects(d, input.replicaSets)
  const rsList = claimed(claims)
  const notClaimed = claims.filter((c) => c.result === 'release' || (c.result === 'ignore' && c.object.metadata.name.startsWith(`${d.metadata.name}-`)))
  steps.push({
    rule: 'ClaimReplicaSets',
    upstream: 'pkg/controller/controller_ref_manager.go',
    inputs: {selector: d.spec?.selector, replicaSetsInNamespace: input.replicaSets.length},
    result: `${rsList.length} claimed`,
    why:
      `${plural(claims.filter((c) => c.result === 'owned').length, 'ReplicaSet')} controlled by the Deployment and matching its selector` +
      `${
        claims.some((c) => c.result === 'adopt')
          ? `; adopts ${claims
              .filter((c) => c.result === 'adopt')
              .map((c) => c.object.metadata.name)
              .join(', ')}`
          : ''
      }` +
      `${
        claims.some((c) => c.result === 'release')
          ? `; releases ${claims
              .filter((c) => c.result === 'release')
              .map((c) => c.object.metadata.name)
              .join(', ')}`
          : ''
      }`,
  })

  // ComputeHash and generateReplicaSetName with the cluster's layout, as the create path would.
  let computed: DeploymentHashReplay['computed']
  let computeError: string | undefined
  let create: CreatePrediction | undefined
  const byName = input.byName ?? new Map(input.replicaSets.filter((r) => r.metadata.namespace === d.metadata.namespace).map((r) => [r.metadata.name, r]))
  if (s.version === undefined) {
    computeError = s.versionNote ?? "no struct layout for the cluster's version"
  } else {
    try {
      create = predictCreate(layout, d, template, N, s.version, minor!, byName)
      const first = create.attempts[0]
      computed = {
        hash: first.hash,
        name: first.name,
        ...(create.nameTruncated ? {truncated: true} : {}),
        ...(create.nameError ? {nameError: create.nameError} : {}),
      }
    } catch (err) {
      if (!(err instanceof UnreproducibleHashError)) throw err
      computeError = err.computeError
    }
  }
  const computeStep: Step = computed
    ? {
        rule: 'ComputeHash',
        upstream: 'pkg/controller/controller_utils.go:1395',
        inputs: {version: s.version, collisionCount: N},
        result: computed.hash,
        why: `FNV-1a over the spew dump of spec.template with the ${s.version} struct layout${N === null ? '' : `, then collisionCount ${N} as 8 bytes`}, SafeEncoded`,
      }
    : {
        rule: 'ComputeHash',
        upstream: 'pkg/controller/controller_utils.go:1395',
        inputs: {version: s.version ?? null, collisionCount: N},
        result: 'unavailable',
        why: computeError!,
      }
  steps.push(computeStep)
  if (computed) {
    steps.push({
      rule: minor !== undefined && minor >= 34 ? 'generateReplicaSetName' : 'ReplicaSet name',
      upstream: SYNC,
      inputs: {deployment: d.metadata.name, hash: computed.hash},
      result: computed.name,
      why:
        computed.nameError ??
        (computed.truncated
          ? 'the Deployment name is cut so that "<name>-<hash>" fits 253 characters (kubernetes#132560, from 1.34); the hash is never cut'
          : '"<deployment>-<hash>"'),
    })
  }

  // FindNewReplicaSet / FindOldReplicaSets.
  const {newRS, sorted, duplicates} = FindNewReplicaSet(layout, d, rsList)
  const {required, all} = FindOldReplicaSets(sorted, newRS)
  const claimOf = new Map(claims.map((c) => [c.object, c.result]))
  const rows: ReplicaSetRow[] = sorted.map((rs) => {
    const label = labelOf(rs)
    const check = checkTemplateLabel(withoutHashLabel(rs.spec?.template), label, {
      settings: s,
      counts,
      createdAt: rs.metadata.creationTimestamp ?? undefined,
      nameSuffix: suffixOf(rs.metadata.name),
    })
    const ann = rs.metadata.annotations ?? {}
    return {
      name: rs.metadata.name,
      ...(rs.metadata.uid ? {uid: rs.metadata.uid} : {}),
      role: rs === newRS ? 'new' : 'old',
      ...(duplicates.includes(rs) ? {sameTemplate: true} : {}),
      claim: claimOf.get(rs) ?? 'owned',
      ...(ann[REVISION_ANNOTATION] !== undefined ? {revision: ann[REVISION_ANNOTATION]} : {}),
      ...(ann[REVISION_HISTORY_ANNOTATION] !== undefined ? {revisionHistory: ann[REVISION_HISTORY_ANNOTATION]} : {}),
      ...(rs.metadata.creationTimestamp ? {createdAt: rs.metadata.creationTimestamp} : {}),
      replicas: {
        desired: num(rs.spec?.replicas),
        current: num(rs.status?.replicas),
        ready: num(rs.status?.readyReplicas),
        available: num(rs.status?.availableReplicas),
      },
      label: check,
    }
  })
  const newRow = rows.find((r) => r.role === 'new')
  const nextRevision = String(MaxRevision(all) + 1)
  steps.push({
    rule: 'FindNewReplicaSet',
    upstream: `${UTIL}:629`,
    inputs: {claimed: sorted.map((r) => r.metadata.name)},
    result: newRS ? newRS.metadata.name : 'none',
    why: newRS
      ? `the oldest claimed ReplicaSet whose template equals the Deployment's (EqualIgnoreHash: Semantic.DeepEqual without the pod-template-hash label)${duplicates.length > 0 ? `; ${duplicates.map((r) => r.metadata.name).join(', ')} also match${duplicates.length === 1 ? 'es' : ''} but ${duplicates.length === 1 ? 'is' : 'are'} newer, so the controller treats ${duplicates.length === 1 ? 'it' : 'them'} as old (kubernetes#40415)` : ''}`
      : `no claimed ReplicaSet's template equals the Deployment's (EqualIgnoreHash)`,
  })
  steps.push({
    rule: 'FindOldReplicaSets',
    upstream: `${UTIL}:646`,
    result: all ? all.map((r) => r.metadata.name).join(', ') : 'none',
    why: all
      ? `${plural(all.length, 'old ReplicaSet')}, ${required ? `${required.length} still with replicas (${required.map((r) => r.metadata.name).join(', ')})` : 'all scaled to 0'}`
      : 'no other ReplicaSet',
  })

  for (const r of rows) {
    steps.push({
      rule: 'ComputeHash',
      upstream: 'pkg/controller/controller_utils.go:1395',
      inputs: {replicaSet: r.name, label: r.label.label ?? null},
      result: r.label.result,
      why: `${r.name} (${r.role}${r.revision !== undefined ? `, revision ${r.revision}` : ''}): ${r.label.why}`,
    })
  }

  // ReplicaSets the pods point to but the data lacks.
  let missing: MissingReplicaSet[] = []
  let inferredNew: MissingReplicaSet | undefined
  if (!newRS) {
    missing = missingReplicaSets(d, template, input, counts, labelSelectorAsSelector(d.spec?.selector))
    inferredNew = missing.find((m) => m.current.result === 'matches' || m.current.result === 'otherLayout')
    if (missing.length > 0) {
      steps.push({
        rule: 'FindNewReplicaSet',
        upstream: `${UTIL}:629`,
        inputs: {missing: missing.map((m) => m.name)},
        result: inferredNew ? inferredNew.name : 'none',
        why: inferredNew
          ? `${inferredNew.name} is not in the data, but ${plural(inferredNew.pods, 'pod')} it owns carry pod-template-hash=${inferredNew.label}, which the Deployment's current template hashes to (${inferredNew.current.why}): it is the new ReplicaSet`
          : `${missing.map((m) => m.name).join(', ')} ${missing.length === 1 ? 'is' : 'are'} not in the data; ${missing.length === 1 ? 'its' : 'their'} pods' pod-template-hash is not the current template's, so ${missing.length === 1 ? 'it belongs' : 'they belong'} to another revision (or the template shown was redacted)`,
        inferred: {
          evidence: 'owner references and pod-template-hash labels of pods whose ReplicaSet is missing from the data',
          confidence: inferredNew ? 'likely' : 'possible',
        },
      })
    }
  }

  // The data does not settle the release (issue 27.3): the answer of every release whose result differs, each with
  // the releases computing it, and the release set the Deployment's own ReplicaSet's label agrees with.
  let byRelease: ByRelease | undefined
  const candidates = s.candidates && s.candidates.versions.length > 1 ? s.candidates : undefined
  if (candidates && computed) {
    const answers = answersByRelease(layout, d, template, N, candidates.versions, byName, !newRS && !inferredNew)
    if (answers.length > 1) {
      const own = newRS
        ? {name: newRS.metadata.name, template: withoutHashLabel(newRS.spec?.template), label: labelOf(newRS)}
        : inferredNew
          ? {name: inferredNew.name, template, label: inferredNew.label}
          : undefined
      const agreeing = own ? releasesAgreeing(own.template, own.label, counts, s) : []
      const ns = d.metadata.namespace ?? 'default'
      byRelease = {
        candidates: candidates.versions,
        why: candidates.why,
        answers,
        settle: [
          `--k8s-version X.Y with the cluster's version (\`kubectl version\` prints it as Server Version)`,
          `a ReplicaSet of this Deployment in the data (kubectl get rs -n ${ns} -o yaml): its pod-template-hash label is the hash its controller's release computed, and picks the releases that agree`,
        ],
        ...(own?.label !== undefined && agreeing.length > 0 ? {agreeing: {replicaSet: own.name, label: own.label, versions: agreeing}} : {}),
      }
      steps.push({
        rule: 'ComputeHash',
        upstream: 'pkg/controller/controller_utils.go:1395',
        inputs: {versions: candidates.versions, collisionCount: N},
        result: `${answers.length} answers by release`,
        why:
          `${candidates.why}; by release: ${answersText(answers)}` +
          (byRelease.agreeing
            ? `; ReplicaSet ${byRelease.agreeing.replicaSet}'s label ${byRelease.agreeing.label} is what ${rangeOf(byRelease.agreeing.versions)} compute${byRelease.agreeing.versions.length === 1 ? 's' : ''} for its template`
            : ''),
      })
    } else {
      computeStep.why += `; every release the data leaves possible (${rangeOf(candidates.versions)}) computes the same`
    }
  }

  // The create path, when the controller has no new ReplicaSet.
  const paused = d.spec?.paused === true
  const deleting = Boolean(d.metadata.deletionTimestamp)
  let collisionCountHistory: DeploymentHashReplay['collisionCountHistory']
  if (!newRS && !inferredNew && create) {
    const gated = paused
      ? 'while the Deployment is paused the controller only syncs (getNewReplicaSet with createIfNotExisted=false) and creates nothing'
      : deleting
        ? 'the Deployment is being deleted: the controller only updates its status and creates nothing'
        : undefined
    if (create.adopts) {
      steps.push({
        rule: 'getNewReplicaSet',
        upstream: SYNC,
        result: `adopts ${create.adopts.name}`,
        why: `Create fails with AlreadyExists; ${create.adopts.name} is controlled by this Deployment and has its template, so the controller takes it as the new ReplicaSet (no event, no collision)`,
      })
    } else if (create.collision) {
      const last = create.attempts[create.attempts.length - 1]
      steps.push({
        rule: 'getNewReplicaSet',
        upstream: SYNC,
        inputs: {name: computed!.name},
        result: 'collision',
        why:
          `Create fails with AlreadyExists: ${create.collision.holder.name} exists and ${create.collision.why}. The controller sets status.collisionCount to ${(N ?? 0) + 1}, logs "Found a hash collision for deployment - bumping collisionCount to resolve it" and requeues; ` +
          (create.creates
            ? `the next sync${create.attempts.length > 2 ? `s (${create.attempts.length - 1} bumps)` : ''} hash${create.attempts.length > 2 ? '' : 'es'} with ${describeCount(last.collisionCount)} and create${create.attempts.length > 2 ? '' : 's'} ${last.name}`
            : `the next ${create.attempts.length - 1} names are taken as well`) +
          (gated ? ` — once it creates at all: ${gated}` : ''),
      })
    } else {
      steps.push({
        rule: 'getNewReplicaSet',
        upstream: SYNC,
        result: `creates ${create.creates}`,
        why: create.nameError
          ? `${create.nameError}: the controller emits ReplicaSetCreateError and sets Progressing=False`
          : gated
            ? `${create.creates} is the name it would create, but ${gated}`
            : `no ReplicaSet has the template and the name is free: the controller creates ${create.creates} (revision ${nextRevision}, pod-template-hash ${computed!.hash} in its labels, selector and template) and the rollout starts`,
      })
    }
  }
  if (N !== null && N > 0 && s.version !== undefined && computed) {
    const bumped = rows
      .filter((r) => r.label.result === 'matches' && typeof r.label.collisionCount === 'number' && r.label.collisionCount > 0)
      .map((r) => ({
        rs: sorted.find((x) => x.metadata.name === r.name)!,
        template: withoutHashLabel(sorted.find((x) => x.metadata.name === r.name)!.spec?.template),
        collisionCount: r.label.collisionCount as number,
        version: s.version!,
      }))
    collisionCountHistory = explainCollisionCount(layout, d, template, N, s.version, minor!, byName, bumped)
    steps.push({
      rule: 'collisionCount',
      upstream: SYNC,
      inputs: {collisionCount: N},
      result: collisionCountHistory.evidence.length > 0 ? 'explained' : 'unexplained',
      why: collisionCountHistory.why,
    })
  }

  // Without a ReplicaSet in the data, "no ReplicaSet has the template" is only a conclusion when the data could show one.
  const redacted = isRedacted(template)
  const st = d.status ?? {}
  // SetDeploymentRevision copies a ReplicaSet's revision onto the Deployment: with one, a ReplicaSet has existed.
  const ownRevision = Number(d.metadata.annotations?.[REVISION_ANNOTATION] ?? 0)
  const counted = (st.replicas ?? 0) > 0 || (st.updatedReplicas ?? 0) > 0 || (st.availableReplicas ?? 0) > 0
  if (!newRS && !inferredNew && sorted.length === 0 && missing.length === 0 && (counted || ownRevision >= 1) && !redacted) {
    throw new MissingDataError(
      `Deployment ${d.metadata.namespace}/${d.metadata.name}: ${counted ? `its status counts ${st.replicas ?? st.updatedReplicas ?? st.availableReplicas} replicas` : `it is at revision ${ownRevision}`}, but none of its ReplicaSets — nor pods that would reveal them — is in the data`,
    )
  }
  const cannotTell = !newRS && !inferredNew && (redacted || (sorted.length === 0 && missing.length > 0))
  if (cannotTell) {
    steps.push({
      rule: 'FindNewReplicaSet',
      upstream: `${UTIL}:629`,
      result: 'unknown',
      why: redacted
        ? "the Deployment's template holds redacted values (***HIDDEN***): no hash computed from it is the controller's, and no ReplicaSet in the data has it"
        : `none of the Deployment's ReplicaSets is in the data, and the pod-template-hash its pods carry (${missing.map((m) => `${m.name}: ${m.label ?? '-'}`).join(', ')}) is not its template's: ${missing[0].current.why}`,
    })
  }

  // The verdict.
  const labelRows = rows.map((r) => r.label)
  const unreproducible = labelRows.filter((l) => l.result === 'unreproducible')
  const drift = labelRows
    .filter((l) => l.result === 'otherLayout')
    .concat(inferredNew && inferredNew.current.result === 'otherLayout' ? [inferredNew.current] : [])
  let verdict: HashVerdict
  if (cannotTell) verdict = 'unreproducible'
  else if (!newRS && !inferredNew && create?.collision) verdict = 'collision'
  else if (!newRS && !inferredNew && !create?.adopts) verdict = 'rolloutPending'
  else if (unreproducible.length > 0) verdict = 'unreproducible'
  else if (drift.length > 0) verdict = 'hashDrift'
  else verdict = 'upToDate'
  // With the release unsettled, a collision or a failing create is only as certain as the releases that agree on it:
  // under every candidate it keeps its severity; under some only it is information naming them.
  const everyCollides = !byRelease || byRelease.answers.every((a) => a.create === 'collision')
  const everyFails = !byRelease || byRelease.answers.every((a) => a.nameError !== undefined)
  let severity = severityOf(verdict, {
    unexplained: cannotTell ? !redacted : unreproducible.some((l) => !l.explained),
    failing: Boolean(create?.nameError) && everyFails && !paused && !deleting,
  })
  if (verdict === 'collision' && !everyCollides) severity = 'info'

  // Steps that name one release's hash (the one label checks compare with) say it is that release's only.
  if (byRelease) {
    for (const st of steps) {
      if (st.rule === 'generateReplicaSetName' || st.rule === 'ReplicaSet name' || st.rule === 'getNewReplicaSet' || st === computeStep)
        st.why = `under ${s.version} only, one of the releases the data leaves possible (the ComputeHash step by release gives each): ${st.why}`
    }
  }

  const replay: DeploymentHashReplay = {
    ...(s.version !== undefined ? {version: s.version} : {}),
    collisionCount: N,
    paused,
    deleting,
    ...(computed ? {computed} : {}),
    ...(computeError ? {computeError} : {}),
    ...(redacted ? {templateRedacted: true as const} : {}),
    ...(!newRS && !inferredNew ? {nextRevision} : {}),
    ...(newRS ? {newReplicaSet: newRS.metadata.name} : inferredNew ? {newReplicaSet: inferredNew.name} : {}),
    replicaSets: rows,
    ...(missing.length > 0 ? {missingReplicaSets: missing} : {}),
    ...(notClaimed.length > 0 ? {notClaimed: notClaimed.map((c) => ({name: c.object.metadata.name, claim: c.result, why: c.why}))} : {}),
    ...(create && !newRS && !inferredNew && !cannotTell ? {create} : {}),
    ...(collisionCountHistory ? {collisionCountHistory} : {}),
    ...(byRelease ? {byRelease} : {}),
  }
  return {
    subject: {
      kind: 'Deployment',
      apiVersion: 'apps/v1',
      namespace: d.metadata.namespace,
      name: d.metadata.name,
      ...(d.metadata.uid ? {uid: d.metadata.uid} : {}),
    },
    controller: 'deployment',
    verdict,
    severity,
    summary: byRelease
      ? `${releasePreamble(byRelease)} ${summarize(verdict, d, replay, newRow, inferredNew)}`
      : summarize(verdict, d, replay, newRow, inferredNew),
    ...nextOf(workloadNextSteps('Deployment', d.metadata.namespace, d.metadata.name, verdict)),
    steps,
    evaluatedAt: new Date(input.now).toISOString(),
    source: input.source,
    deployment: replay,
  }
}

/** What the summary says first when the release is not settled: that, every answer, and what would settle it. */
function releasePreamble(b: ByRelease): string {
  const agree = b.agreeing
    ? ` ReplicaSet ${b.agreeing.replicaSet}'s pod-template-hash ${b.agreeing.label} is what ${rangeOf(b.agreeing.versions)} compute${b.agreeing.versions.length === 1 ? 's' : ''} for its template: of these, the release${b.agreeing.versions.length === 1 ? '' : 's'} that agree${b.agreeing.versions.length === 1 ? 's' : ''} with the data.`
    : ''
  return (
    `The Kubernetes version is not known (${b.why}), and the pod-template-hash depends on it: ${answersText(b.answers)}.${agree}` +
    ` --k8s-version X.Y (from \`kubectl version\`) or a ReplicaSet of this Deployment (its pod-template-hash label) settles it.`
  )
}

function replicaText(r: ReplicaSetRow): string {
  const x = r.replicas
  return `${x.ready ?? 0}/${x.desired ?? 0} ready`
}

function summarize(
  verdict: HashVerdict,
  d: Workload,
  r: DeploymentHashReplay,
  newRow: ReplicaSetRow | undefined,
  inferredNew: MissingReplicaSet | undefined,
): string {
  const b = r.byRelease
  // Unsettled: the releases the data agrees with, else the one label checks compared with, said to be one of several.
  const v = b?.agreeing ? rangeOf(b.agreeing.versions) : b ? `${r.version} (one of ${rangeOf(b.candidates)})` : (r.version ?? "the cluster's")
  const old = r.replicaSets.filter((x) => x.role === 'old')
  const oldText =
    old.length === 0
      ? 'no old ReplicaSet'
      : `${plural(old.length, 'old ReplicaSet')}${
          old.every((x) => (x.replicas.desired ?? 1) === 0)
            ? ', all scaled to 0'
            : ` (${old
                .filter((x) => (x.replicas.desired ?? 1) !== 0)
                .map((x) => `${x.name} at ${x.replicas.desired}`)
                .join(', ')})`
        }`
  const newText = newRow
    ? `ReplicaSet ${newRow.name}${newRow.revision !== undefined ? ` (revision ${newRow.revision}, ${replicaText(newRow)})` : ''} is new: its template equals the Deployment's`
    : inferredNew
      ? `ReplicaSet ${inferredNew.name} (not in the data; ${plural(inferredNew.pods, 'pod')}) is new: its pods carry the hash of the Deployment's template`
      : ''
  const bad = r.replicaSets.filter((x) => x.label.result === 'unreproducible')
  const drifted = r.replicaSets.filter((x) => x.label.result === 'otherLayout')
  switch (verdict) {
    case 'collision': {
      const c = r.create!
      const last = c.attempts[c.attempts.length - 1]
      const colliding = b?.answers.filter((a) => a.create === 'collision') ?? []
      const only =
        b && colliding.length < b.answers.length
          ? ` Only under ${rangeOf(colliding.flatMap((a) => a.versions))} is the name taken; ${answersText(
              b.answers.filter((a) => a.create !== 'collision'),
              (a) => `${a.create === 'adopts' ? 'adopts' : 'creates'} ${a.creates ?? a.name}`,
            )}.`
          : ''
      return (
        `No ReplicaSet has the Deployment's template, and the name a ${v} controller computes for it, ${r.computed!.name}, is taken by ${c.collision!.holder.name}, which ${c.collision!.why.replace(/^it /, '')}: Create fails with AlreadyExists, the controller bumps status.collisionCount to ${(r.collisionCount ?? 0) + 1} and ` +
        (c.creates
          ? `${c.attempts.length > 2 ? `after ${c.attempts.length - 1} bumps ` : ''}creates ${last.name} (hash ${last.hash}) instead.`
          : `keeps colliding for the next ${c.attempts.length - 1} names.`) +
        only
      )
    }
    case 'rolloutPending': {
      if (!r.computed)
        return `No ReplicaSet has the Deployment's template: the controller creates a new one, but its name cannot be computed (${r.computeError}).`
      const from = old.filter((x) => (x.replicas.desired ?? 1) !== 0).map((x) => x.name)
      const gate = r.paused ? ' once the Deployment is resumed (it is paused)' : r.deleting ? ' — but the Deployment is being deleted, so it does not' : ''
      const fails = r.computed.nameError ? ` — and fails: ${r.computed.nameError}` : ''
      if (b) {
        const failing = b.answers.filter((a) => a.nameError !== undefined)
        const colliding = b.answers.filter((a) => a.create === 'collision')
        const renamed = b.answers.some((a) => a.creates !== undefined && a.creates !== a.name)
        return (
          `No ReplicaSet has the Deployment's template: the controller creates one (revision ${r.nextRevision}), named ${d.metadata.name}-<its release's hash, above>${renamed ? ` (${answersText(b.answers, (a) => a.creates ?? a.name)})` : ''}${gate}` +
          `${failing.length > 0 ? `; under ${rangeOf(failing.flatMap((a) => a.versions))} the create fails: ${failing[0].nameError}` : ''}` +
          `${colliding.length > 0 ? `; under ${rangeOf(colliding.flatMap((a) => a.versions))} the name is taken (a collision: the controller bumps status.collisionCount)` : ''}` +
          `${from.length > 0 && failing.length === 0 ? `, then scales ${from.join(', ')} down` : ''}.`
        )
      }
      return `No ReplicaSet has the Deployment's template: a ${v} controller creates ReplicaSet ${r.computed.name} (pod-template-hash ${r.computed.hash}, revision ${r.nextRevision})${gate}${fails}${from.length > 0 && !fails ? `, then scales ${from.join(', ')} down` : ''}.`
    }
    case 'unreproducible':
      if (!newText) {
        const m = r.missingReplicaSets ?? []
        const pods =
          m.length > 0 ? ` Its pods belong to ${m.map((x) => `${x.name} (pod-template-hash ${x.label ?? '-'})`).join(', ')}, which the data lacks.` : ''
        return r.templateRedacted
          ? `The Deployment's template holds redacted values (***HIDDEN***, as support-bundle redactors write them): no hash computed from it is the controller's, so which ReplicaSet is new cannot be told from this data.${pods}`
          : `None of the Deployment's ReplicaSets is in the data.${pods} That label is not the hash of the Deployment's template under any known layout (${m[0]?.current.why ?? ''}): a rollout from another revision is under way, or the template was changed after the capture; the ReplicaSets would tell.`
      }
      return `${newText}. ${bad.length === 1 ? `The pod-template-hash of ${bad[0].name} is` : `The pod-template-hash labels of ${bad.map((x) => x.name).join(', ')} are`} reproduced by no known layout: ${bad[0].label.why}. The controller never recomputes existing labels, so this changes nothing it does.`
    case 'hashDrift': {
      // The drift may be known only from the pods of a ReplicaSet the data lacks (the verdict counts inferredNew's label).
      const drift = drifted.length === 0 && inferredNew ? inferredNew.current : undefined
      if (drift) {
        return `${newText}. Its pod-template-hash ${drift.label} was ${drift.why}; a ${v} controller computes ${r.computed?.hash ?? drift.recomputed} for the same template, but it finds the ReplicaSet by template equality (EqualIgnoreHash) and never recomputes existing labels, so no rollout happens.`
      }
      const first = drifted[0] ?? newRow
      const isNew = first?.role === 'new'
      return `${newText}. ${
        isNew
          ? `Its pod-template-hash ${first.label.label} was ${first.label.why.replace(/^written/, 'written')}; a ${v} controller computes ${r.computed?.hash ?? first.label.recomputed} for the same template, but it finds the ReplicaSet by template equality (EqualIgnoreHash) and never recomputes existing labels, so no rollout happens.`
          : `${drifted.map((x) => x.name).join(', ')} ${drifted.length === 1 ? 'was' : 'were'} labelled by another controller version (${drifted[0].label.why}); harmless: labels are only written at creation.`
      }`
    }
    default:
      return `${newText}, and its pod-template-hash is what a ${v} controller computes now${newRow?.label.collisionCount !== undefined ? ` (${describeCount(newRow.label.collisionCount)})` : ''}; ${oldText}${r.replicaSets.length > 1 ? ', every label reproduces' : ''}.`
  }
}
