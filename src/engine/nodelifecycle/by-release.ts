// When the data does not settle the control plane's release (ResolvedSettings.candidates), the node lifecycle replay is
// run once per distinct set of settings the releases it leaves possible give (node-monitor-grace-period 40s before
// 1.32 and 50s from, the Ready condition handed to the taint step from 1.34, the lease circuit breaker from 1.37, ...),
// and every node whose answer differs gets the answer of each, with its releases. Pure: the runs are the caller's.
import {NODE_SEVERITY} from './descriptor.js'
import type {ClusterAnalysis, NodeAnalysis} from './analyze.js'
import type {ReleaseSettings} from './settings.js'
import {isoMicros} from './time.js'
import type {NodeLifecycleSettings} from './types.js'
import type {Severity} from '../../explanation.js'

export interface NodeReleaseAnswer {
  /** The releases (oldest first) that give this answer. */
  versions: string[]
  /** The settings that differ between the releases' groups, as the settings block names them. */
  settings: Record<string, unknown>
  verdict: string
  severity: Severity
  /** When the grace period expires (or expired) under these releases. */
  graceExpiresAt: string
  /** The NoExecute taint these releases' controller wants, and where it stands. */
  noExecute: {expected: string | null; status: string}
}

export interface NodeByRelease {
  /** Every release the data leaves possible. */
  candidates: string[]
  why: string
  /** What would settle it. */
  settle: string[]
  /** Each group of releases whose settings agree, with what differs. */
  groups: {versions: string[]; settings: Record<string, unknown>}[]
  /** Per node whose answer depends on the release: the answer of each release set (at least two). */
  nodes: Record<string, NodeReleaseAnswer[]>
  /** The cluster's verdict under each release set, when it depends on the release. */
  cluster?: {versions: string[]; verdict: string}[]
}

export const SETTLE_RELEASE = [
  "--k8s-version X.Y with the cluster's version (`kubectl version` prints it as Server Version)",
  'a snapshot taken with `kubectl why snapshot` (it records the server version), or the Nodes in the dump (their kubelet version bounds it)',
]

function answerOf(n: NodeAnalysis): Omit<NodeReleaseAnswer, 'versions' | 'settings'> {
  const t = n.noExecute.expected
  return {
    verdict: n.verdict,
    severity: NODE_SEVERITY[n.verdict as keyof typeof NODE_SEVERITY] ?? 'none',
    graceExpiresAt: isoMicros(n.graceExpiryMicros),
    noExecute: {expected: t ? `${t.key}:${t.effect}` : null, status: n.noExecute.status},
  }
}

/**
 * The answers by release: `run` replays the cluster under one group's settings (the caller's analyzeCluster with
 * everything else the same); `main` is the replay already made under `mainSettings`, reused for its group.
 */
export function nodeAnswersByRelease(
  candidates: ReleaseSettings,
  mainSettings: NodeLifecycleSettings,
  main: ClusterAnalysis,
  run: (s: NodeLifecycleSettings) => ClusterAnalysis,
): NodeByRelease {
  const mainKey = JSON.stringify(mainSettings)
  const runs = candidates.groups.map((g) => ({g, a: JSON.stringify(g.settings) === mainKey ? main : run(g.settings)}))
  const nodes: NodeByRelease['nodes'] = {}
  for (const n of main.nodes) {
    const answers: NodeReleaseAnswer[] = []
    for (const {g, a} of runs) {
      const x = a.nodes.find((m) => m.name === n.name)
      if (!x) continue
      const ans = answerOf(x)
      const same = answers.find(
        (y) => JSON.stringify([y.verdict, y.graceExpiresAt, y.noExecute]) === JSON.stringify([ans.verdict, ans.graceExpiresAt, ans.noExecute]),
      )
      if (same) {
        same.versions.push(...g.versions)
        // Settings that differ inside one answer did not matter to it: keep only those every release of it shares.
        for (const k of Object.keys(same.settings)) if (JSON.stringify(same.settings[k]) !== JSON.stringify(g.differs[k])) delete same.settings[k]
      } else answers.push({versions: [...g.versions], settings: {...g.differs}, ...ans})
    }
    if (answers.length > 1) nodes[n.name] = answers
  }
  const verdicts: {versions: string[]; verdict: string}[] = []
  for (const {g, a} of runs) {
    const v = verdicts.find((x) => x.verdict === a.verdict)
    if (v) v.versions.push(...g.versions)
    else verdicts.push({versions: [...g.versions], verdict: a.verdict})
  }
  return {
    candidates: candidates.versions,
    why: candidates.why,
    settle: SETTLE_RELEASE,
    groups: candidates.groups.map((g) => ({versions: g.versions, settings: g.differs})),
    nodes,
    ...(verdicts.length > 1 ? {cluster: verdicts} : {}),
  }
}

const ORDER: Severity[] = ['none', 'info', 'warning', 'critical']

/**
 * A node's severity when its answer depends on the release: a finding only under every candidate (the least severe
 * of them); when one candidate finds nothing, information naming them.
 */
export function severityByRelease(answers: readonly NodeReleaseAnswer[]): Severity {
  // The same severity under every candidate (the grace expires at two instants, a healthy node either way): it stands.
  if (answers.every((a) => a.severity === answers[0].severity)) return answers[0].severity
  const least = answers.map((a) => a.severity).reduce((x, y) => (ORDER.indexOf(y) < ORDER.indexOf(x) ? y : x))
  return least === 'none' ? 'info' : least
}
