// deploy/clusterrole.yaml, written from the registry of checks (src/audit/registry.ts): every read the default
// checks declare over the built-in kinds (src/audit/rbac.ts rulesFor). `npm run gen:clusterrole` rewrites the file;
// test/audit/deploy.test.ts fails when it and the registry differ.
import {writeFileSync} from 'node:fs'
import {fileURLToPath} from 'node:url'
import {DEFAULT_CHECKS} from '../src/audit/checks.js'
import {rulesFor} from '../src/audit/rbac.js'
import {auditPlan} from '../src/audit/run.js'
import {BUILTIN_KINDS} from '../src/cluster/builtin-kinds.js'

export function clusterRoleYaml(): string {
  const rules = rulesFor(auditPlan(DEFAULT_CHECKS, BUILTIN_KINDS, undefined))
  const list = (xs: readonly string[]) => `[${xs.map((x) => JSON.stringify(x)).join(', ')}]`
  return [
    `# Read-only: get and list on exactly the kinds \`kubectl why audit\` reads (its checks: ${DEFAULT_CHECKS.join(', ')}), over the built-in`,
    '# kinds; written from the registry of checks by `npm run gen:clusterrole` (deploy/clusterrole.ts) and held to it by test/audit/deploy.test.ts.',
    '# No Secrets: RBAC cannot grant metadata alone, so the audit does not read them. Events are listed, never read one by one.',
    '# Custom resources are not here: the garbage-collector check lists every monitored kind, and for a CRD kind this role',
    '# does not cover, the report names the rule to add (apiGroups, resources, verbs: get, list) and the audit is incomplete.',
    '# /version and discovery (/api, /apis) are open to every authenticated user (system:discovery, system:public-info-viewer).',
    'apiVersion: rbac.authorization.k8s.io/v1',
    'kind: ClusterRole',
    'metadata:',
    '  name: kubectl-why-audit',
    '  labels:',
    '    app.kubernetes.io/name: kubectl-why',
    'rules:',
    ...rules.flatMap((r) => [`- apiGroups: ${list(r.apiGroups)}`, `  resources: ${list(r.resources)}`, `  verbs: ${list(r.verbs)}`]),
    '',
  ].join('\n')
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  writeFileSync(fileURLToPath(new URL('clusterrole.yaml', import.meta.url)), clusterRoleYaml())
}
