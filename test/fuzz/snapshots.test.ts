// The fuzz suite (issue 19): the example snapshots, mutated as broken or hostile dumps are (wrong JSON types, nulls,
// numbers beyond int64 and float64, unparsable and calendar-invalid timestamps, fields and whole objects deleted),
// through the reading code and every engine, in-process (harness.ts: the audit drives all five), and a few through
// each command's own path in the CLI. The only allowed outcomes are an answer or a project error (UserError and its
// subclasses; exit 0, 1 or 2 in the CLI); a TypeError or any other exception fails with the mutation that caused it.
// `npm test` runs a fixed seed and a bounded count; `npm run fuzz` runs FUZZ_RUNS (10,000) with a new seed each time
// (FUZZ_SEED to replay one), printing what it found.
import assert from 'node:assert/strict'
import {readdirSync} from 'node:fs'
import {after, describe, test} from 'node:test'
import fc from 'fast-check'
import {runCli} from '../support/cli.js'
import {EXAMPLES_DIR, loadExamples, type Outcome, runEverything, Workdir} from './harness.js'
import {mutate, mutationsArb, toJson} from './mutate.js'

const LONG = process.env.FUZZ_RUNS !== undefined
const RUNS = Number(process.env.FUZZ_RUNS ?? 150)
const CLI_RUNS = Number(process.env.FUZZ_CLI_RUNS ?? (LONG ? 20 : 1))
const SEED = Number(process.env.FUZZ_SEED ?? (LONG ? Date.now() % 2 ** 31 : 20261201))

const names = readdirSync(EXAMPLES_DIR)
  .filter((n) => /\.(json|yaml)$/.test(n))
  .sort()
const examples = loadExamples(names)
const work = new Workdir()
after(() => work.remove())

/** An example and its mutations, written as a snapshot file; the description says what was done, for the failure. */
const mutatedArb = fc.tuple(fc.nat({max: examples.length - 1}), mutationsArb(4)).map(([i, mutations]) => {
  const doc = structuredClone(examples[i].doc)
  const done = mutate(doc, mutations)
  return {example: examples[i].name, done, text: toJson(doc)}
})
type Mutated = {example: string; done: string[]; text: string}
const label = (m: Mutated) => `${m.example}: ${m.done.join('; ')}`

describe(`fuzz: mutated example snapshots (seed ${SEED})`, () => {
  test(`${RUNS} snapshots through the reading code and every engine: answers or project errors only`, async () => {
    const tally = {answer: 0, projectError: 0, partial: 0}
    await fc.assert(
      fc.asyncProperty(mutatedArb, async (m) => {
        let outcome: Outcome
        try {
          outcome = await runEverything(work.write(m.text))
        } catch (err) {
          throw new Error(`${label(m)}\n  → ${(err as Error).stack}`)
        }
        tally[outcome.kind]++
        if (outcome.kind === 'answer' && outcome.partial > 0) tally.partial++
      }),
      {seed: SEED, numRuns: RUNS},
    )
    if (LONG)
      process.stderr.write(
        `fuzz: ${RUNS} snapshots, seed ${SEED}: ${tally.answer} answers (${tally.partial} partial), ${tally.projectError} project errors, 0 crashes\n`,
      )
    // The mutations must reach the engines, not only the reader: most snapshots still get an answer.
    assert.ok(tally.answer > RUNS / 2, `only ${tally.answer} of ${RUNS} snapshots got an answer`)
  })

  // Each command's own reading and replay, as a user runs it: exit 0/1 (an answer) or 2 (error lines, no stack).
  const commands: string[][] = [
    ['audit', '-A'],
    ['gc', '--all', '-A'],
    ['node'],
    ['replicas', '--all', '-A'],
    ['hash', '--all', '-A'],
    ['snapshot'],
    ['evicted', 'pod/web-7d9f4b6c8-x2k9p', '-n', 'shop'],
  ]
  for (const args of commands) {
    test(`kubectl why ${args.join(' ')} -f <mutated>: ${CLI_RUNS} run${CLI_RUNS === 1 ? '' : 's'}, no crash (needs npm run build)`, async () => {
      const samples = fc.sample(mutatedArb, {numRuns: CLI_RUNS, seed: SEED + args[0].length})
      for (const m of samples) {
        const r = await runCli([...args, '-f', work.write(m.text)])
        const context = `${label(m)}\n${r.stderr}`
        assert.ok([0, 1, 2].includes(r.code), `exit ${r.code}: ${context}`)
        assert.doesNotMatch(r.stderr, /internal error|\n\s+at /, context)
        // Exit 2: one line per thing that went wrong (snapshot -f names each object it left out), never a trace.
        if (r.code === 2) for (const line of r.stderr.trim().split('\n')) assert.match(line, /^(error|warning): /, context)
      }
    })
  }
})
