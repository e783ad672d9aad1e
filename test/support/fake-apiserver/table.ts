// The server-side Table (Accept: application/json;as=Table;v=v1;g=meta.k8s.io), as kube-apiserver answers
// `kubectl get`: handlers/response.go asTable (kubernetes@fbf1a0dc) converts the list with the resource's
// TableConvertor, which for built-in kinds calls the printers with GenerateOptions{Wide: true} (so every column,
// priority 1 too, has a cell) and then, per includeObject, keeps the row's object whole (Object), as
// PartialObjectMetadata (Metadata, the default) or drops it (None); any other value is a 400.
// Nodes get pkg/printers/internalversion's node printer (printNode: NAME, STATUS, ROLES, AGE, VERSION, then
// INTERNAL-IP, EXTERNAL-IP, OS-IMAGE, KERNEL-VERSION, CONTAINER-RUNTIME). Other kinds' printers are not modelled, so
// this server offers no Table for them (tableServed): a client sees what a server without it answers.
import {listHead, LIST_TAIL, type ListMeta, metadataJson} from './serialize.js'
import type {ServedResource} from './resources.js'
import type {Entry} from './store.js'
import * as status from './status.js'

export type IncludeObject = 'None' | 'Metadata' | 'Object'

interface Column {
  name: string
  type: string
  format: string
  description: string
  priority: number
}
const col = (name: string, description: string, priority = 0, format = ''): Column => ({name, type: 'string', format, description, priority})

const NAME_DOC =
  'Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Name is primarily intended for creation idempotence and configuration definition. Cannot be updated. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names'
const CREATED_DOC =
  'CreationTimestamp is a timestamp representing the server time when this object was created. It is not guaranteed to be set in happens-before order across separate operations. Clients may not set this value. It is represented in RFC3339 form and is in UTC.\n\nPopulated by the system. Read-only. Null for lists. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata'

/** printers.go nodeColumnDefinitions. */
const NODE_COLUMNS: Column[] = [
  col('Name', NAME_DOC, 0, 'name'),
  col('Status', 'The status of the node'),
  col('Roles', 'The roles of the node'),
  col('Age', CREATED_DOC),
  col('Version', 'Kubelet Version reported by the node.'),
  col('Internal-IP', 'List of addresses reachable to the node. Queried from cloud provider, if available.', 1),
  col('External-IP', 'List of addresses reachable to the node. Queried from cloud provider, if available.', 1),
  col('OS-Image', 'OS Image reported by the node from /etc/os-release (e.g. Debian GNU/Linux 7 (wheezy)).', 1),
  col('Kernel-Version', "Kernel Version reported by the node from 'uname -r' (e.g. 3.16.0-0.bpo.4-amd64).", 1),
  col('Container-Runtime', 'Container runtime version reported by the node through runtime remote API (e.g. containerd://1.4.2).', 1),
]

/** apimachinery util/duration HumanDuration, which translateTimestampSince prints an age with. */
export function humanDuration(ms: number): string {
  const seconds = Math.trunc(ms / 1000)
  if (seconds < -1) return '<invalid>'
  if (seconds < 0) return '0s'
  if (seconds < 120) return `${seconds}s`
  const minutes = Math.trunc(ms / 60_000)
  if (minutes < 10) {
    const s = seconds % 60
    return s === 0 ? `${minutes}m` : `${minutes}m${s}s`
  }
  if (minutes < 180) return `${minutes}m`
  const hours = Math.trunc(ms / 3_600_000)
  if (hours < 8) {
    const m = minutes % 60
    return m === 0 ? `${hours}h` : `${hours}h${m}m`
  }
  if (hours < 48) return `${hours}h`
  if (hours < 24 * 8) {
    const h = hours % 24
    return h === 0 ? `${Math.trunc(hours / 24)}d` : `${Math.trunc(hours / 24)}d${h}h`
  }
  if (hours < 24 * 365 * 2) return `${Math.trunc(hours / 24)}d`
  if (hours < 24 * 365 * 8) {
    const dy = Math.trunc(hours / 24) % 365
    return dy === 0 ? `${Math.trunc(hours / 24 / 365)}y` : `${Math.trunc(hours / 24 / 365)}y${dy}d`
  }
  return `${Math.trunc(hours / 24 / 365)}y`
}

const age = (created: unknown, now: number) => (typeof created === 'string' && created ? humanDuration(now - Date.parse(created)) : '<unknown>')

// biome-ignore lint/suspicious/noExplicitAny: a stored object read field by field, as the printer reads the Go struct
type Any = any

/** printNode's cells but AGE (which moves with the clock): computed once per stored entry. */
const nodeCells = new WeakMap<Entry, {cells: unknown[]; created: unknown}>()
function printNode(e: Entry, now: number): unknown[] {
  let c = nodeCells.get(e)
  if (!c) {
    const o = e.object() as Any
    const ready = (o.status?.conditions ?? []).filter((x: Any) => x?.type === 'Ready').pop()
    const st: string[] = []
    if (ready) st.push(ready.status === 'True' ? 'Ready' : 'NotReady')
    if (st.length === 0) st.push('Unknown')
    if (o.spec?.unschedulable) st.push('SchedulingDisabled')
    // findNodeRoles: node-role.kubernetes.io/<role> keys, and kubernetes.io/role=<role>; sorted, unique.
    const roles = new Set<string>()
    for (const [k, v] of Object.entries((o.metadata?.labels ?? {}) as Record<string, string>)) {
      if (k.startsWith('node-role.kubernetes.io/') && k.length > 'node-role.kubernetes.io/'.length) roles.add(k.slice('node-role.kubernetes.io/'.length))
      else if (k === 'kubernetes.io/role' && v !== '') roles.add(v)
    }
    const addr = (type: string) => (o.status?.addresses ?? []).find((a: Any) => a?.type === type)?.address ?? '<none>'
    const info = o.status?.nodeInfo ?? {}
    c = {
      created: o.metadata?.creationTimestamp,
      cells: [
        e.name,
        st.join(','),
        [...roles].sort().join(',') || '<none>',
        info.kubeletVersion ?? '',
        addr('InternalIP'),
        addr('ExternalIP'),
        info.osImage || '<unknown>',
        info.kernelVersion || '<unknown>',
        info.containerRuntimeVersion || '<unknown>',
      ],
    }
    nodeCells.set(e, c)
  }
  const [name, st, roles, ...rest] = c.cells
  return [name, st, roles, age(c.created, now), ...rest]
}

/** The kinds whose Table this server serves: Nodes (printNode). */
export function tableServed(type: ServedResource): boolean {
  return type.kind === 'Node' && type.group === ''
}

/** includeObject as the query gives it (TableOptions; unset means Metadata). */
export function includeObjectOf(raw: string | null): IncludeObject {
  if (raw === null || raw === '' || raw === 'Metadata') return 'Metadata'
  if (raw === 'None' || raw === 'Object') return raw
  throw status.badRequest(`unrecognized includeObject value: ${JSON.stringify(raw)}`)
}

/** The Table of a list, whole (the entries are few enough in every test and bench here). */
export function tableJson(
  type: ServedResource,
  entries: readonly Entry[],
  meta: ListMeta,
  version: string,
  include: IncludeObject,
  objectJson: (e: Entry) => string,
  now = Date.now(),
): string {
  if (!tableServed(type)) throw new Error(`no Table printer for ${type.kind}`)
  const head = listHead('Table', `meta.k8s.io/${version}`, meta)
  // Table's JSON: kind, apiVersion, metadata (ListMeta), columnDefinitions, rows (metav1.Table field order).
  const start = `${head.slice(0, -',"items":['.length)},"columnDefinitions":${JSON.stringify(NODE_COLUMNS)},"rows":[`
  const rows = entries.map((e) => {
    const cells = JSON.stringify(printNode(e, now))
    const object = include === 'None' ? 'null' : include === 'Metadata' ? metadataJson(e, version) : objectJson(e)
    return `{"cells":${cells},"object":${object}}`
  })
  return `${start}${rows.join(',')}${LIST_TAIL}`
}
