// `kubectl why hash --template` end to end (needs `npm run build`). Expected hashes come from the
// committed upstream fixture; the StatefulSet from upstream's 1.33 compatibility testdata.
import assert from 'node:assert/strict'
import {mkdtempSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {fileURLToPath} from 'node:url'
import {describe, it} from 'node:test'
import {runCli} from '../support/cli.js'
import {stringifyJson} from '../../src/util/json.js'
import {expectedHash, inputFor, loadFixture, sharedPresent, sharedVectors, SKIP_SHARED} from './fixture.js'

const f = loadFixture()
const nginx = f.templates.find((t) => t.id === 'p-docs-nginx-defaulted')!
const template136 = inputFor(nginx, '1.36') as {metadata: {labels: Record<string, string>}}
const hash136 = expectedHash(nginx, '1.36', 'nil')
const dir = mkdtempSync(join(tmpdir(), 'kubectl-why-hash-'))
const STS = fileURLToPath(new URL('../fixtures/hash/statefulset-1.33.yaml', import.meta.url))

function file(name: string, value: unknown): string {
  const path = join(dir, name)
  writeFileSync(path, typeof value === 'string' ? value : stringifyJson(value, 2))
  return path
}

const withLabel = (label: string) => ({
  ...template136,
  metadata: {...template136.metadata, labels: {...template136.metadata.labels, 'pod-template-hash': label}},
})
const deployment = (status?: object) => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: {name: 'web'},
  spec: {template: template136},
  ...(status ? {status} : {}),
})
const replicaSet = (label: string) => ({
  apiVersion: 'apps/v1',
  kind: 'ReplicaSet',
  metadata: {name: `web-${label}`, labels: {'pod-template-hash': label}},
  spec: {template: withLabel(label)},
})

async function json(args: string[], stdin?: string): Promise<{code: number; records: Record<string, unknown>[]; stderr: string}> {
  const r = await runCli(['hash', ...args, '-o', 'json'], {stdin})
  return {code: r.code, records: r.stdout === '' ? [] : (JSON.parse(r.stdout) as Record<string, unknown>[]), stderr: r.stderr}
}

describe('kubectl why hash --template', () => {
  it('Deployment: the hash with status.collisionCount and the ReplicaSet name', async () => {
    const r = await json(['--template', file('d.json', deployment()), '--k8s-version', '1.36'])
    assert.equal(r.code, 0)
    assert.deepEqual(r.records, [
      {source: join(dir, 'd.json'), kind: 'Deployment', name: 'web', version: '1.36', hash: hash136, replicaSetName: `web-${hash136}`},
    ])
    const withCount = await json(['--template', file('d2.json', deployment({collisionCount: 2})), '--k8s-version', '1.36'])
    assert.equal(withCount.records[0].collisionCount, 2)
    assert.equal(withCount.records[0].hash, expectedHash(nginx, '1.36', '2'))
    const flag = await json(['--template', file('d2.json', deployment({collisionCount: 2})), '--k8s-version', '1.36', '--collision-count', '7'])
    assert.equal(flag.records[0].hash, expectedHash(nginx, '1.36', '7'))
  })

  it('ReplicaSet: hashes the template without its own label and checks the label', async () => {
    const r = await json(['--template', file('rs.yaml', replicaSet(hash136)), '--k8s-version', '1.36'])
    assert.equal(r.code, 0)
    assert.deepEqual(r.records[0], {
      source: join(dir, 'rs.yaml'),
      kind: 'ReplicaSet',
      name: `web-${hash136}`,
      version: '1.36',
      hash: hash136,
      label: hash136,
      matches: true,
    })
  })

  it('ReplicaSet: a label from another version names the layouts that reproduce it', async () => {
    const r = await json(['--template', file('rs.yaml', replicaSet(hash136)), '--k8s-version', '1.29'])
    assert.equal(r.code, 0)
    assert.equal(r.records[0].hash, expectedHash(nginx, '1.29', 'nil'))
    assert.equal(r.records[0].matches, false)
    const same = f.versions.filter((v) => expectedHash(nginx, v, 'nil') === hash136)
    assert.deepEqual(r.records[0].reproducedBy, [{versions: same}])
  })

  it('ReplicaSet: a label nothing reproduces is a warning (exit 1)', async () => {
    const r = await json(['--template', file('rs-bad.yaml', replicaSet('4'))])
    assert.equal(r.code, 1)
    assert.deepEqual(r.records[0].reproducedBy, [])
    assert.match(String((r.records[0].warnings as string[])[0]), /no known layout/)
  })

  it('DaemonSet: ComputeHash names the ControllerRevision <name>-<hash>', async () => {
    const ds = {apiVersion: 'apps/v1', kind: 'DaemonSet', metadata: {name: 'agent'}, spec: {template: template136}, status: {collisionCount: 1}}
    const r = await json(['--template', file('ds.json', ds), '--k8s-version', '1.36'])
    const h = expectedHash(nginx, '1.36', '1')
    assert.deepEqual(r.records[0], {
      source: join(dir, 'ds.json'),
      kind: 'DaemonSet',
      name: 'agent',
      version: '1.36',
      collisionCount: 1,
      hash: h,
      revisionName: `agent-${h}`,
    })
  })

  it('StatefulSet: HashControllerRevision of the 1.33 and 1.34 patch, probe 0', async () => {
    const r33 = await json(['--template', STS, '--k8s-version', '1.33'])
    assert.deepEqual(r33.records[0], {
      source: STS,
      kind: 'StatefulSet',
      name: 'test',
      version: '1.33',
      collisionCount: 0,
      hash: 'c77f6d978',
      revisionName: 'test-c77f6d978',
    })
    const r34 = await json(['--template', STS, '--k8s-version', '1.34'])
    assert.equal(r34.records[0].revisionName, 'test-776999688b')
  })

  it('reads PodTemplates, bare PodTemplateSpecs, Lists and several documents, in input order', async () => {
    const list = {apiVersion: 'v1', kind: 'List', items: [{apiVersion: 'v1', kind: 'PodTemplate', metadata: {name: 'pt'}, template: template136}, deployment()]}
    const yaml = `${stringifyJson(template136)}\n---\n${stringifyJson(list)}\n`
    const r = await json(['--template', file('multi.yaml', yaml), '--k8s-version', '1.36'])
    assert.deepEqual(
      r.records.map((x) => [x.source, x.kind, x.hash]),
      [
        [`${join(dir, 'multi.yaml')}#1`, 'PodTemplateSpec', hash136],
        [`${join(dir, 'multi.yaml')}#2 items[0]`, 'PodTemplate', hash136],
        [`${join(dir, 'multi.yaml')}#2 items[1]`, 'Deployment', hash136],
      ],
    )
    const typedList = {apiVersion: 'apps/v1', kind: 'DeploymentList', items: [{metadata: {name: 'a'}, spec: {template: template136}}]}
    const typed = await json(['--template', '-', '--k8s-version', '1.36'], stringifyJson(typedList))
    assert.deepEqual(
      typed.records.map((x) => [x.source, x.kind, x.replicaSetName]),
      [['stdin items[0]', 'Deployment', `a-${hash136}`]],
    )
  })

  it('prints a table by default', async () => {
    const r = await runCli(['hash', '--template', file('rs2.yaml', replicaSet(hash136)), '--k8s-version', '1.29'])
    assert.equal(r.code, 0)
    assert.match(r.stdout, /SOURCE.*KIND.*NAME.*VERSION.*HASH/)
    // Prose under the table is wrapped at word boundaries to 80 columns through a pipe (issue 16 item 5): the sentence
    // is matched with its line breaks and their indent read as the spaces they replaced.
    assert.match(r.stdout.replace(/\n +/g, ' '), new RegExp(`label ${hash136} is not the 1\\.29 hash; reproduced by 1\\.36–1\\.37 without a collisionCount`))
    // the table (header and one row) is never wrapped through a pipe, as kubectl's; the prose after it is
    assert.ok(
      r.stdout
        .trimEnd()
        .split('\n')
        .slice(2)
        .every((l) => l.length <= 80),
      'prose within 80 columns',
    )
  })

  it('--show-serialization prints the exact text hashed', async (t) => {
    const r = await json(['--template', file('pts.json', template136), '--k8s-version', '1.36', '--show-serialization'])
    const text = String(r.records[0].serialization)
    assert.ok(text.startsWith('(v1.PodTemplateSpec){ObjectMeta:(v1.ObjectMeta){Name:(string) '))
    if (!sharedPresent) {
      t.skip(SKIP_SHARED)
      return
    }
    assert.equal(text, sharedVectors('1.36').find((v) => v.id === 'p-docs-nginx-defaulted')!.spew)
  })

  it('a non-null timestamp: no hash, the reason, exit 1', async () => {
    const stamped = {...template136, metadata: {...template136.metadata, creationTimestamp: '2026-01-02T03:04:05Z'}}
    const r = await json(['--template', file('ts.json', stamped)])
    assert.equal(r.code, 1)
    assert.equal(r.records[0].hash, undefined)
    assert.match(String(r.records[0].error), /metadata\.creationTimestamp: is set .*time zone/)
  })

  it('bad input: one line naming the file and the field path, exit 2', async () => {
    const bad = {...deployment(), spec: {template: {...template136, spec: {containers: [{name: 'c', ports: [{containerPort: '80'}]}]}}}}
    const r = await runCli(['hash', '--template', file('bad.json', bad)])
    assert.equal(r.code, 2)
    assert.match(r.stderr, /bad\.json: spec\.template\.spec\.containers\[0\]\.ports\[0\]\.containerPort: expected an integer \(int32\), got string "80"/)
    const q = await runCli(['hash', '--template', file('q.json', {spec: {containers: [{name: 'c', resources: {limits: {cpu: '1.2.3'}}}]}})])
    assert.equal(q.code, 2)
    assert.match(q.stderr, /spec\.containers\[0\]\.resources\.limits\.cpu: quantity "1\.2\.3" does not parse/)
    const notObject = await runCli(['hash', '--template', file('n.json', [1])])
    assert.equal(notObject.code, 2)
    assert.match(notObject.stderr, /n\.json \[0\]: expected an object/)
    const noTemplate = await runCli(['hash', '--template', file('nt.json', {kind: 'Deployment', metadata: {name: 'x'}, spec: {}})])
    assert.equal(noTemplate.code, 2)
    assert.match(noTemplate.stderr, /nt\.json: spec\.template: expected an object \(v1\.PodTemplateSpec\), got nothing/)
    const kind = await runCli(['hash', '--template', file('svc.json', {kind: 'Service', metadata: {name: 's'}})])
    assert.equal(kind.code, 2)
    assert.match(kind.stderr, /a Service has no pod template to hash/)
    const missing = await runCli(['hash', '--template', join(dir, 'nope.yaml')])
    assert.equal(missing.code, 2)
    assert.match(missing.stderr, /cannot read .*nope\.yaml: ENOENT/)
  })

  it('versions: newer than the newest layout warns, older than the oldest is refused', async () => {
    const newer = await json(['--template', file('d3.json', deployment()), '--k8s-version', '1.40'])
    assert.equal(newer.code, 0)
    assert.equal(newer.records[0].version, '1.37')
    assert.match(newer.stderr, /warning: Kubernetes 1\.40 is newer than the newest struct layout/)
    const older = await runCli(['hash', '--template', file('d3.json', deployment()), '--k8s-version', '1.19'])
    assert.equal(older.code, 2)
    assert.match(older.stderr, /1\.19 is older than the oldest struct layout/)
  })

  it('reports fields the chosen version does not have', async () => {
    const r = await json(['--template', file('new.json', deployment()), '--k8s-version', '1.20'])
    assert.equal(r.code, 0)
    assert.equal(r.records[0].hash, expectedHash(nginx, '1.20', 'nil'))
    const withNew = {...deployment(), spec: {template: {...template136, spec: {...(template136 as unknown as {spec: object}).spec, hostUsers: false}}}}
    const w = await json(['--template', file('new2.json', withNew), '--k8s-version', '1.24'])
    assert.match(String((w.records[0].warnings as string[])[0]), /ignored fields the 1\.24 structs do not have .*: spec\.template\.spec\.hostUsers/)
  })
})
