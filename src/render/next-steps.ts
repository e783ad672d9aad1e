// Next steps as a person pastes them (issue 28.2). One style everywhere: the command alone on its line, then why
// as a shell comment under it (so a pasted pair runs the command and ignores the why). The engines write commands
// against "the cluster"; the source in force is the command line's, which engines do not know, so it is added here,
// a pure function of the command line's source options: a kubectl-why command gets `-f FILE` when reading a dump and
// `--context` when one was given, so that pasted it reproduces the same view; a kubectl command gets `--context`
// (kubectl cannot read a dump: when the view came from one, the why says that it reads the live cluster).
import type {NextStep} from '../explanation.js'
import {ROLE} from './colour.js'
import {wrap} from './layout.js'

/** The source options of the command line the view came from. */
export interface SourceInForce {
  snapshot?: string
  context?: string
  namespace?: string
}

/** A word as a POSIX shell reads it back: bare when it holds only safe characters, else single-quoted. */
export function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`
}

function has(words: string[], ...flags: string[]): boolean {
  return words.some((w) => flags.some((f) => w === f || w.startsWith(`${f}=`)))
}

/** The step's command with the source in force added (undefined when the step has no command). */
export function commandInForce(command: string | undefined, src: SourceInForce): string | undefined {
  if (command === undefined) return undefined
  const words = command.trim().split(/\s+/)
  const why = words[0] === 'kubectl' && words[1] === 'why'
  const kubectl = words[0] === 'kubectl' || words[0] === 'kubectl-why'
  if (!kubectl) return command
  const add: string[] = []
  if ((why || words[0] === 'kubectl-why') && src.snapshot !== undefined && !has(words, '-f', '--snapshot')) add.push('-f', shellWord(src.snapshot))
  if (src.context !== undefined && !has(words, '--context')) add.push('--context', shellWord(src.context))
  return add.length === 0 ? command : `${command} ${add.join(' ')}`
}

/**
 * The kubectl command that opens the object a change names ("Kind ns/name: field", or "the pod template of Kind
 * ns/name: field"), so that a change step is a command to paste too; undefined when the change names no object.
 */
export function editCommand(change: string | undefined): string | undefined {
  const m = /(?:^|\bof )([A-Z][A-Za-z]+) (?:([a-z0-9][\w.-]*)\/)?([a-z0-9][\w.-]*):/.exec(change ?? '')
  if (!m) return undefined
  return `kubectl edit ${m[1].toLowerCase()} ${m[3]}${m[2] ? ` -n ${m[2]}` : ''}`
}

/** The lines of a list of next steps in the one style: command (or the change to make), then `# why`. */
export function nextStepLines(next: readonly NextStep[] | undefined, src: SourceInForce, width: number, indent: number): string[] {
  const out: string[] = []
  for (const n of next ?? []) {
    const edit = n.command === undefined ? editCommand(n.change) : undefined
    const command = commandInForce(n.command ?? edit, src)
    // A command is never cut or wrapped: it stands whole on its line, past the width if need be, so it pastes.
    if (command !== undefined) out.push(`${' '.repeat(indent)}${ROLE.notice(command)}`)
    const live = command !== undefined && src.snapshot !== undefined && !/^kubectl(-| )why\b/.test(command) && /^kubectl\b/.test(command)
    const what = n.command === undefined ? `change ${n.change ?? ''}: ` : ''
    const why = `${what}${n.why}${live ? ' (kubectl reads the live cluster, not the dump)' : ''}`
    // Every line of the why is a shell comment, so that a pasted block runs only the command.
    out.push(...wrap(why, width - indent - 4).map((l) => ROLE.muted(`${' '.repeat(indent + 2)}# ${l}`)))
  }
  return out
}
