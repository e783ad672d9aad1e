// cobra's __complete protocol (spf13/cobra completions.go): candidates a line, then ":<directive>"; the directive bits
// are cobra's ShellCompDirective values (Error 1, NoSpace 2, NoFileComp 4, Default 0).
import assert from 'node:assert/strict'
import {describe, it} from 'node:test'
import {complete, connectionOf, Directive, type NameLookup} from '../../src/completion/complete.js'

const commands = [
  {
    id: 'node',
    flags: [
      {name: 'namespace', char: 'n', takesValue: true},
      {name: 'snapshot', char: 'f', takesValue: true},
      {name: 'output', char: 'o', takesValue: true, options: ['table', 'json']},
      {name: 'all-namespaces', char: 'A', takesValue: false},
    ],
  },
  {
    id: 'replicas',
    flags: [
      {name: 'namespace', char: 'n', takesValue: true},
      {name: 'context', takesValue: true},
    ],
  },
  {id: 'gc', flags: [{name: 'namespace', char: 'n', takesValue: true}]},
  {id: 'audit', flags: []},
]

const asked: {kind: string; namespace?: string}[] = []
const lookup: NameLookup = {
  async names(kind, namespace) {
    asked.push({kind, namespace})
    const names: Record<string, string[]> = {
      Node: ['worker-a1', 'worker-b1', 'master-0'],
      ReplicaSet: ['cart-7c9d8f6b5', 'web-5d4'],
      Namespace: ['shop', 'kube-system'],
      Deployment: ['web'],
      ConfigMap: ['app-config', 'kube-root-ca.crt'],
    }
    return names[kind] ?? []
  },
  async contexts() {
    return ['prod-eu', 'staging']
  },
}
const failing: NameLookup = {names: () => Promise.reject(new Error('unreachable')), contexts: () => Promise.reject(new Error('no kubeconfig'))}

describe('complete', () => {
  it('completes commands, then flags, then flag values from their options', async () => {
    assert.deepEqual(await complete(['re'], commands, lookup), {candidates: ['replicas'], directive: Directive.NoFileComp})
    assert.deepEqual(await complete(['node', '--a'], commands, lookup), {candidates: ['--all-namespaces'], directive: Directive.NoFileComp})
    assert.deepEqual(await complete(['node', '-o', ''], commands, lookup), {candidates: ['json', 'table'], directive: Directive.NoFileComp})
    assert.deepEqual(await complete(['node', '--output=j'], commands, lookup), {candidates: ['--output=json'], directive: Directive.NoFileComp})
  })

  it('leaves file names to the shell for -f (directive 0)', async () => {
    assert.deepEqual(await complete(['node', '-f', 'ex'], commands, lookup), {candidates: [], directive: Directive.Default})
  })

  it('completes a bare NAME of the natural kind, in the namespace the words name', async () => {
    asked.length = 0
    assert.deepEqual((await complete(['node', 'worker-'], commands, lookup)).candidates, ['worker-a1', 'worker-b1'])
    assert.deepEqual((await complete(['replicas', '-n', 'shop', 'ca'], commands, lookup)).candidates, ['cart-7c9d8f6b5'])
    assert.deepEqual(asked.at(-1), {kind: 'ReplicaSet', namespace: 'shop'})
    assert.deepEqual((await complete(['replicas', '-n', 's'], commands, lookup)).candidates, ['shop'])
    assert.deepEqual((await complete(['replicas', '--context', ''], commands, lookup)).candidates, ['prod-eu', 'staging'])
  })

  it('offers TYPE/ without a space for commands that take any kind, then the names of that type', async () => {
    const types = await complete(['gc', 'dep'], commands, lookup)
    assert.deepEqual(types, {candidates: ['deployment/'], directive: Directive.NoFileComp | Directive.NoSpace})
    assert.deepEqual((await complete(['gc', 'deployment/w'], commands, lookup)).candidates, ['deployment/web'])
  })

  it('offers nothing more once the object is given (a NAME, TYPE/NAME, or TYPE NAME), flags and their values aside', async () => {
    const none = {candidates: [], directive: Directive.NoFileComp}
    assert.deepEqual(await complete(['node', 'worker-c1', ''], commands, lookup), none)
    assert.deepEqual(await complete(['node', '-n', 'shop', 'worker-c1', ''], commands, lookup), none)
    assert.deepEqual(await complete(['gc', 'deployment/web', ''], commands, lookup), none)
    assert.deepEqual(await complete(['gc', 'deployment', 'web', ''], commands, lookup), none)
    // Still a flag value after the object: -n's namespaces.
    assert.deepEqual((await complete(['node', 'worker-c1', '-n', 's'], commands, lookup)).candidates, ['shop'])
  })

  it("takes kubectl's short names and plurals before the slash (cm, deploy, configmaps)", async () => {
    assert.deepEqual((await complete(['gc', 'cm/'], commands, lookup)).candidates, ['cm/app-config', 'cm/kube-root-ca.crt'])
    assert.deepEqual((await complete(['gc', 'deploy/w'], commands, lookup)).candidates, ['deploy/web'])
    assert.deepEqual((await complete(['gc', 'configmaps/a'], commands, lookup)).candidates, ['configmaps/app-config'])
    assert.deepEqual((await complete(['gc', 'nosuchtype/'], commands, lookup)).candidates, [])
  })

  it("completes kubectl's TYPE NAME form: after a type word, the names of that type", async () => {
    asked.length = 0
    assert.deepEqual(await complete(['gc', 'deployment', ''], commands, lookup), {candidates: ['web'], directive: Directive.NoFileComp})
    assert.deepEqual(asked.at(-1)?.kind, 'Deployment')
    assert.deepEqual((await complete(['gc', '-n', 'shop', 'cm', 'k'], commands, lookup)).candidates, ['kube-root-ca.crt'])
    assert.deepEqual(asked.at(-1), {kind: 'ConfigMap', namespace: 'shop'})
  })

  it('prints no error when the cluster cannot be read: no candidates', async () => {
    assert.deepEqual(await complete(['node', 'w'], commands, failing), {candidates: [], directive: Directive.NoFileComp})
    assert.deepEqual(await complete(['replicas', '--context', ''], commands, failing), {candidates: [], directive: Directive.NoFileComp})
  })

  it('reads the connection flags in both spellings', () => {
    assert.deepEqual(connectionOf(['node', '-f', 'x.json', '--namespace=shop', '--context', 'c1', '-A']), {
      allNamespaces: true,
      snapshot: 'x.json',
      namespace: 'shop',
      context: 'c1',
    })
  })
})
