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
  if (config.clusterName !== undefined) return config.clusterName
  const ctx = config.merged.contexts.find((x) => x.name === config.context)?.context as {cluster?: string} | undefined
  return ctx?.cluster ?? config.context
}

/**
 * A token file as client-go reads it (transport/token_source.go v0.32.4, NewCachedFileTokenSource:69 and
 * fileTokenSource.Token:134): trimmed, an empty one refused, kept a minute less 10 s of leeway, then read again (the
 * kubelet rotates projected tokens); a read that fails once a token was read keeps that token (cachingTokenSource.
 * Token:180, "Unable to rotate token"). Returns undefined, or throws with `strict`, when no token could be read yet.
 */
function fileToken(path: string, owner: string, clock: () => number = Date.now): (strict: boolean) => string | undefined {
  let cached: {token: string; at: number} | undefined
  return (strict) => {
    const now = clock()
    if (!cached || now - cached.at >= 60_000 - 10_000) {
      let token: string | undefined
      try {
        token = readNamedFile(path, 'tokenFile', owner).toString('utf8').trim()
        if (token === '') throw new UserError(`read empty token from file "${path}"`, FIX)
      } catch (err) {
        if (cached) return cached.token
        if (strict) throw err
        return undefined
      }
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
    // clientcmd client_config.go v0.32.4 getUserIdentificationPartialConfig:277-287: with a token, the file is not read
    // up front (a missing one is no error); without one it is, and its error ends the run. Then every request
    // (round_trippers.go bearerAuthRoundTripper.RoundTrip:317-322) sends the file's token when the file can be read,
    // else the kubeconfig's token.
    const read = fileToken(user.tokenFile, owner)
    const fallback = user.token || undefined
    if (!fallback) read(true) // read now: a missing file is an error before the first request
    return {
      current: async () => ({headers: {Authorization: `Bearer ${read(!fallback) ?? fallback}`}, generation: 0, ...cert}),
      refresh: async () => false,
      describe: fallback ? `the token in ${user.tokenFile}, else the token of ${owner}` : `the token in ${user.tokenFile}`,
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

/** --as, --as-uid and --as-group (clientcmd overrides.go FlagImpersonate, FlagImpersonateUID, FlagImpersonateGroup). */
export interface ImpersonationFlags {
  user?: string
  uid?: string
  groups?: string[]
}

// client-go transport/round_trippers.go: the header names, and legalHeaderKeyBytes (net/http's token characters).
export const IMPERSONATE_USER = 'Impersonate-User'
export const IMPERSONATE_UID = 'Impersonate-Uid'
export const IMPERSONATE_GROUP = 'Impersonate-Group'
export const IMPERSONATE_EXTRA_PREFIX = 'Impersonate-Extra-'
const TOKEN_BYTE = /^[!#$&'*+\-.0-9A-Z^_`a-z|~]$/

/** round_trippers.go headerKeyEscape: every byte of the key's UTF-8 that is not a token character, and '%', as %XX. */
export function headerKeyEscape(key: string): string {
  let out = ''
  for (const b of Buffer.from(key, 'utf8')) {
    const c = String.fromCharCode(b)
    out += b < 0x80 && TOKEN_BYTE.test(c) ? c : `%${b.toString(16).toUpperCase().padStart(2, '0')}`
  }
  return out
}

/**
 * Go's textproto.CanonicalMIMEHeaderKey, which http.Header.Add applies: upper case at the start and after each '-',
 * lower case elsewhere (the key is all token characters here, headerKeyEscape made sure).
 */
function canonicalHeaderKey(key: string): string {
  return key.replace(/[A-Za-z0-9]+/g, (w, at: number) => (at === 0 || key[at - 1] === '-' ? w[0].toUpperCase() + w.slice(1).toLowerCase() : w.toLowerCase()))
}

/**
 * A header value as Go sends it: the string's UTF-8 bytes, each carried by one character (Node writes header text as
 * latin1). A byte Go's transport refuses (a control character but tab: it would split the request) is one line here,
 * as kubectl's "net/http: invalid header field value for ..." is before its first request.
 */
function headerValue(value: string, header: string, from: string): string {
  // httpguts.ValidHeaderFieldValue: no CTL (below 0x20, and 0x7f) but tab.
  if ([...value].some((c) => (c < ' ' && c !== '\t') || c === '\x7f'))
    throw new UserError(`invalid header field value for "${header}" (from ${from}): it holds a control character`, 'fix the value (kubectl refuses it too)')
  return Buffer.from(value, 'utf8').toString('latin1')
}

/**
 * The impersonation headers kubectl sends: the kubeconfig user's as, as-uid, as-groups and as-user-extra, with --as,
 * --as-uid and --as-group over them (client_config.go getAuthInfo merges the overrides over the kubeconfig's entry,
 * a non-empty flag replacing the field, groups as a whole). As in client_config.go ClientConfig, they are sent over
 * http too (kubectl sets Impersonate before it looks at whether the transport is TLS), and only when a user is
 * impersonated (len(Impersonate) > 0); a uid, groups or extra without one is refused, as validation.go
 * validateAuthInfo refuses it. round_trippers.go impersonatingRoundTripper: Impersonate-User, Impersonate-Uid when
 * set, Impersonate-Group once per group, Impersonate-Extra-<escaped key> once per value.
 */
export function impersonationHeaders(config: ResolvedConfig, flags: ImpersonationFlags = {}): Record<string, string | string[]> {
  const entry = config.user ?? {}
  const from = (flag: string, field: string, overridden: boolean) => (overridden ? flag : `${field} of user "${config.userName ?? ''}"`)
  const user = flags.user || entry.as || ''
  const uid = flags.uid || entry['as-uid'] || ''
  const groups = flags.groups?.length ? flags.groups : Array.isArray(entry['as-groups']) ? entry['as-groups'] : []
  const extra = entry['as-user-extra'] && typeof entry['as-user-extra'] === 'object' ? entry['as-user-extra'] : {}
  const hasExtra = Object.keys(extra).length > 0
  if (user === '') {
    if (uid !== '' || groups.length > 0 || hasExtra)
      throw new UserError(
        `requesting uid, groups or user-extra for ${config.userName ?? ''} without impersonating a user`,
        'set as: in the kubeconfig user, or pass --as (kubectl refuses it too)',
      )
    return {}
  }
  const headers: Record<string, string | string[]> = {[IMPERSONATE_USER]: headerValue(user, IMPERSONATE_USER, from('--as', 'as', Boolean(flags.user)))}
  if (uid !== '') headers[IMPERSONATE_UID] = headerValue(uid, IMPERSONATE_UID, from('--as-uid', 'as-uid', Boolean(flags.uid)))
  if (groups.length > 0) {
    const source = from('--as-group', 'as-groups', Boolean(flags.groups?.length))
    headers[IMPERSONATE_GROUP] = groups.map((g) => headerValue(String(g), IMPERSONATE_GROUP, source))
  }
  for (const [key, values] of Object.entries(extra)) {
    const name = canonicalHeaderKey(IMPERSONATE_EXTRA_PREFIX + headerKeyEscape(key))
    const list = (Array.isArray(values) ? values : [values]).map((v) => headerValue(String(v), name, from('', 'as-user-extra', false)))
    if (list.length > 0) headers[name] = list
  }
  return headers
}
