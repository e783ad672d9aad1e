// schemas/audit-report.json with the engines' schemas it refers to for findings, from the tests' one loader.
import {type Any, type Check, validatorFor} from '../support/schemas.js'

export type {Any}

/** The AuditReport validator (strict ajv; every schema in schemas/ loaded once). */
export function auditSchema(): Check {
  return validatorFor('audit-report')
}
