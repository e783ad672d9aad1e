// Runs one (mutated) snapshot through the reading code and every engine in-process, as the commands do: openSource
// (the boundary every command reads through), then the audit, which drives each engine (hash, gc, node, evicted,
// replicas) over the one read, then the three renderings the audit command writes. An answer or a project error
// (UserError and its subclasses: ReadError, HashInputError, ...) is a pass; anything else is a crash.
import {mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {fileURLToPath} from 'node:url'
import {CHECK_NAMES} from '../../src/audit/checks.js'
import {runAudit} from '../../src/audit/run.js'
import {openSource} from '../../src/cluster/open.js'
import {chooseVersion} from '../../src/cluster/version.js'
import {UserError} from '../../src/errors.js'
import {renderAudit} from '../../src/render/audit.js'
import {auditJsonChunks} from '../../src/render/audit-json.js'
import {junitChunks} from '../../src/render/audit-junit.js'
import {formatData} from '../../src/render/output.js'
import {parseJson, parseYamlDocuments} from '../../src/util/json.js'
import {auditProjectionPlan} from '../../src/audit/project.js'

export const EXAMPLES_DIR = fileURLToPath(new URL('../../examples/', import.meta.url))

export interface Example {
  name: string
  doc: unknown
}

/** Every example snapshot, parsed once (the mutations work on deep copies). */
export function loadExamples(names: readonly string[]): Example[] {
  return names.map((name) => {
    const text = readFileSync(join(EXAMPLES_DIR, name), 'utf8')
    const doc = name.endsWith('.json') ? parseJson(text, name) : parseYamlDocuments(text, name)[0]
    return {name, doc}
  })
}

export type Outcome = {kind: 'answer'; findings: number; partial: number} | {kind: 'projectError'; message: string}

export class Workdir {
  readonly dir = mkdtempSync(join(tmpdir(), 'kubectl-why-fuzz-'))
  private n = 0
  write(text: string): string {
    const file = join(this.dir, `snapshot-${this.n++ % 4}.json`)
    writeFileSync(file, text)
    return file
  }
  remove(): void {
    rmSync(this.dir, {recursive: true, force: true})
  }
}

/** One snapshot file through everything; throws only what is not a project error. */
export async function runEverything(file: string, now?: Date): Promise<Outcome> {
  try {
    // As the audit command opens it (base-command.ts: slim for the audit).
    const source = await openSource({snapshot: file, requestTimeout: 0, now, slim: auditProjectionPlan()})
    const version = chooseVersion(undefined, await source.serverVersion().catch(() => undefined))
    const report = await runAudit(source, {checks: CHECK_NAMES, namespace: undefined, version, overrides: {}, failOn: 'warning'})
    renderAudit(report, true)
    for (const _ of auditJsonChunks(report)) {
      /* rendered */
    }
    for (const _ of junitChunks(report)) {
      /* rendered */
    }
    // -o json and -o yaml of the whole report: where a bigint from the data meets the writers.
    formatData(report, 'json')
    formatData(report, 'yaml')
    return {kind: 'answer', findings: report.findings.length, partial: report.source.partial?.length ?? 0}
  } catch (err) {
    if (err instanceof UserError) return {kind: 'projectError', message: err.message}
    throw err
  }
}
