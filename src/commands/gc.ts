import * as Args from '@oclif/core/args'
import * as Flags from '@oclif/core/flags'
import {type CommonFlags, WhyCommand} from '../base-command.js'
import {apiVersionOf} from '../cluster/builtin-kinds.js'
import {resolveResource} from '../cluster/resolve.js'
import type {ClusterSource} from '../cluster/source.js'
import {parseTarget, type Target} from '../cluster/target.js'
import {chooseVersion} from '../cluster/version.js'
import {driveGcAll, driveGcOne, type GcDriveOptions} from '../engine/garbagecollector/drive.js'
import {explainGc} from '../engine/garbagecollector/index.js'
import {UserError} from '../errors.js'
import type {Problem, SourceDescription} from '../explanation.js'
import {sharedFlags} from '../flags.js'
import {gcReport, renderGcExplanation, renderGcReport, renderGcTree} from '../render/gc.js'
import {isDataFormat} from '../render/output.js'

type GcFlags = CommonFlags & {all: boolean; tree: boolean; 'max-depth': number}

export default class Gc extends WhyCommand {
  static override summary = 'Replay the garbage collector for one object: why it was (or will be) deleted, or why it stays.'
  static override description = `Classifies every owner reference the way the garbage collector does (solid, dangling, waiting for
dependents deletion) using fresh, uncached, metadata-only reads and UID comparison, and says which branch the
collector takes: keep, patch the owner references, delete (with which propagation), wait, or why it is stuck.
Objects being deleted in the foreground are explained from the owner's side: which dependents still block
it (blockOwnerDeletion), and why each of them is still there. Each verdict says what to do next.

With --all, every object in the namespace (or the cluster, with -A) is replayed and those the collector would
act on — delete, patch, remove a finalizer — or is stuck on are listed, worst first, with counts.

On a dump that cannot prove an object's absence (one not written by \`kubectl why snapshot\`), an owner missing
from it is unknown, never dangling.

Verdicts: keep, patchRemoveOwnerRefs, delete, noOwners, waitBeingDeleted, removeFinalizer,
waitForBlockingDependents, orphanDependentsThenRemoveFinalizer, stuckRestMapping,
stuckNamespacedOwnerOfClusterScopedObject, notMonitored, unknown.`

  static override examples = [
    {description: 'Why was this ReplicaSet deleted (or why is it still here)?', command: '<%= config.bin %> gc replicaset/web-7d9f4b6c8 -n shop'},
    {
      description: 'Why is this Deployment stuck deleting (foregroundDeletion)? Show the ownership tree',
      command: '<%= config.bin %> gc deployment/web -n shop --tree',
    },
    {description: 'A custom resource, by its plural and group', command: '<%= config.bin %> gc widgets.example.com/foo -n shop'},
    {description: 'Everything the collector would delete, patch or is stuck on, cluster-wide, as JSON', command: '<%= config.bin %> gc --all -A -o json'},
    {description: 'The same, offline, on a saved dump', command: '<%= config.bin %> gc --all -A -f examples/gc-recreated-deployment.json'},
  ]

  static override args = {
    target: Args.string({
      description: 'KIND/NAME (or KIND NAME) of the object, e.g. replicaset/web-7d9f4b6c8 or widgets.example.com/foo',
      required: false,
      ignoreStdin: true,
    }),
    name: Args.string({description: "NAME, when KIND is given on its own (kubectl's TYPE NAME form)", required: false, ignoreStdin: true}),
  }

  static override flags = {
    ...sharedFlags,
    all: Flags.boolean({
      description: 'Replay every object in the namespace (-A: the cluster) and list those the collector acts on or is stuck on.',
      default: false,
    }),
    tree: Flags.boolean({
      description:
        'Show the owner/dependent graph around the object (kubectl-tree style columns; uids with -o wide), each edge marked with its classification and blockOwnerDeletion.',
      default: false,
    }),
    'max-depth': Flags.integer({description: 'How deep blocking dependents (and --tree dependents) are followed.', default: 3, min: 1, max: 10}),
  }

  async run(): Promise<void> {
    const {args, flags: parsed} = await this.parse(Gc)
    const flags = parsed as GcFlags
    this.setupOutput(flags)
    const target = parseTarget([args.target, args.name], {command: 'gc', example: 'replicaset/web-7d9f4b6c8'})
    if (flags.all && target) throw new UserError('give either KIND/NAME or --all, not both', 'e.g. kubectl why gc --all -n shop')
    if (!flags.all && !target)
      throw new UserError('which object? give KIND/NAME, or --all for every object', 'e.g. kubectl why gc replicaset/web-7d9f4b6c8 -n shop')
    if (flags.all && flags.tree) throw new UserError('--tree shows the graph around one object', 'drop --tree, or give KIND/NAME')
    const format = flags.output ?? 'table'
    const source = await this.openSource(flags)
    try {
      const minor = chooseVersion(this.versionOverride(flags), await source.serverVersion().catch(() => undefined))?.minor
      const options: GcDriveOptions = {
        now: source.now(),
        minor,
        maxDepth: flags['max-depth'],
        progress: this.sourceOptions(flags).progress,
        snapshotGaps: source.describe().mode === 'snapshot' ? source.problems() : [],
      }
      const description = (problems: readonly Problem[]): SourceDescription => {
        const d = source.describe()
        return {...d, ...(minor !== undefined ? {k8sVersion: `1.${minor}`} : {}), partial: [...(d.partial ?? []), ...problems]}
      }
      if (flags.all) {
        const namespace = this.namespace(flags, source)
        const result = await driveGcAll(source, namespace, options)
        const report = gcReport(result, namespace, options.now, description(result.problems))
        if (isDataFormat(format)) await this.writeData(report, format)
        else this.write(renderGcReport(report))
        this.failOnFindings(report.findings, flags)
        return
      }
      const one = await this.readTarget(source, target!, flags, options)
      const explanation = explainGc(one.replay, options.now, description(one.problems))
      const data = one.tree ? {...explanation, tree: one.tree} : explanation
      if (isDataFormat(format)) await this.writeData(data, format)
      else this.write(one.tree ? renderGcTree(one.tree, explanation, {wide: format === 'wide'}) : renderGcExplanation(explanation, format === 'wide'))
      this.failOnFindings([explanation], flags)
    } finally {
      await source.close?.()
    }
  }

  private async readTarget(
    source: ClusterSource,
    {type, name}: Target,
    flags: GcFlags,
    options: GcDriveOptions,
  ): Promise<NonNullable<Awaited<ReturnType<typeof driveGcOne>>>> {
    const t = resolveResource(await source.discovery(), type)
    if (t.namespaced && flags['all-namespaces']) throw new UserError('a resource cannot be retrieved by name across all namespaces', 'use -n NAMESPACE')
    const namespace = t.namespaced ? this.namespace(flags, source) : undefined
    const raw = await source.get({apiVersion: apiVersionOf(t), kind: t.kind, namespace, name, view: 'fresh', metadataOnly: true})
    if (!raw) {
      throw new UserError(
        `${t.resource}${t.group ? `.${t.group}` : ''} "${name}" not found${namespace ? ` in namespace ${namespace}` : ''}`,
        `if it was garbage-collected, its owners were gone or being deleted; look for it with \`kubectl get events --field-selector involvedObject.name=${name}\``,
      )
    }
    const one = await driveGcOne(source, raw, t, {...options, tree: flags.tree})
    if (!one) throw new UserError(`${t.kind} "${name}": the answer has no metadata.uid`)
    return one
  }
}
