// Why a hash could not be computed. Both name the field path in the template, so a user can fix the
// input; neither ever comes with a guessed hash.
import {UserError} from '../errors.js'

/** The template is not what the API server would have accepted: wrong type, bad quantity, not an object. */
export class HashInputError extends UserError {
  readonly path: string
  readonly reason: string
  constructor(path: string, reason: string) {
    super(`${path === '' ? 'template' : path}: ${reason}`, 'the template must be a PodTemplateSpec as the API server returns it (kubectl get -o json|yaml)')
    this.name = 'HashInputError'
    this.path = path
    this.reason = reason
  }
}

/**
 * The hash depends on something the object does not show. A non-null metav1.Time: the controller
 * decodes it with .Local(), and spew prints time.Local's unexported internals, so the hash depends on
 * the controller-manager's time-zone setup (the vectors' README saw four hashes for one template).
 */
export class UnreproducibleHashError extends UserError {
  readonly path: string
  constructor(path: string, why: string) {
    super(`${path}: ${why}`, 'the hash cannot be recomputed exactly offline; no value is given rather than a guess')
    this.name = 'UnreproducibleHashError'
    this.path = path
  }

  /** What a replay says instead of a hash (the only such value, spew.ts, is a time printed in the local zone). */
  get computeError(): string {
    return `${this.message}: the hash depends on the controller-manager's time zone and cannot be recomputed offline`
  }
}
