// Fault injection: answers a test makes the server give, each shaped like the real component that
// gives it. A 429 by default is what the priority-and-fairness (and max-in-flight) filter writes:
// plain text "Too many requests, please try again later.", not a Status (server/filters
// tooManyRequests); `body: 'status'` gives errors.NewTooManyRequests' Status form instead.
import {CONTINUE_EXPIRED, decodeContinue, encodeContinue, INCONSISTENT_CONTINUE, LIST_EXPIRED} from './pagination.js'
import type {RequestInfo} from './router.js'
import * as status from './status.js'

export interface InjectOptions {
  /** Only requests with this method (default: any). */
  method?: string
  /** A string matches the path exactly; a RegExp is tested against it. The path never includes the query string. */
  path: string | RegExp
  /** A further condition on the query parameters (e.g. only requests carrying `continue`). */
  when?: (query: Record<string, string>) => boolean
  /** The HTTP status to answer with; absent or 2xx: only delay (delayMs), then serve normally. */
  status?: number
  /** How many matching requests get it (default 1; Infinity for all). */
  times?: number
  /** Retry-After in seconds: for 429 (default 1), and on 503/504/500 when given. */
  retryAfterSeconds?: number
  /** Overrides the Status message. */
  message?: string
  /** Wait this long before answering (a slow server, for timeout tests). */
  delayMs?: number
  /** 429 only: 'text' (default, what APF writes) or 'status' (a TooManyRequests Status). */
  body?: 'text' | 'status'
}

export interface ForbidOptions {
  resource: string
  /** API group; "" (core) by default. */
  group?: string
  /** Only in this namespace; absent: at every scope. */
  namespace?: string
  /** Only these verbs (get, list, watch); absent: all. */
  verbs?: string[]
}

/** A rule a test can lift, and count. */
export interface Fault {
  /** Requests it has answered so far. */
  readonly hits: number
  lift(): void
}

export interface Rule<T> {
  options: T
  hits: number
  remaining: number
  lifted: boolean
}

export class Faults {
  private injected: Rule<InjectOptions>[] = []
  private forbidden: Rule<ForbidOptions>[] = []

  inject(options: InjectOptions): Fault {
    return this.handle(this.injected, {options, hits: 0, remaining: options.times ?? 1, lifted: false})
  }

  forbid(options: ForbidOptions): Fault {
    return this.handle(this.forbidden, {options, hits: 0, remaining: Infinity, lifted: false})
  }

  clear(): void {
    for (const r of [...this.injected, ...this.forbidden]) r.lifted = true
    this.injected = []
    this.forbidden = []
  }

  private handle<T>(list: Rule<T>[], rule: Rule<T>): Fault {
    list.push(rule)
    return {
      get hits() {
        return rule.hits
      },
      lift: () => {
        rule.lifted = true
        const i = list.indexOf(rule)
        if (i !== -1) list.splice(i, 1)
      },
    }
  }

  /** The first live injected rule matching this request, consumed by one. */
  takeInjected(method: string, path: string, query: Record<string, string>): InjectOptions | undefined {
    for (const r of this.injected) {
      if (r.lifted || r.remaining <= 0) continue
      const o = r.options
      if (o.method && o.method.toUpperCase() !== method) continue
      if (typeof o.path === 'string' ? o.path !== path : !o.path.test(path)) continue
      if (o.when && !o.when(query)) continue
      r.remaining--
      r.hits++
      return o
    }
    return undefined
  }

  isForbidden(info: RequestInfo): boolean {
    for (const r of this.forbidden) {
      const o = r.options
      if (o.resource !== info.resource || (o.group ?? '') !== info.group) continue
      if (o.namespace !== undefined && o.namespace !== info.namespace) continue
      if (o.verbs && !o.verbs.includes(info.verb)) continue
      r.hits++
      return true
    }
    return false
  }
}

/** responsewriters.forbiddenMessage: what RBAC's denial reads like. */
export function forbiddenMessage(user: string, info: RequestInfo): string {
  const resource = info.subresource ? `${info.resource}/${info.subresource}` : info.resource
  const scope = info.namespace ? `in the namespace ${status.quote(info.namespace)}` : 'at the cluster scope'
  return `User ${status.quote(user)} cannot ${info.verb} resource ${status.quote(resource)} in API group ${status.quote(info.group)} ${scope}`
}

export function forbiddenError(user: string, info: RequestInfo): status.StatusError {
  return status.forbidden({group: info.group, resource: info.resource}, info.name ?? '', forbiddenMessage(user, info))
}

/**
 * The Status an injected code stands for, about the resource the request named when it named one.
 * A 410 on a request carrying a continue token is what etcd compaction gives (storage/etcd3/errors.go):
 * the inconsistent-continue message, with a token at revision -1 to go on from the same key.
 */
export function injectedError(o: InjectOptions, info: RequestInfo | undefined, user: string, query: Record<string, string> = {}): status.StatusError {
  const gr = {group: info?.group ?? '', resource: info?.resource ?? ''}
  const name = info?.name ?? ''
  const msg = o.message
  switch (o.status) {
    case 400:
      return status.badRequest(msg ?? 'bad request')
    case 401:
      return status.unauthorized()
    case 403:
      return info?.resource ? (msg ? status.forbidden(gr, name, msg) : forbiddenError(user, info)) : status.generic(403, msg ?? 'forbidden')
    case 404:
      return info?.resource && name ? status.notFound(gr, name) : status.noSuchResource()
    case 405:
      return status.methodNotSupported(gr, info?.verb ?? 'get')
    case 409:
      return status.conflict(gr, name, msg)
    case 410: {
      if (query.continue && !msg) {
        let start: string | undefined
        try {
          start = decodeContinue(query.continue).start
        } catch {
          // not one of ours: no token to offer
        }
        return status.resourceExpired(
          start === undefined ? CONTINUE_EXPIRED : INCONSISTENT_CONTINUE,
          start === undefined ? undefined : encodeContinue(start, -1),
        )
      }
      return status.resourceExpired(msg ?? LIST_EXPIRED)
    }
    case 429:
      return status.tooManyRequests(msg ?? 'Too many requests, please try again later.', o.retryAfterSeconds ?? 1)
    case 500: {
      const e = status.internalError(msg ?? 'an error on the server ("injected by fake-apiserver") has prevented the request from succeeding')
      if (o.retryAfterSeconds) e.status.details = {...e.status.details, retryAfterSeconds: o.retryAfterSeconds}
      return e
    }
    case 503: {
      const e = status.serviceUnavailable(msg ?? 'the server is currently unable to handle the request')
      if (o.retryAfterSeconds) e.status.details = {retryAfterSeconds: o.retryAfterSeconds}
      return e
    }
    case 504:
      return status.timeout(msg ?? 'request did not complete within the allowed duration', o.retryAfterSeconds ?? 0)
    default:
      return status.generic(o.status ?? 500, msg ?? `injected error ${o.status}`)
  }
}
