// metav1.Status error bodies, built the way k8s.io/apimachinery/pkg/api/errors builds them
// (NewNotFound, NewForbidden, NewConflict, ...), so a client parses exactly what a real API server
// sends. Field order follows the Go struct order because the real server's JSON encoder writes it
// that way: kind, apiVersion, metadata, status, message, reason, details, code; and in details:
// name, group, kind, uid, causes, retryAfterSeconds. Empty fields are omitted (omitempty).

export interface GroupResource {
  group: string
  resource: string
}

export interface StatusCause {
  reason?: string
  message?: string
  field?: string
}

export interface StatusDetails {
  name?: string
  group?: string
  kind?: string
  uid?: string
  causes?: StatusCause[]
  retryAfterSeconds?: number
}

export interface Status {
  kind: 'Status'
  apiVersion: 'v1'
  metadata: {continue?: string}
  status: 'Failure'
  message: string
  reason?: string
  details?: StatusDetails
  code: number
}

/** Thrown inside the server; the router turns it into the response. */
export class StatusError extends Error {
  constructor(readonly status: Status) {
    super(status.message)
  }
}

/** schema.GroupResource.String(): "pods", "deployments.apps". */
export function qualified(gr: GroupResource): string {
  return gr.group === '' ? gr.resource : `${gr.resource}.${gr.group}`
}

/** Go's %q for the ASCII strings Kubernetes names are made of. */
export function quote(s: string): string {
  return JSON.stringify(s)
}

function details(d: StatusDetails): StatusDetails | undefined {
  const out: StatusDetails = {}
  if (d.name) out.name = d.name
  if (d.group) out.group = d.group
  if (d.kind) out.kind = d.kind
  if (d.uid) out.uid = d.uid
  if (d.causes && d.causes.length > 0) out.causes = d.causes
  if (d.retryAfterSeconds) out.retryAfterSeconds = d.retryAfterSeconds
  return out
}

export function makeStatus(code: number, reason: string, message: string, d?: StatusDetails, continueToken?: string): Status {
  return {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: continueToken ? {continue: continueToken} : {},
    status: 'Failure',
    message,
    ...(reason ? {reason} : {}),
    ...(d ? {details: details(d)} : {}),
    code,
  }
}

const err = (code: number, reason: string, message: string, d?: StatusDetails, continueToken?: string) =>
  new StatusError(makeStatus(code, reason, message, d, continueToken))

/** errors.NewNotFound */
export const notFound = (gr: GroupResource, name: string) =>
  err(404, 'NotFound', `${qualified(gr)} ${quote(name)} not found`, {name, group: gr.group, kind: gr.resource})

/** What the API server answers for a path no handler serves under /api or /apis (errors.NewNotFound with an empty resource). */
export const noSuchResource = () => err(404, 'NotFound', 'the server could not find the requested resource', {})

/** errors.NewForbidden; the reason text comes from the authorizer (see forbiddenMessage in faults.ts). */
export function forbidden(gr: GroupResource, name: string, why: string): StatusError {
  const message = name === '' ? `${qualified(gr)} is forbidden: ${why}` : `${qualified(gr)} ${quote(name)} is forbidden: ${why}`
  return err(403, 'Forbidden', message, {name, group: gr.group, kind: gr.resource})
}

/** errors.NewMethodNotSupported: what a GET-only server says to POST, PUT, PATCH and DELETE. */
export const methodNotSupported = (gr: GroupResource, action: string) =>
  err(405, 'MethodNotAllowed', `${action} is not supported on resources of kind ${quote(qualified(gr))}`, {group: gr.group, kind: gr.resource})

/** errors.NewConflict; the default text is the registry's OptimisticLockErrorMsg. */
export const conflict = (
  gr: GroupResource,
  name: string,
  why = 'the object has been modified; please apply your changes to the latest version and try again',
) => err(409, 'Conflict', `Operation cannot be fulfilled on ${qualified(gr)} ${quote(name)}: ${why}`, {name, group: gr.group, kind: gr.resource})

/** errors.NewResourceExpired: 410 with reason Expired (a compacted resourceVersion or continue token). */
export const resourceExpired = (message: string, continueToken?: string) => err(410, 'Expired', message, undefined, continueToken)

/** errors.NewTooManyRequests (the Status form; the priority-and-fairness filter writes plain text instead, see faults.ts). */
export const tooManyRequests = (message: string, retryAfterSeconds: number) => err(429, 'TooManyRequests', message, {retryAfterSeconds})

/** errors.NewInternalError */
export const internalError = (why: string) => err(500, 'InternalError', `Internal error occurred: ${why}`, {causes: [{message: why}]})

/** errors.NewBadRequest */
export const badRequest = (message: string) => err(400, 'BadRequest', message)

/** What the authentication filter writes for a missing or wrong bearer token. */
export const unauthorized = () => err(401, 'Unauthorized', 'Unauthorized')

/** negotiation's NotAcceptable (no details). */
export const notAcceptable = (message: string) => err(406, 'NotAcceptable', message)

/** errors.NewServiceUnavailable */
export const serviceUnavailable = (message: string) => err(503, 'ServiceUnavailable', message)

/** errors.NewTimeoutError */
export const timeout = (message: string, retryAfterSeconds: number, causes?: StatusCause[]) =>
  err(504, 'Timeout', `Timeout: ${message}`, {retryAfterSeconds, causes})

/** storage.NewTooLargeResourceVersionError: the cache (or etcd) has not reached the asked resourceVersion. */
export const tooLargeResourceVersion = (minimum: number, current: number, retryAfterSeconds = 1) =>
  timeout(`Too large resource version: ${minimum}, current: ${current}`, retryAfterSeconds, [
    {reason: 'ResourceVersionTooLarge', message: 'Too large resource version'},
  ])

/** errors.NewInvalid for ListOptions, as ValidateListOptions reports a bad resourceVersionMatch. */
export function invalidListOptions(field: string, detail: string, value?: string): StatusError {
  const what = value === undefined ? `Forbidden: ${detail}` : `Invalid value: ${quote(value)}: ${detail}`
  return err(422, 'Invalid', `ListOptions.meta.k8s.io "" is invalid: ${field}: ${what}`, {
    group: 'meta.k8s.io',
    kind: 'ListOptions',
    causes: [{reason: value === undefined ? 'FieldValueForbidden' : 'FieldValueInvalid', message: what, field}],
  })
}

/** A Status for any other code, the way errors.FromObject would carry it. */
export function generic(code: number, message: string): StatusError {
  const reasons: Record<number, string> = {
    400: 'BadRequest',
    401: 'Unauthorized',
    403: 'Forbidden',
    404: 'NotFound',
    405: 'MethodNotAllowed',
    406: 'NotAcceptable',
    409: 'Conflict',
    410: 'Gone',
    415: 'UnsupportedMediaType',
    422: 'Invalid',
    429: 'TooManyRequests',
    500: 'InternalError',
    503: 'ServiceUnavailable',
    504: 'Timeout',
  }
  return err(code, reasons[code] ?? '', message)
}
