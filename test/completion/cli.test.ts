// Completion end to end: the __complete protocol from the built CLI, the bash script in a real bash, and kubectl's
// own plugin completion (kubectl 1.26+ runs kubectl_complete-why) with the real kubectl on this machine.
import assert from 'node:assert/strict'
import {spawnSync} from 'node:child_process'
import {mkdtempSync, readFileSync, symlinkSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {describe, it} from 'node:test'
import {fileURLToPath} from 'node:url'
import {runCli} from '../support/cli.js'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))
const EXAMPLE = 'examples/node-zone-outage.json'
/** The nodes of the example whose names start with worker-c, read from the file itself. */
const WORKER_C = (JSON.parse(readFileSync(join(ROOT, EXAMPLE), 'utf8')).items as {kind: string; metadata: {name: string}}[])
  .filter((o) => o.kind === 'Node' && o.metadata.name.startsWith('worker-c'))
  .map((o) => o.metadata.name)
  .sort()

/** A PATH holding kubectl-why and kubectl_complete-why, as an install puts them. */
function pluginPath(): string {
  const dir = mkdtempSync(join(tmpdir(), 'why-plugin-'))
  symlinkSync(join(ROOT, 'bin/run.js'), join(dir, 'kubectl-why'))
  symlinkSync(join(ROOT, 'bin/kubectl_complete-why'), join(dir, 'kubectl_complete-why'))
  return `${dir}:${process.env.PATH}`
}

const env = {NO_COLOR: '1', KUBECONFIG: '/nonexistent/kubeconfig', HOME: '/nonexistent-home'}
const kubectl = spawnSync('kubectl', ['version', '--client'], {encoding: 'utf8'})

describe('shell completion', () => {
  it("answers cobra's __complete with the dump's node names and NoFileComp", async () => {
    assert.ok(WORKER_C.length > 0)
    const r = await runCli(['__complete', 'node', '-f', EXAMPLE, 'worker-c'], {cwd: ROOT})
    assert.equal(r.code, 0, r.stderr)
    assert.deepEqual(r.stdout.trim().split('\n'), [...WORKER_C, ':4'])
  })

  it('completes in bash through the script `completion bash` prints', () => {
    const script = `source <(kubectl-why completion bash); COMP_WORDS=(kubectl-why node -f ${EXAMPLE} worker-c); COMP_CWORD=4; _kubectl_why; printf '%s\\n' "\${COMPREPLY[@]}"`
    const r = spawnSync('bash', ['-c', script], {cwd: ROOT, encoding: 'utf8', env: {...process.env, ...env, PATH: pluginPath()}})
    assert.equal(r.status, 0, r.stderr)
    assert.deepEqual(r.stdout.trim().split('\n').sort(), WORKER_C)
  })

  const has = (shell: string) => spawnSync(shell, ['-c', 'true']).status === 0
  it('completes in zsh through the script `completion zsh` prints (bashcompinit)', {
    skip: has('zsh') ? false : 'no zsh on this machine (.ci/run installs it): the zsh script is not checked',
  }, () => {
    const script = `autoload -U compinit && compinit -u; source <(kubectl-why completion zsh); COMP_WORDS=(kubectl-why node -f ${EXAMPLE} worker-c); COMP_CWORD=4; _kubectl_why; print -l $COMPREPLY`
    const r = spawnSync('zsh', ['-c', script], {cwd: ROOT, encoding: 'utf8', env: {...process.env, ...env, PATH: pluginPath()}})
    assert.equal(r.status, 0, r.stderr)
    assert.deepEqual(r.stdout.trim().split('\n').sort(), WORKER_C)
  })

  it('completes in fish through the script `completion fish` prints', {
    skip: has('fish') ? false : 'no fish on this machine (.ci/run installs it): the fish script is not checked',
  }, () => {
    const script = `kubectl-why completion fish | source; complete -C 'kubectl-why node -f ${EXAMPLE} worker-c'`
    const r = spawnSync('fish', ['-c', script], {cwd: ROOT, encoding: 'utf8', env: {...process.env, ...env, PATH: pluginPath()}})
    assert.equal(r.status, 0, r.stderr)
    assert.deepEqual(r.stdout.trim().split('\n').sort(), WORKER_C)
  })

  it("completes `kubectl why …` through kubectl's plugin completion", {
    skip: kubectl.status === 0 ? false : "no kubectl on this machine: kubectl's plugin completion is not checked",
  }, () => {
    const r = spawnSync('kubectl', ['__complete', 'why', 'node', '-f', EXAMPLE, 'worker-c'], {
      cwd: ROOT,
      encoding: 'utf8',
      env: {...process.env, ...env, PATH: pluginPath()},
    })
    assert.equal(r.status, 0, r.stderr)
    assert.deepEqual(r.stdout.trim().split('\n'), [...WORKER_C, ':4'])
  })
})
