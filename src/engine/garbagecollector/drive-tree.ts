// The --tree graph around one object, read by the driver (drive.ts): each node replayed, each edge the collector's own
// classification of the reference (classifyReferences), owners above and dependents below.
import {subjectOf} from './explain.js'
import {type GcObject, isBeingDeleted, readKeyString} from './model.js'
import {type Graph, MAX_ROUNDS, type OwnerReader, TREE_CHILDREN} from './read.js'
import {classifyReferences, type GcReplay, type GcWorld} from './replay.js'
import {edgeOf, type GcTree, type GcTreeNode} from './tree.js'

/** The owner/dependent graph around one object, each node replayed, each edge classified as the collector does. */
export async function buildTree(
  item: GcObject,
  replay: GcReplay,
  world: () => GcWorld,
  reader: OwnerReader,
  settle: (o: GcObject) => Promise<GcReplay>,
  maxDepth: number,
  g: Graph,
): Promise<GcTree> {
  const seen = new Set<string>([item.metadata.uid])
  const state = (o: GcObject): Partial<GcTreeNode> => ({
    ...(o.metadata.creationTimestamp ? {creationTimestamp: o.metadata.creationTimestamp} : {}),
    ...(isBeingDeleted(o) ? {deleting: true, ...(o.metadata.finalizers ? {finalizers: o.metadata.finalizers} : {})} : {}),
  })
  const verdictOf = (n: GcTreeNode, r: GcReplay): void => {
    n.verdict = r.verdict
    if (r.propagationPolicy) n.propagationPolicy = r.propagationPolicy
  }
  /** The collector's classification of every ref of `o`, with the owner reads it needs done. */
  const classified = async (o: GcObject): Promise<ReturnType<typeof classifyReferences>> => {
    let c = classifyReferences(o, world())
    for (let round = 0; round < MAX_ROUNDS && c.needs.reads.length > 0; round++) {
      await reader.read(c.needs.reads)
      c = classifyReferences(o, world())
    }
    return c
  }

  const owners = async (o: GcObject, depth: number): Promise<GcTreeNode[]> => {
    const nodes: GcTreeNode[] = []
    for (const x of (await classified(o)).refs) {
      const read = x.lookup ? world().reads.get(readKeyString(x.lookup.key)) : undefined
      const found = read?.outcome === 'found' && read.object.metadata.uid === x.ref.uid ? read.object : undefined
      const node: GcTreeNode = {
        subject: found
          ? subjectOf(found)
          : {kind: x.ref.kind, apiVersion: x.ref.apiVersion, ...(x.lookup?.namespace ? {namespace: x.lookup.namespace} : {}), name: x.ref.name, uid: x.ref.uid},
        exists: found !== undefined,
        edge: edgeOf(x),
        children: [],
      }
      if (found) {
        Object.assign(node, state(found))
        if (seen.has(found.metadata.uid)) node.cycle = true
        else if (depth < maxDepth) {
          seen.add(found.metadata.uid)
          verdictOf(node, await settle(found))
          node.children = await owners(found, depth + 1)
        }
      }
      nodes.push(node)
    }
    return nodes
  }

  const dependents = async (o: GcObject, depth: number): Promise<{children: GcTreeNode[]; more?: number}> => {
    const all = g.index.dependentsOf(o.metadata.uid)
    const children: GcTreeNode[] = []
    for (const d of all.slice(0, TREE_CHILDREN)) {
      // Graph edges are keyed by owner uid (graph_builder.go:370): the ref naming this uid is the edge, classified by
      // the collector's own rule from the dependent's side (by name, in the dependent's namespace).
      const x = (await classified(d)).refs.find((r) => r.ref.uid === o.metadata.uid)!
      const node: GcTreeNode = {subject: subjectOf(d), exists: true, ...state(d), edge: edgeOf(x), children: []}
      verdictOf(node, await settle(d))
      if (seen.has(d.metadata.uid)) node.cycle = true
      else if (depth < maxDepth) {
        seen.add(d.metadata.uid)
        const sub = await dependents(d, depth + 1)
        node.children = sub.children
        if (sub.more) node.more = sub.more
      } else if (g.index.dependentsOf(d.metadata.uid).length) node.more = g.index.dependentsOf(d.metadata.uid).length
      children.push(node)
    }
    return {children, ...(all.length > TREE_CHILDREN ? {more: all.length - TREE_CHILDREN} : {})}
  }

  // Owners first: they are drawn above the object, so an object met again below them is the one marked as a cycle.
  const up = await owners(item, 1)
  const top = await dependents(item, 1)
  const object: GcTreeNode = {subject: subjectOf(item), exists: true, ...state(item), children: top.children, ...(top.more ? {more: top.more} : {})}
  verdictOf(object, replay)
  return {owners: up, object, ...(g.problems.length > 0 ? {partial: g.problems} : {})}
}
