// The shims bundled in place of packages (scripts/shims/, scripts/build.mjs) answer as the packages do.
import assert from 'node:assert/strict'
import {spawnSync} from 'node:child_process'
import {createRequire} from 'node:module'
import {test} from 'node:test'
import fc from 'fast-check'

const require = createRequire(import.meta.url)
const shim = require('../../scripts/shims/string-width.cjs') as (s: unknown) => number
const stringWidth = require('string-width') as (s: unknown) => number
const emojiRegex = require('emoji-regex') as () => RegExp

test('string-width shim: no printable ASCII character is part of an emoji match, so width is length there', () => {
  for (let c = 0x20; c <= 0x7e; c++) assert.equal(emojiRegex().test(String.fromCharCode(c).repeat(3)), false, `U+${c.toString(16)}`)
})

test('string-width shim: the width string-width gives, on ASCII, ANSI-coloured, wide, emoji and control text', () => {
  for (const s of ['', 'kubectl why', '\u001b[1mbold\u001b[22m', '日本語', '👍🏽 ok', '#️⃣', 'tab\there', 'a\u0300', undefined, 42]) {
    assert.equal(shim(s), stringWidth(s), JSON.stringify(s))
  }
  fc.assert(
    fc.property(
      fc.string({unit: fc.constantFrom('a', ' ', '~', '\u001b[31m', '\u001b[0m', '\t', 'é', '漢', '👍', '\u200b')}),
      (s) => shim(s) === stringWidth(s),
    ),
    {seed: 14, numRuns: 2000},
  )
})

test('wsl-utils shim: isWsl and PowerShell’s path are the package’s, and loading it loads no child_process', async () => {
  const real = await import('wsl-utils')
  const shimmed = await import('../../scripts/shims/wsl-utils.mjs')
  assert.equal(shimmed.isWsl, real.isWsl)
  assert.equal(await shimmed.powerShellPath(), await real.powerShellPath())
  // What the shim is for: in a fresh process, importing it leaves child_process unloaded (wsl-utils loads it).
  const loads = (module: string) =>
    spawnSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `await import(${JSON.stringify(module)}); console.log(process.moduleLoadList.some((m) => m === 'NativeModule child_process'))`,
      ],
      {
        encoding: 'utf8',
      },
    ).stdout.trim()
  assert.equal(loads(new URL('../../scripts/shims/wsl-utils.mjs', import.meta.url).href), 'false')
  assert.equal(loads(require.resolve('wsl-utils').replace(/^/, 'file://')), 'true')
})
