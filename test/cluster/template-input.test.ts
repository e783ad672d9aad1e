// hash --template parses an input up to MAX_TEMPLATE_BYTES whole; a larger one (a dump's List: a 150 MiB YAML List
// took 3.2 GiB and 117 s whole, then was refused above 64 MiB) is read by the dump reader a List item at a time.
// The streamed answer must be the whole parse's: the same records, in order, named as findTemplates names them
// (FILE items[i], FILE#N items[i] with several documents), a typed List's items given its item kind. The expected
// records come from the other path (each item hashed from a small file, parsed whole), not from the streaming
// code. Runs the built CLI (npm run build first).
import assert from 'node:assert/strict'
import {mkdtempSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {test} from 'node:test'
import {gzipSync} from 'node:zlib'
import {MAX_TEMPLATE_BYTES} from '../../src/cluster/template-input.js'
import {runCli} from '../support/cli.js'

const dir = mkdtempSync(join(tmpdir(), 'template-input-'))
// An annotation of 100 KiB outside the template: the file passes the bound with few items, and hashing stays cheap.
const PAD = 'p'.repeat(100 * 1024)
const COUNT = Math.ceil(MAX_TEMPLATE_BYTES / PAD.length) + 2

/** A Deployment without kind (a DeploymentList item), its template distinct per i. */
const deployment = (i: number, pad: string) => ({
  apiVersion: 'apps/v1',
  metadata: {name: `web-${i}`, namespace: 'shop', annotations: {pad}},
  spec: {
    selector: {matchLabels: {app: `web-${i}`}},
    template: {metadata: {labels: {app: `web-${i}`}}, spec: {containers: [{name: 'web', image: `nginx:1.27.${i}`}]}},
  },
})

const yamlList = (items: object[]) =>
  `apiVersion: apps/v1\nkind: DeploymentList\nitems:\n${items.map((o) => `- ${JSON.stringify(o).replaceAll('\n', ' ')}`).join('\n')}\n`

interface Record_ {
  source: string
  kind: string
  name?: string
  hash?: string
}

async function hashFile(file: string, stdin?: Buffer): Promise<Record_[]> {
  const r = await runCli(['hash', '--template', stdin ? '-' : file, '--k8s-version', '1.32', '-o', 'json'], stdin ? {stdin} : {})
  assert.ok(r.code === 0 || r.code === 1, r.stderr)
  return JSON.parse(r.stdout) as Record_[]
}

/** What the whole-parse path gives for the same items, without the padding (outside the template, so no hash changes). */
async function expected(count: number, name: (i: number) => string): Promise<Record_[]> {
  const small = join(dir, `small-${count}.yaml`)
  writeFileSync(small, yamlList(Array.from({length: count}, (_, i) => deployment(i, 'x'))))
  const records = await hashFile(small)
  return records.map((r, i) => ({...r, source: name(i)}))
}

test('a YAML List over the bound is streamed: the records of the whole parse, named alike, kind from the List', async () => {
  const file = join(dir, 'big.yaml')
  writeFileSync(file, yamlList(Array.from({length: COUNT}, (_, i) => deployment(i, PAD))))
  const got = await hashFile(file)
  assert.equal(got.length, COUNT)
  assert.deepEqual(got, await expected(COUNT, (i) => `${file} items[${i}]`))
  assert.ok(got.every((r) => r.kind === 'Deployment' && /^[a-z0-9]{6,10}$/.test(r.hash ?? '')))
})

test('JSON over the bound, gzip expanding over it, and stdin over it: streamed alike', async () => {
  const items = Array.from({length: COUNT}, (_, i) => deployment(i, PAD))
  const json = join(dir, 'big.json')
  writeFileSync(json, JSON.stringify({apiVersion: 'apps/v1', kind: 'DeploymentList', items}))
  assert.deepEqual(await hashFile(json), await expected(COUNT, (i) => `${json} items[${i}]`))
  const gz = join(dir, 'big.yaml.gz')
  writeFileSync(gz, gzipSync(yamlList(items)))
  assert.deepEqual(await hashFile(gz), await expected(COUNT, (i) => `${gz} items[${i}]`))
  assert.deepEqual(await hashFile('-', Buffer.from(yamlList(items))), await expected(COUNT, (i) => `stdin items[${i}]`))
})

test('two documents over the bound: FILE#1 items[i] and FILE#2 items[i], as findTemplates names several', async () => {
  const file = join(dir, 'two.yaml')
  const half = Math.ceil(COUNT / 2)
  const docs = [0, 1].map((d) => yamlList(Array.from({length: half}, (_, i) => deployment(d * half + i, PAD))))
  writeFileSync(file, docs.join('---\n'))
  const got = await hashFile(file)
  const whole = await expected(2 * half, (i) => (i < half ? `${file}#1 items[${i}]` : `${file}#2 items[${i - half}]`))
  assert.deepEqual(got, whole)
})

test('a List over the 64 MiB once refused (exit 2) is answered, item by item', async () => {
  const count = Math.ceil((65 * 1024 * 1024) / PAD.length)
  const file = join(dir, 'over-64.yaml')
  writeFileSync(file, yamlList(Array.from({length: count}, (_, i) => deployment(i, PAD))))
  const got = await hashFile(file)
  assert.equal(got.length, count)
  assert.deepEqual(got, await expected(count, (i) => `${file} items[${i}]`))
})
