'use strict'
// A panic inside the addon must become an Error with code ERR_INTERNAL, never an abort of
// Node. A test-only build (cargo feature `inject-panic`, a debug build beside `cargo test`'s,
// whose compiled dependencies it reuses) panics on demand in the entry point named by QR_NATIVE_PANIC_IN; each entry
// point is called in a child process, which must then go on working and exit normally.
const { test, before } = require('node:test')
const assert = require('node:assert/strict')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { execFileSync, spawnSync } = require('node:child_process')

const ROOT = path.join(__dirname, '..', '..')
let addon

before(() => {
  execFileSync('cargo', ['build', '--lib', '--quiet', '--features', 'inject-panic'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] })
  addon = path.join(os.tmpdir(), `qr-native-inject-panic-${process.pid}.node`)
  fs.copyFileSync(path.join(ROOT, 'target', 'debug', 'libqr_native.so'), addon)
})

// Each entry point, and a call that reaches it.
const ENTRIES = {
  generate: 'await a.generate("x")',
  generateMany: 'await a.generateMany(["x", "y"])',
  toDataURL: 'await a.toDataURL("x")',
  toString: 'await a.toString("x")',
  generateSync: 'a.generateSync("x")',
  encode: 'a.encode("x")',
  Matcher: 'new a.Matcher(["x"])',
  test: 'new a.Matcher(["x"]).test("x")',
  testMany: 'new a.Matcher(["x"]).testMany(["x"])',
  scanLines: 'await new a.Matcher(["x"]).scanLines(Buffer.from("x\\ny"))',
  replace: 'a.__replaceSpans.call(new a.Matcher(["x"]), "a x")',
  lines: 'await a.__matcherLines.call(new a.Matcher(["x"]), Buffer.alloc(0), Buffer.from("x\\ny\\n"), 0, 1024, true)',
  isMatch: 'a.isMatch("x", "x")'
}

for (const [entry, call] of Object.entries(ENTRIES)) {
  test(`a panic in ${entry} becomes ERR_INTERNAL and the process lives on`, () => {
    const script = `
      const a = require(${JSON.stringify(addon)})
      ;(async () => {
        let error = null
        try { ${call} } catch (e) { error = { code: e.code, message: e.message, isError: e instanceof Error } }
        // The process still works: another entry point, then a clean exit.
        const png = ${entry === 'generateSync' ? 'await a.generate("after")' : 'a.generateSync("after")'}
        process.stdout.write(JSON.stringify({ error, pngBytes: png.length }))
      })()`
    const r = spawnSync(process.execPath, ['-e', script], { env: { ...process.env, QR_NATIVE_PANIC_IN: entry }, encoding: 'utf8' })
    assert.equal(r.signal, null, `killed by ${r.signal}: ${r.stderr}`)
    assert.equal(r.status, 0, r.stderr)
    const out = JSON.parse(r.stdout)
    assert.equal(out.error && out.error.code, 'ERR_INTERNAL', r.stdout)
    assert.ok(out.error.isError)
    assert.match(out.error.message, new RegExp(`injected panic in ${entry}`))
    assert.ok(out.pngBytes > 0)
  })
}

test('without the injection the same build works normally', () => {
  const r = spawnSync(process.execPath, ['-e', `const a = require(${JSON.stringify(addon)}); a.generate("ok").then((b) => process.stdout.write(String(b.length)))`], { encoding: 'utf8' })
  assert.equal(r.status, 0, r.stderr)
  assert.ok(Number(r.stdout) > 0)
})
