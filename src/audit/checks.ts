// The audit's checks: one per replay engine, each a small adapter in checks/. Names are the --checks values
// and the report's; the engine each one drives is its `controller` (the Explanation's field of that name).
import {UserError} from '../errors.js'

export type CheckName = 'hash' | 'gc' | 'node' | 'evicted' | 'replicas'

/** Display and report order (the order of the issue's --checks list). */
export const CHECK_NAMES: readonly CheckName[] = ['hash', 'gc', 'node', 'evicted', 'replicas']

export const CONTROLLER_OF: Record<CheckName, string> = {
  hash: 'deployment',
  gc: 'garbagecollector',
  node: 'nodelifecycle',
  evicted: 'tainteviction',
  replicas: 'replicaset',
}

export const DESCRIPTION: Record<CheckName, string> = {
  hash: 'workloads whose pod-template-hash / controller-revision-hash is off',
  gc: 'objects the garbage collector would delete, patch or finish, or is stuck on',
  node: 'nodes that are, or will be, tainted NoExecute (or are kept from it)',
  evicted: 'pods with a taint-eviction deadline, evicted, or kept from eviction',
  replicas: 'ReplicaSets that are not converging, and why',
}

/** Checks whose engine has not landed yet, with why: they are left out of the default set and refused by --checks. */
export const UNAVAILABLE: Partial<Record<CheckName, string>> = {}

export const DEFAULT_CHECKS: readonly CheckName[] = CHECK_NAMES.filter((c) => UNAVAILABLE[c] === undefined)

/** --checks a,b,c → the checks in report order; unknown or unavailable names are usage errors. */
export function parseChecks(text: string | undefined): CheckName[] {
  if (text === undefined) return [...DEFAULT_CHECKS]
  const asked = text.split(',').map((s) => s.trim()).filter(Boolean)
  if (asked.length === 0) throw new UserError('--checks names no check', `give some of ${CHECK_NAMES.join(',')}`)
  for (const a of asked) {
    if (!(CHECK_NAMES as readonly string[]).includes(a)) throw new UserError(`--checks: unknown check "${a}"`, `the checks are ${CHECK_NAMES.join(', ')}`)
    const why = UNAVAILABLE[a as CheckName]
    if (why) throw new UserError(`--checks: the ${a} check is not available yet: ${why}`, `run ${DEFAULT_CHECKS.join(',')}`)
  }
  return CHECK_NAMES.filter((c) => asked.includes(c))
}
