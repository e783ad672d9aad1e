// A stream of JSON documents read a piece at a time: one document, several one after another (what
// `kubectl cluster-info dump` prints, or `kubectl get -o json` run several times into one file), with the
// container-log blocks cluster-info dump puts between them skipped. The members of a top-level object are
// taken one by one, and the elements of its `items` array each on its own, so a List of any size never sits
// in memory as one string: each element is sliced out of the bytes and parsed alone (JSON.parse, or the
// exact parser when it holds an integer beyond 2^53 — src/util/json.ts). Any line layout is fine.
import {isUtf8} from 'node:buffer'
import {UserError} from '../../errors.js'
import {exactJson, inspectParsed, PARSED_ROUNDED, PARSED_TOO_DEEP, LONG_INTEGER, parseJson} from '../../util/json.js'

export interface JsonStreamSink {
  /** The members of a top-level object seen before its `items` array (kind, apiVersion, kubectlWhy...). */
  listStart(envelope: Record<string, unknown>, where: string): void
  /** One element of a top-level object's `items` array (`index` from 0), or of a bare top-level array. */
  item(value: unknown, where: string, index: number): void
  /** The end of a top-level object: every member but `items`, and whether it had an `items` array. */
  documentEnd(envelope: unknown, hadItems: boolean, where: string): void
  /** A block of container logs (cluster-info dump), skipped. */
  logs?(header: string): void
}

const C = {Quote: 0x22, Comma: 0x2c, Colon: 0x3a, LBrace: 0x7b, RBrace: 0x7d, LBracket: 0x5b, RBracket: 0x5d, Backslash: 0x5c, NewLine: 0x0a} as const

/**
 * An input up to this size is parsed whole when it is one JSON value (readWholeDocument); a larger one is scanned
 * as it arrives, so that a List of any size is never one string and its items are kept only as the sink keeps them.
 */
const WHOLE_MAX = 8 << 20

type State = 'top' | 'key' | 'colon' | 'value' | 'afterValue' | 'element' | 'afterElement' | 'logs' | 'text'

const LOG_START = /^==== START logs for container (.*) ====\s*$/
const LOG_END = /==== END logs for container .* ====\s*$/

function isSpace(b: number): boolean {
  return b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09
}

/** A JSON scalar or structure from its text; a bare integer beyond 2^53 stays exact. */
function parseValue(text: string, where: string): unknown {
  if (/^-?\d{16,}$/.test(text)) {
    const n = Number(text)
    return Number.isSafeInteger(n) ? n : BigInt(text)
  }
  return parseJson(text, where)
}

export class JsonStreamReader {
  private buf: Buffer = Buffer.alloc(0)
  /** Absolute offset of buf[0] and the line it is on (1-based). */
  private base = 0
  private baseLine = 1
  private baseColumn = 1
  private pos = 0
  private state: State = 'top'
  private envelope: Record<string, unknown> = {}
  private key = ''
  private hadItems = false
  /** Bare top-level array: elements are items. */
  private bareArray = false
  private index = 0
  private docs = 0
  // Resumable value scan.
  private valueStart = -1
  private depth = 0
  private scanPos = 0
  private inString = false
  /** Absolute offset up to which lineElement has looked for newlines. */
  private lineSearched = 0
  /** The input's first pieces, while they add up to no more than wholeMax bytes. */
  private held: Buffer[] | undefined = []
  private heldBytes = 0

  constructor(
    private readonly sink: JsonStreamSink,
    private readonly where: string,
    /** Inputs up to this many bytes are parsed whole when they can be (readWholeDocument); 0 scans every input. */
    private readonly wholeMax = WHOLE_MAX,
  ) {}

  /** Documents completed so far. */
  get documents(): number {
    return this.docs
  }

  push(chunk: Buffer): void {
    // The first wholeMax bytes wait: if they are the whole input, end() reads them in one go.
    if (this.held !== undefined && this.heldBytes + chunk.length <= this.wholeMax) {
      this.held.push(chunk)
      this.heldBytes += chunk.length
      return
    }
    this.release()
    this.append(chunk)
  }

  end(): void {
    if (this.held !== undefined) {
      const whole = this.held.length === 1 ? this.held[0] : Buffer.concat(this.held)
      this.held = undefined
      if (readWholeDocument(whole, this.sink, this.where)) {
        this.docs = 1
        return
      }
      this.append(whole)
    }
    this.run(true)
    if (this.state !== 'top' && this.state !== 'logs' && this.state !== 'text') this.fail(this.base + this.buf.length, 'the input ends (truncated?)')
  }

  /** The pieces held back go to the scan: the input is larger than wholeMax. */
  private release(): void {
    if (this.held === undefined) return
    const held = this.held
    this.held = undefined
    for (const piece of held) this.append(piece)
  }

  private append(chunk: Buffer): void {
    this.compact()
    this.buf = this.buf.length === 0 ? chunk : Buffer.concat([this.buf, chunk])
    this.run(false)
  }

  /** Drops what has been consumed, keeping the line and column of the buffer's start. */
  private compact(): void {
    const keep = this.valueStart === -1 ? this.pos : this.valueStart
    if (keep === 0) return
    const lastNl = this.buf.lastIndexOf(C.NewLine, keep - 1)
    this.baseLine += countLines(this.buf, 0, keep)
    this.baseColumn = lastNl === -1 ? this.baseColumn + keep : keep - lastNl
    this.base += keep
    this.buf = this.buf.subarray(keep)
    this.pos -= keep
    if (this.valueStart !== -1) {
      this.scanPos -= keep
      this.valueStart = 0
    }
  }

  private lineColumn(offset: number): {line: number; column: number} {
    const rel = Math.min(offset - this.base, this.buf.length)
    const lastNl = rel === 0 ? -1 : this.buf.lastIndexOf(C.NewLine, rel - 1)
    return {line: this.baseLine + countLines(this.buf, 0, rel), column: lastNl === -1 ? this.baseColumn + rel : rel - lastNl}
  }

  private fail(offset: number, message: string): never {
    const {line, column} = this.lineColumn(offset)
    throw new UserError(
      `${this.where}:${line}:${column}: malformed JSON: ${message}`,
      'check that the file is complete JSON as `kubectl get -o json` prints it',
    )
  }

  private text(start: number, end: number): string {
    const slice = this.buf.subarray(start, end)
    if (!isUtf8(slice)) throw new UserError(`${this.where}: not UTF-8 text`, 'pass JSON or YAML, optionally gzipped')
    return slice.toString('utf8')
  }

  /** Parses bytes of the buffer; an error names the input's line and column, not the slice's. */
  private parseSlice(start: number, end: number): unknown {
    const text = this.text(start, end)
    try {
      return parseValue(text, '@@slice@@')
    } catch (err) {
      const m = /^@@slice@@:(\d+):(\d+): (.*)$/s.exec((err as Error).message)
      if (!m) throw err
      const at = this.lineColumn(this.base + start)
      const line = at.line + Number(m[1]) - 1
      throw new UserError(`${this.where}:${line}:${Number(m[1]) === 1 ? at.column + Number(m[2]) - 1 : Number(m[2])}: ${m[3]}`, (err as UserError).hint)
    }
  }

  /** Continues the scan of the value starting at valueStart; its end (exclusive), or -1 when more input is needed. */
  private scanValue(final: boolean): number {
    const b = this.buf
    let i = this.scanPos
    const first = b[this.valueStart]
    if (first !== C.LBrace && first !== C.LBracket && first !== C.Quote) {
      while (i < b.length) {
        const c = b[i]
        if (c === C.Comma || c === C.RBrace || c === C.RBracket || isSpace(c)) return i
        i++
      }
      this.scanPos = i
      return final ? i : -1
    }
    let depth = this.depth
    let inString = this.inString
    while (i < b.length) {
      if (inString) {
        const q = b.indexOf(C.Quote, i)
        if (q === -1) {
          i = b.length
          break
        }
        let bs = 0
        for (let j = q - 1; b[j] === C.Backslash; j--) bs++
        i = q + 1
        if (bs % 2 === 0) {
          inString = false
          if (depth === 0) return i
        }
        continue
      }
      const c = b[i++]
      if (c === C.Quote) inString = true
      else if (c === C.LBrace || c === C.LBracket) depth++
      else if (c === C.RBrace || c === C.RBracket) {
        depth--
        if (depth === 0) return i
      }
    }
    this.scanPos = i
    this.depth = depth
    this.inString = inString
    return -1
  }

  /**
   * An element that is its line (the snapshot layout kubectl-why writes: one item a line), found by the newline
   * instead of the byte scan. A JSON text holds no raw newline, and a complete value from the element's start is
   * the element, whatever follows it: so when the rest of the line, less one trailing comma, parses, it is the
   * element. Anything else (an element over several lines, two on one line, the list's end on the same line) is
   * left to the scan; undefined then.
   */
  private lineElement(): {value: unknown; end: number} | undefined {
    const b = this.buf
    if (b[this.pos] !== C.LBrace) return undefined
    // Bytes already searched are not searched again: an API server's List is one line of any length.
    const nl = b.indexOf(C.NewLine, Math.max(this.pos, this.lineSearched - this.base))
    if (nl === -1) {
      this.lineSearched = this.base + b.length
      return undefined
    }
    this.lineSearched = this.base + nl + 1
    let end = nl
    while (end > this.pos && isSpace(b[end - 1])) end--
    if (b[end - 1] === C.Comma) end--
    if (b[end - 1] !== C.RBrace) return undefined
    const text = this.text(this.pos, end)
    try {
      return {value: exactJson(text, JSON.parse(text)), end}
    } catch {
      return undefined
    }
  }

  private beginValue(at: number): void {
    this.valueStart = at
    this.scanPos = this.buf[at] === C.Quote ? at + 1 : at
    this.inString = this.buf[at] === C.Quote
    this.depth = 0
  }

  private skipSpace(): boolean {
    const b = this.buf
    while (this.pos < b.length && isSpace(b[this.pos])) this.pos++
    return this.pos < b.length
  }

  private run(final: boolean): void {
    const b = this.buf
    for (;;) {
      switch (this.state) {
        case 'top': {
          if (!this.skipSpace()) return
          const c = b[this.pos]
          if (c === C.LBrace) {
            this.envelope = {}
            this.hadItems = false
            this.bareArray = false
            this.pos++
            this.state = 'key'
          } else if (c === C.LBracket) {
            this.bareArray = true
            this.hadItems = true
            this.index = 0
            this.pos++
            this.state = 'element'
          } else {
            this.state = 'text'
          }
          break
        }
        case 'text':
        case 'logs': {
          // Text between documents: only cluster-info dump's log blocks are allowed there.
          const nl = b.indexOf(C.NewLine, this.pos)
          if (nl === -1 && !final) return
          const end = nl === -1 ? b.length : nl
          const line = this.text(this.pos, end).replace(/\r$/, '')
          if (this.state === 'logs') {
            if (LOG_END.test(line)) this.state = 'top'
          } else {
            const m = LOG_START.exec(line)
            if (!m) this.fail(this.base + this.pos, `unexpected text "${line.slice(0, 40)}" where a JSON document should start`)
            this.sink.logs?.(m[1])
            this.state = 'logs'
          }
          this.pos = nl === -1 ? b.length : nl + 1
          if (nl === -1) return
          break
        }
        case 'key': {
          if (!this.skipSpace()) return
          const c = b[this.pos]
          if (c === C.RBrace) {
            this.pos++
            this.finishDocument()
            break
          }
          if (c !== C.Quote) this.fail(this.base + this.pos, 'expected a member name in double quotes')
          if (this.valueStart === -1) this.beginValue(this.pos)
          const end = this.scanValue(final)
          if (end === -1) return
          this.key = this.parseSlice(this.valueStart, end) as string
          this.valueStart = -1
          this.pos = end
          this.state = 'colon'
          break
        }
        case 'colon': {
          if (!this.skipSpace()) return
          if (b[this.pos] !== C.Colon) this.fail(this.base + this.pos, `expected ":" after "${this.key}"`)
          this.pos++
          this.state = 'value'
          break
        }
        case 'value': {
          if (!this.skipSpace()) return
          if (this.valueStart === -1 && this.key === 'items' && b[this.pos] === C.LBracket && !isTypedNonList(this.envelope.kind)) {
            this.pos++
            this.hadItems = true
            this.index = 0
            this.sink.listStart(this.envelope, this.where)
            this.state = 'element'
            break
          }
          if (this.valueStart === -1) this.beginValue(this.pos)
          const end = this.scanValue(final)
          if (end === -1) return
          this.envelope[this.key] = this.parseSlice(this.valueStart, end)
          this.valueStart = -1
          this.pos = end
          this.state = 'afterValue'
          break
        }
        case 'afterValue': {
          if (!this.skipSpace()) return
          const c = b[this.pos++]
          if (c === C.Comma) this.state = 'key'
          else if (c === C.RBrace) this.finishDocument()
          else this.fail(this.base + this.pos - 1, 'expected "," or "}"')
          break
        }
        case 'element': {
          if (!this.skipSpace()) return
          if (this.valueStart === -1 && b[this.pos] === C.RBracket && this.index === 0) {
            this.pos++
            this.endItems()
            break
          }
          const where = this.bareArray ? `${this.where}[${this.index}]` : `${this.where} items[${this.index}]`
          if (this.valueStart === -1) {
            const line = this.lineElement()
            if (line !== undefined) {
              this.pos = line.end
              this.sink.item(line.value, where, this.index++)
              this.state = 'afterElement'
              break
            }
            this.beginValue(this.pos)
          }
          const end = this.scanValue(final)
          if (end === -1) return
          const value = this.parseSlice(this.valueStart, end)
          this.valueStart = -1
          this.pos = end
          this.sink.item(value, where, this.index++)
          this.state = 'afterElement'
          break
        }
        case 'afterElement': {
          if (!this.skipSpace()) return
          const c = b[this.pos++]
          if (c === C.Comma) this.state = 'element'
          else if (c === C.RBracket) this.endItems()
          else this.fail(this.base + this.pos - 1, 'expected "," or "]"')
          break
        }
      }
    }
  }

  private endItems(): void {
    if (this.bareArray) {
      this.finishDocument()
      return
    }
    this.state = 'afterValue'
  }

  private finishDocument(): void {
    this.docs++
    this.sink.documentEnd(this.envelope, this.hadItems, this.where)
    this.envelope = {}
    this.state = 'top'
  }
}

/** A top-level object whose kind (already seen) says it is not a list keeps its `items` member whole. */
function isTypedNonList(kind: unknown): boolean {
  return typeof kind === 'string' && !kind.endsWith('List')
}

/** An array index as a member name: JSON.parse puts those first, out of the text's order. */
const INDEX_KEY = /^(0|[1-9]\d*)$/

/**
 * The whole input as one JSON value, when it is exactly one object or array: JSON.parse reads it at once instead
 * of the byte-by-byte scan (most of a small file's reading time), and the sink gets the calls the scan would make.
 * Declines (false, the sink untouched) whenever the scan could answer otherwise: not UTF-8, not one JSON object or
 * array (several documents, cluster-info dump's log blocks, malformed text: the scan says where), an integer beyond
 * 2^53 (parsed exactly by the scan, item by item), or a top-level member named like an array index (JSON.parse
 * would reorder it). A member named twice at the top level is read as JSON.parse (and Go's encoding/json) read it:
 * the last one, in the first one's place.
 */
export function readWholeDocument(bytes: Buffer, sink: JsonStreamSink, where: string): boolean {
  let start = 0
  while (start < bytes.length && isSpace(bytes[start])) start++
  if (bytes[start] !== C.LBrace && bytes[start] !== C.LBracket) return false
  if (!isUtf8(bytes)) return false
  const text = bytes.toString('utf8')
  let doc: unknown
  try {
    doc = JSON.parse(text)
  } catch {
    return false
  }
  const found = inspectParsed(doc)
  if (found === PARSED_ROUNDED || (found === PARSED_TOO_DEEP && LONG_INTEGER.test(text))) return false
  if (Array.isArray(doc)) {
    for (let i = 0; i < doc.length; i++) sink.item(doc[i], `${where}[${i}]`, i)
    sink.documentEnd({}, true, where)
    return true
  }
  const members = doc as Record<string, unknown>
  const keys = Object.keys(members)
  if (keys.some((k) => INDEX_KEY.test(k))) return false
  const envelope: Record<string, unknown> = {}
  let hadItems = false
  for (const key of keys) {
    const value = members[key]
    if (key === 'items' && Array.isArray(value) && !isTypedNonList(envelope.kind)) {
      hadItems = true
      sink.listStart(envelope, where)
      for (let i = 0; i < value.length; i++) sink.item(value[i], `${where} items[${i}]`, i)
    } else envelope[key] = value
  }
  sink.documentEnd(envelope, hadItems, where)
  return true
}

function countLines(b: Buffer, from: number, to: number): number {
  let n = 0
  for (let i = b.indexOf(C.NewLine, from); i !== -1 && i < to; i = b.indexOf(C.NewLine, i + 1)) n++
  return n
}
