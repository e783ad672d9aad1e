// The audit's checks: one per replay, from the one list of replays (src/engine/replays.ts), each with its adapter over
// the audit's gathered lists (checks/index.ts). Everything that enumerates checks derives from it: the audit's run
// order and report order, --checks/--skip-checks, `audit --help`, the JUnit suites and class names, the controller →
// check map of the views, each check's reads (needs.ts, from its descriptor's reads), deploy/clusterrole.yaml
// (rbac.ts), and the tests' lists; the schema's enums (schemas/audit-report.json CheckName, Finding.controller,
// VerdictSeverities) are written from it (generate.ts) and tested against it (test/audit/registry.test.ts).
import {DESCRIPTORS, type ReplayName} from '../engine/replays.js'
import type {ReplayDescriptor} from '../replay.js'
import {ADAPTERS} from './checks/index.js'
import type {Check, CheckEnvironment} from './context.js'

export type {ReplayScope as CheckScope, VerdictSeverity} from '../replay.js'

export interface CheckEntry extends ReplayDescriptor {
  /** The adapter over the audit's gathered lists. */
  adapter: (env: CheckEnvironment) => Check
}

export type CheckName = ReplayName

export const REGISTRY = Object.fromEntries(DESCRIPTORS.map((d) => [d.name, {...d, adapter: ADAPTERS[d.name as CheckName]}])) as Record<CheckName, CheckEntry>

export const ENTRIES: readonly CheckEntry[] = Object.values(REGISTRY)

export function entryOf(name: CheckName): CheckEntry {
  return REGISTRY[name]
}

/** The check whose engine wrote an Explanation (by its `controller`). */
export function checkOfController(controller: string): CheckName | undefined {
  return ENTRIES.find((e) => e.controllers.includes(controller))?.name as CheckName | undefined
}
