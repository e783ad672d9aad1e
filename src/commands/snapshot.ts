import {accessSync, constants, statSync} from 'node:fs'
import {dirname, resolve} from 'node:path'
import * as Flags from '@oclif/core/flags'
import {WhyCommand} from '../base-command.js'
import {capture} from '../cluster/snapshot/capture.js'
import {DESCRIPTORS} from '../engine/replays.js'
import {fullKinds} from '../replay.js'
import {SnapshotWriter} from '../cluster/snapshot/writer.js'
import {UserError} from '../errors.js'
import {connectionFlags, outputFlags, snapshotFlag} from '../flags.js'

export default class Snapshot extends WhyCommand {
  static override summary = 'Save everything the other commands read, for offline replay with -f.'
  static override description = `Captures nodes, node leases (both the watch-cache and the quorum view), pods, ReplicaSets,
Deployments, DaemonSets, StatefulSets, ControllerRevisions, events, and the metadata of every other
listable kind (for ownership), with the capture time and the server version, into one file that
-f/--snapshot reads back. Secrets are saved as metadata only. Read-only: GETs only.
All namespaces are captured unless -n is given. With -f, a dump (a support bundle, a must-gather
directory, kubectl output) is read instead and rewritten as one snapshot file.`

  static override examples = [
    {description: 'Save the cluster at the moment of an incident', command: '<%= config.bin %> snapshot --out incident.json.gz'},
    {description: 'Replay later, as of the capture time', command: '<%= config.bin %> node -f incident.json.gz'},
    {
      description: 'Turn a support bundle directory into one snapshot file',
      command: '<%= config.bin %> snapshot -f ./support-bundle/cluster-resources --out bundle.json',
    },
    {description: 'Only one namespace (nodes and leases are always captured)', command: '<%= config.bin %> snapshot -n shop --out shop.json'},
  ]

  static override flags = {
    ...connectionFlags,
    snapshot: snapshotFlag.snapshot,
    debug: outputFlags.debug,
    'no-color': outputFlags['no-color'],
    progress: outputFlags.progress,
    out: Flags.string({description: 'Write to this file (gzip when it ends in .gz) instead of stdout.'}),
  }

  async run(): Promise<void> {
    const {flags} = await this.parse(Snapshot)
    this.setupOutput(flags)
    // Before any request: a file that cannot be created is a usage error, not a failure after a long capture.
    if (flags.out !== undefined && flags.out !== '-') checkWritable(flags.out)
    const source = await this.openSource(flags)
    const writer = SnapshotWriter.create(flags.out)
    try {
      const {objects, problems} = await capture(source, writer, {
        full: fullKinds(DESCRIPTORS),
        namespace: flags['all-namespaces'] ? undefined : flags.namespace,
        progress: this.statusLine.line,
      })
      this.statusLine.clear()
      const leftOut = source.leftOut?.() ?? []
      const dropped = new Set(leftOut)
      if (flags.out) this.stderr(`wrote ${objects} objects to ${flags.out}${leftOut.length > 0 ? ` (${leftOut.length} left out, listed below)` : ''}\n`)
      for (const p of problems) if (!dropped.has(p)) this.stderr(`warning: not captured: ${p.what}: ${p.reason}\n`)
      // A rewritten dump that lost objects is not a faithful copy: each is named, and the exit code says so.
      for (const p of leftOut) this.stderr(`error: left out ${p.what}: ${p.reason}\n`)
      if (leftOut.length > 0) process.exitCode = 2
    } catch (err) {
      writer.abort()
      throw err
    } finally {
      await source.close?.()
    }
  }
}

function checkWritable(path: string): void {
  const dir = dirname(resolve(path))
  let st: ReturnType<typeof statSync>
  try {
    st = statSync(dir)
  } catch {
    throw new UserError(`--out ${path}: the directory ${dir} does not exist`, 'create it first, or name a file in an existing directory')
  }
  if (!st.isDirectory()) throw new UserError(`--out ${path}: ${dir} is not a directory`, 'name a file in an existing directory')
  try {
    accessSync(dir, constants.W_OK)
  } catch {
    throw new UserError(`--out ${path}: the directory ${dir} is not writable`, 'name a file in a directory you may write to')
  }
}
