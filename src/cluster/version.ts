// Which Kubernetes minor version's rules apply: --k8s-version, else the server's (live /version or the
// snapshot's record). The explanation says which was used and where it came from.
import type {MinorVersion} from '../util/parse.js'
import {parseMinorVersion} from '../util/parse.js'
import type {ServerVersion} from './source.js'

export interface ChosenVersion extends MinorVersion {
  /** flag: --k8s-version; server: the live /version, or the version a snapshot recorded. */
  from: 'flag' | 'server'
  text: string
}

export function chooseVersion(override: MinorVersion | undefined, server: ServerVersion | undefined): ChosenVersion | undefined {
  if (override) return {...override, from: 'flag', text: `${override.major}.${override.minor}`}
  if (!server) return undefined
  // Managed clusters report minor as "31+"; gitVersion is the reliable field.
  const parsed = parseMinorVersion(server.gitVersion || `${server.major}.${String(server.minor).replace(/\D+$/, '')}`, 'server version')
  return {...parsed, from: 'server', text: `${parsed.major}.${parsed.minor}`}
}
