import * as Args from '@oclif/core/args'
import * as Flags from '@oclif/core/flags'
import {type Answer, type CommonFlags, WhyCommand} from '../base-command.js'
import {parseTarget, type Target} from '../cluster/target.js'
import {readTemplates} from '../cluster/template-input.js'
import {isHashReport, planHashWorkload, runHashWorkload} from '../engine/workloads/drive.js'
import {UserError} from '../errors.js'
import {sharedFlags} from '../flags.js'
import {findTemplates, hashRecords} from '../hash/template-records.js'
import {selectLayoutVersion} from '../hash/versions.js'
import {renderHashRecords} from '../render/hash-template.js'
import {renderHashExplanation, renderHashReport} from '../render/hash-workload.js'
import type {SourceInForce} from '../render/next-steps.js'

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
    if (flags.template !== undefined) return this.print(await this.templates(flags.template, target, flags), flags)
    const {all, 'all-namespaces': allNamespaces, 'collision-count': collisionCount, 'show-serialization': showSerialization} = flags
    const plan = planHashWorkload({target, all, allNamespaces, collisionCount, showSerialization})
    const o = {override: this.versionOverride(flags), progress: this.statusLine.line}
    await this.answerFrom(flags, async (source) => {
      const {data, severities} = await runHashWorkload(source, plan, {...o, namespace: this.namespace(flags, source)})
      const table = (wide: boolean, src: SourceInForce) =>
        isHashReport(data) ? renderHashReport(data, wide, undefined, src) : renderHashExplanation(data, wide, undefined, src)
      return {data, severities, views: {table}}
    })
  }

  /** --template FILE: the templates in a file hashed for one version, no cluster read. */
  private async templates(file: string, target: Target | undefined, flags: CommonFlags & HashTemplateFlags): Promise<Answer> {
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
    if (choice.warning) this.stderr(`warning: ${choice.warning}\n`)
    const where = file === '-' ? 'stdin' : file
    const {'collision-count': collisionCount, 'show-serialization': showSerialization} = flags
    // A document, or one List item at a time when the input is large (template-input.ts readTemplates).
    const options = {version: choice.version, collisionCount, showSerialization}
    const records = await readTemplates(file, where, (value, source) => hashRecords(findTemplates([value], source), options))
    if (records.length === 0) throw new UserError(`${where}: no templates found`, 'the input is empty')
    // A record that no layout reproduces, or cannot be hashed, is a warning-level finding.
    const severities = records.filter((r) => r.error !== undefined || r.reproducedBy?.length === 0).map(() => 'warning' as const)
    return {data: records, severities, views: {table: () => renderHashRecords(records)}}
  }
}

type HashTemplateFlags = {all: boolean; 'collision-count'?: number; 'show-serialization': boolean}
