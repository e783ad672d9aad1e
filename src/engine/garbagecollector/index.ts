// The garbage-collector replay (issue 5; rules in ../shared/docs/decisions/gc.md). Pure: no I/O, no clock.
export * from './model.js'
export * from './discovery.js'
export * from './dependents.js'
export * from './patches.js'
export * from './replay.js'
export * from './explain.js'
export * from './next.js'
export * from './tree.js'
