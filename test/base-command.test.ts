// Exit codes of the one error policy (base-command.ts catch): the project's errors, oclif's flag errors and the
// system's refusals of a named file are input errors (2); anything else is a bug (3), said in one line that asks for
// the --debug output, never passed off as an input error.
import assert from 'node:assert/strict'
import {test} from 'node:test'
import {Config, Errors} from '@oclif/core'
import {type Answer, isInputError, WhyCommand} from '../src/base-command.js'
import {errorLine, ReadError, UserError} from '../src/errors.js'

class Probe extends WhyCommand {
  async run(): Promise<void> {}
}

/** Runs catch() with process.exit and stderr captured. */
async function caught(err: Error, debug = false): Promise<{code: number; stderr: string}> {
  const config = await Config.load({root: process.cwd()})
  const cmd = new Probe([], config)
  ;(cmd as unknown as {debugEnabled: boolean}).debugEnabled = debug
  const written: string[] = []
  const write = process.stderr.write
  const exit = process.exit
  let code = -1
  process.stderr.write = ((s: string) => written.push(String(s)) > 0) as typeof process.stderr.write
  process.exit = ((c: number) => {
    code = c
    throw new Error('exited')
  }) as typeof process.exit
  try {
    await cmd.catch(err)
  } catch (e) {
    if ((e as Error).message !== 'exited') throw e
  } finally {
    process.stderr.write = write
    process.exit = exit
  }
  return {code, stderr: written.join('')}
}

test('an unexpected exception exits 3 with one line saying it is a bug and asking for the --debug output', async () => {
  const r = await caught(new TypeError('apiVersion.indexOf is not a function'))
  assert.equal(r.code, 3)
  assert.equal(r.stderr.split('\n').filter(Boolean).length, 1)
  assert.match(
    r.stderr,
    /^error: internal error \(a bug in kubectl-why, not in your input\): TypeError: apiVersion\.indexOf is not a function; please report it with the output of the same command run with --debug\n$/,
  )
})

test('with --debug the stack comes first, and the line points at it', async () => {
  const r = await caught(new RangeError('Invalid time value'), true)
  assert.equal(r.code, 3)
  assert.match(r.stderr, /^RangeError: Invalid time value\n\s+at /)
  assert.match(r.stderr, /run with --debug \(above\)\n$/)
})

test('project errors, oclif parse errors and refused files stay exit 2', async () => {
  assert.equal((await caught(new UserError('--now: "x" is not an RFC 3339 time', 'write it like …'))).code, 2)
  assert.equal((await caught(new ReadError('Forbidden', 'pods is forbidden', {status: 403}))).code, 2)
  assert.equal((await caught(new Errors.CLIError('Unexpected argument: x'))).code, 2)
  const enoent = Object.assign(new Error("ENOENT: no such file or directory, open '/nope'"), {code: 'ENOENT', syscall: 'open', errno: -2})
  assert.equal(isInputError(enoent), true)
  assert.equal((await caught(enoent)).code, 2)
  assert.equal(isInputError(new TypeError('x')), false)
  assert.equal(isInputError(Object.assign(new Error('x'), {code: 'ERR_INVALID_ARG_TYPE'})), false)
})

// print(): the one place a command's answer becomes output and an exit code. Each case below writes through a stubbed
// stdout/stderr; the expected bytes are the view or data the answer holds, picked by -o as the flags say.
class Printer extends WhyCommand {
  async run(): Promise<void> {}
  show(answer: Answer, flags: Parameters<WhyCommand['print']>[1]): Promise<void> {
    return this.print(answer, flags)
  }
  pick<T>(target: T | undefined, all: boolean): T | undefined {
    return this.targetOrAll(target, all, {form: 'KIND/NAME', which: 'which object?', example: 'rs/web -n shop'})
  }
}

async function printed(answer: Answer, flags: Parameters<WhyCommand['print']>[1]): Promise<{stdout: string; stderr: string; exitCode: unknown}> {
  const config = await Config.load({root: process.cwd()})
  const cmd = new Printer([], config)
  const out: string[] = []
  const err: string[] = []
  const [stdout, stderr, code] = [process.stdout.write, process.stderr.write, process.exitCode]
  process.exitCode = undefined
  process.stdout.write = ((s: string) => out.push(String(s)) > 0) as typeof process.stdout.write
  process.stderr.write = ((s: string) => err.push(String(s)) > 0) as typeof process.stderr.write
  let exitCode: unknown
  try {
    await cmd.show(answer, flags)
  } finally {
    exitCode = process.exitCode
    process.stdout.write = stdout
    process.stderr.write = stderr
    process.exitCode = code
  }
  return {stdout: out.join(''), stderr: err.join(''), exitCode}
}

const answer = (over: Partial<Answer> = {}): Answer => ({
  data: {kind: 'Thing', n: 1},
  severities: ['info'],
  views: {table: (wide) => (wide ? 'WIDE\n' : 'TABLE\n')},
  ...over,
})

test('print: -o table and wide draw the table view (wide with more columns); json and yaml print the data', async () => {
  assert.equal((await printed(answer(), {})).stdout, 'TABLE\n')
  assert.equal((await printed(answer(), {output: 'wide'})).stdout, 'WIDE\n')
  assert.equal((await printed(answer(), {output: 'json'})).stdout, '{\n  "kind": "Thing",\n  "n": 1\n}\n')
  assert.equal((await printed(answer(), {output: 'yaml'})).stdout, 'kind: Thing\nn: 1\n')
  // A view of pieces is written whole, in order.
  assert.equal((await printed(answer({views: {table: () => ['a', 'b\n']}}), {})).stdout, 'ab\n')
})

test("print: a command's own writer for json or junit wins over the data", async () => {
  const views = {table: () => 'T\n', json: () => ['{"own":', 'true}\n'], junit: () => ['<testsuites/>\n']}
  assert.equal((await printed(answer({views}), {output: 'json'})).stdout, '{"own":true}\n')
  assert.equal((await printed(answer({views}), {output: 'junit'})).stdout, '<testsuites/>\n')
})

test('print: exit code 1 only at or above --fail-on (default warning), or when the answer failed', async () => {
  assert.equal((await printed(answer({severities: ['info']}), {})).exitCode, undefined)
  assert.equal((await printed(answer({severities: ['none', 'warning']}), {})).exitCode, 1)
  assert.equal((await printed(answer({severities: ['critical']}), {'fail-on': 'none'})).exitCode, undefined)
  assert.equal((await printed(answer({severities: ['info']}), {'fail-on': 'info'})).exitCode, 1)
  assert.equal((await printed(answer({severities: [], failed: true}), {'fail-on': 'none'})).exitCode, 1)
})

test('print: the notice goes to stderr after a data format, not after the table (which says it itself)', async () => {
  const a = answer({notice: 'incomplete: pods\n'})
  assert.equal((await printed(a, {})).stderr, '')
  assert.equal((await printed(a, {output: 'wide'})).stderr, '')
  assert.equal((await printed(a, {output: 'json'})).stderr, 'incomplete: pods\n')
  assert.equal((await printed(a, {output: 'junit'})).stderr, 'incomplete: pods\n')
})

test('targetOrAll: exactly one of TYPE/NAME and --all, else a usage error naming both forms', async () => {
  const config = await Config.load({root: process.cwd()})
  const cmd = new Printer([], config)
  cmd.id = 'gc'
  assert.deepEqual(cmd.pick({type: 'rs', name: 'web'}, false), {type: 'rs', name: 'web'})
  assert.equal(cmd.pick(undefined, true), undefined)
  assert.throws(
    () => cmd.pick({type: 'rs', name: 'web'}, true),
    (e: unknown) => e instanceof UserError && e.message === 'give either KIND/NAME or --all, not both' && errorLine(e).includes('kubectl why gc --all -n shop'),
  )
  assert.throws(
    () => cmd.pick(undefined, false),
    (e: unknown) => e instanceof UserError && e.message === 'which object?' && errorLine(e).includes('e.g. kubectl why gc rs/web -n shop'),
  )
})
