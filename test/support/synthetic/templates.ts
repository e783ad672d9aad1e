// Pod templates and pod specs exactly as the API server stores them: after defaulting (SetDefaults_PodSpec,
// _Container, _Probe, _ContainerPort, _HTTPGetAction, _ObjectFieldSelector, _ConfigMapVolumeSource) and,
// for pods, after admission (ServiceAccount adds the kube-api-access volume, DefaultTolerationSeconds the
// 300 s not-ready/unreachable tolerations, Priority the priority). Keys follow the Go structs' field order,
// maps are sorted as Go marshals them. One builder serves templates and pods, so the two always agree.
import type {Rng} from './prng.js'

export interface AppProfile {
  /** Workload name: the `app` label and the selector. */
  name: string
  container: string
  /** Image without tag; each revision adds its own tag. */
  imageRepo: string
  ports: {name: string; containerPort: number}[]
  requests: {cpu: string; memory: string}
  limits: {cpu?: string; memory?: string}
  liveness: 'http' | 'tcp' | 'none'
  livenessDelay: number
  readiness: boolean
  env: ({name: string; value: string} | {name: string; fieldPath: string})[]
  configVolume: boolean
  nonRoot: boolean
  /** DaemonSet-style system pods: host network, a service account, tolerate everything, critical priority. */
  system?: {hostPaths: {name: string; path: string; type: string}[]}
}

/** Per revision: what a rollout changed. */
export interface TemplateRevision {
  imageTag: string
  /** kubectl.kubernetes.io/restartedAt, set by `kubectl rollout restart` and kept by later rollouts. */
  restartedAt?: string
}

/** What only a pod has: scheduling result and admission-added fields. */
export interface PodPlacement {
  nodeName: string
  /** kube-api-access-<5 random chars>, added by the ServiceAccount admission plugin. */
  apiAccessVolume: string
  tolerations: Record<string, unknown>[]
  /** DaemonSet pods: the controller pins each to its node with required node affinity. */
  pinnedToNode?: boolean
  /** StatefulSet pods: hostname = pod name, subdomain = the governing Service. */
  hostname?: string
  subdomain?: string
}

const CPU = ['50m', '100m', '200m', '250m', '500m', '1']
const MEMORY = ['64Mi', '128Mi', '256Mi', '512Mi', '1Gi', '2Gi']
const PORTS = [8080, 8000, 3000, 9000, 5000, 8443]

export function makeAppProfile(rng: Rng, name: string, container: string, imageRepo: string): AppProfile {
  const port = rng.pick(PORTS)
  const ports = [{name: 'http', containerPort: port}]
  if (rng.chance(0.5)) ports.push({name: 'metrics', containerPort: 9090})
  const cpu = rng.int(0, CPU.length - 2)
  const mem = rng.int(0, MEMORY.length - 2)
  const requests = {cpu: CPU[cpu], memory: MEMORY[mem]}
  const shape = rng.float()
  // Guaranteed (limits = requests), memory-only limit (the common advice), or both limits above requests.
  const limits = shape < 0.2 ? {...requests} : shape < 0.7 ? {memory: MEMORY[mem + 1]} : {cpu: CPU[cpu + 1], memory: MEMORY[mem + 1]}
  const env: AppProfile['env'] = [
    {name: 'LOG_LEVEL', value: rng.pick(['info', 'info', 'warn', 'debug'])},
    {name: 'PORT', value: String(port)},
  ]
  if (rng.chance(0.4)) env.push({name: 'POD_NAME', fieldPath: 'metadata.name'})
  if (rng.chance(0.3)) env.push({name: 'POD_NAMESPACE', fieldPath: 'metadata.namespace'})
  const livenessDraw = rng.float()
  return {
    name,
    container,
    imageRepo,
    ports,
    requests,
    limits,
    env,
    liveness: livenessDraw < 0.7 ? 'http' : livenessDraw < 0.85 ? 'tcp' : 'none',
    livenessDelay: rng.pick([0, 5, 10, 15, 30]),
    readiness: rng.chance(0.8),
    configVolume: rng.chance(0.4),
    nonRoot: rng.chance(0.4),
  }
}

/** QoS class the API server records in status.qosClass for this profile's single container. */
export function qosClass(p: AppProfile): 'Guaranteed' | 'Burstable' {
  return p.limits.cpu === p.requests.cpu && p.limits.memory === p.requests.memory ? 'Guaranteed' : 'Burstable'
}

/** SetDefaults_Probe: timeoutSeconds 1, periodSeconds 10, successThreshold 1, failureThreshold 3. */
function probe(action: Record<string, unknown>, initialDelaySeconds: number): Record<string, unknown> {
  // Plain literals, not spreads or later additions: this runs for every pod and fixed shapes stay fast.
  return initialDelaySeconds > 0
    ? {...action, initialDelaySeconds, timeoutSeconds: 1, periodSeconds: 10, successThreshold: 1, failureThreshold: 3}
    : {...action, timeoutSeconds: 1, periodSeconds: 10, successThreshold: 1, failureThreshold: 3}
}

function httpProbe(path: string, port: number, initialDelaySeconds: number): Record<string, unknown> {
  const httpGet = {path, port, scheme: 'HTTP'}
  return initialDelaySeconds > 0
    ? {httpGet, initialDelaySeconds, timeoutSeconds: 1, periodSeconds: 10, successThreshold: 1, failureThreshold: 3}
    : {httpGet, timeoutSeconds: 1, periodSeconds: 10, successThreshold: 1, failureThreshold: 3}
}

function quantities(q: {cpu?: string; memory?: string}): Record<string, string> {
  const out: Record<string, string> = {}
  if (q.cpu !== undefined) out.cpu = q.cpu
  if (q.memory !== undefined) out.memory = q.memory
  return out
}

function container(p: AppProfile, rev: TemplateRevision, pod: PodPlacement | undefined): Record<string, unknown> {
  const c: Record<string, unknown> = {name: p.container, image: `${p.imageRepo}:${rev.imageTag}`}
  if (p.system === undefined) c.ports = p.ports.map((port) => ({name: port.name, containerPort: port.containerPort, protocol: 'TCP'}))
  c.env = p.env.map((e) => ('value' in e ? {name: e.name, value: e.value} : {name: e.name, valueFrom: {fieldRef: {apiVersion: 'v1', fieldPath: e.fieldPath}}}))
  const resources: Record<string, unknown> = {}
  if (Object.keys(p.limits).length > 0) resources.limits = quantities(p.limits)
  resources.requests = quantities(p.requests)
  c.resources = resources
  const mounts: Record<string, unknown>[] = []
  if (p.configVolume) mounts.push({name: 'config', readOnly: true, mountPath: `/etc/${p.container}`})
  for (const h of p.system?.hostPaths ?? []) mounts.push({name: h.name, mountPath: h.path})
  if (pod) mounts.push({name: pod.apiAccessVolume, readOnly: true, mountPath: '/var/run/secrets/kubernetes.io/serviceaccount'})
  if (mounts.length > 0) c.volumeMounts = mounts
  const port = p.ports[0].containerPort
  if (p.liveness === 'http') c.livenessProbe = httpProbe('/healthz', port, p.livenessDelay)
  else if (p.liveness === 'tcp') c.livenessProbe = probe({tcpSocket: {port}}, p.livenessDelay)
  if (p.readiness) c.readinessProbe = httpProbe('/ready', port, 0)
  c.terminationMessagePath = '/dev/termination-log'
  c.terminationMessagePolicy = 'File'
  // SetDefaults_Container: Always for :latest or no tag, IfNotPresent otherwise; every tag here is a version.
  c.imagePullPolicy = 'IfNotPresent'
  if (p.nonRoot) c.securityContext = {runAsNonRoot: true, allowPrivilegeEscalation: false}
  else if (p.system) c.securityContext = {privileged: true}
  return c
}

/** kube-api-access-*: the projected service-account token volume, byte for byte as admission adds it. */
function apiAccessVolume(name: string): Record<string, unknown> {
  return {
    name,
    projected: {
      sources: [
        {serviceAccountToken: {expirationSeconds: 3607, path: 'token'}},
        {configMap: {name: 'kube-root-ca.crt', items: [{key: 'ca.crt', path: 'ca.crt'}]}},
        {downwardAPI: {items: [{path: 'namespace', fieldRef: {apiVersion: 'v1', fieldPath: 'metadata.namespace'}}]}},
      ],
      defaultMode: 420,
    },
  }
}

/** The tolerations the DefaultTolerationSeconds admission plugin adds to every pod that has none of its own. */
export function defaultTolerations(): Record<string, unknown>[] {
  return [
    {key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300},
    {key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300},
  ]
}

/** A DaemonSet pod's: the template's tolerate-all, plus what the DaemonSet controller adds (util.AddOrUpdateDaemonPodTolerations). */
export function daemonPodTolerations(hostNetwork: boolean): Record<string, unknown>[] {
  const t: Record<string, unknown>[] = [
    {operator: 'Exists'},
    {key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute'},
    {key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute'},
    {key: 'node.kubernetes.io/disk-pressure', operator: 'Exists', effect: 'NoSchedule'},
    {key: 'node.kubernetes.io/memory-pressure', operator: 'Exists', effect: 'NoSchedule'},
    {key: 'node.kubernetes.io/pid-pressure', operator: 'Exists', effect: 'NoSchedule'},
    {key: 'node.kubernetes.io/unschedulable', operator: 'Exists', effect: 'NoSchedule'},
  ]
  if (hostNetwork) t.push({key: 'node.kubernetes.io/network-unavailable', operator: 'Exists', effect: 'NoSchedule'})
  return t
}

/** The PodSpec of a template (pod undefined) or of a pod placed on a node. */
export function podSpec(p: AppProfile, rev: TemplateRevision, pod?: PodPlacement): Record<string, unknown> {
  const s: Record<string, unknown> = {}
  const volumes: Record<string, unknown>[] = []
  if (p.configVolume) volumes.push({name: 'config', configMap: {name: `${p.name}-config`, defaultMode: 420}})
  for (const h of p.system?.hostPaths ?? []) volumes.push({name: h.name, hostPath: {path: h.path, type: h.type}})
  if (pod) volumes.push(apiAccessVolume(pod.apiAccessVolume))
  if (volumes.length > 0) s.volumes = volumes
  s.containers = [container(p, rev, pod)]
  s.restartPolicy = 'Always'
  s.terminationGracePeriodSeconds = 30
  s.dnsPolicy = 'ClusterFirst'
  if (p.system) s.nodeSelector = {'kubernetes.io/os': 'linux'}
  // Set from serviceAccountName by the v1 conversion (the deprecated field mirrors it) and defaulted to "default" on pods.
  const serviceAccount = p.system ? p.name : pod ? 'default' : undefined
  if (serviceAccount !== undefined) {
    s.serviceAccountName = serviceAccount
    s.serviceAccount = serviceAccount
  }
  if (pod) s.nodeName = pod.nodeName
  if (p.system) s.hostNetwork = true
  s.securityContext = {}
  if (pod?.hostname !== undefined) {
    s.hostname = pod.hostname
    s.subdomain = pod.subdomain
  }
  if (pod?.pinnedToNode) {
    s.affinity = {
      nodeAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: {nodeSelectorTerms: [{matchFields: [{key: 'metadata.name', operator: 'In', values: [pod.nodeName]}]}]},
      },
    }
  }
  s.schedulerName = 'default-scheduler'
  if (pod) s.tolerations = pod.tolerations
  else if (p.system) s.tolerations = [{operator: 'Exists'}]
  if (p.system) s.priorityClassName = 'system-node-critical'
  if (pod) {
    s.priority = p.system ? 2000001000 : 0
    s.enableServiceLinks = true
    s.preemptionPolicy = 'PreemptLowerPriority'
  }
  return s
}

/** Keys sorted, as Go's encoding/json writes a map (labels, annotations). Returns `m` itself when already sorted. */
export function sortedMap(m: Record<string, string>): Record<string, string> {
  let previous = ''
  let sorted = true
  for (const k in m) {
    if (k < previous) {
      sorted = false
      break
    }
    previous = k
  }
  if (sorted) return m
  const out: Record<string, string> = {}
  for (const k of Object.keys(m).sort()) out[k] = m[k]
  return out
}

/** A PodTemplateSpec as stored in a Deployment/ReplicaSet/DaemonSet/StatefulSet. */
export function podTemplate(p: AppProfile, rev: TemplateRevision, labels: Record<string, string>): Record<string, unknown> {
  const metadata: Record<string, unknown> = {creationTimestamp: null, labels: sortedMap(labels)}
  if (rev.restartedAt !== undefined) metadata.annotations = {'kubectl.kubernetes.io/restartedAt': rev.restartedAt}
  return {metadata, spec: podSpec(p, rev)}
}
