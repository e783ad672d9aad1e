// -o json for the AuditReport, a piece at a time: the same text formatData(report, 'json') writes (the findings come
// last in the report), without building it whole — thousands of findings make tens of megabytes, and the audit must
// stay within its memory goal at 5,000 nodes.
import type {AuditReport} from '../audit/report.js'
import {stringifyJson} from '../util/json.js'
import {type SourceInForce, withCommandsInForce} from './next-steps.js'

const indent = (text: string, pad: string) => text.replace(/\n/g, `\n${pad}`)

/**
 * src: the source in force; given (as the command gives it), each finding's next steps carry their commandInForce, as
 * the data base-command hands formatData does (withCommandsInForce), a finding at a time.
 */
export function* auditJsonChunks(report: AuditReport, src?: SourceInForce): Generator<string> {
  const {findings, ...rest} = report
  const head = stringifyJson({...rest, findings: []}, 2)
  const at = head.lastIndexOf('"findings": []')
  if (findings.length === 0) {
    yield `${head}\n`
    return
  }
  yield `${head.slice(0, at)}"findings": [`
  for (let i = 0; i < findings.length; i++)
    yield `${i === 0 ? '' : ','}\n    ${indent(stringifyJson(src ? withCommandsInForce(findings[i], src) : findings[i], 2), '    ')}`
  yield '\n  ]\n}\n'
}
