// Which struct layout and controller version `kubectl why hash` replays: --k8s-version, else the server's version
// (live /version or the snapshot's record), else the newest layout. A server older than every layout is not an
// error here — its hashes are reported as not recomputable and the rest of the replay still runs.
import type {ServerVersion} from '../cluster/source.js'
import {chooseVersion} from '../cluster/version.js'
import type {HashSettings} from '../engine/deployment/types.js'
import {UserError} from '../errors.js'
import {layoutVersions} from '../hash/layout-data.js'
import {newestLayoutVersion, selectLayoutVersion} from '../hash/versions.js'
import type {MinorVersion} from '../util/parse.js'

export interface ResolvedHashSettings {
  settings: HashSettings
  /** For the Explanation's source.settings. */
  describe: {value: string; from: string}
}

export const DEFAULT_MAX_INFERRED_COLLISION_COUNT = 10

export function resolveHashSettings(override: MinorVersion | undefined, server: ServerVersion | undefined, gates?: Record<string, boolean>): ResolvedHashSettings {
  const base = {maxInferredCollisionCount: DEFAULT_MAX_INFERRED_COLLISION_COUNT, ...(gates ? {gates} : {})}
  const chosen = chooseVersion(override, server)
  if (!chosen) {
    const v = newestLayoutVersion()
    return {settings: {...base, version: v, versionNote: `no server version known: hashes use the newest layout, ${v}`},
      describe: {value: v, from: 'default (no server version recorded; the newest layout)'}}
  }
  const patchText = chosen.from === 'server' ? /^v?\d+\.\d+\.(\d+)/.exec(server?.gitVersion ?? '')?.[1] : undefined
  const patch = patchText === undefined ? undefined : Number(patchText)
  let choice
  try {
    choice = selectLayoutVersion(chosen)
  } catch (err) {
    // --k8s-version older than every layout is refused, as for --template; a server that old is replayed without hashes.
    if (chosen.from === 'flag' || !(err instanceof UserError)) throw err
    const all = layoutVersions()
    return {settings: {...base, minor: chosen.minor, ...(patch !== undefined ? {patch} : {}), versionNote: `the cluster runs ${chosen.text}, older than every known layout (${all[0]}–${all[all.length - 1]}): its controllers' hashes cannot be recomputed`},
      describe: {value: chosen.text, from: 'server (older than every layout: no hashes recomputed)'}}
  }
  return {
    settings: {...base, version: choice.version, minor: chosen.minor, ...(patch !== undefined ? {patch} : {}), ...(choice.warning ? {versionNote: choice.warning} : {})},
    describe: {value: choice.version, from: `${chosen.from === 'flag' ? '--k8s-version' : `server ${server?.gitVersion ?? chosen.text}`}${choice.warning ? ' (newer than every layout: the newest is used)' : ''}`},
  }
}
