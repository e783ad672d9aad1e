// The ReplicaSet controller's deletion ranking as a table, with the rule that decided each pod's place highlighted;
// and a workload's revision history as a line of ReplicaSets / ControllerRevisions with their hashes, the new (or
// current) one marked and why.
import {h, type Html} from './h.js'

interface RankedPod {
  name: string
  node?: string
  phase?: string
  ready?: boolean
  created?: string
  deletionCost?: number
  position?: number
  chosen?: boolean
  rank?: number
  beforeNext?: {rule?: number; name?: string; detail?: string}
}

export function deleteOrderOf(e: Record<string, unknown>): RankedPod[] | undefined {
  const rs = e.replicaSet as {manage?: {deleteOrder?: RankedPod[]}} | undefined
  return Array.isArray(rs?.manage?.deleteOrder) ? rs.manage.deleteOrder : undefined
}

export function renderRanking(pods: readonly RankedPod[]): Html {
  // Names and times are never broken mid-token (the table scrolls in its own box when the page is narrower).
  return h(
    'div',
    {class: 'table-wrap'},
    h(
      'table',
      {class: 'ranking'},
      h('caption', null, 'Pods in the order the controller deletes them (getPodsToDelete); the highlighted cell is the rule that put each before the next.'),
      h(
        'thead',
        null,
        h(
          'tr',
          null,
          ['#', 'pod', 'node', 'phase', 'ready', 'deletion cost', 'co-located rank', 'created', 'deleted?', 'before the next because'].map((c) =>
            h('th', {scope: 'col'}, c),
          ),
        ),
      ),
      h(
        'tbody',
        null,
        pods.map((p) => {
          const rule = p.beforeNext?.rule
          const cell = (ruleNo: number | number[], text: unknown) =>
            h('td', (Array.isArray(ruleNo) ? ruleNo : [ruleNo]).includes(rule ?? -1) ? {class: 'decides'} : null, text === undefined ? '—' : String(text))
          return h(
            'tr',
            {'data-pod': p.name, ...(p.chosen ? {class: 'chosen'} : {})},
            h('td', null, String(p.position ?? '')),
            h('td', {class: 'token'}, p.name),
            cell(5, p.node),
            cell(2, p.phase),
            cell(3, p.ready === undefined ? undefined : p.ready ? 'yes' : 'no'),
            cell(4, p.deletionCost),
            cell(5, p.rank),
            h('td', {class: `token${[6, 7, 8].includes(rule ?? -1) ? ' decides' : ''}`}, p.created === undefined ? '—' : String(p.created)),
            h('td', null, p.chosen ? 'deleted' : 'kept'),
            h('td', null, p.beforeNext ? `rule ${p.beforeNext.rule}: ${p.beforeNext.name}${p.beforeNext.detail ? ` (${p.beforeNext.detail})` : ''}` : '—'),
          )
        }),
      ),
    ),
  )
}

interface Revision {
  name: string
  role?: string
  current?: boolean
  revision?: string | number
  createdAt?: string
  label?: {label?: string; recomputed?: string; result?: string; why?: string}
}

export function revisionsOf(e: Record<string, unknown>): {revisions: Revision[]; computed?: {hash?: string; name?: string}; newName?: string} | undefined {
  const d = (e.deployment ?? e.daemonSet ?? e.statefulSet) as
    | {
        replicaSets?: Revision[]
        revisions?: Revision[]
        computed?: {hash?: string; name?: string}
        newReplicaSet?: string
        currentRevision?: string
        updateRevision?: string
      }
    | undefined
  const revisions = d?.replicaSets ?? d?.revisions
  if (!Array.isArray(revisions)) return undefined
  return {revisions, computed: d?.computed, newName: d?.newReplicaSet ?? d?.updateRevision ?? d?.currentRevision}
}

export function renderRevisionLine(input: NonNullable<ReturnType<typeof revisionsOf>>): Html {
  const sorted = [...input.revisions].sort((a, b) => Number(a.revision ?? 0) - Number(b.revision ?? 0))
  return h(
    'div',
    {class: 'revisions'},
    h(
      'ol',
      {class: 'revision-line'},
      sorted.map((r) => {
        const isNew = r.name === input.newName || r.role === 'new' || r.current === true
        return h(
          'li',
          {class: isNew ? 'rev new' : 'rev', 'data-revision': r.name, title: r.label?.why ?? ''},
          h('strong', null, r.name),
          h('br', null),
          `revision ${r.revision ?? '?'}`,
          h('br', null),
          `hash ${r.label?.label ?? '—'}${r.label?.result ? ` (${r.label.result})` : ''}`,
          isNew ? h('span', {class: 'tag'}, ' new/current') : '',
        )
      }),
    ),
    input.computed?.hash
      ? h('p', {class: 'muted'}, `This version's controller computes ${input.computed.hash} (${input.computed.name ?? ''}) for the current template.`)
      : '',
  )
}
