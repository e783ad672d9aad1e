// Which layout to hash with: the cluster's minor version (server /version, a snapshot's record, or
// --k8s-version). Newer than the newest layout: the newest, with a warning; older than the oldest: refused.
import {UserError} from '../errors.js'
import type {MinorVersion} from '../util/parse.js'
import {layoutVersions} from './layout-data.js'

export interface LayoutChoice {
  /** The layout used, "1.31". */
  version: string
  /** The version asked for, when it differs from the layout used. */
  requested?: string
  warning?: string
}

function minorOf(v: string): number {
  return Number(v.split('.')[1])
}

export function newestLayoutVersion(): string {
  const all = layoutVersions()
  return all[all.length - 1]
}

export function selectLayoutVersion(requested: MinorVersion | undefined): LayoutChoice {
  const all = layoutVersions()
  const oldest = all[0]
  const newest = all[all.length - 1]
  if (!requested) return {version: newest}
  const text = `${requested.major}.${requested.minor}`
  if (requested.major !== 1 || requested.minor < minorOf(oldest)) {
    throw new UserError(
      `Kubernetes ${text} is older than the oldest struct layout this tool has (${oldest})`,
      `hash layouts cover ${oldest} to ${newest}; a hash of an older controller cannot be recomputed`,
    )
  }
  if (requested.minor > minorOf(newest)) {
    return {
      version: newest,
      requested: text,
      warning: `Kubernetes ${text} is newer than the newest struct layout this tool has (${newest}); hashing with ${newest}. If ${text} added fields to the pod template the real hash differs.`,
    }
  }
  return {version: text}
}
