// src/explanation.ts and schemas/explanation.json held together: every Explanation the CLI prints with -o json on
// the README's example commands and in the audit of every example validates against the schema's Explanation, and
// the schema's required and listed fields of each shared definition are the TypeScript interface's (written out
// below by hand from src/explanation.ts; the typecheck fails if an interface moves away
// from its list). Run `npm run build` first.
import assert from 'node:assert/strict'
import {readdirSync, readFileSync} from 'node:fs'
import {describe, test} from 'node:test'
import {fileURLToPath} from 'node:url'
import type {Actor, Evidence, Explanation, KindCoverage, Problem, SourceDescription, Step, Subject} from '../../src/explanation.js'
import type {NextStepInForce} from '../../src/render/next-steps.js'
import {runCli} from '../support/cli.js'
import {type Any, schemaJson, validatorFor} from '../support/schemas.js'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))
const EXAMPLES = fileURLToPath(new URL('../../examples/', import.meta.url))
const valid = validatorFor('explanation', 'Explanation')
const definitions = schemaJson('explanation').definitions

// The keys an interface declares (an index signature such as Explanation's [extra: string] is no key), and of
// those the ones it does not mark optional.
type Declared<T> = keyof {[K in keyof T as string extends K ? never : number extends K ? never : K]: T[K]}
type RequiredKeys<T> = {[K in Declared<T>]-?: object extends Pick<T, K> ? never : K}[Declared<T>]
/** A list of exactly the keys U: each element one of them, and none missing (the argument's type is never then). */
const exactly =
  <U>() =>
  <const L extends readonly U[]>(list: L & ([Exclude<U, L[number]>] extends [never] ? unknown : never)) =>
    list as readonly string[]

/** Per shared definition: the interface's non-optional keys, then all its keys, by hand from the interface. */
const INTERFACES: Record<string, {required: readonly string[]; keys: readonly string[]}> = {
  // Explanation: everything but next, which is absent when nothing needs doing.
  Explanation: {
    required: exactly<RequiredKeys<Explanation>>()(['subject', 'controller', 'verdict', 'severity', 'summary', 'steps', 'evaluatedAt', 'source']),
    keys: exactly<Declared<Explanation>>()(['subject', 'controller', 'verdict', 'severity', 'summary', 'steps', 'evaluatedAt', 'source', 'next', 'actors']),
  },
  // Actor: at is absent when the data cannot say when.
  Actor: {
    required: exactly<RequiredKeys<Actor>>()(['actor', 'action', 'rule', 'evidence', 'next']),
    keys: exactly<Declared<Actor>>()(['actor', 'action', 'at', 'rule', 'evidence', 'next']),
  },
  Subject: {
    required: exactly<RequiredKeys<Subject>>()(['kind', 'name']),
    keys: exactly<Declared<Subject>>()(['kind', 'apiVersion', 'namespace', 'name', 'uid']),
  },
  Step: {
    required: exactly<RequiredKeys<Step>>()(['rule', 'upstream', 'result', 'why']),
    keys: exactly<Declared<Step>>()(['rule', 'upstream', 'inputs', 'result', 'why', 'inferred']),
  },
  Problem: {required: exactly<RequiredKeys<Problem>>()(['what', 'reason']), keys: exactly<Declared<Problem>>()(['what', 'reason', 'file', 'hint'])},
  // SourceDescription: only the mode is always there.
  Source: {
    required: exactly<RequiredKeys<SourceDescription>>()(['mode']),
    keys: exactly<Declared<SourceDescription>>()(['mode', 'context', 'file', 'serverVersion', 'k8sVersion', 'capturedAt', 'settings', 'partial', 'evidence']),
  },
  // NextStep: why, and one of command or change (the schema's anyOf; the interface cannot say "one of"); as printed, the
  // renderer's commandInForce beside the engine's fields (src/render/next-steps.ts NextStepInForce).
  NextStep: {
    required: exactly<RequiredKeys<NextStepInForce>>()(['why']),
    keys: exactly<Declared<NextStepInForce>>()(['command', 'change', 'why', 'commandInForce']),
  },
  // Evidence: coverage() is a method, not enumerable, never printed.
  Evidence: {
    required: exactly<Exclude<RequiredKeys<Evidence>, 'coverage'>>()(['kinds', 'servedVersions', 'nodeLeases', 'nodeSet', 'clock', 'missing']),
    keys: exactly<Exclude<Declared<Evidence>, 'coverage'>>()([
      'kinds',
      'servedVersions',
      'inferredDiscovery',
      'nodeLeases',
      'nodeSet',
      'clock',
      'version',
      'missing',
      'notes',
    ]),
  },
  KindCoverage: {
    required: exactly<RequiredKeys<KindCoverage>>()(['group', 'kind', 'coverage', 'absenceIsProof', 'from', 'count']),
    keys: exactly<Declared<KindCoverage>>()(['group', 'kind', 'coverage', 'namespaces', 'absenceIsProof', 'from', 'count']),
  },
}

const sorted = (xs: readonly string[]) => [...xs].sort()

describe('schemas/explanation.json against src/explanation.ts', () => {
  for (const [name, {required, keys}] of Object.entries(INTERFACES)) {
    test(`${name}: the schema's required and listed fields are the interface's`, () => {
      const d = definitions[name]
      assert.ok(d, `explanation.json defines ${name}`)
      assert.deepEqual(sorted(d.required), sorted(required))
      assert.deepEqual(sorted(Object.keys(d.properties)), sorted(keys))
    })
  }

  test('the schema lists the severities src/explanation.ts has', async () => {
    const {SEVERITIES} = await import('../../src/explanation.js')
    assert.deepEqual(definitions.Severity.enum, [...SEVERITIES])
  })

  test('the schema lists the actor actions src/explanation.ts has', async () => {
    const {ACTOR_ACTIONS} = await import('../../src/explanation.js')
    assert.deepEqual(definitions.ActorAction.enum, [...ACTOR_ACTIONS])
  })

  test("every report's apiVersion is EXPLANATION_VERSION, the one constant", async () => {
    const {EXPLANATION_VERSION} = await import('../../src/explanation.js')
    assert.equal(definitions.ApiVersion.const, EXPLANATION_VERSION)
  })

  test('an Explanation without a required field, or with a wrong severity, fails', () => {
    const e: Any = {
      subject: {kind: 'Pod', name: 'x'},
      controller: 'c',
      verdict: 'v',
      severity: 'none',
      summary: 's',
      steps: [],
      evaluatedAt: '2026-01-01T00:00:00Z',
      source: {mode: 'live'},
    }
    assert.ok(valid(e), JSON.stringify(valid.errors))
    for (const k of INTERFACES.Explanation.required) {
      const {[k]: _, ...without} = e
      assert.equal(valid(without), false, `without ${k}`)
    }
    assert.equal(valid({...e, severity: 'high'}), false)
    assert.equal(valid({...e, source: {mode: 'live', evidence: {kinds: []}}}), false, 'an evidence without its fields')
  })
})

const REPLAYS = new Set(['gc', 'node', 'evicted', 'replicas', 'hash', 'audit'])

/** The README's example commands (```sh lines starting kubectl-why), as -o json arguments. */
function readmeCommands(): string[][] {
  const readme = readFileSync(`${ROOT}README.md`, 'utf8')
  const out: string[][] = []
  for (const block of readme.matchAll(/```sh\n([\s\S]*?)```/g)) {
    for (const line of block[1].split('\n')) {
      const m = /^(?:npx )?kubectl-why (.*)$/.exec(line.replace(/\s+#.*$/, '').trim())
      if (!m) continue
      const words = m[1].split(/\s+/)
      const args: string[] = []
      for (let i = 0; i < words.length; i++) {
        if (words[i] === '>') i++
        else if (words[i] === '-o') i++
        else args.push(words[i])
      }
      // The replays of an example only (snapshot writes files, completion prints a script, a command without -f needs a
      // cluster); hash --template prints template records.
      if (!REPLAYS.has(args[0]) || !args.includes('-f') || args.includes('--template')) continue
      // -o junit and -o html of the same audit are one -o json run.
      if (!out.some((o) => o.join(' ') === [...args, '-o', 'json'].join(' '))) out.push([...args, '-o', 'json'])
    }
  }
  return out
}

/** Every object in the output a replay returned: one with a controller and a verdict (an Explanation's own fields). */
function explanations(v: Any, path = '$', found: [string, Any][] = []): [string, Any][] {
  if (Array.isArray(v)) {
    for (const [i, x] of v.entries()) explanations(x, `${path}[${i}]`, found)
  } else if (v && typeof v === 'object') {
    if (typeof v.controller === 'string' && typeof v.verdict === 'string') found.push([path, v])
    for (const [k, x] of Object.entries(v)) explanations(x, `${path}.${k}`, found)
  }
  return found
}

async function check(args: string[]): Promise<number> {
  const r = await runCli(args, {cwd: ROOT})
  assert.ok(r.code === 0 || r.code === 1, `${args.join(' ')}: exit ${r.code}: ${r.stderr}`)
  const found = explanations(JSON.parse(r.stdout))
  for (const [path, e] of found) assert.ok(valid(e), `${args.join(' ')} ${path}: ${JSON.stringify(valid.errors, null, 1)}`)
  return found.length
}

describe('every Explanation the CLI prints validates against explanation.json', () => {
  const commands = readmeCommands()
  test('the README lists example commands', () => assert.ok(commands.length >= 8, `${commands.length} commands`))
  for (const args of commands) {
    test(`kubectl-why ${args.join(' ')}`, async () => {
      assert.ok((await check(args)) > 0, 'the output holds an Explanation')
    })
  }
  for (const file of readdirSync(EXAMPLES)
    .filter((f) => /\.(json|yaml)$/.test(f))
    .sort()) {
    test(`audit -A -f examples/${file}: every finding`, async () => {
      await check(['audit', '-A', '-f', `${EXAMPLES}${file}`, '-o', 'json'])
    })
  }
})
