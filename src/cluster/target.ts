// The object a command is about, in every form kubectl accepts: TYPE/NAME, TYPE NAME, and — where the command has
// one natural kind (evicted → pod, replicas → replicaset, node → node) — a bare NAME. Types are kubectl's: kinds,
// plurals, singulars and short names (po, rs, deploy, no), optionally group-qualified (replicasets.apps).
import {UserError} from '../errors.js'
import {BUILTIN_KINDS} from './builtin-kinds.js'
import {resolveResource} from './resolve.js'

export interface Target {
  /** The type as typed (resolve it against discovery: a custom resource may be meant). */
  type: string
  name: string
}

export interface TargetSpec {
  /** The command, for messages: "replicas". */
  command: string
  /** The kind a bare NAME means, and the only kind accepted besides `otherKinds` (e.g. "Pod"). Absent: TYPE is required. */
  naturalKind?: string
  /** Other kinds a TYPE may name (replicas also explains deployment/NAME). */
  otherKinds?: readonly string[]
  /** An example of the argument for messages: "replicaset/cart-7c9d8f6b5". */
  example: string
}

function builtinKind(type: string): string | undefined {
  try {
    return resolveResource(BUILTIN_KINDS, type).kind
  } catch {
    return undefined
  }
}

function badName(name: string, spec: TargetSpec): never {
  throw new UserError(`"${name}" is not a valid object name`, `e.g. kubectl why ${spec.command} ${spec.example}`)
}

/** args: the positional arguments after the command (at most two are read). Undefined when none was given. */
export function parseTarget(args: readonly (string | undefined)[], spec: TargetSpec): Target | undefined {
  const given = args.filter((a): a is string => a !== undefined)
  if (given.length === 0) return undefined
  if (given.length > 2) throw new UserError(`too many arguments: ${given.join(' ')}`, `give one object, e.g. kubectl why ${spec.command} ${spec.example}`)
  let type: string | undefined
  let name: string
  if (given.length === 2) {
    if (given[0].includes('/'))
      throw new UserError(`give either TYPE/NAME or TYPE NAME, not "${given.join(' ')}"`, `e.g. kubectl why ${spec.command} ${spec.example}`)
    ;[type, name] = given
  } else {
    const slash = given[0].indexOf('/')
    if (slash === -1) {
      if (!spec.naturalKind)
        throw new UserError(`"${given[0]}" names no object: give TYPE/NAME or TYPE NAME`, `e.g. kubectl why ${spec.command} ${spec.example}`)
      name = given[0]
    } else {
      type = given[0].slice(0, slash)
      name = given[0].slice(slash + 1)
      if (type === '') throw new UserError(`"${given[0]}" has no TYPE before the slash`, `e.g. kubectl why ${spec.command} ${spec.example}`)
    }
  }
  if (name === '' || name.includes('/')) badName(name, spec)
  if (type === undefined) return {type: spec.naturalKind!, name}
  if (!spec.naturalKind) return {type, name}
  const kind = builtinKind(type)
  const accepted = [spec.naturalKind, ...(spec.otherKinds ?? [])]
  if (kind === undefined || !accepted.includes(kind)) {
    throw new UserError(`kubectl why ${spec.command} is about a ${accepted.join(' or a ')}, not "${type}"`, `e.g. kubectl why ${spec.command} ${spec.example}`)
  }
  return {type: kind, name}
}
