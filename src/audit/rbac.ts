// The RBAC the audit needs, derived from what the checks declare they read (needs.ts): `list` on every kind a check
// lists, `get` on every kind a check may GET. deploy/clusterrole.yaml is this, for every check over the built-in
// kinds (test/audit/deploy.test.ts holds the two together); a kind that answers 403 is reported with its rule.
import type {ResourceType} from '../cluster/source.js'
import type {ReadPlan} from './plan.js'
import {compareStrings} from '../util/compare.js'

export interface PolicyRule {
  apiGroups: string[]
  resources: string[]
  verbs: string[]
}

const VERB_ORDER = ['get', 'list']

/** One rule per API group and verb set, resources sorted: the shape deploy/clusterrole.yaml is written in. */
export function rulesFor(plan: Pick<ReadPlan, 'needs' | 'gets'>): PolicyRule[] {
  const verbs = new Map<string, {group: string; resource: string; verbs: Set<string>}>()
  const add = (t: ResourceType | undefined, verb: string) => {
    if (!t) return
    const k = `${t.group}/${t.resource}`
    const e = verbs.get(k) ?? {group: t.group, resource: t.resource, verbs: new Set<string>()}
    e.verbs.add(verb)
    verbs.set(k, e)
  }
  for (const n of plan.needs) add(n.type, 'list')
  // A GET only a single-object command sends, and whose permission reaches beyond reading (nodes/proxy), is not
  // granted to the audit (ReplayGet.notInAuditRole).
  for (const g of plan.gets) if (g.notInAuditRole === undefined) add(g.type, 'get')
  const rules = new Map<string, PolicyRule>()
  for (const e of verbs.values()) {
    const v = VERB_ORDER.filter((x) => e.verbs.has(x))
    const k = `${e.group}|${v.join(',')}`
    const r = rules.get(k) ?? {apiGroups: [e.group], resources: [], verbs: v}
    r.resources.push(e.resource)
    rules.set(k, r)
  }
  for (const r of rules.values()) r.resources.sort()
  return [...rules.values()].sort((a, b) => compareStrings(a.apiGroups[0], b.apiGroups[0]) || compareStrings(a.verbs.join(), b.verbs.join()))
}

/** The rule a refused read needs: list (and get, when a check also GETs that kind), on that one resource. */
export function ruleForType(type: ResourceType, plan: Pick<ReadPlan, 'gets'>): PolicyRule {
  const get = plan.gets.some((g) => g.type && g.type.group === type.group && g.type.resource === type.resource)
  return {apiGroups: [type.group], resources: [type.resource], verbs: get ? ['get', 'list'] : ['list']}
}

/** The same rule as a kubectl command line, for the table view. */
export function ruleCommand(rule: PolicyRule, namespace: string | undefined): string {
  const resource = rule.resources.map((r) => (rule.apiGroups[0] ? `${r}.${rule.apiGroups[0]}` : r)).join(',')
  return namespace === undefined
    ? `kubectl create clusterrole NAME --verb=${rule.verbs.join(',')} --resource=${resource}`
    : `kubectl create role NAME -n ${namespace} --verb=${rule.verbs.join(',')} --resource=${resource}`
}
