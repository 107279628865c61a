'use strict'
// Reading codes from image files, side by side in one run, on the committed image set
// (bench/decode-images: written by `cargo run --release -- 6 --write ../decode-images` in
// bench/decode-engines; codes we generate at random lengths and levels, then distorted as a
// camera would, two of the twelve sets as real JPEG files). Every engine is given the file's
// bytes, so each time includes decoding the PNG or JPEG; each image's time is the median of
// three rounds:
//   jsQR        + pngjs / jpeg-js for the pixels (what jsQR users write), both polarities;
//   zxing-wasm  zxing-cpp in WebAssembly, tryHarder, every code in the image;
//   qr-native   decodeSync on the main thread, and decode through the threadpool.
// An image counts as read when every code in it is read with the bytes that were encoded,
// and as wrong when any code read holds bytes that were not.
//
// The photo set: zxing-cpp's own camera samples (qrcode-2 … qrcode-6 of
// __test__/fixtures/zxing-cpp-qrcode, Apache-2.0), photos nobody here made, 129 images of
// 41–2448 px. zxing-wasm's loader (stb_image) reads no WebP, so each WebP is written once as a
// PNG of the same pixels (sharp) into a temporary folder; PNG and JPEG files are read as they
// are. An image counts as read when a code's text is the sample's `.txt`, as wrong when codes
// are read and none holds it.
const fs = require('node:fs')
const path = require('node:path')
const { PNG } = require('pngjs')
const jpeg = require('jpeg-js')
const jsQR = require('jsqr')
const qr = require('..')
const binding = require('../lib/load.js')

const os = require('node:os')

const SET = path.join(__dirname, 'decode-images')
const PHOTOS = path.join(__dirname, '..', '__test__', 'fixtures', 'zxing-cpp-qrcode')
const ROUNDS = 3

async function zxingReader () {
  const zxing = require('zxing-wasm/reader')
  const wasmBinary = fs.readFileSync(require.resolve('zxing-wasm/reader/zxing_reader.wasm'))
  await zxing.prepareZXingModule({ overrides: { wasmBinary }, fireImmediately: true })
  return zxing
}

function rgbaOf (file, name) {
  if (name.endsWith('.jpg')) {
    const img = jpeg.decode(file, { useTArray: true, formatAsRGBA: true })
    return { data: img.data, width: img.width, height: img.height }
  }
  return PNG.sync.read(file)
}

async function engines () {
  const zxing = await zxingReader()
  return {
    'jsQR + pngjs/jpeg-js': async (file, name) => {
      const img = rgbaOf(file, name)
      const found = jsQR(new Uint8ClampedArray(img.data.buffer, img.data.byteOffset, img.data.length), img.width, img.height,
        { inversionAttempts: 'attemptBoth' })
      return found ? [{ bytes: found.binaryData, text: found.data }] : []
    },
    'zxing-wasm (tryHarder)': async (file) => {
      const found = await zxing.readBarcodes(new Blob([file]), { formats: ['QRCode'], tryHarder: true, maxNumberOfSymbols: 16 })
      return found.filter((r) => r.isValid)
    },
    'qr-native decodeSync': async (file) => qr.decodeSync(file),
    'qr-native decode': async (file) => await qr.decode(file)
  }
}

/** The photo set as { file, texts, distortion } entries, WebP written as PNG into a temporary folder. */
async function photos () {
  const sharp = require('sharp')
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'qr-native-photos-'))
  const entries = []
  for (const folder of fs.readdirSync(PHOTOS).filter((f) => /^qrcode-[2-6]$/.test(f)).sort()) {
    for (const name of fs.readdirSync(path.join(PHOTOS, folder)).filter((f) => /\.(png|jpe?g|webp)$/i.test(f)).sort()) {
      const source = path.join(PHOTOS, folder, name)
      const base = name.replace(/\.[^.]+$/, '')
      let file = source
      if (name.endsWith('.webp')) {
        file = path.join(dir, `${folder}-${base}.png`)
        await sharp(source).png().toFile(file)
      }
      entries.push({ file, source, name: `${folder}/${name}`, distortion: folder, text: fs.readFileSync(path.join(PHOTOS, folder, `${base}.txt`), 'utf8') })
    }
  }
  return entries
}

// Some photos hold two codes (qrcode-2/16.webp: one inside the other) and the sample names
// one: read when any code holds its text, wrong when codes are read and none does.
function photoOutcome (found, text) {
  if (found.some((c) => c.text === text)) return 'read'
  return found.length ? 'wrong' : 'none'
}

function outcome (codes, texts) {
  const found = codes.map((c) => c.bytes)
  const want = texts.map((t) => Buffer.from(t, 'utf8'))
  const got = found.map((b) => Buffer.from(b))
  if (got.some((g) => !want.some((w) => w.equals(g)))) return 'wrong'
  return want.every((w) => got.some((g) => g.equals(w))) ? 'read' : 'none'
}

async function run ({ progress = () => {} } = {}) {
  const all = await engines()
  const manifest = JSON.parse(fs.readFileSync(path.join(SET, 'manifest.json'), 'utf8'))
    .map((entry) => ({ ...entry, file: path.join(SET, entry.file), judge: (found) => outcome(found, entry.texts) }))
  const synthetic = await measure(all, manifest, 'synthetic', progress)
  const photo = (await photos()).map((entry) => ({ ...entry, judge: (found) => photoOutcome(found, entry.text) }))
  const real = await measure(all, photo, 'photos', progress)
  progress('decode: stages')
  const stages = { synthetic: stagesOf(manifest), photos: stagesOf(photo), ...await formatStages(photo) }
  return { images: manifest.length, rows: synthetic.rows, photos: { images: photo.length, rows: real.rows }, stages }
}

const STAGES = ['grey', 'binarize', 'find', 'decode']

// Where decodeSync's time goes, image by image: each stage's median of STAGE_ROUNDS calls of
// the internal __decodeStagesSync (the same path as decodeSync, with a clock at each stage),
// then the mean over the set, with decodeSync's own median on the same file beside it (what
// is left is the call: reading the options, copying the file, making the results).
const STAGE_ROUNDS = 7
function stagesOf (manifest) {
  const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1]
  const sum = Object.fromEntries([...STAGES, 'call'].map((k) => [k, 0]))
  for (const entry of manifest) {
    const file = fs.readFileSync(entry.file)
    qr.decodeSync(file)
    const runs = Array.from({ length: STAGE_ROUNDS }, () => binding.__decodeStagesSync(file))
    const calls = Array.from({ length: STAGE_ROUNDS }, () => {
      const t = process.hrtime.bigint()
      qr.decodeSync(file)
      return Number(process.hrtime.bigint() - t)
    })
    for (const k of STAGES) sum[k] += median(runs.map((r) => r[k])) / 1e3
    sum.call += median(calls) / 1e3
  }
  return Object.fromEntries(Object.entries(sum).map(([k, v]) => [k, v / manifest.length]))
}

// The same photos in the two formats that are read straight to luma: the WebP files as
// zxing-cpp ships them, and every photo saved as JPEG by sharp (quality 90, 4:2:0).
async function formatStages (photo) {
  const sharp = require('sharp')
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'qr-native-jpeg-'))
  const jpeg = []
  for (const entry of photo) {
    const file = path.join(dir, `${entry.name.replace(/\W/g, '-')}.jpg`)
    await sharp(entry.source).flatten({ background: '#ffffff' }).jpeg({ quality: 90 }).toFile(file)
    jpeg.push({ file })
  }
  const webp = photo.filter((e) => e.source.endsWith('.webp')).map((e) => ({ file: e.source }))
  return { webp: { ...stagesOf(webp), n: webp.length }, jpeg: { ...stagesOf(jpeg), n: jpeg.length } }
}

async function measure (all, manifest, label, progress) {
  const rows = {} // rows[distortion][engine] = { n, read, wrong, ms }
  const add = (distortion, engine, result, ms) => {
    for (const key of [distortion, 'all']) {
      rows[key] ??= {}
      const r = (rows[key][engine] ??= { n: 0, read: 0, wrong: 0, ms: 0 })
      r.n++
      r.ms += ms
      if (result === 'read') r.read++
      if (result === 'wrong') r.wrong++
    }
  }
  // Every engine is handed the file's bytes (read from disk before the clock starts).
  const files = manifest.map((entry) => fs.readFileSync(entry.file))
  // Engine by engine over the whole set, ROUNDS times (after one warm-up image), so one
  // engine's garbage is collected in its own time; each image's time is its median round.
  const times = {} // times[engine][image] = [ms, …]
  const results = {} // results[engine][image] = outcome of the first round
  for (let round = 0; round < ROUNDS; round++) {
    for (const [engine, read] of Object.entries(all)) {
      await read(files[0], manifest[0].file)
      times[engine] ??= manifest.map(() => [])
      results[engine] ??= []
      for (const [i, entry] of manifest.entries()) {
        const t = process.hrtime.bigint()
        const found = await read(files[i], entry.file)
        times[engine][i].push(Number(process.hrtime.bigint() - t) / 1e6)
        if (round === 0) results[engine][i] = entry.judge(found)
      }
      progress(`decode ${label}: round ${round + 1} of ${ROUNDS}, ${engine}`)
    }
  }
  const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1]
  for (const engine of Object.keys(all)) {
    for (const [i, entry] of manifest.entries()) add(entry.distortion, engine, results[engine][i], median(times[engine][i]))
  }
  return { rows }
}

const SYNC = 'qr-native decodeSync'
const JSQR = 'jsQR + pngjs/jpeg-js'
const ZXING = 'zxing-wasm (tryHarder)'

function goals (results) {
  const a = results.rows.all
  const ms = (name) => a[name].ms / a[name].n
  const rate = (name) => a[name].read / a[name].n
  const wrong = Object.values(a).reduce((s, r) => s + r.wrong, 0)
  return [
    { goal: '#17: decode rate ≥ zxing-cpp\'s (zxing-wasm, tryHarder), same images', value: `${(100 * rate(SYNC)).toFixed(0)} % vs ${(100 * rate(ZXING)).toFixed(0)} %`, target: '≥', met: rate(SYNC) >= rate(ZXING) },
    { goal: '#17: ms per image, jsQR (+ pngjs/jpeg-js) ÷ qr-native, files decoded by each', value: ms(JSQR) / ms(SYNC), target: '≥ 20×', met: ms(JSQR) / ms(SYNC) >= 20 },
    { goal: '#17: ms per image, zxing-wasm ÷ qr-native, files decoded by each', value: ms(ZXING) / ms(SYNC), target: '≥ 3×', met: ms(ZXING) / ms(SYNC) >= 3 },
    { goal: '#17: wrong texts, every engine', value: wrong, target: '0', met: wrong === 0 },
    ...photoGoals(results.photos.rows.all)
  ]
}

function photoGoals (a) {
  const ms = (name) => a[name].ms / a[name].n
  const wrong = a[SYNC].wrong + a['qr-native decode'].wrong
  return [
    { goal: '#45: photos (zxing-cpp\'s samples), ms per image, zxing-wasm ÷ qr-native, files decoded by each', value: ms(ZXING) / ms(SYNC), target: '≥ 3×', met: ms(ZXING) / ms(SYNC) >= 3 },
    { goal: '#45: photos, ms per image, jsQR (+ pngjs/jpeg-js) ÷ qr-native', value: ms(JSQR) / ms(SYNC), target: '≥ 20×', met: ms(JSQR) / ms(SYNC) >= 20 },
    { goal: '#45: photos, codes read, qr-native vs zxing-wasm (tryHarder)', value: `${a[SYNC].read} vs ${a[ZXING].read} of ${a[SYNC].n}`, target: '≥', met: a[SYNC].read >= a[ZXING].read },
    { goal: '#45: photos, wrong texts, qr-native', value: wrong, target: '0', met: wrong === 0 }
  ]
}

function report (results) {
  return [table(results.rows, `### Reading codes: ${results.images} images (bench/decode-images), files decoded by each engine`),
    table(results.photos.rows, `### Reading codes: ${results.photos.images} photos (zxing-cpp's samples qrcode-2 … 6), files decoded by each engine`),
    stageTable(results)].filter(Boolean).join('\n\n')
}

function stageTable (results) {
  if (!results.stages) return ''
  const lines = ['### Reading codes, stage by stage: mean µs per image of decodeSync from the file\'s bytes (each image\'s median of 7)', '',
    '| set | file → grey | binarize | find | decode | the call, whole |', '|---|---|---|---|---|---|']
  const sets = {
    photos: `${results.photos.images} photos (WebP written as PNG)`,
    webp: `the ${results.stages.webp?.n} of them that are WebP, from the WebP`,
    jpeg: `the ${results.stages.jpeg?.n} photos as JPEG (sharp, quality 90)`,
    synthetic: `${results.images} images of bench/decode-images`
  }
  for (const [key, name] of Object.entries(sets)) {
    const s = results.stages[key]
    if (!s) continue
    lines.push(`| ${name} | ${STAGES.map((k) => s[k].toFixed(0)).join(' | ')} | ${s.call.toFixed(0)} |`)
  }
  return lines.join('\n')
}

function table (rows, title) {
  const lines = [title, '', '| images | engine | read | wrong | ms per image |', '|---|---|---|---|---|']
  for (const [distortion, engines] of Object.entries(rows)) {
    for (const [engine, r] of Object.entries(engines)) {
      const pct = distortion === 'all' ? ` (${(100 * r.read / r.n).toFixed(0)} %)` : ''
      const name = distortion === 'all' ? '**all**' : distortion
      lines.push(`| ${name} | ${engine} | ${r.read} of ${r.n}${pct} | ${r.wrong} | ${(r.ms / r.n).toFixed(2)} |`)
    }
  }
  return lines.join('\n')
}

module.exports = { name: 'decode', run, goals, report }
