// What the data can prove, built once per run and handed to every engine beside the objects. A live cluster
// answers every read, so absence there is proof; a foreign dump only proves presence, unless its format is known
// to be complete for a kind (the tool's own snapshot records each list it made). Engines ask this before they turn
// "not in the data" into "does not exist".
import type {Coverage, Evidence, Problem} from '../explanation.js'
import type {ClusterSource, ServerVersion} from './source.js'

/** What an Evidence is made of; `coverage()` is derived from `kinds` and the default for kinds not listed. */
export interface EvidenceParts extends Omit<Evidence, 'coverage'> {
  /** The answer for a kind `kinds` does not list: a live source holds it, a dump does not. */
  unlisted: (group: string, kind: string) => Coverage
}

/** Core Events are also served as events.k8s.io Events, and a dump made through extensions holds apps objects. */
const GROUP_ALIASES: Record<string, string> = {
  'extensions/Deployment': 'apps',
  'extensions/ReplicaSet': 'apps',
  'extensions/DaemonSet': 'apps',
  'events.k8s.io/Event': '',
}

export function canonicalGroup(group: string, kind: string): string {
  return GROUP_ALIASES[`${group}/${kind}`] ?? group
}

export function makeEvidence(parts: EvidenceParts): Evidence {
  const {unlisted, ...rest} = parts
  const byKey = new Map(parts.kinds.map((k) => [`${canonicalGroup(k.group, k.kind)}/${k.kind}`, k]))
  const evidence = {...rest} as Evidence
  // Not enumerable: -o json and -o yaml print the data, not the method.
  Object.defineProperty(evidence, 'coverage', {
    enumerable: false,
    value(group: string, kind: string, namespace?: string): Coverage {
      const k = byKey.get(`${canonicalGroup(group, kind)}/${kind}`)
      if (!k) return unlisted(group, kind)
      const inData = k.count === 0 ? `the data holds no ${kind}` : `the data holds ${kind} objects`
      if (k.coverage === 'none')
        return {
          held: k.absenceIsProof,
          absenceIsProof: k.absenceIsProof,
          why: k.absenceIsProof ? `${k.from}: there is no ${kind}` : `the data holds no ${kind} (${k.from})`,
        }
      if (k.coverage === 'all' || namespace === undefined) {
        return {
          held: true,
          absenceIsProof: k.absenceIsProof,
          why: k.absenceIsProof ? `${k.from}` : `${inData}, but only what the dump happened to include (${k.from})`,
        }
      }
      const held = (k.namespaces ?? []).includes(namespace)
      if (!held) return {held: false, absenceIsProof: false, why: `the data holds no ${kind} in namespace ${namespace} (${k.from})`}
      return {
        held: true,
        absenceIsProof: k.absenceIsProof,
        why: k.absenceIsProof ? `${k.from}` : `${inData} in ${namespace}, but only what the dump happened to include (${k.from})`,
      }
    },
  })
  return evidence
}

/** A live read "[list ]group/version Kind" problem names the kind it could not read. */
const LIST_PROBLEM = /^(?:list|get) (?:([a-z0-9.-]+)\/)?v[0-9a-z]+ ([A-Z][A-Za-z0-9]*)\b/

/**
 * A live cluster answers every read, so absence is proof — except for a kind the source already failed to read
 * (forbidden, not served): held false. Node Leases and the node set are whatever a live read returns.
 */
export function liveEvidence(source: Pick<ClusterSource, 'now' | 'problems' | 'describe'>, version?: ServerVersion, servedVersions: string[] = []): Evidence {
  const unreadable = new Map<string, Problem>()
  for (const p of source.problems()) {
    const m = LIST_PROBLEM.exec(p.what)
    if (m && /Forbidden|403|NotServed|404/.test(p.reason)) unreadable.set(`${canonicalGroup(m[1] ?? '', m[2])}/${m[2]}`, p)
  }
  const desc = source.describe()
  const clockFrom = desc.settings?.clock?.from
  return makeEvidence({
    kinds: [],
    unlisted: (group, kind) => {
      const p = unreadable.get(`${canonicalGroup(group, kind)}/${kind}`)
      return p ? {held: false, absenceIsProof: false, why: `${kind} could not be read (${p.reason})`} : {held: true, absenceIsProof: true, why: 'read live'}
    },
    servedVersions,
    nodeLeases: 'present',
    nodeSet: 'complete',
    clock: {at: source.now().toISOString(), from: typeof clockFrom === 'string' ? clockFrom : 'the live clock', trust: 'exact'},
    version: version ? {text: version.gitVersion, from: typeof version.inferredFrom === 'string' ? version.inferredFrom : "the server's /version"} : undefined,
    missing: [...unreadable.values()],
  })
}

/** The run's evidence in one call: the source's own inventory, or the live default. */
export async function evidenceOf(source: ClusterSource): Promise<Evidence> {
  if (source.evidence) return source.evidence()
  const served = new Set<string>()
  try {
    for (const t of await source.discovery()) served.add(t.group === '' ? t.version : `${t.group}/${t.version}`)
  } catch {
    // Discovery that fails is already among the source's problems; the versions stay unknown.
  }
  return liveEvidence(source, await source.serverVersion(), [...served].sort())
}
