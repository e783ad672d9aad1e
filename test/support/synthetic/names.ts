// Object names: DNS-1123, unique where Kubernetes requires it, and shaped like real clusters' names.
// Names are functions of an index (plus a seed-dependent rotation), so uniqueness holds by construction.

const NAMESPACE_WORDS = [
  'payments',
  'checkout',
  'search',
  'catalog',
  'identity',
  'orders',
  'shipping',
  'billing',
  'notifications',
  'analytics',
  'inventory',
  'reviews',
  'recommendations',
  'media',
  'gateway',
  'ledger',
  'fraud',
  'pricing',
  'support',
  'reporting',
  'messaging',
  'profile',
  'cart',
  'warehouse',
  'loyalty',
  'marketing',
  'partners',
  'booking',
  'geo',
  'monitoring',
]

const APP_WORDS = [
  'api',
  'web',
  'worker',
  'frontend',
  'backend',
  'consumer',
  'scheduler',
  'cache',
  'indexer',
  'exporter',
  'proxy',
  'auth',
  'sync',
  'notifier',
  'renderer',
  'ingest',
  'router',
  'mailer',
  'uploader',
  'resolver',
]

const ROLE_WORDS = ['server', 'service', 'processor', 'handler', 'controller', 'manager', 'daemon', 'runner', 'adapter', 'bridge', 'agent']

const DAEMONSET_NAMES = [
  'kube-proxy',
  'node-exporter',
  'fluent-bit',
  'ebs-csi-node',
  'calico-node',
  'datadog-agent',
  'nvidia-device-plugin',
  'local-volume-provisioner',
]

const STATEFULSET_NAMES = ['postgres', 'redis', 'kafka', 'zookeeper', 'rabbitmq', 'elasticsearch', 'mongodb', 'etcd', 'cassandra', 'nats', 'minio', 'vault']

export const SYSTEM_NAMESPACES = ['default', 'kube-system', 'kube-public', 'kube-node-lease'] as const

/** `word` for the first round through the list, then `word-2`, `word-3`, ... */
function numbered(words: readonly string[], i: number): string {
  const round = Math.floor(i / words.length)
  return round === 0 ? words[i % words.length] : `${words[i % words.length]}-${round + 1}`
}

export function namespaceName(i: number): string {
  return numbered(NAMESPACE_WORDS, i)
}

/** `<app>-<role>`, then `<app>-<role>-2`, ...: a bijection from index to name, rotated by the seed. */
export function deploymentName(i: number, seed: number): string {
  const combos = APP_WORDS.length * ROLE_WORDS.length
  const round = Math.floor(i / combos)
  const j = ((i % combos) + ((seed >>> 0) % combos)) % combos
  const base = `${APP_WORDS[j % APP_WORDS.length]}-${ROLE_WORDS[Math.floor(j / APP_WORDS.length)]}`
  return round === 0 ? base : `${base}-${round + 1}`
}

/** The container's name: the app word, as most charts name the main container after the app. */
export function containerName(deployment: string): string {
  return deployment.split('-')[0]
}

export function daemonSetName(i: number): string {
  return numbered(DAEMONSET_NAMES, i)
}

export function statefulSetName(i: number): string {
  return numbered(STATEFULSET_NAMES, i)
}

/**
 * EC2-style private DNS names (ip-10-<zone>-<a>-<b>.<region>.compute.internal): node k of zone z gets
 * 10.z.(k/250).(k%250+4), unique for up to 64,000 nodes per zone.
 */
export function nodeAddress(zoneIndex: number, k: number): string {
  return `10.${zoneIndex}.${Math.floor(k / 250)}.${(k % 250) + 4}`
}

export function nodeName(region: string, zoneIndex: number, k: number): string {
  return `ip-${nodeAddress(zoneIndex, k).replaceAll('.', '-')}.${region}.compute.internal`
}

/** The node's pod CIDR inside --cluster-cidr=100.64.0.0/10: one /24 per node, 16,384 nodes at most. */
export function podCidrBase(nodeIndex: number): string {
  return `100.${64 + ((nodeIndex >>> 8) & 63)}.${nodeIndex & 255}`
}

export const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/
export const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/
