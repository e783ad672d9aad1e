// An unknown command as kubectl (cobra) reports it ("error:" as this project's other errors; exit 2, every usage error's code):
//   error: unknown command "evicetd" for "kubectl why"
//
//   Did you mean this?
//   	evicted
// oclif hands the hook its colon-joined id ("evicetd:pod/x": the words it tried as topics); the command is the
// first word. cobra: command.go Find → legacyArgs, `unknown command %q for %q%s` with findSuggestions (v1.8.1).
import type {Hook} from '@oclif/core'
import {escapeControls} from '../render/terminal-safe.js'
import {didYouMean, suggestionsFor} from '../util/suggestions.js'

const hook: Hook<'command_not_found'> = async (opts) => {
  const typed = opts.id.split(':')[0]
  // cobra's commands are sorted by name (EnableCommandSorting), so are its suggestions.
  const known = opts.config.commands
    .filter((c) => !c.hidden)
    .map((c) => c.id)
    .sort()
  const bin = String(opts.config.bin)
  // kubectl prints cobra's message and a newline: with suggestions, their list ends with a blank line.
  // JSON.stringify escapes C0 controls but leaves C1 (a raw U+009B is a CSI to many terminals): the one sanitiser too.
  process.stderr.write(
    `error: unknown command ${escapeControls(JSON.stringify(typed))} for ${JSON.stringify(bin)}${didYouMean(suggestionsFor(typed, known))}\n`,
  )
  process.exit(2)
}

export default hook
