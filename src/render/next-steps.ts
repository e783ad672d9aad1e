// Next steps as a person pastes them (issue 28.2). One style everywhere: the command alone on its line, then why
// as a shell comment under it (so a pasted pair runs the command and ignores the why). The engines write commands
// against "the cluster"; the source in force is the command line's, which engines do not know, so it is added here,
// a pure function of the command line's source options: a kubectl-why command gets `-f FILE` when reading a dump, and
// both kinds get the connection flags that were given (`--kubeconfig`, `--context`, `--cluster`, `--user`, `--server`;
// never a credential), so that pasted it reproduces the same view (kubectl cannot read a dump: when the view came
// from one, the why says that it reads the live cluster).
import type {NextStep} from '../explanation.js'
import {ROLE} from './colour.js'
import {wrap} from './layout.js'

/** The source options of the command line the view came from. */
export interface SourceInForce {
  snapshot?: string
  kubeconfig?: string
  context?: string
  cluster?: string
  user?: string
  server?: string
  namespace?: string
}

/** The connection flags kubectl and kubectl-why both take, in the order they are added (never a credential). */
const CONNECTION: readonly (readonly [keyof SourceInForce, string, ...string[]])[] = [
  ['kubeconfig', '--kubeconfig'],
  ['context', '--context'],
  ['cluster', '--cluster'],
  ['user', '--user'],
  ['server', '--server', '-s'],
]

/** A word as a POSIX shell reads it back: bare when it holds only safe characters, else single-quoted. */
export function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`
}

function has(words: string[], ...flags: string[]): boolean {
  return words.some((w) => flags.some((f) => w === f || w.startsWith(`${f}=`)))
}

/** One simple command (no pipe, no comment) with the source in force added where it is a kubectl or kubectl-why one. */
function simpleInForce(command: string, src: SourceInForce): string {
  const words = command.trim().split(/\s+/)
  const why = (words[0] === 'kubectl' && words[1] === 'why') || words[0] === 'kubectl-why'
  if (words[0] !== 'kubectl' && words[0] !== 'kubectl-why') return command
  // `hash --template` hashes the template records it is given and reads no cluster: nothing to add.
  if (why && has(words, '--template')) return command
  const add: string[] = []
  if (why && src.snapshot !== undefined && !has(words, '-f', '--snapshot')) add.push('-f', shellWord(src.snapshot))
  for (const [key, flag, ...aliases] of CONNECTION) {
    const value = src[key]
    if (value !== undefined && !has(words, flag, ...aliases)) add.push(flag, shellWord(value))
  }
  return add.length === 0 ? command : `${command.trimEnd()} ${add.join(' ')}`
}

/**
 * The step's command with the source in force added (undefined when the step has no command): to each kubectl and
 * kubectl-why command of a pipeline (`kubectl logs … | grep x`: to kubectl logs, never to grep), before a trailing
 * shell comment (`journalctl …   # on worker-1`), so that the pasted line means what the text says.
 */
export function commandInForce(command: string | undefined, src: SourceInForce): string | undefined {
  if (command === undefined) return undefined
  // A trailing comment: " #" after a space, outside quotes (the engines quote what holds a # or a |).
  const comment = /^((?:[^'"#]|'[^']*'|"[^"]*")*?)(\s+#.*)?$/.exec(command)
  const body = comment?.[1] ?? command
  const tail = comment?.[2] ?? ''
  // Pipeline segments split on a | outside quotes.
  const segments = body.match(/(?:[^'"|]|'[^']*'|"[^"]*")+/g) ?? [body]
  const out = segments.map((seg) => {
    const lead = /^\s*/.exec(seg)?.[0] ?? ''
    const trail = /\s*$/.exec(seg)?.[0] ?? ''
    const inner = seg.trim()
    const done = simpleInForce(inner, src)
    return done === inner ? seg : `${lead}${done}${trail}`
  })
  return `${out.join('|')}${tail}`
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

/** The command a person pastes for a step: its command, or the kubectl edit command of the object its change names, with the source in force. */
export function stepCommand(n: NextStep, src: SourceInForce): string | undefined {
  return commandInForce(n.command ?? editCommand(n.change), src)
}

/** One line of a next step: the command to paste, or a line of its why (already a shell comment). */
export interface NextStepLine {
  kind: 'command' | 'why'
  text: string
}

/** The lines of a list of next steps in the one style, unpainted: command (or the change's edit command), then `# why`. */
export function nextStepText(next: readonly NextStep[] | undefined, src: SourceInForce, width: number, indent: number): NextStepLine[] {
  const out: NextStepLine[] = []
  const pad = ' '.repeat(indent)
  for (const n of next ?? []) {
    const command = stepCommand(n, src)
    // A command is never cut or wrapped: it stands whole on its line, past the width if need be, so it pastes.
    if (command !== undefined) out.push({kind: 'command', text: `${pad}${command}`})
    const live = command !== undefined && src.snapshot !== undefined && !/^kubectl(-| )why\b/.test(command) && /^kubectl\b/.test(command)
    const what = n.command === undefined ? `change ${n.change ?? ''}: ` : ''
    // A dump read from stdin (-f -) is gone once read: the pasted command needs it piped in again.
    const stdin = command !== undefined && src.snapshot === '-' && /(^|\| *)kubectl(-| )why\b.* -f -( |$)/.test(command)
    const why = `${what}${n.why}${live ? ' (kubectl reads the live cluster, not the dump)' : ''}${stdin ? ' (-f -: pipe the same dump in again)' : ''}`
    // Every line of the why is a shell comment, so that a pasted block runs only the command.
    for (const l of wrap(why, width - indent - 4)) out.push({kind: 'why', text: `${pad}  # ${l}`})
  }
  return out
}

/** The lines of a list of next steps in the one style, painted for the terminal (command in the notice colour). */
export function nextStepLines(next: readonly NextStep[] | undefined, src: SourceInForce, width: number, indent: number): string[] {
  return nextStepText(next, src, width, indent).map((l) => (l.kind === 'command' ? ROLE.notice(l.text) : ROLE.muted(l.text)))
}

/** The block a command's own view ends its answer with: "Next:", then the steps in the one style; none when there are none. */
export function nextStepBlock(next: readonly NextStep[] | undefined, src: SourceInForce, width: number): string[] {
  if (!next || next.length === 0) return []
  return [ROLE.heading('Next:'), ...nextStepLines(next, src, width, 2)]
}

/** A next step as -o json|yaml|html print it: the engine's step, and the command a person pastes (text's command line). */
export interface NextStepInForce extends NextStep {
  /** The step's command (or its change's `kubectl edit` command) with the source in force added; absent when neither. */
  commandInForce?: string
}

function isNextStep(v: unknown): v is NextStep {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false
  const n = v as Record<string, unknown>
  return typeof n.why === 'string' && (typeof n.command === 'string' || typeof n.change === 'string')
}

function plain(v: unknown): v is Record<string, unknown> {
  if (typeof v !== 'object' || v === null) return false
  const p = Object.getPrototypeOf(v)
  return p === Object.prototype || p === null
}

/**
 * The data with each next step (every `next` list of NextSteps, at any depth: an Explanation's, its actors', a
 * report's findings') given its commandInForce, so that JSON carries the command the text prints. Pure: the data is
 * not changed, what holds no next step is shared, not copied.
 */
export function withCommandsInForce<T>(data: T, src: SourceInForce): T {
  const walk = (v: unknown): unknown => {
    if (Array.isArray(v)) {
      let changed = false
      const out = v.map((x) => {
        const y = walk(x)
        if (y !== x) changed = true
        return y
      })
      return changed ? out : v
    }
    if (!plain(v)) return v
    let copy: Record<string, unknown> | undefined
    for (const [k, x] of Object.entries(v)) {
      let y: unknown
      if (k === 'next' && Array.isArray(x) && x.length > 0 && x.every(isNextStep)) {
        y = x.map((n: NextStep): NextStepInForce => {
          const command = stepCommand(n, src)
          return command === undefined ? n : {...n, commandInForce: command}
        })
      } else y = walk(x)
      if (y !== x) {
        copy ??= {...v}
        copy[k] = y
      }
    }
    return copy ?? v
  }
  return walk(data) as T
}
