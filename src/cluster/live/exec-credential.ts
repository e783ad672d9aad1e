// Exec credential plugins as client-go runs them (client-go/plugin/pkg/client/auth/exec/exec.go): the ExecCredential
// protocol in client.authentication.k8s.io/v1 and v1beta1, the plugin's env and args on top of this process's
// environment, KUBERNETES_EXEC_INFO with spec.interactive (and spec.cluster when provideClusterInfo), stdin handed
// over only when interactive, stderr passed through. The credential is kept for the whole process until its
// expirationTimestamp, shared by every request (kubectl runs the plugin once per command), and the plugin is run
// again when the server answers 401 to the credential it gave.
import {UserError} from '../../errors.js'
import type {TlsSettings} from './connect.js'
import type {Credential} from './credential.js'
import type {ExecConfig, ResolvedConfig} from './kubeconfig.js'

const VERSIONS = new Set(['client.authentication.k8s.io/v1', 'client.authentication.k8s.io/v1beta1'])
const MODES = new Set(['Never', 'IfAvailable', 'Always'])

interface ExecCredentialStatus {
  token?: string
  clientCertificateData?: string
  clientKeyData?: string
  expirationTimestamp?: string
}

export interface ExecOptions {
  /** Whether stdin is a terminal (interactiveMode IfAvailable / Always). */
  interactive: boolean
  env?: NodeJS.ProcessEnv
}

export class ExecPlugin {
  private static readonly cache = new Map<string, ExecPlugin>()
  private held: (Credential & {expires?: number}) | undefined
  private running: Promise<Credential> | undefined
  private generation = 0
  /** How many times the plugin ran in this process (tests and the bench count it). */
  runs = 0

  private constructor(
    private readonly exec: ExecConfig,
    private readonly cluster: Record<string, unknown> | undefined,
    private readonly owner: string,
    private readonly options: ExecOptions,
  ) {}

  /** One plugin per distinct configuration for the whole process, as client-go's authenticator cache keys it. */
  static shared(exec: ExecConfig, config: ResolvedConfig, tls: TlsSettings, owner: string, options: ExecOptions): ExecPlugin {
    validate(exec, owner)
    const cluster = exec.provideClusterInfo ? clusterInfo(config, tls) : undefined
    const key = JSON.stringify([exec, cluster, options.interactive])
    const known = ExecPlugin.cache.get(key)
    if (known) return known
    const p = new ExecPlugin(exec, cluster, owner, options)
    ExecPlugin.cache.set(key, p)
    return p
  }

  async credential(): Promise<Credential> {
    if (this.held && (this.held.expires === undefined || Date.now() < this.held.expires)) return this.held
    this.running ??= this.run().finally(() => {
      this.running = undefined
    })
    return this.running
  }

  /** A 401 to the credential of `generation`: run the plugin again unless another request already did. */
  async refresh(generation: number): Promise<boolean> {
    if (generation === this.generation) {
      this.held = undefined
      await this.credential()
    }
    return generation !== this.generation
  }

  private interactive(): boolean {
    const mode = this.exec.interactiveMode ?? 'IfAvailable'
    if (mode === 'Never') return false
    if (mode === 'Always' && !this.options.interactive)
      throw new UserError(
        `exec plugin ${this.exec.command} cannot run: interactiveMode is Always but standard input is not a terminal`,
        'run from a terminal, or change interactiveMode in the kubeconfig user',
      )
    return this.options.interactive
  }

  private async run(): Promise<Credential> {
    const command = this.exec.command!
    const interactive = this.interactive()
    const info = {kind: 'ExecCredential', apiVersion: this.exec.apiVersion, spec: {...(this.cluster ? {cluster: this.cluster} : {}), interactive}}
    const env: NodeJS.ProcessEnv = {...(this.options.env ?? process.env)}
    for (const e of this.exec.env ?? []) env[e.name] = e.value
    env.KUBERNETES_EXEC_INFO = JSON.stringify(info)
    this.runs++
    // Loaded here, not at the top: a run whose credentials need no plugin does not load child_process for it.
    const {spawn} = await import('node:child_process')
    const {code, stdout, error} = await new Promise<{code: number | null; stdout: string; error?: NodeJS.ErrnoException}>((resolve) => {
      const child = spawn(command, this.exec.args ?? [], {env, stdio: [interactive ? 'inherit' : 'ignore', 'pipe', 'inherit']})
      const out: Buffer[] = []
      child.stdout!.on('data', (d: Buffer) => out.push(d))
      child.on('error', (e: NodeJS.ErrnoException) => resolve({code: null, stdout: '', error: e}))
      child.on('close', (c) => resolve({code: c, stdout: Buffer.concat(out).toString('utf8')}))
    })
    if (error) {
      if (error.code === 'ENOENT') {
        throw new UserError(
          `exec: executable ${command} not found (the credential plugin of ${this.owner})`,
          this.exec.installHint
            ? this.exec.installHint.trim().replace(/\s*\n\s*/g, ' ')
            : 'install the client-go credential plugin the kubeconfig names, or fix its command',
        )
      }
      throw new UserError(`exec: ${command}: ${error.message}`, 'check the exec command of the kubeconfig user')
    }
    if (code !== 0) throw new UserError(`exec: executable ${command} failed with exit code ${code}`, 'its own message is above; log in again or fix the plugin')
    const status = this.parse(stdout)
    const expires = status.expirationTimestamp ? Date.parse(status.expirationTimestamp) : undefined
    this.generation++
    this.held = {
      headers: status.token ? {Authorization: `Bearer ${status.token}`} : {},
      cert: status.clientCertificateData ? Buffer.from(status.clientCertificateData) : undefined,
      key: status.clientKeyData ? Buffer.from(status.clientKeyData) : undefined,
      generation: this.generation,
      expires: expires !== undefined && Number.isFinite(expires) ? expires : undefined,
    }
    return this.held
  }

  private parse(stdout: string): ExecCredentialStatus {
    const command = this.exec.command
    let doc: {apiVersion?: string; kind?: string; status?: ExecCredentialStatus}
    try {
      doc = JSON.parse(stdout)
    } catch {
      // Not the parser's message: it quotes the text, and a plugin that prints a bare token would have it echoed to
      // the terminal and CI logs. Only the size is said.
      throw new UserError(
        `exec plugin ${command}: decoding stdout: not JSON (${Buffer.byteLength(stdout)} bytes, not shown: it may be a credential)`,
        'the plugin must print an ExecCredential as JSON (client.authentication.k8s.io), not a bare token',
      )
    }
    if (doc?.kind !== 'ExecCredential')
      throw new UserError(
        `exec plugin ${command}: decoding stdout: ${doc !== null && typeof doc === 'object' && !Array.isArray(doc) ? `kind is ${describeKind(doc.kind)}` : `a JSON ${Array.isArray(doc) ? 'array' : doc === null ? 'null' : typeof doc}, not an object`}, want ExecCredential`,
        'the plugin must print an ExecCredential as JSON',
      )
    if (doc.apiVersion !== this.exec.apiVersion)
      throw new UserError(
        `exec plugin is configured to use API version ${this.exec.apiVersion}, plugin returned version ${doc.apiVersion}`,
        `fix exec.apiVersion of ${this.owner}`,
      )
    const s = doc.status
    if (!s) throw new UserError(`exec plugin ${command} didn't return a status field`, 'the plugin must print an ExecCredential with status')
    const cert = Boolean(s.clientCertificateData)
    if (!s.token && !cert && !s.clientKeyData)
      throw new UserError(`exec plugin ${command} didn't return a token or cert/key pair`, 'log in again or fix the plugin')
    if (cert !== Boolean(s.clientKeyData)) throw new UserError(`exec plugin ${command} returned only certificate or key, not both`, 'fix the plugin')
    return s
  }
}

/** clientcmd validation.go validateAuthInfo, for the exec part. */
function validate(exec: ExecConfig, owner: string): void {
  if (!exec.command) throw new UserError(`command must be specified for ${owner} to use exec authentication plugin`, 'fix the kubeconfig user')
  if (!exec.apiVersion) throw new UserError(`apiVersion must be specified for ${owner} to use exec authentication plugin`, 'fix the kubeconfig user')
  if (!VERSIONS.has(exec.apiVersion))
    throw new UserError(`exec plugin of ${owner}: invalid apiVersion "${exec.apiVersion}"`, 'use client.authentication.k8s.io/v1 or v1beta1')
  if (exec.interactiveMode === undefined && exec.apiVersion === 'client.authentication.k8s.io/v1') {
    throw new UserError(
      `interactiveMode must be specified for ${owner} to use exec authentication plugin`,
      'set exec.interactiveMode (Never, IfAvailable or Always)',
    )
  }
  if (exec.interactiveMode !== undefined && !MODES.has(exec.interactiveMode))
    throw new UserError(`invalid interactiveMode for ${owner}: ${exec.interactiveMode}`, 'use Never, IfAvailable or Always')
}

/** ExecCredential spec.cluster (clientauthentication Cluster): what the plugin may need to know of the server. */
function clusterInfo(config: ResolvedConfig, tls: TlsSettings): Record<string, unknown> {
  const c = config.cluster
  const ext = c.extensions?.find((e) => e.name === 'client.authentication.k8s.io/exec')?.extension
  const out: Record<string, unknown> = {server: c.server}
  if (c['tls-server-name']) out['tls-server-name'] = c['tls-server-name']
  if (c['insecure-skip-tls-verify']) out['insecure-skip-tls-verify'] = true
  if (tls.ca) out['certificate-authority-data'] = tls.ca.toString('base64')
  if (c['proxy-url']) out['proxy-url'] = c['proxy-url']
  if (c['disable-compression']) out['disable-compression'] = true
  // Cluster.Config is a RawExtension without omitempty: kubectl sends "config": null when there is no extension.
  out.config = ext ?? null
  return out
}

/** A kind that is not ExecCredential, said without echoing a long value (it could be a credential). */
function describeKind(kind: unknown): string {
  if (kind === undefined) return 'missing'
  if (typeof kind === 'string' && /^[A-Za-z][A-Za-z0-9]{0,62}$/.test(kind)) return JSON.stringify(kind)
  return `not a kind name (${typeof kind})`
}
