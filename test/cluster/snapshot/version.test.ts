// One version for a run, inferred from the data when none is recorded: release tags under every registry's and
// distribution's naming, the apiserver's image before the controller-manager's, the newest kubelet as a lower bound.
// Expected values are the tags read by hand (what each distribution's /version prints for them).
import assert from 'node:assert/strict'
import {test} from 'node:test'
import type {KubeObject} from '../../../src/cluster/source.js'
import {chooseVersion, inferServerVersion, versionOfTag} from '../../../src/cluster/version.js'

test('release tags of every distribution', () => {
  const cases: [string, string | undefined][] = [
    ['v1.31.4', 'v1.31.4'],
    ['v1.33.5-rke2r1-build20250910', 'v1.33.5+rke2r1'], // RKE2 image; its /version says v1.33.5+rke2r1
    ['v1.33.5+k3s1', 'v1.33.5+k3s1'],
    ['v1.30.4-eks-a737599', 'v1.30.4-eks-a737599'],
    ['v1.30.5-gke.1014001', 'v1.30.5-gke.1014001'],
    ['v1.18.3-rancher1', 'v1.18.3-rancher1'],
    ['latest', undefined],
    ['3.9', undefined],
    ['v2.0.0', undefined],
  ]
  for (const [tag, git] of cases) assert.equal(versionOfTag(tag)?.gitVersion, git, tag)
})

const staticPod = (name: string, image: string, container = name.replace(/-cp-1$/, ''), labels: Record<string, string> = {}): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: {name, namespace: 'kube-system', labels},
  spec: {containers: [{name: container, image}]},
})
const node = (name: string, kubelet: string): KubeObject => ({apiVersion: 'v1', kind: 'Node', metadata: {name}, status: {nodeInfo: {kubeletVersion: kubelet}}})

test('the apiserver static pod, under any registry and naming, wins over the controller-manager and the kubelets', () => {
  const kcm = staticPod('kube-controller-manager-cp-1', 'registry.k8s.io/kube-controller-manager:v1.30.2')
  for (const [pod, git] of [
    [staticPod('kube-apiserver-cp-1', 'registry.k8s.io/kube-apiserver:v1.31.4'), 'v1.31.4'],
    [staticPod('kube-apiserver-cp-1', 'k8s.gcr.io/kube-apiserver-amd64:v1.15.0'), 'v1.15.0'],
    [staticPod('kube-apiserver-cp-1', 'gcr.io/google-containers/hyperkube:v1.14.0', 'kube-apiserver'), 'v1.14.0'],
    [
      staticPod('kube-apiserver-cp-1', 'my-mirror.example:5000/rancher/hardened-kubernetes:v1.33.5-rke2r1-build20250910@sha256:0123', 'kube-apiserver'),
      'v1.33.5+rke2r1',
    ],
    // A container named otherwise: the pod's component label says what it runs.
    [staticPod('apiserver-x', 'example.org/k8s/apiserver-image:v1.29.1', 'server', {component: 'kube-apiserver'}), 'v1.29.1'],
  ] as const) {
    const v = inferServerVersion([kcm, pod], [node('n1', 'v1.32.0')])
    assert.equal(v?.gitVersion, git, String((pod.spec as {containers: {image: string}[]}).containers[0].image))
    assert.match(String(v?.inferredFrom), /^image of kube-apiserver pod kube-system\//)
  }
  assert.equal(inferServerVersion([kcm], [])?.gitVersion, 'v1.30.2')
})

test('no control-plane pod: the newest kubelet, as a lower bound (k3s, EKS and GKE hide their apiservers)', () => {
  const v = inferServerVersion([], [node('a', 'v1.30.4-eks-a737599'), node('b', 'v1.31.1-eks-1'), node('c', 'v1.31.0-eks-2')])
  assert.equal(v?.gitVersion, 'v1.31.1-eks-1')
  assert.match(String(v?.inferredFrom), /^at least the newest kubelet's: node b runs v1\.31\.1-eks-1/)
  const chosen = chooseVersion(undefined, v)
  assert.deepEqual({from: chosen?.from, text: chosen?.text}, {from: 'inferred', text: '1.31'})
  assert.equal(inferServerVersion([], [node('k', 'v1.33.5+k3s1')])?.gitVersion, 'v1.33.5+k3s1')
  assert.equal(inferServerVersion([], []), undefined)
})

test('chooseVersion keeps its signature: the flag first, a recorded /version is "server"', () => {
  assert.equal(chooseVersion({major: 1, minor: 29}, {major: '1', minor: '31', gitVersion: 'v1.31.2'})?.from, 'flag')
  assert.equal(chooseVersion(undefined, {major: '1', minor: '31', gitVersion: 'v1.31.2'})?.from, 'server')
})
