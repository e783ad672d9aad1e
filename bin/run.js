#!/usr/bin/env node
// Production entry point: runs the bundled commands in dist/ (npm run build, scripts/build.mjs).
// Auto-transpile is off so NODE_ENV=development|test does not make oclif look for TypeScript sources
// (that lookup costs ~0.4 s of start-up).
import {execute, settings} from '../dist/entry/oclif.js'

settings.enableAutoTranspile = false
await execute({dir: import.meta.url})
