// How many distinct files a process opened, from strace(1)'s openat log (successful opens only, every thread):
// those under the package's dist/, those in any node_modules/, and all of them (node's own, /etc, /proc included).
// Untimed: strace slows the process down several times.
import {spawn, spawnSync} from 'node:child_process'
import {mkdtempSync, readFileSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'

export interface OpenedFiles {
  dist: number
  nodeModules: number
  total: number
}

const hasStrace = spawnSync('strace', ['-V'], {stdio: 'ignore'}).status === 0

/** undefined when strace is not installed (or not permitted here). */
export async function countOpenedFiles(cmd: string, args: string[], options: {env?: NodeJS.ProcessEnv; root: string}): Promise<OpenedFiles | undefined> {
  if (!hasStrace) return undefined
  const dir = mkdtempSync(join(tmpdir(), 'bench-strace-'))
  const log = join(dir, 'log')
  try {
    const code = await new Promise<number>((resolve, reject) => {
      const child = spawn('strace', ['-f', '-qq', '-e', 'trace=open,openat', '-e', 'status=successful', '-o', log, cmd, ...args], {
        env: options.env,
        stdio: ['ignore', 'ignore', 'ignore'],
      })
      child.on('error', reject)
      child.on('close', (c) => resolve(c ?? -1))
    })
    if (code > 1) return undefined
    const paths = new Set<string>()
    for (const m of readFileSync(log, 'utf8').matchAll(/open(?:at)?\((?:[^,]*, )?"([^"]+)"/g)) paths.add(m[1])
    const root = options.root.endsWith('/') ? options.root : `${options.root}/`
    const count = (keep: (f: string) => boolean) => [...paths].filter(keep).length
    // node_modules anywhere: a package may resolve through a symlink to another tree.
    return {dist: count((f) => f.startsWith(`${root}dist/`)), nodeModules: count((f) => f.includes('/node_modules/')), total: paths.size}
  } finally {
    rmSync(dir, {recursive: true, force: true})
  }
}
