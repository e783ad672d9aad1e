import assert from 'node:assert/strict'
import {describe, it} from 'node:test'
import {UserError} from '../../src/errors.js'
import {layoutVersions} from '../../src/hash/layout-data.js'
import {newestLayoutVersion, selectLayoutVersion} from '../../src/hash/versions.js'

describe('layout version selection', () => {
  it('has a layout for every minor from 1.20 to 1.37', () => {
    assert.deepEqual(
      layoutVersions(),
      Array.from({length: 18}, (_, i) => `1.${20 + i}`),
    )
    assert.equal(newestLayoutVersion(), '1.37')
  })

  it('uses the newest layout by default and the exact one when asked', () => {
    assert.deepEqual(selectLayoutVersion(undefined), {version: '1.37'})
    assert.deepEqual(selectLayoutVersion({major: 1, minor: 29}), {version: '1.29'})
  })

  it('uses the newest layout for a newer version, with a warning', () => {
    const c = selectLayoutVersion({major: 1, minor: 40})
    assert.equal(c.version, '1.37')
    assert.equal(c.requested, '1.40')
    assert.match(c.warning ?? '', /1\.40 is newer than the newest struct layout this tool has \(1\.37\); hashing with 1\.37/)
  })

  it('refuses a version older than the oldest layout', () => {
    assert.throws(
      () => selectLayoutVersion({major: 1, minor: 19}),
      (e) => e instanceof UserError && /1\.19 is older than the oldest struct layout this tool has \(1\.20\)/.test(e.message),
    )
  })
})
