import {readFileSync} from 'node:fs'
import * as Args from '@oclif/core/args'
import * as Flags from '@oclif/core/flags'
import {type CommonFlags, WhyCommand} from '../base-command.js'
import {isHashReport, planHashWorkload, runHashWorkload} from '../commands-support/hash-workload.js'
import {templateText} from '../commands-support/template-text.js'
import {UserError} from '../errors.js'
import {sharedFlags} from '../flags.js'
import {findTemplates, hashRecords, type HashRecord} from '../hash/template-records.js'
import {selectLayoutVersion} from '../hash/versions.js'
import {renderHashRecords} from '../render/hash-template.js'
import {renderHashExplanation, renderHashReport} from '../render/hash-workload.js'
import {formatData, isDataFormat} from '../render/output.js'
import {parseTarget, type Target} from '../cluster/target.js'
import {parseJson, parseYamlDocuments} from '../util/json.js'

type ClusterFlags = CommonFlags & {all: boolean; 'collision-count'?: number; 'show-serialization': boolean}

export default class Hash extends WhyCommand {
  static override summary = "Recompute a workload's pod-template-hash / controller-revision-hash as its controller does."
  static override description = `Recomputes, byte for byte, the hash the Deployment, DaemonSet or StatefulSet controller of this
cluster's Kubernetes version derives from the pod template (FNV over Go's spew dump of the struct, with
status.collisionCount), names the ReplicaSet or ControllerRevision it implies, and explains which existing
revision the controller treats as current, which labels came from an older controller, and collisions.

deployment/NAME, daemonset/NAME or statefulset/NAME replays that workload's controller against its ReplicaSets or
ControllerRevisions and pods (live, or from -f); --all does it for every one in the namespace (-A: the cluster), one
line each, problems first, and checks the labels of ReplicaSets and revisions whose owner is not in the data.
Verdicts: upToDate, rolloutPending, collision, hashDrift, unreproducible.`

  static override examples = [
    {description: 'Why does my Deployment have two ReplicaSets with the same template?', command: '<%= config.bin %> hash deployment/web -n shop'},
    {description: 'The same question against a saved dump, as of the capture time', command: '<%= config.bin %> hash deployment/web -n shop -f incident.json'},
    {description: 'Hash a template offline for a given version', command: '<%= config.bin %> hash --template rs.yaml --k8s-version 1.29'},
    {description: 'Every Deployment, DaemonSet and StatefulSet of the cluster, problems first, for CI', command: '<%= config.bin %> hash --all -A -o json'},
  ]

  static override args = {
    // ignoreStdin: oclif would otherwise take piped input (--template -, -f -) as this argument.
    target: Args.string({description: 'deployment/NAME, daemonset/NAME or statefulset/NAME (or TYPE NAME)', required: false, ignoreStdin: true}),
    name: Args.string({description: "NAME, when TYPE is given on its own (kubectl's TYPE NAME form)", required: false, ignoreStdin: true}),
  }

  static override flags = {
    ...sharedFlags,
    template: Flags.string({description: 'Hash the template(s) in this file (or - for stdin) instead of reading a cluster.'}),
    'collision-count': Flags.integer({description: "Use this collisionCount instead of the object's status.collisionCount.", min: 0, max: 2_147_483_647}),
    'show-serialization': Flags.boolean({description: 'Print the exact text that was hashed.', default: false}),
    all: Flags.boolean({
      description: 'Every Deployment, DaemonSet and StatefulSet of the namespace (-A: the cluster), one line each, problems first.',
      default: false,
    }),
  }

  async run(): Promise<void> {
    const {args, flags} = await this.parse(Hash)
    this.setupOutput(flags)
    const target = parseTarget([args.target, args.name], {command: 'hash', example: 'deployment/web'})
    if (flags.template === undefined) return this.runCluster(target, flags)
    if (flags.all) throw new UserError('give either --all or --template, not both', '--all reads a cluster; --template reads a file')
    if (target !== undefined)
      throw new UserError(
        `give either ${target.type}/${target.name} or --template, not both`,
        '--template hashes templates from a file without reading a cluster',
      )
    if (flags.output === 'html')
      throw new UserError(
        '-o html draws a replay of a cluster or dump; --template prints table, json or yaml',
        'drop -o html, or hash a workload: kubectl why hash deployment/NAME -o html',
      )

    const choice = selectLayoutVersion(this.versionOverride(flags))
    if (choice.warning) process.stderr.write(`warning: ${choice.warning}\n`)
    const where = flags.template === '-' ? 'stdin' : flags.template
    const records = hashRecords(findTemplates(await readDocuments(flags.template, where), where), {
      version: choice.version,
      collisionCount: flags['collision-count'],
      showSerialization: flags['show-serialization'],
    })
    if (records.length === 0) throw new UserError(`${where}: no templates found`, 'the input is empty')

    const format = flags.output ?? 'table'
    if (format === 'json' || format === 'yaml') this.write(formatData(records, format))
    else this.write(renderHashRecords(records))
    // A record that no layout reproduces, or cannot be hashed, is a warning-level finding.
    this.failOnFindings(
      records.filter(isWarning).map(() => ({severity: 'warning' as const})),
      flags,
    )
  }

  /** TYPE/NAME or --all: read a cluster or a dump and replay the controllers (src/commands-support/hash-workload.ts). */
  private async runCluster(target: Target | undefined, flags: ClusterFlags): Promise<void> {
    const plan = planHashWorkload({
      target,
      all: flags.all,
      allNamespaces: flags['all-namespaces'] === true,
      templateOnly: [
        ...(flags['collision-count'] !== undefined ? ['--collision-count'] : []),
        ...(flags['show-serialization'] ? ['--show-serialization'] : []),
      ],
    })
    const source = await this.openSource(flags)
    try {
      const result = await runHashWorkload(source, plan, {
        namespace: this.namespace(flags, source),
        override: this.versionOverride(flags),
        progress: this.statusLine.line,
      })
      const format = flags.output ?? 'table'
      if (isDataFormat(format)) await this.writeData(result.data, format)
      else this.write(isHashReport(result.data) ? renderHashReport(result.data, format === 'wide') : renderHashExplanation(result.data, format === 'wide'))
      this.failOnFindings(
        result.severities.map((severity) => ({severity})),
        flags,
      )
    } finally {
      await source.close?.()
    }
  }
}

/** A label nothing reproduces, or a hash that cannot be recomputed: worth a non-zero exit. */
function isWarning(r: HashRecord): boolean {
  return r.error !== undefined || (r.reproducedBy !== undefined && r.reproducedBy.length === 0)
}

/** stdin as a stream: a synchronous read of fd 0 fails with EAGAIN when the pipe is non-blocking. */
async function readStdin(): Promise<Buffer> {
  const chunks: Buffer[] = []
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks)
}

async function readDocuments(file: string, where: string): Promise<unknown[]> {
  let bytes: Uint8Array
  try {
    bytes = file === '-' ? await readStdin() : readFileSync(file)
  } catch (err) {
    throw new UserError(`cannot read ${where}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`, 'give a readable file, or - for stdin')
  }
  const text = templateText(bytes, where)
  const trimmed = text.trimStart()
  // JSON keeps int64 exact through the JSON parser; several JSON documents separated by --- are YAML.
  if ((trimmed.startsWith('{') || trimmed.startsWith('[')) && !/^---/m.test(text)) return [parseJson(text, where)]
  return parseYamlDocuments(text, where)
}
