// Errors a user can act on. Each becomes one line on stderr and exit code 2 (stack only with --debug); any other
// exception is a bug, and exits 3 (base-command.ts catch).

export class UserError extends Error {
  /** What to try next, printed after the message. */
  readonly hint?: string
  constructor(message: string, hint?: string, options?: {cause?: unknown}) {
    super(message, options)
    this.name = 'UserError'
    this.hint = hint
  }
}

/** Why a read from a cluster source failed. `NotFound` is never thrown for single reads: they return undefined. */
export const READ_FAILURES = [
  'NotFound',
  'Forbidden',
  'Unauthorized',
  'Gone',
  'TooManyRequests',
  'ServerError',
  'Timeout',
  'Unreachable',
  'BadResponse',
  'NotServed',
] as const

export type ReadFailure = (typeof READ_FAILURES)[number]

export class ReadError extends UserError {
  readonly reason: ReadFailure
  readonly status?: number
  readonly path?: string
  constructor(reason: ReadFailure, message: string, opts: {status?: number; path?: string; hint?: string; cause?: unknown} = {}) {
    super(message, opts.hint, {cause: opts.cause})
    this.name = 'ReadError'
    this.reason = reason
    this.status = opts.status
    this.path = opts.path
  }
}

export function errorLine(err: unknown): string {
  if (err instanceof UserError) return err.hint ? `${err.message}; ${err.hint}` : err.message
  if (err instanceof Error) return err.message
  return String(err)
}
