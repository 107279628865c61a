'use strict'
// zxing-cpp's own QR Code blackbox test, run on our decoder: every sample of its folders
// qrcode-1 … qrcode-6 (copied into `fixtures/zxing-cpp-qrcode/` with zxing-cpp's licence and
// README) read from grey pixels at 0°, 90°, 180° and 270°, in the fast mode and with
// `tryHarder`, as its runner (`test/blackbox/BlackboxTestRunner.cpp`) reads them. Each count of
// codes read to exactly the expected text (`NAME.txt`, UTF-8) or bytes (`NAME.bin`) must reach
// zxing-cpp's own threshold, and no image may read to a different text. The table it prints
// is the one in the README and docs/decode.md, and it checks that they show it.
//
// The images are decoded to grey by sharp (libvips), a loader we did not write, composited
// over white; the quarter turns are made here, on the grey pixels.
const { test } = require('node:test')
const assert = require('node:assert/strict')
const fs = require('node:fs')
const path = require('node:path')
const qr = require('..')

const ROOT = path.join(__dirname, 'fixtures', 'zxing-cpp-qrcode')
const ROTATIONS = [0, 90, 180, 270]

// zxing-cpp's thresholds (its README, and `BlackboxTestRunner.cpp`): [fast, tryHarder] per
// rotation.
const THRESHOLDS = {
  'qrcode-1': { images: 8, 0: [8, 8], 90: [8, 8], 180: [8, 8], 270: [8, 8] },
  'qrcode-2': { images: 56, 0: [50, 53], 90: [51, 54], 180: [50, 53], 270: [50, 53] },
  'qrcode-3': { images: 18, 0: [18, 18], 90: [18, 18], 180: [18, 18], 270: [18, 18] },
  'qrcode-4': { images: 24, 0: [15, 15], 90: [15, 15], 180: [15, 15], 270: [15, 15] },
  'qrcode-5': { images: 16, 0: [16, 16], 90: [16, 16], 180: [16, 16], 270: [16, 16] },
  'qrcode-6': { images: 15, 0: [15, 15], 90: [15, 15], 180: [15, 15], 270: [15, 15] },
}

let sharp
try { sharp = require('sharp') } catch { sharp = null }

/** `data` (width × height grey bytes) turned `degrees` clockwise. */
function rotate (data, width, height, degrees) {
  if (degrees === 0) return { data, width, height }
  const out = Buffer.alloc(width * height)
  if (degrees === 180) {
    for (let i = 0; i < out.length; i++) out[out.length - 1 - i] = data[i]
    return { data: out, width, height }
  }
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const [nx, ny] = degrees === 90 ? [height - 1 - y, x] : [y, width - 1 - x]
      out[ny * height + nx] = data[y * width + x]
    }
  }
  return { data: out, width: height, height: width }
}

/** Every sample of `folder`: its name, grey pixels and expected text or bytes. */
async function samples (folder) {
  const dir = path.join(ROOT, folder)
  const names = fs.readdirSync(dir).filter((f) => /\.(png|jpe?g|webp)$/i.test(f)).sort()
  return Promise.all(names.map(async (name) => {
    const base = path.join(dir, name.replace(/\.[^.]+$/, ''))
    const expected = fs.existsSync(`${base}.bin`)
      ? { bytes: fs.readFileSync(`${base}.bin`) }
      : { text: fs.readFileSync(`${base}.txt`, 'utf8') }
    const { data, info } = await sharp(path.join(dir, name)).flatten({ background: '#ffffff' }).greyscale().raw()
      .toBuffer({ resolveWithObject: true })
    assert.equal(info.channels, 1, `${name}: grey`)
    return { name, expected, data, width: info.width, height: info.height }
  }))
}

const matches = (code, expected) => expected.bytes ? Buffer.from(code.bytes).equals(expected.bytes) : code.text === expected.text

const rows = []

for (const [folder, want] of Object.entries(THRESHOLDS)) {
  test(`zxing-cpp blackbox ${folder}: its thresholds at every rotation, fast and tryHarder, no wrong text`, {
    skip: sharp ? false : 'sharp (a devDependency) has no build for this platform here',
  }, async (t) => {
    const all = await samples(folder)
    assert.equal(all.length, want.images, `${folder}: zxing-cpp's ${want.images} images`)
    const cells = []
    for (const degrees of ROTATIONS) {
      for (const [m, mode] of ['fast', 'tryHarder'].entries()) {
        const read = []
        const wrong = []
        for (const s of all) {
          const codes = qr.decodeSync(rotate(s.data, s.width, s.height, degrees), { tryHarder: m === 1 })
          if (codes.some((c) => matches(c, s.expected))) read.push(s.name)
          else if (codes.length) wrong.push(`${s.name}: ${JSON.stringify(codes.map((c) => c.text))}`)
        }
        assert.deepEqual(wrong, [], `${folder} ${degrees}° ${mode}: no image reads to another text`)
        const required = want[degrees][m]
        const missed = all.map((s) => s.name).filter((name) => !read.includes(name))
        assert.ok(read.length >= required,
          `${folder} ${degrees}° ${mode}: ${read.length} read, zxing-cpp requires ${required}; missed ${missed.join(', ')}`)
        cells.push(String(read.length))
      }
    }
    const row = `| ${folder} | ${all.length} | ${cells.filter((_, i) => i % 2 === 0).join(' · ')} | ${cells.filter((_, i) => i % 2 === 1).join(' · ')} | ${ROTATIONS.map((d) => want[d].join(' / ')).join(' · ')} |`
    rows.push(row)
    t.diagnostic(row)
  })
}

test('zxing-cpp blackbox: the table', { skip: sharp ? false : 'no sharp' }, (t) => {
  const table = ['| folder | images | fast, 0° · 90° · 180° · 270° | tryHarder, 0° · 90° · 180° · 270° | zxing-cpp requires (fast / tryHarder) |',
    '|---|---|---|---|---|', ...rows.sort()]
  for (const line of table) t.diagnostic(line)
  assert.equal(rows.length, Object.keys(THRESHOLDS).length)
  // The README and docs/decode.md show this table as it is: a reading gained or lost makes
  // them stale, and this fails. On linux x64, where they were written (float rounding in
  // the sampling grid may differ elsewhere).
  if (process.platform === 'linux' && process.arch === 'x64') {
    for (const doc of ['README.md', 'docs/decode.md']) {
      const text = fs.readFileSync(path.join(__dirname, '..', doc), 'utf8')
      assert.ok(text.includes(table.join('\n')), `${doc}: zxing-cpp's blackbox table is not this test's output; put the table above (the test's diagnostics) in its place`)
    }
  }
})

// From the file: a JPEG or lossy WebP is read straight to its luma plane, not through RGB.
// Every JPEG and WebP sample as zxing-cpp ships it, and every PNG sample saved as JPEG by
// sharp, reads the same codes from its file as from sharp's RGBA pixels of it, both modes.
test('zxing-cpp samples as JPEG and WebP files read the same codes as their RGBA pixels', {
  skip: sharp ? false : 'no sharp',
}, async () => {
  const files = []
  for (const folder of Object.keys(THRESHOLDS)) {
    for (const name of fs.readdirSync(path.join(ROOT, folder)).filter((f) => /\.(png|jpe?g|webp)$/i.test(f)).sort()) {
      const source = path.join(ROOT, folder, name)
      const file = name.endsWith('.png')
        ? await sharp(source).flatten({ background: '#ffffff' }).jpeg({ quality: 90 }).toBuffer()
        : fs.readFileSync(source)
      files.push({ name: `${folder}/${name}`, file })
    }
  }
  const texts = (codes) => codes.map((c) => Buffer.from(c.bytes).toString('hex')).sort()
  const differ = []
  let read = 0
  for (const { name, file } of files) {
    const { data, info } = await sharp(file).ensureAlpha().raw().toBuffer({ resolveWithObject: true })
    for (const tryHarder of [false, true]) {
      const fromFile = texts(qr.decodeSync(file, { tryHarder }))
      const fromPixels = texts(qr.decodeSync({ data, width: info.width, height: info.height }, { tryHarder }))
      if (fromFile.join() !== fromPixels.join()) differ.push(`${name} (tryHarder: ${tryHarder}): ${fromFile.length} from the file, ${fromPixels.length} from RGBA`)
      read += fromFile.length > 0
    }
  }
  assert.equal(files.length, 137)
  assert.deepEqual(differ, [])
  assert.ok(read >= 254, `${read} reads of ${2 * files.length}`)
})
