// The heap sized from the container's memory limit (issue 29). Node 20 sizes its default heap from the cgroup limit
// too (process.constrainedMemory(), libuv's reading of cgroup v2 memory.max / v1 memory.limit_in_bytes), but to
// about half of it: 524 MiB of old space in a 1 GiB container, so a large audit died with V8's "heap out of memory"
// dump minutes in while half the container stood unused. A heap size cannot be changed once V8 has started
// (--max-old-space-size is read when the isolate is made), so when a limit is set and no heap flag was given, the
// entry point runs the same command again in a child node with --max-old-space-size from the limit.
// Why here and not NODE_OPTIONS in deploy/cronjob.yaml: a fixed number there goes stale the day someone edits
// resources.limits.memory, and `docker run -m` or any other container would not get it; the limit is what the
// kernel enforces, so it is read from the kernel. The cost is one more node start (~50 ms) only where a limit is set.
'use strict'

/** Never less than this for V8's young generation, code, buffers and the parent process that waits. */
const RESERVE_MIB = 160
/** Share of the limit left outside the old space: young generation, external memory, native allocations. */
const RESERVE_SHARE = 0.2
/** Marks the child, so it never re-executes itself again. */
const SIZED = 'KUBECTL_WHY_HEAP_SIZED'

/**
 * The --max-old-space-size (MiB) for a memory limit of `limitBytes`, or undefined: no limit (none set, or the
 * "max"/huge value cgroups report for none), one too small to leave a heap, or a heap flag given by the user.
 */
function heapFor(limitBytes, total, flags) {
  if (/--max-old-space-size|--max_old_space_size/.test(flags)) return undefined
  if (!Number.isFinite(limitBytes) || limitBytes <= 0 || limitBytes >= total) return undefined
  const limitMiB = Math.floor(limitBytes / 2 ** 20)
  const heap = limitMiB - Math.max(RESERVE_MIB, Math.ceil(limitMiB * RESERVE_SHARE))
  return heap >= 128 ? heap : undefined
}

/** Re-executes the command with the sized heap; returns false (carry on in this process) when there is nothing to do. */
function sizeHeap(proc = process) {
  if (proc.env[SIZED] !== undefined || typeof proc.constrainedMemory !== 'function') return false
  const heap = heapFor(proc.constrainedMemory(), require('node:os').totalmem(), `${proc.env.NODE_OPTIONS ?? ''} ${proc.execArgv.join(' ')}`)
  if (heap === undefined) return false
  const {spawn} = require('node:child_process')
  const child = spawn(proc.execPath, [...proc.execArgv, `--max-old-space-size=${heap}`, ...proc.argv.slice(1)], {
    stdio: 'inherit',
    env: {...proc.env, [SIZED]: String(heap)},
  })
  // A pod's SIGTERM comes to this process (often PID 1): it is the child's to act on.
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP']) proc.on(signal, () => child.kill(signal))
  child.on('error', (err) => {
    proc.stderr.write(`kubectl-why: could not start node with a heap sized from the memory limit: ${err.message}\n`)
    proc.exit(2)
  })
  child.on('exit', (code, signal) => {
    if (signal) {
      proc.removeAllListeners(signal)
      proc.kill(proc.pid, signal)
      return
    }
    proc.exit(code ?? 1)
  })
  return true
}

module.exports = {heapFor, sizeHeap, RESERVE_MIB, SIZED}
