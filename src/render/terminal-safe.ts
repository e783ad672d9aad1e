// Text for a terminal: the cluster never writes to the on-call's screen. An API server accepts any character in an
// event message, an owner reference's name or a condition's reason, and a dump's file names and a kubeconfig's
// context names are anyone's: printed raw, ESC, OSC (window titles, OSC 8 links), C1 CSI, BEL, BS and CR can erase
// or forge what is shown. kubectl escapes ESC as "^[" and CR as "\r" in describe and custom-columns
// (staging/src/k8s.io/cli-runtime/pkg/printers/terminal.go, terminalEscaper:
// strings.NewReplacer("\x1b", "^[", "\r", "\\r")); here every other C0 control but newline and tab, DEL and the
// C1 controls (U+0080–U+009F, which terminals also obey: U+009B is CSI) are shown too, as \xNN.
//
// Colours survive without a way to forge them: the colour map (colour.ts) writes each ESC of its own escapes as
// COLOUR_MARK, a string drawn at random when the process starts, so no data written before the run can hold it.
// terminalSafe escapes every control in the text, then turns the marks back into ESC: only the colour map's escapes
// reach the terminal. Called once, where text output leaves (the base command's write, the progress line, the
// error line); JSON and YAML are written exact, HTML and JUnit escape for their own readers.

// biome-ignore lint/suspicious/noControlCharactersInRegex: the controls are what it finds
const CONTROL = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/
// biome-ignore lint/suspicious/noControlCharactersInRegex: the controls are what it finds
const CONTROLS = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/g

/** Four characters of the Private Use Area, drawn when the process starts (6400⁴ ≈ 1.7·10¹⁵ values). */
export const COLOUR_MARK = Array.from(globalThis.crypto.getRandomValues(new Uint16Array(4)), (n) => String.fromCharCode(0xe000 + (n % 6400))).join('')

function visible(c: string): string {
  if (c === '\u001B') return '^['
  if (c === '\r') return '\\r'
  return `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`
}

/** The text with every control but newline and tab shown as text (kubectl's "^[" and "\r", else \xNN). */
export function escapeControls(text: string): string {
  return CONTROL.test(text) ? text.replace(CONTROLS, visible) : text
}

/** The colour map's marks back to ESC (and only they). */
export function unmark(text: string, mark = COLOUR_MARK): string {
  return text.includes(mark) ? text.split(mark).join('\u001B') : text
}

/** ESC written as the mark: what the colour map does to chalk's output. */
export function mark(text: string, marker = COLOUR_MARK): string {
  return text.includes('\u001B') ? text.split('\u001B').join(marker) : text
}

/** What reaches a terminal: controls shown as text, then the colour map's own escapes made real. */
export function terminalSafe(text: string, marker = COLOUR_MARK): string {
  return unmark(escapeControls(text), marker)
}
