// The human view of `kubectl why hash TYPE/NAME` and `--all`: the verdict and summary, what the controller of this
// version computes now, a table of the ReplicaSets or revisions (role, revision, pods, whose layout wrote the label),
// the key steps (all of them with -o wide); for --all one line per workload, problems first, then label totals.
import type {HashReport} from '../engine/workloads/drive.js'
import type {DaemonSetHashReplay} from '../engine/daemonset/index.js'
import type {DeploymentHashReplay} from '../engine/deployment/index.js'
import {outcomeText, type RevisionByRelease} from '../engine/history/by-release.js'
import {describeCount, type LabelCheck, versionRange} from '../engine/history/label-check.js'
import type {StatefulSetHashReplay} from '../engine/statefulset/index.js'
import type {Explanation} from '../explanation.js'
import {ROLE, SEVERITY} from './colour.js'
import {partialLines, stepLines, verdictLine} from './explanation-table.js'
import {tableBuilder as table, terminalWidth, wrap} from './layout.js'
import {nextStepBlock, nextStepLines, type SourceInForce} from './next-steps.js'

function indent(text: string): string {
  return text
    .split('\n')
    .map((l) => `  ${l}`)
    .join('\n')
}

/** What a label check says, in a table cell. */
export function labelCell(l: LabelCheck, version: string | undefined): string {
  switch (l.result) {
    case 'matches':
      return ROLE.good(
        `${version ?? ''} ${l.collisionCount === null || l.collisionCount === undefined ? '' : `(count ${l.collisionCount})`}`.trim() || 'matches',
      )
    case 'otherLayout':
      return ROLE.notice(
        `by ${l.reproducedBy?.map((r) => `${versionRange(r.versions)}${r.collisionCount === null ? '' : ` (count ${r.collisionCount})`}`).join('; ')}`,
      )
    case 'unreproducible':
      return (l.explained ? ROLE.notice : ROLE.warn)(`none: ${l.reason}`)
    default:
      return ROLE.muted('no label')
  }
}

function subjectLine(e: Explanation): string {
  return `${e.subject.kind}/${e.subject.namespace ? `${e.subject.namespace}/` : ''}${e.subject.name}`
}

function deploymentBody(r: DeploymentHashReplay): string[] {
  const out: string[] = []
  const b = r.byRelease
  if (b) {
    // The release is not settled: every answer, never one release's as the answer.
    out.push(ROLE.warn(`Version not known: computed now for each release (${describeCount(r.collisionCount)}):`))
    const t = table(['RELEASES', 'POD-TEMPLATE-HASH', 'REPLICASET', ...(b.answers.some((a) => a.create) ? ['CREATE'] : [])])
    for (const a of b.answers)
      t.push([
        versionRange(a.versions),
        ROLE.heading(a.hash),
        a.name,
        ...(a.create
          ? [
              a.nameError
                ? 'fails: name over 253'
                : a.create === 'creates'
                  ? `creates ${a.creates ?? a.name}`
                  : a.create === 'adopts'
                    ? 'adopts'
                    : `collision → ${a.creates ?? '?'}`,
            ]
          : []),
      ])
    out.push(t.toString())
    if (b.agreeing) out.push(`ReplicaSet ${b.agreeing.replicaSet}'s label ${b.agreeing.label} agrees with ${versionRange(b.agreeing.versions)}`)
    out.push(`Settle it with: ${b.settle.join('; or ')}`)
  } else if (r.computed)
    out.push(
      `Computed now (${r.version}, ${describeCount(r.collisionCount)}): pod-template-hash ${ROLE.heading(r.computed.hash)} → ReplicaSet ${r.computed.name}${r.computed.truncated ? ' (name cut to fit 253)' : ''}`,
    )
  else if (r.computeError) out.push(ROLE.warn(`Computed now: unavailable — ${r.computeError}`))
  if (r.replicaSets.length > 0) {
    const t = table(['ROLE', 'REPLICASET', 'REVISION', 'READY', 'LABEL', 'REPRODUCED BY'])
    const rows = [...r.replicaSets].sort((a, b) => (a.role === 'new' ? -1 : b.role === 'new' ? 1 : Number(b.revision ?? 0) - Number(a.revision ?? 0)))
    for (const x of rows) {
      t.push([
        x.role === 'new' ? ROLE.heading('new') : x.sameTemplate ? 'old (same template)' : 'old',
        x.name,
        x.revision ?? '-',
        `${x.replicas.ready ?? 0}/${x.replicas.desired ?? 0}`,
        x.label.label ?? '-',
        labelCell(x.label, r.version),
      ])
    }
    out.push(t.toString())
  }
  for (const m of r.missingReplicaSets ?? [])
    out.push(
      ROLE.muted(
        `not in the data: ReplicaSet ${m.name} (${m.pods} pods, label ${m.label ?? '-'}): ${m.current.result === 'matches' || m.current.result === 'otherLayout' ? 'the current template' : 'another revision'}`,
      ),
    )
  if (r.create?.attempts && r.create.attempts.length > 1) {
    out.push(`Next names: ${r.create.attempts.map((a) => `${a.name} (${describeCount(a.collisionCount)}${a.taken ? ', taken' : ''})`).join(' → ')}`)
  }
  return out
}

/** The release is not settled: every answer for a workload's revisions, never one release's as the answer. */
function revisionReleaseLines(b: RevisionByRelease, count: string): string[] {
  const out = [ROLE.warn(`Version not known: computed now for each release (${count}):`)]
  const t = table(['RELEASES', 'CONTROLLER-REVISION-HASH', 'CONTROLLERREVISION', 'OUTCOME'])
  for (const a of b.answers) t.push([versionRange(a.versions), ROLE.heading(a.hash), a.name, outcomeText(a)])
  out.push(t.toString())
  if (b.agreeing) out.push(`${b.agreeing.what}: controller-revision-hash ${b.agreeing.label}, which ${versionRange(b.agreeing.versions)} compute`)
  out.push(`Settle it with: ${b.settle.join('; or ')}`)
  return out
}

function daemonSetBody(r: DaemonSetHashReplay): string[] {
  const out: string[] = []
  if (r.byRelease) out.push(...revisionReleaseLines(r.byRelease, describeCount(r.collisionCount)))
  else if (r.computed)
    out.push(
      `Computed now (${r.version}, ${describeCount(r.collisionCount)}): controller-revision-hash ${ROLE.heading(r.computed.hash)} → ControllerRevision ${r.computed.name}`,
    )
  else if (r.computeError) out.push(ROLE.warn(`Computed now: unavailable — ${r.computeError}`))
  const t = table(['REVISION', 'CONTROLLERREVISION', 'MATCHES NOW', 'PODS', 'LABEL', 'REPRODUCED BY'])
  for (const x of [...r.revisions].reverse())
    t.push([
      String(x.revision),
      x.name,
      x.keeper ? ROLE.heading('current') : x.current ? 'yes (duplicate)' : '',
      String(x.pods),
      x.label.label ?? '-',
      labelCell(x.label, r.version),
    ])
  if (r.revisions.length > 0) out.push(t.toString())
  if (r.snapshot && !r.byRelease)
    out.push(`snapshot: ${r.snapshot.attempts.map((a) => `${a.name} (${describeCount(a.collisionCount)}${a.taken ? ', taken' : ''})`).join(' → ')}`)
  out.push(
    `Pods: ${r.pods.updated}/${r.pods.total} updated (${r.pods.updatedByHash} by hash, ${r.pods.updatedByGeneration} by template generation${r.templateGeneration ? ` ${r.templateGeneration}` : ''})${r.pods.terminating > 0 ? `, ${r.pods.terminating} terminating` : ''}`,
  )
  return out
}

function statefulSetBody(r: StatefulSetHashReplay): string[] {
  const out: string[] = []
  if (r.byRelease) out.push(...revisionReleaseLines(r.byRelease, `collisionCount ${r.collisionCount}`))
  else if (r.candidate)
    out.push(
      `Computed now (${r.version}, collisionCount ${r.collisionCount}): ${ROLE.heading(r.candidate.hash)} → ControllerRevision ${r.candidate.name}; decision: ${r.decision}${r.gate ? ` (${r.gate.name}: ${r.gate.enabled === null ? 'unknown' : r.gate.enabled ? 'on' : 'off'})` : ''}`,
    )
  else if (r.computeError) out.push(ROLE.warn(`Computed now: unavailable — ${r.computeError}`))
  const t = table(['REVISION', 'CONTROLLERREVISION', 'ROLE', 'PODS', 'NAME FROM DATA'])
  for (const x of [...r.revisions].reverse()) {
    t.push([
      String(x.revision),
      x.name,
      x.role === 'currentAndUpdate' ? 'current, update' : (x.role ?? ''),
      x.pods.join(' ') || '-',
      x.label.result === 'matches' ? ROLE.good(`yes (count ${x.label.collisionCount})`) : ROLE.warn(`no: ${x.label.reason}`),
    ])
  }
  if (r.revisions.length > 0) out.push(t.toString())
  if (r.create && !r.byRelease)
    out.push(`CreateControllerRevision: ${r.create.attempts.map((a) => `${a.name} (count ${a.collisionCount}${a.taken ? ', taken' : ''})`).join(' → ')}`)
  if (r.pods.onUnknownRevision.length > 0) out.push(ROLE.warn(`Pods on a revision that does not exist: ${r.pods.onUnknownRevision.join(', ')}`))
  return out
}

export function renderHashExplanation(e: Explanation, wide: boolean, width = terminalWidth(), src: SourceInForce = {}): string {
  const out = [verdictLine(e), ...wrap(e.summary, width, {indent: 2}), '']
  const body = e.deployment
    ? deploymentBody(e.deployment as DeploymentHashReplay)
    : e.daemonSet
      ? daemonSetBody(e.daemonSet as DaemonSetHashReplay)
      : e.statefulSet
        ? statefulSetBody(e.statefulSet as StatefulSetHashReplay)
        : []
  for (const b of body) out.push(indent(b))
  const steps = wide
    ? e.steps
    : e.steps.filter(
        (s) =>
          s.rule !== 'ComputeHash' &&
          s.rule !== 'HashControllerRevision' &&
          s.rule !== 'ListRevisions' &&
          s.rule !== 'ClaimReplicaSets' &&
          s.rule !== 'controlledHistories',
      )
  if (steps.length > 0) out.push('', indent(ROLE.heading('Why:')))
  for (const s of steps) out.push(...stepLines(s, wide, width))
  out.push(...partialLines(e, width))
  // The next steps in the one style of every view (next-steps.ts), the source in force added.
  const next = nextStepBlock(e.next, src, width)
  if (next.length > 0) out.push('', ...next)
  return `${out.join('\n')}\n`
}

/** One short phrase per workload for --all. */
export function brief(e: Explanation): string {
  const d = e.deployment as DeploymentHashReplay | undefined
  const ds = e.daemonSet as DaemonSetHashReplay | undefined
  const sts = e.statefulSet as StatefulSetHashReplay | undefined
  const firstBad = (rows: {name: string; label: LabelCheck}[]) => rows.find((x) => x.label.result === 'unreproducible')
  const firstDrift = (rows: {name: string; label: LabelCheck}[]) => rows.find((x) => x.label.result === 'otherLayout')
  const rows = d?.replicaSets ?? ds?.revisions ?? sts?.revisions ?? []
  switch (e.verdict) {
    case 'collision': {
      const a = d?.create?.attempts ?? ds?.snapshot?.attempts ?? sts?.create?.attempts ?? []
      const rb = ds?.byRelease ?? sts?.byRelease
      return `${a[0]?.name} taken → ${a[a.length - 1]?.name}${
        d?.byRelease
          ? ` (under ${d.byRelease.answers.filter((x) => x.create === 'collision').length} of ${d.byRelease.answers.length} answers by release)`
          : rb
            ? ` (under ${rb.answers.filter((x) => x.outcome === 'collision').length} of ${rb.answers.length} answers by release)`
            : ''
      }`
    }
    case 'rolloutPending':
      return d
        ? d.byRelease
          ? `creates ${e.subject.name}-<hash>: ${d.byRelease.answers.length} answers by release (version not known)`
          : `creates ${d.create?.creates ?? d.computed?.name ?? '?'}`
        : (ds?.byRelease ?? sts?.byRelease)
          ? `creates ${e.subject.name}-<hash>: ${(ds?.byRelease ?? sts?.byRelease)!.answers.length} answers by release (version not known)`
          : ds
            ? `creates ${ds.snapshot?.creates ?? '?'}`
            : sts?.decision === 'rollback'
              ? `rolls back to ${sts.rollbackTo}`
              : `creates ${sts?.create?.creates ?? '?'}${sts?.create?.spurious ? ' (spurious)' : ''}`
    case 'unreproducible': {
      const b = firstBad(rows)
      return b ? `${b.name}: ${b.label.reason}` : ''
    }
    case 'hashDrift': {
      const x = firstDrift(rows)
      return x ? `${x.name} by ${versionRange(x.label.reproducedBy![0].versions)}` : sts ? `${sts.updateRevision} reused (semantic)` : ''
    }
    default:
      return d?.newReplicaSet ?? ds?.currentRevision ?? sts?.updateRevision ?? ''
  }
}

export function renderHashReport(r: HashReport, wide: boolean, width = terminalWidth(), src: SourceInForce = {}): string {
  const out: string[] = []
  const scope = 'allNamespaces' in r.scope ? 'all namespaces' : `namespace ${r.scope.namespace}`
  out.push(
    ...wrap(
      `Workload revisions in ${scope}: ${r.workloads.Deployment} Deployments, ${r.workloads.DaemonSet} DaemonSets, ${r.workloads.StatefulSet} StatefulSets (${
        r.releases
          ? `version not known, ${r.releases.why}: label checks use layout ${r.source.k8sVersion}; hashes are given for each release ${versionRange(r.releases.versions)}`
          : r.source.k8sVersion
            ? `layout ${r.source.k8sVersion}`
            : 'no layout'
      })`,
      width,
      {hanging: 2},
    ).map(ROLE.heading),
  )
  if (r.results.length > 0) {
    const t = table(['VERDICT', 'SEVERITY', 'KIND', 'NAMESPACE/NAME', 'DETAIL'])
    for (const e of r.results) t.push([SEVERITY[e.severity](e.verdict), e.severity, e.subject.kind, `${e.subject.namespace ?? ''}/${e.subject.name}`, brief(e)])
    out.push(t.toString())
    if (wide) for (const e of r.results.filter((x) => x.severity !== 'none')) out.push(...wrap(`${subjectLine(e)}: ${e.summary}`, width, {hanging: 2}))
    // Each workload's next steps under its name, in the one style (next-steps.ts), as replicas --all prints them.
    for (const e of r.results.filter((x) => (x.next ?? []).length > 0)) out.push('', ROLE.heading(subjectLine(e)), ...nextStepLines(e.next, src, width, 2))
  }
  const l = r.labels
  out.push(
    ...wrap(
      `Labels checked: ${l.checked} — ${l.matches} reproduced by the cluster's layout, ${l.otherLayout} by another layout, ${l.unreproducible} by none${l.noLabel ? `, ${l.noLabel} without a label` : ''}.`,
      width,
      {hanging: 2},
    ),
  )
  if (r.unowned && r.unowned.length > 0) {
    out.push(...wrap(`Objects whose controller is not in the data (${r.unowned.length}): labels checked only`, width, {hanging: 2}).map(ROLE.heading))
    const t = table(['KIND', 'NAMESPACE/NAME', 'OWNER', 'LABEL', 'REPRODUCED BY'])
    const shown = wide ? r.unowned : r.unowned.filter((u) => u.label.result !== 'matches').slice(0, 50)
    for (const u of shown)
      t.push([u.kind, `${u.namespace ?? ''}/${u.name}`, u.owner ?? '(none)', u.label.label ?? '-', labelCell(u.label, r.source.k8sVersion)])
    if (shown.length > 0) out.push(t.toString())
    const hidden = r.unowned.length - shown.length
    if (hidden > 0)
      out.push(
        ...wrap(`… ${hidden} more (${wide ? '' : '-o wide shows them all; '}those reproduced by the cluster's layout are not listed)`, width, {hanging: 2}).map(
          ROLE.muted,
        ),
      )
  }
  for (const s of r.skipped ?? []) out.push(...wrap(`skipped ${s.kind} ${s.namespace ?? ''}/${s.name}: ${s.reason}`, width, {hanging: 2}).map(ROLE.warn))
  out.push(...partialLines(r, width, 0))
  return `${out.join('\n')}\n`
}
