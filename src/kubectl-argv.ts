// kubectl's flag habits that oclif's parser does not share, applied to argv before it parses: a boolean flag takes
// an explicit value (`--all-namespaces=true`, `--no-color=false`, `-A=false`), as pflag's ParseBool reads it. Without
// this oclif takes the value for a positional argument (`node "true" not found`).

/** strconv.ParseBool's spellings. */
const TRUE = new Set(['1', 't', 'T', 'true', 'TRUE', 'True'])
const FALSE = new Set(['0', 'f', 'F', 'false', 'FALSE', 'False'])

export interface BooleanFlag {
  name: string
  char?: string
  allowNo?: boolean
}

/** argv with every `--bool=VALUE` / `-b=VALUE` turned into what oclif reads; other arguments are left as they are. */
export function kubectlBooleans(argv: readonly string[], booleans: readonly BooleanFlag[]): string[] {
  const byName = new Map(booleans.map((f) => [f.name, f]))
  const byChar = new Map(booleans.filter((f) => f.char).map((f) => [f.char!, f]))
  const out: string[] = []
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]
    if (arg === '--') {
      out.push(...argv.slice(i))
      break
    }
    const long = /^--([^=]+)=(.*)$/.exec(arg)
    const short = long ? undefined : /^-([^-=])=(.*)$/.exec(arg)
    const flag = long ? byName.get(long[1]) : short ? byChar.get(short[1]) : undefined
    const value = (long ?? short)?.[2]
    if (!flag || value === undefined || !(TRUE.has(value) || FALSE.has(value))) {
      out.push(arg)
      continue
    }
    if (TRUE.has(value)) out.push(`--${flag.name}`)
    else if (flag.allowNo) out.push(`--no-${flag.name}`)
    // false for a flag that is false unless given: leaving it out is what kubectl does with it.
  }
  return out
}
