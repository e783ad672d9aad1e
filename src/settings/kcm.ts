// Finding kube-controller-manager's flags: its static (mirror) pod in kube-system, when the cluster shows one
// (kubeadm, kind, k3s-free clusters; managed control planes do not).
import type {KubeObject} from '../cluster/source.js'
import {compareStrings} from '../util/compare.js'

export interface ControllerManagerArgs {
  pod: string
  flags: Map<string, string>
  /** Other kube-controller-manager pods whose flags differ (HA control planes mid-upgrade). */
  differingPods: string[]
}

interface PodShape {
  metadata?: {name?: string; labels?: Record<string, string>}
  spec?: {containers?: {name?: string; command?: string[]; args?: string[]}[]}
}

export function isControllerManagerPod(obj: KubeObject): boolean {
  const p = obj as PodShape
  return p.metadata?.labels?.component === 'kube-controller-manager' || (p.metadata?.name ?? '').startsWith('kube-controller-manager')
}

/** --flag=value and --flag value (a following token that is not itself a flag); bare --flag means "true". */
export function parseCommandLine(tokens: readonly string[]): Map<string, string> {
  const flags = new Map<string, string>()
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]
    if (!t.startsWith('--')) continue
    const eq = t.indexOf('=')
    if (eq > 0) flags.set(t.slice(2, eq), t.slice(eq + 1))
    else if (i + 1 < tokens.length && !tokens[i + 1].startsWith('-')) flags.set(t.slice(2), tokens[++i])
    else flags.set(t.slice(2), 'true')
  }
  return flags
}

function argsOf(p: PodShape): string[] {
  const containers = p.spec?.containers ?? []
  const c = containers.find((x) => x.name === 'kube-controller-manager') ?? containers[0]
  return [...(c?.command ?? []), ...(c?.args ?? [])]
}

export function controllerManagerArgs(pods: readonly KubeObject[]): ControllerManagerArgs | undefined {
  const candidates = pods.filter(isControllerManagerPod).sort((a, b) => compareStrings(a.metadata?.name ?? '', b.metadata?.name ?? ''))
  if (candidates.length === 0) return undefined
  const [first, ...rest] = candidates.map((p) => ({pod: p.metadata?.name ?? '', flags: parseCommandLine(argsOf(p as PodShape))}))
  const same = (a: Map<string, string>, b: Map<string, string>) => a.size === b.size && [...a].every(([k, v]) => b.get(k) === v)
  return {pod: first.pod, flags: first.flags, differingPods: rest.filter((r) => !same(r.flags, first.flags)).map((r) => r.pod)}
}

/** --feature-gates=A=true,B=false */
export function parseFeatureGates(text: string): Map<string, boolean> | undefined {
  const out = new Map<string, boolean>()
  for (const part of text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const m = /^([A-Za-z0-9]+)=(true|false)$/i.exec(part)
    if (!m) return undefined
    out.set(m[1], m[2].toLowerCase() === 'true')
  }
  return out
}

/** Controller names and their pre-1.28 aliases. */
const ALIASES: Record<string, string[]> = {
  'node-lifecycle-controller': ['nodelifecycle'],
  'taint-eviction-controller': [],
}

/**
 * IsControllerEnabled (cmd/kube-controller-manager/app/controllermanager.go): the first entry naming the
 * controller (or "-name") decides; otherwise "*" enables controllers that are on by default (both of ours are).
 */
export function controllerEnabled(controllers: readonly string[], name: string): boolean {
  const names = [name, ...(ALIASES[name] ?? [])]
  let star = false
  for (const c of controllers) {
    if (names.includes(c)) return true
    if (names.some((n) => c === `-${n}`)) return false
    if (c === '*') star = true
  }
  return star
}

/**
 * --terminated-pod-gc-threshold (PodGCControllerConfiguration.TerminatedPodGCThreshold): PodGC's gcTerminated bound,
 * from the controller-manager's command line when the data shows its pod. threshold undefined: not on the command
 * line (or not a whole number), so the caller's default applies; from says which, for the reader.
 */
export function terminatedPodGcThreshold(args: ControllerManagerArgs | undefined): {threshold?: number; from: string} {
  const flag = 'terminated-pod-gc-threshold'
  if (!args) return {from: 'the default: no kube-controller-manager pod is visible in kube-system, so its flags are not in the data'}
  const text = args.flags.get(flag)
  if (text === undefined) return {from: `the default: kube-system/${args.pod} does not set --${flag}`}
  const n = /^[+-]?\d+$/.test(text.trim()) ? Number(text) : Number.NaN
  if (!Number.isSafeInteger(n)) return {from: `the default: kube-system/${args.pod} --${flag}=${text} is not a whole number`}
  return {threshold: n, from: `kube-controller-manager pod kube-system/${args.pod} --${flag}`}
}
