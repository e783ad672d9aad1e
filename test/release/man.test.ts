// man/kubectl-why.1 (scripts/man.mjs, run by npm run build) says what each command's help says: every command and
// every flag oclif.manifest.json lists is in the page, with its examples.
import assert from 'node:assert/strict'
import {readFileSync} from 'node:fs'
import {test} from 'node:test'

const page = readFileSync(new URL('../../man/kubectl-why.1', import.meta.url), 'utf8')
const manifest = JSON.parse(readFileSync(new URL('../../oclif.manifest.json', import.meta.url), 'utf8')) as {
  commands: Record<
    string,
    {id: string; hidden?: boolean; flags: Record<string, {name: string; char?: string; hidden?: boolean}>; examples?: (string | {command: string})[]}
  >
}
// roff writes - as \-; the page is compared in that form.
const roff = (s: string) => s.replaceAll('\\', '\\e').replaceAll('-', '\\-')

test('the man page is a section 1 page of kubectl-why', () => {
  assert.match(page, /^\.TH KUBECTL\\-WHY 1 /m)
  assert.match(page, /^\.SH EXIT STATUS$/m)
})

for (const c of Object.values(manifest.commands).filter((c) => !c.hidden)) {
  test(`man page: kubectl why ${c.id}, its flags and examples (else run npm run man)`, () => {
    assert.ok(page.includes(`.SS "kubectl why ${c.id}`), `no section for ${c.id}`)
    const section = page.slice(page.indexOf(`.SS "kubectl why ${c.id}`)).split(/\n\.SS /)[0]
    for (const f of Object.values(c.flags).filter((f) => !f.hidden))
      assert.ok(section.includes(`\\fB\\-\\-${roff(f.name)}\\fR`), `${c.id}: --${f.name} missing`)
    for (const e of c.examples ?? []) {
      const command = (typeof e === 'string' ? e : e.command).replaceAll('<%= config.bin %>', 'kubectl why')
      assert.ok(section.includes(roff(command)), `${c.id}: example ${command} missing`)
    }
  })
}
