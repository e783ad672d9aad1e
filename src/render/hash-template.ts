// The human view of `kubectl why hash --template`: one row per template (hash and the name it implies,
// the label check for a ReplicaSet), then what the table cannot hold — which layouts reproduce a label
// that does not match, warnings, and with --show-serialization the exact text hashed.
import type {HashRecord, ReproducedBy} from '../hash/template-records.js'
import {ROLE} from './colour.js'
import {table, terminalWidth, wrap} from './layout.js'

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
  if (r.matches === true) return `${r.label} ${ROLE.good('matches')}`
  if (r.matches === false) return `${r.label} ${ROLE.warn('differs')}`
  return r.label
}

export function renderHashRecords(records: HashRecord[], width = terminalWidth()): string {
  const rows = records.map((r) => [
    r.source,
    r.kind,
    r.name ?? '',
    r.version,
    r.collisionCount === undefined ? '-' : String(r.collisionCount),
    r.hash ?? ROLE.warn('n/a'),
    r.replicaSetName ?? r.revisionName ?? '',
    labelCell(r),
  ])
  const out = table(['SOURCE', 'KIND', 'NAME', 'VERSION', 'COLLISIONS', 'HASH', 'IMPLIED NAME', 'LABEL'], rows)
  const say = (text: string, paint = ROLE.plain) => out.push(...wrap(text, width, {hanging: 2}).map(paint))
  for (const r of records) {
    const who = `${r.source}${r.name ? ` (${r.kind}/${r.name})` : ''}`
    if (r.error) say(`${who}: no hash: ${r.error}`, ROLE.warn)
    if (r.matches === false && r.reproducedBy) {
      if (r.reproducedBy.length > 0) say(`${who}: label ${r.label} is not the ${r.version} hash; reproduced by ${r.reproducedBy.map(reproduced).join('; ')}`)
      else say(`${who}: label ${r.label} is reproduced by no known layout`, ROLE.warn)
    }
    for (const w of r.warnings ?? []) say(`${who}: ${w}`, ROLE.warn)
  }
  for (const r of records) {
    if (r.serialization === undefined) continue
    const what = r.kind === 'StatefulSet' ? 'ControllerRevision data.raw, then the collision count (FNV-1)' : 'spew text (FNV-1a)'
    out.push(ROLE.muted(`--- ${r.source}: ${what}, ${Buffer.byteLength(r.serialization)} bytes, layout ${r.version}`))
    out.push(r.serialization)
  }
  return `${out.join('\n')}\n`
}
