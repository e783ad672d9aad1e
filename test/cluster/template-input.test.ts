// hash --template reads its input whole; beyond MAX_TEMPLATE_BYTES it refuses at once in one line (exit 2), before
// the read, instead of parsing a 150 MiB List in 3.2 GiB for two minutes. Runs the built CLI (npm run build first).
import assert from 'node:assert/strict'
import {closeSync, mkdtempSync, openSync, writeFileSync, writeSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {test} from 'node:test'
import {gzipSync} from 'node:zlib'
import {MAX_TEMPLATE_BYTES} from '../../src/cluster/template-input.js'
import {runCli} from '../support/cli.js'

const dir = mkdtempSync(join(tmpdir(), 'template-input-'))

test('a file over the bound: one line naming its size and the bound, exit 2, no internal error', async () => {
  const file = join(dir, 'big.yaml')
  // A sparse file one byte over the bound: its size is what is checked, before any byte is read.
  const fd = openSync(file, 'w')
  writeSync(fd, 'x', MAX_TEMPLATE_BYTES)
  closeSync(fd)
  const r = await runCli(['hash', '--template', file])
  assert.equal(r.code, 2, r.stderr)
  assert.equal(
    r.stderr,
    `error: ${file}: 64 MiB, over the 64 MiB hash --template reads; hash the workloads of a large dump with: kubectl why hash --all -A -f FILE\n`,
  )
})

test('gzip that expands over the bound is refused as it passes it (not inflated whole)', async () => {
  const file = join(dir, 'big.yaml.gz')
  writeFileSync(file, gzipSync(Buffer.alloc(MAX_TEMPLATE_BYTES + 1, 0x20)))
  const r = await runCli(['hash', '--template', file])
  assert.equal(r.code, 2, r.stderr)
  assert.match(r.stderr, /^error: .*big\.yaml\.gz: more than the 64 MiB hash --template reads; /)
  assert.equal(r.stderr.split('\n').length, 2, 'one line')
})
