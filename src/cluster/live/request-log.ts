// kubectl's -v N request log (client-go v0.32.4 transport/round_trippers.go DebugWrappers:72-85 and
// debuggingRoundTripper.RoundTrip:466-591; rest/request.go logBody:1424 and truncateBody:1401), line for line:
//   6  GET URL STATUS in N milliseconds                                         (DebugURLTiming)
//   7  GET URL, Request Headers:, each header, Response Status: STATUS in N ms  (DebugJustURL, RequestHeaders, ResponseStatus)
//   8  7, and Response Headers:, "Request Body" and "Response Body" cut at 1,024 bytes
//   9  a curl command line, the level-6 line, Response Headers:, bodies cut at 10,240 bytes (DebugCurlCommand, ...)
//   10 bodies whole
// Every line in klog's text header (severity, date, time, pid, where) so a log reads as kubectl's; the file named is
// this one. Authorization values are masked exactly as maskValue:442 masks them ("Bearer <masked>"); a proxy's
// credentials are never shown (Go keeps them out of the request's headers, so kubectl never logs them). Bodies are
// what the API server answered: kubectl-why reads Secrets as metadata only, so no Secret data can be among them. The
// lines go to the caller's log, which is the one terminal sanitiser (src/render/terminal-safe.ts via the base command).
import {STATUS_CODES} from 'node:http'

export type LogLine = (line: string) => void

const KNOWN_AUTH_TYPES = new Set(['bearer', 'basic', 'negotiate'])

/** round_trippers.go maskValue:442: the scheme kept when it is a known one, the credential never. */
export function maskValue(key: string, value: string): string {
  if (key.toLowerCase() !== 'authorization') return value
  if (value.length === 0) return ''
  const i = value.indexOf(' ')
  const authType = i > 0 ? value.slice(0, i) : value
  if (!KNOWN_AUTH_TYPES.has(authType.toLowerCase())) return '<masked>'
  return value.length > authType.length + 1 ? `${authType} <masked>` : authType
}

/** klog's text header: Lmmdd hh:mm:ss.uuuuuu threadid file] (local time, as klog writes it); `at` in epoch ms. */
export function klogHeader(at: number, pid: number, where: string): string {
  const d = new Date(Math.floor(at))
  const two = (n: number) => String(n).padStart(2, '0')
  const frac = String(Math.floor((at - Math.floor(at / 1000) * 1000) * 1000)).padStart(6, '0')
  return `I${two(d.getMonth() + 1)}${two(d.getDate())} ${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}.${frac} ${String(pid).padStart(7)} ${where}] `
}

/** Now, in epoch milliseconds with the microseconds klog prints. */
export const klogNow = () => performance.timeOrigin + performance.now()

/** klog's key=value for a string: quoted on one line, or the <\n\t...\n > block when it has a newline. */
function klogValue(s: string): string {
  if (!s.includes('\n')) return JSON.stringify(s)
  const body = s.endsWith('\n') ? s.slice(0, -1) : s
  return `<\n\t${body.split('\n').join('\n\t')}\n >`
}

/** Header names as Go's http.Header holds them (textproto.CanonicalMIMEHeaderKey). */
const canonical = (name: string) => name.toLowerCase().replace(/(^|-)([a-z])/g, (_m, dash: string, c: string) => dash + c.toUpperCase())

/** A header value as text: Node sends header strings as latin1, impersonation values carry UTF-8 bytes that way. */
const shown = (v: string) => Buffer.from(v, 'latin1').toString('utf8')

const statusText = (status: number) => `${status} ${STATUS_CODES[status] ?? ''}`.trimEnd()

/** One request's log, as kubectl writes it at the given level; nothing below 6. */
export class RequestLog {
  private readonly started = performance.now()
  private status = ''
  private headers: Record<string, string> = {}
  private at: number | undefined
  private body: Buffer[] = []
  private kept = 0
  private total = 0

  static for(verbosity: number, log: LogLine | undefined, url: string, headers: Record<string, string | string[]>): RequestLog | undefined {
    return verbosity >= 6 && log ? new RequestLog(verbosity, log, url, headers) : undefined
  }

  private constructor(
    private readonly verbosity: number,
    private readonly log: LogLine,
    private readonly url: string,
    requestHeaders: Record<string, string | string[]>,
  ) {
    const pairs = Object.entries(requestHeaders)
      .filter(([k]) => k.toLowerCase() !== 'proxy-authorization')
      .flatMap(([k, v]) => (Array.isArray(v) ? v : [v]).map((x) => [k, maskValue(k, shown(x))] as const))
    if (verbosity >= 8) this.line(`"Request Body" body=""`)
    if (verbosity >= 9) {
      // toCurl: curl -v -X%s %s '%s', each header as -H %q.
      this.line(`curl -v -XGET ${pairs.map(([k, v]) => ` -H ${JSON.stringify(`${k}: ${v}`)}`).join('')} '${url}'`)
    } else if (verbosity >= 7) {
      this.line(`GET ${url}`)
      this.line('Request Headers:')
      for (const [k, v] of pairs) this.line(`    ${k}: ${v}`)
    }
  }

  /** The status line and headers arrived (where Go's RoundTrip returns). */
  responded(status: number, headers: Record<string, string>): void {
    this.at ??= performance.now()
    this.status = statusText(status)
    this.headers = headers
  }

  /** A piece of the body, kept up to what the level shows. */
  piece(p: Buffer): void {
    if (this.verbosity < 8) return
    const room = this.max - this.kept
    if (room > 0) {
      const part = p.length <= room ? p : p.subarray(0, room)
      this.body.push(part)
      this.kept += part.length
    }
    this.total += p.length
  }

  /** The request ended: answered (`body`, for an answer the client kept whole), or failed before an answer. */
  done(body?: Buffer): void {
    const ms = Math.floor((this.at ?? performance.now()) - this.started)
    if (this.verbosity === 6 || this.verbosity >= 9) this.line(`GET ${this.url} ${this.status} in ${ms} milliseconds`)
    else this.line(`Response Status: ${this.status} in ${ms} milliseconds`)
    if (this.verbosity < 8 || this.at === undefined) return
    this.line('Response Headers:')
    for (const [k, v] of Object.entries(this.headers)) this.line(`    ${canonical(k)}: ${v}`)
    if (body) this.piece(body)
    const text = Buffer.concat(this.body).toString('utf8')
    this.line(`"Response Body" body=${klogValue(this.total > this.max ? `${text} [truncated ${this.total - this.max} chars]` : text)}`)
  }

  /** truncateBody's bound for this level. */
  private get max(): number {
    return this.verbosity >= 10 ? Number.POSITIVE_INFINITY : this.verbosity >= 9 ? 10240 : 1024
  }

  private line(text: string): void {
    this.log(`${klogHeader(klogNow(), process.pid, 'request-log.ts')}${text}`)
  }
}
