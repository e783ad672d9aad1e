// A reader for the YAML kubeconfig files are written in (kubectl config, kind, k3s, the cloud CLIs, most hand edits):
// block mappings and sequences (sequences under a key at the key's own indentation, as clientcmd writes them),
// one-line plain, single- and double-quoted scalars, one-line flow mappings and sequences of scalars, full-line and
// trailing comments. It answers only where it answers exactly what the `yaml` library's parse() does (YAML 1.2, core
// schema); on anything else — anchors, aliases, tags, block or multi-line scalars, nested flow collections,
// non-ASCII text, duplicate keys, numbers other than small decimal integers, a document that is not a mapping — it
// returns undefined and the caller parses with the library, which also says what is wrong with a broken file.
// Why: the library's parser, compiled cold for one small file, was ~7 ms of every live run (~15 ms uncached).

/** Thrown inside the reader when the text leaves the subset; never escapes parseSimpleYaml. */
const OUTSIDE = Symbol('outside the subset')

interface Line {
  indent: number
  /** The line without its indentation and trailing spaces; never empty, never a comment. */
  text: string
}

const KEY = /^([A-Za-z_][A-Za-z0-9_./-]*):(?: +(.*))?$/
// yaml's core schema (yaml/dist/schema/core/bool.js, common/null.js): a key spelled so is not a string key.
const NULL = /^(?:~|[Nn]ull|NULL)$/
const BOOL = /^(?:[Tt]rue|TRUE|[Ff]alse|FALSE)$/
const SMALL_INT = /^(?:0|[1-9][0-9]{0,14})$/
const JSON_ESCAPES = /^(?:[^\\]|\\["\\/bfnrt])*$/
/** Where a plain scalar could be a number in the core schema (int, 0o, 0x, float, .inf, .nan): only small ints are read. */
const NUMERIC_START = /^(?:[0-9+.]|-[0-9.])/

function outside(): never {
  throw OUTSIDE
}

function splitLines(text: string): Line[] | undefined {
  const source = text.includes('\r') ? text.replace(/\r\n/g, '\n') : text
  // Printable ASCII and newlines only: no tabs (indentation or separation), no BOM, no control or non-ASCII characters.
  if (!/^[\n\x20-\x7e]*$/.test(source)) return undefined
  const lines: Line[] = []
  for (const raw of source.split('\n')) {
    const text = raw.trim()
    if (text === '' || text[0] === '#') continue
    const indent = raw.length - raw.trimStart().length
    if (indent === 0 && (text === '---' || text === '...' || text.startsWith('--- ') || text.startsWith('... '))) {
      if (text === '---' && lines.length === 0) continue // the document's start marker
      return undefined
    }
    lines.push({indent, text})
  }
  return lines
}

const isSequenceLine = (t: string) => t === '-' || t.startsWith('- ')

/** What may follow a closed scalar or flow collection on its line: nothing, or a comment. */
function endOfValue(tail: string): void {
  if (tail !== '' && !/^ +#/.test(tail)) outside()
}

/** A double-quoted scalar starting at s[0]; returns the value and where it ends. */
function doubleQuoted(s: string, from: number): [string, number] {
  let j = from + 1
  while (j < s.length && s[j] !== '"') j += s[j] === '\\' ? 2 : 1
  if (j >= s.length) outside() // continues on the next line
  const body = s.slice(from + 1, j)
  if (!body.includes('\\')) return [body, j + 1]
  // The escapes YAML and JSON spell and mean alike; YAML's others (\x, \e, \N, \u, line folding…) are left to the library.
  if (!JSON_ESCAPES.test(body)) outside()
  return [JSON.parse(`"${body}"`) as string, j + 1]
}

function singleQuoted(s: string, from: number): [string, number] {
  let j = from + 1
  for (;;) {
    if (j >= s.length) outside()
    if (s[j] === "'") {
      if (s[j + 1] !== "'") break
      j += 2
    } else j++
  }
  return [s.slice(from + 1, j).replaceAll("''", "'"), j + 1]
}

/** A plain scalar, already cut at its end, resolved as the core schema does. */
function plain(s: string): unknown {
  if (s === '') outside()
  const c = s[0]
  // Indicators that cannot start a plain scalar (or mean something else there); '-' starts one when followed by text.
  if ('?:,[]{}#&*!|>\'"%@`<'.includes(c) || (c === '-' && (s.length === 1 || s[1] === ' '))) outside()
  if (/[,[\]{}]/.test(s) || s.includes(': ') || s.endsWith(':') || s.includes(' #')) outside()
  if (NULL.test(s)) return null
  if (BOOL.test(s)) return c === 't' || c === 'T'
  if (NUMERIC_START.test(s)) return SMALL_INT.test(s) ? Number(s) : outside()
  return s
}

/** The value after `key: ` or `- `: a scalar, `{}`/`[]`, or a one-line flow collection of scalars. */
function inlineValue(s: string): unknown {
  const c = s[0]
  if (c === '"' || c === "'") {
    const [v, end] = c === '"' ? doubleQuoted(s, 0) : singleQuoted(s, 0)
    endOfValue(s.slice(end))
    return v
  }
  if (c === '{' || c === '[') {
    const [v, end] = flowCollection(s)
    endOfValue(s.slice(end))
    return v
  }
  const comment = s.indexOf(' #')
  return plain(comment === -1 ? s : s.slice(0, comment).trimEnd())
}

/** `{k: v, …}` or `[v, …]` on one line, of scalars only (what hand-written exec and cluster entries use). */
function flowCollection(s: string): [unknown, number] {
  const mapping = s[0] === '{'
  const close = mapping ? '}' : ']'
  const out: unknown[] = []
  const map: Record<string, unknown> = {}
  let j = 1
  const spaces = () => {
    while (s[j] === ' ') j++
  }
  spaces()
  if (s[j] === close) return [mapping ? map : out, j + 1]
  for (;;) {
    spaces()
    let key: string | undefined
    if (mapping) {
      const m = /^([A-Za-z_][A-Za-z0-9_./-]*): +/.exec(s.slice(j))
      if (!m || NULL.test(m[1]) || BOOL.test(m[1]) || m[1] === '__proto__' || Object.hasOwn(map, m[1])) outside()
      key = m[1]
      j += m[0].length
    }
    let value: unknown
    if (s[j] === '"' || s[j] === "'") {
      ;[value, j] = s[j] === '"' ? doubleQuoted(s, j) : singleQuoted(s, j)
    } else {
      let k = j
      while (k < s.length && s[k] !== ',' && s[k] !== close) k++
      value = plain(s.slice(j, k).trimEnd())
      j = k
    }
    if (key === undefined) out.push(value)
    else map[key] = value
    spaces()
    if (s[j] === close) return [mapping ? map : out, j + 1]
    if (s[j] !== ',') outside()
    j++
    spaces()
    if (s[j] === close || j >= s.length) outside() // a trailing comma, or the collection goes on past the line
  }
}

class Reader {
  private i = 0
  constructor(private readonly lines: Line[]) {}

  document(): Record<string, unknown> {
    const first = this.lines[0] // there is one: parseSimpleYaml reads no empty document
    if (first.indent !== 0 || isSequenceLine(first.text)) outside()
    const doc = this.mapping(0)
    if (this.i !== this.lines.length) outside()
    return doc
  }

  private node(indent: number): unknown {
    return isSequenceLine(this.lines[this.i].text) ? this.sequence(indent) : this.mapping(indent)
  }

  private mapping(indent: number): Record<string, unknown> {
    const map: Record<string, unknown> = {}
    while (this.i < this.lines.length) {
      const line = this.lines[this.i]
      if (line.indent < indent) break
      if (line.indent > indent) outside()
      const m = KEY.exec(line.text)
      if (!m) outside()
      const key = m[1]
      if (NULL.test(key) || BOOL.test(key) || key === '__proto__' || Object.hasOwn(map, key)) outside()
      const rest = m[2] ?? ''
      this.i++
      if (rest !== '' && rest[0] !== '#') {
        map[key] = inlineValue(rest)
        continue
      }
      const next = this.lines[this.i]
      if (next && next.indent > indent) map[key] = this.node(next.indent)
      else if (next && next.indent === indent && isSequenceLine(next.text)) map[key] = this.sequence(indent)
      else map[key] = null
    }
    return map
  }

  private sequence(indent: number): unknown[] {
    const seq: unknown[] = []
    while (this.i < this.lines.length) {
      const line = this.lines[this.i]
      if (line.indent < indent) break
      if (line.indent > indent) outside()
      if (!isSequenceLine(line.text)) break // the mapping this sequence sits in goes on (or, if none, the caller finds the line out of place)
      if (line.text === '-') outside() // an item on the lines below, or an empty one
      const rest = line.text.slice(2).trimStart()
      if (rest[0] === '#' || isSequenceLine(rest)) outside()
      if (KEY.test(rest)) {
        // `- key: value`: a mapping whose keys line up with this first one.
        this.lines[this.i] = {indent: indent + line.text.length - rest.length, text: rest}
        seq.push(this.mapping(this.lines[this.i].indent))
      } else {
        seq.push(inlineValue(rest))
        this.i++
      }
    }
    return seq
  }
}

/** The document as yaml's parse() gives it, or undefined when the text is beyond this reader (parse it with the library). */
export function parseSimpleYaml(text: string): Record<string, unknown> | undefined {
  const lines = splitLines(text)
  if (!lines || lines.length === 0) return undefined
  try {
    return new Reader(lines).document()
  } catch (err) {
    if (err === OUTSIDE) return undefined
    throw err
  }
}
