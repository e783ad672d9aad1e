// What holds a deletion, as a picture (issue 26 point 7): for a Namespace stuck Terminating, the namespace, what
// remains in it per group/resource (the namespace's own NamespaceContentRemaining / NamespaceFinalizersRemaining
// counts beside the data's, with the engine's note where they differ), the APIServices whose discovery failure holds
// it with their Available condition, and each object held by a finalizer with the finalizer, its holder's state and
// the manager that wrote it; for any other object past its deletionTimestamp, the object, its finalizers and each
// holder. Every actor's next step stands beside it. Drawn as nested lists (a tree read top to bottom, in text order):
// no script, no colour-only meaning (each state has its word and shape), every name escaped by h() for HTML and with
// its controls shown (terminal-safe.ts), so a copied command cannot carry a hidden one.
//
// The view model reads only what the answer carries: the namespace replay's steps (their inputs: the conditions, the
// data's counts) and its actor's evidence and next steps (src/engine/namespace/replay.ts writes those lines), the
// pending-deletion findings' holders (src/engine/deletions/pending.ts), and the other answers on the same page for
// the objects the namespace names. Nothing is decided here.
import {JOB_TRACKING, PV_PROTECTION, PVC_PROTECTION} from '../../engine/finalizers/replay.js'
import {
  CONTENT_REMAINING,
  DISCOVERY_FAILURE,
  FINALIZERS_REMAINING,
  failedGroupVersions,
  type NamespaceCondition,
  remainingFinalizers,
  remainingResources,
} from '../../engine/namespace/conditions.js'
import type {Actor, Explanation, Severity, Step} from '../../explanation.js'
import type {NextStepInForce} from '../next-steps.js'
import {escapeControls} from '../terminal-safe.js'
import {h, type Html} from './h.js'
import {isSeverity, SEVERITY_LOOK} from './severity.js'

/** A holder's state as the pending-deletions pass words it (finalizers/replay.ts HolderState). */
export type HolderStateWord = 'releases' | 'waits' | 'stuck' | 'absent' | 'unknown'

export interface HolderView {
  finalizer: string
  /** As kube-controller-manager's --controllers names it, or the manager that wrote the finalizer. */
  actor: string
  action?: string
  /** Only where the answer carries it (the pending-deletion findings' holders). */
  state?: HolderStateWord
  /** The collector's own verdict, when the collector is the holder (foregroundDeletion, orphan). */
  verdict?: string
  /** The holder's clause, as the answer words it. */
  text?: string
  /** The managedFields line naming who set the finalizer ("set by …", or why none is known). */
  manager?: string
  evidence: string[]
  next: NextStepInForce[]
}

export interface HeldView {
  subject: {kind: string; namespace?: string; name: string}
  deletionTimestamp?: string
  finalizers: string[]
  holders: HolderView[]
  /** Whether the object's own answer is on this page; else the namespace controller only names it. */
  answered: boolean
  next: NextStepInForce[]
}

export interface ResourceRow {
  /** `<resource>.<group>`, as the namespace controller's messages write it ("configmaps." for the core group). */
  type: string
  /** What the namespace's NamespaceContentRemaining condition counts; undefined: it does not list the type (or is not True). */
  condition?: number
  /** What the data holds; undefined: the data cannot show the type. */
  data?: number
  /** The engine's note when the two were compared. */
  note?: string
}

export interface FinalizerRow {
  finalizer: string
  condition?: number
  data?: number
}

export interface ApiServiceRow {
  name: string
  groupVersion?: string
  error?: string
  /** Its Available condition as the engine read it, or what the data lacks of it. */
  available: string
  inData: boolean
  next: NextStepInForce[]
}

export interface NamespaceView {
  name: string
  deletionTimestamp?: string
  specFinalizers?: string[]
  verdict: string
  severity: Severity
  /** The namespace controller's action and clause. */
  controller: {action?: string; rule?: string; state?: HolderStateWord; text?: string}
  /** Whether the namespace's content condition was True (so its counts are shown), and when it last changed. */
  contentCondition?: NamespaceCondition
  finalizersCondition?: NamespaceCondition
  discoveryCondition?: NamespaceCondition
  resources: ResourceRow[]
  finalizers: FinalizerRow[]
  discovery: ApiServiceRow[]
  held: HeldView[]
  /** The namespace controller's next steps not drawn beside an APIService or an object. */
  next: NextStepInForce[]
  /** Where no discovery failure is drawn: the engine's reason (which may be that the data cannot rule one out). */
  discoveryNote?: string
  /** What the data cannot show of the namespace's content, as the engine says it. */
  lacks?: string
}

type Extra = Explanation & {
  deletionTimestamp?: string
  finalizers?: string[]
  specFinalizers?: string[]
  holders?: {finalizer: string; actor: string; state: HolderStateWord; text: string}[]
  actors?: Actor[]
}

const GC_FINALIZERS = new Set(['foregroundDeletion', 'orphan'])
/** The holders kube-controller-manager names for the finalizers it removes (finalizers/replay.ts). */
const KNOWN_HOLDER: Record<string, string> = {[PVC_PROTECTION]: 'pvc-protection', [PV_PROTECTION]: 'pv-protection', [JOB_TRACKING]: 'job'}

function stepsOf(e: Explanation, rule: string): Step[] {
  return e.steps.filter((s) => s.rule === rule)
}

function conditionOf(s: Step | undefined): NamespaceCondition | undefined {
  const c = (s?.inputs as {condition?: unknown} | undefined)?.condition
  return typeof c === 'object' && c !== null && typeof (c as NamespaceCondition).type === 'string' ? (c as NamespaceCondition) : undefined
}

function namespaceActor(e: Extra): Actor | undefined {
  return e.actors?.find((a) => a.actor === 'namespace')
}

/** A Namespace the namespace controller's replay answered (the deleting check, gc --all's deletions, gc namespace/NAME). */
export function isNamespaceAnswer(e: Explanation): boolean {
  const x = e as Extra
  return e.subject.kind === 'Namespace' && namespaceActor(x) !== undefined && typeof x.deletionTimestamp === 'string'
}

/** `kubectl why gc TYPE/NAME -n NS` (replay.ts whyGc) and its why, `Kind name ("f", …), being deleted: …` (objectText). */
function namedObject(n: NextStepInForce): {kind: string; name: string; namespace: string; finalizers: string[]} | undefined {
  const c = /^kubectl why gc (\S+)\/(\S+) -n (\S+)$/.exec(n.command ?? '')
  if (!c) return undefined
  const w = /^(\S+) (\S+)(?: \(((?:"[^"]*"(?:, )?)+)\))?/.exec(n.why)
  if (!w || w[2] !== c[2]) return undefined
  return {kind: w[1], name: c[2], namespace: c[3], finalizers: [...(w[3] ?? '').matchAll(/"([^"]*)"/g)].map((m) => m[1])}
}

function holderOfActor(finalizer: string, a: Actor): HolderView {
  return {
    finalizer,
    actor: a.actor,
    action: a.action,
    manager: a.evidence.find((x) => x.startsWith('set by ') || x.startsWith('no managedFields')),
    evidence: a.evidence,
    next: a.next as NextStepInForce[],
  }
}

/** The holders of an object's finalizers, from its own answer. */
function holdersOf(e: Extra): HolderView[] {
  const finalizers = e.finalizers ?? []
  if (e.holders && e.actors) {
    // pending.ts: holders and actors are ranked together, one per holder.
    return e.holders.map((hd, i) => ({
      ...holderOfActor(hd.finalizer, e.actors?.[i] ?? {actor: hd.actor, action: 'none', rule: '', evidence: [], next: []}),
      state: hd.state,
      text: hd.text,
    }))
  }
  const actors = e.actors ?? []
  const used = new Set<Actor>()
  return finalizers.map((f): HolderView => {
    if (GC_FINALIZERS.has(f)) {
      const gc = actors.find((a) => a.actor === 'garbagecollector')
      return {
        finalizer: f,
        actor: 'garbagecollector',
        ...(gc ? {action: gc.action} : {}),
        verdict: e.controller === 'garbagecollector' ? e.verdict : undefined,
        text: e.controller === 'garbagecollector' ? e.summary : undefined,
        evidence: gc?.evidence ?? [],
        next: (gc?.next ?? (e.controller === 'garbagecollector' ? (e.next ?? []) : [])) as NextStepInForce[],
      }
    }
    // The finalizer replay's actor for f: its evidence names f (`metadata.finalizers "f"`, or f itself), else the
    // holder kube-controller-manager names for a finalizer it removes.
    const a =
      actors.find((x) => !used.has(x) && x.actor !== 'garbagecollector' && x.evidence.some((ev) => ev === f || ev.includes(`"${f}"`))) ??
      actors.find((x) => !used.has(x) && x.actor === KNOWN_HOLDER[f])
    if (a) {
      used.add(a)
      return holderOfActor(f, a)
    }
    return {finalizer: f, actor: 'unknown', evidence: ['this answer names no holder for it'], next: []}
  })
}

/** An object past its deletionTimestamp with finalizers (not a Namespace): the object, its finalizers, each holder. */
export function heldView(e: Explanation): HeldView | undefined {
  const x = e as Extra
  if (e.subject.kind === 'Namespace' || typeof x.deletionTimestamp !== 'string' || (x.finalizers ?? []).length === 0) return undefined
  const holders = holdersOf(x)
  if (holders.length === 0) return undefined
  return {
    subject: {kind: e.subject.kind, ...(e.subject.namespace ? {namespace: e.subject.namespace} : {}), name: e.subject.name},
    deletionTimestamp: x.deletionTimestamp,
    finalizers: [...(x.finalizers ?? [])],
    holders,
    answered: true,
    next: [],
  }
}

function parseList(text: string): string[] | undefined {
  try {
    const v: unknown = JSON.parse(text)
    return Array.isArray(v) && v.every((f) => typeof f === 'string') ? v : undefined
  } catch {
    return undefined
  }
}

const IN_DATA = /^(.+) in (\d+) resource instances \(in the data\)$/
const APISERVICE_LINE = /^APIService (\S+): (.+)$/
/** replay.ts: `<group>/<version> (<error>): APIService NAME is not in the data (…)` or `…: no APIService NAME in the data`. */
const APISERVICE_ABSENT = /^(\S+)\/(\S+) \((.*)\): (?:APIService (\S+) is not in the data.*|no APIService (\S+) in the data)$/

/**
 * The namespace's picture, from its answer and the page's other answers (the objects in it that are held). Undefined
 * for anything but a Namespace the namespace controller's replay answered.
 */
export function namespaceView(e: Explanation, related: readonly Explanation[] = []): NamespaceView | undefined {
  if (!isNamespaceAnswer(e)) return undefined
  const x = e as Extra
  const name = e.subject.name
  const actor = namespaceActor(x)
  const holder = x.holders?.find((hd) => hd.actor === 'namespace')
  const evidence = actor?.evidence ?? []
  // gc namespace/NAME carries no specFinalizers field; its namespace actor's evidence quotes them (replay.ts).
  const specLine = evidence.find((ev) => ev.startsWith('spec.finalizers: '))
  const specFinalizers = x.specFinalizers ?? (specLine ? parseList(specLine.slice('spec.finalizers: '.length)) : undefined)
  const totals = stepsOf(e, 'ProcessContentTotals')
  const contentStep = totals.find((s) => conditionOf(s)?.type === CONTENT_REMAINING)
  const contentCondition = conditionOf(contentStep)
  const finalizersCondition = totals.map(conditionOf).find((c) => c?.type === FINALIZERS_REMAINING)
  const discoveryStep = stepsOf(e, 'deleteAllContent: discovery')[0]
  const discoveryCondition = conditionOf(discoveryStep)?.type === DISCOVERY_FAILURE ? conditionOf(discoveryStep) : undefined

  // Content per type: the data's counts (deleteAllContent's inputs) and the condition's, with the engine's note
  // (ProcessContentTotals' why: one `<type>: …` clause per type the condition lists, joined by "; ").
  const dataCounts = ((stepsOf(e, 'deleteAllContent')[0]?.inputs as {remaining?: Record<string, number>} | undefined)?.remaining ?? {}) as Record<
    string,
    number
  >
  const notes = new Map<string, string>()
  // A clause may hold "; " itself (a type the data cannot show gives the reason): split only before the next type.
  for (const clause of (contentStep?.why ?? '').split(/; (?=[a-z0-9-]+\.[a-z0-9.-]*: )/)) {
    const m = /^(\S+\.\S*): (.+)$/.exec(clause)
    if (m) notes.set(m[1], m[2])
  }
  const resources: ResourceRow[] = []
  for (const r of remainingResources(contentCondition?.message ?? '')) {
    const type = `${r.resource}.${r.group}`
    const note = notes.get(type)
    const held = /the data holds (\d+)/.exec(note ?? '')
    const data = dataCounts[type] ?? (held ? Number(held[1]) : note && /as in the data/.test(note) ? r.count : undefined)
    resources.push({type, condition: r.count, ...(data !== undefined ? {data} : {}), ...(note ? {note} : {})})
  }
  for (const [type, n] of Object.entries(dataCounts))
    if (!resources.some((r) => r.type === type))
      resources.push({type, data: n, ...(contentCondition ? {note: "not in the namespace's condition (it is from the controller's last pass)"} : {})})

  const finalizers: FinalizerRow[] = remainingFinalizers(finalizersCondition?.message ?? '').map((f) => ({finalizer: f.finalizer, condition: f.count}))
  for (const ev of evidence) {
    const m = IN_DATA.exec(ev)
    if (!m) continue
    const row = finalizers.find((f) => f.finalizer === m[1])
    if (row) row.data = Number(m[2])
    else finalizers.push({finalizer: m[1], data: Number(m[2])})
  }

  // Discovery: the GroupVersions the condition names, each with its APIService (<version>.<group>) as the engine read it.
  const nsNext = (actor?.next ?? []) as NextStepInForce[]
  const placed = new Set<NextStepInForce>()
  const apiNext = (api: string) =>
    nsNext.filter((n) => {
      const hit = new RegExp(`^kubectl get apiservices? ${api.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(\\s|$)`).test(n.command ?? '')
      if (hit) placed.add(n)
      return hit
    })
  const seen = new Map<string, string>()
  for (const ev of evidence) {
    const m = APISERVICE_LINE.exec(ev)
    if (m) seen.set(m[1], m[2])
  }
  const absent = new Map<string, string>()
  for (const ev of evidence) {
    const m = APISERVICE_ABSENT.exec(ev)
    if (m) absent.set(m[4] ?? m[5], ev.slice(ev.indexOf('): ') + 3))
  }
  const discovery: ApiServiceRow[] = []
  for (const gv of discoveryCondition ? failedGroupVersions(discoveryCondition.message ?? '') : []) {
    const api = `${gv.version}.${gv.group}`
    const available = seen.get(api) ?? absent.get(api) ?? 'not in the data'
    discovery.push({name: api, groupVersion: `${gv.group}/${gv.version}`, error: gv.error, available, inData: seen.has(api), next: apiNext(api)})
  }
  // No condition says so, but an APIService the data holds is not Available (the engine infers the failure).
  for (const [api, available] of seen) if (!discovery.some((d) => d.name === api)) discovery.push({name: api, available, inData: true, next: apiNext(api)})

  // The objects the namespace holds that finalizers hold: their own answers on this page, else as the controller names them.
  const held: HeldView[] = []
  const answerOf = (kind: string, objectName: string) =>
    related.find((r) => r !== e && r.subject.namespace === name && r.subject.kind === kind && r.subject.name === objectName && heldView(r) !== undefined)
  for (const n of nsNext) {
    const o = namedObject(n)
    if (!o || o.namespace !== name || o.finalizers.length === 0) continue
    placed.add(n)
    if (held.some((v) => v.subject.kind === o.kind && v.subject.name === o.name)) continue
    const own = answerOf(o.kind, o.name)
    const view = own ? heldView(own) : undefined
    if (view) held.push({...view, next: [n]})
    else
      held.push({
        subject: {kind: o.kind, namespace: name, name: o.name},
        finalizers: o.finalizers,
        holders: o.finalizers.map((f) => ({finalizer: f, actor: 'not answered on this page', evidence: [], next: []})),
        answered: false,
        next: [n],
      })
  }
  for (const r of related) {
    if (r === e || r.subject.namespace !== name) continue
    if (held.some((v) => v.subject.kind === r.subject.kind && v.subject.name === r.subject.name)) continue
    const view = heldView(r)
    if (view) held.push(view)
  }

  return {
    name,
    ...(x.deletionTimestamp ? {deletionTimestamp: x.deletionTimestamp} : {}),
    ...(specFinalizers ? {specFinalizers} : {}),
    verdict: e.verdict,
    severity: isSeverity(e.severity) ? e.severity : 'none',
    controller: {action: actor?.action, rule: actor?.rule, ...(holder ? {state: holder.state, text: holder.text} : {})},
    ...(contentCondition ? {contentCondition} : {}),
    ...(finalizersCondition ? {finalizersCondition} : {}),
    ...(discoveryCondition ? {discoveryCondition} : {}),
    resources,
    finalizers,
    discovery,
    ...(discovery.length === 0 && discoveryStep ? {discoveryNote: discoveryStep.why} : {}),
    held,
    next: nsNext.filter((n) => !placed.has(n)),
    ...(evidence.find((ev) => ev.startsWith('the data cannot show')) ? {lacks: evidence.find((ev) => ev.startsWith('the data cannot show'))} : {}),
  }
}

// ---- drawing ----

/** Every name and message from the data: controls shown (terminal-safe.ts); h() escapes it for HTML. */
function t(s: string | number | undefined): string {
  return escapeControls(String(s ?? ''))
}

/** The states' words (finalizers/replay.ts HolderState; deletions/drive.ts maps the namespace controller's verdicts). */
const STATE_LOOK: Record<HolderStateWord, {severity: Severity; text: string}> = {
  releases: {severity: 'none', text: 'running, releases it on its next pass'},
  waits: {severity: 'info', text: 'running, waits for what the data shows'},
  stuck: {severity: 'warning', text: 'not running: in the data with no ready replica'},
  absent: {severity: 'warning', text: 'absent: its writer runs nowhere in the data'},
  unknown: {severity: 'info', text: 'unknown: the data cannot tell'},
}
/** The namespace controller runs in kube-controller-manager: its "stuck" is a blocked pass (discovery, parsing, a failed delete). */
const NAMESPACE_STUCK = 'blocked: it will not finish while this lasts'

function stateBadge(state: HolderStateWord | undefined, verdict?: string, actor?: string): Html {
  if (!state) {
    return h(
      'span',
      {class: 'state sev-info', 'data-state': verdict ? 'verdict' : 'not-stated'},
      verdict ? `verdict ${t(verdict)}` : 'state not stated by this answer',
    )
  }
  const look = STATE_LOOK[state]
  return h(
    'span',
    {class: `state ${SEVERITY_LOOK[look.severity].css}`, 'data-state': state},
    h('span', {'aria-hidden': 'true'}, SEVERITY_LOOK[look.severity].shape),
    ' ',
    h('strong', null, state),
    ` (${state === 'stuck' && actor === 'namespace' ? NAMESPACE_STUCK : look.text})`,
  )
}

function nextList(steps: readonly NextStepInForce[]): Html | string {
  if (steps.length === 0) return ''
  return h(
    'ul',
    {class: 'picture-next'},
    steps.map((n) => {
      const command = n.commandInForce ?? n.command
      return h(
        'li',
        // Not data-next: that counts the card's own list of the answer's next steps.
        {'data-picture-next': ''},
        h('span', {class: 'muted'}, 'next: '),
        command ? h('code', {class: 'command'}, t(command)) : '',
        n.change ? ` change ${t(n.change)}` : '',
        h('span', {class: 'muted'}, ` — ${t(n.why)}`),
      )
    }),
  )
}

function objectTitle(s: HeldView['subject']): string {
  return `${s.kind} ${s.namespace ? `${s.namespace}/` : ''}${s.name}`
}

/** finalizers/replay.ts names the actor "unknown" when no managedFields entry names the writer. */
function holderName(actor: string): string {
  return actor === 'unknown' ? 'a holder the data does not name' : actor
}

function holderItem(hd: HolderView): Html {
  return h(
    'li',
    {class: 'holder', 'data-finalizer': t(hd.finalizer), 'data-holder': t(hd.actor), 'data-state': hd.state ?? ''},
    h(
      'div',
      {class: 'node-box'},
      'finalizer ',
      h('code', null, t(hd.finalizer)),
      ' → held by ',
      h('strong', {class: 'actor'}, t(holderName(hd.actor))),
      ' ',
      stateBadge(hd.state, hd.verdict),
    ),
    hd.manager ? h('div', {class: 'muted', 'data-manager': ''}, `managedFields: ${t(hd.manager)}`) : '',
    hd.text ? h('div', {class: 'muted'}, t(hd.text)) : '',
    hd.evidence
      // The finalizer and its manager are drawn above, and the holder's clause often quotes the rest.
      .filter((ev) => ev !== hd.manager && !ev.startsWith('metadata.finalizers ') && ev !== hd.finalizer && !(hd.text ?? '').includes(ev))
      .map((ev) => h('div', {class: 'muted', 'data-evidence': ''}, t(ev))),
    nextList(hd.next),
  )
}

function heldItem(v: HeldView): Html {
  return h(
    'li',
    {class: 'held', 'data-object': t(objectTitle(v.subject))},
    h(
      'div',
      {class: 'node-box'},
      h('strong', null, t(objectTitle(v.subject))),
      v.deletionTimestamp ? h('span', {class: 'muted'}, ` · being deleted since ${t(v.deletionTimestamp)}`) : '',
      v.answered ? '' : h('span', {class: 'muted'}, ' · its holders: its own answer, the command below'),
    ),
    nextList(v.next),
    // Answered: each finalizer with its holder; else only the finalizers the namespace controller names (no empty list).
    v.answered
      ? h('ul', {class: 'tree'}, v.holders.map(holderItem))
      : h(
          'ul',
          {class: 'tree'},
          v.finalizers.map((f) => h('li', {class: 'holder', 'data-finalizer': t(f)}, h('div', {class: 'node-box'}, 'finalizer ', h('code', null, t(f))))),
        ),
  )
}

function count(n: number | undefined, absent: string): Html {
  return n === undefined ? h('span', {class: 'muted'}, absent) : h('strong', null, String(n))
}

function resourcesTable(v: NamespaceView): Html {
  return h(
    'table',
    {class: 'remaining', 'data-remaining': v.resources.length},
    h(
      'caption',
      null,
      `Content remaining per group/resource${v.contentCondition?.lastTransitionTime ? ` (the condition last changed ${t(v.contentCondition.lastTransitionTime)})` : ''}`,
    ),
    h(
      'thead',
      null,
      h(
        'tr',
        null,
        ['group/resource', `${CONTENT_REMAINING} counts`, 'the data holds', 'note'].map((c) => h('th', {scope: 'col'}, c)),
      ),
    ),
    h(
      'tbody',
      null,
      v.resources.map((r) =>
        h(
          'tr',
          {
            'data-type': t(r.type),
            'data-condition': r.condition,
            'data-data': r.data,
            class: r.condition !== undefined && r.data !== r.condition ? 'disagree' : undefined,
          },
          h('th', {scope: 'row'}, h('code', null, t(r.type))),
          h('td', null, count(r.condition, v.contentCondition ? 'not listed' : 'no condition')),
          h('td', null, count(r.data, 'not in the data')),
          // ProcessContentTotals' "N, as in the data" where the two agree: said once, without repeating the count.
          h('td', null, r.note ? (/^\d+, as in the data$/.test(r.note) ? 'as in the data' : t(r.note)) : ''),
        ),
      ),
    ),
  )
}

function finalizersTable(v: NamespaceView): Html {
  return h(
    'table',
    {class: 'remaining-finalizers', 'data-finalizers': v.finalizers.length},
    h('caption', null, 'Finalizers on the content'),
    h(
      'thead',
      null,
      h(
        'tr',
        null,
        ['finalizer', `${FINALIZERS_REMAINING} counts`, 'the data holds'].map((c) => h('th', {scope: 'col'}, c)),
      ),
    ),
    h(
      'tbody',
      null,
      v.finalizers.map((f) =>
        h(
          'tr',
          {'data-finalizer': t(f.finalizer), 'data-condition': f.condition, 'data-data': f.data},
          h('th', {scope: 'row'}, h('code', null, t(f.finalizer))),
          h('td', null, count(f.condition, v.finalizersCondition ? 'not listed' : 'no condition')),
          h('td', null, count(f.data, 'not counted')),
        ),
      ),
    ),
  )
}

/** One sentence saying what the picture shows: its text alternative. */
export function namespaceAlt(v: NamespaceView): string {
  const parts = [
    `Namespace ${v.name}${v.deletionTimestamp ? `, being deleted since ${v.deletionTimestamp}` : ''}${v.specFinalizers ? `, spec.finalizers ${JSON.stringify(v.specFinalizers)}` : ''}`,
    v.discovery.length > 0
      ? `discovery fails for ${v.discovery.map((d) => `APIService ${d.name} (${d.available.split(':')[0]})`).join(', ')}`
      : v.discoveryNote
        ? `no discovery failure shown: ${v.discoveryNote}`
        : '',
    v.resources.length > 0
      ? `remaining: ${v.resources.map((r) => `${r.type} ${r.condition ?? '–'} counted by the namespace, ${r.data ?? 'not'} in the data`).join('; ')}`
      : 'no content remaining in the data',
    v.held.length > 0
      ? `held by finalizers: ${v.held.map((o) => `${objectTitle(o.subject)} (${o.holders.map((hd) => `${hd.finalizer}: ${holderName(hd.actor)}${hd.state ? `, ${hd.state}` : ''}`).join(', ')})`).join('; ')}`
      : '',
  ]
  return `${parts.filter(Boolean).join('. ')}.`
}

export function renderNamespacePicture(v: NamespaceView): Html {
  const severity = SEVERITY_LOOK[v.severity]
  return h(
    'figure',
    {class: 'deletion-map', 'data-namespace': t(v.name)},
    h('figcaption', null, t(namespaceAlt(v))),
    h(
      'ul',
      {class: 'tree root'},
      h(
        'li',
        {class: 'namespace'},
        h(
          'div',
          {class: `node-box subject ${severity.css}`},
          h('span', {'aria-hidden': 'true'}, severity.shape),
          ' ',
          h('strong', null, `Namespace ${t(v.name)}`),
          v.deletionTimestamp ? h('span', {class: 'muted'}, ` · Terminating since ${t(v.deletionTimestamp)}`) : '',
          v.specFinalizers ? h('span', {class: 'muted'}, ' · spec.finalizers ', h('code', null, t(JSON.stringify(v.specFinalizers)))) : '',
          h('br', null),
          'namespace controller ',
          v.controller.state
            ? stateBadge(v.controller.state, undefined, 'namespace')
            : h(
                'span',
                {class: 'state sev-info', 'data-state': 'action'},
                `${t(v.controller.action ?? 'none')}${v.controller.rule ? ` (${t(v.controller.rule)})` : ''}`,
              ),
          v.controller.text ? h('span', {class: 'muted'}, ` — ${t(v.controller.text)}`) : '',
        ),
        nextList(v.next),
        h(
          'ul',
          {class: 'tree'},
          v.discovery.length === 0 && v.discoveryNote
            ? h(
                'li',
                {class: 'branch', 'data-branch': 'discovery'},
                h('div', {class: 'node-box'}, h('strong', null, 'Discovery: no failure shown'), h('span', {class: 'muted'}, ` — ${t(v.discoveryNote)}`)),
              )
            : '',
          v.discovery.length > 0
            ? h(
                'li',
                {class: 'branch', 'data-branch': 'discovery'},
                h(
                  'div',
                  {class: 'node-box'},
                  h('strong', null, 'Discovery fails'),
                  h('span', {class: 'muted'}, ' — the controller never removes "kubernetes" while it does'),
                ),
                h(
                  'ul',
                  {class: 'tree'},
                  v.discovery.map((d) =>
                    h(
                      'li',
                      {class: 'apiservice', 'data-apiservice': t(d.name)},
                      h(
                        'div',
                        {class: 'node-box'},
                        h('strong', null, `APIService ${t(d.name)}`),
                        d.groupVersion ? h('span', {class: 'muted'}, ` · serves ${t(d.groupVersion)}${d.error ? ` (${t(d.error)})` : ''}`) : '',
                        h('br', null),
                        h('span', {'data-available': ''}, t(d.available)),
                      ),
                      nextList(d.next),
                    ),
                  ),
                ),
              )
            : '',
          h(
            'li',
            {class: 'branch', 'data-branch': 'content'},
            h('div', {class: 'node-box'}, h('strong', null, 'Content remaining'), v.lacks ? h('span', {class: 'muted'}, ` — ${t(v.lacks)}`) : ''),
            v.resources.length > 0
              ? h('div', {class: 'table-wrap'}, resourcesTable(v))
              : h('p', {class: 'muted'}, "No remaining content in the data or the namespace's conditions."),
            v.finalizers.length > 0 ? h('div', {class: 'table-wrap'}, finalizersTable(v)) : '',
          ),
          v.held.length > 0
            ? h(
                'li',
                {class: 'branch', 'data-branch': 'held'},
                h('div', {class: 'node-box'}, h('strong', null, 'Held by finalizers')),
                h('ul', {class: 'tree'}, v.held.map(heldItem)),
              )
            : '',
        ),
      ),
    ),
  )
}

export function heldAlt(v: HeldView): string {
  return `${objectTitle(v.subject)}${v.deletionTimestamp ? `, being deleted since ${v.deletionTimestamp}` : ''}, held by ${v.holders
    .map((hd) => `${hd.finalizer} (${holderName(hd.actor)}${hd.state ? `, ${hd.state}` : hd.verdict ? `, ${hd.verdict}` : ''})`)
    .join(', ')}.`
}

export function renderHeldPicture(v: HeldView): Html {
  return h(
    'figure',
    {class: 'deletion-map', 'data-held': t(objectTitle(v.subject))},
    h('figcaption', null, t(heldAlt(v))),
    h('ul', {class: 'tree root'}, heldItem(v)),
  )
}
