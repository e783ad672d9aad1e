// A stream of YAML documents read a line at a time, with the same memory bound as the JSON reader: documents
// split at their `---` markers, and the entries of a document's top-level `items:` sequence (what
// `kubectl get -o yaml` prints for a List of any size) cut out one by one and parsed alone. Anything that is not
// that shape (a single object, flow-style items, an empty list) is parsed as the whole document it is.
import {UserError} from '../../errors.js'
import {parseYamlDocuments} from '../../util/json.js'
import {jsYamlLib, yamlLib} from '../../util/yaml-lib.js'
import type {JsonStreamSink} from './json-stream.js'

/** A plain scalar of 16 or more digits: beyond 2^53 js-yaml would round it. */
const LONG_INTEGER = /(?:^|[\s:[{,-])[-+]?\d{16,}[ \t]*(?:$|[,\]}#])/m
const ITEMS_KEY = /^items:[ \t]*(?:#.*)?$/
const DOC_MARKER = /^(?:---|\.\.\.)(?:[ \t]|$)/
/** An alias (`*name`) or a merge key (`<<:`) may be in the text: yaml reads it, with its bound on alias expansion. */
const ALIAS_OR_MERGE = /(?:^|[\s[{,:-])\*[^\s,[\]{}]|<<[ \t]*:/m
/** An anchor (`&name`) may be in the text: a later item may use it, as PyYAML writes shared values. */
const ANCHOR = /(?:^|[\s[{,:-])&[^\s,[\]{}]/m
/** The most text the anchors of earlier items may add to an item that uses them (they expand there). */
const ANCHORS_MAX = 1 << 20

interface Line {
  text: string
  no: number
}

function indentOf(line: string): number {
  let i = 0
  while (i < line.length && line.charCodeAt(i) === 0x20) i++
  return i
}

/**
 * The text without the comment and blank lines that end it (a comment between two items belongs to the entry
 * before it). After a complete JSON value, such a line is a comment to YAML too.
 */
function withoutTrailingComments(text: string): string {
  let end = text.length
  for (;;) {
    const nl = text.lastIndexOf('\n', end - 1)
    const line = text.slice(nl + 1, end).trim()
    if (nl === -1 || (line !== '' && !line.startsWith('#'))) return text.slice(0, end)
    end = nl
  }
}

/**
 * Whether a JSON text (one JSON.parse has accepted) repeats a key within one object, the keys compared as decoded
 * ("a" and "\u0061" are one key). One pass over the text: strings skipped whole, a stack of the open objects' keys.
 */
export function hasDuplicateKey(json: string): boolean {
  const stack: (Set<string> | undefined)[] = []
  let nextBackslash = 0
  for (let i = 0; i < json.length; i++) {
    const c = json.charCodeAt(i)
    if (c === 0x7b /* { */) stack.push(new Set())
    else if (c === 0x5b /* [ */) stack.push(undefined)
    else if (c === 0x7d /* } */ || c === 0x5d /* ] */) stack.pop()
    else if (c === 0x22 /* " */) {
      let end = i + 1
      for (;;) {
        end = json.indexOf('"', end)
        let backslashes = 0
        while (json.charCodeAt(end - 1 - backslashes) === 0x5c) backslashes++
        if (backslashes % 2 === 0) break
        end++
      }
      // Any escape in the string, not only one before its closing quote ("\u006eame" is "name"): decode it.
      // The next backslash is looked up once and kept while it lies ahead: one pass over the text in all.
      if (nextBackslash !== -1 && nextBackslash <= i) nextBackslash = json.indexOf('\\', i + 1)
      const escaped = nextBackslash !== -1 && nextBackslash < end
      const keys = stack[stack.length - 1]
      if (keys) {
        let j = end + 1
        while (j < json.length && (json[j] === ' ' || json[j] === '\t' || json[j] === '\n' || json[j] === '\r')) j++
        if (json[j] === ':') {
          const key = escaped ? (JSON.parse(json.slice(i, end + 1)) as string) : json.slice(i + 1, end)
          if (keys.has(key)) return true
          keys.add(key)
        }
      }
      i = end
    }
  }
  return false
}

export class YamlStreamReader {
  private readonly decoder = new TextDecoder('utf-8', {fatal: true})
  private partial = ''
  private lineNo = 0
  private docNo = 0
  /** Lines of the current document outside its items (small: the List's envelope, or a whole single object). */
  private envelope: Line[] = []
  private state: 'doc' | 'itemsStart' | 'entry' = 'doc'
  private indent = 0
  private entry: string[] = []
  private entryLine = 0
  private index = 0
  private hadItems = false
  private started = false
  private multi = false
  /** The values anchored in earlier items of this document, by anchor name, as JSON (what a later alias expands to). */
  private anchors = new Map<string, string>()

  constructor(
    private readonly sink: JsonStreamSink,
    private readonly where: string,
  ) {}

  push(chunk: Buffer): void {
    let text: string
    try {
      text = this.decoder.decode(chunk, {stream: true})
    } catch {
      throw new UserError(`${this.where}: not UTF-8 text`, 'pass JSON or YAML, optionally gzipped')
    }
    if (!this.started) {
      text = text.replace(/^\uFEFF/, '')
      this.started = text.length > 0
    }
    const lines = (this.partial + text).split('\n')
    this.partial = lines.pop() ?? ''
    for (const l of lines) this.line(l.endsWith('\r') ? l.slice(0, -1) : l)
  }

  end(): void {
    if (this.partial !== '') this.line(this.partial)
    this.partial = ''
    this.endDocument()
  }

  private docWhere(): string {
    return this.multi ? `${this.where} document ${this.docNo + 1}` : this.where
  }

  private line(text: string): void {
    this.lineNo++
    if (this.state === 'entry' || this.state === 'itemsStart') {
      const blank = text.trim() === ''
      if (blank || (this.state === 'entry' && text.trimStart().startsWith('#'))) {
        if (this.state === 'entry') this.entry.push(text)
        return
      }
      const ind = indentOf(text)
      const dash = text[ind] === '-' && (text.length === ind + 1 || text[ind + 1] === ' ')
      if (this.state === 'itemsStart') {
        if (dash) {
          this.indent = ind
          this.startEntry(text)
          return
        }
        this.state = 'doc'
      } else if (dash && ind === this.indent) {
        this.flushEntry()
        this.startEntry(text)
        return
      } else if (ind > this.indent || text[ind] === '\t') {
        // A tab where indentation goes is the entry's (YAML refuses it, and the error must name this line).
        this.entry.push(text)
        return
      } else {
        this.flushEntry()
        this.state = 'doc'
      }
    }
    if (DOC_MARKER.test(text)) {
      if (this.envelope.some((l) => l.text.trim() !== '' && !l.text.trimStart().startsWith('#')) || this.hadItems) this.multi = true
      this.endDocument()
      const rest = text.slice(3).trim()
      if (rest !== '' && !rest.startsWith('#')) this.envelope.push({text: rest, no: this.lineNo})
      return
    }
    this.envelope.push({text, no: this.lineNo})
    if (ITEMS_KEY.test(text) && !this.hadItems) {
      this.envelope.pop()
      this.state = 'itemsStart'
      this.hadItems = true
      this.index = 0
      this.sink.listStart(this.parseEnvelope() as Record<string, unknown>, this.docWhere())
    }
  }

  private startEntry(text: string): void {
    this.state = 'entry'
    this.entryLine = this.lineNo
    this.entry = [`${text.slice(0, this.indent)} ${text.slice(this.indent + 1)}`]
  }

  private flushEntry(): void {
    const where = `${this.docWhere()} items[${this.index}]`
    const text = this.entry.join('\n')
    const docs = this.anchors.size > 0 && ALIAS_OR_MERGE.test(text) ? this.parseWithAnchors(text) : this.parse(text, this.entryLine)
    if (ANCHOR.test(text)) this.keepAnchors(text)
    this.entry = []
    this.sink.item(docs.length === 0 ? null : docs[0], where, this.index++)
  }

  /**
   * An item read with the anchors of the items before it, as a YAML reader of the whole document would: the
   * anchored values come first, as entries of the same sequence, and the item is the last entry.
   */
  private parseWithAnchors(text: string): unknown[] {
    const pad = ' '.repeat(this.indent)
    const prefix = [...this.anchors].map(([name, json]) => `${pad}- &${name} ${json}`)
    const size = prefix.reduce((n, l) => n + l.length, 0)
    if (size > ANCHORS_MAX)
      throw new UserError(
        `${this.where}:${this.entryLine}:1: malformed YAML: the anchors this item may use expand to more than ${ANCHORS_MAX} bytes (an alias bomb)`,
        'write the objects out in full, as `kubectl get -o yaml` prints them',
      )
    const item = `${pad}-${text.slice(this.indent + 1)}`
    const docs = this.parse([...prefix, item].join('\n'), (n) => this.entryLine + Math.max(0, n - 1 - prefix.length))
    const seq = docs[0]
    return Array.isArray(seq) && seq.length > 0 ? [seq[seq.length - 1]] : []
  }

  /** The anchors an item defines, for the items after it (a later definition of a name replaces the earlier). */
  private keepAnchors(text: string): void {
    const {parseDocument, visit, isNode} = yamlLib()
    const pad = ' '.repeat(this.indent)
    const prefix = [...this.anchors].map(([name, json]) => `${pad}- &${name} ${json}`)
    const doc = parseDocument([...prefix, `${pad}-${text.slice(this.indent + 1)}`].join('\n'), {merge: true, intAsBigInt: true})
    if (doc.errors.length > 0) return
    const found: [string, string][] = []
    const last = isNode(doc.contents) && 'items' in doc.contents ? (doc.contents.items as unknown[]).at(-1) : undefined
    visit(isNode(last) ? last : doc, {
      Node(_, node) {
        if (node.anchor === undefined) return
        try {
          const json = JSON.stringify(node.toJS(doc, {maxAliasCount: 1000}))
          if (json !== undefined) found.push([node.anchor, json])
        } catch {
          // An anchored value that cannot be written as JSON (a bigint) or expands too far: later aliases to it fail there.
        }
      },
    })
    for (const [name, json] of found) {
      this.anchors.delete(name)
      this.anchors.set(name, json)
    }
  }

  /**
   * Parses text whose nth line is the input's line `lineOf(n)`; error positions are the input's. js-yaml (YAML 1.2
   * core schema, as yaml's default; a duplicate key refused) reads ten times faster; yaml reads what holds an integer
   * too long for a double (kept exact as bigint), aliases (bounded) and merge keys, and words the errors.
   */
  private parse(text: string, lineOf: number | ((n: number) => number)): unknown[] {
    if (!LONG_INTEGER.test(text) && !ALIAS_OR_MERGE.test(text)) {
      // An item written as one JSON value (`- {"kind": …}`, as the examples and JSON-minded tools write them):
      // YAML 1.2 reads JSON as JSON.parse does, and JSON.parse is ~20× faster than js-yaml's flow-style reader.
      const first = text.trimStart()[0]
      if (first === '{' || first === '[') {
        try {
          const json = withoutTrailingComments(text)
          const value = JSON.parse(json)
          // JSON.parse lets a repeated key win silently; a YAML reader (kubectl's too) refuses it: such an item goes to
          // the YAML reader below, which names the key's line.
          if (!hasDuplicateKey(json)) return value === null ? [] : [value]
          return this.parseYaml(text, lineOf)
        } catch {
          // Not JSON alone (a comment on its line, YAML flow syntax): js-yaml reads it.
        }
      }
      try {
        const docs: unknown[] = []
        const {CORE_SCHEMA, loadAll} = jsYamlLib()
        loadAll(
          text,
          (d) => {
            if (d !== null && d !== undefined) docs.push(d)
          },
          // Not json: true, which lets a repeated key win silently; kubectl's reader refuses it, as yaml does below.
          {schema: CORE_SCHEMA},
        )
        return docs
      } catch {
        // yaml says what is wrong, and where.
      }
    }
    return this.parseYaml(text, lineOf)
  }

  /** yaml's reading (aliases, merge keys, long integers, duplicate keys refused), its errors at the input's lines. */
  private parseYaml(text: string, lineOf: number | ((n: number) => number)): unknown[] {
    try {
      return parseYamlDocuments(text, '@@slice@@')
    } catch (err) {
      const m = /^@@slice@@:(\d+):(\d+): (.*)$/s.exec((err as Error).message)
      if (!m) throw err
      const line = typeof lineOf === 'number' ? lineOf + Number(m[1]) - 1 : lineOf(Number(m[1]))
      throw new UserError(`${this.where}:${line}:${m[2]}: ${m[3]}`, (err as UserError).hint)
    }
  }

  /** The envelope lines parsed: contiguous but for where the items were cut out, which YAML does not mind. */
  private parseEnvelope(): unknown {
    if (this.envelope.length === 0) return {}
    const lines = this.envelope
    const docs = this.parse(lines.map((l) => l.text).join('\n'), (n) => lines[Math.min(n, lines.length) - 1].no)
    return docs[0] ?? {}
  }

  private endDocument(): void {
    if (this.state === 'entry') this.flushEntry()
    this.state = 'doc'
    const hadItems = this.hadItems
    const meaningful = this.envelope.some((l) => l.text.trim() !== '' && !l.text.trimStart().startsWith('#'))
    if (meaningful || hadItems) {
      const value = this.parseEnvelope()
      this.sink.documentEnd(hadItems && (value === null || typeof value !== 'object') ? {} : value, hadItems, this.docWhere())
      this.docNo++
    }
    this.envelope = []
    this.hadItems = false
    this.anchors.clear()
  }
}
