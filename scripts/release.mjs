// npm run release: the release archive and the krew plugin manifest built from it.
//   release/kubectl-why-VERSION.tar.gz   the bundle (dist/, bin/, data/, schemas/, the manifest, the man page, LICENSE)
//                                        with a `kubectl-why` shell shim that runs it with Node.js ≥ 20 from PATH
//   release/kubectl-why-VERSION.tar.gz.sha256
//   plugins/why.yaml                     krew's Plugin manifest: that archive's URL and sha256
// The archive is reproducible: a ustar archive written here (not by the system's tar, whose output differs between
// versions), names in byte order, owner 0/0, modes 0755/0644 from the executable bit alone, one fixed mtime
// (SOURCE_DATE_EPOCH, else RELEASE_EPOCH below: not the last commit's time, which would change the sha256 with the
// very commit that records it), gzip without a timestamp (Node's zlib writes mtime 0). So the sha256 names the files
// alone, and test/release/krew.test.ts checks the committed plugins/why.yaml against a fresh build of them.
//   node scripts/release.mjs [--no-build] [--out DIR] [--manifest FILE] [--url-base URL]
// --url-base: where the archives are published (default: package.json's repository, as GitHub release assets).
import {spawnSync} from 'node:child_process'
import {createHash} from 'node:crypto'
import {chmodSync, cpSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync} from 'node:fs'
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

// The shim krew links onto PATH (through a symlink: resolve it to find the archive's files). krew links only the
// manifest's one bin, so kubectl's plugin completion (an executable kubectl_complete-why on PATH, kubectl 1.26+) comes
// from a second link to the same shim, named so: the caveats give the one line that makes it (KREW_COMPLETION).
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
# Called by the name kubectl looks for to complete \`kubectl why <TAB>\` (a link the caveats ask for): cobra's __complete.
case $(basename "$0") in kubectl_complete-*) exec node "$dir/bin/kubectl_complete-why" "$@" ;; esac
exec node "$dir/bin/run.js" "$@"
`

/** The caveats' completion setup: a link beside krew's own, to the link krew makes (so it survives krew upgrade). */
// biome-ignore lint/suspicious/noTemplateCurlyInString: a shell parameter, not a template
const KREW_COMPLETION = 'ln -sf kubectl-why "${KREW_ROOT:-$HOME/.krew}/bin/kubectl_complete-why"'

// 2026-01-01T00:00:00Z: every file's mtime in the archive.
const RELEASE_EPOCH = 1767225600

/** A ustar archive (POSIX.1-1988 as GNU and BSD tar read it) of dir/top: directories before what they hold, names in byte order. */
function ustar(dir, top, mtime) {
  const blocks = []
  const walk = (rel) => {
    const st = lstatSync(join(dir, rel))
    if (st.isDirectory()) {
      blocks.push(header(`${rel}/`, 0o755, 0, mtime, '5'))
      for (const entry of readdirSync(join(dir, rel)).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))) walk(`${rel}/${entry}`)
    } else if (st.isFile()) {
      const data = readFileSync(join(dir, rel))
      blocks.push(header(rel, st.mode & 0o100 ? 0o755 : 0o644, data.length, mtime, '0'), data, Buffer.alloc((512 - (data.length % 512)) % 512))
    } else throw new Error(`release: ${rel} is neither a file nor a directory`)
  }
  walk(top)
  blocks.push(Buffer.alloc(1024))
  return Buffer.concat(blocks)
}

function header(path, mode, size, mtime, type) {
  const h = Buffer.alloc(512)
  // A name over 100 bytes goes into prefix (155) + name (100), split at a slash.
  let prefix = ''
  let rest = path
  if (Buffer.byteLength(path) > 100) {
    const at = path.slice(0, 156).lastIndexOf('/')
    if (at <= 0 || Buffer.byteLength(path.slice(at + 1)) > 100) throw new Error(`release: ${path} is too long for ustar`)
    prefix = path.slice(0, at)
    rest = path.slice(at + 1)
  }
  const octal = (value, offset, length) => h.write(`${value.toString(8).padStart(length - 1, '0')}\0`, offset, length, 'latin1')
  h.write(rest, 0, 100, 'utf8')
  octal(mode, 100, 8)
  octal(0, 108, 8)
  octal(0, 116, 8)
  octal(size, 124, 12)
  octal(mtime, 136, 12)
  h.fill(0x20, 148, 156)
  h.write(type, 156, 1, 'latin1')
  h.write('ustar\u000000', 257, 8, 'latin1')
  h.write(prefix, 345, 155, 'utf8')
  let sum = 0
  for (const b of h) sum += b
  h.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 8, 'latin1')
  return h
}

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
  const mtime = Number(process.env.SOURCE_DATE_EPOCH ?? RELEASE_EPOCH)
  const archive = gzipSync(ustar(stage, name, mtime), {level: 9})
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
  return `# Generated by scripts/release.mjs from ${name}.tar.gz.
# Do not edit: run npm run release (test/release/krew.test.ts checks it).
apiVersion: krew.googlecontainertools.github.com/v1alpha2
kind: Plugin
metadata:
  name: why
spec:
  version: v${version}
  homepage: ${urlBase.replace(/\/releases\/download\/.*$/, '')}
  shortDescription: Explain why Kubernetes controllers acted
  description: |
    Why was this pod evicted, this ReplicaSet garbage-collected (or stuck),
    this node tainted, why does this Deployment have two ReplicaSets?
    kubectl why reads the cluster (or a saved dump) and re-runs the decisions
    of the Kubernetes controllers offline, as the controllers of that
    cluster's version make them, and names the upstream rule behind each
    answer. GET requests only; never Secret data.

    This plugin is JavaScript, not a native binary: it needs
    Node.js 20 or newer on PATH.
  caveats: |
    kubectl why needs Node.js 20 or newer on PATH (check: node --version):
    it runs with the node found there, and without one it says so and stops.
    Start with: kubectl why --help

    For kubectl why <TAB> (kubectl 1.26+ asks an executable named
    kubectl_complete-why on PATH, which krew does not link), run once:
      ${KREW_COMPLETION}
  platforms:
${[platform('linux', 'amd64'), platform('linux', 'arm64'), platform('darwin', 'amd64'), platform('darwin', 'arm64')].join('\n')}
`
}
