// One way for every bench to run a command as a whole process and measure it: wall time, user + system CPU time and
// peak RSS of that process alone. Always spawned asynchronously (never spawnSync: a fake API server may be answering
// from this process's event loop).
//
// The meter, best first:
//   wait4     bench/support/rusage.py spawns the command and reaps it with wait4(2): CPU to the microsecond;
//   gnu-time  /usr/bin/time -f: CPU rounded to 10 ms (too coarse for start-up figures, fine for audits);
//   none      wall time only, peak RSS polled from /proc/PID/status (VmHWM).
// BENCH_METER=gnu-time|none picks a weaker one (to compare).
import {spawn, spawnSync} from 'node:child_process'
import {existsSync, readFileSync} from 'node:fs'
import {fileURLToPath} from 'node:url'

export interface ProcessRun {
  wallMs: number
  /** user + system CPU of the process: on a shared machine, what the process itself cost. NaN when not measured. */
  cpuMs: number
  userMs: number
  sysMs: number
  /** maximum resident set size; undefined when not measured. */
  peakKiB?: number
  code: number
  stdout: string
  stdoutBytes: number
  stderr: string
}

export interface RunOptions {
  env?: NodeJS.ProcessEnv
  cwd?: string
  stdin?: string | Buffer
  /** false: count stdout bytes and drop them (outputs larger than a string can hold). Default true. */
  keepStdout?: boolean
}

export type Meter = 'wait4' | 'gnu-time' | 'none'

const RUSAGE = fileURLToPath(new URL('./rusage.py', import.meta.url))

/** The Python interpreter's real path (a pyenv shim would add its own start-up to every run's wall time). */
function findPython(): string | undefined {
  const r = spawnSync('python3', ['-c', 'import os, sys; os.wait4; os.posix_spawnp; os.waitstatus_to_exitcode; print(sys.executable)'], {encoding: 'utf8'})
  return r.status === 0 ? r.stdout.trim() : undefined
}

const python = process.env.BENCH_METER === undefined || process.env.BENCH_METER === 'wait4' ? findPython() : undefined
export const meter: Meter = python ? 'wait4' : process.env.BENCH_METER !== 'none' && existsSync('/usr/bin/time') ? 'gnu-time' : 'none'

const TIME_LINE = /__TIME__ ([\d.]+) (\d+) ([\d.]+) ([\d.]+)\n?/

export function runProcess(cmd: string, args: string[], options: RunOptions = {}): Promise<ProcessRun> {
  return new Promise((resolve, reject) => {
    const keep = options.keepStdout ?? true
    const [file, argv] =
      meter === 'wait4'
        ? [python!, [RUSAGE, cmd, ...args]]
        : meter === 'gnu-time'
          ? ['/usr/bin/time', ['-f', '__TIME__ %e %M %U %S', cmd, ...args]]
          : [cmd, args]
    const started = process.hrtime.bigint()
    const child = spawn(file, argv, {env: options.env ?? process.env, cwd: options.cwd, stdio: ['pipe', 'pipe', 'pipe', 'pipe']})
    const out: Buffer[] = []
    const err: Buffer[] = []
    const report: Buffer[] = []
    let stdoutBytes = 0
    let hwm = 0
    const poll =
      meter === 'none'
        ? setInterval(() => {
            try {
              const m = /VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))
              if (m) hwm = Math.max(hwm, Number(m[1]))
            } catch {}
          }, 20)
        : undefined
    child.stdout!.on('data', (d: Buffer) => {
      stdoutBytes += d.length
      if (keep) out.push(d)
    })
    child.stderr!.on('data', (d: Buffer) => err.push(d))
    ;(child.stdio[3] as NodeJS.ReadableStream).on('data', (d: Buffer) => report.push(d))
    child.on('error', reject)
    child.on('close', (code) => {
      if (poll) clearInterval(poll)
      const wallMs = Number(process.hrtime.bigint() - started) / 1e6
      let stderr = Buffer.concat(err).toString('utf8')
      const base = {code: code ?? -1, stdout: keep ? Buffer.concat(out).toString('utf8') : '', stdoutBytes}
      if (meter === 'wait4') {
        const r = JSON.parse(Buffer.concat(report).toString('utf8') || '{"error":"no report"}')
        if (r.error) return reject(new Error(`${cmd}: ${r.error}`))
        return resolve({
          ...base,
          stderr,
          wallMs: r.wall * 1000,
          userMs: r.user * 1000,
          sysMs: r.sys * 1000,
          cpuMs: (r.user + r.sys) * 1000,
          peakKiB: r.maxrssKiB,
        })
      }
      if (meter === 'gnu-time') {
        const m = TIME_LINE.exec(stderr)
        stderr = stderr.replace(TIME_LINE, '')
        const [user, sys] = m ? [Number(m[3]) * 1000, Number(m[4]) * 1000] : [Number.NaN, Number.NaN]
        return resolve({...base, stderr, wallMs, userMs: user, sysMs: sys, cpuMs: user + sys, peakKiB: m ? Number(m[2]) : undefined})
      }
      resolve({...base, stderr, wallMs, userMs: Number.NaN, sysMs: Number.NaN, cpuMs: Number.NaN, peakKiB: hwm || undefined})
    })
    child.stdin!.end(options.stdin ?? '')
  })
}

export const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b)
  const mid = s.length >> 1
  return s.length === 0 ? Number.NaN : s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2
}
export const secs = (ms: number) => `${(ms / 1000).toFixed(2)} s`
export const mib = (kib?: number) => (kib === undefined ? 'n/a' : `${(kib / 1024).toFixed(0)} MiB`)
export const ratio = (a: number | undefined, b: number | undefined) => (a === undefined || b === undefined || !b ? 'n/a' : `${(a / b).toFixed(2)}×`)
