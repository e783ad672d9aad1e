// Names for completion from the cluster (or dump) the words point at: metadata-only lists with a short timeout, so a
// slow or unreachable cluster costs the prompt at most that long and prints nothing.
import {readFileSync} from 'node:fs'
import {homedir} from 'node:os'
import {delimiter} from 'node:path'
import {parse as parseYaml} from 'yaml'
import {openSource} from '../cluster/open.js'
import type {ClusterSource} from '../cluster/source.js'
import type {connectionOf, NameLookup} from './complete.js'

const TIMEOUT_MS = 3000

/** Contexts of every kubeconfig file in force, as kubectl merges them (names only). */
function contextNames(kubeconfig: string | undefined): string[] {
  const files = kubeconfig ? [kubeconfig] : process.env.KUBECONFIG ? process.env.KUBECONFIG.split(delimiter).filter(Boolean) : [`${homedir()}/.kube/config`]
  const names: string[] = []
  for (const f of files) {
    try {
      const doc = parseYaml(readFileSync(f, 'utf8')) as {contexts?: {name?: unknown}[]} | null
      for (const c of doc?.contexts ?? []) if (typeof c?.name === 'string') names.push(c.name)
    } catch {
      // An unreadable file offers no contexts; kubectl's own completion is as quiet.
    }
  }
  return names
}

export function clusterLookup(connection: ReturnType<typeof connectionOf>): NameLookup & {close(): Promise<void>} {
  let opened: Promise<ClusterSource> | undefined
  const source = () => {
    opened ??= openSource({snapshot: connection.snapshot, kubeconfig: connection.kubeconfig, context: connection.context, requestTimeout: TIMEOUT_MS})
    return opened
  }
  return {
    async names(kind, namespace) {
      const s = await source()
      const ns = namespace ?? (connection.allNamespaces ? undefined : s.defaultNamespace())
      const {items} = await s.list({kind, namespace: kind === 'Namespace' || kind === 'Node' ? undefined : ns, metadataOnly: true})
      return items.map((o) => o.metadata?.name).filter((n): n is string => typeof n === 'string')
    },
    async contexts() {
      return contextNames(connection.kubeconfig)
    },
    async close() {
      if (opened) await (await opened.catch(() => undefined))?.close?.()
    },
  }
}
