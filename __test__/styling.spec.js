'use strict'
// qr-native/styling against qr-code-styling itself (with jsdom and @napi-rs/canvas), on 200
// random option sets: the same module matrix (read from qr-code-styling's own
// qrcode-generator instance), and pictures that look the same: qr-code-styling's SVG
// rasterised by librsvg (sharp) next to our PNG, at most a few per cent of pixels apart by
// more than an anti-aliased edge. Then its API's edges: defaults, update, URLs refused,
// browser-only methods.
const { describe, test } = require('node:test')
const assert = require('node:assert/strict')
const fs = require('node:fs')
const path = require('node:path')
const { QRCodeStyling } = require('../styling.js')
const { QrDecoder } = require('../support/decoder')

let peer, sharp
try {
  peer = { JSDOM: require('jsdom').JSDOM, canvas: require('@napi-rs/canvas'), QRCodeStyling: require('qr-code-styling/lib/qr-code-styling.common.js').QRCodeStyling }
  sharp = require('sharp')
} catch { peer = null }
const NO_PEER = peer ? false : 'qr-code-styling, jsdom, @napi-rs/canvas and sharp (devDependencies) have no build for this platform here'
const COUNT = process.arch === 'x64' ? 200 : 25
const LOGO = 'data:image/png;base64,' + fs.readFileSync(path.join(__dirname, '..', 'examples', 'express', 'logo.png')).toString('base64')

// mulberry32: a seeded generator whose low bits are as random as its high ones.
let seed = 20261204
const rand = (n) => {
  seed = (seed + 0x6D2B79F5) | 0
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
  return (((t ^ (t >>> 14)) >>> 0) % n)
}
const pick = (list) => list[rand(list.length)]
const dark = () => '#' + [rand(96), rand(96), rand(96)].map((v) => v.toString(16).padStart(2, '0')).join('')
const gradient = () => ({ type: pick(['linear', 'radial']), rotation: rand(628) / 100, colorStops: [{ offset: 0, color: dark() }, { offset: 1, color: dark() }] })

function randomOptions () {
  const side = 200 + rand(200)
  const data = pick([
    () => 'https://example.com/' + Math.random().toString(36).slice(2, 2 + rand(40)),
    () => String(rand(1e9)).repeat(1 + rand(5)),
    () => 'HELLO WORLD ' + rand(99999),
    () => Array.from({ length: 5 + rand(60) }, () => String.fromCharCode(32 + rand(95))).join('')
  ])()
  const o = {
    width: side,
    height: side,
    data,
    margin: rand(20),
    shape: pick(['square', 'square', 'circle']),
    qrOptions: { errorCorrectionLevel: pick(['L', 'M', 'Q', 'H']) },
    dotsOptions: { type: pick(['square', 'dots', 'rounded', 'extra-rounded', 'classy', 'classy-rounded']), ...(rand(3) ? { color: dark() } : { gradient: gradient() }), roundSize: rand(4) !== 0 },
    backgroundOptions: { color: pick(['#ffffff', '#fffde7', '#e3f2fd']), round: pick([0, 0, 0.2, 1]) }
  }
  // qr-code-styling throws on a circle without roundSize (its borrowed modules index past
  // its matrix at fractional positions): not a case to compare.
  if (o.shape === 'circle') o.dotsOptions.roundSize = true
  if (rand(2)) o.cornersSquareOptions = { type: pick([undefined, 'square', 'dot', 'extra-rounded', 'dots', 'rounded', 'classy', 'classy-rounded']), ...(rand(2) ? { color: dark() } : {}) }
  if (rand(2)) o.cornersDotOptions = { type: pick([undefined, 'square', 'dot', 'dots', 'rounded', 'classy']), ...(rand(2) ? { color: dark() } : {}) }
  if (rand(3) === 0) o.image = LOGO
  if (o.image) o.imageOptions = { imageSize: pick([0.2, 0.3, 0.4, 0.5]), margin: rand(6), hideBackgroundDots: rand(4) !== 0 }
  return o
}

async function theirs (o) {
  const q = new peer.QRCodeStyling({ ...o, jsdom: peer.JSDOM, nodeCanvas: peer.canvas, type: 'svg' })
  const svg = await q.getRawData('svg')
  return { q, png: await sharp(svg).flatten({ background: '#ffffff' }).raw().toBuffer() }
}

describe('qr-native/styling against qr-code-styling', () => {
  test(`${COUNT} random option sets: the same modules, and pictures no more than a few per cent apart`, { skip: NO_PEER }, async () => {
    const worst = []
    const theyFailed = []
    for (let i = 0; i < COUNT; i++) {
      const o = randomOptions()
      const mine = new QRCodeStyling(o)
      let q, b
      try {
        ({ q, png: b } = await theirs(o))
      } catch (e) {
        // qr-code-styling itself throws on some circles (its borrowed modules index past the
        // matrix); ours draws them. Counted, not compared.
        theyFailed.push(`${i}: ${String(e).slice(0, 80)}`)
        await mine.getRawData('png')
        continue
      }
      const n = q._qr.getModuleCount()
      const modules = mine._modules()
      assert.equal(modules.length, n * n, `option set ${i}: ${Math.sqrt(modules.length)} modules a side, qr-code-styling ${n}`)
      let diff = 0
      for (let r = 0; r < n; r++) for (let c = 0; c < n; c++) if ((modules[r * n + c] === 1) !== q._qr.isDark(r, c)) diff++
      assert.equal(diff, 0, `option set ${i}: ${diff} modules differ (${JSON.stringify(o).slice(0, 300)})`)
      const a = await sharp(await mine.getRawData('png')).flatten({ background: '#ffffff' }).raw().toBuffer()
      assert.equal(a.length, b.length)
      let far = 0
      for (let k = 0; k < a.length; k += 3) if (Math.max(Math.abs(a[k] - b[k]), Math.abs(a[k + 1] - b[k + 1]), Math.abs(a[k + 2] - b[k + 2])) > 64) far++
      worst.push({ i, share: far / (a.length / 3), o })
    }
    assert.ok(theyFailed.length < COUNT / 10, `qr-code-styling failed on ${theyFailed.length}: ${theyFailed.join('; ')}`)
    worst.sort((x, y) => y.share - x.share)
    console.log(`${worst.length} compared (${theyFailed.length} qr-code-styling could not draw); the most pixels apart: ${(100 * worst[0].share).toFixed(2)} %`)
    const over = worst.filter((w) => w.share > 0.03)
    assert.deepEqual(over.map((w) => `${w.i}: ${(100 * w.share).toFixed(1)} % (${JSON.stringify(w.o).slice(0, 200)})`), [])
  })

  test('its defaults draw what qr-code-styling\'s defaults draw, and the code scans', { skip: NO_PEER }, async () => {
    const zxing = new QrDecoder()
    const png = await new QRCodeStyling({ data: 'defaults' }).getRawData()
    assert.equal(String(await zxing.decode(png)), 'defaults')
    const { png: b } = await theirs({ data: 'defaults' })
    const a = await sharp(png).flatten({ background: '#ffffff' }).raw().toBuffer()
    let far = 0
    for (let k = 0; k < a.length; k += 3) if (Math.abs(a[k] - b[k]) > 64) far++
    assert.ok(far / (a.length / 3) < 0.01)
  })
})

describe('qr-native/styling\'s API', () => {
  test('getRawData writes PNG, JPEG, WebP and SVG; update re-encodes', async () => {
    const q = new QRCodeStyling({ data: 'first', dotsOptions: { type: 'rounded' } })
    const png = await q.getRawData('png')
    assert.equal(png.subarray(1, 4).toString(), 'PNG')
    assert.deepEqual([...(await q.getRawData('jpeg')).subarray(0, 3)], [0xff, 0xd8, 0xff])
    assert.equal((await q.getRawData('webp')).subarray(8, 12).toString(), 'WEBP')
    assert.match((await q.getRawData('svg')).toString(), /^<svg /)
    const zxing = new QrDecoder()
    q.update({ data: 'second' })
    assert.equal(String(await zxing.decode(await q.getRawData())), 'second')
    await assert.rejects(q.getRawData('gif'), /Extension "gif" is not supported/)
  })

  test('URLs are refused (nothing is fetched); browser-only methods say what to use', async () => {
    await assert.rejects(new QRCodeStyling({ data: 'x', image: 'https://example.com/logo.png' }).getRawData(), (e) => e.code === 'ERR_INVALID_ARG_VALUE' && /fetches nothing/.test(e.message))
    const q = new QRCodeStyling({ data: 'x' })
    for (const m of ['append', 'download', 'applyExtension']) assert.throws(() => q[m](), (e) => e.code === 'ERR_METHOD_NOT_IMPLEMENTED' && /getRawData|extensions/.test(e.message))
    await assert.rejects(new QRCodeStyling().getRawData(), /QR code is empty/)
    await assert.rejects(new QRCodeStyling({ data: 'x', width: 300, height: 200 }).getRawData(), (e) => e.code === 'ERR_INVALID_ARG_VALUE')
  })

  test('an SVG logo as a data: URL, base64 or percent-escaped text, and a PNG as escaped bytes', async () => {
    const svg = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 60"><rect width="100" height="60" rx="10" fill="#c62828"/><title>Ünïcode</title></svg>'
    const png = fs.readFileSync(path.join(__dirname, '..', 'examples', 'express', 'logo.png'))
    const images = [
      'data:image/svg+xml;base64,' + Buffer.from(svg).toString('base64'),
      'data:image/svg+xml,' + encodeURIComponent(svg),
      'data:image/svg+xml;utf8,' + svg.replace(/#/g, '%23'),
      'data:image/png,' + [...png].map((b) => '%' + b.toString(16).padStart(2, '0')).join('')
    ]
    const zxing = new QrDecoder()
    const drawn = []
    for (const image of images) {
      const q = new QRCodeStyling({ data: 'https://example.com/svg', width: 300, height: 300, image, dotsOptions: { type: 'rounded' } })
      const out = await q.getRawData('png')
      assert.equal(String(await zxing.decode(out)), 'https://example.com/svg')
      drawn.push(out)
    }
    // The three spellings of the SVG are the same file: the same picture.
    assert.ok(drawn[0].equals(drawn[1]) && drawn[0].equals(drawn[2]))
  })

  test('it draws what qr-code-styling draws, readable or not: a dotted finder centre is not refused', async () => {
    const png = await new QRCodeStyling({ data: 'x', cornersDotOptions: { type: 'dots' } }).getRawData()
    assert.equal(png.subarray(1, 4).toString(), 'PNG')
  })
})
