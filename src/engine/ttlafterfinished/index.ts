// The TTL-after-finished controller's replay (issue 26 item 4; cleanups.md §6). Pure: no I/O, no clock.
export * from './replay.js'
