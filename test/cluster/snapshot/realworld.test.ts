// Dumps written by real clusters (../shared/realworld): every JSON/YAML file and directory loads
// without a crash. What cannot be used is reported with its file name; a file with nothing usable at
// all is refused with a one-line UserError naming it. Skipped, saying so, when ../shared is absent.
import assert from 'node:assert/strict'
import {existsSync, readdirSync, statSync} from 'node:fs'
import {join} from 'node:path'
import {test} from 'node:test'
import {fileURLToPath} from 'node:url'
import {SnapshotSource} from '../../../src/cluster/snapshot/snapshot-source.js'
import {UserError} from '../../../src/errors.js'

const ROOT = fileURLToPath(new URL('../../../../shared/realworld/', import.meta.url))

function artifacts(): string[] {
  return readdirSync(ROOT)
    .filter((c) => statSync(join(ROOT, c)).isDirectory())
    .flatMap((c) =>
      readdirSync(join(ROOT, c))
        .filter((e) => !e.endsWith('.provenance.json'))
        .map((e) => join(ROOT, c, e))
        .filter((p) => statSync(p).isDirectory() || /\.(json|ya?ml)$/.test(p)),
    )
}

/** Files whose content is not Kubernetes objects at all (INDEX.md says so): refused with a clear message. */
const NOT_OBJECTS = [
  'gc/005-trident-474-clusterscoped-ownerref-to-namespaced.yaml', // a fragment: ownerReferences only
  'replicasets/044-weavegitops-ui-graph.exports.json', // a UI fixture derived from objects
  'replicasets/046-weavegitops-ui-objects_table.exports.json',
]

test('every real-world dump loads, or is refused with a clear message naming it', {
  skip: existsSync(ROOT) ? false : `../shared/realworld not present (${ROOT}): real-world dumps not checked`,
}, async (t) => {
  const list = artifacts()
  assert.ok(list.length > 50, `expected the real-world corpus, found ${list.length} artifacts`)
  for (const path of list) {
    const rel = path.slice(ROOT.length)
    await t.test(rel, async () => {
      let s: SnapshotSource
      try {
        s = await SnapshotSource.open(path)
      } catch (err) {
        assert.ok(err instanceof UserError, `${rel}: crashed with ${(err as Error).stack}`)
        assert.ok(NOT_OBJECTS.includes(rel), `${rel}: refused: ${(err as Error).message}`)
        assert.ok((err as Error).message.includes(rel.split('/')[1]), 'the message names the file')
        return
      }
      assert.ok(!NOT_OBJECTS.includes(rel), `${rel} was expected to be refused`)
      assert.ok(s.problems().every((p) => p.what !== '' && p.reason !== ''))
      let total = 0
      for (const kind of ['Pod', 'ReplicaSet', 'Deployment', 'Node', 'Lease', 'ControllerRevision', 'DaemonSet', 'StatefulSet']) {
        total += (await s.list({kind})).items.length
      }
      // Loaded but holding none of the kinds the engines read: only acceptable when the reason is reported
      // (e.g. k9s's fixture, a ReplicaSet hand-labelled networking.k8s.io/v1: its kind is guessed and said so).
      assert.ok(
        total > 0 || rel.startsWith('gc/') || s.problems().some((p) => /guessed/.test(p.reason)),
        `${rel}: none of the engines' kinds found, and no problem says why`,
      )
    })
  }
})

test('a support bundle directory: kindless items typed from their path, the version from cluster_version.json', {
  skip: existsSync(ROOT) ? false : '../shared/realworld not present',
}, async () => {
  const s = await SnapshotSource.open(join(ROOT, 'replicasets/054-troubleshoot-hist-k3s1202-deploy-pods'))
  const deployments = await s.list({kind: 'Deployment', namespace: 'kube-system'})
  assert.ok(deployments.items.some((d) => d.metadata?.name === 'local-path-provisioner'))
  assert.equal(deployments.items[0].apiVersion, 'apps/v1')
  assert.match((await s.serverVersion())!.gitVersion, /^v1\.20\./)
  assert.ok(s.problems().some((p) => /items without kind: taken as Deployment/.test(p.reason)))
  assert.ok(
    s.problems().some((p) => /DERIVED-deploy-pod-hash-check\.json/.test(p.what)),
    'the derived non-object file is reported by name',
  )
})
