import chalk from 'chalk'
import type {Severity} from '../explanation.js'
import {COLOUR_MARK, escapeControls, mark, unmark} from './terminal-safe.js'

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

/**
 * A chalk style as the colour map paints with it: the text's own controls are shown as text first (no data reaches
 * chalk raw), chalk sees the marks of colours painted inside as ESC (so it re-opens an outer style after an inner
 * one, as it does), and its escapes leave as COLOUR_MARK, which only terminalSafe turns into ESC at the exit
 * (src/render/terminal-safe.ts).
 */
const paint =
  (style: (s: string) => string): Paint =>
  (s) =>
    mark(style(unmark(escapeControls(s))))

/** A verdict's severity: none green, info cyan, warning yellow, critical bold red. */
export const SEVERITY: Record<Severity, Paint> = {
  none: paint((s) => chalk.green(s)),
  info: paint((s) => chalk.cyan(s)),
  warning: paint((s) => chalk.yellow(s)),
  critical: paint((s) => chalk.red.bold(s)),
}

/** Roles, each named by what it marks rather than by its colour. */
export const ROLE = {
  /** Headings and the subject a block is about. */
  heading: paint((s) => chalk.bold(s)),
  /** Column headers, upstream citations, notes that say how to see more. */
  muted: paint((s) => chalk.dim(s)),
  /** What matches, holds or is fine (a label that matches, a solid owner edge). */
  good: paint((s) => chalk.green(s)),
  /** Reproduced another way: a drift to know about, not a fault (a label from another layout). */
  notice: paint((s) => chalk.cyan(s)),
  /** Needs a look: partial data, warnings, what differs, what waits. */
  warn: paint((s) => chalk.yellow(s)),
  /** Wrong or missing: a dangling owner, an eviction at once, a check that did not run. */
  bad: paint((s) => chalk.red(s)),
  /** Warnings that head a section. */
  warnHeading: paint((s) => chalk.bold.yellow(s)),
  /** Unchanged text, for tables whose rows may or may not be painted. */
  plain: (s: string) => s,
} satisfies Record<string, Paint>

/** The text's width on screen: the colour map's escapes take none, other controls the width terminalSafe shows them at. */
export function visibleLength(s: string): number {
  return escapeControls(stripAnsi(s)).length
}

const MARKED_SGR = new RegExp(`${COLOUR_MARK.replace(/./gu, (c) => `\\u${c.charCodeAt(0).toString(16)}`)}\\[[0-9;]*m`, 'g')

/** The text without the colour map's escapes (an ESC from the data is not one: it is shown, and takes room). */
export function stripAnsi(s: string): string {
  return s.includes(COLOUR_MARK) ? s.replace(MARKED_SGR, '') : s
}
