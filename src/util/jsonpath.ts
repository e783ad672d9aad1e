// kubectl's -o jsonpath=TEMPLATE: a port of k8s.io/client-go/util/jsonpath (parser.go, jsonpath.go, node.go) and the
// comparisons it takes from third_party/forked/golang/template (funcs.go, exec.go), client-go v0.36.3
// (kubernetes 1.36.3; the same files as v0.34.0 where it matters: the only later change is to Go struct tags, which
// JSON data has none of). No npm library speaks this dialect ({} actions around plain text, quoted literals,
// range/end, filters compared with Go's template rules, Go's printing of results): jsonpath-plus and jsonpath are
// Goessner's expressions without the template, and evaluate filters as JavaScript (README, hand-written table).
//
// What kubectl gives the engine is JSON decoded as unstructured content (cli-runtime printers/jsonpath.go PrintObj):
// objects are Go maps, integers int64, other numbers float64. So here: a JS object is a map, a number that is an
// integer (or a bigint) is an int64, any other number a float64, null a nil interface, undefined an invalid
// reflect.Value (what a range over a nil element hands its body). Go visits a map's keys in random order
// (MapKeys in evalWildcard, evalRecursive); here in sorted order, one of the orders Go can produce, so a run is
// reproducible. Printing follows Go: maps and slices as encoding/json writes them (keys sorted, <, > and & escaped),
// the rest as fmt.Fprint does (floats with %v's exponent rule).

import {stringifyJson} from './json.js'

/** A float literal in a template (`1.0`): a float64 even when its value is an integer, unlike data numbers. */
class GoFloat {
  constructor(readonly value: number) {}
}

/** A byte of a string, as evalWildcard's value.Index(i) on a string yields (a uint8). */
class GoByte {
  constructor(readonly value: number) {}
}

type Value = unknown

export class JsonPathError extends Error {
  /**
   * What Go's eval function returns beside the error (evalArray its input, evalField nothing, ...): an `exists`
   * filter ignores the error and keeps the element when that is not empty (jsonpath.go:507).
   */
  constructor(
    message: string,
    readonly partial: readonly Value[] = [],
  ) {
    super(message)
  }
}

// --- node.go ---------------------------------------------------------------------------------------------------------

interface ParamsEntry {
  value: number
  known: boolean
  derived: boolean
}

type JpNode =
  | {type: 'list'; nodes: JpNode[]}
  | {type: 'text'; text: string}
  | {type: 'field'; value: string}
  | {type: 'identifier'; name: string}
  | {type: 'array'; params: [ParamsEntry, ParamsEntry, ParamsEntry]}
  | {type: 'filter'; left: ListNode; right: ListNode; operator: string}
  | {type: 'int'; value: number}
  | {type: 'float'; value: number}
  | {type: 'wildcard'}
  | {type: 'recursive'}
  | {type: 'union'; nodes: ListNode[]}
  | {type: 'bool'; value: boolean}

type ListNode = Extract<JpNode, {type: 'list'}>

const newList = (): ListNode => ({type: 'list', nodes: []})

// --- parser.go -------------------------------------------------------------------------------------------------------

const EOF = -1
const LEFT_DELIM = '{'
const RIGHT_DELIM = '}'
const dictKeyRex = /^'([^']*)'$/
const sliceOperatorRex = /^(-?[0-9]*)(:-?[0-9]*)?(:-?[0-9]*)?$/
const filterRex = /^([^!<>=]+)([!<>=]+)(.+?)$/

/** The parse function to run next, or none at the end of the input. */
type Step = (() => Step) | undefined

class Parser {
  root: ListNode = newList()
  private input = ''
  private pos = 0
  private start = 0
  private width = 0

  // parser.go:80 Parse. Go's parse functions call the next one in tail position; here each returns it, and this loop
  // runs them, so a long template (a jsonpath-file) does not grow the stack token by token.
  parse(text: string): void {
    this.input = text
    this.root = newList()
    this.pos = 0
    let step: Step = () => this.parseText(this.root)
    while (step) step = step()
  }

  private consumeText(): string {
    const value = this.input.slice(this.start, this.pos)
    this.start = this.pos
    return value
  }

  private next(): number {
    if (this.pos >= this.input.length) {
      this.width = 0
      return EOF
    }
    const r = this.input.codePointAt(this.pos) as number
    this.width = r > 0xffff ? 2 : 1
    this.pos += this.width
    return r
  }

  private peek(): number {
    const r = this.next()
    this.backup()
    return r
  }

  private backup(): void {
    this.pos -= this.width
  }

  // parser.go:118 parseText

  private parseText(cur: ListNode): Step {
    for (;;) {
      if (this.input.startsWith(LEFT_DELIM, this.pos)) {
        if (this.pos > this.start) cur.nodes.push({type: 'text', text: this.consumeText()})
        return () => this.parseLeftDelim(cur)
      }
      if (this.next() === EOF) break
    }
    if (this.pos > this.start) cur.nodes.push({type: 'text', text: this.consumeText()})
    return undefined
  }

  // parser.go:138 parseLeftDelim

  private parseLeftDelim(cur: ListNode): Step {
    this.pos += LEFT_DELIM.length
    this.consumeText()
    const node = newList()
    cur.nodes.push(node)
    return () => this.parseInsideAction(node)
  }

  // parser.go parseInsideAction (its prefixes are checked in a map's order; none is a prefix of another)

  // parser.go:147

  private parseInsideAction(cur: ListNode): Step {
    if (this.input.startsWith(RIGHT_DELIM, this.pos)) return () => this.parseRightDelim()
    if (this.input.startsWith('[?(', this.pos)) return () => this.parseFilter(cur)
    if (this.input.startsWith('..', this.pos)) return () => this.parseRecursive(cur)
    const r = this.next()
    if (r === EOF || isEndOfLine(r)) throw new JsonPathError('unclosed action')
    const c = String.fromCodePoint(r)
    if (c === ' ' || c === '@' || c === '$') this.consumeText()
    else if (c === '[') return () => this.parseArray(cur)
    else if (c === '"' || c === "'") return () => this.parseQuote(cur, r)
    else if (c === '.') return () => this.parseField(cur)
    else if (c === '+' || c === '-' || isDigit(r)) {
      this.backup()
      return () => this.parseNumber(cur)
    } else if (isAlphaNumeric(r)) {
      this.backup()
      return () => this.parseIdentifier(cur)
    } else throw new JsonPathError(`unrecognized character in action: ${goRune(r)}`)
    return () => this.parseInsideAction(cur)
  }

  // parser.go:185 parseRightDelim

  private parseRightDelim(): Step {
    this.pos += RIGHT_DELIM.length
    this.consumeText()
    return () => this.parseText(this.root)
  }

  // parser.go:192 parseIdentifier

  private parseIdentifier(cur: ListNode): Step {
    for (;;) {
      const r = this.next()
      if (isTerminator(r)) {
        this.backup()
        break
      }
    }
    const value = this.consumeText()
    if (value === 'true' || value === 'false') cur.nodes.push({type: 'bool', value: value === 'true'})
    else cur.nodes.push({type: 'identifier', name: value})
    return () => this.parseInsideAction(cur)
  }

  // parser.go:218 parseRecursive

  private parseRecursive(cur: ListNode): Step {
    if (cur.nodes.at(-1)?.type === 'recursive') throw new JsonPathError('invalid multiple recursive descent')
    this.pos += 2
    this.consumeText()
    cur.nodes.push({type: 'recursive'})
    if (isAlphaNumeric(this.peek())) return () => this.parseField(cur)
    return () => this.parseInsideAction(cur)
  }

  // parser.go:232 parseNumber

  private parseNumber(cur: ListNode): Step {
    let r = this.peek()
    if (r === 0x2b || r === 0x2d) this.next()
    for (;;) {
      r = this.next()
      if (r !== 0x2e && !isDigit(r)) {
        this.backup()
        break
      }
    }
    const value = this.consumeText()
    const i = goAtoi(value)
    if (i !== undefined) cur.nodes.push({type: 'int', value: i})
    else {
      const d = goParseFloat(value)
      if (d === undefined) throw new JsonPathError(`cannot parse number ${value}`)
      cur.nodes.push({type: 'float', value: d})
    }
    return () => this.parseInsideAction(cur)
  }

  // parser.go:259 parseArray

  private parseArray(cur: ListNode): Step {
    for (;;) {
      const r = this.next()
      if (r === EOF || r === 0x0a) throw new JsonPathError('unterminated array')
      if (r === 0x5d) break
    }
    let text = this.consumeText()
    text = text.slice(1, -1)
    if (text === '*') text = ':'

    // union operator
    const strs = text.split(',')
    if (strs.length > 1) {
      // strings.Trim(str, " "): spaces only
      const union: ListNode[] = strs.map((s) => parseAction('union', `[${s.replace(/^ +| +$/g, '')}]`))
      cur.nodes.push({type: 'union', nodes: union})
      return () => this.parseInsideAction(cur)
    }

    // dict key
    const key = dictKeyRex.exec(text)
    if (key) {
      for (const node of parseAction('arraydict', `.${key[1]}`).nodes) cur.nodes.push(node)
      return () => this.parseInsideAction(cur)
    }

    // slice operator
    const m = sliceOperatorRex.exec(text)
    if (!m) throw new JsonPathError(`invalid array index ${text}`)
    const value = [m[1] ?? '', m[2] ?? '', m[3] ?? '']
    const params: [ParamsEntry, ParamsEntry, ParamsEntry] = [
      {value: 0, known: false, derived: false},
      {value: 0, known: false, derived: false},
      {value: 0, known: false, derived: false},
    ]
    for (let i = 0; i < 3; i++) {
      if (value[i] !== '') {
        if (i > 0) value[i] = value[i].slice(1)
        if (i > 0 && value[i] === '') params[i].known = false
        else {
          params[i].known = true
          const n = goAtoi(value[i])
          if (n === undefined) throw new JsonPathError(`array index ${value[i]} is not a number`)
          params[i].value = n
        }
      } else if (i === 1) {
        params[i].known = true
        params[i].value = params[0].value + 1
        params[i].derived = true
      } else {
        params[i].known = false
        params[i].value = 0
      }
    }
    cur.nodes.push({type: 'array', params})
    return () => this.parseInsideAction(cur)
  }

  // parser.go:341 parseFilter

  private parseFilter(cur: ListNode): Step {
    this.pos += 3
    this.consumeText()
    let begin = false
    let end = false
    let pair = 0
    for (;;) {
      const r = this.next()
      if (r === EOF || r === 0x0a) throw new JsonPathError('unterminated filter')
      if (r === 0x22 || r === 0x27) {
        if (!begin) {
          // save the paired rune
          begin = true
          pair = r
          continue
        }
        // only add when met paired rune
        if (this.input[this.pos - 2] !== '\\' && r === pair) end = true
      } else if (r === 0x29) {
        // quotes appear zero or once, paired at the beginning and end of the right side
        if (begin === end) break
      }
    }
    if (this.next() !== 0x5d) throw new JsonPathError('unclosed array expect ]')
    let text = this.consumeText()
    text = text.slice(0, -2)
    const value = filterRex.exec(text)
    if (!value) cur.nodes.push({type: 'filter', left: parseAction('text', text), right: newList(), operator: 'exists'})
    else cur.nodes.push({type: 'filter', left: parseAction('left', value[1]), right: parseAction('right', value[3]), operator: value[2]})
    return () => this.parseInsideAction(cur)
  }

  // parser.go:401 parseQuote

  private parseQuote(cur: ListNode, end: number): Step {
    for (;;) {
      const r = this.next()
      if (r === EOF || r === 0x0a) throw new JsonPathError('unterminated quoted string')
      // if it's not escape break the loop
      if (r === end && this.input[this.pos - 2] !== '\\') break
    }
    const value = this.consumeText()
    let s: string
    try {
      s = unquoteExtend(value)
    } catch (err) {
      throw new JsonPathError(`unquote string ${value} error ${(err as Error).message}`)
    }
    cur.nodes.push({type: 'text', text: s})
    return () => this.parseInsideAction(cur)
  }

  // parser.go:424 parseField

  private parseField(cur: ListNode): Step {
    this.consumeText()
    while (this.advance()) {}
    const value = this.consumeText()
    if (value === '*') cur.nodes.push({type: 'wildcard'})
    else cur.nodes.push({type: 'field', value: value.replaceAll('\\', '')})
    return () => this.parseInsideAction(cur)
  }

  // advance scans until next non-escaped terminator

  // parser.go:438

  private advance(): boolean {
    const r = this.next()
    if (r === 0x5c) this.next()
    else if (isTerminator(r)) {
      this.backup()
      return false
    }
    return true
  }
}

/** parser.go:70 parseAction: the expression inside a delimiter, parsed as one action. */
function parseAction(_name: string, text: string): ListNode {
  const p = new Parser()
  p.parse(`${LEFT_DELIM}${text}${RIGHT_DELIM}`)
  return p.root.nodes[0] as ListNode
}

function isTerminator(r: number): boolean {
  if (isSpace(r) || isEndOfLine(r)) return true
  return r === EOF || '.,[]$@{}'.includes(String.fromCodePoint(r))
}
const isSpace = (r: number) => r === 0x20 || r === 0x09
const isEndOfLine = (r: number) => r === 0x0d || r === 0x0a
/** unicode.IsDigit: decimal digits of any script (Nd). */
const isDigit = (r: number) => r !== EOF && /\p{Nd}/u.test(String.fromCodePoint(r))
/** isAlphaNumeric: '_', unicode.IsLetter or unicode.IsDigit. */
const isAlphaNumeric = (r: number) => r !== EOF && (r === 0x5f || /[\p{L}\p{Nd}]/u.test(String.fromCodePoint(r)))

/** fmt's %#U: U+0021 '!' (the character only when printable, as strconv.IsPrint says). */
function goRune(r: number): string {
  const hex = r.toString(16).toUpperCase().padStart(4, '0')
  const c = String.fromCodePoint(r)
  return /[\p{L}\p{M}\p{N}\p{P}\p{S}]/u.test(c) ? `U+${hex} '${c}'` : `U+${hex}`
}

/** strconv.Atoi on a 64-bit platform: optional sign, ASCII digits, within int64. */
function goAtoi(s: string): number | undefined {
  if (!/^[+-]?[0-9]+$/.test(s)) return undefined
  const n = BigInt(s)
  if (n > 9223372036854775807n || n < -9223372036854775808n) return undefined
  return Number(n)
}

/** strconv.ParseFloat for what parseNumber collects (sign, digits and dots). */
function goParseFloat(s: string): number | undefined {
  return /^[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)$/.test(s) ? Number(s) : undefined
}

/** parser.go:482 UnquoteExtend: strconv.Unquote for a double- or single-quoted string (strconv.UnquoteChar's escapes). */
export function unquoteExtend(s: string): string {
  const n = s.length
  if (n < 2) throw new Error('invalid syntax')
  const quote = s[0]
  if (quote !== s[n - 1] || (quote !== '"' && quote !== "'")) throw new Error('invalid syntax')
  let rest = s.slice(1, -1)
  if (!rest.includes('\\') && !rest.includes(quote)) return rest
  let out = ''
  const simple: Record<string, string> = {a: '\x07', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v', '\\': '\\'}
  while (rest.length > 0) {
    const c = rest[0]
    if (c === quote) throw new Error('invalid syntax')
    if (c !== '\\') {
      const cp = rest.codePointAt(0) as number
      const w = cp > 0xffff ? 2 : 1
      out += rest.slice(0, w)
      rest = rest.slice(w)
      continue
    }
    if (rest.length <= 1) throw new Error('invalid syntax')
    const e = rest[1]
    rest = rest.slice(2)
    if (e in simple) out += simple[e]
    else if (e === "'" || e === '"') {
      if (e !== quote) throw new Error('invalid syntax')
      out += e
    } else if (e === 'x' || e === 'u' || e === 'U') {
      const len = e === 'x' ? 2 : e === 'u' ? 4 : 8
      const hex = rest.slice(0, len)
      if (hex.length < len || !/^[0-9a-fA-F]+$/.test(hex)) throw new Error('invalid syntax')
      const v = Number.parseInt(hex, 16)
      if (e !== 'x' && (v > 0x10ffff || (v >= 0xd800 && v < 0xe000))) throw new Error('invalid syntax')
      out += String.fromCodePoint(v)
      rest = rest.slice(len)
    } else if (e >= '0' && e <= '7') {
      const oct = e + rest.slice(0, 2)
      if (!/^[0-7]{3}$/.test(oct)) throw new Error('invalid syntax')
      const v = Number.parseInt(oct, 8)
      if (v > 255) throw new Error('invalid syntax')
      out += String.fromCharCode(v)
      rest = rest.slice(2)
    } else throw new Error('invalid syntax')
  }
  return out
}

// --- jsonpath.go -----------------------------------------------------------------------------------------------------

/** A parsed template (jsonpath.go JSONPath), executed once per answer. */
export class JsonPath {
  private readonly root: ListNode
  private beginRange = 0
  private inRange = 0
  private endRange = 0
  private lastEndNode: JpNode | undefined

  /** jsonpath.go Parse; throws JsonPathError on a template client-go refuses. */
  constructor(
    template: string,
    private readonly allowMissingKeys = true,
    private readonly outputJSON = false,
  ) {
    const p = new Parser()
    p.parse(template)
    this.root = p.root
  }

  /** jsonpath.go:68 Execute: the template run over data, as text. */
  execute(data: Value): string {
    this.beginRange = this.inRange = this.endRange = 0
    this.lastEndNode = undefined
    return this.findResults(data, this.root.nodes)
      .map((r) => this.printResults(r))
      .join('')
  }

  // jsonpath.go FindResults; the nodes it works through are passed, where Go slices parser.Root.Nodes in place.

  // jsonpath.go:81

  private findResults(data: Value, nodes: JpNode[]): Value[][] {
    const cur = [data]
    const fullResult: Value[][] = []
    for (let i = 0; i < nodes.length; i++) {
      const node = nodes[i]
      const results = this.walk(cur, node)
      // encounter an end node, break the current block
      if (this.endRange > 0 && this.endRange <= this.inRange) {
        this.endRange--
        this.lastEndNode = node
        break
      }
      // encounter a range node, start a range loop
      if (this.beginRange > 0) {
        this.beginRange--
        this.inRange++
        if (results.length > 0) {
          // value.Interface(): a nil element is handed on as no value at all
          for (const value of results) fullResult.push(...this.findResults(value === null ? undefined : value, nodes.slice(i + 1)))
        } else {
          // the body is still walked, so the position advances to its end node
          this.findResults(undefined, nodes.slice(i + 1))
        }
        this.inRange--
        // resume after the most recent end node encountered
        for (let k = i + 1; k < nodes.length; k++) {
          if (nodes[k] === this.lastEndNode) {
            i = k
            break
          }
        }
        continue
      }
      fullResult.push(results)
    }
    return fullResult
  }

  // jsonpath.go PrintResults

  // jsonpath.go:146

  private printResults(input: Value[]): string {
    const results = this.outputJSON ? [input.map((v) => (v instanceof GoFloat || v instanceof GoByte ? v.value : v))] : input
    let out = ''
    results.forEach((r, i) => {
      let text: string
      const composite = r !== null && typeof r === 'object' && !(r instanceof GoFloat) && !(r instanceof GoByte)
      if (this.outputJSON) text = `${goJsonIndent(r, 4)}\n`
      else if (composite) text = goJson(r)
      else text = goPrint(r)
      if (i !== results.length - 1) text += ' '
      out += text
    })
    return out
  }

  // jsonpath.go:199 walk

  private walk(value: Value[], node: JpNode): Value[] {
    switch (node.type) {
      case 'list':
        return this.evalList(value, node)
      case 'text':
        return [node.text]
      case 'field':
        return this.evalField(value, node.value)
      case 'array':
        return this.evalArray(value, node.params)
      case 'filter':
        return this.evalFilter(value, node)
      case 'int':
        return value.map(() => node.value)
      case 'bool':
        return value.map(() => node.value)
      case 'float':
        return value.map(() => new GoFloat(node.value))
      case 'wildcard':
        return this.evalWildcard(value)
      case 'recursive':
        return this.evalRecursive(value)
      case 'union':
        return this.evalUnion(value, node.nodes)
      case 'identifier':
        return this.evalIdentifier(value, node.name)
    }
  }

  // jsonpath.go:258 evalList

  private evalList(value: Value[], node: ListNode): Value[] {
    let cur = value
    for (const n of node.nodes) cur = this.walk(cur, n)
    return cur
  }

  // jsonpath.go:271 evalIdentifier

  private evalIdentifier(input: Value[], name: string): Value[] {
    if (name === 'range') {
      this.beginRange++
      return input
    }
    if (name === 'end') {
      if (this.inRange > 0) {
        this.endRange++
        return []
      }
      throw new JsonPathError('not in range, nothing to end', [])
    }
    throw new JsonPathError(`unrecognized identifier ${name}`, input)
  }

  // jsonpath.go:290 evalArray

  private evalArray(input: Value[], nodeParams: readonly ParamsEntry[]): Value[] {
    const result: Value[] = []
    for (const value of input) {
      if (value === null) continue // template.Indirect: nil
      if (!Array.isArray(value)) throw new JsonPathError(`${goTypeName(value)} is not array or slice`, input)
      // Go copies the node's [3]ParamsEntry for each value
      const params = nodeParams.map((p) => ({...p}))
      const len = value.length
      if (!params[0].known) params[0].value = 0
      if (params[0].value < 0) params[0].value += len
      if (!params[1].known) params[1].value = len
      if (params[1].value < 0 || (params[1].value === 0 && params[1].derived)) params[1].value += len
      if (params[1].value !== params[0].value) {
        // requesting zero elements is allowed through
        if (params[0].value >= len || params[0].value < 0) throw new JsonPathError(`array index out of bounds: index ${params[0].value}, length ${len}`, input)
        if (params[1].value > len || params[1].value < 0)
          throw new JsonPathError(`array index out of bounds: index ${params[1].value - 1}, length ${len}`, input)
        if (params[0].value > params[1].value)
          throw new JsonPathError(`starting index ${params[0].value} is greater than ending index ${params[1].value}`, input)
      } else return result
      const slice = value.slice(params[0].value, params[1].value)
      let step = 1
      if (params[2].known) {
        if (params[2].value <= 0) throw new JsonPathError('step must be > 0', input)
        step = params[2].value
      }
      for (let i = 0; i < slice.length; i += step) result.push(slice[i])
    }
    return result
  }

  // jsonpath.go:347 evalUnion

  private evalUnion(input: Value[], nodes: ListNode[]): Value[] {
    try {
      return nodes.flatMap((n) => this.evalList(input, n))
    } catch (err) {
      // jsonpath.go:351: the union's input beside the error
      if (err instanceof JsonPathError) throw new JsonPathError(err.message, input)
      throw err
    }
  }

  // jsonpath.go:393 evalField

  private evalField(input: Value[], name: string): Value[] {
    const results: Value[] = []
    if (input.length === 0) return results
    for (const value of input) {
      if (value === null) continue
      if (isMap(value) && Object.hasOwn(value, name)) results.push(value[name])
    }
    if (results.length === 0) {
      if (this.allowMissingKeys) return results
      throw new JsonPathError(`${name} is not found`)
    }
    return results
  }

  // jsonpath.go:434 evalWildcard

  private evalWildcard(input: Value[]): Value[] {
    const results: Value[] = []
    for (const value of input) {
      if (value === null) continue
      results.push(...children(value))
    }
    return results
  }

  // jsonpath.go:461 evalRecursive

  private evalRecursive(input: Value[]): Value[] {
    const result: Value[] = []
    for (const value of input) {
      if (value === null) continue
      const results = children(value)
      if (results.length !== 0) {
        result.push(value)
        result.push(...this.evalRecursive(results))
      }
    }
    return result
  }

  // jsonpath.go:497 evalFilter

  private evalFilter(input: Value[], node: Extract<JpNode, {type: 'filter'}>): Value[] {
    const results: Value[] = []
    for (const value of input) {
      if (!Array.isArray(value)) throw new JsonPathError(`${goFormat(value)} is not array or slice and cannot be filtered`, input)
      for (const item of value) {
        const temp = [item]
        let lefts: Value[]
        try {
          lefts = this.evalList(temp, node.left)
        } catch (err) {
          // case exists: the error is ignored, and what evaluation returned beside it decides (nothing for a
          // missing key, whatever --allow-missing-template-keys says; evalArray's input for an index out of bounds)
          if (node.operator === 'exists' && err instanceof JsonPathError) {
            if (err.partial.length > 0) results.push(item)
            continue
          }
          throw err
        }
        if (node.operator === 'exists') {
          if (lefts.length > 0) results.push(item)
          continue
        }
        if (lefts.length === 0) continue
        if (lefts.length > 1) throw new JsonPathError('can only compare one element at a time', input)
        const rights = this.evalList(temp, node.right)
        if (rights.length === 0) continue
        if (rights.length > 1) throw new JsonPathError('can only compare one element at a time', input)
        const left = lefts[0]
        const right = rights[0]
        let pass: boolean
        try {
          pass = compare(node.operator, left, right)
        } catch (err) {
          // template.Less and the others' errors: Go returns the results so far beside them
          if (err instanceof JsonPathError) throw new JsonPathError(err.message, results)
          throw err
        }
        if (pass) results.push(item)
      }
    }
    return results
  }
}

/** evalFilter's operators (jsonpath.go:543-558), through template's comparisons. */
function compare(operator: string, left: Value, right: Value): boolean {
  switch (operator) {
    case '<':
      return less(left, right)
    case '>':
      return !lessEqual(left, right)
    case '==':
      return equal(left, right)
    case '!=':
      return !equal(left, right)
    case '<=':
      return lessEqual(left, right)
    case '>=':
      return !less(left, right)
    default:
      throw new JsonPathError(`unrecognized filter operator ${operator}`)
  }
}

function isMap(v: Value): v is Record<string, Value> {
  return v !== null && typeof v === 'object' && !Array.isArray(v) && !(v instanceof GoFloat) && !(v instanceof GoByte)
}

/** A map's keys in the order used here for Go's random one (sorted, as encoding/json writes them). */
const sortedKeys = (m: Record<string, Value>) => Object.keys(m).sort()

/** What evalWildcard and evalRecursive step into: a map's values, a slice's elements, a string's bytes. */
function children(value: Value): Value[] {
  if (Array.isArray(value)) return value
  if (isMap(value)) return sortedKeys(value).map((k) => value[k])
  if (typeof value === 'string') return [...Buffer.from(value, 'utf8')].map((b) => new GoByte(b))
  return []
}

// --- funcs.go: eq, lt, le as text/template compares ----------------------------------------------------------------

type Kind = 'bool' | 'int' | 'uint' | 'float' | 'string'

// funcs.go:30
function basicKind(v: Value): Kind {
  if (typeof v === 'boolean') return 'bool'
  if (typeof v === 'string') return 'string'
  if (typeof v === 'bigint') return 'int'
  if (v instanceof GoByte) return 'uint'
  if (v instanceof GoFloat) return 'float'
  if (typeof v === 'number') return isInt64(v) ? 'int' : 'float'
  throw new JsonPathError('invalid type for comparison')
}

const isInt64 = (n: number) => Number.isInteger(n) && Math.abs(n) < 2 ** 63
const numeric = (v: Value): number | bigint => (v instanceof GoFloat || v instanceof GoByte ? v.value : (v as number | bigint))

// funcs.go:49 Equal (NotEqual, funcs.go:101, is its inverse)
function equal(a: Value, b: Value): boolean {
  const k1 = basicKind(a)
  const k2 = basicKind(b)
  if (k1 !== k2) {
    // integer values compare regardless of the type's sign
    if ((k1 === 'int' && k2 === 'uint') || (k1 === 'uint' && k2 === 'int')) return BigInt(numeric(a)) === BigInt(numeric(b))
    throw new JsonPathError('incompatible types for comparison')
  }
  if (k1 === 'int' || k1 === 'uint') return BigInt(numeric(a)) === BigInt(numeric(b))
  if (k1 === 'float') return numeric(a) === numeric(b)
  return a === b
}

// funcs.go:108 Less (Greater, funcs.go:160, is !LessEqual; GreaterEqual, funcs.go:170, !Less)
function less(a: Value, b: Value): boolean {
  const k1 = basicKind(a)
  const k2 = basicKind(b)
  if (k1 !== k2) {
    if ((k1 === 'int' && k2 === 'uint') || (k1 === 'uint' && k2 === 'int')) return BigInt(numeric(a)) < BigInt(numeric(b))
    throw new JsonPathError('incompatible types for comparison')
  }
  if (k1 === 'bool') throw new JsonPathError('invalid type for comparison')
  if (k1 === 'int' || k1 === 'uint') return BigInt(numeric(a)) < BigInt(numeric(b))
  if (k1 === 'float') return numeric(a) < numeric(b)
  // Go compares strings byte-wise (UTF-8); UTF-16 order differs only past U+FFFF against U+E000–U+FFFF
  return (a as string) < (b as string)
}

// funcs.go:150 LessEqual: < or ==
const lessEqual = (a: Value, b: Value) => less(a, b) || equal(a, b)

// --- printing as Go does ---------------------------------------------------------------------------------------------

/** fmt.Fprint of one value (jsonpath.go:571 evalToText; exec.go:33 PrintableValue's "<no value>" for an invalid one). */
function goPrint(v: Value): string {
  if (v === undefined) return '<no value>'
  if (v === null) return 'null'
  if (v instanceof GoFloat) return goFloat(v.value)
  if (v instanceof GoByte) return String(v.value)
  if (typeof v === 'number') return isInt64(v) ? String(v) : goFloat(v)
  return String(v)
}

/** strconv.FormatFloat(f, 'g', -1, 64), fmt's %v: shortest digits, %e when the exponent is < -4 or ≥ 6 (shortest's eprec). */
export function goFloat(f: number): string {
  if (Number.isNaN(f)) return 'NaN'
  if (!Number.isFinite(f)) return f > 0 ? '+Inf' : '-Inf'
  if (f === 0) return Object.is(f, -0) ? '-0' : '0'
  const [mantissa, e] = f.toExponential().split('e')
  const exp = Number(e)
  if (exp < -4 || exp >= 6) return `${mantissa}e${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`
  return String(f)
}

/** fmt's %v of a value (an error message's): maps as map[k:v] with sorted keys, slices as [a b]. */
function goFormat(v: Value): string {
  if (v === undefined) return '<invalid reflect.Value>'
  if (v === null) return '<nil>'
  if (Array.isArray(v)) return `[${v.map(goFormat).join(' ')}]`
  if (isMap(v))
    return `map[${sortedKeys(v)
      .map((k) => `${k}:${goFormat(v[k])}`)
      .join(' ')}]`
  return goPrint(v)
}

/** Go's name of a value's type, as evalArray's error prints it. */
function goTypeName(v: Value): string {
  if (v === undefined) return '<invalid reflect.Value>'
  if (isMap(v)) return 'map[string]interface {}'
  if (typeof v === 'string') return 'string'
  if (typeof v === 'boolean') return 'bool'
  if (v instanceof GoFloat) return 'float64'
  if (v instanceof GoByte) return 'uint8'
  if (typeof v === 'bigint') return 'int64'
  if (typeof v === 'number') return isInt64(v) ? 'int64' : 'float64'
  return typeof v
}

/** A value with maps' keys sorted, as encoding/json writes maps; bigints as their digits. */
function goOrdered(v: Value): Value {
  if (Array.isArray(v)) return v.map(goOrdered)
  if (v instanceof GoFloat || v instanceof GoByte) return v.value
  if (isMap(v)) return Object.fromEntries(sortedKeys(v).map((k) => [k, goOrdered(v[k])]))
  return v
}

/** encoding/json's string escapes beyond JSON.stringify's: <, >, & (HTML-safe) and U+2028, U+2029. */
const goEscapes = (json: string) => json.replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)

/** encoding/json's text: maps' keys sorted, bigints as their digits (the project's lossless writer), Go's escapes. */
function stringifyGo(v: Value, indent?: number): string {
  return goEscapes(stringifyJson(goOrdered(v), indent))
}

/** json.Marshal. */
export const goJson = (v: Value) => stringifyGo(v)
/** json.MarshalIndent(v, "", indent). */
const goJsonIndent = (v: Value, indent: number) => stringifyGo(v, indent)

/** Parses a template as client-go does, throwing JsonPathError with its message. */
export function parseJsonPath(template: string, allowMissingKeys = true, outputJSON = false): JsonPath {
  return new JsonPath(template, allowMissingKeys, outputJSON)
}

/** node.go's String() of a node: what parser_test.go compares, node by node. */
function nodeString(n: JpNode): string {
  const p = (e: ParamsEntry) => `{${e.value} ${e.known} ${e.derived}}`
  switch (n.type) {
    case 'list':
      return 'NodeList'
    case 'text':
      return `NodeText: ${n.text}`
    case 'field':
      return `NodeField: ${n.value}`
    case 'identifier':
      return `NodeIdentifier: ${n.name}`
    case 'array':
      return `NodeArray: [${n.params.map(p).join(' ')}]`
    case 'filter':
      return `NodeFilter: NodeList ${n.operator} NodeList`
    case 'int':
      return `NodeInt: ${n.value}`
    case 'float':
      return `NodeFloat: ${n.value.toFixed(6)}`
    case 'wildcard':
      return 'NodeWildcard'
    case 'recursive':
      return 'NodeRecursive'
    case 'union':
      return 'NodeUnion'
    case 'bool':
      return `NodeBool: ${n.value}`
  }
}

/** parser_test.go collectNode: every node of a template's tree in its order (the root left out), as strings. */
export function parseTree(template: string): string[] {
  const p = new Parser()
  p.parse(template)
  const out: string[] = []
  const collect = (n: JpNode) => {
    out.push(nodeString(n))
    if (n.type === 'list') n.nodes.forEach(collect)
    else if (n.type === 'filter') {
      collect(n.left)
      collect(n.right)
    } else if (n.type === 'union') n.nodes.forEach(collect)
  }
  p.root.nodes.forEach(collect)
  return out
}
