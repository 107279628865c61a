'use strict'
// qr-native/styling: qr-code-styling's `QRCodeStyling` for servers, with no jsdom and no
// canvas. Its options are merged and sanitised as qr-code-styling does it. The modules come
// from `qrcode-generator`, the encoder qr-code-styling uses, called the same way, so the
// matrix is the same. Drawing runs natively on the threadpool, with qr-code-styling's shapes,
// places, logo rule and layout (`dotsOptions.roundSize`). It draws what qr-code-styling
// draws, readable or not, and ERR_QR_STYLE_UNREADABLE is the native API's alone.
const qrcode = require('qrcode-generator')
const binding = require('./load.js')
const { codeError } = require('./errors.js')

const DEFAULTS = {
  type: 'canvas',
  shape: 'square',
  width: 300,
  height: 300,
  data: '',
  margin: 0,
  qrOptions: { typeNumber: 0, mode: undefined, errorCorrectionLevel: 'Q' },
  imageOptions: { saveAsBlob: true, hideBackgroundDots: true, imageSize: 0.4, crossOrigin: undefined, margin: 0 },
  dotsOptions: { type: 'square', color: '#000', roundSize: true },
  backgroundOptions: { round: 0, color: '#fff' }
}

const DOTS = ['square', 'dots', 'rounded', 'extra-rounded', 'classy', 'classy-rounded']
const RING_FIGURES = ['square', 'dot', 'extra-rounded']
const CENTRE_FIGURES = ['square', 'dot']
const EXTENSIONS = { png: 'png', jpeg: 'jpeg', jpg: 'jpeg', webp: 'webp', svg: 'svg' }


const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v) && !Buffer.isBuffer(v) && !(v instanceof Uint8Array)

/** qr-code-styling's deep merge: objects merged key by key, anything else replaced; undefined skipped. */
function merge (target, source) {
  const out = { ...target }
  if (!isObject(source)) return out
  for (const [key, value] of Object.entries(source)) {
    if (value === undefined) continue
    out[key] = isObject(value) && isObject(target[key]) ? merge(target[key], value) : value
  }
  return out
}

/** Numbers as qr-code-styling's `sanitizeOptions` makes them. */
function sanitize (o) {
  const out = { ...o, width: Number(o.width), height: Number(o.height), margin: Number(o.margin) }
  out.imageOptions = { ...o.imageOptions, hideBackgroundDots: Boolean(o.imageOptions.hideBackgroundDots), imageSize: Number(o.imageOptions.imageSize), margin: Number(o.imageOptions.margin) }
  if (out.margin > Math.min(out.width, out.height)) out.margin = Math.min(out.width, out.height)
  return out
}

const NUMERIC = /^[0-9]*$/
const ALPHANUMERIC = /^[0-9A-Z $%*+\-./:]*$/

/**
 * What to encode, as qr-code-styling encodes it: one segment in its mode (from the data
 * unless `qrOptions.mode` says), Byte mode taking each UTF-16 unit's low byte as
 * qrcode-generator's default `stringToBytes` does. Encoded natively when the mode fits the
 * data; otherwise (Kanji, or a mode the data does not fit) by qrcode-generator itself.
 */
function encodingOf (o) {
  const data = String(o.data)
  const mode = o.qrOptions.mode || (NUMERIC.test(data) ? 'Numeric' : ALPHANUMERIC.test(data) ? 'Alphanumeric' : 'Byte')
  const native = mode === 'Byte' || (mode === 'Numeric' && NUMERIC.test(data)) || (mode === 'Alphanumeric' && ALPHANUMERIC.test(data))
  const typeNumber = Math.max(0, Math.min(40, Math.trunc(Number(o.qrOptions.typeNumber)) || 0))
  if (native) return { input: Buffer.from(data, 'latin1'), mode, typeNumber }
  return { input: matrixOf(o, data, mode), mode: 'matrix', typeNumber }
}

/** `qrcode-generator`'s matrix, as qr-code-styling makes it. */
function matrixOf (o, data, mode) {
  const qr = qrcode(o.qrOptions.typeNumber, o.qrOptions.errorCorrectionLevel)
  qr.addData(data, mode)
  try {
    qr.make()
  } catch (e) {
    throw codeError(RangeError, 'ERR_QR_DATA_TOO_LONG', `The data does not fit a QR code of type ${o.qrOptions.typeNumber || 'auto'} at level ${o.qrOptions.errorCorrectionLevel}: ${e}`)
  }
  const n = qr.getModuleCount()
  const modules = new Uint8Array(n * n)
  for (let r = 0; r < n; r++) for (let c = 0; c < n; c++) modules[r * n + c] = qr.isDark(r, c) ? 1 : 0
  return modules
}

/** A colour: hex as it is, `transparent` as a transparent hex; other CSS colours are refused by name. */
const colour = (c) => (c === 'transparent' ? '#0000' : c)

/** A paint in the native API's words; qr-code-styling's colours are CSS colours, ours hex. */
function paint (part) {
  const out = {}
  if (part && part.gradient) {
    const g = part.gradient
    out.gradient = { type: g.type === 'radial' ? 'radial' : 'linear', rotation: Number(g.rotation) || 0, colorStops: (g.colorStops || []).map((s) => ({ offset: Number(s.offset), color: colour(s.color) })) }
  } else if (part && part.color) {
    out.color = colour(part.color)
  }
  return out
}

/** The logo file: a Buffer or Uint8Array, or a `data:` URL; nothing is fetched. */
function logoFile (image) {
  if (image instanceof Uint8Array) return image
  if (typeof image !== 'string') throw codeError(TypeError, 'ERR_INVALID_ARG_TYPE', 'The "image" option must be a data: URL, a Buffer or a Uint8Array')
  const m = /^data:[^,]*?(;base64)?,(.*)$/s.exec(image)
  if (!m) throw codeError(TypeError, 'ERR_INVALID_ARG_VALUE', `The "image" option must be a data: URL, a Buffer or a Uint8Array: qr-native/styling fetches nothing (read the file or URL yourself). Received '${image.slice(0, 60)}'`)
  return m[1] ? Buffer.from(m[2], 'base64') : percentDecoded(m[2])
}

// A data URL's text as bytes: each `%XX` one byte, the rest as UTF-8 (an SVG written as text;
// `decodeURIComponent` would throw a URIError on the escaped bytes of a PNG).
function percentDecoded (text) {
  const parts = []
  let last = 0
  for (const m of text.matchAll(/%[0-9a-fA-F]{2}/g)) {
    parts.push(Buffer.from(text.slice(last, m.index)), Buffer.of(parseInt(m[0].slice(1), 16)))
    last = m.index + 3
  }
  parts.push(Buffer.from(text.slice(last)))
  return Buffer.concat(parts)
}

/** The native options for qr-code-styling's options `o`, drawn as `type`. */
function nativeOptions (o, type) {
  const dotsType = DOTS.includes(o.dotsOptions.type) ? o.dotsOptions.type : 'square'
  const ringType = o.cornersSquareOptions && o.cornersSquareOptions.type
  const centreType = o.cornersDotOptions && o.cornersDotOptions.type
  // A figure by its name; any other type (or none) module by module, in its dot shape.
  const asDots = (t) => (DOTS.includes(t) ? t : 'square')
  const ringFigure = RING_FIGURES.includes(ringType)
  const centreFigure = CENTRE_FIGURES.includes(centreType)
  const style = {
    dots: { type: dotsType, ...paint(o.dotsOptions) },
    cornersSquare: { type: ringFigure ? ringType : ringType ? asDots(ringType) : dotsType, modules: !ringFigure, ...paint(o.cornersSquareOptions) },
    cornersDot: { type: centreFigure ? centreType : centreType ? asDots(centreType) : dotsType, modules: !centreFigure, ...paint(o.cornersDotOptions) },
    background: { ...paint(o.backgroundOptions), round: Math.min(1, Math.max(0, Number(o.backgroundOptions && o.backgroundOptions.round) || 0)) },
    shape: o.shape === 'circle' ? 'circle' : 'square'
  }
  if (!style.background.color && !style.background.gradient) style.background.color = '#0000'
  if (o.image) style.logo = { image: logoFile(o.image), margin: o.imageOptions.margin, hideBackgroundDots: o.imageOptions.hideBackgroundDots }
  return { type, errorCorrectionLevel: o.qrOptions.errorCorrectionLevel, style }
}

class QRCodeStyling {
  /** qr-code-styling's constructor: its option names and defaults. */
  constructor (options) {
    this._options = options ? sanitize(merge(DEFAULTS, options)) : DEFAULTS
    this.update()
  }

  /** Merges `options` into the current ones and encodes the data again. */
  update (options) {
    this._options = options ? sanitize(merge(this._options, options)) : this._options
    this._encoding = this._options.data ? encodingOf(this._options) : null
  }

  /** The modules drawn, `size × size`, 1 dark (for tests; qr-code-styling has no such method). */
  _modules () {
    const e = this._encoding
    if (!e) return null
    return e.mode === 'matrix' ? e.input : binding.__generatorMatrix(e.input, e.mode, this._options.qrOptions.errorCorrectionLevel, e.typeNumber)
  }

  /**
   * Resolves with the image as a Buffer: `'png'` (default), `'jpeg'`, `'webp'` or `'svg'`.
   * Drawn natively on the threadpool.
   */
  async getRawData (extension = 'png') {
    if (!this._encoding) throw new Error('QR code is empty')
    const type = EXTENSIONS[String(extension).replace(/^\./, '').toLowerCase()]
    if (!type) throw new Error(`Extension "${extension}" is not supported`)
    const o = this._options
    if (o.width !== o.height) {
      throw codeError(RangeError, 'ERR_INVALID_ARG_VALUE', `qr-native/styling draws square images: width ${o.width} and height ${o.height} differ`)
    }
    const { input, mode, typeNumber } = this._encoding
    const layout = { width: o.width, margin: o.margin, roundSize: o.dotsOptions.roundSize !== false, imageSize: Math.min(1, Math.max(0, o.imageOptions.imageSize || 0)), mode, typeNumber }
    return binding.__stylingRender(input, nativeOptions(o, type), layout)
  }

  /** Browser only in qr-code-styling: there is no DOM to append to on a server. */
  append () {
    throw codeError(Error, 'ERR_METHOD_NOT_IMPLEMENTED', 'The append() method is not implemented in qr-native/styling: there is no DOM on a server; use getRawData() and send or write the Buffer')
  }

  /** Browser only in qr-code-styling. */
  download () {
    throw codeError(Error, 'ERR_METHOD_NOT_IMPLEMENTED', "The download() method is not implemented in qr-native/styling: use getRawData() and write the Buffer with fs.writeFile")
  }

  /** Extensions change a DOM element; there is none here. */
  applyExtension () {
    throw codeError(Error, 'ERR_METHOD_NOT_IMPLEMENTED', 'The applyExtension() method is not implemented in qr-native/styling: extensions edit an SVG element, and there is none on a server')
  }
}

module.exports = { QRCodeStyling, default: QRCodeStyling }
