// The tests' one schema loader: every schema in schemas/ added once to one strict ajv, so a schema's reference to
// another (explanation.json's shared definitions, audit-report.json's findings) resolves as a consumer's would.
// Each validator compiles on first use.
import {readdirSync, readFileSync} from 'node:fs'
import {fileURLToPath} from 'node:url'
import {Ajv} from 'ajv'

const DIR = fileURLToPath(new URL('../../schemas/', import.meta.url))
const BASE = 'https://kubectl-why.dev/schemas/'

// biome-ignore lint/suspicious/noExplicitAny: the outputs' JSON, read field by field
export type Any = any

/** A plain boolean check (ajv's compiled function is a type guard, which would narrow the data to unknown). */
export type Check = ((data: Any) => boolean) & {errors?: unknown}

/** The names of the schemas in schemas/ (file names without .json). */
export const SCHEMAS: readonly string[] = readdirSync(DIR)
  .filter((f) => f.endsWith('.json'))
  .map((f) => f.slice(0, -5))
  .sort()

/** A schema's JSON as the file holds it. */
export function schemaJson(name: string): Any {
  return JSON.parse(readFileSync(`${DIR}${name}.json`, 'utf8'))
}

let shared: Ajv | undefined
function ajv(): Ajv {
  if (shared) return shared
  shared = new Ajv({allErrors: true, strict: true})
  // schemas/explanation.json's instants: RFC 3339, as JSON Schema's date-time (ajv knows no format of its own).
  shared.addFormat('date-time', /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/)
  for (const name of SCHEMAS) {
    const s = schemaJson(name)
    // References between schemas go by $id; a file whose $id is not its name would resolve nowhere.
    if (s.$id !== `${BASE}${name}.json`) throw new Error(`schemas/${name}.json: $id is ${s.$id}, not ${BASE}${name}.json`)
    shared.addSchema(s)
  }
  return shared
}

const cache = new Map<string, Check>()

/** The validator of schemas/NAME.json, or of one of its definitions: validatorFor('explanation', 'Explanation'). */
export function validatorFor(name: string, definition?: string): Check {
  const ref = `${BASE}${name}.json${definition ? `#/definitions/${definition}` : ''}`
  const known = cache.get(ref)
  if (known) return known
  const v = ajv().getSchema(ref)
  if (!v) throw new Error(`no schema ${ref}`)
  const check: Check = (data: Any): boolean => {
    const ok = v(data) as boolean
    check.errors = v.errors
    return ok
  }
  check.errors = undefined
  cache.set(ref, check)
  return check
}
