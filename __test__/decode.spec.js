'use strict'
// Reading codes: every code `generate` makes reads back to the same bytes, version, level
// and mask; positions land on the symbol; pixels come as files or as { data, width, height };
// the calls go through the queue; bad arguments get Node's errors. The codes read here are
// also read by zxing-cpp (zxing-wasm), a decoder we did not write, in the same run.
const { test, describe, before } = require('node:test')
const assert = require('node:assert/strict')
const { PNG } = require('pngjs')
const qr = require('..')
const { QrDecoder } = require('../support/decoder')

let zxing
before(() => { zxing = new QrDecoder() })

const LEVELS = ['L', 'M', 'Q', 'H']
const bytesOf = (input) => (typeof input === 'string' ? Buffer.from(input, 'utf8') : Buffer.from(input))

/** What a phone shows for bytes without an ECI, by Node's own decoders: UTF-8, else Shift JIS, else Latin-1. */
function inferred (bytes) {
  for (const label of ['utf-8', 'shift_jis']) {
    try { return [new TextDecoder(label, { fatal: true }).decode(bytes), label === 'utf-8' ? 'UTF-8' : 'Shift_JIS'] } catch {}
  }
  return [Buffer.from(bytes).toString('latin1'), 'ISO-8859-1']
}

/** Reads `png` with decodeSync and checks the one code against `input` and `encode`'s matrix. */
function assertReads (png, input, options, note) {
  const found = qr.decodeSync(png)
  assert.equal(found.length, 1, `one code read ${note}`)
  const [code] = found
  const m = qr.encode(input, options)
  assert.deepEqual(Buffer.from(code.bytes), bytesOf(input), `bytes ${note}`)
  const [text, charset] = inferred(bytesOf(input))
  assert.equal(code.text, text, `text ${note}`)
  assert.ok(code.segments.every((s) => s.charset === charset && s.charsetFrom === 'inferred'), `charset ${note}`)
  assert.deepEqual([code.version, code.errorCorrectionLevel, code.mask], [m.version, m.errorCorrectionLevel, m.maskPattern], `version, level, mask ${note}`)
  // The segments tile the payload, in order.
  assert.ok(code.segments.length > 0, `segments ${note}`)
  code.segments.forEach((s, i) => assert.equal(s.start, i ? code.segments[i - 1].end : 0, `segment ${i} ${note}`))
  assert.equal(code.segments.at(-1).end, code.bytes.length, `segments end ${note}`)
  return code
}

describe('round trip: what generate writes, decode reads', () => {
  test('every version 1..40 at every level', () => {
    for (const level of LEVELS) {
      for (let version = 1; version <= 40; version++) {
        const text = `v${version}${level}:` + 'x'.repeat(version * 3)
        const options = { errorCorrectionLevel: level, version }
        assertReads(qr.generateSync(text, { ...options, scale: 2 }), text, options, `(version ${version}, level ${level})`)
      }
    }
  })

  test('every mask, at three versions', () => {
    for (const version of [1, 7, 25]) {
      for (let maskPattern = 0; maskPattern < 8; maskPattern++) {
        const options = { version, maskPattern, errorCorrectionLevel: 'Q' }
        assertReads(qr.generateSync('MASK TEST 0123', { ...options, scale: 3 }), 'MASK TEST 0123', options, `(mask ${maskPattern}, version ${version})`)
      }
    }
  })

  test('every mode: numeric, alphanumeric, bytes, UTF-8, mixed, binary, the longest', () => {
    const inputs = [
      '0123456789'.repeat(20),
      'HELLO WORLD $%*+-./:'.repeat(5),
      'lower case bytes',
      'Grüße, 世界, 😀 — ٣٤٥',
      'ABC123456789012345abcDEF',
      Buffer.from([0, 1, 2, 0xff, 0xfe, 0x80, 0x7f]),
      Buffer.from(Array.from({ length: 256 }, (_, i) => i)),
      '7'.repeat(7089),
      'Z'.repeat(4296),
      'z'.repeat(2953)
    ]
    const modes = new Set()
    for (const input of inputs) {
      const options = { errorCorrectionLevel: 'L' }
      const code = assertReads(qr.generateSync(input, { ...options, scale: 2 }), input, options, `(${String(input).slice(0, 20)}…)`)
      for (const s of code.segments) modes.add(s.mode)
      assert.ok(code.segments.every((s) => s.eci === null))
    }
    assert.deepEqual([...modes].sort(), ['alphanumeric', 'byte', 'numeric'])
  })

  test('colours, transparency, margins and sizes', () => {
    const looks = [
      { color: { dark: '#1a237e', light: '#fff59d' } },
      { color: { dark: '#000000ff', light: '#00000000' } },
      { color: { dark: '#c00', light: '#eee' }, margin: 1 },
      { margin: 2 },
      { margin: 10, scale: 1 },
      { width: 1000 },
      { scale: 12 }
    ]
    for (const look of looks) {
      const text = `look ${JSON.stringify(look)}`
      assertReads(qr.generateSync(text, look), text, {}, JSON.stringify(look))
    }
  })

  test('light codes on dark are read by default, and only when allowed', () => {
    const png = qr.generateSync('inverted', { color: { dark: '#ffffff', light: '#000000' }, scale: 4 })
    assert.equal(qr.decodeSync(png)[0].text, 'inverted')
    assert.equal(qr.decodeSync(png, { inverted: true })[0].text, 'inverted')
    assert.deepEqual(qr.decodeSync(png, { inverted: false }), [])
  })

  test('zxing-cpp reads the same images to the same bytes', async () => {
    for (const [i, text] of ['https://example.com/', 'Ünïcödé ✓', '1234567890'.repeat(30)].entries()) {
      const png = qr.generateSync(text, { scale: 3, errorCorrectionLevel: LEVELS[i] })
      assert.deepEqual(await zxing.decode(png), Buffer.from(qr.decodeSync(png)[0].bytes))
    }
  })
})

describe('position, pixels and several codes', () => {
  test('the corners are the symbol\'s, in image pixels', () => {
    const scale = 5
    const margin = 3
    const png = qr.generateSync('corners', { scale, margin })
    const { size } = qr.encode('corners')
    const [{ position }] = qr.decodeSync(png)
    const lo = margin * scale
    const hi = (margin + size) * scale
    const want = { topLeft: [lo, lo], topRight: [hi, lo], bottomRight: [hi, hi], bottomLeft: [lo, hi] }
    for (const [corner, [x, y]] of Object.entries(want)) {
      assert.ok(Math.abs(position[corner].x - x) <= 1.5 && Math.abs(position[corner].y - y) <= 1.5,
        `${corner}: ${JSON.stringify(position[corner])} vs ${x},${y}`)
    }
  })

  test('a code turned a quarter reports its corners turned too', () => {
    const png = PNG.sync.read(qr.generateSync('turned', { scale: 4 }))
    const { width, height, data } = png
    const turned = new Uint8Array(data.length)
    // (x, y) → (height - 1 - y, x): a quarter turn clockwise.
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        const to = (x * height + (height - 1 - y)) * 4
        turned.set(data.subarray((y * width + x) * 4, (y * width + x) * 4 + 4), to)
      }
    }
    const [code] = qr.decodeSync({ data: turned, width: height, height: width })
    assert.equal(code.text, 'turned')
    const { topLeft: tl, topRight: tr, bottomLeft: bl } = code.position
    // The code's top edge now runs down the image's right side.
    assert.ok(tr.y > tl.y + 50 && Math.abs(tr.x - tl.x) < 2, JSON.stringify(code.position))
    assert.ok(bl.x < tl.x - 50 && Math.abs(bl.y - tl.y) < 2, JSON.stringify(code.position))
  })

  test('a mirrored code (seen from behind) reads as zxing-cpp reads it, corners as it reads', async () => {
    for (const [i, text] of ['mirror, mirror', 'Spiegel ✓ 1234567890'].entries()) {
      const png = PNG.sync.read(qr.generateSync(text, { scale: 4, errorCorrectionLevel: LEVELS[i * 3] }))
      const { width, data } = png
      for (let y = 0; y < png.height; y++) {
        const row = data.subarray(y * width * 4, (y + 1) * width * 4)
        // Copies (a Buffer's `slice` is a view of the row being rewritten).
        const pixels = Array.from({ length: width }, (_, x) => Uint8Array.from(row.subarray(x * 4, x * 4 + 4))).reverse()
        pixels.forEach((p, x) => row.set(p, x * 4))
      }
      const mirrored = PNG.sync.write(png)
      const [code] = qr.decodeSync(mirrored)
      assert.deepEqual(Buffer.from(code.bytes), Buffer.from(text), text)
      assert.deepEqual(await zxing.decode(mirrored), Buffer.from(code.bytes), `zxing-cpp on ${text}`)
      const m = qr.encode(text, { errorCorrectionLevel: LEVELS[i * 3] })
      assert.deepEqual([code.version, code.errorCorrectionLevel, code.mask], [m.version, m.errorCorrectionLevel, m.maskPattern])
      // The code's own top-left finder is at the image's top right.
      const { topLeft: tl, topRight: tr, bottomLeft: bl } = code.position
      assert.ok(tl.x > tr.x + 50 && Math.abs(tl.y - tr.y) < 2, JSON.stringify(code.position))
      assert.ok(Math.abs(bl.x - tl.x) < 2 && bl.y > tl.y + 50, JSON.stringify(code.position))
    }
  })

  test('pixels as RGBA (pngjs), as Uint8ClampedArray (ImageData) and as grey', () => {
    const png = PNG.sync.read(qr.generateSync('pixels', { scale: 3 }))
    const grey = new Uint8Array(png.width * png.height).map((_, i) => png.data[i * 4])
    for (const data of [png.data, new Uint8ClampedArray(png.data), grey]) {
      const [code] = qr.decodeSync({ data, width: png.width, height: png.height })
      assert.equal(code.text, 'pixels', data.constructor.name)
    }
  })

  test('several codes come back in reading order, and an empty image gives []', () => {
    const tiles = ['one', 'two', 'three'].map((t) => PNG.sync.read(qr.generateSync(t, { scale: 3 })))
    const tile = tiles[0].width
    const page = new PNG({ width: tile * 3 + 40, height: tile })
    page.data.fill(255)
    // Placed right to left, so reading order differs from drawing order.
    tiles.forEach((t, i) => PNG.bitblt(t, page, 0, 0, tile, tile, (2 - i) * (tile + 20), 0))
    const texts = qr.decodeSync(PNG.sync.write(page)).map((c) => c.text)
    assert.deepEqual(texts, ['three', 'two', 'one'])
    const blank = new PNG({ width: 200, height: 200 })
    blank.data.fill(255)
    assert.deepEqual(qr.decodeSync(PNG.sync.write(blank), { tryHarder: true }), [])
  })
})

describe('decode on the threadpool, through the queue', () => {
  test('resolves with what decodeSync returns, and is counted by stats()', async () => {
    const png = qr.generateSync('async read', { scale: 4 })
    const before = qr.stats().completed
    const found = await qr.decode(png)
    assert.deepEqual(found, qr.decodeSync(png))
    assert.equal(qr.stats().completed, before + 1)
  })

  test('an aborted signal rejects with AbortError; a signal aborted while queued frees the call', async () => {
    const png = qr.generateSync('abort', { scale: 4 })
    await assert.rejects(qr.decode(png, { signal: AbortSignal.abort() }), { name: 'AbortError' })
    const limit = qr.concurrency()
    qr.setConcurrency(1)
    try {
      const ahead = Array.from({ length: 20 }, () => qr.decode(png))
      const c = new AbortController()
      const queued = qr.decode(png, { signal: c.signal })
      c.abort()
      await assert.rejects(queued, { name: 'AbortError' })
      assert.equal((await Promise.all(ahead)).length, 20)
    } finally {
      qr.setConcurrency(limit)
    }
  })
})

describe('abort while running', () => {
  test('a decode aborted on its pool thread rejects with AbortError and its reason; the next call works', async () => {
    // 2000 × 2000 noisy grey pixels with tryHarder: every step runs, long enough to abort
    // while it is running (the Rust test `decode_until_stops_between_steps` shows each step
    // asks the flag).
    const side = 2000
    const data = new Uint8Array(side * side)
    for (let i = 0, x = 12345; i < data.length; i++) { x = (x * 1103515245 + 12345) >>> 0; data[i] = x >>> 24 }
    const c = new AbortController()
    const call = qr.decode({ data, width: side, height: side }, { tryHarder: true, signal: c.signal })
    while (qr.stats().running === 0) await new Promise((resolve) => setImmediate(resolve))
    const reason = new Error('client went away')
    c.abort(reason)
    await assert.rejects(call, (e) => e.name === 'AbortError' && e.code === 'ABORT_ERR' && e.cause === reason)
    const png = qr.generateSync('after the abort', { scale: 4 })
    assert.equal((await qr.decode(png))[0].text, 'after the abort')
  })
})

describe('bad arguments: Node\'s errors, naming the argument and the limit', () => {
  const png = qr.generateSync('errors')
  const cases = [
    [[], TypeError, 'ERR_INVALID_ARG_TYPE', /"image" argument/],
    [['a string'], TypeError, 'ERR_INVALID_ARG_TYPE', /"image" argument/],
    [[[1, 2, 3]], TypeError, 'ERR_INVALID_ARG_TYPE', /"image.width"/],
    [[new Uint16Array(8)], TypeError, 'ERR_INVALID_ARG_TYPE', /"image" argument/],
    [[new ArrayBuffer(8)], TypeError, 'ERR_INVALID_ARG_TYPE', /"image" argument.*Received an instance of ArrayBuffer/],
    [[new DataView(new ArrayBuffer(8))], TypeError, 'ERR_INVALID_ARG_TYPE', /"image" argument/],
    [[Buffer.alloc(0)], TypeError, 'ERR_INVALID_ARG_VALUE', /zero-length/],
    [[Buffer.from('not an image at all')], TypeError, 'ERR_INVALID_ARG_VALUE', /PNG, JPEG, WebP, GIF or BMP/],
    [[png.subarray(0, png.length - 30)], TypeError, 'ERR_INVALID_ARG_VALUE', /not a readable PNG/],
    [[{ data: new Uint8Array(10), width: 3, height: 3 }], TypeError, 'ERR_INVALID_ARG_VALUE', /9 or 36\. Received 10/],
    [[{ data: [0, 0, 0, 0], width: 1, height: 1 }], TypeError, 'ERR_INVALID_ARG_TYPE', /"image.data"/],
    [[{ data: new Uint8Array(1), width: 1.5, height: 1 }], RangeError, 'ERR_OUT_OF_RANGE', /"image.width"/],
    [[{ data: new Uint8Array(1), width: 1, height: 0 }], RangeError, 'ERR_OUT_OF_RANGE', /"image.height"/],
    [[{ data: new Uint8Array(1), width: 50000, height: 50000 }], RangeError, 'ERR_OUT_OF_RANGE', /2500000000 pixels, over options.maxPixels \(40000000\)/],
    [[png, { maxPixels: 100 }], RangeError, 'ERR_OUT_OF_RANGE', /over options.maxPixels \(100\)/],
    [[png, { maxPixels: 0 }], RangeError, 'ERR_OUT_OF_RANGE', /"options.maxPixels".*>= 1 and <= 1073741824/],
    [[png, { maxPixels: '1e6' }], TypeError, 'ERR_INVALID_ARG_TYPE', /"options.maxPixels"/],
    [[png, { inverted: 1 }], TypeError, 'ERR_INVALID_ARG_TYPE', /"options.inverted"/],
    [[png, { tryHarder: 'yes' }], TypeError, 'ERR_INVALID_ARG_TYPE', /"options.tryHarder"/],
    [[png, { pure: null, signal: 5 }], TypeError, 'ERR_INVALID_ARG_TYPE', /"options.signal"/],
    [[png, 'options'], TypeError, 'ERR_INVALID_ARG_TYPE', /"options" argument/]
  ]
  for (const [args, Class, code, message] of cases) {
    const label = require('node:util').inspect(args, { depth: 1, maxArrayLength: 3, maxStringLength: 20, breakLength: Infinity })
    test(`decode(${label}) → ${Class.name} ${code}`, async () => {
      assert.throws(() => qr.decodeSync(...args), (e) => e instanceof Class && e.code === code && message.test(e.message))
      await assert.rejects(qr.decode(...args), (e) => e instanceof Class && e.code === code && message.test(e.message))
    })
  }
})
