import * as Args from '@oclif/core/args'
import * as Flags from '@oclif/core/flags'
import {WhyCommand} from '../base-command.js'
import {parseTarget} from '../cluster/target.js'
import {driveGc} from '../engine/garbagecollector/drive-target.js'
import {UserError} from '../errors.js'
import {sharedFlags} from '../flags.js'
import {gcReport, renderGcExplanation, renderGcReport, renderGcTree} from '../render/gc.js'
import type {SourceInForce} from '../render/next-steps.js'

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
    const {args, flags} = await this.parse(Gc)
    this.setupOutput(flags)
    const target = this.targetOrAll(parseTarget([args.target, args.name], {command: 'gc', example: 'replicaset/web-7d9f4b6c8'}), flags.all, {
      form: 'KIND/NAME',
      which: 'which object? give KIND/NAME, or --all for every object',
      example: 'replicaset/web-7d9f4b6c8 -n shop',
    })
    if (flags.all && flags.tree) throw new UserError('--tree shows the graph around one object', 'drop --tree, or give KIND/NAME')
    const o = {target, tree: flags.tree, maxDepth: flags['max-depth'], versionOverride: this.versionOverride(flags), progress: this.statusLine.line}
    await this.answerFrom(flags, async (source) => {
      const namespace = this.namespace(flags, source)
      const a = await driveGc(source, {...o, namespace})
      if (a.all) {
        const report = gcReport(a.all, namespace, a.now, a.source)
        // The exit code counts the pending-deletions section too, as the audit's deleting check does (stuck ≥ warning).
        const severities = [...report.findings, ...(report.deletions?.findings ?? [])].map((f) => f.severity)
        return {data: report, severities, views: {table: (_wide, src) => renderGcReport(report, src)}}
      }
      const {explanation: e, tree} = a
      const table = (wide: boolean, src: SourceInForce) => (tree ? renderGcTree(tree, e, {wide, src}) : renderGcExplanation(e, wide, src))
      return {data: tree ? {...e, tree} : e, severities: [e.severity], views: {table}}
    })
  }
}
