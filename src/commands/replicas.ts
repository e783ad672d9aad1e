import * as Args from '@oclif/core/args'
import * as Flags from '@oclif/core/flags'
import {type CommonFlags, WhyCommand} from '../base-command.js'
import {DEFAULT_MINOR, describeReplicas, replicasScan} from '../audit/checks/replicas.js'
import {parseTarget, type Target} from '../cluster/target.js'
import {chooseVersion} from '../cluster/version.js'
import {driveDeployment, driveReplicaSet, type DriveOptions} from '../engine/replicaset/drive.js'
import {ReplicaSetInputError, VERDICTS} from '../engine/replicaset/index.js'
import {UserError} from '../errors.js'
import {EXPLANATION_VERSION, reportScope} from '../explanation.js'
import {sharedFlags} from '../flags.js'
import {isDataFormat} from '../render/output.js'
import {renderReplicas, renderReplicasReport, type ReplicasReport} from '../render/replicas.js'

type ReplicasFlags = CommonFlags & {all: boolean}

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
    const parsed = await this.parse(Replicas)
    const flags = parsed.flags as ReplicasFlags
    this.setupOutput(flags)
    const target = targetOf(
      parseTarget([parsed.args.target, parsed.args.name], {
        command: 'replicas',
        naturalKind: 'ReplicaSet',
        otherKinds: ['Deployment'],
        example: 'replicaset/web-7d9f4b6c8 -n shop',
      }),
      flags,
    )
    const source = await this.openSource(flags)
    try {
      const version = chooseVersion(this.versionOverride(flags), await source.serverVersion().catch(() => undefined))
      const format = flags.output ?? 'table'
      if (!target) {
        const namespace = this.namespace(flags, source)
        const scan = await replicasScan(source, namespace, version, this.statusLine.line)
        const report: ReplicasReport = {
          apiVersion: EXPLANATION_VERSION,
          kind: 'ReplicasReport',
          scope: reportScope(namespace),
          evaluatedAt: source.now().toISOString(),
          source: scan.source,
          replicaSets: scan.replicaSets,
          pods: scan.pods,
          counts: scan.counts,
          findings: scan.findings,
        }
        if (isDataFormat(format)) await this.writeData(report, format)
        else this.write(renderReplicasReport(report))
        this.failOnFindings(report.findings, flags)
        return
      }
      const options: DriveOptions = {minor: version?.minor ?? DEFAULT_MINOR, describe: (problems) => describeReplicas(source.describe(), version, problems)}
      const namespace = this.namespace(flags, source)!
      const list =
        target.kind === 'ReplicaSet'
          ? [await driveReplicaSet(source, namespace, target.name, options)]
          : await driveDeployment(source, namespace, target.name, options)
      // One ReplicaSet prints an object; a Deployment's ReplicaSets always print as an array, new first.
      if (isDataFormat(format)) await this.writeData(target.kind === 'Deployment' ? list : list[0], format)
      else this.write(renderReplicas(list, format === 'wide'))
      this.failOnFindings(list, flags)
    } catch (err) {
      if (err instanceof ReplicaSetInputError) throw new UserError(err.message, 'the object is not one the API server would accept; check the dump')
      throw err
    } finally {
      await source.close?.()
    }
  }
}

function targetOf(target: Target | undefined, flags: ReplicasFlags): {kind: 'ReplicaSet' | 'Deployment'; name: string} | undefined {
  if (flags.all && target) throw new UserError('give either a ReplicaSet (or deployment/NAME) or --all, not both', 'e.g. kubectl why replicas --all -n shop')
  if (!flags.all && !target)
    throw new UserError('which ReplicaSet? give its NAME (or replicaset/NAME, deployment/NAME), or --all', 'e.g. kubectl why replicas web-7d9f4b6c8 -n shop')
  if (!target) return undefined
  if (flags['all-namespaces']) throw new UserError('a resource cannot be retrieved by name across all namespaces', 'use -n NAMESPACE')
  return {kind: target.type as 'ReplicaSet' | 'Deployment', name: target.name}
}
