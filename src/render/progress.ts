// Progress on stderr: one line rewritten in place on a terminal, nothing elsewhere unless asked (--progress=always:
// then only the lines worth keeping in a log), never with --progress=never. It is cleared before the answer is
// written, so the answer never starts on a line that still holds "listing pods…". Its text is made terminal-safe
// (a namespace or file name is shown, never obeyed).
//
// Why the line is cut to the terminal's width: `\r\x1b[2K` returns to the start of the cursor's physical row and
// erases that row only. A line longer than the width has wrapped onto rows above the cursor, which the next rewrite
// leaves behind (issue 28: 33 stale "audit: listed 23/48 kinds…" rows at 80 columns). So the line is kept to width-1
// display columns (the last column left empty: writing into it puts some terminals in the pending-wrap state).
import {terminalSafe} from './terminal-safe.js'

const CLEAR_LINE = '\r\u001B[2K'

export const PROGRESS_MODES = ['auto', 'always', 'never'] as const
export type ProgressMode = (typeof PROGRESS_MODES)[number]

/** The width assumed for a terminal that reports none (as kubectl's printers assume 80). */
const DEFAULT_COLUMNS = 80
const BAR_CELLS = 10

// East Asian Wide and Fullwidth ranges (and the emoji planes), which take two columns; combining marks and
// zero-width characters take none. A deliberate subset of Unicode's EastAsianWidth.txt covering what a name or a
// message in a cluster plausibly holds; a character outside it counts as one column.
const WIDE =
  /[\u1100-\u115F\u231A\u231B\u2329\u232A\u23E9-\u23EC\u23F0\u23F3\u25FD\u25FE\u2614\u2615\u2648-\u2653\u267F\u2693\u26A1\u26AA\u26AB\u26BD\u26BE\u26C4\u26C5\u26CE\u26D4\u26EA\u26F2\u26F3\u26F5\u26FA\u26FD\u2705\u270A\u270B\u2728\u274C\u274E\u2753-\u2755\u2757\u2795-\u2797\u27B0\u27BF\u2B1B\u2B1C\u2B50\u2B55\u2E80-\u303E\u3041-\u33FF\u3400-\u4DBF\u4E00-\u9FFF\uA000-\uA4CF\uA960-\uA97F\uAC00-\uD7A3\uF900-\uFAFF\uFE10-\uFE19\uFE30-\uFE6F\uFF00-\uFF60\uFFE0-\uFFE6\u{1F300}-\u{1F64F}\u{1F680}-\u{1F6FF}\u{1F900}-\u{1F9FF}\u{1FA70}-\u{1FAFF}\u{20000}-\u{3FFFD}]/u
const ZERO = /[\p{Mn}\p{Me}\u200B-\u200F\u2060\uFEFF]/u

/** Columns one character takes on a terminal. */
export function charWidth(ch: string): number {
  if (ZERO.test(ch)) return 0
  return WIDE.test(ch) ? 2 : 1
}

/** Columns a (control-free) text takes on a terminal. */
export function displayWidth(text: string): number {
  let n = 0
  for (const ch of text) n += charWidth(ch)
  return n
}

/** The text cut to at most `columns` display columns, ending in "…" when cut. */
export function fitColumns(text: string, columns: number): string {
  if (displayWidth(text) <= columns) return text
  if (columns <= 0) return ''
  let out = ''
  let used = 0
  for (const ch of text) {
    const w = charWidth(ch)
    if (used + w > columns - 1) break
    out += ch
    used += w
  }
  return `${out}…`
}

/**
 * The line a terminal shows: a bar with the counts first when the text holds a "done/total" count (so that a
 * cut line keeps them), then the text, all within `columns - 1` display columns, on one row.
 */
export function progressLine(text: string, columns: number): string {
  const flat = terminalSafe(text.replace(/\s+/g, ' ').trim())
  const m = /(\d+)\/(\d+)/.exec(flat)
  let line = flat
  if (m && Number(m[2]) > 0) {
    const done = Math.min(Number(m[1]), Number(m[2]))
    const filled = Math.round((done / Number(m[2])) * BAR_CELLS)
    line = `[${'#'.repeat(filled)}${'-'.repeat(BAR_CELLS - filled)}] ${flat}`
  }
  return fitColumns(line, Math.max(1, columns - 1))
}

type Stream = {write(text: string): unknown; isTTY?: boolean; columns?: number}

export class Progress {
  private shown = false

  constructor(
    private readonly stream: Stream = process.stderr,
    /** auto: a terminal only; always: a terminal, or the final lines as a log elsewhere; never: nothing. */
    public mode: ProgressMode = 'auto',
  ) {}

  /** The callback sources and drivers take; undefined when nothing would be shown. */
  get line(): ((text: string, final?: boolean) => void) | undefined {
    if (this.mode === 'never') return undefined
    if (this.stream.isTTY) {
      return (text) => {
        // The width read at each line: a terminal resized mid-run gets lines that fit it.
        const columns = this.stream.columns && this.stream.columns > 0 ? this.stream.columns : DEFAULT_COLUMNS
        this.stream.write(`${CLEAR_LINE}${progressLine(text, columns)}`)
        this.shown = true
      }
    }
    if (this.mode === 'always') return (text, final) => (final ? this.stream.write(`${terminalSafe(text)}\n`) : undefined)
    return undefined
  }

  clear(): void {
    if (!this.shown) return
    this.stream.write(CLEAR_LINE)
    this.shown = false
  }
}
