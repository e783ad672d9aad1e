// The ownership graph of a garbage collector replay, laid out left to right: owners, the object, its dependents
// level by level. Each edge is labelled with the collector's classification (solid, dangling, waiting) and
// blockOwnerDeletion; each box carries its verdict and finalizers. A level with many boxes collapses by kind and
// verdict, with counts, so a Deployment with 400 pods stays readable.
import {h, type Html} from './h.js'

interface TreeNode {
  subject: {kind: string; namespace?: string; name: string}
  verdict?: string
  finalizers?: string[]
  deleting?: boolean
  exists?: boolean
  edge?: {classification?: string; blockOwnerDeletion?: boolean; controller?: boolean}
  children?: TreeNode[]
}

export interface GcTree {
  owners: TreeNode[]
  object: TreeNode
}

export function hasTree(e: Record<string, unknown>): e is Record<string, unknown> & {tree: GcTree} {
  const t = e.tree as GcTree | undefined
  return typeof t === 'object' && t !== null && typeof t.object === 'object'
}

interface Box {
  id: string
  title: string
  lines: string[]
  verdict?: string
  count?: number
  parent?: string
  edge?: string
  level: number
}

const COLLAPSE_ABOVE = 12
const MIN_BOX_W = 210
/** Past this a box's text wraps (at spaces) instead of widening the box. */
const MAX_BOX_W = 460
/** Widths of an 11 px system-ui character, generous so that no text outruns its box (bold titles are wider). */
const CHAR_W = 6.6
const TITLE_CHAR_W = 7.4
const LINE_H = 14
const GAP_X = 170
const GAP_Y = 14

function edgeLabel(e: TreeNode['edge']): string {
  if (!e) return ''
  return [e.classification ?? '', e.blockOwnerDeletion ? 'blockOwnerDeletion' : ''].filter(Boolean).join(' · ')
}

function boxOf(n: TreeNode, id: string, level: number, parent?: string): Box {
  const fin = n.finalizers && n.finalizers.length > 0 ? `finalizers: ${n.finalizers.join(', ')}` : ''
  const state = n.exists === false ? 'absent' : n.deleting ? 'being deleted' : ''
  return {
    id,
    level,
    parent,
    title: `${n.subject.kind} ${n.subject.namespace ? `${n.subject.namespace}/` : ''}${n.subject.name}`,
    lines: [n.verdict ?? '', [state, fin].filter(Boolean).join(' · ')].filter(Boolean),
    verdict: n.verdict,
    edge: edgeLabel(n.edge),
  }
}

/** Boxes per level; a crowded level becomes one box per (kind, verdict, edge) with a count. */
function levels(tree: GcTree): Box[][] {
  const out: Box[][] = [tree.owners.map((o, i) => ({...boxOf(o, `owner-${i}`, 0), edge: edgeLabel(o.edge)})), [boxOf(tree.object, 'object', 1)]]
  let frontier: {node: TreeNode; id: string}[] = [{node: tree.object, id: 'object'}]
  for (let level = 2; frontier.length > 0; level++) {
    const next: {node: TreeNode; id: string}[] = []
    const boxes: Box[] = []
    const children = frontier.flatMap((f) => (f.node.children ?? []).map((c, i) => ({c, parent: f.id, id: `${f.id}.${i}`})))
    if (children.length === 0) break
    if (children.length > COLLAPSE_ABOVE) {
      const groups = new Map<string, Box>()
      for (const {c, parent} of children) {
        const key = `${parent}|${c.subject.kind}|${c.verdict}|${edgeLabel(c.edge)}`
        const g = groups.get(key)
        if (g) g.count! += 1
        else
          groups.set(key, {
            id: `group-${level}-${groups.size}`,
            level,
            parent,
            title: c.subject.kind,
            lines: [c.verdict ?? ''],
            verdict: c.verdict,
            edge: edgeLabel(c.edge),
            count: 1,
          })
      }
      for (const g of groups.values()) {
        g.title = `${g.count} × ${g.title}`
        boxes.push(g)
      }
    } else {
      for (const {c, parent, id} of children) {
        boxes.push(boxOf(c, id, level, parent))
        next.push({node: c, id})
      }
    }
    out.push(boxes)
    frontier = next
  }
  return out.filter((l) => l.length > 0)
}

/** Text cut at spaces into lines of at most `max` characters (a word longer than that stands alone, whole). */
function wrapText(text: string, max: number): string[] {
  const out: string[] = []
  let line = ''
  for (const word of text.split(' ')) {
    if (line && line.length + 1 + word.length > max) {
      out.push(line)
      line = word
    } else line = line ? `${line} ${word}` : word
  }
  if (line) out.push(line)
  return out
}

export function renderOwnershipGraph(tree: GcTree): Html {
  const cols = levels(tree)
  // Every name is drawn whole (the names are the answer): boxes as wide as their longest text, up to MAX_BOX_W,
  // past which text wraps and the boxes grow taller.
  const all = cols.flat()
  const BOX_W = Math.ceil(
    Math.min(MAX_BOX_W, Math.max(MIN_BOX_W, ...all.map((b) => Math.max(b.title.length * TITLE_CHAR_W, ...b.lines.map((l) => l.length * CHAR_W)) + 16))),
  )
  const wrapped = new Map(
    all.map((b) => [
      b.id,
      {title: wrapText(b.title, Math.floor((BOX_W - 16) / TITLE_CHAR_W)), lines: b.lines.flatMap((l) => wrapText(l, Math.floor((BOX_W - 16) / CHAR_W)))},
    ]),
  )
  const BOX_H = Math.max(58, ...[...wrapped.values()].map((w) => 12 + (w.title.length + w.lines.length) * LINE_H + 4))
  const pos = new Map<string, {x: number; y: number}>()
  const height = Math.max(...cols.map((c) => c.length)) * (BOX_H + GAP_Y) + GAP_Y
  cols.forEach((col, ci) => {
    const colHeight = col.length * (BOX_H + GAP_Y) - GAP_Y
    col.forEach((b, i) => {
      pos.set(b.id, {x: 10 + ci * (BOX_W + GAP_X), y: (height - colHeight) / 2 + i * (BOX_H + GAP_Y)})
    })
  })
  const width = 20 + cols.length * (BOX_W + GAP_X) - GAP_X
  const edges: Html[] = []
  const objectPos = pos.get('object')!
  for (const col of cols) {
    for (const b of col) {
      const p = pos.get(b.id)!
      // Owners point at the object; dependents hang off their parent.
      const from = b.id.startsWith('owner-') ? p : pos.get(b.parent ?? '')
      const to = b.id.startsWith('owner-') ? objectPos : p
      if (!from || from === to) continue
      const x1 = from.x + BOX_W
      const y1 = from.y + BOX_H / 2
      const x2 = to.x
      const y2 = to.y + BOX_H / 2
      const cls = /dangling/.test(b.edge ?? '') ? 'edge dangling' : /waiting/i.test(b.edge ?? '') ? 'edge waiting' : 'edge'
      edges.push(
        h(
          'g',
          {class: cls, 'data-edge': b.edge ?? ''},
          h('path', {d: `M${x1},${y1} C${x1 + GAP_X / 2},${y1} ${x2 - GAP_X / 2},${y2} ${x2},${y2}`, 'marker-end': 'url(#arrow)'}),
          // Every line of the label above the curve's midpoint, haloed in the background colour: never across its line.
          (b.edge ?? '')
            .split(' · ')
            .filter(Boolean)
            .map((part, i, parts) =>
              h('text', {x: (x1 + x2) / 2, y: (y1 + y2) / 2 - 8 - (parts.length - 1 - i) * 13, 'text-anchor': 'middle', class: 'edge-label'}, part),
            ),
        ),
      )
    }
  }
  const boxes = cols.flat().map((b) => {
    const p = pos.get(b.id)!
    return h(
      'g',
      {class: `box${b.id === 'object' ? ' subject' : ''}`, 'data-node': b.title, 'data-verdict': b.verdict, ...(b.count ? {'data-count': b.count} : {})},
      h('title', null, [b.title, ...b.lines].join('\n')),
      h('rect', {x: p.x, y: p.y, width: BOX_W, height: BOX_H, rx: 6}),
      wrapped.get(b.id)!.title.map((t, i) => h('text', {x: p.x + 8, y: p.y + 18 + i * LINE_H, class: 'box-title'}, t)),
      wrapped.get(b.id)!.lines.map((l, i) => h('text', {x: p.x + 8, y: p.y + 18 + (wrapped.get(b.id)!.title.length + i) * LINE_H + 2, class: 'box-line'}, l)),
    )
  })
  return h(
    'svg',
    {
      class: 'graph',
      viewBox: `0 0 ${width} ${height}`,
      width,
      height,
      role: 'img',
      'aria-label': `ownership graph of ${tree.object.subject.kind} ${tree.object.subject.name}`,
    },
    h(
      'defs',
      null,
      h(
        'marker',
        {id: 'arrow', viewBox: '0 0 10 10', refX: 10, refY: 5, markerWidth: 7, markerHeight: 7, orient: 'auto-start-reverse'},
        h('path', {d: 'M0,0 L10,5 L0,10 z'}),
      ),
    ),
    edges,
    boxes,
  )
}
