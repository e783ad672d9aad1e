// The snapshot reader per dump format, each read in a child process (wall time and peak RSS by /usr/bin/time):
// kubectl-why's own layout, what `kubectl get -o json` prints (one pretty-printed List), the same List as
// `kubectl get -o yaml` prints it, and a multi-document YAML stream — the same objects in each, with ratios to the
// JSON List in the same run (issue: YAML within 2× of JSON's time and memory).
//   npm run bench:sources -- --formats [--nodes 1000]
import {execFileSync} from 'node:child_process'
import {createWriteStream, mkdtempSync, rmSync, statSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {stringify} from 'yaml'
import {SyntheticCluster, writeSnapshot} from '../test/support/synthetic/index.js'

const i = process.argv.indexOf('--nodes')
const nodes = i === -1 ? 1000 : Number(process.argv[i + 1])
const options = {seed: 1, nodes, pods: nodes * 30}
const dir = mkdtempSync(join(tmpdir(), 'bench-formats-'))
const mib = (b: number) => `${(b / 2 ** 20).toFixed(0)} MiB`

const paths = {own: join(dir, 'own.json'), list: join(dir, 'list.json'), yaml: join(dir, 'list.yaml'), docs: join(dir, 'docs.yaml')}
await writeSnapshot(paths.own, options)
const put = (w: NodeJS.WritableStream, s: string) => (w.write(s) ? Promise.resolve() : new Promise<void>((r) => w.once('drain', () => r())))
const done = (w: NodeJS.WritableStream) => new Promise<void>((r) => w.end(r))
const list = createWriteStream(paths.list)
const yaml = createWriteStream(paths.yaml)
const docs = createWriteStream(paths.docs)
await put(list, '{\n    "apiVersion": "v1",\n    "items": [\n')
await put(yaml, 'apiVersion: v1\nitems:\n')
let first = true
for (const o of new SyntheticCluster(options).objects()) {
  await put(list, `${first ? '' : ',\n'}${JSON.stringify(o, null, 4).replace(/^/gm, '        ')}`)
  const text = stringify(o, {lineWidth: 0})
  await put(yaml, `- ${text.trimEnd().replace(/\n/g, '\n  ')}\n`)
  await put(docs, `---\n${text}`)
  first = false
}
await put(list, '\n    ],\n    "kind": "List",\n    "metadata": {\n        "resourceVersion": ""\n    }\n}\n')
await put(yaml, 'kind: List\nmetadata:\n  resourceVersion: ""\n')
await Promise.all([done(list), done(yaml), done(docs)])

const script = join(dir, 'open.mts')
writeFileSync(
  script,
  `import {SnapshotSource} from ${JSON.stringify(new URL('../src/cluster/snapshot/snapshot-source.js', import.meta.url).pathname)}\nconst s = await SnapshotSource.open(process.argv[2])\nconsole.log((await s.list({kind: 'Pod'})).items.length)\n`,
)
const rows: [string, {seconds: number; mib: number; bytes: number; pods: string}][] = []
for (const [label, path] of Object.entries(paths)) {
  const res = execFileSync('sh', ['-c', `/usr/bin/time -f '__T %e %M' "${process.execPath}" --import tsx "${script}" "${path}" 2>&1`], {encoding: 'utf8'})
  const m = /__T ([\d.]+) (\d+)/.exec(res)
  rows.push([label, {seconds: m ? Number(m[1]) : Number.NaN, mib: m ? Number(m[2]) / 1024 : Number.NaN, bytes: statSync(path).size, pods: res.split('\n')[0]}])
}
const ref = rows.find(([l]) => l === 'list')![1]
console.log(`snapshot reader by format (${nodes} nodes, ${nodes * 30} pods; open + list the pods, whole process):`)
for (const [label, r] of rows) {
  console.log(
    `  ${label.padEnd(5)} ${mib(r.bytes).padStart(9)} ${r.seconds.toFixed(1).padStart(6)} s ${r.mib.toFixed(0).padStart(6)} MiB peak  ${(r.seconds / ref.seconds).toFixed(2)}× the JSON List's time, ${(r.mib / ref.mib).toFixed(2)}× its memory  (${r.pods} pods)`,
  )
}
rmSync(dir, {recursive: true, force: true})
