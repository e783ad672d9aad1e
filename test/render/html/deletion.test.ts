// The HTML picture of what holds a deletion (issue 26 point 7): a Terminating namespace's remaining content, each
// APIService whose discovery fails, each object held by a finalizer with its holder, and each actor's next step
// beside it — drawn from the command's own JSON, so the picture can only show what the answer says. Run on the two
// examples and a hand fixture (test/fixtures/html/namespace-apiservice.json); every expected value below is read off
// the fixture by hand, as the comments work it.
import assert from 'node:assert/strict'
import {mkdtempSync, readFileSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {describe, it} from 'node:test'
import type {Explanation} from '../../../src/explanation.js'
import {heldView, namespaceView} from '../../../src/render/html/deletion.js'
import {runCli} from '../../support/cli.js'

const TERMINATING = 'examples/gc-namespace-terminating.json'
const STUCK = 'examples/gc-stuck-namespace.json'
const HAND = 'test/fixtures/html/namespace-apiservice.json'

async function json(args: string[]): Promise<Record<string, unknown>> {
  const r = await runCli([...args, '-o', 'json'])
  assert.ok(r.code === 0 || r.code === 1, r.stderr)
  return JSON.parse(r.stdout)
}

async function html(args: string[]): Promise<string> {
  const r = await runCli([...args, '-o', 'html'])
  assert.ok(r.code === 0 || r.code === 1, r.stderr)
  return r.stdout
}

/** gc --all's answers: the collector's findings and the pending deletions, as the HTML page takes them together. */
function answers(report: Record<string, unknown>): Explanation[] {
  return [...((report.findings as Explanation[]) ?? []), ...((report.deletions as {findings?: Explanation[]} | undefined)?.findings ?? [])]
}

function find(list: Explanation[], kind: string, name: string): Explanation {
  const e = list.find((x) => x.subject.kind === kind && x.subject.name === name)
  assert.ok(e, `${kind} ${name} answered`)
  return e
}

/** The figures of a page, each as the text a screen reader reads (tags dropped, entities decoded), in document order. */
function figures(page: string): {markup: string; text: string}[] {
  return [...page.matchAll(/<figure class="deletion-map"[\s\S]*?<\/figure>/g)].map((m) => ({
    markup: m[0],
    text: m[0]
      .replace(/<[^>]+>/g, ' ')
      .replace(/&quot;/g, '"')
      .replace(/&#39;/g, "'")
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&amp;/g, '&')
      .replace(/\s+/g, ' '),
  }))
}

/** Each needle found after the one before it. */
function inOrder(text: string, needles: string[]): void {
  let at = -1
  for (const n of needles) {
    const i = text.indexOf(n, at + 1)
    assert.ok(i > at, `"${n}" after the previous needle (found at ${i}, previous at ${at})`)
    at = i
  }
}

describe('HTML: a Terminating namespace drawn with what remains', () => {
  it('gc-namespace-terminating: one type, one finalizer, one APIService, one held object — as the dump holds them', async () => {
    // By hand from the dump: Namespace demo (deleted 01:00:00, spec.finalizers [kubernetes]); its
    // NamespaceDeletionDiscoveryFailure names metrics.k8s.io/v1beta1, whose APIService is <version>.<group> =
    // v1beta1.metrics.k8s.io, in the dump with Available=False MissingEndpoints; NamespaceContentRemaining says
    // "configmaps. has 1 resource instances" and the dump holds one ConfigMap in demo (settings); NamespaceFinalizersRemaining
    // says "example.com/hold in 1 resource instances", and settings carries example.com/hold. Its managedFields give
    // hold-operator (Update, 2026-11-21T09:00:03Z) as the writer; Deployment ops/hold-operator has no ready replica,
    // so the holder is in the data and does not run: stuck, and its next step is to look at that Deployment.
    const report = await json(['gc', '--all', '-A', '-f', TERMINATING])
    const all = answers(report)
    const v = namespaceView(find(all, 'Namespace', 'demo'), all)
    assert.ok(v)
    assert.equal(v.deletionTimestamp, '2026-11-29T01:00:00Z')
    assert.deepEqual(v.specFinalizers, ['kubernetes'])
    assert.equal(v.controller.state, 'stuck')
    assert.deepEqual(
      v.resources.map((r) => [r.type, r.condition, r.data]),
      [['configmaps.', 1, 1]],
    )
    assert.deepEqual(
      v.finalizers.map((f) => [f.finalizer, f.condition, f.data]),
      [['example.com/hold', 1, 1]],
    )
    assert.deepEqual(
      v.discovery.map((d) => [d.name, d.groupVersion, d.inData]),
      [['v1beta1.metrics.k8s.io', 'metrics.k8s.io/v1beta1', true]],
    )
    assert.match(v.discovery[0].available, /^Available=False MissingEndpoints: endpointslices for service\/metrics-server in "kube-system"/)
    assert.deepEqual(
      v.discovery[0].next.map((n) => n.command),
      ['kubectl get apiservice v1beta1.metrics.k8s.io -o yaml'],
    )
    assert.deepEqual(
      v.held.map((o) => [o.subject.kind, o.subject.namespace, o.subject.name, o.finalizers]),
      [['ConfigMap', 'demo', 'settings', ['example.com/hold']]],
    )
    const hd = v.held[0].holders
    assert.deepEqual(
      hd.map((x) => [x.finalizer, x.actor, x.state]),
      [['example.com/hold', 'hold-operator', 'stuck']],
    )
    assert.equal(hd[0].manager, 'set by hold-operator (Update at 2026-11-21T09:00:03Z)')
    assert.equal(hd[0].next[0].command, 'kubectl get deployment hold-operator -n ops')
    // Every next step of the namespace controller is drawn beside what it is about: none left over.
    assert.deepEqual(v.next, [])

    const page = await html(['gc', '--all', '-A', '-f', TERMINATING])
    const [ns] = figures(page)
    assert.ok(ns, 'the namespace has a picture')
    assert.match(ns.markup, /<figcaption>/, 'a text alternative')
    assert.match(ns.markup, /<tr data-type="configmaps\." data-condition="1" data-data="1">/)
    assert.match(ns.markup, /data-apiservice="v1beta1\.metrics\.k8s\.io"/)
    assert.match(ns.markup, /data-finalizer="example\.com\/hold" data-holder="hold-operator" data-state="stuck"/)
    // The state is a word (and a shape), not a colour only.
    assert.match(ns.text, /stuck \(not running: in the data with no ready replica\)/)
    // Text order: the namespace, what blocks it (the APIService, then its command), what remains, the held object,
    // its finalizer and holder, then the holder's command.
    inOrder(ns.text, [
      'Namespace demo',
      'APIService v1beta1.metrics.k8s.io',
      'Available=False MissingEndpoints',
      'kubectl get apiservice v1beta1.metrics.k8s.io -o yaml',
      'configmaps.',
      'example.com/hold',
      'ConfigMap demo/settings',
      'kubectl why gc configmaps/settings -n demo -f examples/gc-namespace-terminating.json',
      'held by hold-operator',
      'kubectl get deployment hold-operator -n ops',
    ])
    assert.doesNotMatch(page, /<script/i, 'works without script')
    // gc --all -o html draws its deletions section (it said "No findings" over the two stuck deletions before).
    assert.match(page, /data-section="deletions"/)
    assert.doesNotMatch(page, /No findings\./)
  })

  it('gc-stuck-namespace: no conditions, so the data counts alone; the collector holds one object, an unnamed writer the other', async () => {
    // By hand from the dump: Namespace team-a (deleted 01:00:00, spec.finalizers [kubernetes]) has no conditions, so
    // no count comes from the namespace; it holds Deployment api (deployments.apps, finalizer foregroundDeletion) and
    // ReplicaSet api-6f7d8c9b5 (replicasets.apps, finalizer example.com/audit-hold): one of each type, one of each
    // finalizer. No APIService is in the dump, so no discovery failure can be drawn and none can be ruled out.
    // api is the collector's: waitForBlockingDependents (its ReplicaSet, blockOwnerDeletion, is being deleted);
    // api-6f7d8c9b5's finalizer has no managedFields entry: no writer named, state unknown.
    const report = await json(['gc', '--all', '-A', '-f', STUCK])
    const all = answers(report)
    const v = namespaceView(find(all, 'Namespace', 'team-a'), all)
    assert.ok(v)
    assert.deepEqual(
      v.resources.map((r) => [r.type, r.condition, r.data]),
      [
        ['deployments.apps', undefined, 1],
        ['replicasets.apps', undefined, 1],
      ],
    )
    assert.deepEqual(
      v.finalizers.map((f) => [f.finalizer, f.condition, f.data]),
      [
        ['foregroundDeletion', undefined, 1],
        ['example.com/audit-hold', undefined, 1],
      ],
    )
    assert.deepEqual(v.discovery, [])
    assert.match(v.discoveryNote ?? '', /the data holds no APIService, so an unavailable one cannot be ruled out/)
    assert.deepEqual(
      v.held.map((o) => [o.subject.kind, o.subject.name, o.holders.map((x) => [x.finalizer, x.actor, x.state ?? x.verdict])]),
      [
        ['Deployment', 'api', [['foregroundDeletion', 'garbagecollector', 'waitForBlockingDependents']]],
        ['ReplicaSet', 'api-6f7d8c9b5', [['example.com/audit-hold', 'unknown', 'unknown']]],
      ],
    )
    const page = await html(['gc', '--all', '-A', '-f', STUCK])
    const ns = figures(page).find((f) => f.markup.includes('data-namespace="team-a"'))
    assert.ok(ns)
    assert.match(ns.markup, /<tr data-type="deployments\.apps" data-data="1">/, 'no condition count where the namespace has none')
    assert.match(ns.text, /Discovery: no failure shown/)
    assert.match(ns.text, /held by a holder the data does not name/)
    inOrder(ns.text, ['Namespace team-a', 'Discovery: no failure shown', 'deployments.apps', 'Deployment team-a/api', 'ReplicaSet team-a/api-6f7d8c9b5'])
  })

  it('hand fixture: an unavailable APIService, and the namespace counting more than the dump holds — both shown', async () => {
    // By hand from the fixture: Namespace shop (deleted 02:00:00); NamespaceDeletionDiscoveryFailure names
    // custom.metrics.k8s.io/v1beta2 → APIService v1beta2.custom.metrics.k8s.io, Available=False FailedDiscoveryCheck.
    // NamespaceContentRemaining counts configmaps. 2 and secrets. 1; the dump holds 1 ConfigMap in shop and lists no
    // Secrets (the tool never reads them), so configmaps. is 2 against 1 and secrets. 1 against "not in the data".
    // NamespaceFinalizersRemaining counts shop.example.com/cleanup in 3; the dump's one ConfigMap carries it: 3 against 1.
    // cart-config's finalizer was set by shop-operator (managedFields), and Deployment ops/shop-operator has 1 ready
    // replica: the holder runs and waits.
    const report = await json(['gc', '--all', '-A', '-f', HAND])
    const all = answers(report)
    const v = namespaceView(find(all, 'Namespace', 'shop'), all)
    assert.ok(v)
    assert.deepEqual(
      v.resources.map((r) => [r.type, r.condition, r.data]),
      [
        ['configmaps.', 2, 1],
        ['secrets.', 1, undefined],
      ],
    )
    assert.match(v.resources[0].note ?? '', /the condition counts 2, the data holds 1/)
    assert.match(v.resources[1].note ?? '', /the data holds no Secret/)
    assert.deepEqual(
      v.finalizers.map((f) => [f.finalizer, f.condition, f.data]),
      [['shop.example.com/cleanup', 3, 1]],
    )
    assert.deepEqual(
      v.discovery.map((d) => [d.name, d.groupVersion, d.available.split(':')[0]]),
      [['v1beta2.custom.metrics.k8s.io', 'custom.metrics.k8s.io/v1beta2', 'Available=False FailedDiscoveryCheck']],
    )
    assert.deepEqual(
      v.held.map((o) => [o.subject.name, o.holders.map((x) => [x.finalizer, x.actor, x.state, x.manager])]),
      [['cart-config', [['shop.example.com/cleanup', 'shop-operator', 'waits', 'set by shop-operator (Update at 2026-11-20T09:00:02Z)']]]],
    )
    const [ns] = figures(await html(['gc', '--all', '-A', '-f', HAND]))
    assert.match(ns.markup, /<tr data-type="configmaps\." data-condition="2" data-data="1" class="disagree">/)
    assert.match(ns.markup, /<tr data-type="secrets\." data-condition="1" class="disagree">/)
    assert.match(ns.text, /secrets\. 1 not in the data/)
    assert.match(ns.text, /APIService v1beta2\.custom\.metrics\.k8s\.io · serves custom\.metrics\.k8s\.io\/v1beta2/)
    assert.match(ns.text, /next: kubectl get apiservice v1beta2\.custom\.metrics\.k8s\.io -o yaml/)
  })

  it('the audit draws the same picture for its deleting check', async () => {
    const page = await html(['audit', '-A', '-f', HAND])
    const ns = figures(page).find((f) => f.markup.includes('data-namespace="shop"'))
    assert.ok(ns)
    assert.match(ns.markup, /<tr data-type="configmaps\." data-condition="2" data-data="1" class="disagree">/)
    // The audit keeps, of an object past its deletionTimestamp, the managedFields that wrote its finalizers: the same
    // writer and state as gc --all's picture above (shop-operator, whose Deployment has 1 ready replica: waits).
    assert.match(ns.markup, /data-finalizer="shop\.example\.com\/cleanup" data-holder="shop-operator" data-state="waits"/)
  })

  it('escapes a hostile name: no markup from the data, its controls shown', async () => {
    // The hand fixture with the ConfigMap renamed to carry markup and an OSC title sequence, and a finalizer carrying markup.
    const d = JSON.parse(readFileSync(HAND, 'utf8'))
    const cm = d.items.find((i: {kind: string}) => i.kind === 'ConfigMap')
    cm.metadata.name = 'cart<img src=x onerror=alert(1)>\u001b]0;pwned\u0007'
    cm.metadata.finalizers = ['shop.example.com/<b>x</b>']
    cm.metadata.managedFields[0].fieldsV1 = {'f:metadata': {'f:finalizers': {'.': {}, 'v:"shop.example.com/<b>x</b>"': {}}}}
    const file = join(mkdtempSync(join(tmpdir(), 'nshtml-')), 'hostile.json')
    writeFileSync(file, JSON.stringify(d))
    const page = await html(['gc', '--all', '-A', '-f', file])
    const pictures = figures(page)
    assert.equal(pictures.length, 2, 'the namespace and the held ConfigMap')
    for (const p of pictures) {
      assert.doesNotMatch(p.markup, /<img|<b>/)
      // biome-ignore lint/suspicious/noControlCharactersInRegex: the controls are what it looks for
      assert.doesNotMatch(p.markup, /[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/, 'no control character reaches the page')
      assert.match(p.text, /cart<img src=x onerror=alert\(1\)>\^\[\]0;pwned\\x07/, 'the name shown whole, its controls as text')
      assert.match(p.markup, /shop\.example\.com\/&lt;b&gt;x&lt;\/b&gt;/)
    }
  })
})

describe('HTML: an object held by finalizers drawn with its holders', () => {
  it('gc configmap/settings: the object, its finalizer, its holder with the managedFields writer and next step', async () => {
    // By hand: ConfigMap demo/settings (deleted 01:00:05) carries example.com/hold, set by hold-operator; gc KIND/NAME's
    // actors name that holder with its evidence and next steps, but carry no holder state (that is the pending
    // deletions' field), so the picture says the state is not stated rather than guess one.
    const e = (await json(['gc', 'configmap/settings', '-n', 'demo', '-f', TERMINATING])) as unknown as Explanation
    const v = heldView(e)
    assert.ok(v)
    assert.deepEqual([v.subject.kind, v.subject.namespace, v.subject.name, v.deletionTimestamp], ['ConfigMap', 'demo', 'settings', '2026-11-29T01:00:05Z'])
    assert.deepEqual(
      v.holders.map((x) => [x.finalizer, x.actor, x.state, x.manager]),
      [['example.com/hold', 'hold-operator', undefined, 'set by hold-operator (Update at 2026-11-21T09:00:03Z)']],
    )
    const [p] = figures(await html(['gc', 'configmap/settings', '-n', 'demo', '-f', TERMINATING]))
    assert.ok(p)
    assert.match(p.markup, /data-state="not-stated"/)
    inOrder(p.text, [
      'ConfigMap demo/settings',
      'example.com/hold',
      'held by hold-operator',
      'set by hold-operator',
      'kubectl get deployment hold-operator -n ops',
    ])
  })

  it('gc namespace/demo: the namespace picture from the one answer, the held object named with its own command', async () => {
    // gc namespace/NAME answers the namespace alone: the ConfigMap's holder is not on the page, so the picture names
    // the object and its finalizer with the command that answers it, and no state.
    const e = (await json(['gc', 'namespace/demo', '-f', TERMINATING])) as unknown as Explanation
    const v = namespaceView(e)
    assert.ok(v)
    assert.deepEqual(v.specFinalizers, ['kubernetes'])
    assert.equal(v.controller.action, 'blocksDeletion')
    assert.deepEqual(
      v.held.map((o) => [o.subject.kind, o.subject.name, o.finalizers, o.answered, o.next.map((n) => n.command)]),
      [['ConfigMap', 'settings', ['example.com/hold'], false, ['kubectl why gc configmaps/settings -n demo']]],
    )
    assert.deepEqual(
      v.resources.map((r) => [r.type, r.condition, r.data]),
      [['configmaps.', 1, 1]],
    )
  })
})
