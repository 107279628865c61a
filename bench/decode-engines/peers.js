'use strict'
// The JavaScript decoders on the images `cargo run --release -- N --write DIR` saved, beside
// what the Rust engines read from the same pixels (from DIR/manifest.json):
//   node bench/decode-engines/peers.js DIR
// jsQR is given RGBA from pngjs (its PNG decoding is in its time); zxing-wasm (zxing-cpp in
// WebAssembly, its .wasm read from its own package) is given the PNG file. The Rust engines'
// times are from greyscale pixels, without PNG decoding.
const fs = require('node:fs')
const path = require('node:path')
const { PNG } = require('pngjs')
const jsQR = require('jsqr')

async function zxingReader () {
  const zxing = require('zxing-wasm/reader')
  const wasmBinary = fs.readFileSync(require.resolve('zxing-wasm/reader/zxing_reader.wasm'))
  await zxing.prepareZXingModule({ overrides: { wasmBinary }, fireImmediately: true })
  return zxing
}

/** Whether `bytes` are the UTF-8 of `text`. */
function same (bytes, text) {
  return bytes != null && Buffer.from(bytes).equals(Buffer.from(text, 'utf8'))
}

async function main () {
  const dir = process.argv[2]
  if (!dir) throw new Error('usage: node peers.js DIR (written by `cargo run --release -- N --write DIR`)')
  const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8'))
  const zxing = await zxingReader()
  const peers = {
    'jsQR + pngjs': async (file) => {
      const png = PNG.sync.read(file)
      const found = jsQR(new Uint8ClampedArray(png.data.buffer, png.data.byteOffset, png.data.length), png.width, png.height,
        { inversionAttempts: 'attemptBoth' })
      return found ? found.binaryData : null
    },
    'zxing-wasm (tryHarder)': async (file) => {
      const found = await zxing.readBarcodes(new Blob([file]), { formats: ['QRCode'], tryHarder: true, maxNumberOfSymbols: 1 })
      const code = found.find((r) => r.isValid)
      return code ? code.bytes : null
    }
  }
  // rows[distortion][engine] = { n, read, wrong, ms }
  const rows = {}
  const add = (distortion, engine, outcome, ms) => {
    for (const key of [distortion, 'all']) {
      rows[key] ??= {}
      const r = (rows[key][engine] ??= { n: 0, read: 0, wrong: 0, ms: 0 })
      r.n++
      r.ms += ms
      if (outcome === 'read') r.read++
      if (outcome === 'wrong') r.wrong++
    }
  }
  for (const entry of manifest) {
    const file = fs.readFileSync(path.join(dir, entry.file))
    for (const [engine, run] of Object.entries(peers)) {
      const t = process.hrtime.bigint()
      const bytes = await run(file)
      const ms = Number(process.hrtime.bigint() - t) / 1e6
      add(entry.distortion, engine, bytes == null ? 'none' : same(bytes, entry.text) ? 'read' : 'wrong', ms)
    }
    for (const [engine, r] of Object.entries(entry.engines)) add(entry.distortion, `${engine} (Rust, from pixels)`, r.outcome, r.ms)
  }
  console.log('| distortion | engine | read | wrong | ms per image |')
  console.log('|---|---|---|---|---|')
  for (const [distortion, engines] of Object.entries(rows)) {
    for (const [engine, r] of Object.entries(engines)) {
      const pct = distortion === 'all' ? ` (${(100 * r.read / r.n).toFixed(0)} %)` : ''
      console.log(`| ${distortion} | ${engine} | ${r.read} of ${r.n}${pct} | ${r.wrong} | ${(r.ms / r.n).toFixed(2)} |`)
    }
  }
}

main().catch((e) => {
  console.error(e)
  process.exitCode = 1
})
