// Types of `qr-native/compat`: the server API of the `qrcode` package, with the names
// `@types/qrcode` exports, so an app written against `@types/qrcode` compiles unchanged but
// for its import (`__test__/types/qrcode-app.ts` is such an app). The browser-only
// `toCanvas` and the canvas overloads of `toDataURL` are not part of a server drop-in.
/// <reference types="node" />
import type { Writable } from 'node:stream'

export type QRCodeErrorCorrectionLevel = 'low' | 'medium' | 'quartile' | 'high' | 'L' | 'M' | 'Q' | 'H'
export type QRCodeMaskPattern = 0 | 1 | 2 | 3 | 4 | 5 | 6 | 7
/** Maps a kanji character to its Shift JIS code, for kanji mode. */
export type QRCodeToSJISFunc = (codePoint: string) => number

export interface QRCodeOptions {
  /** Smallest version to use, 1..40; chosen by the data when absent. */
  version?: number | undefined
  /** Default `'M'`. */
  errorCorrectionLevel?: QRCodeErrorCorrectionLevel | undefined
  /** 0..7; chosen by penalty score when absent. */
  maskPattern?: QRCodeMaskPattern | undefined
  toSJISFunc?: QRCodeToSJISFunc | undefined
}

export interface QRCodeRenderersOptions extends QRCodeOptions {
  /** Quiet zone in modules, default 4. */
  margin?: number | undefined
  /** Pixels per module, default 4. */
  scale?: number | undefined
  /** Image width in px; wins over `scale`; ignored when too small for the symbol. */
  width?: number | undefined
  /** Hex colours, `#rgb[a]` or `#rrggbb[aa]`. */
  color?: { dark?: string | undefined; light?: string | undefined } | undefined
}

/** Accepted as `qrcode` accepts them; qr-native's PNG has its own fixed settings. */
export interface QRCodePngRendererOptions {
  deflateLevel?: number | undefined
  deflateStrategy?: number | undefined
}

export type QRCodeDataURLType = 'image/png' | 'image/jpeg' | 'image/webp'
export type QRCodeToDataURLOptions = QRCodeToDataURLOptionsJpegWebp | QRCodeToDataURLOptionsOther
/** Named for `@types/qrcode`; in Node, `qrcode` and qr-native both make a PNG. */
export interface QRCodeToDataURLOptionsJpegWebp extends QRCodeRenderersOptions {
  type: 'image/jpeg' | 'image/webp'
  rendererOpts?: { quality?: number | undefined } | undefined
}
export interface QRCodeToDataURLOptionsOther extends QRCodeRenderersOptions {
  type?: 'image/png' | undefined
  rendererOpts?: QRCodePngRendererOptions | undefined
}

export type QRCodeStringType = 'utf8' | 'svg' | 'terminal'
export type QRCodeToStringOptions = QRCodeToStringOptionsTerminal | QRCodeToStringOptionsOther
export interface QRCodeToStringOptionsTerminal extends QRCodeRenderersOptions {
  type: 'terminal'
  /** Half-height blocks. */
  small?: boolean | undefined
}
export interface QRCodeToStringOptionsOther extends QRCodeRenderersOptions {
  type?: 'utf8' | 'svg' | undefined
}

export type QRCodeFileType = 'png' | 'svg' | 'utf8'
export type QRCodeToFileOptions = QRCodeToFileOptionsPng | QRCodeToFileOptionsOther
export interface QRCodeToFileOptionsPng extends QRCodeRenderersOptions {
  type?: 'png' | undefined
  rendererOpts?: QRCodePngRendererOptions | undefined
}
export interface QRCodeToFileOptionsOther extends QRCodeRenderersOptions {
  type: 'svg' | 'utf8' | undefined
}

export type QRCodeFileStreamType = 'png'
export interface QRCodeToFileStreamOptions extends QRCodeRenderersOptions {
  type?: QRCodeFileStreamType | undefined
  rendererOpts?: QRCodePngRendererOptions | undefined
}

export type QRCodeBufferType = 'png'
export interface QRCodeToBufferOptions extends QRCodeRenderersOptions {
  type?: QRCodeBufferType | undefined
  rendererOpts?: QRCodePngRendererOptions | undefined
}

export type QRCodeSegmentMode = 'alphanumeric' | 'numeric' | 'byte' | 'kanji'
export type QRCodeSegment =
  | QRCodeNumericSegment
  | QRCodeAlphanumericSegment
  | QRCodeByteSegment
  | QRCodeKanjiSegment
  | { mode?: never; data: string | Buffer | Uint8ClampedArray | Uint8Array }
export interface QRCodeNumericSegment {
  mode: 'numeric'
  data: string | number
}
export interface QRCodeAlphanumericSegment {
  mode: 'alphanumeric'
  data: string
}
export interface QRCodeByteSegment {
  mode: 'byte'
  data: Buffer | Uint8ClampedArray | Uint8Array
}
export interface QRCodeKanjiSegment {
  mode: 'kanji'
  data: string
}

/** What `create` returns: the symbol, as `qrcode` shapes it. */
export interface QRCode {
  modules: BitMatrix
  version: number
  /** `qrcode`'s own level object (`require('qrcode/lib/core/error-correction-level').M` …) when `qrcode` is installed. */
  errorCorrectionLevel: ErrorCorrectionLevel
  maskPattern: QRCodeMaskPattern | undefined
  segments: GeneratedQRCodeSegment[]
}

export interface BitMatrix {
  size: number
  data: Uint8Array
  reservedBit: Uint8Array
  set(row: number, col: number, value: number, reserved: boolean): void
  get(row: number, col: number): number
  xor(row: number, col: number, value: number): void
  isReserved(row: number, col: number): number
}

export interface ErrorCorrectionLevel {
  bit: 0 | 1 | 2 | 3
}

export type ModeId = 'Numeric' | 'Alphanumeric' | 'Byte' | 'Kanji'
export interface Mode<TModeId extends ModeId = ModeId> {
  id: TModeId
  bit: number
  ccBits: readonly number[]
}

export type GeneratedQRCodeSegment = NumericData | AlphanumericData | ByteData | KanjiData
export interface DataSegment {
  getLength(): number
  getBitsLength(): number
}
export interface NumericData extends DataSegment {
  mode: Mode<'Numeric'>
  data: string
}
export interface AlphanumericData extends DataSegment {
  mode: Mode<'Alphanumeric'>
  data: string
}
export interface ByteData extends DataSegment {
  mode: Mode<'Byte'>
  data: Uint8Array
}
export interface KanjiData extends DataSegment {
  mode: Mode<'Kanji'>
  data: string
}

type Text = string | QRCodeSegment[]
type Done = (error: Error | null | undefined) => void

export function create(text: Text, options?: QRCodeOptions): QRCode

export function toBuffer(text: Text, callback: (error: Error | null | undefined, buffer: Buffer) => void): void
export function toBuffer(text: Text, options?: QRCodeToBufferOptions): Promise<Buffer>
export function toBuffer(text: Text, options: QRCodeToBufferOptions, callback: (error: Error | null | undefined, buffer: Buffer) => void): void

export function toDataURL(text: Text, callback: (error: Error | null | undefined, url: string) => void): void
export function toDataURL(text: Text, options?: QRCodeToDataURLOptions): Promise<string>
export function toDataURL(text: Text, options: QRCodeToDataURLOptions, callback: (error: Error | null | undefined, url: string) => void): void

export function toString(text: Text, callback: (error: Error | null | undefined, string: string) => void): void
export function toString(text: Text, options?: QRCodeToStringOptions): Promise<string>
export function toString(text: Text, options: QRCodeToStringOptions, callback: (error: Error | null | undefined, string: string) => void): void

export function toFile(path: string, text: Text, callback: Done): void
export function toFile(path: string, text: Text, options?: QRCodeToFileOptions): Promise<void>
export function toFile(path: string, text: Text, options: QRCodeToFileOptions, callback: Done): void

export function toFileStream(stream: Writable, text: Text, callback: Done): void
export function toFileStream(stream: Writable, text: Text, options?: QRCodeToFileStreamOptions): Promise<void>
export function toFileStream(stream: Writable, text: Text, options: QRCodeToFileStreamOptions, callback: Done): void
