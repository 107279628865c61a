// An app written against `@types/qrcode`. npm-install.spec.js compiles it twice with
// `tsc --strict`: as it is, against `qrcode` and `@types/qrcode`, and with only the import
// line changed to `qr-native/compat`. Both must compile.
import * as QRCode from 'qrcode'
import type {
  QRCodeErrorCorrectionLevel, QRCodeMaskPattern, QRCodeOptions, QRCodeRenderersOptions, QRCodeSegment,
  QRCodeToBufferOptions, QRCodeToDataURLOptions, QRCodeToFileOptions, QRCodeToFileStreamOptions, QRCodeToStringOptions,
  QRCode as Symbol, GeneratedQRCodeSegment, BitMatrix
} from 'qrcode'
import { PassThrough } from 'node:stream'

const level: QRCodeErrorCorrectionLevel = 'H'
const mask: QRCodeMaskPattern = 3
const base: QRCodeOptions = { errorCorrectionLevel: level, maskPattern: mask, version: 5 }
const render: QRCodeRenderersOptions = { ...base, margin: 2, scale: 8, color: { dark: '#000000ff', light: '#ffffffff' } }

export async function handler (text: string): Promise<Array<string | Buffer>> {
  const urlOptions: QRCodeToDataURLOptions = { ...render, type: 'image/png' }
  const bufferOptions: QRCodeToBufferOptions = { width: 300, type: 'png', rendererOpts: { deflateLevel: 9 } }
  const stringOptions: QRCodeToStringOptions = { type: 'terminal', small: true }
  const svgOptions: QRCodeToStringOptions = { type: 'svg', margin: 1 }
  const fileOptions: QRCodeToFileOptions = { type: 'png' }
  const streamOptions: QRCodeToFileStreamOptions = { width: 120 }
  const segments: QRCodeSegment[] = [{ data: 'ABC', mode: 'alphanumeric' }, { data: '0123', mode: 'numeric' }, { data: Buffer.from('bytes'), mode: 'byte' }]

  const url: string = await QRCode.toDataURL(text, urlOptions)
  const png: Buffer = await QRCode.toBuffer(segments, bufferOptions)
  const terminal: string = await QRCode.toString(text, stringOptions)
  const svg: string = await QRCode.toString(text, svgOptions)
  await QRCode.toFile('/tmp/qr-native-types-app.png', text, fileOptions)
  QRCode.toFileStream(new PassThrough(), text, streamOptions)
  QRCode.toDataURL(text, (err, dataUrl) => { if (err) throw err; console.log(dataUrl.length) })
  QRCode.toBuffer(text, { errorCorrectionLevel: 'low' }, (err, buffer) => { if (!err) console.log(buffer.byteLength) })

  const symbol: Symbol = QRCode.create(text, base)
  const modules: BitMatrix = symbol.modules
  const dark: number = modules.get(0, 0) + modules.size
  const bit: 0 | 1 | 2 | 3 = symbol.errorCorrectionLevel.bit
  const first: GeneratedQRCodeSegment = symbol.segments[0]
  const bits: number = first.getBitsLength() + (symbol.maskPattern ?? 0) + symbol.version
  console.log(dark, bit, bits, first.mode.id)
  return [url, png, terminal, svg]
}
