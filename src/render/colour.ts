import chalk from 'chalk'
import type {Severity} from '../explanation.js'

// --color=auto|always|never. auto is chalk's own detection for stdout — FORCE_COLOR, when set, decides (as chalk reads
// it: 0/false none, 1/true/empty basic, 2 256 colours, 3 truecolor), so CI logs that render ANSI get colours through
// a pipe — else NO_COLOR (set and not empty) turns colours off, else a terminal gets them and a pipe does not.
// always and never are the user's word over both; --no-color is never.
export type ColourMode = 'auto' | 'always' | 'never'

/** The chalk level for a mode; `detected` is chalk's level as detected at start-up (chalk.level). */
export function colourLevel(mode: ColourMode, env: NodeJS.ProcessEnv, isTTY: boolean | undefined, detected: number): number {
  if (mode === 'never') return 0
  if (mode === 'always') return Math.max(detected, 1)
  // chalk gives FORCE_COLOR precedence over its argv flags: its detected level is FORCE_COLOR's answer.
  if ('FORCE_COLOR' in env) return detected
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return 0
  return isTTY ? detected : 0
}

// The one colour map, by severity and by role: renderers paint through it, never chalk directly, so --color and
// NO_COLOR (chalk.level, set once in the base command) reach every view and a colour means one thing everywhere.

type Paint = (s: string) => string

/** A verdict's severity: none green, info cyan, warning yellow, critical bold red. */
export const SEVERITY: Record<Severity, Paint> = {
  none: (s) => chalk.green(s),
  info: (s) => chalk.cyan(s),
  warning: (s) => chalk.yellow(s),
  critical: (s) => chalk.red.bold(s),
}

/** Roles, each named by what it marks rather than by its colour. */
export const ROLE = {
  /** Headings and the subject a block is about. */
  heading: (s: string) => chalk.bold(s),
  /** Column headers, upstream citations, notes that say how to see more. */
  muted: (s: string) => chalk.dim(s),
  /** What matches, holds or is fine (a label that matches, a solid owner edge). */
  good: (s: string) => chalk.green(s),
  /** Reproduced another way: a drift to know about, not a fault (a label from another layout). */
  notice: (s: string) => chalk.cyan(s),
  /** Needs a look: partial data, warnings, what differs, what waits. */
  warn: (s: string) => chalk.yellow(s),
  /** Wrong or missing: a dangling owner, an eviction at once, a check that did not run. */
  bad: (s: string) => chalk.red(s),
  /** Warnings that head a section. */
  warnHeading: (s: string) => chalk.bold.yellow(s),
  /** Unchanged text, for tables whose rows may or may not be painted. */
  plain: (s: string) => s,
} satisfies Record<string, Paint>

/** The text's width on screen: ANSI colour escapes take none. */
export function visibleLength(s: string): number {
  return stripAnsi(s).length
}

export function stripAnsi(s: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: ANSI colour escapes are what it strips
  return s.replace(/\u001B\[[0-9;]*m/g, '')
}
