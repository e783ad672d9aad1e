// Runs every test/**/*.test.ts with node's own test runner (Node 20 cannot glob .ts files itself).
// Extra arguments are passed to node --test (e.g. --test-name-pattern=hash) or, when they end in .ts, pick files.
import {spawnSync} from 'node:child_process'
import {readdirSync} from 'node:fs'
import {join} from 'node:path'

function find(dir) {
  return readdirSync(dir, {withFileTypes: true}).flatMap((e) =>
    e.isDirectory() ? find(join(dir, e.name)) : e.name.endsWith('.test.ts') ? [join(dir, e.name)] : [],
  )
}
const args = process.argv.slice(2)
const picked = args.filter((a) => a.endsWith('.ts'))
const files = picked.length > 0 ? picked : find('test').sort()
const options = args.filter((a) => !a.endsWith('.ts'))
const r = spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-reporter=spec', ...options, ...files], {stdio: 'inherit'})
process.exit(r.status ?? 1)
