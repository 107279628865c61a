'use strict'
// Two builds of the addon against zxing-wasm in one process, on the committed image set:
// `node bench/decode-ab.js OLD.node NEW.node [ROUNDS]`. As bench/decode.js does, each
// engine reads the whole set in turn (after one warm-up image), each image's time is its
// median round, and each engine is given the file's bytes. What changes between two commits
// shows here beside the same zxing-wasm run, which a shared machine's drift between two
// `npm run bench` runs hides.
const fs = require('node:fs')
const path = require('node:path')

const SET = path.join(__dirname, 'decode-images')

async function main () {
  const [, , ...args] = process.argv
  const builds = args.filter((a) => a.endsWith('.node'))
  const rounds = Number(args.find((a) => /^\d+$/.test(a)) ?? 5)
  if (builds.length === 0) throw new Error('usage: node bench/decode-ab.js OLD.node NEW.node [ROUNDS]')
  const zxing = require('zxing-wasm/reader')
  const wasmBinary = fs.readFileSync(require.resolve('zxing-wasm/reader/zxing_reader.wasm'))
  await zxing.prepareZXingModule({ overrides: { wasmBinary }, fireImmediately: true })
  const engines = {
    'zxing-wasm (tryHarder)': (file) => zxing.readBarcodes(new Blob([file]), { formats: ['QRCode'], tryHarder: true, maxNumberOfSymbols: 16 })
  }
  for (const build of builds) {
    const m = { exports: {} }
    process.dlopen(m, path.resolve(build))
    engines[build] = (file) => m.exports.decodeSync(file)
  }
  const manifest = JSON.parse(fs.readFileSync(path.join(SET, 'manifest.json'), 'utf8'))
  const files = manifest.map((entry) => fs.readFileSync(path.join(SET, entry.file)))
  const times = Object.fromEntries(Object.keys(engines).map((name) => [name, files.map(() => [])]))
  for (let round = 0; round < rounds; round++) {
    for (const [name, read] of Object.entries(engines)) {
      await read(files[0])
      for (const [i, file] of files.entries()) {
        const t = process.hrtime.bigint()
        await read(file)
        times[name][i].push(Number(process.hrtime.bigint() - t) / 1e6)
      }
    }
  }
  const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1]
  const ms = Object.fromEntries(Object.entries(times).map(([name, t]) => [name, t.reduce((s, xs) => s + median(xs), 0) / files.length]))
  const zx = ms['zxing-wasm (tryHarder)']
  for (const [name, v] of Object.entries(ms)) console.log(`${name}: ${v.toFixed(3)} ms per image, zxing-wasm ÷ this ${(zx / v).toFixed(2)}×`)
}

main().catch((err) => {
  console.error(err)
  process.exitCode = 1
})
