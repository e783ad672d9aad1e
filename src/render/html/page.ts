// The report's frame: a self-contained HTML document (inline CSS and SVG, nothing fetched, no script), light and dark
// by prefers-color-scheme, printable; the header says what was read, the version and clock and how each was found,
// and what the data lacked.
import type {Problem, SourceDescription} from '../../explanation.js'
import {fragment, h, type Html, trusted} from './h.js'
import {PALETTE_CSS} from './severity.js'

const CSS = `${PALETTE_CSS}
* { box-sizing: border-box; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--fg); background: var(--bg); margin: 0 auto; padding: 24px; max-width: 1100px; }
h1 { font-size: 22px; margin: 0 0 4px; } h2 { font-size: 16px; display: inline; margin: 0; } h3 { font-size: 14px; margin: 14px 0 6px; }
code { font: 12.5px ui-monospace, SFMono-Regular, Menlo, monospace; }
.muted { color: var(--muted); }
header.report { border-bottom: 2px solid var(--line); margin-bottom: 16px; padding-bottom: 10px; }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: 2px 14px; margin: 8px 0; }
dl.facts dt { color: var(--muted); } dl.facts dd { margin: 0; }
.missing { border-left: 4px solid var(--warning); padding: 6px 10px; background: var(--panel); }
.badge { display: inline-block; font-weight: 700; font-size: 12px; padding: 1px 7px; border-radius: 10px; border: 2px solid var(--sev); color: var(--sev); }
article.finding { border: 1px solid var(--line); border-left: 6px solid var(--sev); border-radius: 6px; padding: 10px 14px; margin: 14px 0; break-inside: avoid; }
article.finding header { display: flex; gap: 8px; align-items: baseline; flex-wrap: wrap; }
.summary { margin: 6px 0; } .inferred { margin: 2px 0 0; color: var(--muted); font-style: italic; }
.next { background: var(--panel); padding: 4px 12px; border-radius: 4px; } .next ul { margin: 4px 0; }
table { border-collapse: collapse; width: 100%; margin: 6px 0; } caption { text-align: left; color: var(--muted); padding-bottom: 4px; }
th, td { border: 1px solid var(--line); padding: 3px 6px; text-align: left; vertical-align: top; }
td.decides { outline: 3px solid var(--info); outline-offset: -3px; font-weight: 700; }
tr.chosen td:first-child { border-left: 4px solid var(--warning); }
svg { display: block; max-width: 100%; } svg text { fill: var(--fg); font-size: 11px; }
svg .axis, svg .tick line { stroke: var(--fg); } svg .stem { stroke: var(--line); stroke-dasharray: 2 3; }
svg .dot { fill: var(--info); stroke: var(--info); stroke-width: 2; }
svg .estimated .dot { fill: var(--bg); stroke: var(--estimated); stroke-dasharray: 3 2; }
svg .now .dot { fill: var(--critical); stroke: var(--critical); } svg .axis-label { fill: var(--muted); }
svg .box rect { fill: var(--panel); stroke: var(--line); } svg .box.subject rect { stroke: var(--info); stroke-width: 2.5; }
svg .box-title { font-weight: 700; } svg .box-line { fill: var(--muted); }
svg .edge-label { font-size: 10px; paint-order: stroke; stroke: var(--bg); stroke-width: 4px; stroke-linejoin: round; } svg.graph { height: auto; }
svg .edge path { fill: none; stroke: var(--fg); stroke-width: 1.5; } svg marker path { fill: var(--fg); }
svg .edge.dangling path { stroke: var(--critical); stroke-dasharray: 6 4; } svg .edge.waiting path { stroke: var(--warning); stroke-dasharray: 2 3; }
.zone-map .zones { display: flex; flex-wrap: wrap; gap: 10px; }
.zone { border: 1px solid var(--line); border-radius: 6px; padding: 6px 10px; min-width: 220px; }
.zone h4 { margin: 0; } .zone-state { font-size: 12px; padding: 0 6px; border-radius: 8px; border: 1px solid var(--line); }
.state-FullDisruption { border-color: var(--critical); color: var(--critical); } .state-PartialDisruption { border-color: var(--warning); color: var(--warning); }
ul.nodes { list-style: none; padding: 0; margin: 4px 0; display: flex; flex-wrap: wrap; gap: 4px; }
li.node { border: 2px solid var(--sev); color: var(--fg); border-radius: 4px; padding: 0 6px; font-size: 12px; }
li.node > span:first-child { color: var(--sev); } li.node .verdict { color: var(--muted); }
.banner { border: 2px solid var(--sev); padding: 6px 10px; border-radius: 6px; }
.verdict-line { font-size: 17px; margin: 0 0 10px; padding: 8px 12px; border: 2px solid var(--sev); border-left-width: 8px; border-radius: 6px; }
.verdict-line strong { color: var(--sev); }
.table-wrap { overflow-x: auto; max-width: 100%; } td.token { white-space: nowrap; }
ol.revision-line { list-style: none; display: flex; gap: 0; padding: 0; flex-wrap: wrap; }
ol.revision-line li { border: 1px solid var(--line); padding: 6px 10px; margin-right: 18px; position: relative; border-radius: 4px; }
ol.revision-line li + li::before { content: "→"; position: absolute; left: -16px; top: 40%; }
ol.revision-line li.new { border: 2px solid var(--info); } .tag { color: var(--info); font-weight: 700; }
figure.deletion-map { margin: 8px 0; } figure.deletion-map figcaption { color: var(--muted); margin-bottom: 4px; }
ul.tree { list-style: none; margin: 0; padding-left: 22px; } ul.tree.root { padding-left: 0; }
ul.tree li { position: relative; margin: 6px 0; } ul.tree ul.tree > li::before { content: ""; position: absolute; left: -14px; top: 0; bottom: -6px; border-left: 2px solid var(--line); }
ul.tree ul.tree > li:last-child::before { bottom: auto; height: 14px; } ul.tree ul.tree > li::after { content: ""; position: absolute; left: -14px; top: 14px; width: 12px; border-top: 2px solid var(--line); }
.node-box { display: inline-block; border: 1px solid var(--line); border-radius: 4px; padding: 3px 8px; background: var(--panel); max-width: 100%; overflow-wrap: anywhere; }
.node-box.subject { border: 2px solid var(--sev); } .state { color: var(--fg); border-bottom: 2px solid var(--sev); } .state > span:first-child { color: var(--sev); }
ul.picture-next { list-style: none; margin: 2px 0 0; padding-left: 8px; } tr.disagree td { font-weight: 700; }
h2.section { display: block; margin: 20px 0 6px; }
ol.footnotes { font-size: 12px; color: var(--muted); }
table.checks td:nth-child(n+3) { text-align: right; }
@media print { body { max-width: none; padding: 0; } details::details-content { content-visibility: visible; display: block; } article.finding { break-inside: avoid; } }
`

function problemsList(problems: readonly Problem[]): Html {
  return h(
    'ul',
    null,
    problems.map((p) => h('li', {'data-problem': p.what}, h('strong', null, p.what), `: ${p.reason}${p.hint ? ` — ${p.hint}` : ''}`)),
  )
}

/**
 * `dependsOn` says whether some answer on the page rests on a missing piece of evidence: only those make the banner;
 * the rest are listed, collapsed, as what the data lacked that no answer here needs.
 */
export function renderHeader(
  title: string,
  source: SourceDescription | undefined,
  evaluatedAt: string | undefined,
  dependsOn: (p: Problem) => boolean = () => true,
): Html {
  const s = source ?? {mode: 'live' as const}
  const settings = Object.entries(s.settings ?? {})
  const evidence = (s as {evidence?: {missing?: Problem[]; clock?: {from?: string; trust?: string}; version?: {text?: string; from?: string}}}).evidence
  const facts: [string, string][] = [
    ['cluster', s.context ?? '(not recorded)'],
    ['read from', s.mode === 'snapshot' ? `snapshot ${s.file ?? ''}`.trim() : 'the live cluster'],
    [
      'Kubernetes',
      `${s.k8sVersion ?? '?'}${s.serverVersion ? ` (server ${s.serverVersion})` : ''}${evidence?.version?.from ? ` — ${evidence.version.from}` : ''}`,
    ],
    [
      'evaluated at',
      `${evaluatedAt ?? '?'}${evidence?.clock?.from ? ` — ${evidence.clock.from}${evidence.clock.trust === 'estimated' ? ' (estimated)' : ''}` : s.capturedAt ? ` — snapshot captured ${s.capturedAt}` : ''}`,
    ],
  ]
  const all = [...(evidence?.missing ?? []), ...(s.partial ?? [])]
  // One line per distinct gap: a source's note and a check's problem often say the same thing.
  const unique = all.filter((p, i) => all.findIndex((q) => q.what === p.what && q.reason === p.reason && q.hint === p.hint) === i)
  const missing = unique.filter(dependsOn)
  const unneeded = unique.filter((p) => !dependsOn(p))
  return h(
    'header',
    {class: 'report'},
    h('h1', null, title),
    h(
      'dl',
      {class: 'facts'},
      facts.map(([k, v]) => fragment(h('dt', null, k), h('dd', {'data-fact': k}, v))),
    ),
    settings.length > 0
      ? h(
          'details',
          null,
          h('summary', null, `Controller settings (${settings.length})`),
          h(
            'table',
            {class: 'settings'},
            h(
              'tbody',
              null,
              settings.map(([k, v]) => h('tr', null, h('th', {scope: 'row'}, k), h('td', null, JSON.stringify(v.value)), h('td', {class: 'muted'}, v.from))),
            ),
          ),
        )
      : '',
    missing.length > 0
      ? h(
          'section',
          {class: 'missing', 'data-missing': missing.length},
          h('strong', null, 'What the data lacked (answers that depend on it are partial):'),
          problemsList(missing),
        )
      : '',
    unneeded.length > 0
      ? h(
          'details',
          {class: 'unneeded', 'data-unneeded': unneeded.length},
          h('summary', null, `Not in the data, but no answer here depends on it (${unneeded.length})`),
          problemsList(unneeded),
        )
      : '',
  )
}

/**
 * The document in pieces, written as they are made: the head and header, then each piece of the body, then the
 * footnotes the body collected — so a 5,000-node audit is never one string in memory.
 */
export function* renderPage(title: string, header: Html, body: Iterable<Html>, footnotes: readonly Html[]): Generator<string> {
  const head = h(
    'head',
    null,
    h('meta', {charset: 'utf-8'}),
    h('meta', {name: 'viewport', content: 'width=device-width, initial-scale=1'}),
    h('meta', {name: 'color-scheme', content: 'light dark'}),
    h('title', null, title),
    h('style', null, trusted(CSS)),
  )
  yield `<!DOCTYPE html>\n<html lang="en">${head.markup}<body>${header.markup}<main>`
  for (const piece of body) yield piece.markup
  yield `</main>${
    fragment(
      footnotes.length > 0 ? h('footer', null, h('h3', null, 'Estimated instants'), h('ol', {class: 'footnotes'}, footnotes)) : '',
      h('p', {class: 'muted'}, 'Written by kubectl-why, which only reads the cluster. Every finding names the upstream rule it re-executed.'),
    ).markup
  }</body></html>\n`
}
