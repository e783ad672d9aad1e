#!/usr/bin/env node
// Production entry point: runs the compiled commands in dist/.
// Auto-transpile is off so NODE_ENV=development|test does not make oclif look for TypeScript sources
// (that lookup costs ~0.4 s of start-up).
import {execute, settings} from '@oclif/core'

settings.enableAutoTranspile = false
await execute({dir: import.meta.url})
