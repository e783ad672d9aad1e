import {Args} from '@oclif/core'
import {WhyCommand} from '../base-command.js'
import {parseTypeName} from '../cluster/resolve.js'
import {explainEvicted} from '../engine/tainteviction/explain.js'
import type {EventLike, PodLike} from '../engine/tainteviction/types.js'
import {ReadError, UserError} from '../errors.js'
import {sharedFlags} from '../flags.js'
import {renderEvicted} from '../render/node-evicted.js'
import {formatData} from '../render/output.js'
import {controllerManagerFlags} from '../settings/flags.js'
import {readNodeLifecycle} from './node.js'

/** "Successfully assigned ns/pod to node-x": the scheduler's Scheduled event names the node of a vanished pod. */
function nodeFromEvents(events: readonly EventLike[], name: string): string | undefined {
  for (const e of events) {
    if (e.reason !== 'Scheduled' || (e.involvedObject ?? e.regarding)?.name !== name) continue
    const m = / to (\S+)$/.exec(e.message ?? e.note ?? '')
    if (m) return m[1]
  }
  return undefined
}

export default class Evicted extends WhyCommand {
  static override summary = 'Replay taint-based eviction for one pod: which taints, which tolerations, which deadline.'
  static override description = `Matches the pod's tolerations against its node's NoExecute taints the way the taint-eviction controller does
(only the first matching toleration per taint counts) and gives the eviction deadline, counted from when the
controller first saw the pod with the taint — not from the taint's timeAdded. When the node is not ready but
not tainted yet, says why (queued in its zone, zone rate 0, master disruption mode, lease circuit breaker).

Verdicts: notAffected, toleratedForever, evictAt, evictedImmediately, evicted, notEvictedBecause.`

  static override examples = [
    {description: 'Why was this pod evicted?', command: '<%= config.bin %> evicted pod/api-7d9f4b6c8-x2k9p -n shop'},
    {description: 'When will it be evicted, as of an instant in a dump?', command: '<%= config.bin %> evicted pod/api-7d9f4b6c8-x2k9p -n shop -f dump.json --now 2026-11-29T03:12:00Z'},
  ]

  static override args = {
    target: Args.string({description: 'pod/NAME', required: true, ignoreStdin: true}),
  }

  static override flags = {...sharedFlags, ...controllerManagerFlags}

  async run(): Promise<void> {
    const {args, flags} = await this.parse(Evicted)
    this.setupOutput(flags)
    const {type, name} = parseTypeName(args.target)
    if (!['pod', 'pods', 'po'].includes(type.toLowerCase()) || !name) throw new UserError(`"${args.target}" is not pod/NAME`, 'taint eviction deletes pods: write pod/NAME')
    if (flags['all-namespaces']) throw new UserError('a pod cannot be looked up by name across all namespaces', 'use -n NAMESPACE')
    const source = await this.openSource(flags)
    try {
      const namespace = this.namespace(flags, source)!
      const pod = (await source.get({apiVersion: 'v1', kind: 'Pod', namespace, name, view: 'fresh'})) as PodLike | undefined
      let events: EventLike[] = []
      const partial = []
      try {
        events = ((await source.list({apiVersion: 'v1', kind: 'Event', namespace, pageSize: 500})).items as EventLike[])
          .filter((e) => (e.involvedObject ?? e.regarding)?.name === name || (e.involvedObject ?? e.regarding)?.kind === 'Node')
      } catch (err) {
        partial.push({what: `list events in ${namespace}`, reason: err instanceof ReadError ? `${err.reason}: ${err.message}` : (err as Error).message})
      }
      const nodeName = pod?.spec?.nodeName ?? nodeFromEvents(events, name)
      if (!pod && !events.some((e) => (e.involvedObject ?? e.regarding)?.name === name)) {
        throw new UserError(`pod "${name}" not found in namespace ${namespace}, and no events about it remain`, 'events expire after an hour by default; look at the node with `kubectl why node`')
      }
      const world = await readNodeLifecycle(source, flags, this.versionOverride(flags))
      world.source.partial = [...(world.source.partial ?? []), ...partial]
      const node = nodeName ? world.nodes.find((n) => n.metadata?.name === nodeName) : undefined
      const e = explainEvicted({
        namespace, name, pod, events, node, nodeAnalysis: world.analysis.nodes.find((n) => n.name === nodeName), cluster: world.analysis,
        now: world.now, settings: world.settings.settings, source: world.source,
      })
      const format = flags.output ?? 'table'
      if (format === 'json' || format === 'yaml') this.write(formatData(e, format))
      else this.write(renderEvicted(e, format === 'wide'))
      this.failOnFindings([e], flags)
    } finally {
      await source.close?.()
    }
  }
}
