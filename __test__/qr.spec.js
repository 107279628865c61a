'use strict'
// QR codes: every code is decoded by zxing-cpp (a decoder we did not write) and compared
// with its input; modules, text and SVG are compared with the real `qrcode` package.
const { test, describe, before, after } = require('node:test')
const assert = require('node:assert/strict')
const QRCode = require('qrcode')
const { PNG } = require('pngjs')
const qr = require('..')
const { QrDecoder } = require('../support/decoder')

let decoder
before(() => { decoder = new QrDecoder() })
after(() => decoder.close())

const LEVELS = ['L', 'M', 'Q', 'H']
const bytesOf = (input) => (typeof input === 'string' ? Buffer.from(input, 'utf8') : Buffer.from(input))

async function assertDecodes (png, input, note = '') {
  const got = await decoder.decode(png)
  assert.ok(got, `zxing-cpp found no QR code ${note}`)
  assert.deepEqual(got, bytesOf(input), `decoded payload differs ${note}`)
}

/** A deterministic pseudo-random generator, so failures reproduce. */
function rng (seed) {
  let s = seed >>> 0
  return () => { s = (s * 1664525 + 1013904223) >>> 0; return s / 2 ** 32 }
}

describe('decoding', () => {
  test('every level and every version 1..40 decodes to its input', async () => {
    const jobs = []
    for (const level of LEVELS) {
      for (let version = 1; version <= 40; version++) {
        const text = `QR${version}${level}`
        const m = qr.encode(text, { errorCorrectionLevel: level, version })
        assert.equal(m.version, version)
        assert.equal(m.errorCorrectionLevel, level)
        jobs.push(qr.generate(text, { errorCorrectionLevel: level, version, scale: 2 })
          .then((png) => assertDecodes(png, text, `(level ${level}, version ${version})`)))
      }
    }
    await Promise.all(jobs)
  })

  test('numeric, alphanumeric, byte, UTF-8 with emoji and mixed text decode', async () => {
    const inputs = [
      '0123456789012345678901234567890',
      'HELLO WORLD $%*+-./:',
      'hello, world',
      'Grüße, 日本語, emoji 😀🎉 and ✓',
      'ORDER-2026-11-30 id=1234567890123456 https://example.com/A/B?q=1'
    ]
    for (const text of inputs) await assertDecodes(await qr.generate(text), text)
  })

  test('binary Buffers and Uint8Arrays decode to the same bytes', async () => {
    const all = Buffer.alloc(256)
    for (let i = 0; i < 256; i++) all[i] = i
    await assertDecodes(await qr.generate(all), all)
    const u8 = new Uint8Array([0, 255, 10, 13, 0xc3, 0x28])
    await assertDecodes(qr.generateSync(u8), u8)
  })

  for (const level of LEVELS) {
    test(`the largest input at level ${level} decodes; one more is ERR_QR_DATA_TOO_LONG`, async () => {
      for (const [mode, ch] of [['numeric', '7'], ['alphanumeric', 'Q'], ['byte', 'q']]) {
        // Find the capacity with the reference package, then hold ours to it.
        let lo = 1; let hi = 8000
        while (lo < hi) {
          const mid = Math.ceil((lo + hi) / 2)
          try { QRCode.create(ch.repeat(mid), { errorCorrectionLevel: level }); lo = mid } catch { hi = mid - 1 }
        }
        const max = ch.repeat(lo)
        const m = qr.encode(max, { errorCorrectionLevel: level })
        assert.equal(m.version, 40, `${mode} capacity ${lo} should need version 40`)
        await assertDecodes(await qr.generate(max, { errorCorrectionLevel: level, scale: 2 }), max, `${mode} ×${lo}`)
        await assert.rejects(qr.generate(max + ch, { errorCorrectionLevel: level }),
          (e) => e instanceof RangeError && e.code === 'ERR_QR_DATA_TOO_LONG' && /too long/.test(e.message))
        assert.throws(() => qr.encode(max + ch, { errorCorrectionLevel: level }), { code: 'ERR_QR_DATA_TOO_LONG' })
      }
    })
  }

  test('generateMany, toDataURL and generateSync agree with generate', async () => {
    const texts = ['a', 'bb', 'https://example.com/x']
    const many = await qr.generateMany(texts, { width: 123 })
    assert.equal(many.length, 3)
    for (let i = 0; i < texts.length; i++) {
      assert.deepEqual(many[i], await qr.generate(texts[i], { width: 123 }))
      assert.deepEqual(many[i], qr.generateSync(texts[i], { width: 123 }))
      await assertDecodes(many[i], texts[i])
    }
    const url = await qr.toDataURL('data url', { margin: 2 })
    assert.match(url, /^data:image\/png;base64,/)
    const png = Buffer.from(url.slice('data:image/png;base64,'.length), 'base64')
    assert.deepEqual(png, qr.generateSync('data url', { margin: 2 }))
    const svgUrl = await qr.toDataURL('data url', { type: 'svg' })
    assert.match(svgUrl, /^data:image\/svg\+xml;base64,/)
    assert.equal(Buffer.from(svgUrl.split(',')[1], 'base64').toString(), await qr.toString('data url', { type: 'svg' }))
  })
})

describe('geometry and colours', () => {
  const size = (png) => { const p = PNG.sync.read(png); return [p.width, p.height] }

  test('width W gives a W×W image for every width tried', () => {
    // 'width test' is a 21-module symbol: 29 modules with the default margin.
    for (const width of [29, 51, 97, 100, 199, 200, 201, 333, 1000]) {
      assert.deepEqual(size(qr.generateSync('width test', { width, margin: 0 })), [width, width])
      assert.deepEqual(size(qr.generateSync('width test', { width })), [width, width])
    }
    assert.deepEqual(size(qr.generateSync('width test', { width: 21, margin: 0 })), [21, 21])
  })

  test('a width under one pixel per module falls back to scale, as in qrcode', async () => {
    const ours = PNG.sync.read(qr.generateSync('width test', { width: 28 }))
    const theirs = PNG.sync.read(await QRCode.toBuffer('width test', { width: 28 }))
    assert.equal(ours.width, theirs.width)
    assert.equal(ours.width, 29 * 4)
  })

  test('scale and margin give (modules + 2·margin)·scale pixels', () => {
    const m = qr.encode('scale test')
    for (const [scale, margin] of [[1, 0], [3, 2], [10, 4]]) {
      const side = (m.size + 2 * margin) * scale
      assert.deepEqual(size(qr.generateSync('scale test', { scale, margin })), [side, side])
    }
  })

  test('pixels match qrcode\'s RGBA pixels for widths, scales and margins', async () => {
    const cases = [{ width: 200 }, { width: 333, margin: 1 }, { scale: 3 }, { scale: 5, margin: 0 }, { width: 97 }]
    for (const opts of cases) {
      for (const text of ['pixels', 'https://example.com/some/long/path?x=12345678']) {
        const ours = PNG.sync.read(qr.generateSync(text, opts))
        const theirs = PNG.sync.read(await QRCode.toBuffer(text, opts))
        if (ours.width !== theirs.width) {
          // qrcode's floating point sometimes draws W-1 px for width W; ours is W.
          assert.equal(ours.width, theirs.width + 1, JSON.stringify(opts))
          continue
        }
        assert.deepEqual(ours.data, theirs.data, `${text} ${JSON.stringify(opts)}`)
      }
    }
  })

  test('colours with alpha reach the pixels', () => {
    const png = PNG.sync.read(qr.generateSync('colours', { scale: 2, margin: 1, color: { dark: '#ff000080', light: '#00f0' } }))
    const px = (x, y) => [...png.data.subarray((y * png.width + x) * 4, (y * png.width + x) * 4 + 4)]
    assert.deepEqual(px(0, 0), [0, 0, 0xff, 0])
    assert.deepEqual(px(2, 2), [0xff, 0, 0, 0x80]) // top-left finder corner
  })

  test('coloured codes still decode', async () => {
    const png = await qr.generate('coloured', { color: { dark: '#123', light: '#ffeeddff' } })
    await assertDecodes(png, 'coloured')
  })

  test('PNG is at most a third of qrcode\'s bytes at 200 px', async () => {
    const text = 'https://github.com/soldair/node-qrcode/a?b=1'
    const opts = { errorCorrectionLevel: 'L', width: 200 }
    const theirs = await QRCode.toBuffer(text, { ...opts, rendererOpts: { deflateLevel: 9, deflateStrategy: 3 } })
    const ours = qr.generateSync(text, opts)
    assert.ok(ours.length * 3 <= theirs.length, `${ours.length} B vs qrcode ${theirs.length} B`)
  })
})

describe('same symbols and text as qrcode', () => {
  const alphabets = ['0123456789', 'ABCDEFGHIJKLMNOPQRSTUVWXYZ $%*+-./:0123', 'abcdefghijklmnop/:.?=&0123456789ABC', 'é✓😀日本 ab12', '09AZaz']

  test('modules, version and mask equal qrcode.create for 600 random inputs', () => {
    const rand = rng(42)
    for (let i = 0; i < 600; i++) {
      const alphabet = alphabets[i % alphabets.length]
      const len = 1 + Math.floor(rand() * (i % 10 === 0 ? 900 : 90))
      let text = ''
      for (let j = 0; j < len; j++) text += alphabet[Math.floor(rand() * alphabet.length)]
      text = [...text].join('') // keep surrogate pairs whole
      const opts = { errorCorrectionLevel: LEVELS[i % 4] }
      if (i % 3 === 0) opts.maskPattern = i % 8
      if (i % 7 === 0) opts.version = 30
      let ref; let ours
      try { ref = QRCode.create(text, opts) } catch (e) { ref = e }
      try { ours = qr.encode(text, opts) } catch (e) { ours = e }
      if (ref instanceof Error) { assert.ok(ours instanceof Error, `qrcode failed but we did not: ${text}`); continue }
      assert.equal(ours.version, ref.version, text)
      assert.equal(ours.maskPattern, ref.maskPattern, text)
      assert.deepEqual(Buffer.from(ours.modules), Buffer.from(ref.modules.data), text)
    }
  })

  test('svg, utf8 and terminal strings equal qrcode.toString', async () => {
    const cases = [
      [{ type: 'svg' }], [{ type: 'svg', width: 300, margin: 2 }], [{ type: 'svg', color: { dark: '#00F8', light: '#0000' } }],
      [{ type: 'utf8' }], [{ type: 'utf8', margin: 2 }], [{ type: 'utf8', color: { dark: '#ffffff', light: '#000000' } }],
      [{ type: 'terminal' }], [{ type: 'terminal', small: true }]
    ]
    for (const [opts] of cases) {
      for (const text of ['A', 'hello world', 'https://example.com/0123456789']) {
        assert.equal(await qr.toString(text, opts), await QRCode.toString(text, opts), `${text} ${JSON.stringify(opts)}`)
      }
    }
  })
})

describe('AbortSignal', () => {
  test('an aborted signal rejects at once with AbortError', async () => {
    const reason = new Error('client went away')
    const signal = AbortSignal.abort(reason)
    await assert.rejects(qr.generate('x', { signal }), (e) => e.name === 'AbortError' && e.code === 'ABORT_ERR' && e.cause === reason)
    await assert.rejects(qr.toDataURL('x', { signal }), { name: 'AbortError' })
  })

  test('aborting while queued rejects the queued calls and the rest resolve', async () => {
    const controller = new AbortController()
    const calls = []
    for (let i = 0; i < 400; i++) calls.push(qr.generate('q'.repeat(1200) + i, { signal: controller.signal }))
    controller.abort()
    const settled = await Promise.allSettled(calls)
    const aborted = settled.filter((s) => s.status === 'rejected')
    assert.ok(aborted.length > 0, 'some queued calls were aborted')
    for (const s of aborted) assert.equal(s.reason.code, 'ABORT_ERR')
  })

  test('a signal shared by any number of calls holds one listener', async () => {
    const { getEventListeners } = require('node:events')
    const controller = new AbortController()
    await Promise.all(Array.from({ length: 50 }, () => qr.generate('reuse', { signal: controller.signal })))
    for (let i = 0; i < 50; i++) await qr.toDataURL('reuse', { signal: controller.signal })
    assert.equal(getEventListeners(controller.signal, 'abort').length, 1)
    const later = Array.from({ length: 200 }, () => qr.generate('x'.repeat(900), { signal: controller.signal }))
    controller.abort()
    const settled = await Promise.allSettled(later)
    assert.ok(settled.some((s) => s.status === 'rejected' && s.reason.code === 'ABORT_ERR'))
  })
})

describe('event loop', () => {
  // Timing lives in bench/; here only what cannot be noisy: whether timers run at all.
  async function ticksDuring (work) {
    let ticks = 0
    const timer = setInterval(() => { ticks++ }, 1)
    await work()
    clearInterval(timer)
    return ticks
  }
  const texts = Array.from({ length: 1000 }, (_, i) => 'x'.repeat(400) + i)

  test('timers keep firing while 1000 generate calls are in flight', async () => {
    const ticks = await ticksDuring(() => Promise.all(texts.map((t) => qr.generate(t))))
    assert.ok(ticks >= 2, `only ${ticks} timer ticks`)
  })

  test('no timer fires during 1000 generateSync calls', async () => {
    const ticks = await ticksDuring(async () => { for (const t of texts) qr.generateSync(t) })
    assert.equal(ticks, 0)
  })
})
