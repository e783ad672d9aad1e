// Progress on stderr: one line rewritten in place on a terminal, nothing elsewhere (unless asked, then only the
// lines worth keeping in a log). It is cleared before the answer is written, so the answer never starts on a line
// that still holds "listing pods…". Its text is made terminal-safe (a namespace or file name is shown, never obeyed).
import {terminalSafe} from './terminal-safe.js'

const CLEAR_LINE = '\r\u001B[2K'

export class Progress {
  private shown = false

  constructor(
    private readonly stream: {write(text: string): unknown; isTTY?: boolean} = process.stderr,
    private readonly logLines = false,
  ) {}

  /** The callback sources and drivers take; undefined when nothing would be shown. */
  get line(): ((text: string, final?: boolean) => void) | undefined {
    if (this.stream.isTTY) {
      return (text) => {
        this.stream.write(`${CLEAR_LINE}${terminalSafe(text)}`)
        this.shown = true
      }
    }
    if (this.logLines) return (text, final) => (final ? this.stream.write(`${terminalSafe(text)}\n`) : undefined)
    return undefined
  }

  clear(): void {
    if (!this.shown) return
    this.stream.write(CLEAR_LINE)
    this.shown = false
  }
}
