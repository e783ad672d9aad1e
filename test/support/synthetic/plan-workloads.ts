// The workloads' plan: for each Deployment, DaemonSet and StatefulSet its name, namespace, uid, template
// profile, rollout history (ReplicaSets / ControllerRevisions) and replica count. Small — proportional to
// the number of workloads and revisions, not pods — so it is built up front; pods are generated from it.
import {randomHex, randomTemplateHash} from './prng.js'
import {rng, Stream, uidOf} from './identity.js'
import {containerName, daemonSetName, deploymentName, namespaceName, statefulSetName} from './names.js'
import {CLUSTER_AGE_MS} from './plan-nodes.js'
import type {ResolvedOptions} from './options.js'
import {makeAppProfile, type AppProfile, type TemplateRevision} from './templates.js'
import {DAY, HOUR, isoSeconds, MINUTE} from './time.js'

/** One rollout: a ReplicaSet of a Deployment, or a ControllerRevision of a DaemonSet/StatefulSet. */
export interface RevisionPlan extends TemplateRevision {
  /** Global index among all ReplicaSets (or all ControllerRevisions): keys its uid and random draws. */
  globalIndex: number
  name: string
  /** pod-template-hash / controller-revision-hash: plausible shape, NOT the real FNV hash (see prng.ts). */
  hash: string
  uid: string
  revision: number
  createdMs: number
  /** The image's digest, as containerStatuses[].imageID reports it. */
  imageDigest: string
}

export interface WorkloadPlan {
  index: number
  name: string
  namespace: string
  uid: string
  createdMs: number
  profile: AppProfile
  /** Oldest first; the last one is current. */
  revisions: RevisionPlan[]
  generation: number
  /** Global index of this workload's first pod (pods are numbered across all owners). */
  firstPod: number
  replicas: number
}

export interface DeploymentPlan extends WorkloadPlan {
  collisionCount?: number
  /** Set for a Deployment stuck in foreground deletion: when the delete was issued. */
  deletionMs?: number
}

export type DaemonSetPlan = WorkloadPlan

export interface StatefulSetPlan extends WorkloadPlan {
  serviceName: string
}

function revisions(
  o: ResolvedOptions,
  owner: string,
  count: number,
  createdMs: number,
  firstGlobal: number,
  recent: boolean,
  stream: number,
  major: number,
): RevisionPlan[] {
  const out: RevisionPlan[] = []
  const age = o.nowMs - createdMs
  let restartedAt: string | undefined
  let minor = 0
  for (let j = 0; j < count; j++) {
    const g = firstGlobal + j
    const r = rng(o.seed, stream, g)
    // Spread over the owner's life, strictly increasing; the current one is either recent (a rollout in
    // the last hour, which is what events talk about) or older than an hour.
    let at = createdMs + Math.floor((age * (j + (j === 0 ? 0 : r.float() * 0.9))) / count)
    if (j === count - 1 && recent && count > 1) at = Math.max(at, o.nowMs - r.int(5, 55) * MINUTE)
    else if (j === count - 1 && count > 1) at = Math.min(at, o.nowMs - HOUR - r.int(0, 3600) * 1000)
    at = Math.max(at, out.length > 0 ? out[out.length - 1].createdMs + 1000 : createdMs)
    // A rollout is a new image, or a `kubectl rollout restart` that only changes an annotation.
    if (j > 0 && r.chance(0.2)) restartedAt = isoSeconds(at)
    else if (j > 0) minor++
    const hash = randomTemplateHash(r)
    out.push({
      globalIndex: g,
      name: `${owner}-${hash}`,
      hash,
      uid: uidOf(o.seed, stream, g),
      revision: j + 1,
      createdMs: at,
      imageTag: `${major}.${minor}.${r.int(0, 9)}`,
      restartedAt,
      imageDigest: randomHex(r, 64),
    })
  }
  return out
}

/** Splits `total` replicas over `n` workloads unevenly (log-normal weights), summing exactly to total. */
function splitReplicas(o: ResolvedOptions, n: number, total: number): number[] {
  if (o.podsPerReplicaSet !== undefined) return Array.from({length: n}, () => o.podsPerReplicaSet as number)
  const r = rng(o.seed, Stream.Plan, 2)
  const weights = Array.from({length: n}, () => Math.exp(r.normal() * 0.9))
  const sum = weights.reduce((a, b) => a + b, 0)
  const shares = weights.map((w) => (total * w) / sum)
  const out = shares.map(Math.floor)
  let left = total - out.reduce((a, b) => a + b, 0)
  // Largest remainder; ties broken by index, so the split is deterministic.
  const order = shares.map((s, i) => [s - Math.floor(s), i]).sort((a, b) => b[0] - a[0] || a[1] - b[1])
  for (let k = 0; left > 0; k++, left--) out[order[k % n][1]]++
  return out
}

export function planDeployments(o: ResolvedOptions): DeploymentPlan[] {
  const replicas = splitReplicas(o, o.deployments, o.deploymentPods)
  const stuck = new Set<number>()
  for (let i = 0; i < o.stuckForeground; i++) stuck.add(Math.floor((i * o.deployments) / o.stuckForeground))
  const plans: DeploymentPlan[] = []
  let firstPod = 0
  for (let d = 0; d < o.deployments; d++) {
    const r = rng(o.seed, Stream.Deployment, d)
    const name = deploymentName(d, o.seed)
    const namespace = namespaceName(r.int(0, o.namespaces - 1))
    const createdMs = o.nowMs - Math.min(CLUSTER_AGE_MS - DAY, r.int(2 * 24 * 60, 365 * 24 * 60) * MINUTE) - r.int(0, 59) * 1000
    const profile = makeAppProfile(r, name, containerName(name), `registry.example.com/${namespace}/${name}`)
    const revs = revisions(o, name, o.replicaSetsPerDeployment, createdMs, d * o.replicaSetsPerDeployment, r.chance(0.05), Stream.ReplicaSet, r.int(1, 4))
    const draw = r.float()
    plans.push({
      index: d,
      name,
      namespace,
      createdMs,
      profile,
      firstPod,
      uid: uidOf(o.seed, Stream.Deployment, d),
      revisions: revs,
      // Every rollout and every scale bumps metadata.generation.
      generation: revs.length + r.int(0, 4),
      replicas: replicas[d],
      // status.collisionCount is set only after a hash collision: rare, and almost always 1.
      collisionCount: draw < 0.005 ? 2 : draw < 0.03 ? 1 : undefined,
      deletionMs: stuck.has(d) ? o.nowMs - r.int(10, 360) * MINUTE : undefined,
    })
    firstPod += replicas[d]
  }
  return plans
}

const HOST_PATHS = [
  {name: 'lib-modules', path: '/lib/modules', type: ''},
  {name: 'xtables-lock', path: '/run/xtables.lock', type: 'FileOrCreate'},
  {name: 'varlog', path: '/var/log', type: ''},
]

export function planDaemonSets(o: ResolvedOptions, firstPod: number): DaemonSetPlan[] {
  const plans: DaemonSetPlan[] = []
  for (let s = 0; s < o.daemonSets; s++) {
    const r = rng(o.seed, Stream.DaemonSet, s)
    const name = daemonSetName(s)
    const createdMs = o.nowMs - CLUSTER_AGE_MS + r.int(60, 3600) * 1000
    const profile: AppProfile = {
      ...makeAppProfile(r, name, name, `registry.example.com/platform/${name}`),
      configVolume: false,
      nonRoot: false,
      liveness: 'none',
      readiness: false,
      system: {hostPaths: HOST_PATHS.slice(0, r.int(1, HOST_PATHS.length))},
    }
    const revs = revisions(o, name, o.revisionsPerWorkload, createdMs, s * o.revisionsPerWorkload, false, Stream.ControllerRevision, r.int(1, 3))
    plans.push({
      index: s,
      name,
      namespace: 'kube-system',
      uid: uidOf(o.seed, Stream.DaemonSet, s),
      createdMs,
      profile,
      revisions: revs,
      generation: revs.length,
      firstPod: firstPod + s * o.nodes,
      replicas: o.nodes,
    })
  }
  return plans
}

export function planStatefulSets(o: ResolvedOptions, firstPod: number): StatefulSetPlan[] {
  const plans: StatefulSetPlan[] = []
  const crBase = o.daemonSets * o.revisionsPerWorkload
  for (let s = 0; s < o.statefulSets; s++) {
    const r = rng(o.seed, Stream.StatefulSet, s)
    const name = statefulSetName(s)
    const namespace = namespaceName(r.int(0, o.namespaces - 1))
    const createdMs = o.nowMs - r.int(7 * 24 * 60, 300 * 24 * 60) * MINUTE
    const profile = makeAppProfile(r, name, name, `registry.example.com/${namespace}/${name}`)
    const revs = revisions(o, name, o.revisionsPerWorkload, createdMs, crBase + s * o.revisionsPerWorkload, false, Stream.ControllerRevision, r.int(1, 16))
    plans.push({
      index: s,
      name,
      namespace,
      uid: uidOf(o.seed, Stream.StatefulSet, s),
      createdMs,
      profile,
      revisions: revs,
      generation: revs.length,
      firstPod: firstPod + s * o.replicasPerStatefulSet,
      replicas: o.replicasPerStatefulSet,
      serviceName: name,
    })
  }
  return plans
}
