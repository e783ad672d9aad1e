// Each example's `-o html` report, opened in a real browser (Debian's chromium through puppeteer-core, which
// downloads nothing): the DOM holds what the JSON holds (findings, verdicts, timeline instants, zone nodes, graph
// boxes, ranking rows), the page fetches nothing, reads in both colour schemes, and the markup validates
// (html-validate). Screenshots go to .test-artifacts/html/; KUBECTL_WHY_UPDATE_DOCS=1 also writes the README's.
import assert from 'node:assert/strict'
import {existsSync, mkdirSync, readdirSync, writeFileSync} from 'node:fs'
import {after, before, describe, it} from 'node:test'
import {fileURLToPath} from 'node:url'
import {HtmlValidate} from 'html-validate'
import type {Browser} from 'puppeteer-core'
import {runCli} from '../../support/cli.js'

const ROOT = fileURLToPath(new URL('../../../', import.meta.url))
const ARTIFACTS = `${ROOT}.test-artifacts/html`
const CHROMIUM = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'].find((p) => existsSync(p))
const skip = CHROMIUM ? false : "no chromium on this machine (.ci/run installs Debian's chromium): the browser tests of the HTML report are skipped"

interface Case {
  name: string
  args: string[]
}

/** The command each example is about, by its name (README: "try them on the examples"). */
function commandFor(file: string): string[] {
  const f = `examples/${file}`
  if (file.startsWith('incident')) return ['audit', '-A', '-f', f]
  if (file.startsWith('gc-')) return ['gc', '--all', '-A', '-f', f]
  if (file.startsWith('hash-')) return ['hash', '--all', '-A', '-f', f]
  if (file.startsWith('node-')) return ['node', '-f', f]
  if (file.startsWith('replicas-')) return ['replicas', '--all', '-A', '-f', f]
  if (file.startsWith('evicted-')) return ['audit', '-A', '-f', f]
  throw new Error(`examples/${file}: no command is known for it; add one here`)
}

/** Every example's report, plus the single-object views that draw a timeline, a tree or a ranking. */
const CASES: Case[] = [
  ...readdirSync(`${ROOT}examples`)
    .filter((f) => /\.(json|ya?ml)$/.test(f))
    .sort()
    .map((f) => ({name: f.replace(/\.[a-z]+$/, ''), args: commandFor(f)})),
  {name: 'node-worker-c1', args: ['node', 'worker-c1', '-f', 'examples/node-zone-outage.json']},
  {name: 'evicted', args: ['evicted', 'pod/web-7d9f4b6c8-x2k9p', '-n', 'shop', '-f', 'examples/node-zone-outage.json']},
  {name: 'gc-stuck-namespace-tree', args: ['gc', 'deployment/api', '-n', 'team-a', '--tree', '-f', 'examples/gc-stuck-namespace.json']},
  {name: 'replicas-deletion-cost-one', args: ['replicas', 'rs/checkout-6b7f9d5c4d', '-n', 'shop', '-f', 'examples/replicas-deletion-cost.yaml']},
  {name: 'replicas-quota-one', args: ['replicas', 'rs/cart-7c9d8f6b5', '-n', 'shop', '-f', 'examples/replicas-quota.yaml']},
  {name: 'hash-drift-one', args: ['hash', 'deployment/web', '-n', 'shop', '-f', 'examples/hash-drift-after-upgrade.json']},
]

// biome-ignore lint/suspicious/noExplicitAny: the JSON of every command's report
type Any = any

/** The explanations a command's JSON holds, in order. */
function explanationsOf(json: Any): Any[] {
  if (Array.isArray(json)) return json
  // gc --all: the collector's findings, then its pending and stuck deletions (drawn as their own section).
  if (json.findings) return [...json.findings, ...(json.deletions?.findings ?? [])]
  if (json.results) return json.results
  return [json]
}

function timelineInstants(timeline: Record<string, unknown> | undefined): number {
  return Object.values(timeline ?? {}).filter((v) => typeof v === 'string' && !Number.isNaN(Date.parse(v))).length
}

/** Boxes the graph draws when no level has more than 12 boxes: owners, the object, every dependent. */
function treeBoxes(tree: Any): number {
  const count = (n: Any): number => 1 + (n.children ?? []).reduce((s: number, c: Any) => s + count(c), 0)
  return tree.owners.length + count(tree.object)
}

describe('-o html in a browser', {skip}, () => {
  let browser: Browser
  before(async () => {
    mkdirSync(ARTIFACTS, {recursive: true})
    const {launch} = await import('puppeteer-core')
    browser = await launch({executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-gpu']})
  })
  after(async () => browser?.close())

  for (const c of CASES) {
    it(`${c.name}: the report shows what the JSON says, fetches nothing, validates, and reads light and dark`, async () => {
      const [html, json] = await Promise.all([runCli([...c.args, '-o', 'html'], {cwd: ROOT}), runCli([...c.args, '-o', 'json'], {cwd: ROOT})])
      assert.ok(html.code === 0 || html.code === 1, html.stderr)
      assert.equal(html.code, json.code, 'the exit code does not depend on the format')
      const data = JSON.parse(json.stdout)
      const list = explanationsOf(data)
      const file = `${ARTIFACTS}/${c.name}.html`
      writeFileSync(file, html.stdout)
      assert.ok(html.stdout.length < 1_000_000, `${c.name}: ${html.stdout.length} bytes`)

      const report = await new HtmlValidate({extends: ['html-validate:recommended'], rules: {'no-inline-style': 'off', 'long-title': 'off'}}).validateString(
        html.stdout,
      )
      assert.ok(
        report.valid,
        JSON.stringify(
          report.results.flatMap((r) => r.messages.map((m) => `${m.line}:${m.column} ${m.ruleId} ${m.message}`)),
          null,
          1,
        ),
      )

      const page = await browser.newPage()
      const requests: string[] = []
      page.on('request', (r) => {
        if (!r.url().startsWith('file:')) requests.push(r.url())
      })
      await page.goto(`file://${file}`, {waitUntil: 'load'})
      assert.deepEqual(requests, [], 'a self-contained report fetches nothing')
      assert.equal(await page.$$eval('script', (s) => s.length), 0, 'no script')

      const dom = await page.$$eval('article.finding', (els) =>
        els.map((e) => ({
          verdict: e.getAttribute('data-verdict'),
          severity: e.getAttribute('data-severity'),
          subject: e.getAttribute('data-subject'),
          marks: e.querySelectorAll('svg.timeline g.mark').length,
          estimated: e.querySelectorAll('svg.timeline g.mark.estimated').length,
          zoneNodes: e.querySelectorAll('li.node').length,
          boxes: e.querySelectorAll('svg.graph g.box').length,
          rows: e.querySelectorAll('table.ranking tbody tr').length,
          next: e.querySelectorAll('[data-next]').length,
          rules: e.querySelectorAll('[data-rule]').length,
        })),
      )
      assert.equal(dom.length, list.length, 'one article per finding')
      list.forEach((e: Any, i: number) => {
        const d = dom[i]
        assert.equal(d.verdict, e.verdict)
        assert.equal(d.severity, e.severity)
        assert.equal(d.subject, `${e.subject.kind} ${e.subject.namespace ? `${e.subject.namespace}/` : ''}${e.subject.name}`)
        assert.equal(d.rules, e.steps.length, 'every upstream rule cited')
        assert.equal(d.next, (e.next ?? []).length, 'every next step shown')
        assert.equal(d.marks, timelineInstants(e.timeline), 'one mark per instant of the timeline')
        if (Array.isArray(e.nodes) && Array.isArray(e.zones)) assert.equal(d.zoneNodes, e.nodes.length, 'every node in the zone map')
        if (e.tree) assert.equal(d.boxes, treeBoxes(e.tree), 'every object of the tree in the graph')
        if (e.replicaSet?.manage?.deleteOrder) assert.equal(d.rows, e.replicaSet.manage.deleteOrder.length, 'every ranked pod')
      })
      const footnotes = await page.$$eval('ol.footnotes li', (l) => l.length)
      assert.equal(
        footnotes,
        dom.reduce((s, d) => s + d.estimated, 0),
        'each estimated instant has a footnote for print',
      )

      const backgrounds: Record<string, string> = {}
      for (const scheme of ['light', 'dark'] as const) {
        await page.emulateMediaFeatures([{name: 'prefers-color-scheme', value: scheme}])
        backgrounds[scheme] = await page.$eval('body', (b) => getComputedStyle(b).backgroundColor)
        await page.screenshot({path: `${ARTIFACTS}/${c.name}-${scheme}.png`, fullPage: true})
      }
      assert.equal(backgrounds.light, 'rgb(255, 255, 255)')
      assert.equal(backgrounds.dark, 'rgb(20, 20, 20)')
      if (c.name === 'incident' && process.env.KUBECTL_WHY_UPDATE_DOCS === '1') {
        await page.emulateMediaFeatures([{name: 'prefers-color-scheme', value: 'light'}])
        await page.setViewport({width: 1100, height: 1400})
        await page.screenshot({path: `${ROOT}docs/incident-report.png`})
      }
      await page.close()
    })
  }
})
