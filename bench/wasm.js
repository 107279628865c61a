'use strict'
// The WebAssembly fallback (qr-native-wasm32-wasi) next to the native binary on the same
// calls: QR codes, decode, and the Matcher on isbot's list and real user agents. Each round
// runs bench/lib/wasm-child.js twice, natively and with NAPI_RS_FORCE_WASI=error, one after
// the other. The module is the one scripts/targets.js built (`--only wasm32-wasi`); without
// it the suite says so and measures nothing.
const fs = require('node:fs')
const path = require('node:path')
const { execFileSync } = require('node:child_process')
const { summary } = require('./lib/measure')

const ROOT = path.join(__dirname, '..')
const BUILT = path.join(ROOT, 'target', 'targets', 'wasm32-wasi')
const FILES = ['qr-native.wasm32-wasi.wasm', 'qr-native.wasi.cjs', 'wasi-worker.mjs']
const CHILD = path.join(__dirname, 'lib', 'wasm-child.js')

async function run ({ quick, progress }) {
  if (!FILES.every((f) => fs.existsSync(path.join(BUILT, f)))) {
    return { built: false, why: 'not built here: node scripts/targets.js --only wasm32-wasi builds it' }
  }
  const rounds = quick ? 2 : 5
  const ms = quick ? 300 : 1000
  const values = { native: {}, wasm: {} }
  const loaded = {}
  // Beside binding.js, where napi-rs's loader looks, for this suite only.
  for (const f of FILES) fs.copyFileSync(path.join(BUILT, f), path.join(ROOT, f))
  try {
    for (let r = 0; r < rounds; r++) {
      for (const mode of ['native', 'wasm']) {
        progress(`wasm: round ${r + 1}/${rounds}, ${mode}`)
        const env = { ...process.env }
        delete env.NAPI_RS_FORCE_WASI
        if (mode === 'wasm') env.NAPI_RS_FORCE_WASI = 'error'
        const out = JSON.parse(execFileSync(process.execPath, ['--no-warnings', CHILD, String(ms)], { cwd: ROOT, env, encoding: 'utf8' }))
        loaded[mode] = out.loaded
        for (const [name, ops] of Object.entries(out.ops)) (values[mode][name] = values[mode][name] || []).push(ops)
      }
    }
  } finally {
    for (const f of FILES) fs.rmSync(path.join(ROOT, f), { force: true })
  }
  if (loaded.wasm !== 'wasm32-wasi') throw new Error(`the WebAssembly run loaded ${loaded.wasm}`)
  const cases = Object.keys(values.native).map((name) => ({
    name,
    native: summary(values.native[name]),
    wasm: summary(values.wasm[name]),
    ratio: summary(values.native[name].map((n, i) => n / values.wasm[name][i]))
  }))
  return { built: true, node: process.version, rounds, ms, cases }
}

// No goal: the fallback exists to run where nothing else does; its cost is reported.
function goals () {
  return []
}

function report (r) {
  const lines = ['### The WebAssembly fallback next to the native binary', '']
  if (!r.built) return [...lines, `Not measured: ${r.why}.`].join('\n')
  lines.push(`The same calls natively and in \`qr-native-wasm32-wasi\` (NAPI_RS_FORCE_WASI=error), Node ${r.node}, each process alternating with the other over ${r.rounds} rounds of ${r.ms} ms per case (operations per second, median of the rounds; slower = native ÷ WebAssembly per round, median and min–max).`, '',
    '| call | native ops/s | WebAssembly ops/s | WebAssembly is slower by |', '|---|---|---|---|')
  const n = (x) => x >= 100 ? x.toFixed(0) : x.toFixed(1)
  for (const c of r.cases) lines.push(`| ${c.name} | ${n(c.native.median)} | ${n(c.wasm.median)} | ${c.ratio.median.toFixed(1)}× (${c.ratio.min.toFixed(1)}–${c.ratio.max.toFixed(1)}) |`)
  return lines.join('\n')
}

module.exports = { run, goals, report }
