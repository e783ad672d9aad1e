// Accept-header negotiation, as k8s.io/apiserver/pkg/endpoints/handlers/negotiation does it for
// the cases a reader needs: the first acceptable media type in the header wins (clients list
// fallbacks after it, e.g. "...;as=Table;...,application/json"), and an `as=` conversion is only
// acceptable when the server knows that target.

export type Target =
  | {kind: 'object'}
  | {kind: 'PartialObjectMetadata' | 'PartialObjectMetadataList' | 'Table'; version: 'v1' | 'v1beta1'}
  | {kind: 'APIGroupDiscoveryList'; version: 'v2' | 'v2beta1'}

export interface MediaRange {
  type: string
  params: Record<string, string>
}

export function parseAccept(header: string | undefined): MediaRange[] {
  if (!header) return []
  return header
    .split(',')
    .map((part) => {
      const [type, ...rest] = part.split(';').map((s) => s.trim())
      const params: Record<string, string> = {}
      for (const p of rest) {
        const eq = p.indexOf('=')
        if (eq > 0)
          params[p.slice(0, eq).trim().toLowerCase()] = p
            .slice(eq + 1)
            .trim()
            .replace(/^"(.*)"$/, '$1')
      }
      return {type: (type ?? '').toLowerCase(), params}
    })
    .filter((m) => m.type !== '')
}

const JSONISH = new Set(['application/json', 'application/*', '*/*'])

/** Which media types the server would accept, for the NotAcceptable message (negotiation.NewNotAcceptableError). */
export const ACCEPTED_MEDIA_TYPES = 'only the following media types are accepted: application/json, application/yaml, application/vnd.kubernetes.protobuf'

/**
 * The first acceptable target in the header, or undefined when none is (406). An empty header
 * means plain JSON. `discovery` says whether the endpoint is /api or /apis (the only ones that
 * serve APIGroupDiscoveryList); `tables` whether Table conversion is offered.
 */
export function negotiate(header: string | undefined, opts: {discovery?: boolean; tables?: boolean} = {}): Target | undefined {
  const ranges = parseAccept(header)
  if (ranges.length === 0) return {kind: 'object'}
  for (const {type, params} of ranges) {
    if (!JSONISH.has(type)) continue // protobuf, yaml, cbor: not served here; a client lists JSON as its fallback
    const as = params.as
    if (as === undefined) return {kind: 'object'}
    const g = params.g
    const v = params.v
    if (g === 'meta.k8s.io' && (v === 'v1' || v === 'v1beta1')) {
      if (as === 'PartialObjectMetadata' || as === 'PartialObjectMetadataList') return {kind: as, version: v}
      if (as === 'Table' && opts.tables) return {kind: 'Table', version: v}
    }
    if (opts.discovery && as === 'APIGroupDiscoveryList' && g === 'apidiscovery.k8s.io' && (v === 'v2' || v === 'v2beta1')) {
      return {kind: 'APIGroupDiscoveryList', version: v}
    }
  }
  return undefined
}
