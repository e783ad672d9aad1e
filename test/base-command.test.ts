// Exit codes of the one error policy (base-command.ts catch): the project's errors, oclif's flag errors and the
// system's refusals of a named file are input errors (2); anything else is a bug (3), said in one line that asks for
// the --debug output, never passed off as an input error.
import assert from 'node:assert/strict'
import {test} from 'node:test'
import {Config, Errors} from '@oclif/core'
import {isInputError, WhyCommand} from '../src/base-command.js'
import {ReadError, UserError} from '../src/errors.js'

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
