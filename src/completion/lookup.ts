// Names for completion from the cluster (or dump) the words point at: metadata-only lists with a short timeout, so a
// slow or unreachable cluster costs the prompt at most that long and prints nothing.
import {kubeconfigFiles, mergeKubeconfigs} from '../cluster/live/kubeconfig.js'
import {openSource} from '../cluster/open.js'
import type {ClusterSource} from '../cluster/source.js'
import type {connectionOf, NameLookup} from './complete.js'

const TIMEOUT_MS = 3000

/** Contexts of the kubeconfig files in force, merged as kubectl merges them (the live source's own reading). */
function contextNames(kubeconfig: string | undefined): string[] {
  return mergeKubeconfigs(kubeconfigFiles(kubeconfig).files).contexts.flatMap((c) => (c.name ? [c.name] : []))
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
