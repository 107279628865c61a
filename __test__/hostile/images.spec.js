'use strict'
// Hostile images for `decode`, each in a child process whose exit status is asserted:
// decompression bombs (a few bytes whose header claims billions of pixels) under a 3 GiB
// address-space cap, every format's malformed headers, thousands of corrupted and truncated
// files, and buffers that are transferred, detached or shrunk around the call.
const { describe, test } = require('node:test')
const assert = require('node:assert/strict')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const zlib = require('node:zlib')
const { runCase, survived, ROOT } = require('./child.js')

const CAP_KIB = 3 * 1024 * 1024

const { FILES, inflatingChunk } = require('./files.js')

describe('a file whose header claims more pixels than maxPixels is refused from the header', () => {
  const claims = {
    png: [[100000, 100000], [2 ** 31 - 1, 2 ** 31 - 1], [65536, 1000]],
    jpeg: [[65535, 65535], [65535, 1000]],
    gif: [[65535, 65535], [65535, 1000]],
    bmp: [[2 ** 31 - 1, 2 ** 31 - 1], [100000, -100000], [65536, 1000]],
    webp: [[16384, 16384], [16384, 5000]],
    vp8: [[16383, 16383], [16383, 5000]]
  }
  for (const [format, sizes] of Object.entries(claims)) {
    test(`${format}: ${sizes.map((s) => s.join(' × ')).join(', ')}`, () => {
      const a = survived(assert, runCase(`${FILES}
        const before = qr.stats().nativeBytes
        const out = ${JSON.stringify(sizes)}.map(([w, h]) => [attempt(() => qr.decodeSync(FILES.${format}(w, h))).code])
        Promise.all(${JSON.stringify(sizes)}.map(([w, h]) => settle(qr.decode(FILES.${format}(w, h))))).then((async) => {
          answer({ sync: out.flat(), async: async.map((r) => r.code), grew: qr.stats().nativeBytes - before })
        })`, { memoryKiB: CAP_KIB }))
      // A claim the format itself forbids (PNG over 2^31 − 1, WebP headers without image
      // data, JPEG and BMP headers a decoder objects to) is malformed; the rest are refused
      // by maxPixels from the header. Never decoded, never allocated.
      for (const code of [...a.sync, ...a.async]) assert.ok(['ERR_OUT_OF_RANGE', 'ERR_INVALID_ARG_VALUE'].includes(code), `${format}: ${JSON.stringify(a)}`)
      // A plain lossy WebP's size is checked by our own reading of its frame header.
      if (format === 'vp8') assert.ok([...a.sync, ...a.async].every((c) => c === 'ERR_OUT_OF_RANGE'), JSON.stringify(a))
      if (format === 'png' || format === 'gif') assert.ok(a.sync.includes('ERR_OUT_OF_RANGE') && a.async.includes('ERR_OUT_OF_RANGE'), JSON.stringify(a))
      assert.ok(a.grew < 1 << 20, `native memory grew by ${a.grew} bytes`)
    })
  }

  test('a raw { data, width, height } claiming 2^32 − 1 × 2^32 − 1 pixels over a 4-byte array', () => {
    const a = survived(assert, runCase(`answer(attempt(() => qr.decodeSync({ data: new Uint8Array(4), width: 2 ** 32 - 1, height: 2 ** 32 - 1 })))`, { memoryKiB: CAP_KIB }))
    assert.equal(a.code, 'ERR_OUT_OF_RANGE')
    assert.match(a.message, /4294967295 × 4294967295 = 18446744065119617025 pixels, over options.maxPixels/)
  })
})

describe('malformed, corrupted and truncated files: ERR_INVALID_ARG_VALUE or codes, never a crash', () => {
  test('every format\'s header with zero, one and odd sizes, and cut at every byte', () => {
    const a = survived(assert, runCase(`${FILES}
      const codes = new Set()
      for (const make of Object.values(FILES)) {
        for (const [w, h] of [[0, 0], [0, 5], [1, 1], [3, 7], [255, 256]]) {
          const file = make(w, h)
          for (let cut = 0; cut <= file.length; cut++) {
            const r = attempt(() => qr.decodeSync(file.subarray(0, cut), { maxPixels: 100000 }))
            codes.add(r.ok ? 'ok' : r.code)
          }
        }
      }
      answer([...codes].sort())`, { memoryKiB: CAP_KIB }))
    for (const code of a) assert.ok(['ok', 'ERR_INVALID_ARG_VALUE', 'ERR_OUT_OF_RANGE'].includes(code), JSON.stringify(a))
    assert.ok(a.includes('ERR_INVALID_ARG_VALUE'), JSON.stringify(a))
  })

  test('3,000 real codes with random bytes rewritten, inserted or cut, sync and async', () => {
    const a = survived(assert, runCase(`
      let s = 12345
      const rand = (n) => { s = (s * 1103515245 + 12345) >>> 0; return s % n }
      const base = [qr.generateSync('corrupt me', { scale: 3 }), qr.generateSync('https://example.com/' + 'x'.repeat(200), { scale: 2 })]
      const codes = {}
      const files = []
      for (let i = 0; i < 3000; i++) {
        const file = Buffer.from(base[i % 2])
        for (let k = 1 + rand(4); k > 0; k--) file[8 + rand(file.length - 8)] = rand(256)
        files.push(i % 3 === 0 ? file.subarray(0, rand(file.length)) : file)
      }
      for (const file of files.slice(0, 2000)) {
        const r = attempt(() => qr.decodeSync(file))
        const key = r.ok ? 'read ' + r.value.length : r.code
        codes[key] = (codes[key] || 0) + 1
      }
      Promise.all(files.slice(2000).map((f) => settle(qr.decode(f)))).then((rs) => {
        for (const r of rs) { const key = r.ok ? 'read ' + r.value.length : r.code; codes[key] = (codes[key] || 0) + 1 }
        answer(codes)
      })`, { memoryKiB: CAP_KIB }))
    const keys = Object.keys(a)
    for (const key of keys) assert.ok(['read 0', 'read 1', 'ERR_INVALID_ARG_VALUE'].includes(key), JSON.stringify(a))
    assert.ok(a.ERR_INVALID_ARG_VALUE > 100 && a['read 1'] > 100, JSON.stringify(a))
  })
})

describe('PNG chunks that inflate: skipped, not inflated', () => {
  // A real code's PNG with an iCCP (ICC profile), zTXt or iTXt chunk inserted after IHDR,
  // whose compressed 0.5 MB inflates to 512 MiB of zeros. Through the image crate, the
  // header check alone inflated the profile (480 ms for 1 GiB, on the main thread).
  const zeros = zlib.deflateSync(Buffer.alloc(512 << 20), { level: 9 })
  const chunk = (kind, head) => inflatingChunk(kind, head, zeros)
  const png = require(ROOT).generateSync('inflated chunk', { scale: 4 })
  for (const [kind, head] of [['iCCP', 'icc\0\0'], ['zTXt', 'Comment\0\0'], ['iTXt', 'Comment\0\x01\0\0\0']]) {
    test(`${kind}: the code is read, and the process's peak memory does not grow by the chunk`, () => {
      const file = path.join(os.tmpdir(), `qr-native-${kind}-${process.pid}.png`)
      fs.writeFileSync(file, Buffer.concat([png.subarray(0, 33), chunk(kind, head), png.subarray(33)]))
      try {
        const a = survived(assert, runCase(`
          const file = require('node:fs').readFileSync(${JSON.stringify(file)})
          const before = process.resourceUsage().maxRSS
          const sync = qr.decodeSync(file).map((c) => c.text)
          settle(qr.decode(file)).then((r) => answer({ bytes: file.length, sync, async: r.ok ? r.value.map((c) => c.text) : r.code, grewKiB: process.resourceUsage().maxRSS - before }))`, { memoryKiB: CAP_KIB }))
        assert.ok(a.bytes < 1 << 20, `the file is ${a.bytes} bytes`)
        assert.deepEqual([a.sync, a.async], [['inflated chunk'], ['inflated chunk']])
        assert.ok(a.grewKiB < 64 << 10, `peak memory grew by ${a.grewKiB} KiB (the chunk inflates to 512 MiB)`)
      } finally {
        fs.rmSync(file, { force: true })
      }
    })
  }
})

describe('sequences: the caller changes its buffer around the call', () => {
  const IMAGE = `
    const file = qr.generateSync('sequence', { scale: 4 })
    let ab = new ArrayBuffer(64 << 20)
    const view = new Uint8Array(ab, 1 << 20, file.length)
    view.set(file)
    const expected = qr.decodeSync(file)[0].text
  `
  test('decode of a queued view whose ArrayBuffer is then transferred and collected reads what was passed', () => {
    const a = survived(assert, runCase(`${IMAGE}
      qr.setConcurrency(1)
      const ahead = Array.from({ length: 50 }, () => qr.decode(file))
      const pending = qr.decode(view)
      let moved = transfer(ab); moved = null; ab = null; collect()
      Promise.all([settle(pending), ...ahead]).then(([got]) => answer({ ok: got.ok, same: got.ok && got.value[0].text === expected }))`))
    assert.deepEqual(a, { ok: true, same: true })
  })

  test('an options getter that detaches the image: the image is read after, found empty', () => {
    const a = survived(assert, runCase(`${IMAGE}
      const r = attempt(() => qr.decodeSync(view, { get maxPixels () { transfer(ab); collect(); return 1e6 } }))
      answer({ code: r.code, message: r.message })`))
    assert.equal(a.code, 'ERR_INVALID_ARG_VALUE')
    assert.match(a.message, /zero-length or detached/)
  })

  test('a width getter that detaches image.data: data is read last, found empty', () => {
    const a = survived(assert, runCase(`
      let ab = new ArrayBuffer(400)
      const data = new Uint8Array(ab)
      const r = attempt(() => qr.decodeSync({ data, get width () { transfer(ab); collect(); return 10 }, height: 10 }))
      answer({ code: r.code, message: r.message })`))
    assert.equal(a.code, 'ERR_INVALID_ARG_VALUE')
    assert.match(a.message, /Received 0 bytes/)
  })

  test('a resizable ArrayBuffer shrunk to nothing after the call', () => {
    const a = survived(assert, runCase(`
      const file = qr.generateSync('shrink', { scale: 4 })
      const ab = new ArrayBuffer(1 << 20, { maxByteLength: 1 << 20 })
      const view = new Uint8Array(ab, 0, file.length)
      view.set(file)
      qr.setConcurrency(1)
      const ahead = Array.from({ length: 50 }, () => qr.decode(file))
      const pending = qr.decode(view)
      ab.resize(0); collect()
      Promise.all([settle(pending), ...ahead]).then(([got]) => answer({ ok: got.ok, text: got.ok && got.value[0].text }))`))
    assert.deepEqual(a, { ok: true, text: 'shrink' })
  })
})
