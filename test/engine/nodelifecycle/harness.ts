// Shared by the node lifecycle tests: loads the upstream cases (copied into fixtures) and drives the controller
// the way upstream's test harness does: each pass syncs the informers from the fake API (status updates,
// leases), runs monitorNodeHealth, and optionally doNoExecuteTaintingPass.
import {readFileSync} from 'node:fs'
import {parse} from 'yaml'
import {
  type ClusterView,
  type ControllerState,
  doNoExecuteTaintingPass,
  monitorNodeHealth,
  newControllerState,
  type PassResult,
} from '../../../src/engine/nodelifecycle/controller.js'
import {NEWEST_DEFAULTS, type LeaseLike, type NodeLifecycleSettings, type NodeLike} from '../../../src/engine/nodelifecycle/types.js'

export interface UpstreamCase {
  id: string
  source: string
  input: Record<string, unknown> & {nodes?: CaseNode[]; passes?: CasePass[]; steps?: CaseStep[]; pods?: unknown[]}
  expected: Record<string, unknown>
  [k: string]: unknown
}
export interface CaseNode {
  name: string
  creationTimestamp: string
  labels?: Record<string, string>
  status: {conditions?: unknown[]}
}
export interface CasePass {
  now: string
  statusUpdates?: Record<string, {conditions?: unknown[]}> | null
  leases?: {name: string; renewTime: string; holderIdentity?: string}[]
}
export interface CaseStep {
  step: number
  statusUpdates?: Record<string, {conditions?: unknown[]}>
}

export function loadCases(): UpstreamCase[] {
  return parse(readFileSync(new URL('../../fixtures/nodelifecycle/upstream-cases.yaml', import.meta.url), 'utf8')) as UpstreamCase[]
}

export function caseById(id: string): UpstreamCase {
  const c = loadCases().find((x) => x.id === id)
  if (!c) throw new Error(`no upstream case ${id} in fixtures`)
  return c
}

/** node_lifecycle_controller_test.go@f8bf6b97:55-60: the upstream harness constants (not production defaults). */
export const TEST_SETTINGS: NodeLifecycleSettings = {
  ...NEWEST_DEFAULTS,
  nodeMonitorGracePeriod: 50_000,
  nodeStartupGracePeriod: 60_000,
  nodeMonitorPeriod: 5_000,
  nodeEvictionRate: 100000,
  secondaryNodeEvictionRate: 100000,
  largeClusterSizeThreshold: 20,
  unhealthyZoneThreshold: 0.55,
}

export function toNode(n: CaseNode): NodeLike {
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {name: n.name, uid: `uid-${n.name}`, creationTimestamp: n.creationTimestamp, labels: n.labels},
    spec: {},
    status: structuredClone(n.status) as NodeLike['status'],
  }
}

export function toLease(l: {name: string; renewTime: string; holderIdentity?: string}, rv = '1'): LeaseLike {
  return {metadata: {name: l.name, namespace: 'kube-node-lease', resourceVersion: rv}, spec: {holderIdentity: l.holderIdentity, renewTime: l.renewTime}}
}

/** A cluster view with no live lease on the API (upstream's fake clientset holds none: the live GET is NotFound). */
export function viewOf(nodes: NodeLike[], leases: LeaseLike[] = []): ClusterView {
  return {nodes, leases: new Map(leases.map((l) => [l.metadata?.name ?? '', l])), liveLease: () => ({kind: 'notFound'}), leaseInformerSyncRV: '1'}
}

export function runPasses(
  c: UpstreamCase,
  settings = TEST_SETTINGS,
): {state: ControllerState; nodes: NodeLike[]; results: PassResult[]; zoneStatesAfter: Record<string, string>[]} {
  const nodes = (c.input.nodes ?? []).map(toNode)
  const state = newControllerState()
  const results: PassResult[] = []
  const zoneStatesAfter: Record<string, string>[] = []
  for (const pass of c.input.passes ?? []) {
    for (const [name, status] of Object.entries(pass.statusUpdates ?? {})) {
      const node = nodes.find((n) => n.metadata?.name === name)
      if (node) node.status = structuredClone(status) as NodeLike['status']
    }
    const view = viewOf(
      nodes,
      (pass.leases ?? []).map((l) => toLease(l)),
    )
    results.push(monitorNodeHealth(state, view, Date.parse(pass.now), settings))
    zoneStatesAfter.push(zoneStatesObject(state))
  }
  return {state, nodes, results, zoneStatesAfter}
}

export function zoneStatesObject(state: ControllerState): Record<string, string> {
  return Object.fromEntries(state.zoneStates)
}

export {doNoExecuteTaintingPass, monitorNodeHealth, newControllerState}
