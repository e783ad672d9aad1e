// A pod's status and deletion state, from its timeline: scheduled → started → ready, then whatever its
// node went through (kubelet stopped: Ready=False; unreachable:NoExecute past the toleration: deleted by
// the taint-eviction controller and stuck Terminating, since no kubelet confirms) or its owner did
// (foreground deletion held by a finalizer).
import type {Rng} from './prng.js'
import {randomHex} from './prng.js'
import type {NodeHealth} from './plan-nodes.js'
import {isoSeconds} from './time.js'

export interface PodTimelineInput {
  rng: Rng
  nowMs: number
  createdMs: number
  containerName: string
  image: string
  imageId: string
  qosClass: string
  hostIP: string
  podIP: string
  node: NodeHealth
  /** Seconds the pod tolerates node.kubernetes.io/unreachable:NoExecute; undefined = forever (DaemonSet pods). */
  unreachableTolerationSeconds?: number
  /** The owner was deleted in foreground at this instant and a finalizer holds the pod. */
  heldByFinalizerSinceMs?: number
  /** Never restarted (static pods, fresh rollouts). */
  noRestarts?: boolean
}

export interface PodState {
  status: Record<string, unknown>
  deletionMs?: number
  deletionGracePeriodSeconds?: number
}

function containerId(r: Rng): string {
  return `containerd://${randomHex(r, 64)}`
}

function cond(type: string, status: string, atMs: number, reason?: string, message?: string): Record<string, unknown> {
  const c: Record<string, unknown> = {type, status, lastProbeTime: null, lastTransitionTime: isoSeconds(atMs)}
  if (reason !== undefined) c.reason = reason
  if (message !== undefined) c.message = message
  return c
}

export function podState(p: PodTimelineInput): PodState {
  const r = p.rng
  const now = p.nowMs
  const scheduled = p.createdMs
  const started = Math.min(now, scheduled + 1000)
  const running = Math.min(now, started + r.int(1, 20) * 1000)
  let readyAt = Math.min(now, running + r.int(1, 15) * 1000)
  let restartCount = 0
  let lastState: Record<string, unknown> = {}
  let runningSince = running
  if (!p.noRestarts && r.chance(0.08) && p.nowMs - readyAt > 600_000) {
    // Restarted a few times (OOM or a crash); the last termination is kept in lastState.
    restartCount = r.int(1, 5)
    const finished = readyAt + Math.floor(r.float() * (p.nowMs - readyAt - 300_000))
    const oom = r.chance(0.5)
    lastState = {
      terminated: {
        exitCode: oom ? 137 : 1,
        reason: oom ? 'OOMKilled' : 'Error',
        startedAt: isoSeconds(Math.max(running, finished - r.int(60, 3600) * 1000)),
        finishedAt: isoSeconds(finished),
        containerID: containerId(r),
      },
    }
    runningSince = finished + r.int(10, 40) * 1000
    readyAt = runningSince + r.int(1, 15) * 1000
  }
  const conditions = [
    cond('PodReadyToStartContainers', 'True', running),
    cond('Initialized', 'True', started),
    cond('Ready', 'True', readyAt),
    cond('ContainersReady', 'True', readyAt),
    cond('PodScheduled', 'True', scheduled),
  ]
  const containerStatus: Record<string, unknown> = {
    name: p.containerName,
    state: {running: {startedAt: isoSeconds(runningSince)}},
    lastState,
    ready: true,
    restartCount,
    image: p.image,
    imageID: p.imageId,
    containerID: containerId(r),
    started: true,
  }
  let phase = 'Running'
  const state: PodState = {status: {}}

  const h = p.node
  if (h.unknownSinceMs !== undefined && h.unknownSinceMs > p.createdMs) {
    // MarkPodsNotReady: only the Ready condition flips; the kubelet is not there to report the containers.
    conditions[2] = cond('Ready', 'False', Math.min(now, h.unknownSinceMs + r.int(0, 2000)))
    if (h.noExecuteTaintMs !== undefined && p.unreachableTolerationSeconds !== undefined) {
      const evictMs = h.noExecuteTaintMs + p.unreachableTolerationSeconds * 1000
      if (evictMs <= p.nowMs) {
        conditions.push(cond('DisruptionTarget', 'True', evictMs, 'DeletionByTaintManager', 'Taint manager: deleting due to NoExecute taint'))
        // Graceful deletion: deletionTimestamp = now + grace; nobody on the node completes it.
        state.deletionMs = evictMs + 30_000
        state.deletionGracePeriodSeconds = 30
      }
    }
  }
  if (p.heldByFinalizerSinceMs !== undefined) {
    // The kubelet stopped the container on SIGTERM (exit 143) and asked for the final delete; the finalizer keeps the object.
    const ended = Math.min(now, p.heldByFinalizerSinceMs + r.int(2, 30) * 1000)
    phase = 'Failed'
    conditions[0] = cond('PodReadyToStartContainers', 'False', ended)
    conditions[2] = cond('Ready', 'False', ended, 'PodCompleted')
    conditions[3] = cond('ContainersReady', 'False', ended, 'PodCompleted')
    containerStatus.state = {
      terminated: {
        exitCode: 143,
        reason: 'Error',
        startedAt: isoSeconds(runningSince),
        finishedAt: isoSeconds(ended),
        containerID: containerStatus.containerID,
      },
    }
    containerStatus.ready = false
    containerStatus.started = false
    state.deletionMs = ended
    state.deletionGracePeriodSeconds = 0
  }
  state.status = {
    phase,
    conditions,
    hostIP: p.hostIP,
    hostIPs: [{ip: p.hostIP}],
    podIP: p.podIP,
    podIPs: [{ip: p.podIP}],
    startTime: isoSeconds(started),
    containerStatuses: [containerStatus],
    qosClass: p.qosClass,
  }
  return state
}
