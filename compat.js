'use strict'
// qr-native/compat: the `qrcode` package's server API (create, toBuffer, toDataURL,
// toString, toFile, toFileStream) with its signatures, option handling and messages.
// Options are normalised here exactly as `qrcode` normalises them; the encoding and
// rendering run natively, on the threadpool for everything but `create`.
const fs = require('node:fs')
require('./index.js') // loads the binary, or throws ERR_QR_NATIVE_NO_BINARY
// The internal entry points, which `require('qr-native')` does not expose.
const native = require('./binding.js')

// ---- modes and levels, shaped as qrcode's lib/core/mode.js and error-correction-level.js
const Mode = {
  NUMERIC: { id: 'Numeric', bit: 1 << 0, ccBits: [10, 12, 14] },
  ALPHANUMERIC: { id: 'Alphanumeric', bit: 1 << 1, ccBits: [9, 11, 13] },
  BYTE: { id: 'Byte', bit: 1 << 2, ccBits: [8, 16, 16] },
  KANJI: { id: 'Kanji', bit: 1 << 3, ccBits: [8, 10, 12] },
  MIXED: { bit: -1 }
}
const MODE_BY_BIT = { 1: Mode.NUMERIC, 2: Mode.ALPHANUMERIC, 4: Mode.BYTE, 8: Mode.KANJI }
const MODE_BY_ID = { Numeric: Mode.NUMERIC, Alphanumeric: Mode.ALPHANUMERIC, Byte: Mode.BYTE, Kanji: Mode.KANJI }
// qrcode compares levels by identity (`qr.errorCorrectionLevel === ECLevel.M` in its own
// tests and in code written against it): where qrcode is installed, as it is in an app
// migrating from it, compat hands out qrcode's own level objects; elsewhere, its own.
const ECLevel = qrcodeLevels() || { L: { bit: 1 }, M: { bit: 0 }, Q: { bit: 3 }, H: { bit: 2 } }
const LETTER_BY_BIT = { 1: 'L', 0: 'M', 3: 'Q', 2: 'H' }
// Any other `{ bit }` object passes qrcode's check and then fits no version: only these work.
const KNOWN_LEVELS = new Set(Object.values(ECLevel))

function qrcodeLevels () {
  try {
    const { L, M, Q, H } = require('qrcode/lib/core/error-correction-level')
    return [L, M, Q, H].every((l) => l && typeof l === 'object') ? { L, M, Q, H } : null
  } catch {
    return null
  }
}

const KANJI = ('(?:[u3000-u303F]|[u3040-u309F]|[u30A0-u30FF]|[uFF00-uFFEF]|[u4E00-u9FAF]|' +
  '[u2605-u2606]|[u2190-u2195]|u203B|[u2010u2015u2018u2019u2025u2026u201Cu201Du2225u2260]|' +
  '[u0391-u0451]|[u00A7u00A8u00B1u00B4u00D7u00F7])+').replace(/u/g, '\\u')
const TEST_KANJI = new RegExp('^' + KANJI + '$')
const KANJI_CHAR = new RegExp(KANJI.slice(3, -2), 'g') // one kanji-mode character
const TEST_NUMERIC = /^[0-9]+$/
const TEST_ALPHANUMERIC = /^[A-Z0-9 $%*+\-./:]+$/
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/

// qrcode keeps toSJISFunc in module state: once given, kanji mode stays on for every call.
let toSJISFunction

function bestModeFor (data) {
  if (TEST_NUMERIC.test(data)) return Mode.NUMERIC
  if (TEST_ALPHANUMERIC.test(data)) return Mode.ALPHANUMERIC
  if (TEST_KANJI.test(data)) return Mode.KANJI
  return Mode.BYTE
}

function modeFrom (value, fallback) {
  if (value && value.bit && value.ccBits) return MODE_BY_BIT[value.bit] || value
  if (typeof value !== 'string') return fallback
  switch (value.toLowerCase()) {
    case 'numeric': return Mode.NUMERIC
    case 'alphanumeric': return Mode.ALPHANUMERIC
    case 'kanji': return Mode.KANJI
    case 'byte': return Mode.BYTE
    default: return fallback
  }
}

function levelFrom (value) {
  if (value && typeof value.bit !== 'undefined' && value.bit >= 0 && value.bit < 4) {
    return KNOWN_LEVELS.has(value) ? LETTER_BY_BIT[value.bit] : null
  }
  if (typeof value !== 'string') return 'M'
  switch (value.toLowerCase()) {
    case 'l': case 'low': return 'L'
    case 'm': case 'medium': return 'M'
    case 'q': case 'quartile': return 'Q'
    case 'h': case 'high': return 'H'
    default: return 'M'
  }
}

function versionFrom (value) {
  const v = !isNaN(value) && value >= 1 && value <= 40 ? parseInt(value, 10) : undefined
  return Number.isNaN(v) ? undefined : v
}

function maskFrom (value) {
  const valid = value != null && value !== '' && !isNaN(value) && value >= 0 && value <= 7
  const m = valid ? parseInt(value, 10) : undefined
  return Number.isNaN(m) ? undefined : m
}

/** Shift JIS values of the kanji-mode characters of `strings`, from the caller's function. */
function kanjiTable (strings) {
  if (!toSJISFunction) return undefined
  const seen = new Map()
  for (const s of strings) {
    for (const ch of s.match(KANJI_CHAR) || []) {
      if (seen.has(ch)) continue
      let value
      try { value = toSJISFunction(ch) } catch { value = NaN }
      seen.set(ch, typeof value === 'number' ? value : NaN)
    }
  }
  return [...seen].map(([ch, v]) => [ch.codePointAt(0), v])
}

/** A segment of `[{ data, mode }]` input, decided as qrcode's buildSingleSegment decides. */
function segmentFrom (data, modesHint) {
  const bestMode = bestModeFor(data)
  let mode = modeFrom(modesHint, bestMode)
  if (mode !== Mode.BYTE && mode.bit < bestMode.bit) {
    throw new Error('"' + data + '"' + ' cannot be encoded with mode ' + mode.id + '.\n Suggested mode is: ' + bestMode.id)
  }
  if (mode === Mode.KANJI && !toSJISFunction) mode = Mode.BYTE
  switch (mode) {
    case Mode.NUMERIC: return { mode: 'numeric', data: data.toString() }
    case Mode.ALPHANUMERIC: return { mode: 'alphanumeric', data: String(data) }
    case Mode.KANJI: return { mode: 'kanji', data: String(data) }
    default: return { mode: 'byte', data: typeof data === 'string' ? Buffer.from(data, 'utf8') : new Uint8Array(data) }
  }
}

/** The payload and symbol options for `data`, or a throw with qrcode's message. */
function prepare (data, options) {
  if (typeof data === 'undefined' || data === '') throw new Error('No input text')
  const symbol = { level: 'M' }
  if (typeof options !== 'undefined') {
    symbol.level = levelFrom(options.errorCorrectionLevel)
    if (symbol.level === null) throw new Error('The amount of data is too big to be stored in a QR Code')
    symbol.version = versionFrom(options.version)
    symbol.mask = maskFrom(options.maskPattern)
    if (options.toSJISFunc) {
      if (typeof options.toSJISFunc !== 'function') throw new Error('"toSJISFunc" is not a valid function.')
      toSJISFunction = options.toSJISFunc
    }
  }
  let payload
  if (Array.isArray(data)) {
    payload = data.reduce((acc, seg) => {
      if (typeof seg === 'string') acc.push(segmentFrom(seg, null))
      else if (seg.data) acc.push(segmentFrom(seg.data, seg.mode))
      return acc
    }, [])
    symbol.kanji = kanjiTable(payload.filter((s) => s.mode === 'kanji').map((s) => s.data))
  } else if (typeof data === 'string') {
    // qrcode measures byte runs with encodeURIComponent, which throws on a lone surrogate.
    if (LONE_SURROGATE.test(data)) throw new URIError('URI malformed')
    payload = data
    symbol.kanji = kanjiTable([data])
  } else {
    throw new Error('Invalid data')
  }
  return { payload, symbol }
}

// ---- create: the symbol object qrcode returns
class BitMatrix {
  constructor (size, data, reservedBit) {
    this.size = size
    this.data = data
    this.reservedBit = reservedBit
  }

  set (row, col, value, reserved) {
    const index = row * this.size + col
    this.data[index] = value
    if (reserved) this.reservedBit[index] = true
  }

  get (row, col) { return this.data[row * this.size + col] }
  xor (row, col, value) { this.data[row * this.size + col] ^= value }
  isReserved (row, col) { return this.reservedBit[row * this.size + col] }
}

const BITS = {
  Numeric: (n) => 10 * Math.floor(n / 3) + ((n % 3) ? ((n % 3) * 3 + 1) : 0),
  Alphanumeric: (n) => 11 * Math.floor(n / 2) + 6 * (n % 2),
  Byte: (n) => n * 8,
  Kanji: (n) => n * 13
}

class Segment {
  constructor (mode, data) {
    this.mode = mode
    this.data = data
  }

  getLength () { return this.data.length }
  getBitsLength () { return BITS[this.mode.id](this.data.length) }
}

function create (data, options) {
  const { payload, symbol } = prepare(data, options)
  const s = encodeNative(payload, symbol)
  return {
    modules: new BitMatrix(s.size, s.modules, s.reserved),
    version: s.version,
    errorCorrectionLevel: ECLevel[s.level],
    maskPattern: s.mask,
    segments: s.segmentModes.map((id, i) => {
      const bytes = Buffer.from(s.segmentData[i])
      return new Segment(MODE_BY_ID[id], id === 'Byte' ? new Uint8Array(s.segmentData[i]) : bytes.toString('utf8'))
    })
  }
}

// ---- rendering options, as qrcode's lib/renderer/utils.js reads them
function hex2rgba (hex) {
  if (typeof hex === 'number') hex = hex.toString()
  if (typeof hex !== 'string') throw new Error('Color should be defined as hex string')
  let hexCode = hex.slice().replace('#', '').split('')
  if (hexCode.length < 3 || hexCode.length === 5 || hexCode.length > 8) throw new Error('Invalid hex color: ' + hex)
  if (hexCode.length === 3 || hexCode.length === 4) hexCode = [].concat(...hexCode.map((c) => [c, c]))
  if (hexCode.length === 6) hexCode.push('F', 'F')
  const value = parseInt(hexCode.join(''), 16)
  return { rgba: [(value >> 24) & 255, (value >> 16) & 255, (value >> 8) & 255, value & 255], hex: '#' + hexCode.slice(0, 6).join('') }
}

function renderOptions (symbol, options, type) {
  const out = { ...symbol, type }
  if (type === 'terminal') {
    out.small = !!(options && options.small)
    out.inverse = !!(options && options.inverse)
    return out
  }
  if (!options) options = {}
  if (!options.color) options.color = {}
  const margin = typeof options.margin === 'undefined' || options.margin === null || options.margin < 0 ? 4 : options.margin
  const width = options.width && options.width >= 21 ? options.width : undefined
  const dark = hex2rgba(options.color.dark || '#000000ff')
  const light = hex2rgba(options.color.light || '#ffffffff')
  if (type === 'utf8' && !Number.isInteger(margin / 2)) throw new RangeError('Invalid array length')
  out.margin = Math.floor(Number(margin))
  out.width = width === undefined ? undefined : Number(width)
  out.scale = width ? 4 : Number(options.scale || 4)
  out.dark = dark.rgba
  out.darkHex = dark.hex
  out.light = light.rgba
  out.lightHex = light.hex
  return out
}

/** `qrcode.create`'s work, natively: failures become plain Errors, as qrcode throws them. */
function encodeNative (payload, symbol) {
  try {
    return native.__compatEncode(payload, symbol)
  } catch (e) {
    throw new Error(e.message)
  }
}

/** Renders `text` as `type` natively; throws (or rejects) with qrcode's messages. */
async function renderNative (text, options, type) {
  const { payload, symbol } = prepare(text, options)
  let opts
  try {
    opts = renderOptions(symbol, options, type)
  } catch (e) {
    // qrcode checks colours after it has built the symbol: a data error comes first.
    encodeNative(payload, symbol)
    throw e
  }
  try {
    return await native.__compatRender(payload, opts)
  } catch (e) {
    throw new Error(e.message)
  }
}

// ---- the public functions, with qrcode's argument shuffling
function checkParams (text, opts, cb) {
  if (typeof text === 'undefined') throw new Error('String required as first argument')
  if (typeof cb === 'undefined') {
    cb = opts
    opts = {}
  }
  if (typeof cb !== 'function') {
    opts = cb || {}
    cb = null
  }
  return { opts, cb }
}

/** A Promise when there is no callback, else the callback with (err, value). */
function deliver (promise, cb) {
  if (!cb) return promise
  promise.then((value) => cb(null, value), (err) => cb(err))
}

function pngType (type) {
  switch (type) {
    case 'svg': case 'txt': case 'utf8': return null // qrcode has no buffer renderer for these
    default: return 'png'
  }
}

async function pngBuffer (text, opts) {
  if (!pngType(opts.type)) {
    const { payload, symbol } = prepare(text, opts)
    encodeNative(payload, symbol) // qrcode builds the symbol before it fails
    throw new TypeError('renderFunc is not a function')
  }
  const png = await renderNative(text, opts, 'png')
  if (opts.rendererOpts && typeof opts.rendererOpts === 'object') {
    // qrcode hands rendererOpts to pngjs after setting the image size on it.
    opts.rendererOpts.width = opts.rendererOpts.height = png.readUInt32BE(16)
  }
  return png
}

function toBuffer (text, opts, cb) {
  const params = checkParams(text, opts, cb)
  return deliver(pngBuffer(text, params.opts), params.cb)
}

function toDataURL (text, opts, cb) {
  const params = checkParams(text, opts, cb)
  const url = pngBuffer(text, params.opts).then((png) => 'data:image/png;base64,' + png.toString('base64'))
  return deliver(url, params.cb)
}

function stringType (type) {
  return type === 'svg' || type === 'terminal' ? type : 'utf8'
}

function toString (text, opts, cb) {
  const params = checkParams(text, opts, cb)
  const type = stringType(params.opts ? params.opts.type : undefined)
  return deliver(Promise.resolve().then(() => renderNative(text, params.opts, type)), params.cb)
}

function fileType (path) {
  return path.slice((path.lastIndexOf('.') - 1 >>> 0) + 2).toLowerCase()
}

function toFile (path, text, opts, cb) {
  if (typeof path !== 'string' || !(typeof text === 'string' || typeof text === 'object')) {
    throw new Error('Invalid argument')
  }
  const params = checkParams(text, opts, cb)
  const type = params.opts.type || fileType(path)
  const written = Promise.resolve().then(async () => {
    let content
    if (type === 'svg') {
      content = '<?xml version="1.0" encoding="utf-8"?>' +
        '<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd">' +
        await renderNative(text, params.opts, 'svg')
    } else if (type === 'txt' || type === 'utf8') {
      content = await renderNative(text, params.opts, 'utf8')
    } else {
      content = await pngBuffer(text, { ...params.opts, type: 'png' })
    }
    await fs.promises.writeFile(path, content)
  })
  return deliver(written, params.cb)
}

function toFileStream (stream, text, opts) {
  if (arguments.length < 2) throw new Error('Too few arguments provided')
  const params = checkParams(text, opts, stream.emit.bind(stream, 'error'))
  pngBuffer(text, { ...params.opts, type: 'png' }).then((png) => stream.end(png), (err) => params.cb(err))
}

module.exports = { create, toBuffer, toDataURL, toString, toFile, toFileStream }
