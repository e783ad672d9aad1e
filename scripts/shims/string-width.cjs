// Bundled in place of the string-width package (scripts/build.mjs), which oclif's help and errors call for every
// line they wrap. string-width runs emoji-regex over each string, and compiling that regex costs ~14 ms of a
// `--help`. A string of printable ASCII (after ANSI codes are stripped) has one column per character and no emoji
// (every emoji-regex match holds a character above U+007F), so its width is its length; any other string goes to
// string-width, loaded then. test/scripts/shims.test.ts holds this to string-width itself.
'use strict'
const stripAnsi = require('strip-ansi')

let stringWidth

const PRINTABLE_ASCII = /^[\x20-\x7e]*$/

function width(string) {
  if (typeof string !== 'string' || string.length === 0) return 0
  const visible = stripAnsi(string)
  if (PRINTABLE_ASCII.test(visible)) return visible.length
  stringWidth ??= require('string-width')
  return stringWidth(string)
}
module.exports = width
module.exports.default = width
