// "Did you mean this?" as cobra suggests a command: spf13/cobra command.go SuggestionsFor (v1.8.1) — a name is
// suggested when its Levenshtein distance to what was typed, ignoring case, is at most SuggestionsMinimumDistance
// (cobra's default 2, command.go findSuggestions), or when it starts with what was typed (also ignoring case).

/** cobra's ld (cobra.go): the Levenshtein distance, on lower-cased strings when ignoreCase. */
export function ld(s: string, t: string, ignoreCase: boolean): number {
  const a = ignoreCase ? s.toLowerCase() : s
  const b = ignoreCase ? t.toLowerCase() : t
  let previous = Array.from({length: b.length + 1}, (_, j) => j)
  for (let i = 1; i <= a.length; i++) {
    const row = [i]
    for (let j = 1; j <= b.length; j++) {
      row[j] = a[i - 1] === b[j - 1] ? previous[j - 1] : 1 + Math.min(previous[j], row[j - 1], previous[j - 1])
    }
    previous = row
  }
  return previous[b.length]
}

/** The names to suggest for `typed`, in the order given (cobra keeps its commands' order). */
export function suggestionsFor(typed: string, names: readonly string[], minimumDistance = 2): string[] {
  return names.filter((name) => ld(typed, name, true) <= minimumDistance || name.toLowerCase().startsWith(typed.toLowerCase()))
}

/** cobra's suffix to an unknown-command error: "\n\nDid you mean this?\n\tNAME\n" per suggestion, or nothing. */
export function didYouMean(suggestions: readonly string[]): string {
  return suggestions.length === 0 ? '' : `\n\nDid you mean this?\n${suggestions.map((s) => `\t${s}\n`).join('')}`
}
