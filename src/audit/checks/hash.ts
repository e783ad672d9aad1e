// The hash check: every Deployment, DaemonSet and StatefulSet in scope replayed as `kubectl why hash --all` does, by
// its own code (src/engine/workloads/drive.ts hashReport), over the audit's gathered lists through a source
// façade (gathered-source.ts): the workloads, their ReplicaSets and ControllerRevisions in full, pods as metadata, the
// Nodes (their kubelets bound the version of a dump that records none). Findings are the workloads whose hashes or
// revisions are off; ReplicaSets and revisions whose owner is gone are counted in the notes (`kubectl why hash --all`
// lists them: they are rows, not explanations).
import {versionRange} from '../../engine/history/label-check.js'
import {hashContext, hashReport} from '../../engine/workloads/drive.js'
import type {Problem} from '../../explanation.js'
import {type Check, type CheckContext, type CheckResult, notRun} from '../context.js'
import {GatheredSource} from '../gathered-source.js'

const WORKLOADS = ['Deployment', 'DaemonSet', 'StatefulSet'] as const

export function hashCheckWith(real: ConstructorParameters<typeof GatheredSource>[1]): Check {
  return {
    name: 'hash',
    async run(ctx: CheckContext): Promise<CheckResult> {
      const failed = WORKLOADS.filter((k) => !ctx.gathered.read(ctx.gathered.plan.needs.find((n) => n.check === 'hash' && n.key === k)!).ok)
      const source = new GatheredSource(ctx, real)
      const override = ctx.version?.from === 'flag' ? {major: ctx.version.major, minor: ctx.version.minor} : undefined
      const report = await hashReport(await hashContext(source, override), ctx.namespace, ctx.progress)
      // The report's own problems (lists that failed, seen through the façade) follow the source's.
      const baseProblems = ctx.base.partial?.length ?? 0
      const problems: Problem[] = [...(report.source.partial ?? []).slice(baseProblems)]
      for (const s of report.skipped ?? [])
        problems.push({what: `${s.kind} ${s.namespace ? `${s.namespace}/` : ''}${s.name}`, reason: `not replayed: ${s.reason}`})
      if (failed.length === WORKLOADS.length) return notRun('hash', problems, 'no workload kind could be listed')
      const unowned = report.unowned ?? []
      const notes = [
        // Said first: every hash below rests on it.
        ...(report.releases
          ? [
              `the Kubernetes version is not known (${report.releases.why}): label checks compare with layout ${report.source.k8sVersion}, and a workload's hash is given for each release ${versionRange(report.releases.versions)} where they differ; --k8s-version settles it`,
            ]
          : []),
        `labels checked: ${report.labels.checked} (${report.labels.matches} reproduced by this version's layout, ${report.labels.otherLayout} by another, ${report.labels.unreproducible} by none, ${report.labels.noLabel} without one)`,
      ]
      const worse = unowned.filter((u) => u.severity !== 'none')
      if (unowned.length > 0)
        notes.push(
          `${unowned.length} ReplicaSet(s)/revision(s) without their owner in the data, ${worse.length} with a label to look at: \`kubectl why hash --all\` lists them`,
        )
      const w = report.workloads
      return {
        check: 'hash',
        status: problems.length > 0 ? 'partial' : 'complete',
        evaluated: w.Deployment + w.DaemonSet + w.StatefulSet,
        verdicts: report.counts,
        findings: report.results.filter((e) => e.severity !== 'none'),
        problems,
        notes,
        // Every workload replayed, with its verdict: -o junit's passing cases say upToDate rather than "no finding".
        subjects: report.results.map((e) => ({subject: e.subject, verdict: e.verdict, severity: e.severity})),
      }
    },
  }
}
