import * as Args from '@oclif/core/args'
import * as Flags from '@oclif/core/flags'
import {type Answer, WhyCommand} from '../base-command.js'
import {parseTarget} from '../cluster/target.js'
import {chooseVersion} from '../cluster/version.js'
import {DEFAULT_MINOR, type DriveOptions, describeReplicas, driveDeployment, driveReplicaSet, replicasScan} from '../engine/replicaset/drive.js'
import {ReplicaSetInputError, VERDICTS} from '../engine/replicaset/index.js'
import {UserError} from '../errors.js'
import {sharedFlags} from '../flags.js'
import {terminalWidth} from '../render/layout.js'
import {renderReplicas, renderReplicasReport, replicasReport} from '../render/replicas.js'

export default class Replicas extends WhyCommand {
  static override summary = 'Replay the ReplicaSet controller: expectations, claims, slow start, and which pods go first.'
  static override description = `Replays the ReplicaSet controller for one ReplicaSet: the pods it owns, adopts, releases or ignores, the
active pods, what manageReplicas would do now (creates in slow-start batches, or exactly which pods it
deletes first, in upstream's ranking order), and the expectations it is waiting on. Expectations live only
in the controller's memory: they are inferred from its events, the pods' timestamps and the difference
between the watch cache and a quorum read, and the output says how sure the inference is.

deployment/NAME explains each of the Deployment's ReplicaSets, the new one first. --all lists every
ReplicaSet of the namespace (or the cluster, with -A) that is not converged, worst first: the same replay
as the audit's replicas check, from one read of each kind.

Verdicts: ${VERDICTS.join(', ')}.`

  static override examples = [
    {description: 'Why is my ReplicaSet stuck at 3/5?', command: '<%= config.bin %> replicas replicaset/web-7d9f4b6c8 -n shop'},
    {description: 'Every ReplicaSet of a Deployment, new first', command: '<%= config.bin %> replicas deployment/web -n shop'},
    {
      description: 'Which pods a scale-down removes, offline',
      command: '<%= config.bin %> replicas rs/checkout-6b7f9d5c4d -f examples/replicas-deletion-cost.yaml',
    },
    {description: 'Every ReplicaSet that is not converged, cluster-wide, as JSON', command: '<%= config.bin %> replicas --all -A -o json'},
  ]

  static override args = {
    target: Args.string({description: 'the ReplicaSet: NAME, replicaset/NAME or rs NAME; or deployment/NAME', required: false, ignoreStdin: true}),
    name: Args.string({description: "NAME, after the TYPE word (kubectl's TYPE NAME form)", required: false, ignoreStdin: true}),
  }

  static override flags = {
    ...sharedFlags,
    all: Flags.boolean({
      description: 'Replay every ReplicaSet of the namespace (-A: the cluster) and list those that are not converged, worst first.',
      default: false,
    }),
  }

  async run(): Promise<void> {
    const {args, flags} = await this.parse(Replicas)
    this.setupOutput(flags)
    const spec = {command: 'replicas', naturalKind: 'ReplicaSet', otherKinds: ['Deployment'], example: 'replicaset/web-7d9f4b6c8 -n shop'}
    const target = this.targetOrAll(parseTarget([args.target, args.name], spec), flags.all, {
      form: 'a ReplicaSet (or deployment/NAME)',
      which: 'which ReplicaSet? give its NAME (or replicaset/NAME, deployment/NAME), or --all',
      example: 'web-7d9f4b6c8 -n shop',
    })
    if (target && flags['all-namespaces']) throw new UserError('a resource cannot be retrieved by name across all namespaces', 'use -n NAMESPACE')
    const o = {kind: target?.type as 'ReplicaSet' | 'Deployment' | undefined, name: target?.name ?? '', versionOverride: this.versionOverride(flags)}
    await this.answerFrom(flags, async (source): Promise<Answer> => {
      try {
        const version = chooseVersion(o.versionOverride, await source.serverVersion().catch(() => undefined))
        const namespace = this.namespace(flags, source)
        if (!o.kind) {
          const report = replicasReport(await replicasScan(source, namespace, version, this.statusLine.line), namespace, source.now())
          return {
            data: report,
            severities: report.findings.map((f) => f.severity),
            views: {table: (_wide, src) => renderReplicasReport(report, src, terminalWidth())},
          }
        }
        const options: DriveOptions = {minor: version?.minor ?? DEFAULT_MINOR, describe: (problems) => describeReplicas(source.describe(), version, problems)}
        const list =
          o.kind === 'ReplicaSet' ? [await driveReplicaSet(source, namespace!, o.name, options)] : await driveDeployment(source, namespace!, o.name, options)
        // One ReplicaSet prints an object; a Deployment's ReplicaSets always print as an array, new first.
        return {
          data: o.kind === 'Deployment' ? list : list[0],
          severities: list.map((e) => e.severity),
          views: {table: (wide, src) => renderReplicas(list, wide, src)},
        }
      } catch (err) {
        if (err instanceof ReplicaSetInputError) throw new UserError(err.message, 'the object is not one the API server would accept; check the dump')
        throw err
      }
    })
  }
}
