'use strict'
// Hostile logos and styles for styled codes, each in a child process whose exit status is
// asserted, under a 3 GiB address-space cap: headers claiming 60000 × 60000 and more in
// every format (refused from the header), a PNG whose ICC profile inflates to 512 MiB
// (skipped unread), thousands of corrupted and truncated logo files, a file one byte over
// 16 MiB (refused before it is copied), a million gradient stops, NaN and ∞, and logo
// buffers transferred, shrunk or rewritten right after the call.
const { test } = require('node:test')
const assert = require('node:assert/strict')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const zlib = require('node:zlib')
const { runCase, survived } = require('./child.js')
const { FILES, inflatingChunk } = require('./files.js')

const CAP_KIB = 3 * 1024 * 1024
const LOGO = path.join(__dirname, '..', 'fixtures', 'logos', 'pino-favicon.png')

test('logo headers claiming billions of pixels are refused from the header, in every format', () => {
  const a = survived(assert, runCase(`${FILES}
    const claims = [['png', 60000, 60000], ['png', 2 ** 31 - 1, 2 ** 31 - 1], ['jpeg', 65535, 65535], ['gif', 65535, 65535],
      ['bmp', 60000, 60000], ['webp', 16384, 16384]]
    const before = process.resourceUsage().maxRSS
    const sync = claims.map(([f, w, h]) => attempt(() => qr.generateSync('bomb', { style: { logo: { image: FILES[f](w, h), size: 0.1 } } })).code)
    Promise.all(claims.map(([f, w, h]) => settle(qr.generate('bomb', { style: { logo: { image: FILES[f](w, h), size: 0.1 } } })))).then((rs) => {
      answer({ sync, async: rs.map((r) => r.code), grewKiB: process.resourceUsage().maxRSS - before })
    })`, { memoryKiB: CAP_KIB }))
  for (const code of [...a.sync, ...a.async]) assert.ok(['ERR_OUT_OF_RANGE', 'ERR_INVALID_ARG_VALUE'].includes(code), JSON.stringify(a))
  // PNG, GIF and BMP headers that parse are refused by the 16-megapixel limit.
  assert.equal(a.sync[0], 'ERR_OUT_OF_RANGE')
  assert.equal(a.sync[3], 'ERR_OUT_OF_RANGE')
  assert.ok(a.grewKiB < 64 << 10, `peak memory grew by ${a.grewKiB} KiB`)
})

test('a logo PNG whose ICC profile inflates to 512 MiB is drawn without inflating it', () => {
  const png = fs.readFileSync(LOGO)
  const zeros = zlib.deflateSync(Buffer.alloc(512 << 20), { level: 9 })
  const file = path.join(os.tmpdir(), `qr-native-logo-iccp-${process.pid}.png`)
  fs.writeFileSync(file, Buffer.concat([png.subarray(0, 33), inflatingChunk('iCCP', 'icc\0\0', zeros), png.subarray(33)]))
  try {
    const a = survived(assert, runCase(`
      const image = require('node:fs').readFileSync(${JSON.stringify(file)})
      const before = process.resourceUsage().maxRSS
      const out = qr.generateSync('iccp logo', { width: 300, style: { logo: { image, size: 0.15 } } })
      answer({ text: qr.decodeSync(out).map((c) => c.text), grewKiB: process.resourceUsage().maxRSS - before })`, { memoryKiB: CAP_KIB }))
    assert.deepEqual(a.text, ['iccp logo'])
    assert.ok(a.grewKiB < 64 << 10, `peak memory grew by ${a.grewKiB} KiB (the profile inflates to 512 MiB)`)
  } finally {
    fs.rmSync(file, { force: true })
  }
})

test('3000 corrupted and truncated logo files: each draws or is refused, the process lives', () => {
  const a = survived(assert, runCase(`
    const base = [require('node:fs').readFileSync(${JSON.stringify(LOGO)}), qr.generateSync('logo', { type: 'jpeg', width: 64 }),
      qr.generateSync('logo', { type: 'webp', width: 64 })]
    let seed = 7
    const rand = (n) => { seed = (seed * 1103515245 + 12345) & 0x7fffffff; return seed % n }
    const files = []
    for (let i = 0; i < 3000; i++) {
      const file = Buffer.from(base[i % 3])
      for (let k = 1 + rand(4); k > 0; k--) file[rand(file.length)] = rand(256)
      files.push(i % 3 === 0 ? file.subarray(0, 1 + rand(file.length - 1)) : file)
    }
    const codes = {}
    const count = (r) => { const key = r.ok ? 'drawn' : r.code; codes[key] = (codes[key] || 0) + 1 }
    for (const image of files.slice(0, 2000)) count(attempt(() => qr.generateSync('corrupt', { style: { logo: { image, size: 0.1 } } })))
    Promise.all(files.slice(2000).map((image) => settle(qr.generate('corrupt', { style: { logo: { image, size: 0.1 } } })))).then((rs) => {
      rs.forEach(count)
      answer(codes)
    })`, { memoryKiB: CAP_KIB }))
  for (const key of Object.keys(a)) assert.ok(['drawn', 'ERR_INVALID_ARG_VALUE', 'ERR_OUT_OF_RANGE'].includes(key), JSON.stringify(a))
  assert.ok(a.ERR_INVALID_ARG_VALUE > 100 && a.drawn > 100, JSON.stringify(a))
})

test('budgets: a logo file one byte over 16 MiB, a million stops, NaN and ∞ are refused before work', () => {
  const a = survived(assert, runCase(`
    const big = Buffer.alloc(16 * 1024 * 1024 + 1)
    const t0 = process.hrtime.bigint()
    const file = attempt(() => qr.generateSync('x', { style: { logo: { image: big } } }))
    const stops = attempt(() => qr.generateSync('x', { style: { dots: { gradient: { colorStops: new Array(1e6).fill({ offset: 0, color: '#000' }) } } } }))
    const nan = attempt(() => qr.generateSync('x', { style: { background: { gradient: { colorStops: [{ offset: 0, color: '#000' }, { offset: NaN, color: '#fff' }] } } } }))
    const inf = attempt(() => qr.generateSync('x', { style: { logo: { image: big.subarray(0, 8), margin: Infinity } } }))
    answer({ codes: [file.code, stops.code, nan.code, inf.code], ms: Number(process.hrtime.bigint() - t0) / 1e6, message: file.message })`))
  assert.deepEqual(a.codes, ['ERR_OUT_OF_RANGE', 'ERR_OUT_OF_RANGE', 'ERR_OUT_OF_RANGE', 'ERR_OUT_OF_RANGE'])
  assert.match(a.message, /<= 16777216/)
})

test('a logo buffer transferred, shrunk or rewritten while its call waits in the queue', () => {
  const a = survived(assert, runCase(`
    const logo = require('node:fs').readFileSync(${JSON.stringify(LOGO)})
    qr.setConcurrency(1)
    // A slow call first, so the logo calls wait in the queue while their buffers change.
    const slow = qr.generate('x'.repeat(2000), { width: 4000, style: { dots: { type: 'rounded' } } })
    const ab = new ArrayBuffer(logo.length, { maxByteLength: logo.length })
    new Uint8Array(ab).set(logo)
    const p1 = qr.generate('resized', { style: { logo: { image: new Uint8Array(ab), size: 0.1 } } })
    ab.resize(0)
    const copy = Uint8Array.from(logo)
    const p2 = qr.generate('transferred', { style: { logo: { image: copy, size: 0.1 } } })
    transfer(copy.buffer)
    collect()
    const buf = Buffer.from(logo)
    const p3 = qr.generate('rewritten', { style: { logo: { image: buf, size: 0.1 } } })
    buf.fill(0)
    Promise.all([slow, p1, p2, p3]).then((out) => answer(out.slice(1).map((png) => qr.decodeSync(png).map((c) => c.text)[0])))`))
  assert.deepEqual(a, ['resized', 'transferred', 'rewritten'])
})

test('SVG logos (entity expansion, external references, a huge viewBox) are refused unread, nothing fetched', () => {
  const a = survived(assert, runCase(`
    const lol = '<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol">' +
      Array.from({ length: 9 }, (_, i) => '<!ENTITY lol' + (i + 1) + ' "' + ('&lol' + (i || '') + ';').repeat(10) + '">').join('') +
      ']><svg xmlns="http://www.w3.org/2000/svg">&lol9;</svg>'
    const files = [lol,
      '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"><image href="http://127.0.0.1:9/x.png" width="10" height="10"/></svg>',
      '\\ufeff  <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1e30 1e30" width="1e30" height="1e30"/>']
    const t0 = Date.now()
    const out = files.map((f) => attempt(() => qr.generateSync('svg logo', { style: { logo: { image: Buffer.from(f) } } })))
    answer({ codes: out.map((r) => r.code), messages: out.map((r) => r.message), ms: Date.now() - t0 })`, { memoryKiB: CAP_KIB }))
  assert.deepEqual(a.codes, ['ERR_INVALID_ARG_VALUE', 'ERR_INVALID_ARG_VALUE', 'ERR_INVALID_ARG_VALUE'])
  for (const m of a.messages) assert.match(m, /SVG logos are not supported yet/)
  assert.ok(a.ms < 1000, `${a.ms} ms`)
})
