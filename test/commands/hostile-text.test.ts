// Text from the cluster, a dump's file names and a kubeconfig's context names never drive the terminal: every text
// output shows their controls (^[ for ESC, \r for CR, \xNN for the rest, kubectl's way) and carries, read back
// through a small terminal model, no control but newline, tab and the colour map's own SGR; -o json stays exact.
// The payload is what the report found working: an OSC title, an erase, a cursor move, C1 CSI, BS, CR and a forged
// line ("replicas — 0 findings"), then conceal. Runs the built CLI (npm run build first).
import assert from 'node:assert/strict'
import {mkdirSync, mkdtempSync, readFileSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {test} from 'node:test'
import {fileURLToPath} from 'node:url'
import {runCli} from '../support/cli.js'

const PAYLOAD = '\u001b]0;pwned\u0007\u001b[2J\u001b[1A\u009b2K\u0008\r  replicas — 0 findings\u001b[8m'
/** What the payload shows as, to its CR (the line may wrap at the spaces after it). */
const SHOWN = '^[]0;pwned\\x07^[[2J^[[1A\\x9b2K\\x08\\r'
const dir = mkdtempSync(join(tmpdir(), 'hostile-'))

// The zone-outage example, with the payload in every event message, node condition reason and message, owner
// reference name of a pod and the header's context.
const dump = JSON.parse(readFileSync(fileURLToPath(new URL('../../examples/node-zone-outage.json', import.meta.url)), 'utf8'))
dump.kubectlWhy.context = `prod${PAYLOAD}`
for (const o of dump.items) {
  if (o.kind === 'Event') o.message = `${o.message}${PAYLOAD}`
  if (o.kind === 'Node') for (const c of o.status?.conditions ?? []) Object.assign(c, {reason: `${c.reason}${PAYLOAD}`, message: `${c.message}${PAYLOAD}`})
  if (o.kind === 'Pod') for (const r of o.metadata.ownerReferences ?? []) r.name = `${r.name}${PAYLOAD}`
}
const file = join(dir, 'dump.json')
writeFileSync(file, JSON.stringify(dump))
// The recreated-Deployment example, with the payload in the owner reference names (a dangling owner is named).
const gcDump = JSON.parse(readFileSync(fileURLToPath(new URL('../../examples/gc-recreated-deployment.json', import.meta.url)), 'utf8'))
for (const o of gcDump.items) for (const r of o.metadata.ownerReferences ?? []) r.name = `${r.name}${PAYLOAD}`
const gcFile = join(dir, 'gc.json')
writeFileSync(gcFile, JSON.stringify(gcDump))

/**
 * A terminal model, as far as this needs: what would act on a screen. The colour map's SGR (ESC [ digits m) is
 * allowed when colours are on; anything else in C0 (but \n, \t), DEL or C1 is a control the terminal obeys.
 */
function obeyed(out: string, colours: boolean): string[] {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the colour escapes are what it removes
  const text = colours ? out.replace(/\u001b\[[0-9;]*m/g, '') : out
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the controls are what it finds
  return [...text.matchAll(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g)].map((m) => JSON.stringify(text.slice(Math.max(0, m.index - 20), m.index + 20)))
}

// The last field: whether this view prints one of the poisoned fields (the tree and the audit's summary do not).
const RUNS: [string, string[], boolean][] = [
  ['node (cluster, the header context)', ['node', '-f', file], true],
  ['node NAME (condition reasons, events)', ['node', 'worker-c1', '-f', file, '-o', 'wide'], true],
  ['evicted (event messages)', ['evicted', 'pod/checkout-5c6f7d8b9-ttq2w', '-n', 'shop', '-f', file], true],
  ['gc (owner names)', ['gc', 'rs/web-5d8f7b9c4', '-f', gcFile, '-o', 'wide'], true],
  ['gc tree', ['gc', 'deployment/web', '--tree', '-f', gcFile], false],
  ['audit', ['audit', '-A', '-f', file, '--limit', '1000'], false],
]

for (const [name, args, shows] of RUNS) {
  for (const colours of [false, true]) {
    test(`${name}${colours ? ', coloured' : ''}: no control reaches the terminal`, async () => {
      const r = await runCli(args, {env: colours ? {NO_COLOR: undefined, FORCE_COLOR: '1'} : {}})
      assert.ok(r.code === 0 || r.code === 1, r.stderr)
      assert.deepEqual(obeyed(r.stdout, colours), [])
      assert.deepEqual(obeyed(r.stderr, false), [])
      if (shows) assert.ok(r.stdout.includes(SHOWN), `the payload is shown: ${r.stdout}`)
      if (colours) assert.ok(r.stdout.includes('\u001b['), 'the colour map still colours')
    })
  }
}

test('-o json stays exact: the payload is in the data as it was written', async () => {
  const r = await runCli(['evicted', 'pod/checkout-5c6f7d8b9-ttq2w', '-n', 'shop', '-f', file, '-o', 'json'])
  assert.ok(r.code === 0 || r.code === 1, r.stderr)
  assert.ok(JSON.stringify(JSON.parse(r.stdout)).includes(JSON.stringify(PAYLOAD).slice(1, -1)))
  // JSON escapes C0 itself; C1 (U+009B) is not escaped by JSON and comes through raw, as in the data.
  assert.ok(r.stdout.includes('\u009b'))
  const audit = await runCli(['audit', '-A', '-f', file, '-o', 'json'])
  assert.ok(audit.stdout.includes('\u009b'), 'the audit streams its JSON exact too')
})

test('a hostile file name in a dump directory: shown in the text, the error line too', async () => {
  const d = join(dir, 'dumpdir')
  mkdirSync(d)
  writeFileSync(join(d, 'nodes.json'), JSON.stringify({apiVersion: 'v1', kind: 'List', items: [{apiVersion: 'v1', kind: 'Node', metadata: {name: 'n1'}}]}))
  writeFileSync(join(d, 'x\u001b[2J\rbad.json'), '{"items": [')
  const r = await runCli(['node', '-f', d])
  assert.deepEqual(obeyed(r.stdout, false), [])
  assert.ok(r.stdout.includes('x^[[2J\\rbad.json'), r.stdout)
  const one = await runCli(['node', '-f', join(d, 'x\u001b[2J\rbad.json')])
  assert.equal(one.code, 2)
  assert.deepEqual(obeyed(one.stderr, false), [])
  assert.match(one.stderr, /x\^\[\[2J\\rbad\.json/)
})

test('a hostile kubeconfig context name: the error line shows it', async () => {
  const kubeconfig = join(dir, 'kubeconfig')
  const ctx = `ctx${PAYLOAD}`
  writeFileSync(
    kubeconfig,
    JSON.stringify({
      apiVersion: 'v1',
      kind: 'Config',
      clusters: [{name: 'c', cluster: {server: 'https://127.0.0.1:1'}}],
      users: [{name: 'u', user: {token: 't'}}],
      contexts: [{name: ctx, context: {cluster: 'c', user: 'u'}}],
      'current-context': ctx,
    }),
  )
  const r = await runCli(['node', '--request-timeout', '2s', '--context', `${ctx}-missing`], {env: {KUBECONFIG: kubeconfig}})
  assert.equal(r.code, 2, r.stderr)
  assert.deepEqual(obeyed(r.stderr, false), [])
  assert.ok(r.stderr.includes('ctx^[]0;pwned\\x07'), r.stderr)
})
