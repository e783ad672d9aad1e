// Runs the built CLI (bin/run.js, i.e. dist/) as a whole process, the way users and CI run it.
// `npm test` builds first; run `npm run build` before running a CLI test file on its own.
import {spawn} from 'node:child_process'
import {fileURLToPath} from 'node:url'

export const BIN = fileURLToPath(new URL('../../bin/run.js', import.meta.url))

export interface CliResult {
  code: number
  stdout: string
  stderr: string
}

export function runCli(args: string[], options: {stdin?: string | Buffer; env?: Record<string, string | undefined>; cwd?: string} = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const env: Record<string, string | undefined> = {
      ...process.env,
      NO_COLOR: '1',
      KUBECONFIG: '/nonexistent/kubeconfig',
      HOME: '/nonexistent-home',
      ...options.env,
    }
    for (const k of Object.keys(env)) if (env[k] === undefined) delete env[k]
    const child = spawn(process.execPath, [BIN, ...args], {env: env as NodeJS.ProcessEnv, cwd: options.cwd})
    const out: Buffer[] = []
    const err: Buffer[] = []
    child.stdout.on('data', (d: Buffer) => out.push(d))
    child.stderr.on('data', (d: Buffer) => err.push(d))
    child.on('error', reject)
    child.on('close', (code) => resolve({code: code ?? -1, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8')}))
    // A CLI that stops reading early (it refused the input at its start) closes its stdin: EPIPE here is not a failure.
    child.stdin.on('error', () => undefined)
    child.stdin.end(options.stdin ?? '')
  })
}
