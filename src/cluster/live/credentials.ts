// What a kubeconfig context authenticates with and trusts, read before any request as clientcmd does it
// (client_config.go, validation.go; client-go transport.TLSConfigFor): the CA (data wins over file), client
// certificate and key, bearer token (a token file re-read and trimmed, as transport.NewCachedFileTokenSource does),
// basic auth, an exec credential plugin, or an auth provider. A file that cannot be read, a combination client-go
// refuses, or an auth provider this tool does not implement is one line here, not a TLS or 401 error later.
import {readFileSync} from 'node:fs'
import {isIP} from 'node:net'
import {UserError} from '../../errors.js'
import type {TlsSettings} from './connect.js'
import type {Credential} from './credential.js'
import {ExecPlugin} from './exec-credential.js'
import type {ResolvedConfig, UserEntry} from './kubeconfig.js'

export interface Credentials {
  current(): Promise<Credential>
  /** After a 401 answered to `used`: true when a fresh credential was obtained (an exec plugin run again). */
  refresh(used: Credential): Promise<boolean>
  /** For the hint of a 401: what was sent. */
  readonly describe: string
}

const FIX = 'fix the path in the kubeconfig, or pick another --context'

/** A file the kubeconfig names, or one line saying which and why not (clientcmd: "unable to read client-cert ..."). */
export function readNamedFile(path: string, what: string, owner: string): Buffer {
  try {
    return readFileSync(path)
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code
    const why = code === 'ENOENT' ? 'no such file' : code === 'EACCES' ? 'permission denied' : code === 'EISDIR' ? 'is a directory' : (err as Error).message
    throw new UserError(`unable to read ${what} ${path} for ${owner}: ${why}`, FIX)
  }
}

const decode = (data: string) => Buffer.from(data, 'base64')

export function tlsSettings(config: ResolvedConfig, user: UserEntry | undefined): TlsSettings {
  const c = config.cluster
  const owner = `cluster "${clusterName(config)}"`
  const ca = c['certificate-authority-data']
    ? decode(c['certificate-authority-data'])
    : c['certificate-authority']
      ? readNamedFile(c['certificate-authority'], 'certificate-authority', owner)
      : undefined
  const insecure = c['insecure-skip-tls-verify'] === true
  // transport.TLSConfigFor
  if (insecure && ca)
    throw new UserError(
      'specifying a root certificates file with the insecure flag is not allowed',
      `remove certificate-authority or insecure-skip-tls-verify from ${owner} in ${config.origin}`,
    )
  const u = `user "${config.userName}"`
  const cert = user?.['client-certificate-data']
    ? decode(user['client-certificate-data'])
    : user?.['client-certificate']
      ? readNamedFile(user['client-certificate'], 'client-cert', u)
      : undefined
  const key = user?.['client-key-data']
    ? decode(user['client-key-data'])
    : user?.['client-key']
      ? readNamedFile(user['client-key'], 'client-key', u)
      : undefined
  if ((cert === undefined) !== (key === undefined))
    throw new UserError(
      `${u} has a client ${cert ? 'certificate without a key' : 'key without a certificate'}`,
      'set both client-certificate and client-key (or their -data forms)',
    )
  const host = new URL(config.server).hostname.replace(/^\[|\]$/g, '')
  const servername = c['tls-server-name'] || (isIP(host) ? undefined : host)
  return {ca, cert, key, servername, rejectUnauthorized: !insecure}
}

function clusterName(config: ResolvedConfig): string {
  const ctx = config.merged.contexts.find((x) => x.name === config.context)?.context as {cluster?: string} | undefined
  return ctx?.cluster ?? config.context
}

/** A token file, trimmed; client-go re-reads it (the kubelet rotates projected tokens), at most once a minute. */
function fileToken(path: string, owner: string): () => string {
  let cached: {token: string; at: number} | undefined
  return () => {
    const now = Date.now()
    if (!cached || now - cached.at >= 60_000) {
      const token = readNamedFile(path, 'tokenFile', owner).toString('utf8').trim()
      if (token === '') throw new UserError(`read empty token from file "${path}"`, FIX)
      cached = {token, at: now}
    }
    return cached.token
  }
}

const REMOVED_PROVIDERS: Record<string, string> = {
  gcp: 'The gcp auth plugin has been removed: use the "gke-gcloud-auth-plugin" credential plugin (exec) instead, as kubectl 1.26+ requires',
  azure: 'The azure auth plugin has been removed: use the kubelogin credential plugin (https://github.com/Azure/kubelogin) instead, as kubectl 1.26+ requires',
}

/** client-go plugin/pkg/client/auth/oidc: the id-token while it is valid (10 s of slack); refresh is not done here. */
function oidcToken(cfg: Record<string, string>, owner: string): string {
  if (!cfg['idp-issuer-url'])
    throw new UserError(`${owner}: the oidc auth provider must provide idp-issuer-url`, 'fix the kubeconfig user (kubectl refuses it too)')
  if (!cfg['client-id']) throw new UserError(`${owner}: the oidc auth provider must provide client-id`, 'fix the kubeconfig user (kubectl refuses it too)')
  const token = cfg['id-token']
  if (token) {
    const exp = jwtExpiry(token)
    if (exp === undefined) throw new UserError(`${owner}: the oidc id-token is not a valid JWT`, 'log in again with your OIDC helper')
    if (Date.now() + 10_000 < exp * 1000) return token
  }
  if (!cfg['refresh-token'])
    throw new UserError(`${owner}: no valid oidc id-token, and cannot refresh without refresh-token`, 'log in again with your OIDC helper')
  throw new UserError(
    `${owner}: the oidc id-token has expired and kubectl-why does not refresh it (that writes the kubeconfig)`,
    'run any kubectl command once (kubectl refreshes and saves it), then retry; or use an exec credential plugin such as kubelogin',
  )
}

function jwtExpiry(token: string): number | undefined {
  const parts = token.split('.')
  if (parts.length !== 3) return undefined
  try {
    const claims = JSON.parse(Buffer.from(parts[1], 'base64url').toString('utf8')) as {exp?: unknown}
    return typeof claims.exp === 'number' ? claims.exp : undefined
  } catch {
    return undefined
  }
}

/** The credentials of the context's user; every check that needs no request is made here. */
export function credentialsFor(config: ResolvedConfig, tls: TlsSettings, options: {interactive: boolean; env?: NodeJS.ProcessEnv}): Credentials {
  const user = config.user
  const owner = `user "${config.userName}"`
  const cert = tls.cert ? {cert: tls.cert, key: tls.key} : {}
  if (!user) return fixed({}, 'no credentials (the context names no user)', cert)
  const hasToken = Boolean(user.token || user.tokenFile)
  const hasBasic = Boolean(user.username || user.password)
  const provider = user['auth-provider']
  // transport.Config validation (client-go transport/config.go, rest/transport.go)
  if (hasBasic && hasToken) throw new UserError(`${owner}: username/password or bearer token may be set, but not both`, 'fix the kubeconfig user')
  if (user.exec && provider) throw new UserError(`${owner}: execProvider and authProvider cannot be used in combination`, 'fix the kubeconfig user')
  if (user.tokenFile) {
    const read = fileToken(user.tokenFile, owner)
    read() // read now: a missing file is an error before the first request
    return {
      current: async () => ({headers: {Authorization: `Bearer ${read()}`}, generation: 0, ...cert}),
      refresh: async () => false,
      describe: `the token in ${user.tokenFile}`,
    }
  }
  if (user.token) return fixed({Authorization: `Bearer ${user.token}`}, `the token of ${owner}`, cert)
  if (hasBasic)
    return fixed(
      {Authorization: `Basic ${Buffer.from(`${user.username ?? ''}:${user.password ?? ''}`).toString('base64')}`},
      `the username and password of ${owner}`,
      cert,
    )
  if (provider) {
    const name = provider.name ?? ''
    if (REMOVED_PROVIDERS[name]) throw new UserError(`${owner}: ${REMOVED_PROVIDERS[name]}`, 'change the kubeconfig user to an exec plugin')
    if (name !== 'oidc')
      throw new UserError(
        `${owner}: no Auth Provider found for name "${name}"`,
        'kubectl-why knows the oidc auth provider and exec credential plugins; change the kubeconfig user',
      )
    return fixed({Authorization: `Bearer ${oidcToken(provider.config ?? {}, owner)}`}, `the oidc id-token of ${owner}`, cert)
  }
  if (user.exec) {
    const plugin = ExecPlugin.shared(user.exec, config, tls, owner, options)
    return {
      current: async () => {
        const c = await plugin.credential()
        return c.cert ? c : {...c, ...cert}
      },
      refresh: (used) => plugin.refresh(used.generation),
      describe: `the credential from the exec plugin ${user.exec.command}`,
    }
  }
  return fixed({}, `no credentials (${owner} has no token, certificate, exec plugin or auth provider)`, cert)
}

function fixed(headers: Record<string, string>, describe: string, cert: {cert?: Buffer; key?: Buffer}): Credentials {
  const c: Credential = {headers, generation: 0, ...cert}
  return {current: async () => c, refresh: async () => false, describe: cert.cert && !headers.Authorization ? 'the client certificate' : describe}
}
