// npm run release: the release archive and the krew plugin manifest built from it.
//   release/kubectl-why-VERSION.tar.gz   the bundle (dist/, bin/, data/, schemas/, the manifest, the man page, LICENSE)
//                                        with a `kubectl-why` shell shim that runs it with Node.js ≥ 20 from PATH
//   release/kubectl-why-VERSION.tar.gz.sha256
//   plugins/why.yaml                     krew's Plugin manifest: that archive's URL and sha256
// The archive is reproducible (sorted names, fixed owner and mtime — SOURCE_DATE_EPOCH, else the last commit's time —,
// gzip without a timestamp), so its sha256 names this build of the sources.
//   node scripts/release.mjs [--no-build] [--out DIR] [--manifest FILE] [--url-base URL]
// --url-base: where the archives are published (default: package.json's repository, as GitHub release assets).
import {spawnSync} from 'node:child_process'
import {createHash} from 'node:crypto'
import {chmodSync, cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {dirname, join, relative} from 'node:path'
import {fileURLToPath} from 'node:url'
import {gzipSync} from 'node:zlib'

const root = fileURLToPath(new URL('..', import.meta.url))
const arg = (name) => {
  const i = process.argv.indexOf(name)
  return i === -1 ? undefined : process.argv[i + 1]
}
const pjson = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))
const version = pjson.version
const out = arg('--out') ?? join(root, 'release')
const manifestFile = arg('--manifest') ?? join(root, 'plugins/why.yaml')

function run(cmd, args, options = {}) {
  const r = spawnSync(cmd, args, {cwd: root, encoding: 'utf8', ...options})
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (${r.status}): ${r.stderr || r.error}`)
  return r.stdout
}

if (!process.argv.includes('--no-build'))
  for (const s of ['build.mjs', 'manifest.mjs', 'man.mjs']) run(process.execPath, [join(root, 'scripts', s)], {stdio: 'inherit'})

function repositoryBase() {
  const repo = typeof pjson.repository === 'string' ? pjson.repository : pjson.repository?.url
  const m = repo && /github\.com[/:]([^/]+\/[^/.]+)/.exec(repo)
  if (m) return `https://github.com/${m[1]}/releases/download`
  console.error('release: package.json has no GitHub repository; the manifest names https://github.com/OWNER/kubectl-why (pass --url-base)')
  return 'https://github.com/OWNER/kubectl-why/releases/download'
}
const urlBase = arg('--url-base') ?? `${repositoryBase()}/v${version}`

// The shim krew links onto PATH (through a symlink: resolve it to find the archive's files).
const SHIM = `#!/bin/sh
# kubectl-why ${version} from its release archive: the bundled CLI, run by Node.js 20 or newer found on PATH.
if ! command -v node >/dev/null 2>&1; then
  echo "kubectl-why: needs Node.js 20 or newer on PATH (https://nodejs.org/); none found" >&2
  exit 2
fi
self=$0
while [ -L "$self" ]; do
  link=$(readlink "$self")
  case $link in /*) self=$link ;; *) self=$(dirname "$self")/$link ;; esac
done
dir=$(cd "$(dirname "$self")" && pwd)
exec node "$dir/bin/run.js" "$@"
`

const name = `kubectl-why-${version}`
const stage = mkdtempSync(join(tmpdir(), 'kubectl-why-release-'))
try {
  const top = join(stage, name)
  for (const p of ['bin', 'dist', 'data', 'schemas', 'man', 'oclif.manifest.json', 'package.json', 'LICENSE', 'README.md'])
    cpSync(join(root, p), join(top, p), {recursive: true})
  writeFileSync(join(top, 'kubectl-why'), SHIM)
  chmodSync(join(top, 'kubectl-why'), 0o755)
  // dev.js runs the TypeScript sources, which the archive does not hold.
  rmSync(join(top, 'bin/dev.js'))
  const mtime = process.env.SOURCE_DATE_EPOCH ?? (spawnSync('git', ['log', '-1', '--format=%ct'], {cwd: root, encoding: 'utf8'}).stdout.trim() || '0')
  const tar = run('tar', ['--sort=name', `--mtime=@${mtime}`, '--owner=0', '--group=0', '--numeric-owner', '--mode=u+rw,go+r,go-w', '-cf', '-', name], {
    cwd: stage,
    encoding: 'buffer',
    maxBuffer: 1 << 28,
  })
  const archive = gzipSync(tar, {level: 9})
  const sha256 = createHash('sha256').update(archive).digest('hex')
  mkdirSync(out, {recursive: true})
  const file = join(out, `${name}.tar.gz`)
  writeFileSync(file, archive)
  writeFileSync(`${file}.sha256`, `${sha256}  ${name}.tar.gz\n`)
  mkdirSync(dirname(manifestFile), {recursive: true})
  writeFileSync(manifestFile, krewManifest(`${urlBase}/${name}.tar.gz`, sha256))
  console.log(`${relative(process.cwd(), file)}: ${(archive.length / 1024).toFixed(0)} KiB, sha256 ${sha256}`)
  console.log(`${relative(process.cwd(), manifestFile)}: krew manifest for v${version}`)
} finally {
  rmSync(stage, {recursive: true, force: true})
}

function krewManifest(uri, sha256) {
  // The archive is the same on every platform: JavaScript, run by the Node.js on PATH.
  const platform = (os, arch) => `  - selector:
      matchLabels:
        os: ${os}
        arch: ${arch}
    uri: ${uri}
    sha256: ${sha256}
    files:
    - from: ${name}/*
      to: .
    bin: kubectl-why`
  return `# Generated by scripts/release.mjs from ${name}.tar.gz: run npm run release, do not edit.
apiVersion: krew.googlecontainertools.github.com/v1alpha2
kind: Plugin
metadata:
  name: why
spec:
  version: v${version}
  homepage: ${urlBase.replace(/\/releases\/download\/.*$/, '')}
  shortDescription: Explain why Kubernetes controllers acted
  description: |
    Why was this pod evicted, this ReplicaSet garbage-collected (or stuck), this node tainted, why does
    this Deployment have two ReplicaSets? kubectl why reads the cluster (or a saved dump) and re-runs
    the decisions of the Kubernetes controllers offline, as the controllers of that cluster's version
    make them, and names the upstream rule behind each answer. GET requests only; never Secret data.

    This plugin is JavaScript, not a native binary: it needs Node.js 20 or newer on PATH.
  caveats: |
    kubectl why needs Node.js 20 or newer on PATH (check with: node --version): it runs
    with the node found there, and without one it stops with a message saying so.
    Start with: kubectl why --help
  platforms:
${[platform('linux', 'amd64'), platform('linux', 'arm64'), platform('darwin', 'amd64'), platform('darwin', 'arm64')].join('\n')}
`
}
