// The audit's checks by name, derived from the registry (registry.ts): the --checks and --skip-checks values, the
// report's order, each check's controller and description.
import {UserError} from '../errors.js'
import {suggestionsFor} from '../util/suggestions.js'
import {type CheckName, ENTRIES, REGISTRY} from './registry.js'

export type {CheckName}

/** Display and report order: the registry's. */
export const CHECK_NAMES: readonly CheckName[] = ENTRIES.map((e) => e.name as CheckName)

export const CONTROLLER_OF = Object.fromEntries(ENTRIES.map((e) => [e.name, e.controllers[0]])) as Record<CheckName, string>

export const DESCRIPTION = Object.fromEntries(ENTRIES.map((e) => [e.name, e.description])) as Record<CheckName, string>

/** Checks whose engine has not landed yet, with why: they are left out of the default set and refused by --checks. */
export const UNAVAILABLE: Partial<Record<CheckName, string>> = Object.fromEntries(
  ENTRIES.flatMap((e) => ('unavailable' in e && e.unavailable ? [[e.name, e.unavailable]] : [])),
)

export const DEFAULT_CHECKS: readonly CheckName[] = CHECK_NAMES.filter((c) => UNAVAILABLE[c] === undefined)

/** The hint for an unknown check name: cobra's suggestions (within 2 edits, or a prefix; ../util/suggestions.ts), then the list. */
export function checkHint(typed: string): string {
  const near = suggestionsFor(typed, CHECK_NAMES)
  return `${near.length > 0 ? `did you mean ${near.map((n) => `"${n}"`).join(' or ')}? ` : ''}the checks are ${CHECK_NAMES.join(', ')}`
}

function names(flag: string, text: string): CheckName[] {
  const asked = text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
  if (asked.length === 0) throw new UserError(`${flag} names no check`, `give some of ${CHECK_NAMES.join(',')}`)
  for (const a of asked) {
    if (!(a in REGISTRY)) throw new UserError(`${flag}: unknown check "${a}"`, checkHint(a))
  }
  return asked as CheckName[]
}

/** --checks a,b,c and --skip-checks d → the checks in report order; unknown or unavailable names are usage errors. */
export function parseChecks(text: string | undefined, skip?: string): CheckName[] {
  let chosen: CheckName[] = [...DEFAULT_CHECKS]
  if (text !== undefined) {
    const asked = names('--checks', text)
    for (const a of asked) {
      const why = UNAVAILABLE[a]
      if (why) throw new UserError(`--checks: the ${a} check is not available yet: ${why}`, `run ${DEFAULT_CHECKS.join(',')}`)
    }
    chosen = CHECK_NAMES.filter((c) => asked.includes(c))
  }
  if (skip !== undefined) {
    const skipped = names('--skip-checks', skip)
    chosen = chosen.filter((c) => !skipped.includes(c))
    if (chosen.length === 0) throw new UserError('--skip-checks leaves no check to run', `the checks are ${CHECK_NAMES.join(', ')}`)
  }
  return chosen
}
