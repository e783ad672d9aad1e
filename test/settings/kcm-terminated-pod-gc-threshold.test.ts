// terminatedPodGcThreshold: --terminated-pod-gc-threshold from the controller-manager's command line, each case by hand.
import assert from 'node:assert/strict'
import {describe, it} from 'node:test'
import {type ControllerManagerArgs, parseCommandLine, terminatedPodGcThreshold} from '../../src/settings/kcm.js'

const args = (tokens: string[]): ControllerManagerArgs => ({pod: 'kcm-cp1', flags: parseCommandLine(tokens), differingPods: []})

describe('terminatedPodGcThreshold', () => {
  it('--flag=value and --flag value', () => {
    assert.deepEqual(terminatedPodGcThreshold(args(['--terminated-pod-gc-threshold=2'])), {
      threshold: 2,
      from: 'kube-controller-manager pod kube-system/kcm-cp1 --terminated-pod-gc-threshold',
    })
    assert.equal(terminatedPodGcThreshold(args(['--terminated-pod-gc-threshold', '0'])).threshold, 0)
  })
  it('unset, not a whole number, or no pod: no threshold, and the reason the default applies', () => {
    assert.deepEqual(terminatedPodGcThreshold(args(['--controllers=*'])), {
      from: 'the default: kube-system/kcm-cp1 does not set --terminated-pod-gc-threshold',
    })
    assert.equal(terminatedPodGcThreshold(args(['--terminated-pod-gc-threshold=1.5'])).threshold, undefined)
    assert.match(terminatedPodGcThreshold(undefined).from, /^the default: no kube-controller-manager pod is visible/)
  })
})
