// Which pods could go first when the order of ActivePodsWithRanks is not certain (issue 18.2). getPodsToDelete sorts
// with Go's sort.Sort (pdqsort, unstable) over the informer's list order; its Less (controller_utils.go:843) is not a
// strict weak order — equal ready times let rule 7 decide one pair while a log2-bucket tie lets the UID decide
// another, and the three can form a cycle — so which pods land before the cut can depend on that list order.
//
// How the set is computed: "p may sort before q" holds when !Less(q, p). Between any two pods at least one direction
// holds (Less is asymmetric), so the strongly connected components of that relation are linearly ordered, and every pod
// of an earlier component is Less than every pod of a later one: no sort, whatever the input order, can put it after
// them. The components before the cut go for certain; the one the cut falls in (when it has more than one pod) is the
// tie: any `slots` of its pods may go. With a strict weak order the components are exactly the classes of equal pods.
// Cost: Less on every ordered pair (n² comparisons, kept in an n×n byte matrix) and Tarjan's algorithm over it.
// Pure.

export interface TieAtCut {
  /** Indices (into the items given) of the component the cut falls in. */
  members: number[]
  /** How many of them go: the cut minus the pods of the components before it. */
  slots: number
  /** equal: Less is false both ways for every pair; notTransitive: Less orders some pairs but not consistently. */
  reason: 'equal' | 'notTransitive'
  /**
   * For notTransitive, three members showing it: a may sort before b and b before c (Less false the other way), yet
   * Less(c, a); `cycle` when the first two are strict too (a < b < c < a).
   */
  witness?: {indices: [number, number, number]; cycle: boolean}
}

export interface TieAnalysis {
  /** For each item, the index of its component in the certain order (0 goes first). */
  component: number[]
  tie?: TieAtCut
}

const WITNESS_LIMIT = 120

export function analyseTies<T>(items: readonly T[], cut: number, less: (a: T, b: T) => boolean): TieAnalysis {
  const n = items.length
  const L = new Uint8Array(n * n)
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) if (i !== j && less(items[i], items[j])) L[i * n + j] = 1
  // Edge i → j (i may sort before j) when !Less(j, i). Tarjan, iterative: completed components come sinks first.
  const index = new Int32Array(n).fill(-1)
  const low = new Int32Array(n)
  const onStack = new Uint8Array(n)
  const stack: number[] = []
  const components: number[][] = []
  let counter = 0
  for (let root = 0; root < n; root++) {
    if (index[root] !== -1) continue
    const work: [number, number][] = [[root, 0]]
    index[root] = low[root] = counter++
    stack.push(root)
    onStack[root] = 1
    while (work.length > 0) {
      const frame = work[work.length - 1]
      const v = frame[0]
      let pushed = false
      for (let w = frame[1]; w < n; w++) {
        if (w === v || L[w * n + v] === 1) continue
        if (index[w] === -1) {
          frame[1] = w + 1
          index[w] = low[w] = counter++
          stack.push(w)
          onStack[w] = 1
          work.push([w, 0])
          pushed = true
          break
        }
        if (onStack[w] === 1 && index[w] < low[v]) low[v] = index[w]
      }
      if (pushed) continue
      work.pop()
      if (work.length > 0) {
        const parent = work[work.length - 1][0]
        if (low[v] < low[parent]) low[parent] = low[v]
      }
      if (low[v] === index[v]) {
        const c: number[] = []
        let w: number
        do {
          w = stack.pop()!
          onStack[w] = 0
          c.push(w)
        } while (w !== v)
        components.push(c)
      }
    }
  }
  components.reverse()
  const component = new Array<number>(n)
  components.forEach((c, k) => {
    for (const i of c) component[i] = k
  })
  let before = 0
  for (const c of components) {
    if (before + c.length > cut) {
      if (before === cut || c.length === 1) return {component}
      const members = [...c].sort((a, b) => a - b)
      return {component, tie: {members, slots: cut - before, ...reasonOf(members, L, n)}}
    }
    before += c.length
  }
  return {component}
}

function reasonOf(m: number[], L: Uint8Array, n: number): Pick<TieAtCut, 'reason' | 'witness'> {
  const lt = (a: number, b: number) => L[a * n + b] === 1
  const eq = (a: number, b: number) => !lt(a, b) && !lt(b, a)
  if (m.every((a) => m.every((b) => a === b || eq(a, b)))) return {reason: 'equal'}
  const s = m.slice(0, WITNESS_LIMIT)
  for (const a of s)
    for (const b of s) {
      if (a === b || lt(b, a)) continue
      for (const c of s) {
        if (c === a || c === b || lt(c, b) || !lt(c, a)) continue
        return {reason: 'notTransitive', witness: {indices: [a, b, c], cycle: lt(a, b) && lt(b, c)}}
      }
    }
  return {reason: 'notTransitive'}
}
