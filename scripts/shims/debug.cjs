// Bundled in place of the debug package (scripts/build.mjs): oclif makes its debug loggers when it loads, which
// loads debug with supports-color and util.inspect on every run. They print only when DEBUG is set: only then is
// the real package loaded.
'use strict'
function off() {
  const log = () => {}
  log.enabled = false
  log.namespace = ''
  log.extend = () => log
  log.log = log
  return log
}
module.exports = process.env.DEBUG ? require('debug') : Object.assign(off, {enabled: () => false, enable() {}, disable: () => ''})
