// A list's projection may be applied by the source as the items are read (ListRequest.project: the live source does)
// and again by the caller, so each projection must give back what it made: project(project(o)) equals project(o).
// Checked on every object of a synthetic cluster with incidents and of the examples, for every projection the audit
// and the replicas driver pass.
import assert from 'node:assert/strict'
import {readdirSync, readFileSync} from 'node:fs'
import {test} from 'node:test'
import {auditProjectionPlan, Interner, projector} from '../../src/audit/project.js'
import {groupKindKey} from '../../src/cluster/object-store.js'
import {slimmer} from '../../src/cluster/snapshot/slim.js'
import type {KubeObject} from '../../src/cluster/source.js'
import {slimPod} from '../../src/engine/replicaset/slim.js'
import {parseJson, parseYamlDocuments} from '../../src/util/json.js'
import {generateCluster} from '../support/synthetic/index.js'

const examples = readdirSync('examples')
  .filter((f) => /\.(json|yaml)$/.test(f))
  .flatMap((f) => {
    const text = readFileSync(`examples/${f}`, 'utf8')
    const doc = (f.endsWith('.json') ? parseJson(text, f) : parseYamlDocuments(text, f)[0]) as {items?: KubeObject[]}
    return doc.items ?? []
  })
const objects: KubeObject[] = [...examples, ...generateCluster({seed: 3, nodes: 20, notReadyNodes: 2, danglingOwners: 3, stuckForeground: 1})]

// Every kind's reads as the descriptors name them, and the same without the reads that keep objects whole.
const plan = auditProjectionPlan()
const narrow = (key: string) => (plan.byKind.get(key) ?? []).filter((r) => r.fields !== '*')

test('every projection gives back what it made', () => {
  assert.ok(objects.length > 500, `${objects.length} objects`)
  const intern = new Interner()
  for (const o of objects) {
    const key = groupKindKey(o.apiVersion, o.kind ?? '')
    const projections: [string, (x: KubeObject) => KubeObject][] = [
      ['as a snapshot keeps it', slimmer(plan)],
      ['the reads of its kind but whole ones', projector({metadataOnly: false, needs: narrow(key)}, intern)],
      ['metadata only', projector({metadataOnly: true, needs: []}, intern, {labels: true, creationTimestamp: true})],
    ]
    if (o.kind === 'Pod') projections.push(['slimPod', slimPod])
    for (const [what, project] of projections) {
      const once = project(structuredClone(o))
      assert.deepEqual(project(structuredClone(once)), once, `${what}: ${o.kind} ${o.metadata?.namespace ?? ''}/${o.metadata?.name}`)
    }
  }
})
