// `kubectl why version`, shaped as kubectl's version command (k8s.io/kubectl v0.34.0 pkg/cmd/version/version.go:128
// Run: the text lines :145-148, the JSON and YAML shape :43-45, the server's error after the client's version): the
// client's version, then the server's — the one the current context reaches, or with -f the one the dump records (or
// that its contents imply, which is said). --client: the client's alone, nothing read. -o json|yaml: the same data as
// kubectl's {clientVersion, serverVersion} (schemas/version.json).
import * as Flags from '@oclif/core/flags'
import {WhyCommand} from '../base-command.js'
import type {ServerVersion} from '../cluster/source.js'
import {connectionFlags, outputFlags, snapshotFlag} from '../flags.js'
import {formatData} from '../render/output.js'

/** kubectl's version.Info fields this client has (no git commit or build date: the release archive records none). */
export interface ClientVersion {
  major: string
  minor: string
  gitVersion: string
  /** The Node.js that runs it, where kubectl says goVersion. */
  nodeVersion: string
  /** GOOS/GOARCH as kubectl spells them: linux/amd64, darwin/arm64. */
  platform: string
}

export interface VersionInfo {
  clientVersion: ClientVersion
  serverVersion?: ServerVersion
}

/** Node's names for the platform and architecture, in Go's spelling (runtime.GOOS/GOARCH). */
export function goPlatform(platform: string, arch: string): string {
  const os = platform === 'win32' ? 'windows' : platform
  const a = ({x64: 'amd64', ia32: '386', arm64: 'arm64', arm: 'arm', ppc64: 'ppc64le', s390x: 's390x'} as Record<string, string>)[arch] ?? arch
  return `${os}/${a}`
}

/** The client's version from the package's: 0.1.0 → major 0, minor 1, gitVersion v0.1.0. */
export function clientVersion(version: string, node: string, platform: string): ClientVersion {
  const [major = '', minor = ''] = version.split('.')
  return {major, minor, gitVersion: `v${version}`, nodeVersion: node, platform}
}

export default class Version extends WhyCommand {
  static override summary = "Print the client and server version information (as kubectl's version)."
  static override description = `The client's version, then the server's: the cluster of the current context (its /version),
or with -f the version the dump records — or, when it records none, the one its contents imply, which the output says.
--client prints the client's alone and reads nothing.`

  static override examples = [
    {description: "The client's and the current cluster's", command: '<%= config.bin %> version'},
    {description: 'The version a dump was captured from, as JSON', command: '<%= config.bin %> version -f incident.json.gz -o json'},
    {description: "The client's alone", command: '<%= config.bin %> version --client'},
  ]

  static override flags = {
    client: Flags.boolean({description: 'If true, shows client version only (no server required).', default: false}),
    output: Flags.option({char: 'o', options: ['json', 'yaml'] as const, description: "One of 'yaml' or 'json'.", helpGroup: 'OUTPUT'})(),
    ...connectionFlags,
    ...snapshotFlag,
    debug: outputFlags.debug,
  }

  async run(): Promise<void> {
    const {flags} = await this.parse(Version)
    this.setupOutput(flags)
    const info: VersionInfo = {clientVersion: clientVersion(this.config.version, process.version, goPlatform(process.platform, process.arch))}
    let failure: unknown
    let where: string | undefined
    if (!flags.client) {
      try {
        const source = await this.openSource(flags)
        try {
          info.serverVersion = await source.serverVersion()
          const d = source.describe()
          if (d.mode === 'snapshot') {
            const inferred = info.serverVersion?.inferredFrom
            where = typeof inferred === 'string' ? `inferred from ${inferred}` : `recorded in ${d.file ?? 'the dump'}`
            if (info.serverVersion === undefined) this.stderr(`warning: ${d.file ?? 'the dump'} records no server version, and nothing in it implies one\n`)
          }
        } finally {
          await source.close?.()
        }
      } catch (err) {
        // kubectl prints the client's version before the server's error
        failure = err
      }
    }
    if (flags.output) this.write(formatData(info, flags.output), true)
    else {
      let text = `Client Version: ${info.clientVersion.gitVersion}\n`
      if (info.serverVersion) text += `Server Version: ${info.serverVersion.gitVersion}${where ? ` (${where})` : ''}\n`
      this.write(text)
    }
    if (failure !== undefined) throw failure
  }
}
