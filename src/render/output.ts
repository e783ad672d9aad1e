// Writes results in the chosen format. JSON keeps int64 values exact (bigint-aware writer).
import {stringifyJson} from '../util/json.js'
import {yamlLib} from '../util/yaml-lib.js'

export type OutputFormat = 'table' | 'wide' | 'json' | 'yaml' | 'html'

/** The formats that print the data itself (the HTML report is drawn from the same data as JSON). */
export type DataFormat = 'json' | 'yaml' | 'html'

export function isDataFormat(format: string | undefined): format is DataFormat {
  return format === 'json' || format === 'yaml' || format === 'html'
}

/** Plain data for -o json / -o yaml, written with a trailing newline. */
export function formatData(value: unknown, format: 'json' | 'yaml'): string {
  if (format === 'json') return `${stringifyJson(value, 2)}\n`
  return yamlLib().stringify(value, {lineWidth: 0, aliasDuplicateObjects: false})
}
