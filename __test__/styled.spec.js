'use strict'
// Styled codes, decoded by zxing-wasm (a decoder we did not write): a covering sample of
// shapes × paints × levels × square/circle in PNG, SVG (rasterised by resvg and by librsvg,
// through @resvg/resvg-js and sharp), JPEG and WebP (read by sharp); logos from another
// project (pino's, MIT, in fixtures/logos) in five file formats, from 0.1 up to the budget;
// the budget's refusal and the size it names; and every option's bad values.
const { describe, test } = require('node:test')
const assert = require('node:assert/strict')
const fs = require('node:fs')
const path = require('node:path')
const q = require('../index.js')
const { QrDecoder } = require('../support/decoder')

let sharp, Resvg
try { sharp = require('sharp') } catch { sharp = null }
try { ({ Resvg } = require('@resvg/resvg-js')) } catch { Resvg = null }
const NO_SHARP = sharp ? false : 'sharp (a devDependency) has no build for this platform here'
const NO_RESVG = Resvg ? false : '@resvg/resvg-js (a devDependency) has no build for this platform here'
// Under qemu (arm64 in CI) every eighth case: the same paths, an eighth of the time.
const STEP = process.arch === 'x64' ? 1 : 8

const zxing = new QrDecoder()
const LOGOS = path.join(__dirname, 'fixtures', 'logos')
const WIDE = fs.readFileSync(path.join(LOGOS, 'pino-logo.png'))
const SQUARE = fs.readFileSync(path.join(LOGOS, 'pino-favicon.png'))

const DOTS = ['square', 'dots', 'rounded', 'extra-rounded', 'classy', 'classy-rounded']
const RINGS = ['square', 'dot', 'extra-rounded', 'dots', 'rounded', 'classy', 'classy-rounded']
const CENTRES = ['square', 'dot', 'rounded', 'extra-rounded', 'classy', 'classy-rounded']
const LEVELS = ['L', 'M', 'Q', 'H']
const TEXTS = ['https://example.com/', 'Styled codes scan: 0123456789', 'ÄÖÜ äöü – ünïcödé', 'https://github.com/pinojs/pino/blob/main/docs/api.md']
const gradient = (i) => ({
  type: i % 2 ? 'radial' : 'linear',
  rotation: (i * 0.9) % 6.3,
  colorStops: [{ offset: 0, color: '#0d47a1' }, { offset: 0.6, color: '#4a148c' }, { offset: 1, color: '#b71c1c' }]
})

/** The `i`-th case of the covering sample: every shape of each part appears with each level. */
function sample (i) {
  const painted = i % 2 === 1
  const dots = DOTS[i % 6]
  let ring = RINGS[(i >> 1) % 7]
  let centre = CENTRES[(i >> 2) % 6]
  // Leave out what generate refuses (styled-matrix.spec.js measures those).
  if (ring === 'dot' && ['square', 'classy', 'classy-rounded'].includes(centre)) centre = 'dot'
  if (dots === 'dots' && ring === 'dots') ring = 'rounded'
  return {
    text: TEXTS[i % TEXTS.length],
    level: LEVELS[i % 4],
    style: {
      dots: painted ? { type: dots, gradient: gradient(i) } : { type: dots, color: '#263238' },
      cornersSquare: { type: ring, ...(painted && i % 3 === 0 ? { gradient: gradient(i + 1) } : {}) },
      cornersDot: { type: centre, ...(painted ? { color: '#b71c1c' } : {}) },
      background: { color: i % 5 === 0 ? '#fffde7' : '#ffffff', round: i % 3 === 0 ? 0.15 : 0 },
      shape: i % 4 === 3 ? 'circle' : 'square'
    }
  }
}

async function read (png) {
  const bytes = await zxing.decode(png)
  return bytes === null ? null : bytes.toString('utf8')
}

const CASES = 336 // 6 dots × 7 rings × 2 paints × 4 levels, in an order that mixes them
const cases = []
for (let i = 0; i < CASES; i += STEP) cases.push(sample(i))

describe('a covering sample of styles scans in every format', () => {
  test(`PNG: ${cases.length} styles, decoded by zxing-wasm and by decode`, async () => {
    const failed = []
    for (const c of cases) {
      const png = await q.generate(c.text, { width: 360, margin: 2, errorCorrectionLevel: c.level, style: c.style })
      if (await read(png) !== c.text) failed.push(['zxing', c])
      const mine = q.decodeSync(png)
      if (mine.length !== 1 || mine[0].text !== c.text) failed.push(['decode', c])
    }
    assert.deepEqual(failed, [])
  })

  test('SVG, rasterised by resvg', { skip: NO_RESVG }, async () => {
    const failed = []
    for (const c of cases) {
      const svg = await q.generate(c.text, { type: 'svg', width: 360, margin: 2, errorCorrectionLevel: c.level, style: c.style })
      assert.match(svg.toString(), /^<svg xmlns="http:\/\/www.w3.org\/2000\/svg" width="360" height="360"/)
      const png = new Resvg(svg).render().asPng()
      if (await read(png) !== c.text) failed.push(c)
    }
    assert.deepEqual(failed, [])
  })

  test('SVG, rasterised by librsvg (sharp)', { skip: NO_SHARP }, async () => {
    const failed = []
    for (const c of cases.filter((_, i) => i % 4 === 0)) {
      const svg = await q.generate(c.text, { type: 'svg', width: 360, margin: 2, errorCorrectionLevel: c.level, style: c.style })
      const png = await sharp(svg).png().toBuffer()
      if (await read(png) !== c.text) failed.push(c)
    }
    assert.deepEqual(failed, [])
  })

  test('JPEG at quality 90 and 40, decoded by zxing-wasm', async () => {
    const failed = []
    for (const [i, c] of cases.entries()) {
      const quality = i % 2 ? 40 : 90
      const jpeg = await q.generate(c.text, { type: 'jpeg', quality, width: 360, margin: 2, errorCorrectionLevel: c.level, style: c.style })
      assert.deepEqual([...jpeg.subarray(0, 3)], [0xff, 0xd8, 0xff])
      if (await read(jpeg) !== c.text) failed.push({ quality, ...c })
    }
    assert.deepEqual(failed, [])
  })

  test('WebP (lossless), read by sharp, decoded by zxing-wasm', { skip: NO_SHARP }, async () => {
    const failed = []
    for (const c of cases) {
      const webp = await q.generate(c.text, { type: 'webp', width: 360, margin: 2, errorCorrectionLevel: c.level, style: c.style })
      assert.equal(webp.subarray(8, 12).toString(), 'WEBP')
      if (await read(await sharp(webp).png().toBuffer()) !== c.text) failed.push(c)
    }
    assert.deepEqual(failed, [])
  })

  test('PNG and WebP draw the same pixels; SVG through resvg differs only at anti-aliased edges', { skip: NO_SHARP || NO_RESVG }, async () => {
    const c = sample(5)
    const options = { width: 300, margin: 2, style: c.style }
    const raw = async (img) => (await sharp(img).ensureAlpha().raw().toBuffer())
    const png = await raw(q.generateSync(c.text, options))
    const webp = await raw(q.generateSync(c.text, { ...options, type: 'webp' }))
    assert.ok(png.equals(webp))
    const svg = await raw(new Resvg(q.generateSync(c.text, { ...options, type: 'svg' })).render().asPng())
    let far = 0
    for (let i = 0; i < png.length; i += 4) {
      const d = Math.max(...[0, 1, 2, 3].map((k) => Math.abs(png[i + k] - svg[i + k])))
      if (d > 64) far++
    }
    assert.ok(far / (png.length / 4) < 0.01, `${far} of ${png.length / 4} pixels differ by more than 64`)
  })
})

describe('logos', () => {
  test('from 0.1 up to the budget, wide and square, hidden or not, every level: zxing-wasm and decode read them', async () => {
    const failed = []
    let n = 0
    for (const [li, level] of ['L', 'M', 'Q', 'H'].entries()) {
      for (const [ti, text] of TEXTS.entries()) {
        for (const logo of [WIDE, SQUARE]) {
          if ((n++) % STEP) continue
          // The largest size that fits, as the refusal names it.
          let largest = null
          try {
            q.generateSync(text, { errorCorrectionLevel: level, style: { logo: { image: logo, size: 0.5 } } })
            largest = 0.5
          } catch (e) {
            assert.equal(e.code, 'ERR_QR_LOGO_TOO_LARGE', e.message)
            assert.ok(e instanceof RangeError)
            const m = /the largest size that fits is ([\d.]+)/.exec(e.message)
            if (m) largest = Number(m[1])
          }
          if (largest === null) continue
          for (const size of [0.1, (0.1 + largest) / 2, largest].filter((s) => s <= largest)) {
            const style = { dots: { type: DOTS[(li + ti) % 6] }, logo: { image: logo, size, margin: 2, hideBackgroundDots: (ti + li) % 2 === 0 } }
            const png = await q.generate(text, { width: 400, margin: 2, errorCorrectionLevel: level, style })
            if (await read(png) !== text) failed.push(['zxing', level, text, size])
            const mine = q.decodeSync(png)
            if (mine.length !== 1 || mine[0].text !== text) failed.push(['decode', level, text, size])
          }
        }
      }
    }
    assert.deepEqual(failed, [])
  })

  test('past the budget is refused; without a size, the largest that fits (at most 0.3) is drawn at level H', async () => {
    const text = TEXTS[3]
    const e = assert.throws(() => q.generateSync(text, { style: { logo: { image: SQUARE, size: 0.45 } } }), (err) => {
      assert.equal(err.code, 'ERR_QR_LOGO_TOO_LARGE')
      assert.match(err.message, /level 'H'/)
      return true
    })
    void e
    const auto = q.encode(text, { errorCorrectionLevel: 'H' })
    const png = await q.generate(text, { width: 400, style: { logo: { image: SQUARE } } })
    assert.equal(await read(png), text)
    // The same modules as an unstyled code at level H: the logo chose the level.
    const plain = q.decodeSync(png)[0]
    assert.equal(plain.version, auto.version)
    assert.equal(plain.errorCorrectionLevel, 'H')
  })

  test('PNG, JPEG, WebP, GIF and BMP logo files', { skip: NO_SHARP }, async () => {
    const { data, info } = await sharp(SQUARE).ensureAlpha().raw().toBuffer({ resolveWithObject: true })
    const bmp = Buffer.alloc(54 + data.length)
    bmp.write('BM'); bmp.writeUInt32LE(bmp.length, 2); bmp.writeUInt32LE(54, 10); bmp.writeUInt32LE(40, 14)
    bmp.writeInt32LE(info.width, 18); bmp.writeInt32LE(-info.height, 22); bmp.writeUInt16LE(1, 26); bmp.writeUInt16LE(32, 28)
    for (let i = 0; i < data.length; i += 4) { bmp[54 + i] = data[i + 2]; bmp[55 + i] = data[i + 1]; bmp[56 + i] = data[i]; bmp[57 + i] = data[i + 3] }
    const files = {
      png: SQUARE,
      jpeg: await sharp(WIDE).flatten({ background: '#ffffff' }).resize(400).jpeg().toBuffer(),
      webp: await sharp(WIDE).resize(300).webp().toBuffer(),
      gif: await sharp(SQUARE).gif().toBuffer(),
      bmp
    }
    for (const [format, image] of Object.entries(files)) {
      for (const type of ['png', 'svg']) {
        const out = await q.generate(TEXTS[0], { type, width: 300, style: { logo: { image, size: 0.15 } } })
        const png = type === 'svg' ? (Resvg ? new Resvg(out).render().asPng() : await sharp(out).png().toBuffer()) : out
        assert.equal(await read(png), TEXTS[0], `${format} logo in ${type}`)
        if (type === 'svg') {
          // A small PNG, JPEG, WebP or GIF is embedded as given; BMP as a PNG written anew.
          const mime = format === 'bmp' ? 'png' : format
          assert.match(out.toString(), new RegExp(`<image [^>]*href="data:image/${mime};base64,`))
          assert.equal(out.toString().includes(image.toString('base64')), format !== 'bmp')
        }
      }
    }
  })

  test('SVG logos nobody here drew (super-tiny-icons, MIT) are drawn from their paths and decode, or are refused by name', async () => {
    const dir = path.join(path.dirname(require.resolve('super-tiny-icons/package.json')), 'images', 'svg')
    const files = fs.readdirSync(dir).filter((f) => f.endsWith('.svg')).sort()
    assert.ok(files.length > 300, `${files.length} logos`)
    const refused = {}
    let drawn = 0
    for (const [i, name] of files.entries()) {
      if (i % STEP) continue
      const image = fs.readFileSync(path.join(dir, name))
      const text = `https://example.com/${name}`
      let png
      try {
        png = await q.generate(text, { width: 300, style: { logo: { image } } })
      } catch (e) {
        // What SVG logos may not hold is refused with a message that names it.
        assert.ok(e instanceof TypeError && e.code === 'ERR_INVALID_ARG_VALUE', `${name}: ${e.code} ${e.message}`)
        const element = /holds a <(\w+)> element/.exec(e.message)
        assert.ok(element, `${name}: ${e.message}`)
        refused[element[1]] = (refused[element[1]] ?? 0) + 1
        continue
      }
      drawn++
      assert.equal(await read(png), text, `${name} in PNG`)
      // The SVG embeds the logo as usvg writes it back; resvg draws it (every eighth: the same path).
      if (Resvg && i % 8 === 0) {
        const svg = await q.generate(text, { type: 'svg', width: 300, style: { logo: { image } } })
        assert.match(svg.toString(), /<image [^>]*href="data:image\/svg\+xml;base64,/)
        assert.equal(await read(new Resvg(svg).render().asPng()), text, `${name} in SVG`)
      }
    }
    // Measured: 2 of 364 hold <text>, 3 a filter (recorded so that a change shows here).
    const total = Object.values(refused).reduce((a, b) => a + b, 0)
    assert.ok(total <= Math.ceil(files.length / STEP / 20), JSON.stringify(refused))
    assert.ok(drawn >= Math.floor(files.length / STEP) - total)
  })

  test('an SVG logo keeps its aspect, is drawn where a PNG of it would be, and is sized by the budget', { skip: NO_SHARP }, async () => {
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 50"><rect width="100" height="50" rx="8" fill="#c62828"/></svg>')
    const png = await sharp(svg, { density: 72 * 4 }).resize(400, 200).png().toBuffer()
    const a = await sharp(q.generateSync('aspect', { width: 300, style: { logo: { image: svg, size: 0.2 } } })).raw().toBuffer({ resolveWithObject: true })
    const b = await sharp(q.generateSync('aspect', { width: 300, style: { logo: { image: png, size: 0.2 } } })).raw().toBuffer({ resolveWithObject: true })
    let differ = 0
    for (let k = 0; k < a.data.length; k += a.info.channels) {
      if (Math.abs(a.data[k] - b.data[k]) + Math.abs(a.data[k + 1] - b.data[k + 1]) > 64) differ++
    }
    assert.ok(differ / (a.info.width * a.info.height) < 0.01, `${differ} pixels differ`)
    assert.throws(() => q.generateSync('aspect', { errorCorrectionLevel: 'L', style: { logo: { image: svg, size: 0.5 } } }),
      (e) => e.code === 'ERR_QR_LOGO_TOO_LARGE')
  })
})

describe('formats and functions', () => {
  test('a plain style writes a 1-bit palette PNG; a gradient at most 8 bits a channel', () => {
    const plain = q.generateSync('palette', { style: {} })
    assert.deepEqual([plain[24], plain[25]], [1, 3], 'bit depth 1, indexed')
    const two = q.generateSync('palette', { style: { dots: { type: 'dots', color: '#c62828' }, background: { color: '#fff' } } })
    assert.equal(two[25], 3, 'anti-aliased dots in two colours still fit a palette')
    const rich = q.generateSync('palette', { width: 300, style: { dots: { gradient: gradient(0) } } })
    assert.ok([2, 3, 6].includes(rich[25]))
  })

  test('toDataURL names each format', async () => {
    for (const [type, mime] of [['png', 'png'], ['svg', 'svg+xml'], ['jpeg', 'jpeg'], ['webp', 'webp']]) {
      const url = await q.toDataURL('data url', { type, style: { dots: { type: 'rounded' } } })
      assert.ok(url.startsWith(`data:image/${mime};base64,`), url.slice(0, 40))
    }
    const jpeg = await q.toDataURL('plain jpeg', { type: 'jpeg' })
    assert.equal(await read(Buffer.from(jpeg.split(',')[1], 'base64')), 'plain jpeg')
  })

  test('toString draws a styled SVG; utf8 and terminal refuse a style', async () => {
    const svg = await q.toString('styled svg', { type: 'svg', style: { dots: { type: 'dots' } } })
    assert.match(svg, /^<svg [^>]*><rect width="100%" height="100%" fill="#ffffff"\/><path fill="#000000" d="M/)
    for (const type of ['utf8', 'terminal']) {
      await assert.rejects(q.toString('x', { type, style: {} }), (e) => e instanceof TypeError && e.code === 'ERR_INVALID_ARG_VALUE' && /cannot be styled/.test(e.message))
    }
    await assert.rejects(q.toString('x', { type: 'jpeg' }), (e) => e.code === 'ERR_INVALID_ARG_VALUE')
  })

  test('generateMany with a style and a logo draws each input', async () => {
    const inputs = TEXTS.slice(0, 3)
    const out = await q.generateMany(inputs, { width: 300, style: { dots: { type: 'classy' }, logo: { image: SQUARE, size: 0.15 } } })
    for (const [i, png] of out.entries()) assert.equal(await read(png), inputs[i])
  })

  test('a logo buffer transferred, resized or rewritten right after the call does not change the code', async () => {
    const ab = new ArrayBuffer(SQUARE.length, { maxByteLength: SQUARE.length })
    const logo = new Uint8Array(ab)
    logo.set(SQUARE)
    const p1 = q.generate(TEXTS[0], { style: { logo: { image: logo, size: 0.15 } } })
    ab.resize(0)
    const copy = Uint8Array.from(SQUARE)
    const p2 = q.generate(TEXTS[1], { style: { logo: { image: copy, size: 0.15 } } })
    structuredClone(copy.buffer, { transfer: [copy.buffer] })
    const buf = Buffer.from(SQUARE)
    const p3 = q.generate(TEXTS[2], { style: { logo: { image: buf, size: 0.15 } } })
    buf.fill(0)
    assert.equal(await read(await p1), TEXTS[0])
    assert.equal(await read(await p2), TEXTS[1])
    assert.equal(await read(await p3), TEXTS[2])
  })
})

describe('bad style options: a clear error, the right class and code', () => {
  const bad = [
    [{ style: 1 }, TypeError, 'ERR_INVALID_ARG_TYPE', /"options.style" argument must be of type object/],
    [{ style: { dots: 'rounded' } }, TypeError, 'ERR_INVALID_ARG_TYPE', /options.style.dots/],
    [{ style: { dots: { type: 'hexagon' } } }, TypeError, 'ERR_INVALID_ARG_VALUE', /options.style.dots.type' must be one of 'square', 'dots'/],
    [{ style: { cornersSquare: { type: 'star' } } }, TypeError, 'ERR_INVALID_ARG_VALUE', /cornersSquare.type/],
    [{ style: { cornersDot: { type: 'dots' } } }, TypeError, 'ERR_QR_STYLE_UNREADABLE', /cornersDot 'dots'.*use cornersDot 'dot'/],
    [{ style: { cornersSquare: { type: 'dot' } } }, TypeError, 'ERR_QR_STYLE_UNREADABLE', /cornersSquare 'dot', cornersDot 'square'.*use cornersDot 'dot'/],
    [{ style: { dots: { type: 'dots' }, cornersSquare: { type: 'dots' }, cornersDot: { type: 'dot' } } }, TypeError, 'ERR_QR_STYLE_UNREADABLE', /use cornersSquare 'rounded'/],
    [{ style: { dots: { color: 'red' } } }, TypeError, 'ERR_INVALID_ARG_VALUE', /options.style.dots.color' must be a hex colour/],
    [{ style: { dots: { gradient: { colorStops: [{ offset: 0, color: '#000' }] } } } }, RangeError, 'ERR_OUT_OF_RANGE', /colorStops.length.*>= 2 and <= 16. Received 1/],
    [{ style: { dots: { gradient: { colorStops: Object.assign([], { length: 1e6 }) } } } }, RangeError, 'ERR_OUT_OF_RANGE', /Received 1000000/],
    [{ style: { dots: { gradient: { colorStops: 'red' } } } }, TypeError, 'ERR_INVALID_ARG_TYPE', /colorStops/],
    [{ style: { dots: { gradient: { colorStops: [{ offset: 0, color: '#000' }, { offset: NaN, color: '#fff' }] } } } }, RangeError, 'ERR_OUT_OF_RANGE', /colorStops\[1\].offset.*Received NaN/],
    [{ style: { dots: { gradient: { colorStops: [{ offset: 0.5, color: '#000' }, { offset: 0.2, color: '#fff' }] } } } }, RangeError, 'ERR_OUT_OF_RANGE', /not below the offset before it/],
    [{ style: { dots: { gradient: { rotation: Infinity, colorStops: [{ offset: 0, color: '#000' }, { offset: 1, color: '#fff' }] } } } }, RangeError, 'ERR_OUT_OF_RANGE', /rotation.*Received Infinity/],
    [{ style: { dots: { gradient: { type: 'conic', colorStops: [] } } } }, TypeError, 'ERR_INVALID_ARG_VALUE', /'linear', 'radial'/],
    [{ style: { background: { round: 2 } } }, RangeError, 'ERR_OUT_OF_RANGE', /round.*<= 1. Received 2/],
    [{ style: { shape: 'heart' } }, TypeError, 'ERR_INVALID_ARG_VALUE', /'square', 'circle'/],
    [{ style: { logo: {} } }, TypeError, 'ERR_INVALID_ARG_TYPE', /logo.image/],
    [{ style: { logo: { image: 'logo.png' } } }, TypeError, 'ERR_INVALID_ARG_TYPE', /logo.image/],
    [{ style: { logo: { image: Buffer.alloc(0) } } }, TypeError, 'ERR_INVALID_ARG_VALUE', /must not be empty/],
    [{ style: { logo: { image: Buffer.from('not an image at all') } } }, TypeError, 'ERR_INVALID_ARG_VALUE', /could not be read as an image/],
    [{ style: { logo: { image: SQUARE.subarray(0, 200) } } }, TypeError, 'ERR_INVALID_ARG_VALUE', /could not be read as an image/],
    [{ style: { logo: { image: SQUARE, size: 0 } } }, RangeError, 'ERR_OUT_OF_RANGE', /size.*> 0 and <= 0.5/],
    [{ style: { logo: { image: SQUARE, size: 0.6 } } }, RangeError, 'ERR_OUT_OF_RANGE', /size/],
    [{ style: { logo: { image: SQUARE, margin: -1 } } }, RangeError, 'ERR_OUT_OF_RANGE', /margin/],
    [{ style: { logo: { image: SQUARE, hideBackgroundDots: 'yes' } } }, TypeError, 'ERR_INVALID_ARG_TYPE', /hideBackgroundDots/],
    [{ type: 'gif' }, TypeError, 'ERR_INVALID_ARG_VALUE', /'png', 'svg', 'jpeg', 'webp'/],
    [{ type: 'jpeg', quality: 0 }, RangeError, 'ERR_OUT_OF_RANGE', /quality.*>= 1 and <= 100/],
    [{ type: 'jpeg', quality: 50.5 }, RangeError, 'ERR_OUT_OF_RANGE', /quality/],
    [{ type: 'utf8', style: {} }, TypeError, 'ERR_INVALID_ARG_VALUE', /cannot be styled/]
  ]
  for (const [options, Class, code, message] of bad) {
    test(`${JSON.stringify(options).slice(0, 90)} → ${code}`, async () => {
      const check = (e) => e instanceof Class && e.code === code && message.test(e.message)
      assert.throws(() => q.generateSync('bad', options), check)
      await assert.rejects(q.generate('bad', options), check)
    })
  }

  test('a getter that throws inside style rejects with what it threw', async () => {
    const boom = new Error('from a getter')
    const style = { dots: { get type () { throw boom } } }
    await assert.rejects(q.generate('x', { style }), (e) => e === boom)
    assert.throws(() => q.generateSync('x', { style }), (e) => e === boom)
  })
})

describe('the CLI\'s style flags', () => {
  const { spawnSync } = require('node:child_process')
  const os = require('node:os')
  const cli = path.join(__dirname, '..', 'bin', 'qr-native.js')
  const run = (args) => spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8', input: '' })

  test('--dots, --corners, --corner-dots, --gradient and --logo write a code that scans, as PNG and JPEG', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'qr-native-cli-'))
    try {
      for (const file of ['styled.png', 'styled.jpg']) {
        const out = path.join(dir, file)
        const r = run(['--dots', 'rounded', '--corners', 'extra-rounded', '--corner-dots', 'dot', '--gradient', 'radial:#0d47a1,#b71c1c',
          '--logo', path.join(LOGOS, 'pino-favicon.png'), '--logo-size', '0.12', '-o', out, 'https://example.com/cli'])
        assert.equal(r.status, 0, r.stderr)
        assert.equal(await read(fs.readFileSync(out)), 'https://example.com/cli', file)
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true })
    }
  })

  test('style flags without -o, and a shape off the list, exit 1 saying why', () => {
    const noFile = run(['--dots', 'rounded', 'x'])
    assert.equal(noFile.status, 1)
    assert.match(noFile.stderr, /style options -> output/)
    const bad = run(['--dots', 'star', '-o', path.join(os.tmpdir(), `qr-native-bad-${process.pid}.png`), 'x'])
    assert.equal(bad.status, 1)
    assert.match(bad.stderr, /must be one of 'square', 'dots'/)
  })
})

describe('decode on qr-code-styling\'s own drawings', () => {
  let peer = null
  try {
    peer = { JSDOM: require('jsdom').JSDOM, QRCodeStyling: require('qr-code-styling/lib/qr-code-styling.common.js').QRCodeStyling }
  } catch { peer = null }
  test('every corner-square × corner-dot combination it draws, nine-dot centres too: decode reads them all', { skip: NO_SHARP || (peer ? false : 'qr-code-styling and jsdom (devDependencies) are missing') }, async () => {
    const text = 'https://qr-native.example/styled?id=42'
    let z = 0
    let ours = 0
    let n = 0
    let drawn = 0
    for (const ring of RINGS) {
      for (const centre of [...CENTRES, 'dots']) {
        if (n++ % STEP) continue
        drawn++
        const svg = await new peer.QRCodeStyling({
          width: 300, height: 300, margin: 8, data: text, jsdom: peer.JSDOM, type: 'svg',
          dotsOptions: { type: 'rounded', color: '#222222' }, cornersSquareOptions: { type: ring }, cornersDotOptions: { type: centre }
        }).getRawData('svg')
        // librsvg (through sharp): resvg 2.6 does not draw qr-code-styling's quoted clip-path URLs.
        const png = await sharp(svg).flatten({ background: '#ffffff' }).png().toBuffer()
        if (await read(png) === text) z++
        if (q.decodeSync(png).some((c) => c.text === text)) ours++
      }
    }
    assert.equal(ours, drawn, `decode read ${ours} of ${drawn} (zxing-wasm ${z})`)
    assert.ok(z > 0)
    // Every combination drawn (x64): the nine-dot centres are what zxing-wasm misses.
    if (STEP === 1) assert.ok(z < drawn, `zxing-wasm read ${z} of ${drawn}`)
  })
})
