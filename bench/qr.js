'use strict'
// QR PNG: the pure-JS `qrcode` package next to qr-native's generateSync (main thread) and
// generate (threadpool, 64 in flight), for a URL, 200 and 500 characters; then the event
// loop's lateness while 1000 codes are made each way; then the Rust encoders side by side.
const QRCode = require('qrcode')
const leanQr = require('lean-qr')
const { toPngBuffer: leanPng } = require('lean-qr/extras/node_export')
const qr = require('..')
const { execFileSync } = require('node:child_process')
const os = require('node:os')
const path = require('node:path')
const { interleave, opsPerSecSync, opsPerSecAsync, summary } = require('./lib/measure')

const INPUTS = {
  url44: 'https://example.com/products/12345?ref=qr-1',
  text200: 'Lorem ipsum dolor sit amet, consectetur adipiscing elit. Sed do eiusmod tempor incididunt ut labore et dolore magna aliqua. Ut enim ad minim veniam, quis nostrud exercitation ullamco laboris nisi ut aliquip.',
  text500: null
}
INPUTS.text500 = (INPUTS.text200 + ' ' + INPUTS.text200 + ' ' + INPUTS.text200).slice(0, 500)

const QRCODE_OPTS = { type: 'png', errorCorrectionLevel: 'L', width: 200, rendererOpts: { deflateLevel: 9, deflateStrategy: 3 } }
const NATIVE_OPTS = { errorCorrectionLevel: 'L', width: 200 }
// lean-qr, the fastest pure-JS PNG we know of: its PNG export takes a whole-pixel scale, not a
// width, so 5 px per module (185 px for the URL, larger for the longer texts).
const LEAN_CODE_OPTS = { minCorrectionLevel: leanQr.correction.L, maxCorrectionLevel: leanQr.correction.L }
const LEAN_PNG_OPTS = { scale: 5, pad: 4 }
const LEAN = 'lean-qr toPngBuffer'

const POOL = Number(process.env.UV_THREADPOOL_SIZE) || 4
const POOLED = `generate (64 in flight, setConcurrency(${POOL}))`

/** Runs `measure` with our queue's limit at `n`, then puts the default back. */
async function withConcurrency (n, measure) {
  const before = qr.concurrency()
  qr.setConcurrency(n)
  try {
    return await measure()
  } finally {
    qr.setConcurrency(before)
  }
}

async function run ({ quick, progress }) {
  const ms = quick ? 150 : 400
  const rounds = quick ? 3 : 7
  const results = { png: {}, bytes: {}, eventLoop: {}, encoders: null }
  for (const [name, text] of Object.entries(INPUTS)) {
    const cases = [
      { name: 'qrcode.toBuffer', run: () => opsPerSecAsync(() => QRCode.toBuffer(text, QRCODE_OPTS), ms, 1) },
      { name: LEAN, run: () => opsPerSecSync(() => leanPng(leanQr.generate(text, LEAN_CODE_OPTS), LEAN_PNG_OPTS), ms) },
      { name: 'generateSync', run: () => opsPerSecSync(() => qr.generateSync(text, NATIVE_OPTS), ms) },
      { name: 'generate (64 in flight)', run: () => opsPerSecAsync(() => qr.generate(text, NATIVE_OPTS), ms, 64) },
      // The queue's default leaves a core to the main thread; with the whole pool:
      { name: POOLED, run: () => withConcurrency(POOL, () => opsPerSecAsync(() => qr.generate(text, NATIVE_OPTS), ms, 64)) }
    ]
    results.png[name] = await interleave(cases, rounds, (p) => progress(`qr ${name} ${p}`))
    results.bytes[name] = {
      'qrcode.toBuffer': (await QRCode.toBuffer(text, QRCODE_OPTS)).length,
      [LEAN]: leanPng(leanQr.generate(text, LEAN_CODE_OPTS), LEAN_PNG_OPTS).length,
      'qr-native': qr.generateSync(text, NATIVE_OPTS).length
    }
  }

  // The event loop, measured in child processes: with more busy pool threads than spare
  // cores the kernel time-slices the main thread, so both pool sizes are reported.
  const spare = Math.max(1, os.cpus().length - 1)
  results.eventLoop = {}
  for (const size of [4, spare]) {
    if (size === 4 && results.eventLoop.pool4) continue
    progress(`qr event loop, UV_THREADPOOL_SIZE=${size}`)
    const raw = JSON.parse(execFileSync(process.execPath, [path.join(__dirname, 'lib', 'event-loop-child.js'), String(rounds)],
      { env: { ...process.env, UV_THREADPOOL_SIZE: String(size) }, encoding: 'utf8' }))
    results.eventLoop[`pool${size}`] = {
      threads: size,
      'generate, 1000 in flight, arriving 25 per tick': summary(raw.arriving),
      'generate, 1000 started in one synchronous loop': summary(raw.oneLoop),
      'generateSync, 1000 in a loop': summary(raw.sync)
    }
  }

  try {
    progress('qr Rust encoders (cargo run --example encoder_bench)')
    const out = execFileSync('cargo', ['run', '--quiet', '--release', '--no-default-features', '--example', 'encoder_bench'],
      { cwd: path.join(__dirname, '..'), encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] })
    results.encoders = out.trim().split('\n').map((l) => JSON.parse(l))
  } catch {
    results.encoders = null // no Rust toolchain here: the JS figures stand alone
  }
  return results
}

function ratio (results, input, name, base = 'qrcode.toBuffer') {
  const png = results.png[input]
  return png[name].median / png[base].median
}

/** Goals from the issues, each as a measured value, its target and whether it is met. */
function goals (results) {
  const out = []
  const add = (goal, value, target, met) => out.push({ goal, value, target, met })
  // #16's goals (the earlier ones, ≥ 50× and ≥ 20×, were #1's).
  add('generateSync vs qrcode, 44-char URL', ratio(results, 'url44', 'generateSync'), '≥ 100×', ratio(results, 'url44', 'generateSync') >= 100)
  add('generateSync vs qrcode, 500 chars', ratio(results, 'text500', 'generateSync'), '≥ 60×', ratio(results, 'text500', 'generateSync') >= 60)
  const vsLean = ratio(results, 'url44', 'generateSync', LEAN)
  add('generateSync vs lean-qr toPngBuffer, 44-char URL', vsLean, '≥ 25×', vsLean >= 25)
  for (const input of Object.keys(results.bytes)) {
    const b = results.bytes[input]
    const share = b['qr-native'] / b['qrcode.toBuffer']
    add(`PNG bytes vs qrcode, ${input}`, share, '≤ 0.30', share <= 0.3)
  }
  if (results.encoders) {
    const url = results.encoders.find((e) => e.input === 'url44')
    add('Rust encoder, 44-char URL (µs)', url.encode_us['qr-native'], '≤ 10', url.encode_us['qr-native'] <= 10)
    add('Rust PNG stage (render + deflate), 44-char URL at 200 px (µs)', url.png200_us, '≤ 15', url.png200_us <= 15)
  }
  const spare = Object.values(results.eventLoop).find((e) => e.threads < 4) || results.eventLoop.pool4
  const lateAsync = spare['generate, 1000 in flight, arriving 25 per tick'].max
  add(`timer lateness ms, 1000 generate in flight, ${spare.threads} pool thread(s) (worst round)`, lateAsync, '≤ 5 ms', lateAsync <= 5)
  const lateSync = spare['generateSync, 1000 in a loop'].min
  add('timer lateness ms, 1000 generateSync (best round)', lateSync, 'the whole batch', lateSync > 10 * lateAsync)
  return out
}

function report (results) {
  const lines = ['### QR PNG, 200 px, level L (operations per second, median of rounds; min–max)', '',
    `| input | qrcode.toBuffer | ${LEAN} (5 px/module) | generateSync | generate (64 in flight, default limit) | ${POOLED} | sync ratio (vs qrcode; vs lean-qr) | async ratio (default; pool) | PNG bytes qrcode, lean-qr → ours |`,
    '|---|---|---|---|---|---|---|---|---|']
  for (const [input, r] of Object.entries(results.png)) {
    const cell = (s) => s ? `${s.median.toFixed(0)} (${s.min.toFixed(0)}–${s.max.toFixed(0)})` : '–'
    const b = results.bytes[input]
    const pooled = r[POOLED] ? `; ${ratio(results, input, POOLED).toFixed(1)}×` : ''
    const vsLean = r[LEAN] ? `; ${ratio(results, input, 'generateSync', LEAN).toFixed(1)}×` : ''
    lines.push(`| ${input} | ${cell(r['qrcode.toBuffer'])} | ${cell(r[LEAN])} | ${cell(r.generateSync)} | ${cell(r['generate (64 in flight)'])} | ${cell(r[POOLED])} | ` +
      `${ratio(results, input, 'generateSync').toFixed(1)}×${vsLean} | ${ratio(results, input, 'generate (64 in flight)').toFixed(1)}×${pooled} | ` +
      `${b['qrcode.toBuffer']}, ${b[LEAN]} → ${b['qr-native']} |`)
  }
  lines.push('', '### Event loop: worst lateness of a 1 ms timer while 1000 codes (200 chars) are made', '',
    '| how | UV_THREADPOOL_SIZE | worst lateness ms (median of rounds; min–max) |', '|---|---|---|')
  for (const e of Object.values(results.eventLoop)) {
    for (const [how, s] of Object.entries(e)) {
      if (how === 'threads') continue
      lines.push(`| ${how} | ${e.threads} | ${s.median.toFixed(1)} (${s.min.toFixed(1)}–${s.max.toFixed(1)}) |`)
    }
  }
  if (results.encoders) {
    lines.push('', '### Rust encoders, matrix only (µs per code), and our 1-bit PNG', '',
      '| input | version | qr-native | `qrcode` crate | `fast_qr` | PNG 200 px µs | PNG bytes |', '|---|---|---|---|---|---|---|')
    for (const e of results.encoders) {
      const u = e.encode_us
      lines.push(`| ${e.input} | ${e.version} | ${u['qr-native']} | ${u['qrcode-crate']} | ${u.fast_qr} | ${e.png200_us} | ${e.png200_bytes} |`)
    }
    lines.push('', '### Where a 200 px PNG\'s time goes, by stage (Rust, µs per code)', '',
      '| input | codewords, placement, mask applied (mask given) | mask choice (8 masks scored) | render (pixel rows, 1 bit per pixel) | deflate (libdeflate level 9) + PNG chunks | whole PNG from text |',
      '|---|---|---|---|---|---|')
    for (const e of results.encoders) {
      const s = e.stages_us
      if (s) lines.push(`| ${e.input} | ${s.matrix_mask_given} | ${s.mask_choice} | ${s.render} | ${s.deflate} | ${s.total} |`)
    }
  }
  return lines.join('\n')
}

module.exports = { name: 'qr', run, goals, report }
