// Shell completion as cobra's `__complete` protocol answers it (spf13/cobra completions.go): the candidates, one a
// line, then `:<directive>`. kubectl (1.26+) runs `kubectl_complete-why ARGS… CURRENT` for plugin completion and
// reads the same format, and the bash/zsh/fish scripts of `kubectl why completion` call it too. Pure: what the
// cluster holds comes in through `names`.
import {BUILTIN_KINDS} from '../cluster/builtin-kinds.js'
import {DESCRIPTORS} from '../engine/replays.js'

/** cobra's ShellCompDirective bits. */
export const Directive = {Error: 1, NoSpace: 2, NoFileComp: 4, FilterFileExt: 8, FilterDirs: 16, KeepOrder: 32, Default: 0} as const

export interface CompletableFlag {
  name: string
  char?: string
  /** True for flags that take a value. */
  takesValue: boolean
  options?: readonly string[]
}

export interface CompletableCommand {
  id: string
  summary?: string
  flags: readonly CompletableFlag[]
}

/** What kind of object names a positional argument takes, per command: each replay's target (its descriptor). */
export const POSITIONAL: Record<string, {kinds: readonly string[]; natural?: string}> = Object.fromEntries(DESCRIPTORS.map((d) => [d.command, d.target]))

/** The lower-case type a user writes before the slash (kubectl's resource name in the singular). */
const typeWord = (kind: string): string => kind.toLowerCase()

/**
 * The kind among `kinds` that a typed TYPE names, as kubectl resolves one: the kind in lower case, its resource (the
 * plural), or one of its short names (cm, deploy, rs, sts, ds, po, no, ns, svc, cj...: src/cluster/builtin-kinds.ts).
 */
export function kindNamed(kinds: readonly string[], typed: string): string | undefined {
  const t = typed.toLowerCase()
  return kinds.find((k) => {
    const row = BUILTIN_KINDS.find((r) => r.kind === k)
    return typeWord(k) === t || `${typeWord(k)}s` === t || row?.resource === t || (row?.shortNames ?? []).includes(t)
  })
}

/** The positional words after the command: not flags, nor the values of flags that take one as the next word. */
function positionals(command: CompletableCommand, words: readonly string[]): string[] {
  const out: string[] = []
  for (let i = 0; i < words.length; i++) {
    const w = words[i]
    if (w === '--') return [...out, ...words.slice(i + 1)]
    if (w.startsWith('-') && w !== '-') {
      if (!w.includes('=') && flagFor(command, w)?.takesValue) i++
      continue
    }
    out.push(w)
  }
  return out
}

export interface NameLookup {
  /** Names of objects of a kind (namespaced kinds in `namespace`, or every namespace when undefined). */
  names(kind: string, namespace: string | undefined): Promise<string[]>
  contexts(): Promise<string[]>
}

export interface Completion {
  candidates: string[]
  directive: number
}

/** The flag values a completion needs to reach the cluster the user means: -f, -n, -A, --context, --kubeconfig. */
export function connectionOf(words: readonly string[]): {snapshot?: string; namespace?: string; allNamespaces: boolean; context?: string; kubeconfig?: string} {
  const out: ReturnType<typeof connectionOf> = {allNamespaces: false}
  const take: Record<string, 'snapshot' | 'namespace' | 'context' | 'kubeconfig'> = {
    '-f': 'snapshot',
    '--snapshot': 'snapshot',
    '-n': 'namespace',
    '--namespace': 'namespace',
    '--context': 'context',
    '--kubeconfig': 'kubeconfig',
  }
  for (let i = 0; i < words.length; i++) {
    const w = words[i]
    const eq = w.indexOf('=')
    const key = eq === -1 ? w : w.slice(0, eq)
    if (w === '-A' || w === '--all-namespaces' || w === '--all-namespaces=true') out.allNamespaces = true
    const field = take[key]
    if (!field) continue
    const value = eq === -1 ? words[i + 1] : w.slice(eq + 1)
    if (value !== undefined) out[field] = value
    if (eq === -1) i++
  }
  return out
}

function matching(list: Iterable<string>, prefix: string): string[] {
  return [...new Set(list)].filter((c) => c.startsWith(prefix)).sort()
}

function flagFor(command: CompletableCommand | undefined, word: string): CompletableFlag | undefined {
  if (!command) return undefined
  if (word.startsWith('--')) return command.flags.find((f) => f.name === word.slice(2))
  if (/^-[^-]$/.test(word)) return command.flags.find((f) => f.char === word.slice(1))
  return undefined
}

async function flagValue(flag: CompletableFlag, prefix: string, lookup: NameLookup, namespace: string | undefined): Promise<Completion> {
  if (flag.options) {
    const candidates = matching(flag.options, prefix)
    // -o jsonpath=, jsonpath-file=: the template follows the '=', so no space after it (when every candidate is such).
    const open = candidates.length > 0 && candidates.every((c) => c.endsWith('='))
    return {candidates, directive: Directive.NoFileComp | (open ? Directive.NoSpace : 0)}
  }
  switch (flag.name) {
    case 'snapshot':
    case 'kubeconfig':
    case 'out':
    case 'template':
    case 'ignore':
      return {candidates: [], directive: Directive.Default}
    case 'namespace':
      return {candidates: matching(await lookup.names('Namespace', undefined), prefix), directive: Directive.NoFileComp}
    case 'context':
      return {candidates: matching(await lookup.contexts(), prefix), directive: Directive.NoFileComp}
    default:
      void namespace
      return {candidates: [], directive: Directive.NoFileComp}
  }
}

async function positional(id: string, prefix: string, lookup: NameLookup, namespace: string | undefined): Promise<Completion> {
  const spec = POSITIONAL[id]
  if (!spec) return {candidates: [], directive: Directive.NoFileComp}
  const slash = prefix.indexOf('/')
  if (slash === -1 && spec.natural) {
    return {candidates: matching(await lookup.names(spec.natural, namespace), prefix), directive: Directive.NoFileComp}
  }
  if (slash === -1) {
    // TYPE/ first; the name follows once a type is chosen, so no space after it.
    return {
      candidates: matching(
        spec.kinds.map((k) => `${typeWord(k)}/`),
        prefix,
      ),
      directive: Directive.NoFileComp | Directive.NoSpace,
    }
  }
  const kind = kindNamed(spec.kinds, prefix.slice(0, slash))
  if (!kind) return {candidates: [], directive: Directive.NoFileComp}
  const names = await lookup.names(kind, namespace)
  return {
    candidates: matching(
      names.map((n) => `${prefix.slice(0, slash)}/${n}`),
      prefix,
    ),
    directive: Directive.NoFileComp,
  }
}

/**
 * words: what follows the program name, the last being the word under the cursor ("" after a space). A lookup that
 * fails gives no names, never an error: completion must not print one into the user's prompt.
 */
export async function complete(words: readonly string[], commands: readonly CompletableCommand[], lookup: NameLookup): Promise<Completion> {
  const current = words.at(-1) ?? ''
  const before = words.slice(0, -1)
  if (before.length === 0) {
    return {
      candidates: matching(
        commands.map((c) => c.id),
        current,
      ),
      directive: Directive.NoFileComp,
    }
  }
  const command = commands.find((c) => c.id === before[0])
  if (!command) return {candidates: [], directive: Directive.NoFileComp}
  const {namespace, allNamespaces} = connectionOf(before)
  const ns = allNamespaces ? undefined : namespace
  const previous = flagFor(command, before.at(-1) ?? '')
  const safe = async (run: () => Promise<Completion>): Promise<Completion> => {
    try {
      return await run()
    } catch {
      return {candidates: [], directive: Directive.NoFileComp}
    }
  }
  if (previous?.takesValue && before.length > 1) return safe(() => flagValue(previous, current, lookup, ns))
  const eq = current.indexOf('=')
  if (current.startsWith('--') && eq !== -1) {
    const flag = flagFor(command, current.slice(0, eq))
    if (!flag?.takesValue) return {candidates: [], directive: Directive.NoFileComp}
    const values = await safe(() => flagValue(flag, current.slice(eq + 1), lookup, ns))
    return {...values, candidates: values.candidates.map((v) => `${current.slice(0, eq + 1)}${v}`)}
  }
  if (current.startsWith('-')) {
    const all = command.flags.flatMap((f) => [`--${f.name}`, ...(f.char ? [`-${f.char}`] : [])])
    return {candidates: matching(all, current), directive: Directive.NoFileComp}
  }
  // Each command takes one object: TYPE/NAME, a NAME of its natural kind, or kubectl's TYPE NAME form. Once it is
  // given, nothing more is offered (`node worker-c1 <TAB>`); after a TYPE alone, the names of that type.
  const given = positionals(command, before.slice(1))
  // help COMMAND: the commands, as at the first word.
  if (command.id === 'help')
    return {
      candidates:
        given.length === 0
          ? matching(
              commands.map((c) => c.id),
              current,
            )
          : [],
      directive: Directive.NoFileComp,
    }
  if (given.length === 0) return safe(() => positional(command.id, current, lookup, ns))
  const spec = POSITIONAL[command.id]
  const typed = given.length === 1 && !given[0].includes('/') && spec ? kindNamed(spec.kinds, given[0]) : undefined
  if (!typed) return {candidates: [], directive: Directive.NoFileComp}
  return safe(async () => ({candidates: matching(await lookup.names(typed, ns), current), directive: Directive.NoFileComp}))
}
