// What is written from the list of replays (src/engine/replays.ts, through the audit's registry.ts), so that a new replay is a line there and nothing else
// edited by hand: deploy/clusterrole.yaml (every read the default checks declare over the built-in kinds, rbac.ts),
// the parts of schemas/audit-report.json that list checks (CheckName, Finding's controllers and their schemas,
// VerdictSeverities), and the README's severity table. `npm run gen:audit` rewrites the three; test/audit/generate.test.ts
// fails when a file and the registry differ. Each part is replaced in place: the rest of the file keeps its layout.
import {readFileSync, writeFileSync} from 'node:fs'
import {fileURLToPath} from 'node:url'
import {BUILTIN_KINDS} from '../src/cluster/builtin-kinds.js'
import {DEFAULT_CHECKS} from '../src/audit/checks.js'
import {rulesFor} from '../src/audit/rbac.js'
import {ENTRIES} from '../src/audit/registry.js'
import {auditPlan} from '../src/audit/run.js'

const list = (xs: readonly string[]) => `[${xs.map((x) => JSON.stringify(x)).join(', ')}]`

export function clusterRoleYaml(): string {
  const rules = rulesFor(auditPlan(DEFAULT_CHECKS, BUILTIN_KINDS, undefined))
  return [
    `# Read-only: get and list on exactly the kinds \`kubectl why audit\` reads (its checks: ${DEFAULT_CHECKS.join(', ')}), over the built-in`,
    '# kinds; written from the registry of checks by `npm run gen:audit` (scripts/gen-audit.ts), held to it by test/audit/generate.test.ts.',
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

function replaceBetween(text: string, start: RegExp, end: RegExp, replacement: string, what: string): string {
  const s = start.exec(text)
  if (!s) throw new Error(`${what}: start not found`)
  const rest = text.slice(s.index)
  const e = end.exec(rest)
  if (!e) throw new Error(`${what}: end not found`)
  return text.slice(0, s.index) + replacement + rest.slice(e.index)
}

/** schemas/audit-report.json with its lists of checks written from the registry. */
export function auditReportSchema(current: string): string {
  let text = current.replace(/^ {4}"CheckName": \{"enum": \[[^\]]*\]\},$/m, `    "CheckName": {"enum": ${list(ENTRIES.map((e) => e.name))}},`)
  const branches = ENTRIES.map((e) => {
    const ctl = e.controllers.length === 1 ? `{"const": ${JSON.stringify(e.controllers[0])}}` : `{"enum": ${list(e.controllers)}}`
    return `        {"if": {"type": "object", "properties": {"controller": ${ctl}}}, "then": {"$ref": "https://kubectl-why.dev/schemas/${e.schema.file}.json#/definitions/${e.schema.definition}"}}`
  })
  text = replaceBetween(
    text,
    /^ {4}"Finding": \{$/m,
    /^ {4}"AuditReport": \{$/m,
    [
      '    "Finding": {',
      '      "type": "object",',
      '      "required": ["controller"],',
      `      "properties": {"controller": {"enum": ${list(ENTRIES.flatMap((e) => e.controllers))}}},`,
      '      "allOf": [',
      branches.join(',\n'),
      '      ]',
      '    },',
      '',
    ].join('\n'),
    'Finding',
  )
  const table = ENTRIES.map(
    (e) =>
      `        ${JSON.stringify(e.name)}: {\n${Object.entries(e.severities)
        .map(([v, x]) => `          ${JSON.stringify(v)}: ${JSON.stringify(x)}`)
        .join(',\n')}\n        }`,
  ).join(',\n')
  text = replaceBetween(text, /^ {6}"default": \{$/m, /^ {4}"NotChecked": \{$/m, `      "default": {\n${table}\n      }\n    },\n`, 'VerdictSeverities')
  JSON.parse(text)
  return text
}

export const TABLE_START = '<!-- severities: written by npm run gen:audit from src/audit/registry.ts -->'
export const TABLE_END = '<!-- severities end -->'

export function severityTable(): string {
  const rows = ENTRIES.flatMap((e) =>
    Object.entries(e.severities).map(
      ([v, s]) => `| \`${e.name}\` | \`${v}\` | ${s.severity}${s.when ? ` (${s.when.map((w) => `${w.severity} when ${w.if}`).join('; ')})` : ''} | ${s.why} |`,
    ),
  )
  return ['| check | verdict | severity | why |', '|---|---|---|---|', ...rows].join('\n')
}

/** The README with its severity table (between the markers) written from the registry. */
export function readmeWithTable(current: string): string {
  const a = current.indexOf(TABLE_START)
  const b = current.indexOf(TABLE_END)
  if (a < 0 || b < a) throw new Error('README: the severity table markers are missing')
  return `${current.slice(0, a + TABLE_START.length)}\n${severityTable()}\n${current.slice(b)}`
}

const ROOT = new URL('../', import.meta.url)
export const GENERATED = {
  'deploy/clusterrole.yaml': () => clusterRoleYaml(),
  'schemas/audit-report.json': (text: string) => auditReportSchema(text),
  'README.md': (text: string) => readmeWithTable(text),
} as const

export function generateAll(): string[] {
  const written: string[] = []
  for (const [file, make] of Object.entries(GENERATED)) {
    const path = fileURLToPath(new URL(file, ROOT))
    const before = readFileSync(path, 'utf8')
    const after = make(before)
    if (after !== before) {
      writeFileSync(path, after)
      written.push(file)
    }
  }
  return written
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const written = generateAll()
  process.stdout.write(written.length > 0 ? `wrote ${written.join(', ')}\n` : 'up to date\n')
}
