// The labels each workload's template carries (= its selector), and the labels its controller adds to
// what it creates: pod-template-hash (Deployment → ReplicaSet → Pod), controller-revision-hash and
// pod-template-generation (DaemonSet), controller-revision-hash with the revision's full name,
// statefulset.kubernetes.io/pod-name and apps.kubernetes.io/pod-index (StatefulSet).

export function deploymentSelector(name: string): Record<string, string> {
  return {app: name}
}

export function deploymentTemplateLabels(name: string): Record<string, string> {
  return {app: name, 'app.kubernetes.io/name': name}
}

export function daemonSetTemplateLabels(name: string): Record<string, string> {
  return {'k8s-app': name}
}

export function statefulSetTemplateLabels(name: string): Record<string, string> {
  return {app: name, 'app.kubernetes.io/name': name}
}

export function statefulSetSelector(name: string): Record<string, string> {
  return {app: name}
}

/** base plus extra, as a new object (a copy loop: spreading two objects is slow on the per-pod path). */
export function withLabels(base: Record<string, string>, extra: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {}
  for (const k in base) out[k] = base[k]
  for (const k in extra) out[k] = extra[k]
  return out
}
