// Bundle input for dist/entry/oclif.js (scripts/build.mjs): what bin/run.js takes from oclif, bundled with the
// commands so that the runner and the commands share one copy of oclif (its settings, its Command class).
// From oclif's subpaths, not its index, which loads every part of oclif (flags, parser, args) before any is used:
// a command loads those with its own chunk, --help and --version never do.
export {execute} from '@oclif/core/execute'
export {settings} from '@oclif/core/settings'
