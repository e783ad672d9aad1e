// How far V8 lets the heap grow between full collections while the audit runs. The audit holds a cluster's objects
// (about 400 MiB of them at 5,000 nodes) and each check makes as much again in short-lived indexes and copies. By
// default V8 lets the old generation grow to about twice what survived the last full collection (up to 4×) before
// the next one, so one check's garbage is still resident when the next one peaks: the 5,000-node snapshot audit peaked
// at ~1,016 MiB, of which ~400 MiB was garbage. At 1.5× it peaks at ~810–840 MiB for a few per cent more CPU
// (bench/audit.ts). V8 reads the flag each time it sets the next limit (heap-controller.cc, GrowingFactor), so setting
// it at run time takes effect from the next full collection.
import {setFlagsFromString} from 'node:v8'

const FLAG = '--heap-growing-percent'
const PERCENT = 50

let set = false

/** Once per process; a value given on the command line or in NODE_OPTIONS is left as it is. */
export function boundHeapGrowth(): void {
  if (set) return
  set = true
  const given = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)].some((a) => a.replace(/_/g, '-').startsWith(FLAG))
  if (!given) setFlagsFromString(`${FLAG}=${PERCENT}`)
}
