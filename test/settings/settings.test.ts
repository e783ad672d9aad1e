// The generic settings parsing: Go durations, the controller-manager command line, feature gates, --controllers.
// The node lifecycle replay's defaults and precedence are test/engine/nodelifecycle/settings.test.ts.
import assert from 'node:assert/strict'
import {readFileSync} from 'node:fs'
import {describe, it} from 'node:test'
import {parse} from 'yaml'
import type {KubeObject} from '../../src/cluster/source.js'
import {formatGoDuration, parseGoDuration} from '../../src/settings/go-duration.js'
import {controllerEnabled, controllerManagerArgs, parseCommandLine, parseFeatureGates} from '../../src/settings/kcm.js'

const kindPod = parse(readFileSync(new URL('../fixtures/nodelifecycle/kcm-pod-kind-1.33.yaml', import.meta.url), 'utf8')) as KubeObject

describe('Go durations', () => {
  it('parses the forms kube-controller-manager accepts', () => {
    assert.equal(parseGoDuration('40s'), 40_000)
    assert.equal(parseGoDuration('1m0s'), 60_000)
    assert.equal(parseGoDuration('1.5h'), 5_400_000)
    assert.equal(parseGoDuration('300ms'), 300)
    assert.equal(parseGoDuration('0'), 0)
    assert.equal(parseGoDuration('40'), undefined)
    assert.equal(parseGoDuration('4 0s'), undefined)
  })
  it('prints as Go does', () => {
    assert.equal(formatGoDuration(50_000), '50s')
    assert.equal(formatGoDuration(60_000), '1m0s')
    assert.equal(formatGoDuration(5_400_000), '1h30m0s')
  })
})

describe('kube-controller-manager command line', () => {
  it('reads the kind 1.33 static pod: flags and --controllers', () => {
    const args = controllerManagerArgs([kindPod])!
    assert.equal(args.pod, 'kube-controller-manager-troubleshoot-test-control-plane')
    assert.equal(args.flags.get('controllers'), '*,bootstrapsigner,tokencleaner')
    assert.equal(args.flags.get('leader-elect'), 'true')
    assert.equal(args.flags.has('node-monitor-grace-period'), false)
  })
  it('takes --flag value as well as --flag=value', () => {
    assert.deepEqual(
      [...parseCommandLine(['kcm', '--node-monitor-grace-period', '20s', '--v=2', '--profiling'])],
      [
        ['node-monitor-grace-period', '20s'],
        ['v', '2'],
        ['profiling', 'true'],
      ],
    )
  })
  it('reports pods whose flags differ', () => {
    const other = structuredClone(kindPod) as {metadata: {name: string}; spec: {containers: {command: string[]}[]}}
    other.metadata.name = 'kube-controller-manager-b'
    other.spec.containers[0].command.push('--node-monitor-grace-period=20s')
    assert.deepEqual(controllerManagerArgs([kindPod, other as KubeObject])!.differingPods, ['kube-controller-manager-troubleshoot-test-control-plane'])
  })
  it('feature gates', () => {
    assert.deepEqual(
      [...parseFeatureGates('A=true,B=false')!],
      [
        ['A', true],
        ['B', false],
      ],
    )
    assert.equal(parseFeatureGates('A'), undefined)
  })
  it('--controllers: first mention wins, "*" enables the default-on ones, old alias accepted', () => {
    assert.equal(controllerEnabled(['*'], 'taint-eviction-controller'), true)
    assert.equal(controllerEnabled(['*', '-taint-eviction-controller'], 'taint-eviction-controller'), false)
    assert.equal(controllerEnabled(['taint-eviction-controller', '-taint-eviction-controller'], 'taint-eviction-controller'), true)
    assert.equal(controllerEnabled(['bootstrapsigner'], 'node-lifecycle-controller'), false)
    assert.equal(controllerEnabled(['-nodelifecycle', '*'], 'node-lifecycle-controller'), false)
  })
})
