'use strict'
// Styled codes next to qr-code-styling (with jsdom and @napi-rs/canvas, as its README says to
// run it on a server): the same text, style and logo at 300 px, each call awaited one by one,
// interleaved round by round. Also our time stage by stage, the PNG bytes of the same
// picture (no logo: the two size a logo by different rules), and the measurement behind the
// refused finder combinations.
const fs = require('node:fs')
const path = require('node:path')
const q = require('..')
const binding = require('../lib/load.js')
const { interleave, opsPerSecAsync, summary } = require('./lib/measure')
const finders = require('../support/finders')
const { QrDecoder } = require('../support/decoder')

const TEXT = 'https://example.com/products/12345?ref=qr-1'
const LOGO = fs.readFileSync(path.join(__dirname, '..', '__test__', 'fixtures', 'logos', 'pino-favicon.png'))

function peer () {
  const { JSDOM } = require('jsdom')
  const canvas = require('@napi-rs/canvas')
  const { QRCodeStyling } = require('qr-code-styling/lib/qr-code-styling.common.js')
  return { JSDOM, canvas, QRCodeStyling }
}

/** qr-code-styling's options for the picture, with or without the logo. */
function theirs (p, logo) {
  return {
    width: 300,
    height: 300,
    margin: 0,
    data: TEXT,
    jsdom: p.JSDOM,
    nodeCanvas: p.canvas,
    type: 'canvas',
    qrOptions: { errorCorrectionLevel: logo ? 'H' : 'M' },
    dotsOptions: { type: 'rounded', color: '#263238' },
    cornersSquareOptions: { type: 'extra-rounded', color: '#263238' },
    cornersDotOptions: { type: 'dot', color: '#263238' },
    ...(logo ? { image: 'data:image/png;base64,' + LOGO.toString('base64'), imageOptions: { saveAsBlob: true, margin: 4 } } : {})
  }
}

/** Ours for the same picture. */
function ours (type, logo) {
  return {
    type,
    width: 300,
    margin: 0,
    style: {
      dots: { type: 'rounded', color: '#263238' },
      cornersSquare: { type: 'extra-rounded' },
      cornersDot: { type: 'dot' },
      ...(logo ? { logo: { image: LOGO, margin: 4 } } : {})
    }
  }
}

/**
 * qr-code-styling's own drawing of every finder combination (rounded dots, level M, SVG
 * rasterised by librsvg through sharp at 300 px; resvg 2.6 does not draw its quoted
 * `clip-path` URLs): how many zxing-wasm and our `decode` read.
 */
async function theirFinders (p, zxing) {
  const sharp = require('sharp')
  const text = 'https://qr-native.example/styled?id=42'
  const out = { drawn: 0, zxing: 0, decode: 0, 'decode, not zxing': 0 }
  for (const ring of finders.RINGS) {
    for (const centre of finders.CENTRES) {
      const svg = await new p.QRCodeStyling({
        width: 300, height: 300, margin: 8, data: text, jsdom: p.JSDOM, type: 'svg',
        dotsOptions: { type: 'rounded', color: '#222222' }, cornersSquareOptions: { type: ring }, cornersDotOptions: { type: centre }
      }).getRawData('svg')
      const png = await sharp(svg).flatten({ background: '#ffffff' }).png().toBuffer()
      const z = String(await zxing.decode(png)) === text
      const mine = q.decodeSync(png).some((c) => c.text === text)
      out.drawn++
      if (z) out.zxing++
      if (mine) out.decode++
      if (mine && !z) out['decode, not zxing']++
    }
  }
  return out
}

async function run ({ quick, progress }) {
  const p = peer()
  const ms = quick ? 400 : 1200
  const rounds = quick ? 3 : 5
  const formats = {}
  const unsupported = {}
  for (const type of ['png', 'svg', 'jpeg', 'webp']) {
    const options = ours(type, true)
    const theirOptions = { ...theirs(p, true), type: type === 'svg' ? 'svg' : 'canvas' }
    // qr-code-styling 1.9 on Node writes no WebP ("Unsupported extension"): ours alone then.
    try {
      await new p.QRCodeStyling(theirOptions).getRawData(type)
    } catch (e) {
      unsupported[type] = String(e.message || e)
      formats[type] = await interleave([{ name: 'qr-native', run: () => opsPerSecAsync(() => q.generate(TEXT, options), ms) }], rounds, (s) => progress(`styled ${type} ${s}`))
      continue
    }
    formats[type] = await interleave([
      { name: 'qr-code-styling', run: () => opsPerSecAsync(() => new p.QRCodeStyling(theirOptions).getRawData(type), ms) },
      { name: 'qr-native', run: () => opsPerSecAsync(() => q.generate(TEXT, options), ms) }
    ], rounds, (s) => progress(`styled ${type} ${s}`))
  }
  // The drop-in: the same options object given to both classes.
  const { QRCodeStyling: DropIn } = require('../styling.js')
  const shared = theirs(p, true)
  const dropIn = await interleave([
    { name: 'qr-code-styling', run: () => opsPerSecAsync(() => new p.QRCodeStyling(shared).getRawData('png'), ms) },
    { name: 'qr-native', run: () => opsPerSecAsync(() => new DropIn(shared).getRawData('png'), ms) }
  ], rounds, (s) => progress(`styled drop-in ${s}`))
  const stages = {}
  for (const type of ['png', 'svg', 'jpeg', 'webp']) {
    const runs = Array.from({ length: quick ? 21 : 101 }, () => binding.__styledStagesSync(TEXT, ours(type, true)))
    stages[type] = Object.fromEntries(['encode', 'logo', 'layout', 'raster', 'compress'].map((k) => [k, summary(runs.map((r) => r[k] / 1e3)).median]))
  }
  const plainTheirs = await new p.QRCodeStyling(theirs(p, false)).getRawData('png')
  const bytes = {
    'no logo': { 'qr-code-styling': plainTheirs.length, 'qr-native': q.generateSync(TEXT, ours('png', false)).length },
    logo: { 'qr-code-styling': (await new p.QRCodeStyling(theirs(p, true)).getRawData('png')).length, 'qr-native': q.generateSync(TEXT, ours('png', true)).length }
  }
  const zxing = new QrDecoder()
  progress('styled: every finder combination, ours')
  const matrix = await finders.measure((png) => zxing.decode(png))
  progress('styled: every finder combination, drawn by qr-code-styling')
  const theirsRead = await theirFinders(p, zxing)
  return { formats, unsupported, dropIn, stages, bytes, matrix, theirsRead, versions: { 'qr-code-styling': require('qr-code-styling/package.json').version, jsdom: require('jsdom/package.json').version, '@napi-rs/canvas': require('@napi-rs/canvas/package.json').version } }
}

const ratio = (r) => r['qr-native'].median / r['qr-code-styling'].median
const TARGETS = { png: 100, svg: 300, jpeg: 50, webp: 50 }

function goals (results) {
  const out = Object.entries(TARGETS).filter(([type]) => !results.unsupported[type]).map(([type, target]) => {
    const value = ratio(results.formats[type])
    return { goal: `#47: styled ${type.toUpperCase()} vs qr-code-styling, 300 px with a logo`, value, target: `≥ ${target}×`, met: value >= target }
  })
  const b = results.bytes['no logo']
  if (results.dropIn) {
    const value = ratio(results.dropIn)
    out.push({ goal: '#47: qr-native/styling vs qr-code-styling, PNG, the same options object', value, target: '≥ 100×', met: value >= 100 })
  }
  const t = results.theirsRead
  out.push({ goal: "#47: decode on qr-code-styling's finder combinations, codes read vs zxing-wasm", value: `${t.decode} vs ${t.zxing} of ${t.drawn}`, target: '≥ zxing-wasm', met: t.decode >= t.zxing })
  out.push({ goal: '#47: styled PNG bytes vs qr-code-styling, same picture', value: b['qr-native'] / b['qr-code-styling'], target: '≤ 1', met: b['qr-native'] <= b['qr-code-styling'] })
  return out
}

function report (results) {
  const cell = (s) => `${s.median.toFixed(s.median < 100 ? 1 : 0)} (${s.min.toFixed(s.min < 100 ? 1 : 0)}–${s.max.toFixed(s.max < 100 ? 1 : 0)})`
  const v = results.versions
  const lines = [`### Styled codes: qr-native vs qr-code-styling ${v['qr-code-styling']} (jsdom ${v.jsdom}, @napi-rs/canvas ${v['@napi-rs/canvas']}), 300 px, rounded dots, a PNG logo, awaited one by one (ops/s)`, '',
    '| format | qr-code-styling | qr-native | ratio |', '|---|---|---|---|']
  for (const [type, r] of Object.entries(results.formats)) {
    if (results.unsupported[type]) lines.push(`| ${type.toUpperCase()} | not on Node ("${results.unsupported[type]}") | ${cell(r['qr-native'])} | |`)
    else lines.push(`| ${type.toUpperCase()} | ${cell(r['qr-code-styling'])} | ${cell(r['qr-native'])} | ${ratio(r).toFixed(0)}× |`)
  }
  if (results.dropIn) lines.push(`| PNG through \`qr-native/styling\` (qr-code-styling's options object and logo rule) | ${cell(results.dropIn['qr-code-styling'])} | ${cell(results.dropIn['qr-native'])} | ${ratio(results.dropIn).toFixed(0)}× |`)
  lines.push('', '### Styled codes, stage by stage: median µs of one generateSync, 300 px with the logo', '',
    '| format | encode | logo | layout | raster | compress |', '|---|---|---|---|---|---|')
  for (const [type, s] of Object.entries(results.stages)) lines.push(`| ${type.toUpperCase()} | ${s.encode.toFixed(0)} | ${s.logo.toFixed(0)} | ${s.layout.toFixed(0)} | ${s.raster.toFixed(0)} | ${s.compress.toFixed(0)} |`)
  lines.push('', '### Styled PNG bytes, 300 px (the logo case differs in picture: each package sizes the logo by its own rule)', '',
    '| picture | qr-code-styling | qr-native |', '|---|---|---|')
  for (const [name, b] of Object.entries(results.bytes)) lines.push(`| ${name} | ${b['qr-code-styling']} | ${b['qr-native']} |`)
  const m = results.matrix
  lines.push('', `### Styled codes: finder combinations. Each of the 294 dot × corner-square × corner-dot types drawn by qr-native in ${finders.GEOMETRIES.length} geometries (refused ones, by the drawer without the check, in ${finders.GEOMETRIES.length + finders.MORE.length}), decoded by zxing-wasm and by decode`, '',
    '| combinations | codes | zxing-wasm missed | decode missed | |', '|---|---|---|---|---|',
    `| ${m.accepted.combinations} accepted | ${m.accepted.drawn} | ${m.failures.filter((f) => f.includes('zxing')).length} | ${m.failures.filter((f) => f.includes('decode read')).length} | |`)
  for (const [rule, r] of Object.entries(m.rules)) lines.push(`| ${r.combinations} refused | ${r.drawn} | ${r.zxingMissed} | ${r.decodeMissed} | ${rule} |`)
  const t = results.theirsRead
  lines.push('', `### Styled codes: qr-code-styling's own drawing of its ${t.drawn} corner-square × corner-dot combinations (rounded dots, level M, SVG through librsvg at 300 px), codes read`, '',
    '| zxing-wasm | qr-native decode | decode, where zxing-wasm did not |', '|---|---|---|', `| ${t.zxing} | ${t.decode} | ${t['decode, not zxing']} |`)
  return lines.join('\n')
}

module.exports = { name: 'styled', run, goals, report }
