// A Deployment whose ReplicaSet the dump lacks, while its pods carry a drifted pod-template-hash (found by the fuzz
// suite: the summary read a ReplicaSet row that does not exist). Input: examples/hash-drift-after-upgrade.json
// without ReplicaSet web-86dcfdf4c6. Its .md says 86dcfdf4c6 is the 1.28–1.29 hash of web's template and a 1.31
// controller computes d556bf558; the pods still say 86dcfdf4c6, so the replay infers that ReplicaSet as new, drifted.
import assert from 'node:assert/strict'
import {readFileSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {test} from 'node:test'
import {runCli} from '../support/cli.js'

test('hash: drift known only from the pods of a ReplicaSet the data lacks is hashDrift, said in words', async () => {
  const dump = JSON.parse(readFileSync(new URL('../../examples/hash-drift-after-upgrade.json', import.meta.url), 'utf8'))
  dump.items = dump.items.filter((o: {kind: string; metadata: {name: string}}) => !(o.kind === 'ReplicaSet' && o.metadata.name === 'web-86dcfdf4c6'))
  const file = join(tmpdir(), `why-drift-${process.pid}.json`)
  writeFileSync(file, JSON.stringify(dump))
  const r = await runCli(['hash', 'deployment/web', '-n', 'shop', '-f', file, '-o', 'json'])
  assert.equal(r.code, 0, r.stderr)
  const e = JSON.parse(r.stdout)
  assert.equal(e.verdict, 'hashDrift')
  assert.equal(e.severity, 'info')
  assert.match(e.summary, /web-86dcfdf4c6 \(not in the data/)
  assert.match(e.summary, /pod-template-hash 86dcfdf4c6 was written by a 1\.28–1\.29 controller/)
  assert.match(e.summary, /computes d556bf558/)
})

test('hash: a version read off the kubelets is a lower bound; labels the controller wrote at that version or newer decide', async () => {
  // examples/hash-drift-after-upgrade.json as a foreign dump: no recorded version, one Node whose kubelet is v1.27.3.
  // Its .md: web-86dcfdf4c6's label is the 1.28–1.29 hash of web's template. A control plane is at least 1.27 (never
  // older than its kubelets), and the labels say 1.29 — so the replay is 1.29's, under which the label reproduces.
  const dump = JSON.parse(readFileSync(new URL('../../examples/hash-drift-after-upgrade.json', import.meta.url), 'utf8'))
  delete dump.kubectlWhy
  dump.items.push({apiVersion: 'v1', kind: 'Node', metadata: {name: 'n1', uid: 'n1'}, status: {nodeInfo: {kubeletVersion: 'v1.27.3'}}})
  const file = join(tmpdir(), `why-kubelet-${process.pid}.json`)
  writeFileSync(file, JSON.stringify(dump))
  const r = await runCli(['hash', 'deployment/web', '-n', 'shop', '-f', file, '-o', 'json'])
  assert.equal(r.code, 0, r.stderr)
  const e = JSON.parse(r.stdout)
  assert.equal(e.deployment.version, '1.29')
  assert.equal(e.verdict, 'upToDate')
})
