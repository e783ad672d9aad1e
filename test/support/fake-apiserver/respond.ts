// Writing responses: JSON bodies with the headers kube-apiserver sends, Status errors (with
// Retry-After when the Status carries retryAfterSeconds, as responsewriters.ErrorNegotiated does),
// and large lists streamed in chunks with backpressure so 150,000 objects never sit in one string.
import {once} from 'node:events'
import type {ServerResponse} from 'node:http'
import type {Status} from './status.js'

const CHUNK = 64 * 1024

export function sendJson(res: ServerResponse, code: number, body: string, contentType = 'application/json'): void {
  if (res.destroyed) return
  res.writeHead(code, {'Content-Type': contentType, 'Content-Length': Buffer.byteLength(body)})
  res.end(body)
}

export function sendStatus(res: ServerResponse, status: Status): void {
  if (res.destroyed) return
  const retry = status.details?.retryAfterSeconds
  if (retry) res.setHeader('Retry-After', String(retry))
  sendJson(res, status.code, `${JSON.stringify(status)}\n`)
}

export function sendText(res: ServerResponse, code: number, text: string, headers: Record<string, string> = {}): void {
  if (res.destroyed) return
  res.writeHead(code, {'Content-Type': 'text/plain; charset=utf-8', 'X-Content-Type-Options': 'nosniff', ...headers, 'Content-Length': Buffer.byteLength(text)})
  res.end(text)
}

/** Waits for the socket to take more, or for the client to go away (then false). */
async function drained(res: ServerResponse): Promise<boolean> {
  if (res.destroyed) return false
  const ac = new AbortController()
  try {
    await Promise.race([once(res, 'drain', {signal: ac.signal}), once(res, 'close', {signal: ac.signal})])
  } finally {
    ac.abort()
  }
  return !res.destroyed
}

/** head + items joined by commas + tail, written as it is produced. */
export async function streamList<T>(res: ServerResponse, head: string, items: readonly T[], render: (item: T) => string, tail: string): Promise<void> {
  if (res.destroyed) return
  if (items.length <= 64) {
    sendJson(res, 200, head + items.map(render).join(',') + tail)
    return
  }
  res.writeHead(200, {'Content-Type': 'application/json'})
  let buf = head
  for (let i = 0; i < items.length; i++) {
    buf += i === 0 ? render(items[i]) : `,${render(items[i])}`
    if (buf.length >= CHUNK) {
      const more = res.write(buf)
      buf = ''
      if (!more && !(await drained(res))) return
    }
  }
  res.end(buf + tail)
}
