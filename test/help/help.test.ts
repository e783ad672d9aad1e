// WhyHelp renders what oclif's own Help renders (the expected text comes from oclif itself, in the same process),
// for the root and every command, at the terminal's width and at 120, 80 and 60 columns, where the texts wrap. (Narrower still, oclif
// itself fails: its wrap splits a `<%= %>` template across lines before ejs sees it.)
import assert from 'node:assert/strict'
import {test} from 'node:test'
import {Config} from '@oclif/core/config'
import {Help} from '@oclif/core/help'
import WhyHelp from '../../src/help/help.js'

async function shown(HelpClass: typeof Help, config: Config, argv: string[], maxWidth?: number): Promise<string> {
  const help = new HelpClass(config, {...config.pjson.oclif.helpOptions, ...(maxWidth ? {maxWidth} : {})})
  const out: string[] = []
  ;(help as unknown as {log: (...args: string[]) => void}).log = (...args) => out.push(args.join(' '))
  await help.showHelp(argv)
  return out.join('\n')
}

test('the root help and every command help are what oclif renders, at several widths', async () => {
  const config = await Config.load({root: process.cwd()})
  assert.ok(config.commands.length >= 8, 'the manifest lists the commands')
  for (const maxWidth of [undefined, 120, 80, 60]) {
    for (const argv of [[], ...config.commands.filter((c) => !c.hidden).map((c) => [c.id])]) {
      const expected = await shown(Help, config, argv, maxWidth)
      assert.ok(expected.length > 0)
      assert.equal(await shown(WhyHelp, config, argv, maxWidth), expected, `help for [${argv.join(' ')}] at width ${maxWidth ?? 'default'}`)
    }
  }
})

test('a template other than <%= config.bin %> still goes to ejs', async () => {
  const config = await Config.load({root: process.cwd()})
  const help = new WhyHelp(config)
  assert.equal(help.render('<%= config.bin %> node'), 'kubectl why node')
  assert.equal(help.render('<%- config.bin.toUpperCase() %>'), 'KUBECTL WHY')
  assert.equal(help.render('plain %> text'), new Help(config).render('plain %> text'))
  assert.equal(help.render("<%= '<a>' %> and <%= config.bin %>"), '&lt;a&gt; and kubectl why')
})
