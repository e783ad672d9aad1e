// Bundle input for dist/entry/oclif.js (scripts/build.mjs): what bin/run.js takes from oclif, bundled with the
// commands so that the runner and the commands share one copy of oclif (its settings, its Command class).
export {execute, settings} from '@oclif/core'
