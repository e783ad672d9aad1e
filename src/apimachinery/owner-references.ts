// Owner references as apimachinery reads them (k8s.io/apimachinery/pkg/apis/meta/v1/controller_ref.go).
import type {OwnerReference} from '../cluster/kube-types.js'

/** metav1.GetControllerOf: the first owner reference with controller=true. */
export function getControllerOf(obj: {metadata?: {ownerReferences?: OwnerReference[]}}): OwnerReference | undefined {
  return (obj.metadata?.ownerReferences ?? []).find((r) => r?.controller === true)
}
