// Completion of the kubectl habits: `help <TAB>` offers the commands (cobra's help command completes them too), and
// -o's template forms take their template after the '=' with no space (cobra's NoSpace, 2). Worked by hand from the
// lists below.
import assert from 'node:assert/strict'
import {test} from 'node:test'
import {complete, Directive, type NameLookup} from '../../src/completion/complete.js'
import {runCli} from '../support/cli.js'

const OUTPUT = ['table', 'wide', 'json', 'yaml', 'html', 'name', 'jsonpath=', 'jsonpath-file=', 'jsonpath-as-json=']
const commands = [
  {id: 'gc', flags: [{name: 'output', char: 'o', takesValue: true, options: OUTPUT}]},
  {id: 'help', flags: []},
  {id: 'hash', flags: []},
]
const lookup: NameLookup = {names: async () => [], contexts: async () => []}

test('help <TAB>: the commands; after one, nothing', async () => {
  assert.deepEqual(await complete(['help', ''], commands, lookup), {candidates: ['gc', 'hash', 'help'], directive: Directive.NoFileComp})
  assert.deepEqual(await complete(['help', 'h'], commands, lookup), {candidates: ['hash', 'help'], directive: Directive.NoFileComp})
  assert.deepEqual(await complete(['help', 'gc', ''], commands, lookup), {candidates: [], directive: Directive.NoFileComp})
})

test('-o jsonp<TAB>: the template forms, no space after the =; -o j<TAB> also offers json, so a space', async () => {
  assert.deepEqual(await complete(['gc', '-o', 'jsonp'], commands, lookup), {
    candidates: ['jsonpath-as-json=', 'jsonpath-file=', 'jsonpath='],
    directive: Directive.NoFileComp | Directive.NoSpace,
  })
  assert.deepEqual(await complete(['gc', '-o', 'j'], commands, lookup), {
    candidates: ['json', 'jsonpath-as-json=', 'jsonpath-file=', 'jsonpath='],
    directive: Directive.NoFileComp,
  })
  assert.deepEqual(await complete(['gc', '--output=n'], commands, lookup), {candidates: ['--output=name'], directive: Directive.NoFileComp})
})

test('the built CLI answers __complete help <TAB> with every command (needs npm run build)', async () => {
  const r = await runCli(['__complete', 'help', ''])
  assert.equal(r.code, 0, r.stderr)
  assert.equal(r.stdout, 'audit\ncompletion\nevicted\ngc\nhash\nhelp\nnode\nreplicas\nsnapshot\nversion\n:4\n')
})
