// The human view of `kubectl why hash --template`: one row per template (hash and the name it implies,
// the label check for a ReplicaSet), then what the table cannot hold — which layouts reproduce a label
// that does not match, warnings, and with --show-serialization the exact text hashed.
import chalk from 'chalk'
import Table from 'cli-table3'
import type {HashRecord, ReproducedBy} from '../hash/template-records.js'

function table(head: string[]): Table.Table {
  return new Table({head: head.map((h) => chalk.bold(h)), style: {head: [], border: [], compact: true}, chars: {mid: '', 'left-mid': '', 'mid-mid': '', 'right-mid': ''}})
}

/** "1.28–1.31" for consecutive minors, comma-separated otherwise. */
export function versionRanges(versions: string[]): string {
  const minors = versions.map((v) => Number(v.split('.')[1])).sort((a, b) => a - b)
  const parts: string[] = []
  for (let i = 0; i < minors.length; i++) {
    let j = i
    while (j + 1 < minors.length && minors[j + 1] === minors[j] + 1) j++
    parts.push(i === j ? `1.${minors[i]}` : `1.${minors[i]}–1.${minors[j]}`)
    i = j
  }
  return parts.join(', ')
}

function reproduced(r: ReproducedBy): string {
  return `${versionRanges(r.versions)} ${r.collisionCount === undefined ? 'without a collisionCount' : `with collisionCount ${r.collisionCount}`}`
}

function labelCell(r: HashRecord): string {
  if (r.label === undefined) return ''
  if (r.matches === true) return `${r.label} ${chalk.green('matches')}`
  if (r.matches === false) return `${r.label} ${chalk.yellow('differs')}`
  return r.label
}

export function renderHashRecords(records: HashRecord[]): string {
  const t = table(['SOURCE', 'KIND', 'NAME', 'VERSION', 'COLLISIONS', 'HASH', 'IMPLIED NAME', 'LABEL'])
  for (const r of records) {
    t.push([r.source, r.kind, r.name ?? '', r.version, r.collisionCount === undefined ? '-' : String(r.collisionCount),
      r.hash ?? chalk.yellow('n/a'), r.replicaSetName ?? r.revisionName ?? '', labelCell(r)])
  }
  const out = [t.toString()]
  for (const r of records) {
    const who = `${r.source}${r.name ? ` (${r.kind}/${r.name})` : ''}`
    if (r.error) out.push(chalk.yellow(`${who}: no hash: ${r.error}`))
    if (r.matches === false && r.reproducedBy) {
      out.push(r.reproducedBy.length > 0
        ? `${who}: label ${r.label} is not the ${r.version} hash; reproduced by ${r.reproducedBy.map(reproduced).join('; ')}`
        : chalk.yellow(`${who}: label ${r.label} is reproduced by no known layout`))
    }
    for (const w of r.warnings ?? []) out.push(chalk.yellow(`${who}: ${w}`))
  }
  for (const r of records) {
    if (r.serialization === undefined) continue
    const what = r.kind === 'StatefulSet' ? 'ControllerRevision data.raw, then the collision count (FNV-1)' : 'spew text (FNV-1a)'
    out.push(chalk.dim(`--- ${r.source}: ${what}, ${Buffer.byteLength(r.serialization)} bytes, layout ${r.version}`))
    out.push(r.serialization)
  }
  return out.join('\n') + '\n'
}
