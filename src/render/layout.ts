// The one layout every terminal view uses: the width to write for, prose wrapped at word boundaries, kubectl's table
// style (upper-case headers, columns of left-aligned text two spaces apart, no borders) and the aligned key/value
// block (the settings). Widths are measured on screen: colour escapes take no room.
import {ROLE, visibleLength} from './colour.js'

/** The default width when stdout is not a terminal (a pipe, a file, a CI log). */
export const PIPE_WIDTH = 80

type Out = {isTTY?: boolean; columns?: number}

/** The width prose is wrapped to: the terminal's, or 80 when stdout is not a terminal. */
export function terminalWidth(stream: Out = process.stdout): number {
  return stream.isTTY && stream.columns && stream.columns > 0 ? stream.columns : PIPE_WIDTH
}

/**
 * The width tables are kept within: the terminal's; none through a pipe, where a row stays on one line as kubectl's
 * do, so that grep and awk see whole rows.
 */
export function tableWidth(stream: Out = process.stdout): number | undefined {
  return stream.isTTY && stream.columns && stream.columns > 0 ? stream.columns : undefined
}

export interface WrapOptions {
  /** Spaces before the first line. */
  indent?: number
  /** Spaces before every later line (defaults to indent). */
  hanging?: number
}

/**
 * Text wrapped to `width` at spaces, never inside a word: a token longer than the room (a uid, a URL, a command)
 * stands whole on a line of its own, past the width, rather than being cut. Newlines in the text are kept.
 */
export function wrap(text: string, width: number, opts: WrapOptions = {}): string[] {
  const indent = opts.indent ?? 0
  const hanging = opts.hanging ?? indent
  const lines: string[] = []
  for (const paragraph of text.split('\n')) {
    let line = ''
    let lineWidth = 0
    let pad = lines.length === 0 ? indent : hanging
    for (const word of paragraph.split(' ')) {
      if (word === '') continue
      const w = visibleLength(word)
      if (line !== '' && pad + lineWidth + 1 + w > width) {
        lines.push(' '.repeat(pad) + line)
        pad = hanging
        line = word
        lineWidth = w
      } else {
        line = line === '' ? word : `${line} ${word}`
        lineWidth += (lineWidth === 0 ? 0 : 1) + w
      }
    }
    lines.push(line === '' ? '' : ' '.repeat(pad) + line)
  }
  return lines
}

export interface TableOptions {
  /** Spaces before every row. */
  indent?: number
  /** Lines are kept within this width where the wrap column allows (none: rows are never wrapped). */
  width?: number
  /** The column whose cells wrap (at word boundaries) when a row is too wide; other columns are never cut. */
  wrapColumn?: number
  /** The narrowest the wrap column may become. */
  minWrapWidth?: number
  /** Paints a whole row (its cells already padded), e.g. by the edge it shows. */
  paintRow?: (row: number, line: string) => string
}

/**
 * kubectl's table style: upper-case headers (muted), cells left-aligned in columns two spaces apart, no borders,
 * trailing spaces trimmed. A row too wide for `width` wraps its `wrapColumn` onto continuation lines.
 */
export function table(head: readonly string[], rows: readonly (readonly string[])[], opts: TableOptions = {}): string[] {
  const indent = ' '.repeat(opts.indent ?? 0)
  const all = [head, ...rows]
  const widths = head.map((_, i) => Math.max(...all.map((r) => visibleLength(r[i] ?? ''))))
  const wc = opts.wrapColumn
  if (wc !== undefined && opts.width !== undefined) {
    const total = (opts.indent ?? 0) + widths.reduce((n, w) => n + w, 0) + 2 * (widths.length - 1)
    // never narrower than its longest word, which is not cut, so that the columns after it stay aligned
    const longestWord = Math.max(...all.map((r) => Math.max(0, ...(r[wc] ?? '').split(' ').map(visibleLength))))
    if (total > opts.width) widths[wc] = Math.max(opts.minWrapWidth ?? 12, visibleLength(head[wc]), longestWord, widths[wc] - (total - opts.width))
  }
  const out: string[] = []
  all.forEach((r, index) => {
    const cells = head.map((_, i) => (i === wc ? wrap(r[i] ?? '', widths[i]) : [r[i] ?? '']))
    const height = Math.max(...cells.map((c) => c.length))
    for (let k = 0; k < height; k++) {
      const line = cells
        .map((c, i) => pad(c[k] ?? '', widths[i]))
        .join('  ')
        .trimEnd()
      const text = `${indent}${line}`
      out.push(index === 0 ? ROLE.muted(text) : opts.paintRow ? opts.paintRow(index - 1, text) : text)
    }
  })
  return out
}

function pad(cell: string, width: number): string {
  return cell + ' '.repeat(Math.max(0, width - visibleLength(cell)))
}

export interface KeyValue {
  key: string
  value: string
  /** Where the value comes from, or what it means: muted, after the value. */
  note?: string
}

/**
 * An aligned key/value block: every value starts in one column and every note in the next. Values wider than a
 * third of the room do not push the notes out: their note goes under them, in the note column, wrapped to `width`.
 */
export function keyValues(items: readonly KeyValue[], width: number, indent = 2): string[] {
  if (items.length === 0) return []
  const kw = Math.max(...items.map((i) => visibleLength(i.key)))
  const valueRoom = Math.max(8, Math.floor((width - indent - kw - 4) / 3))
  const fitting = items.map((i) => visibleLength(i.value)).filter((w) => w <= valueRoom)
  const vw = fitting.length > 0 ? Math.max(...fitting) : 0
  const noteAt = indent + kw + 2 + vw + 2
  const out: string[] = []
  for (const i of items) {
    const head = `${' '.repeat(indent)}${pad(i.key, kw)}  ${i.value}`
    if (!i.note) {
      out.push(head.trimEnd())
      continue
    }
    const note = wrap(i.note, width, {indent: noteAt})
    const headWidth = visibleLength(head)
    if (headWidth + 2 <= noteAt) out.push(`${pad(head, noteAt)}${ROLE.muted(note[0].slice(noteAt))}`, ...note.slice(1).map((l) => ROLE.muted(l)))
    else out.push(head, ...note.map((l) => ROLE.muted(l)))
  }
  return out
}

/** The same table, filled a row at a time (the shape cli-table3 callers had): push rows, then toString. */
export function tableBuilder(head: readonly string[], opts: TableOptions = {}): {push(...rows: string[][]): number; toString(): string; length: number} {
  const rows: string[][] = []
  return {
    push: (...r: string[][]) => rows.push(...r),
    toString: () => table(head, rows, opts).join('\n'),
    get length() {
      return rows.length
    },
  }
}
