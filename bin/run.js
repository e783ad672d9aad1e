#!/usr/bin/env node
// Production entry point: runs the bundle in dist/ (npm run build, scripts/build.mjs), with its compiled code kept
// between runs (bin/compile-cache.js). CommonJS (bin/package.json), like the bundle: no ES module loader at start-up.
// Auto-transpile is off so NODE_ENV=development|test does not make oclif look for TypeScript sources
// (that lookup costs ~0.4 s of start-up).
'use strict'
// Before the bundle (built for Node 20) fails to parse: say what is needed.
if (Number(process.versions.node.split('.')[0]) < 20) {
  process.stderr.write(`kubectl-why: needs Node.js 20 or newer; this is ${process.version}\n`)
  process.exit(2)
}
// In a container with a memory limit, the same command in a child node whose heap fits the limit (bin/heap.js).
if (!require('./heap.js').sizeHeap()) {
  require('./compile-cache.js')
  require('./exit-guard.js').guardExit()
  const {execute, settings} = require('../dist/entry/oclif.js')

  settings.enableAutoTranspile = false
  // The package root, not bin/ (whose package.json only says CommonJS).
  execute({dir: require('node:path').join(__dirname, '..')})
}
