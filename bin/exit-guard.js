// Two ends of a run that must never look like success. (1) A run that is about to exit 0 having written nothing —
// no answer on stdout, no line on stderr — ended without saying so: the event loop emptied while a read still waited
// (a gzipped dump refused at its start once did exactly that). Every command answers something: the data, a table,
// "wrote N objects to FILE" for `snapshot --out`, a completion directive. So that exit is a bug: exit 3, one line.
// (2) The reader of stdout closed it early (`| head`): the answer was not delivered. kubectl (Go) dies of SIGPIPE
// there, which a shell reports as 128+13 = 141 (and `set -o pipefail` fails on); Node ignores SIGPIPE and gets
// EPIPE, so the same status is given by hand, silently, as every Unix filter does when its reader leaves.
'use strict'
const {writeSync} = require('node:fs')

/** What a shell reports for a process killed by SIGPIPE (128 + signal 13). */
const PIPE_CLOSED = 141

function guardExit(proc = process) {
  let said = false
  for (const stream of [proc.stdout, proc.stderr]) {
    const write = stream.write
    stream.write = function (chunk, ...rest) {
      // A progress redraw ("\r…", cleared before the answer) is not an answer.
      if (chunk.length > 0 && !(stream === proc.stderr && String(chunk.slice(0, 1)) === '\r')) said = true
      return write.call(this, chunk, ...rest)
    }
  }
  // An answer that is rightly empty: a jsonpath template that selects nothing prints nothing, as kubectl's does.
  proc.on('kubectl-why:answered', () => {
    said = true
  })
  proc.stdout.on('error', (err) => {
    if (err.code === 'EPIPE') proc.exit(PIPE_CLOSED)
  })
  proc.on('exit', (code) => {
    if (code !== 0 || said) return
    writeSync(
      2,
      'error: internal error (a bug in kubectl-why, not in your input): the run ended without an answer or an error; please report it with the same command run with --debug\n',
    )
    proc.exitCode = 3
  })
}

module.exports = {guardExit, PIPE_CLOSED}
