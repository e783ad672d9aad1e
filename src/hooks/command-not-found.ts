// One line and exit 2 for an unknown command, like every other usage error.
import type {Hook} from '@oclif/core'

const hook: Hook<'command_not_found'> = async (opts) => {
  const known = opts.config.commands
    .filter((c) => !c.hidden)
    .map((c) => c.id)
    .sort()
    .join(', ')
  process.stderr.write(`error: unknown command "${opts.id}"; the commands are: ${known} (see \`kubectl why --help\`)\n`)
  process.exit(2)
}

export default hook
