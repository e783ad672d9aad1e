// The collector's graph as an outside observer can rebuild it: every object of every monitored type,
// indexed by the UIDs its ownerReferences name. Edges are keyed by owner UID only (graph_builder.go:370), so a
// ref with the right UID but another namespace, kind or name still makes a dependent of the real owner.
import type {GcObject} from './model.js'

export class DependentsIndex {
  private readonly dependents = new Map<string, GcObject[]>()
  private readonly byUid = new Map<string, GcObject>()
  /**
   * group/resource → namespace → name → object, for answering owner reads from a fresh list. Nested rather than keyed
   * by one joined string: a key made for every object of the cluster was 1/7 of the graph's heap (issue 29).
   */
  private readonly byName = new Map<string, Map<string, Map<string, GcObject>>>()
  private count = 0

  /** Adds an observed object. `resourceKey` is "group/resource" of the type it was listed as. */
  add(o: GcObject, resourceKey?: string): void {
    this.count++
    this.byUid.set(o.metadata.uid, o)
    if (resourceKey !== undefined) {
      let inResource = this.byName.get(resourceKey)
      if (!inResource) {
        inResource = new Map()
        this.byName.set(resourceKey, inResource)
      }
      const ns = o.metadata.namespace ?? ''
      let inNamespace = inResource.get(ns)
      if (!inNamespace) {
        inNamespace = new Map()
        inResource.set(ns, inNamespace)
      }
      inNamespace.set(o.metadata.name, o)
    }
    const seen = new Set<string>()
    for (const r of o.metadata.ownerReferences ?? []) {
      if (!r || typeof r.uid !== 'string' || seen.has(r.uid)) continue
      seen.add(r.uid)
      const list = this.dependents.get(r.uid)
      if (list) list.push(o)
      else this.dependents.set(r.uid, [o])
    }
  }

  /** Graph dependents: observed objects with a ref naming this UID, whatever their namespace, kind or name. */
  dependentsOf(uid: string): readonly GcObject[] {
    return this.dependents.get(uid) ?? []
  }

  /** The observed object with this UID, if the index holds one. */
  observed(uid: string): GcObject | undefined {
    return this.byUid.get(uid)
  }

  /** The listed object of this group/resource, namespace and name, if any. */
  named(resourceKey: string, namespace: string | undefined, name: string): GcObject | undefined {
    return this.byName
      .get(resourceKey)
      ?.get(namespace ?? '')
      ?.get(name)
  }

  get size(): number {
    return this.count
  }

  *objects(): IterableIterator<GcObject> {
    yield* this.byUid.values()
  }
}

/** Dependents whose ref to this owner has blockOwnerDeletion=true (graph.go:178-189). */
export function blockingDependents(index: DependentsIndex, ownerUid: string): GcObject[] {
  return index.dependentsOf(ownerUid).filter((d) => (d.metadata.ownerReferences ?? []).some((r) => r.uid === ownerUid && r.blockOwnerDeletion === true))
}
