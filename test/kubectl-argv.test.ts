// pflag reads a boolean flag's explicit value with strconv.ParseBool (spf13/pflag bool.go; flag.go parseLongArg and
// parseSingleShortArg split on "="), so kubectl accepts --all-namespaces=true, --all-namespaces=false and -A=false.
import assert from 'node:assert/strict'
import {describe, it} from 'node:test'
import {kubectlBooleans} from '../src/kubectl-argv.js'

const flags = [{name: 'all-namespaces', char: 'A'}, {name: 'no-color'}, {name: 'tree', allowNo: true}]

describe('kubectlBooleans', () => {
  it('reads =true and =false on long and short boolean flags, in ParseBool spellings', () => {
    assert.deepEqual(kubectlBooleans(['node', '--all-namespaces=true'], flags), ['node', '--all-namespaces'])
    assert.deepEqual(kubectlBooleans(['--all-namespaces=false', 'web'], flags), ['web'])
    assert.deepEqual(kubectlBooleans(['-A=1', '-A=F'], flags), ['--all-namespaces'])
    assert.deepEqual(kubectlBooleans(['--no-color=false'], flags), [])
    assert.deepEqual(kubectlBooleans(['--no-color=True'], flags), ['--no-color'])
  })

  it('turns =false into --no-X where the flag has one', () => {
    assert.deepEqual(kubectlBooleans(['--tree=false'], flags), ['--no-tree'])
  })

  it('leaves other flags, values that are not booleans and everything after -- alone', () => {
    assert.deepEqual(kubectlBooleans(['--output=json', '--all-namespaces=yes', '--', '--tree=true'], flags), [
      '--output=json',
      '--all-namespaces=yes',
      '--',
      '--tree=true',
    ])
    assert.deepEqual(kubectlBooleans(['-n=shop', 'pod/web'], flags), ['-n=shop', 'pod/web'])
  })
})
