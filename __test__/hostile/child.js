'use strict'
// Runs one hostile case in a child process: a crash there is an exit status to assert, not
// a dead test runner. The child loads the package from QR_NATIVE_ROOT (default: this
// checkout), so the same cases can be pointed at another build to see them fail.
const { spawnSync } = require('node:child_process')
const path = require('node:path')

const ROOT = process.env.QR_NATIVE_ROOT || path.join(__dirname, '..', '..')

// Put before every case: the package, a way to answer, and small helpers.
const PRELUDE = `
'use strict'
const ROOT = ${JSON.stringify(ROOT)}
const qr = require(ROOT)
const answer = (value) => { process.stdout.write(JSON.stringify(value)); }
const settle = (p) => p.then((value) => ({ ok: true, value }), (e) => ({ ok: false, name: e && e.name, code: e && e.code, message: String(e && e.message) }))
const attempt = (f) => { try { return { ok: true, value: f() } } catch (e) { return { ok: false, name: e && e.name, code: e && e.code, message: String(e && e.message) } } }
const transfer = (ab) => structuredClone(ab, { transfer: [ab] })
const collect = () => { for (let i = 0; i < 3; i++) globalThis.gc() }
const hex = (b) => Buffer.from(b).toString('hex');
// The engine's budgets are measured on Rust syntax, where \\w is Unicode (JS's is ASCII).
const RUST = { syntax: 'rust' };
`

/**
 * Runs `source` (after the prelude) in a fresh `node --expose-gc`, with `env` added to this
 * process's environment. `memoryKiB` caps the
 * child's address space (`ulimit -v`), so an allocation the caller's numbers drive fails
 * there as it would under a container's memory limit. Only Linux honours that limit (macOS
 * refuses `ulimit -v`); elsewhere the case runs uncapped and its answer is still checked. So
 * does the WebAssembly build (`QR_NATIVE_WASI=1`): V8 reserves gigabytes of address space
 * for a WebAssembly memory before any of it is used, so no cap a test could set leaves room
 * to load the module; the module's own maximum memory (4 GiB) bounds it instead.
 * Returns `{ status, signal, stderr, answer }`, `answer` parsed from what the case wrote.
 */
function runCase (source, { memoryKiB, timeout = 120_000, nodeArgs = [], env } = {}) {
  const args = ['--expose-gc', ...nodeArgs, '-e', PRELUDE + source]
  const options = { encoding: 'utf8', timeout, env: { ...process.env, ...env } }
  const r = memoryKiB && process.platform === 'linux' && process.env.QR_NATIVE_WASI !== '1'
    ? spawnSync('bash', ['-c', `ulimit -v ${memoryKiB} && exec "$0" "$@"`, process.execPath, ...args], options)
    : spawnSync(process.execPath, args, options)
  let parsed
  try {
    parsed = r.stdout ? JSON.parse(r.stdout) : undefined
  } catch {
    parsed = r.stdout
  }
  return { status: r.status, signal: r.signal, stderr: r.stderr, answer: parsed }
}

/** Asserts the child exited 0 with no signal, and returns what it answered. */
function survived (assert, result) {
  assert.equal(result.signal, null, `the child died of ${result.signal}: ${result.stderr.slice(-2000)}`)
  assert.equal(result.status, 0, `the child exited ${result.status}: ${result.stderr.slice(-2000)}`)
  return result.answer
}

module.exports = { runCase, survived, ROOT }
