// schemas/audit-report.json with the engines' schemas it refers to for findings, compiled once (strict ajv).
import {readdirSync, readFileSync} from 'node:fs'
import {fileURLToPath} from 'node:url'
import {Ajv} from 'ajv'
import {ENTRIES} from '../../src/audit/registry.js'

const load = (name: string) => JSON.parse(readFileSync(fileURLToPath(new URL(`../../schemas/${name}.json`, import.meta.url)), 'utf8'))

// biome-ignore lint/suspicious/noExplicitAny: the reports' JSON, read field by field
export type Any = any

/** A plain boolean check (ajv's compiled function is a type guard, which would narrow the data to unknown). */
export function auditSchema(): ((data: Any) => boolean) & {errors?: unknown} {
  const ajv = new Ajv({allErrors: true, strict: true})
  // schemas/explanation.json's instants: RFC 3339, as JSON Schema's date-time (ajv knows no format of its own).
  ajv.addFormat('date-time', /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/)
  // The findings' schemas, as the registry names them, and the shared ones they refer to.
  const named = new Set(ENTRIES.map((e) => e.schema.file))
  const shared = readdirSync(fileURLToPath(new URL('../../schemas/', import.meta.url))).filter((f) => f.endsWith('.json')).map((f) => f.slice(0, -5))
    .filter((f) => f !== 'audit-report' && !named.has(f))
  for (const s of [...named, ...shared]) ajv.addSchema(load(s))
  const v = ajv.compile(load('audit-report'))
  const check = (data: Any): boolean => {
    const ok = v(data)
    check.errors = v.errors
    return ok
  }
  check.errors = undefined as unknown
  return check
}
