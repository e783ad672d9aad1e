// Issue 28.2's test: every next step on every example, printed in text and in JSON, is one a person can paste. Each
// example is run the ways it documents (its examples/<name>.md or the snapshot's kubectlWhy.readme, the README's
// commands) and as the audit of it (-A, default table, -o wide, JSON, JUnit, HTML); gc --all and replicas --all on
// the examples of those kinds. For each run:
// - the one style (src/render/next-steps.ts): every step JSON carries with a commandInForce stands whole, alone on its
//   line, in the text (and the JUnit, and the HTML's code), the next line a shell comment; no older style anywhere;
// - each such command parses as shell words (no redirection, no substitution, `|` only between commands) into
//   kubectl or kubectl-why commands, or a command a person runs on the node (journalctl, said so in a comment);
// - a kubectl command names a verb this machine's kubectl has (`kubectl VERB --help`), only flags that verb's help
//   or `kubectl options` lists, and a resource type kubectl knows (the built-in types, src/cluster/builtin-kinds.ts);
//   no cluster is contacted;
// - a kubectl-why command RUNS against the same example and exits 0 or 1, never 2 (bad input: the printed command
//   would be wrong), its stdin, when it reads one, what the kubectl command piped into it prints of the example.
// Run `npm run build` first.
import assert from 'node:assert/strict'
import {spawnSync} from 'node:child_process'
import {existsSync, readdirSync, readFileSync} from 'node:fs'
import {describe, test} from 'node:test'
import {fileURLToPath} from 'node:url'
import {parseAllDocuments} from 'yaml'
import {BUILTIN_KINDS} from '../../src/cluster/builtin-kinds.js'
import {type CliResult, runCli} from '../support/cli.js'

// biome-ignore lint/suspicious/noExplicitAny: the JSON of a run, read field by field
type Any = any
const ROOT = fileURLToPath(new URL('../../', import.meta.url))
const EXAMPLES = `${ROOT}examples/`
const DATA = readdirSync(EXAMPLES)
  .filter((f) => /\.(json|yaml)$/.test(f))
  .sort()
const COMMANDS = ['audit', 'gc', 'node', 'evicted', 'replicas', 'hash']
const hasKubectl = spawnSync('kubectl', ['version', '--client'], {encoding: 'utf8'}).status === 0

// ---- shell words -------------------------------------------------------------------------------------------------

/**
 * A command line as a POSIX shell reads it: words (quotes removed), commands split on `|`, a trailing `# comment`.
 * Anything else a shell would act on (redirection, `;`, `&`, `$(…)`, backticks, globs) makes it no plain command line.
 */
export function shellWords(line: string): {commands: string[][]; comment?: string} {
  const commands: string[][] = [[]]
  let word: string | undefined
  let i = 0
  const end = () => {
    if (word !== undefined) commands[commands.length - 1].push(word)
    word = undefined
  }
  while (i < line.length) {
    const c = line[i]
    if (c === "'") {
      const j = line.indexOf("'", i + 1)
      if (j < 0) throw new Error(`unterminated ' in: ${line}`)
      word = (word ?? '') + line.slice(i + 1, j)
      i = j + 1
    } else if (c === '"') {
      let j = i + 1
      let text = ''
      for (; j < line.length && line[j] !== '"'; j++) {
        if (line[j] === '$' || line[j] === '`') throw new Error(`substitution in a double-quoted word: ${line}`)
        if (line[j] === '\\' && '"\\$`'.includes(line[j + 1] ?? '')) j++
        text += line[j]
      }
      if (j >= line.length) throw new Error(`unterminated " in: ${line}`)
      word = (word ?? '') + text
      i = j + 1
    } else if (c === '\\') {
      word = (word ?? '') + (line[i + 1] ?? '')
      i += 2
    } else if (/\s/.test(c)) {
      end()
      i++
    } else if (c === '#' && word === undefined) {
      end()
      return {commands, comment: line.slice(i + 1).trim()}
    } else if (c === '|') {
      end()
      if (commands[commands.length - 1].length === 0) throw new Error(`empty command before | in: ${line}`)
      commands.push([])
      i++
    } else if (';&<>()`$'.includes(c)) {
      throw new Error(`${c} outside quotes: not a plain command line: ${line}`)
    } else if ('*?['.includes(c)) {
      throw new Error(`glob character ${c} outside quotes: ${line}`)
    } else {
      word = (word ?? '') + c
      i++
    }
  }
  end()
  if (commands.some((c) => c.length === 0)) throw new Error(`empty command in: ${line}`)
  return {commands}
}

describe('shellWords (the parser the check uses, worked by hand)', () => {
  test('words, quotes, pipes and a comment', () => {
    assert.deepEqual(shellWords(`kubectl get pods -l 'app=web,x=y' -o jsonpath='{.a}' | grep -i x   # on n1`), {
      commands: [
        ['kubectl', 'get', 'pods', '-l', 'app=web,x=y', '-o', 'jsonpath={.a}'],
        ['grep', '-i', 'x'],
      ],
      comment: 'on n1',
    })
    assert.deepEqual(shellWords(`kubectl why node 'my node' -f "a b.yaml"`).commands, [['kubectl', 'why', 'node', 'my node', '-f', 'a b.yaml']])
  })
  test('what a shell would act on is refused', () => {
    for (const bad of ['kubectl get pods > x', 'kubectl get pods; rm x', 'kubectl get $(x)', "kubectl get 'x", 'kubectl get pods |', 'kubectl get po*']) {
      assert.throws(() => shellWords(bad), Error, bad)
    }
  })
})

// ---- kubectl's own word for what it accepts ----------------------------------------------------------------------

interface Flags {
  /** long name → takes a value */
  long: Map<string, boolean>
  /** short letter → takes a value */
  short: Map<string, boolean>
}

function helpFlags(text: string): Flags {
  const flags: Flags = {long: new Map(), short: new Map()}
  // kubectl's help: "    -n, --namespace='':" / "    --show-labels=false:" (a boolean's default is true or false).
  for (const m of text.matchAll(/^\s+(?:-(\w), )?--([\w-]+)=(.*):$/gm)) {
    const value = !/^(true|false)$/.test(m[3])
    flags.long.set(m[2], value)
    if (m[1]) flags.short.set(m[1], value)
  }
  return flags
}

const helpCache = new Map<string, string | undefined>()
function kubectlHelp(words: string[]): string | undefined {
  const key = words.join(' ')
  if (!helpCache.has(key)) {
    // `kubectl options` prints the global flags (its --help would describe the options command).
    const r = spawnSync('kubectl', key === 'options' ? words : [...words, '--help'], {
      encoding: 'utf8',
      env: {...process.env, KUBECONFIG: '/nonexistent/kubeconfig'},
    })
    helpCache.set(key, r.status === 0 ? r.stdout : undefined)
  }
  return helpCache.get(key)
}

/** TYPE, TYPE.group, or either with /NAME: a type kubectl knows without asking a server for its discovery. */
function knownType(arg: string): boolean {
  const type = arg.split('/')[0].toLowerCase()
  const [name, ...group] = type.split('.')
  const t = BUILTIN_KINDS.find((k) => k.resource === name || (k.singularName ?? k.kind.toLowerCase()) === name || (k.shortNames ?? []).includes(name))
  if (!t) return false
  return group.length === 0 || group.join('.') === t.group || (t.group === '' && group.join('.') === 'core')
}

/** What is wrong with a kubectl command line (after "kubectl"), or undefined when kubectl accepts its form. */
function kubectlProblem(args: string[]): string | undefined {
  const top = kubectlHelp([args[0]])
  if (top === undefined) return `kubectl has no command ${args[0]}`
  // A group (auth, rollout): its subcommand is the verb.
  const group = /^Available Commands:/m.test(top)
  const verb = group ? args.slice(0, 2) : args.slice(0, 1)
  const help = group ? kubectlHelp(verb) : top
  if (help === undefined) return `kubectl ${verb.join(' ')} does not exist`
  const own = helpFlags(help)
  const global = helpFlags(kubectlHelp(['options']) ?? '')
  const positional: string[] = []
  const rest = args.slice(verb.length)
  for (let i = 0; i < rest.length; i++) {
    const w = rest[i]
    if (w.startsWith('--')) {
      const [name, value] = [w.slice(2).split('=')[0], w.includes('=')]
      const takes = own.long.get(name) ?? global.long.get(name)
      if (takes === undefined) return `kubectl ${verb.join(' ')} has no flag --${name}`
      if (takes && !value) i++
    } else if (w.startsWith('-') && w.length > 1) {
      const letter = w[1]
      const takes = own.short.get(letter) ?? global.short.get(letter)
      if (takes === undefined) return `kubectl ${verb.join(' ')} has no flag -${letter}`
      if (takes && w.length === 2) i++
    } else positional.push(w)
  }
  // The verbs that name a resource first (auth can-i: after its verb), as kubectl's resource builder reads it.
  const typed = ['get', 'describe', 'edit', 'delete', 'label', 'annotate', 'patch'].includes(verb[0])
    ? positional[0]
    : verb.join(' ') === 'rollout status'
      ? positional[0]
      : verb.join(' ') === 'auth can-i'
        ? positional[1]
        : undefined
  if (typed !== undefined && !knownType(typed)) return `kubectl ${verb.join(' ')}: resource type ${typed} is not one kubectl knows`
  if (['get', 'describe', 'edit', 'rollout status'].includes(verb.join(' ')) && positional.length === 0) return `kubectl ${verb.join(' ')} names no resource`
  return undefined
}

// ---- the runs ----------------------------------------------------------------------------------------------------

interface Run {
  /** The example it reads (a file under examples/). */
  example: string
  args: string[]
  /** Where it comes from, for the failure message. */
  from: string
}

function docText(example: string): string {
  const md = `${EXAMPLES}${example.replace(/\.(json|yaml)$/, '.md')}`
  const readme = /"readme":\s*("(?:[^"\\]|\\.)*")/.exec(readFileSync(`${EXAMPLES}${example}`, 'utf8'))
  return `${existsSync(md) ? readFileSync(md, 'utf8') : ''}\n${readme ? JSON.parse(readme[1]) : ''}`
}

const ARG = /^(-{1,2}[\w-]+(=\S+)?|[a-z0-9][\w.-]*(\/[a-z0-9][\w.-]*)?)$/

/** The kubectl-why commands an example's documentation names, with -f that example added where they omit it. */
function documented(example: string): Run[] {
  const text = docText(example)
  const found: string[] = []
  // `kubectl why gc …` and the short `evicted pod/x -n shop` forms, in backticks.
  for (const m of text.matchAll(/`(?:kubectl why |kubectl-why )?((?:audit|gc|node|evicted|replicas|hash) [^`]+)`/g)) found.push(m[1])
  // A readme's "gc job/build-42 -n ci: removeFinalizer" form: a command, then a colon.
  for (const m of text.matchAll(/\b((?:audit|gc|node|evicted|replicas|hash)(?: [^\s:`]+)+?):/g)) {
    const words = m[1].split(' ').slice(1)
    // Its arguments all argument-like, the first a flag or a TYPE/NAME of a type kubectl knows (not "evicted shop/x").
    if (words.every((w) => ARG.test(w)) && (words[0].startsWith('-') || (words[0].includes('/') && knownType(words[0])))) found.push(m[1])
  }
  return found.map((c) => {
    const args = c.trim().split(/\s+/)
    const i = args.indexOf('-f')
    if (i >= 0) args.splice(i, 2)
    return {example, args: [...args, '-f', `${EXAMPLES}${example}`], from: `examples doc: ${c}`}
  })
}

/** The README's `kubectl-why … -f examples/X` lines (```sh blocks), without their output redirection and -o. */
function readmeRuns(): Run[] {
  const readme = readFileSync(`${ROOT}README.md`, 'utf8')
  const out: Run[] = []
  for (const block of readme.matchAll(/```sh\n([\s\S]*?)```/g)) {
    for (const raw of block[1].split('\n')) {
      const m = /^(?:npx )?kubectl-why (.*)$/.exec(raw.replace(/\s+#.*$/, '').trim())
      if (!m) continue
      const words = m[1].split(/\s+/)
      const args: string[] = []
      for (let i = 0; i < words.length; i++) {
        if (words[i] === '>' || words[i] === '-o') i++
        else args.push(words[i])
      }
      const f = args.indexOf('-f')
      if (!COMMANDS.includes(args[0]) || f < 0 || args.includes('--template')) continue
      const example = args[f + 1].replace(/^examples\//, '')
      args[f + 1] = `${EXAMPLES}${example}`
      out.push({example, args, from: `README: ${m[1]}`})
    }
  }
  return out
}

function runs(): Run[] {
  const all: Run[] = []
  for (const example of DATA) {
    const file = `${EXAMPLES}${example}`
    all.push({example, args: ['audit', '-A', '-f', file], from: 'the audit of every example'})
    if (/^(gc-|incident)/.test(example)) all.push({example, args: ['gc', '--all', '-A', '-f', file], from: 'gc --all on a gc example'})
    if (/^(replicas-|incident)/.test(example)) all.push({example, args: ['replicas', '--all', '-A', '-f', file], from: 'replicas --all on a replicas example'})
    if (/^(hash-|incident)/.test(example)) all.push({example, args: ['hash', '--all', '-A', '-f', file], from: 'hash --all on a hash example'})
    if (/^(node-|evicted-|incident)/.test(example)) all.push({example, args: ['node', '-f', file], from: 'node on a node example'})
    all.push(...documented(example))
  }
  all.push(...readmeRuns())
  const seen = new Set<string>()
  return all.filter((r) => !seen.has(r.args.join(' ')) && seen.add(r.args.join(' ')))
}

/** At most `n` at a time: the machine is shared. */
async function pool<T, R>(items: readonly T[], n: number, f: (t: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length)
  let next = 0
  await Promise.all(
    Array.from({length: n}, async () => {
      while (next < items.length) {
        const i = next++
        out[i] = await f(items[i])
      }
    }),
  )
  return out
}

/** Every next step a JSON answer holds (an Explanation's, its actors', a report's findings'), at any depth. */
function stepsOf(data: unknown): Any[] {
  const out: Any[] = []
  const walk = (v: unknown) => {
    if (Array.isArray(v)) v.forEach(walk)
    else if (v && typeof v === 'object')
      for (const [k, x] of Object.entries(v)) {
        if (k === 'next' && Array.isArray(x) && x.every((n) => n && typeof n === 'object' && typeof n.why === 'string')) out.push(...x)
        else walk(x)
      }
  }
  walk(data)
  return out
}

const OLD_STYLES: [RegExp, string][] = [
  [/(^|\s)next: /m, '"next: …" (the old gc, replicas and JUnit style)'],
  [/^\s*\$ kubectl/m, '"$ cmd" (the old node and evicted style)'],
  [/run `kubectl[^`]*` — /, '"run `cmd` — why"'],
  [/`kubectl[^`]*` — /, '"`cmd` — why"'],
]

function decodeXml(s: string): string {
  return s
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;|&#39;|&#x27;/g, "'")
    .replace(/&#(\d+);/g, (_, d) => String.fromCodePoint(Number(d)))
    .replace(/&amp;/g, '&')
}

/** Each command alone on a line of `text` (indented), the line after it a shell comment; the problems found. */
function oneStyle(text: string, commands: readonly string[], where: string): string[] {
  const lines = text.split('\n')
  const problems: string[] = []
  for (const c of commands) {
    const i = lines.findIndex((l) => l.trim() === c)
    if (i < 0) problems.push(`${where}: the command is not alone and whole on a line: ${c}`)
    else if (!/^\s*# /.test(lines[i + 1] ?? '')) problems.push(`${where}: no "# why" line under: ${c}`)
  }
  for (const [re, name] of OLD_STYLES) if (re.test(text)) problems.push(`${where}: an older next-step style: ${name}`)
  return problems
}

/** What `kubectl get TYPE -n NS -o yaml|json` prints of an example: its objects of that type in that namespace. */
function kubectlGetOf(example: string, args: string[]): string {
  const ns = args[args.indexOf('-n') + 1]
  const type = args[2]
  const text = readFileSync(`${EXAMPLES}${example}`, 'utf8')
  const items: Any[] = []
  const collect = (o: Any) => {
    if (!o || typeof o !== 'object') return
    if (Array.isArray(o.items)) o.items.forEach(collect)
    else if (typeof o.kind === 'string' && o.metadata) items.push(o)
  }
  if (example.endsWith('.json')) collect(JSON.parse(text))
  else for (const doc of parseAllDocuments(text)) collect(doc.toJSON())
  const t = BUILTIN_KINDS.find((k) => k.resource === type || k.singularName === type || (k.shortNames ?? []).includes(type))
  assert.ok(t, `a type the test can emulate kubectl get for: ${type}`)
  const picked = items.filter((o) => o.kind === t.kind && o.metadata?.namespace === ns)
  return JSON.stringify({apiVersion: 'v1', kind: 'List', items: picked})
}

describe('every next step on every example pastes as a command (issue 28.2)', {
  skip: hasKubectl ? false : 'kubectl is not installed: its verbs and flags cannot be checked',
}, () => {
  test('printed in the one style in text, -o wide, JUnit and HTML; JSON carries it; each parses, kubectl accepts its form, kubectl-why runs it', async () => {
    const all = runs()
    // Each documented run must itself run (exit 0 or 1): a documented command that is bad input is a broken doc.
    const problems: string[] = []
    const pasted = new Map<string, {example: string; words: string[][]; from: string}>()
    const results = await pool(all, 3, async (r) => {
      const audit = r.args[0] === 'audit'
      // JUnit and HTML on the examples whose steps hold pipelines, comments, quotes and changes (two runs more each).
      const formats = ['json', 'table', ...(audit ? ['wide'] : [])]
      if (audit && /^(incident|gc-foreground-finished|node-lease-cache-lag|hash-unreproducible)\./.test(r.example)) formats.push('junit', 'html')
      const out: Record<string, CliResult> = {}
      for (const f of formats) out[f] = await runCli(f === 'table' ? r.args : [...r.args, '-o', f])
      const {json, table, ...extra} = out
      return {r, json, table, extra}
    })
    for (const {r, json, table, extra} of results) {
      const name = `${r.args.map((a) => a.replace(EXAMPLES, 'examples/')).join(' ')} (${r.from})`
      if (json.code > 1 || table.code > 1) {
        problems.push(`${name}: exit ${json.code}/${table.code}: ${json.stderr.trim() || table.stderr.trim()}`)
        continue
      }
      const steps = stepsOf(JSON.parse(json.stdout))
      const commands = [...new Set(steps.filter((n) => n.commandInForce !== undefined).map((n) => n.commandInForce as string))]
      for (const n of steps) {
        // A step that names a command or an object to edit carries the command to paste.
        if (n.command !== undefined && n.commandInForce === undefined) problems.push(`${name}: JSON step without commandInForce: ${n.command}`)
      }
      // The default audit table shows the first findings of each group; -o wide all of them. Every other view shows all.
      const full = r.args[0] === 'audit' ? extra.wide.stdout : table.stdout
      problems.push(...oneStyle(full, commands, `${name}${r.args[0] === 'audit' ? ' -o wide' : ''}`))
      for (const [re, style] of OLD_STYLES) if (re.test(table.stdout)) problems.push(`${name}: an older next-step style: ${style}`)
      if (r.args[0] === 'audit') {
        // The default table: each command shown is whole on its line with its why under it.
        const shown = commands.filter((c) => table.stdout.split('\n').some((l) => l.trim() === c))
        problems.push(...oneStyle(table.stdout, shown, name))
        if (extra.junit) problems.push(...oneStyle(decodeXml(extra.junit.stdout), commands, `${name} -o junit`))
        const codes = [...(extra.html?.stdout ?? '').matchAll(/<code class="command">([^<]*)<\/code>/g)].map((m) => decodeXml(m[1]))
        if (extra.html) for (const c of commands) if (!codes.includes(c)) problems.push(`${name} -o html: no <code> holds the command whole: ${c}`)
      }
      for (const c of commands) {
        let words: {commands: string[][]; comment?: string}
        try {
          words = shellWords(c)
        } catch (err) {
          problems.push(`${name}: ${(err as Error).message}`)
          continue
        }
        for (const w of words.commands) {
          if (w[0] === 'kubectl' && w[1] === 'why') pasted.set(c, {example: r.example, words: words.commands, from: name})
          else if (w[0] === 'kubectl') {
            const p = kubectlProblem(w.slice(1))
            if (p) problems.push(`${name}: ${c}: ${p}`)
          } else if (w[0] === 'grep' && words.commands[0][0] === 'kubectl') {
            // A filter of what kubectl printed.
          } else if (w[0] === 'journalctl' && /^on \S+$/.test(words.comment ?? '')) {
            // Run on the node, which the comment names.
          } else problems.push(`${name}: ${c}: ${w[0]} is not kubectl or kubectl-why (nor a node's journalctl said to run on the node)`)
        }
      }
    }
    // Each kubectl-why command printed, run against the example it was printed for: exit 0 or 1, never 2.
    await pool([...pasted], 3, async ([c, {example, words, from}]) => {
      const why = words.findIndex((w) => w[0] === 'kubectl' && w[1] === 'why')
      const stdin = why > 0 ? kubectlGetOf(example, words[why - 1]) : undefined
      const r = await runCli(words[why].slice(2), {cwd: ROOT, stdin})
      if (r.code !== 0 && r.code !== 1) problems.push(`${from}: the printed ${c} exits ${r.code}: ${r.stderr.trim()}`)
    })
    assert.ok(pasted.size > 10, `kubectl-why commands were printed and run (${pasted.size})`)
    assert.deepEqual(problems, [])
  })
})
