// The zone map of a node lifecycle replay: each zone a group of its nodes coloured by verdict (with the shape and
// word of the severity), the zone's state and eviction rate; master disruption and the lease circuit breaker once,
// at the top, when they apply.
import type {Severity} from '../../explanation.js'
import {h, type Html} from './h.js'
import {isSeverity, SEVERITY_LOOK, severityBadge} from './severity.js'

interface ZoneRow {
  name: string
  state?: string
  counted?: number
  ready?: number
  notReady?: number
  rate?: number
  rateWhy?: string
}

interface NodeRow {
  name: string
  zone?: string
  verdict?: string
  severity?: string
  summary?: string
}

export interface ZoneMapInput {
  zones: ZoneRow[]
  nodes: NodeRow[]
  masterDisruption?: unknown
  masterDisruptionChange?: unknown
  circuitBreaker?: {open?: unknown; gate?: unknown}
}

export function hasZoneMap(e: Record<string, unknown>): e is Record<string, unknown> & ZoneMapInput {
  return Array.isArray(e.zones) && Array.isArray(e.nodes)
}

export function renderZoneMap(input: ZoneMapInput): Html {
  const banners: Html[] = []
  if (input.masterDisruption === true) {
    banners.push(
      h(
        'p',
        {class: 'banner sev-critical', 'data-banner': 'masterDisruption'},
        severityBadge('critical'),
        input.masterDisruptionChange === 'entered'
          ? ' Master disruption entered in this pass: every zone is fully disrupted — the controller takes the NoExecute taints off every node now and stops tainting everywhere.'
          : ' Master disruption: every zone is fully disrupted — the controller stops NoExecute tainting everywhere.',
      ),
    )
  }
  if (input.circuitBreaker?.open === true) {
    banners.push(
      h(
        'p',
        {class: 'banner sev-warning', 'data-banner': 'circuitBreaker'},
        severityBadge('warning'),
        ' The lease-cache circuit breaker is open: stale cached Leases are not acted on.',
      ),
    )
  }
  const byZone = new Map<string, NodeRow[]>()
  for (const n of input.nodes) {
    const z = n.zone ?? ''
    byZone.set(z, [...(byZone.get(z) ?? []), n])
  }
  // Problem zones first: the disrupted states, then by their worst node; the input's order breaks ties (a stable sort).
  const STATE_RANK: Record<string, number> = {FullDisruption: 2, PartialDisruption: 1}
  const SEV_RANK: Record<string, number> = {critical: 3, warning: 2, info: 1}
  const worst = (z: ZoneRow) => Math.max(0, ...(byZone.get(z.name) ?? []).map((n) => SEV_RANK[n.severity ?? ''] ?? 0))
  const zones: ZoneRow[] = [...(input.zones.length > 0 ? input.zones : [...byZone.keys()].map((name): ZoneRow => ({name})))].sort(
    (a, b) => (STATE_RANK[b.state ?? ''] ?? 0) - (STATE_RANK[a.state ?? ''] ?? 0) || worst(b) - worst(a),
  )
  const groups = zones.map((z) => {
    const nodes = byZone.get(z.name) ?? []
    const rate = typeof z.rate === 'number' ? `${z.rate}/s` : undefined
    return h(
      'section',
      {class: 'zone', 'data-zone': z.name, 'data-state': z.state},
      h('h4', null, z.name || '(no zone)', ' ', z.state ? h('span', {class: `zone-state state-${z.state}`}, z.state) : ''),
      h(
        'p',
        {class: 'muted'},
        [
          typeof z.counted === 'number' ? `${z.counted} counted` : '',
          typeof z.notReady === 'number' ? `${z.notReady} not ready` : '',
          rate ? `eviction rate ${rate}` : '',
        ]
          .filter(Boolean)
          .join(' · '),
      ),
      h(
        'ul',
        {class: 'nodes'},
        nodes.map((n) => {
          const s: Severity = isSeverity(n.severity) ? n.severity : 'none'
          const look = SEVERITY_LOOK[s]
          return h(
            'li',
            {class: `node ${look.css}`, 'data-node': n.name, 'data-verdict': n.verdict, title: n.summary ?? n.verdict},
            h('span', {'aria-hidden': 'true'}, look.shape),
            ' ',
            n.name,
            h('span', {class: 'verdict'}, ` ${n.verdict ?? ''}`),
          )
        }),
      ),
    )
  })
  return h('div', {class: 'zone-map'}, banners, h('div', {class: 'zones'}, groups))
}
