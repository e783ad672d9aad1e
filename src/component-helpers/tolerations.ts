// Toleration matching, once for every replay: ToleratesTaint (staging/src/k8s.io/api/core/v1/toleration.go@19c6083b:45-65)
// and GetMatchingTolerations (pkg/apis/core/v1/helper/helpers.go@a23d4fdd).
import type {Taint, Toleration} from '../cluster/kube-types.js'

const INT64_MIN = -(2n ** 63n)
const INT64_MAX = 2n ** 63n - 1n

/**
 * compareNumericValues' parse (toleration_test.go@4a0608cb TestCompareNumericValues): a canonical decimal int64 —
 * "0", or an optional "-" and digits without a leading zero; "+5", "0100", "-0", " 5 " and "5.0" do not match.
 */
function parseInt64(v: string | undefined): bigint | undefined {
  if (v === undefined || !/^(0|-?[1-9]\d*)$/.test(v)) return undefined
  const n = BigInt(v)
  return n < INT64_MIN || n > INT64_MAX ? undefined : n
}

/** Which optional matching rules are on: the TaintTolerationComparisonOperators gate (alpha from 1.35, off by default). */
export interface MatchOptions {
  comparisonOperators: boolean
}

export const GATE_DEFAULTS: MatchOptions = {comparisonOperators: false}

/**
 * ToleratesTaint (staging/src/k8s.io/api/core/v1/toleration.go@19c6083b:45-65; the gate argument as
 * toleration_test.go@4a0608cb TestTolerationToleratesTaint passes it): empty effect matches every effect, empty key
 * every key; operator "" means Equal (values compared, so Equal with a value never matches the controller's
 * value-less taints); Lt/Gt compare int64 values only with TaintTolerationComparisonOperators on — with it off they
 * match nothing; any other operator matches nothing.
 */
export function toleratesTaint(t: Toleration, taint: Taint, options: MatchOptions = GATE_DEFAULTS): boolean {
  if (t.effect && t.effect !== taint.effect) return false
  if (t.key && t.key !== taint.key) return false
  switch (t.operator ?? '') {
    case '':
    case 'Equal':
      return (t.value ?? '') === (taint.value ?? '')
    case 'Exists':
      return true
    case 'Lt':
    case 'Gt': {
      if (!options.comparisonOperators) return false
      const tol = parseInt64(t.value)
      const tnt = parseInt64(taint.value)
      if (tol === undefined || tnt === undefined) return false
      return t.operator === 'Lt' ? tnt < tol : tnt > tol
    }
    default:
      return false
  }
}

export interface TaintMatch {
  taint: Taint
  /** Index in spec.tolerations of the first toleration (spec order) that tolerates the taint. */
  index?: number
  toleration?: Toleration
}

/**
 * GetMatchingTolerations: per taint, only the FIRST toleration in spec order that tolerates it is used.
 * allTolerated is false as soon as one taint has none (no tolerations at all with taints present: false).
 */
export function getMatchingTolerations(
  taints: readonly Taint[],
  tolerations: readonly Toleration[],
  options: MatchOptions = GATE_DEFAULTS,
): {allTolerated: boolean; matches: TaintMatch[]} {
  const matches: TaintMatch[] = []
  let allTolerated = true
  for (const taint of taints) {
    const index = tolerations.findIndex((t) => toleratesTaint(t, taint, options))
    if (index < 0) {
      allTolerated = false
      matches.push({taint})
    } else matches.push({taint, index, toleration: tolerations[index]})
  }
  return {allTolerated, matches}
}
