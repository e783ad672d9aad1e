// Finalizers and their holders (issue 26 item 5; cleanups.md §2). Pure: no I/O, no clock.
export * from './replay.js'
