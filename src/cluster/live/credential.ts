// The credential a request carries, whichever way it was obtained (kubeconfig fields, credentials.ts; an exec
// plugin, exec-credential.ts): its own module, so that neither of those two imports the other for it.

/** One credential as sent: headers, and a client certificate when it carries one. */
export interface Credential {
  headers: Record<string, string>
  cert?: Buffer
  key?: Buffer
  /** Changes when the credential does: agents are kept per client certificate. */
  generation: number
}
