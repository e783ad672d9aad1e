// The node lifecycle replay's settings: release defaults and precedence (our flag > kube-controller-manager pod >
// release default). Defaults per the decisions document §9.
import assert from 'node:assert/strict'
import {readFileSync} from 'node:fs'
import {describe, it} from 'node:test'
import {parse} from 'yaml'
import type {KubeObject} from '../../../src/cluster/source.js'
import {versionDefaults} from '../../../src/engine/nodelifecycle/defaults.js'
import {resolveSettings} from '../../../src/engine/nodelifecycle/settings.js'
import {UserError} from '../../../src/errors.js'
import {controllerManagerArgs} from '../../../src/settings/kcm.js'

const kindPod = parse(readFileSync(new URL('../../fixtures/nodelifecycle/kcm-pod-kind-1.33.yaml', import.meta.url), 'utf8')) as KubeObject
const v = (minor: number) => ({major: 1, minor, from: 'server' as const, text: `1.${minor}`})

describe('release defaults', () => {
  it('--node-monitor-grace-period: 40s before 1.32, 50s from 1.32', () => {
    assert.equal(versionDefaults({major: 1, minor: 31}).nodeMonitorGracePeriod, 40_000)
    assert.equal(versionDefaults({major: 1, minor: 32}).nodeMonitorGracePeriod, 50_000)
  })
  it('lease circuit breaker on by default from 1.37', () => {
    assert.equal(versionDefaults({major: 1, minor: 36}).gates.NodeControllerLeaseCircuitBreaker, false)
    assert.equal(versionDefaults({major: 1, minor: 37}).gates.NodeControllerLeaseCircuitBreaker, true)
  })
  // Expected from the release notes, not the code: PR #120816 ("Reduce 5s delay of tainting
  // node.kubernetes.io/unreachable:NoExecute when a Node becomes unreachable") is listed in CHANGELOG-1.34.md under
  // v1.34.0-alpha.1, "Changelog since v1.33.0"; no other CHANGELOG carries it.
  it('processTaintBaseEviction is given the current Ready condition from 1.34 (PR #120816), the observed one before', () => {
    assert.equal(versionDefaults({major: 1, minor: 33}).taintOnCurrentReady, false)
    assert.equal(versionDefaults({major: 1, minor: 34}).taintOnCurrentReady, true)
    assert.equal(versionDefaults({major: 1, minor: 37}).taintOnCurrentReady, true)
  })
  it('the settings block says where the taint-on-current-ready default comes from', () => {
    const r33 = resolveSettings({version: v(33), overrides: {}})
    assert.equal(r33.described['taint-on-current-ready'].value, false)
    assert.match(r33.described['taint-on-current-ready'].from, /from 1\.34 \(PR #120816/)
    assert.doesNotMatch(r33.described['taint-on-current-ready'].from, /uncertain/)
    assert.equal(resolveSettings({version: v(34), overrides: {}}).described['taint-on-current-ready'].value, true)
  })
})

describe('resolveSettings precedence', () => {
  const kcm = controllerManagerArgs([kindPod])!
  it('defaults for the version, saying so; the pod is named as the source of --controllers', () => {
    const r = resolveSettings({version: v(33), kcm, overrides: {}})
    assert.equal(r.settings.nodeMonitorGracePeriod, 50_000)
    assert.equal(r.described['node-monitor-grace-period'].value, '50s')
    assert.match(r.described['node-monitor-grace-period'].from, /default for Kubernetes 1\.33/)
    assert.match(r.described.controllers.from, /kube-controller-manager pod kube-system\/kube-controller-manager-troubleshoot-test-control-plane --controllers/)
    assert.equal(r.settings.leaseCircuitBreaker, false)
    assert.equal(r.settings.taintEvictionEnabled, true)
  })
  it('the pod overrides defaults, our flag overrides the pod', () => {
    const withFlag = structuredClone(kcm)
    withFlag.flags.set('node-monitor-grace-period', '20s')
    assert.equal(resolveSettings({version: v(33), kcm: withFlag, overrides: {}}).settings.nodeMonitorGracePeriod, 20_000)
    const r = resolveSettings({version: v(33), kcm: withFlag, overrides: {'node-monitor-grace-period': '1m'}})
    assert.equal(r.settings.nodeMonitorGracePeriod, 60_000)
    assert.equal(r.described['node-monitor-grace-period'].from, '--node-monitor-grace-period (our flag)')
  })
  it('a bad value of ours is a UserError; a bad value on the pod is a reported problem and the default is used', () => {
    assert.throws(() => resolveSettings({version: v(33), overrides: {'node-eviction-rate': '-1'}}), UserError)
    assert.throws(() => resolveSettings({version: v(33), overrides: {'unhealthy-zone-threshold': '1.5'}}), UserError)
    assert.throws(() => resolveSettings({version: v(33), overrides: {'node-monitor-grace-period': '40'}}), UserError)
    const bad = structuredClone(kcm)
    bad.flags.set('node-eviction-rate', 'fast')
    const r = resolveSettings({version: v(33), kcm: bad, overrides: {}})
    assert.equal(r.settings.nodeEvictionRate, 0.1)
    assert.equal(r.problems.length, 1)
  })
  it('feature gates and controllers from our flags', () => {
    const r = resolveSettings({
      version: v(37),
      overrides: {'feature-gates': 'NodeControllerLeaseCircuitBreaker=false', controllers: '*,-taint-eviction-controller'},
    })
    assert.equal(r.settings.leaseCircuitBreaker, false)
    assert.equal(r.settings.taintEvictionEnabled, false)
    assert.equal(resolveSettings({version: v(37), overrides: {}}).settings.leaseCircuitBreaker, true)
  })
  it('without the separate controller (gate off, 1.29-1.33) NoExecute taints are enforced by the node lifecycle controller', () => {
    const r = resolveSettings({
      version: v(30),
      overrides: {'feature-gates': 'SeparateTaintEvictionController=false', controllers: '*,-taint-eviction-controller'},
    })
    assert.equal(r.settings.taintEvictionEnabled, true)
  })
  it('an unknown version uses the newest modelled release and says so', () => {
    const r = resolveSettings({overrides: {}})
    assert.equal(r.version.text, '1.37')
    assert.match(r.described['node-monitor-grace-period'].from, /unknown server version/)
  })
})
