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
