// The namespace controller's replay (issue 26 item 2; rules in ../shared/docs/decisions/cleanups.md §1). Pure: no I/O, no clock.
export * from './conditions.js'
export * from './replay.js'
