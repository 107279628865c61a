'use strict'
// Hostile logos and styles for styled codes, each in a child process whose exit status is
// asserted, under a 3 GiB address-space cap: headers claiming 60000 × 60000 and more in
// every format (refused from the header), a PNG whose ICC profile inflates to 512 MiB
// (skipped unread), thousands of corrupted and truncated logo files, a file one byte over
// 16 MiB (refused before it is copied), a million gradient stops, NaN and ∞, and logo
// buffers transferred, shrunk or rewritten right after the call; SVG logos built to expand, nest,
// recurse, fetch or cost without bound.
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

test('hostile SVG logos are refused before they are drawn, or drawn within their budget; nothing is fetched', () => {
  const a = survived(assert, runCase(`
    const net = require('node:net')
    let connections = 0
    const server = net.createServer((s) => { connections++; s.destroy() }).listen(0, '127.0.0.1', async () => {
      const port = server.address().port
      const ns = 'xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"'
      const svg = (body, box = '0 0 10 10') => '<svg ' + ns + ' viewBox="' + box + '">' + body + '</svg>'
      const entities = (value) => '<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "' + value + '">' +
        Array.from({ length: 9 }, (_, i) => '<!ENTITY lol' + (i + 1) + ' "' + ('&lol' + (i || '') + ';').repeat(10) + '">').join('') + ']>'
      const rect = '<rect width="5" height="5"/>'
      const cases = {
        // Entity expansion, in text and as markup.
        laughs: entities('lol') + '<svg ' + ns + '>&lol9;</svg>',
        markup: '<!DOCTYPE svg [<!ENTITY g "<g><g><g></g></g></g>">]>' + svg('&g;&g;'),
        // A billion copies by <use>, ten at each of nine levels.
        uses: svg('<defs><rect id="g0" width="1" height="1"/>' + Array.from({ length: 9 }, (_, i) => '<g id="g' + (i + 1) + '">' + ('<use href="#g' + i + '"/>').repeat(10) + '</g>').join('') + '</defs><use href="#g9"/>'),
        // Masks that usvg copies at every use, each using the one before twice: 2^30.
        masks: svg('<defs><mask id="m0">' + rect + '</mask>' + Array.from({ length: 30 }, (_, i) => '<mask id="m' + (i + 1) + '"><rect width="9" height="9" mask="url(#m' + i + ')"/><rect width="9" height="9" mask="url(#m' + i + ')"/></mask>').join('') + '</defs><rect width="9" height="9" mask="url(#m30)"/>'),
        cycle: svg('<defs><g id="a"><use href="#b"/></g><g id="b"><use href="#a"/></g></defs><use href="#a"/>'),
        deep: svg('<g>'.repeat(50000) + rect + '</g>'.repeat(50000)),
        // Work without bound to draw: filters, patterns with huge tiles, 200,000 triangles, many stops.
        blur: svg('<filter id="f"><feGaussianBlur stdDeviation="1e6"/></filter><rect width="5" height="5" filter="url(#f)"/>'),
        tiles: svg('<pattern id="p" width="1e7" height="1e7" patternUnits="userSpaceOnUse">' + rect + '</pattern><rect width="10" height="10" fill="url(#p)"/>'),
        paths: svg('<path d="' + 'M0 0 L10 10 L0 10 Z'.repeat(200000) + '"/>'),
        stops: svg('<linearGradient id="l">' + Array.from({ length: 90000 }, (_, i) => '<stop offset="' + i / 90000 + '" stop-color="#' + (i % 4096).toString(16).padStart(3, '0') + '"/>').join('') + '</linearGradient><rect width="10" height="10" fill="url(#l)"/>'),
        // References outside the file, never followed.
        http: svg('<image href="http://127.0.0.1:' + port + '/x.png" width="10" height="10"/>'),
        file: svg('<image xlink:href="file:///etc/hostname" width="10" height="10"/>'),
        css: svg('<style>@import url(http://127.0.0.1:' + port + '/x.css); rect { fill: url(http://127.0.0.1:' + port + '/f) }</style>' + rect),
        // Drawn: a 1e30 viewBox and a 1e-30 one, a 1e30 stroke, a dash of 1e-4 along 1e9.
        huge: svg('<rect width="1e30" height="1e30" fill="red"/>', '0 0 1e30 1e30'),
        tiny: svg('<rect width="1" height="1" fill="red"/>', '0 0 1e-30 1e-30'),
        stroke: svg('<path d="M0 0 L10 10" stroke="red" stroke-width="1e30" stroke-linejoin="round"/>'),
        dashes: svg('<path d="M0 0 L1e9 1e9" stroke="red" stroke-dasharray="0.0001"/>')
      }
      const out = {}
      for (const [name, file] of Object.entries(cases)) {
        const t0 = Date.now()
        const sync = attempt(() => qr.generateSync('svg logo', { width: 2000, style: { logo: { image: Buffer.from(file) } } }))
        const r = await settle(qr.generate('svg logo', { type: 'svg', style: { logo: { image: Buffer.from(file) } } }))
        out[name] = { sync: sync.ok ? 'drawn' : sync.code, async: r.ok ? 'drawn' : r.code, message: sync.message, ms: Date.now() - t0 }
      }
      server.close()
      answer({ out, connections })
    })`, { memoryKiB: CAP_KIB }))
  const refused = { laughs: 'ERR_INVALID_ARG_VALUE', markup: 'ERR_INVALID_ARG_VALUE', uses: 'ERR_OUT_OF_RANGE', masks: 'ERR_OUT_OF_RANGE', cycle: 'ERR_INVALID_ARG_VALUE', deep: 'ERR_OUT_OF_RANGE', blur: 'ERR_INVALID_ARG_VALUE', tiles: 'ERR_INVALID_ARG_VALUE', paths: 'ERR_OUT_OF_RANGE', stops: 'ERR_OUT_OF_RANGE', http: 'ERR_INVALID_ARG_VALUE', file: 'ERR_INVALID_ARG_VALUE' }
  for (const [name, r] of Object.entries(a.out)) {
    const expected = refused[name] ?? 'drawn'
    assert.deepEqual([name, r.sync, r.async], [name, expected, expected], r.message)
    assert.ok(r.ms < 5000, `${name}: ${r.ms} ms`)
  }
  assert.equal(a.connections, 0, 'nothing is fetched')
})
