// Types of `qr-native/compat`: the server API of the `qrcode` package, with the names
// `@types/qrcode` exports, so an app written against `@types/qrcode` compiles unchanged but
// for its import (`__test__/types/qrcode-app.ts` is such an app). The browser-only
// `toCanvas` and the canvas overloads of `toDataURL` are not part of a server drop-in.
/// <reference types="node" />
import type { Writable } from 'node:stream'

/** An error-correction level, by `qrcode`'s names or letters: recovers about 7 %, 15 %, 25 % or 30 % of the codewords. */
export type QRCodeErrorCorrectionLevel = 'low' | 'medium' | 'quartile' | 'high' | 'L' | 'M' | 'Q' | 'H'
/** One of the eight mask patterns. */
export type QRCodeMaskPattern = 0 | 1 | 2 | 3 | 4 | 5 | 6 | 7
/** Maps a kanji character to its Shift JIS code, for kanji mode. */
export type QRCodeToSJISFunc = (codePoint: string) => number

/** What every function reads to make the symbol. */
export interface QRCodeOptions {
  /** Smallest version to use, 1..40; chosen by the data when absent. */
  version?: number | undefined
  /** Default `'M'`. */
  errorCorrectionLevel?: QRCodeErrorCorrectionLevel | undefined
  /** 0..7; chosen by penalty score when absent. */
  maskPattern?: QRCodeMaskPattern | undefined
  /** Turns kanji mode on (for the rest of the process, as in `qrcode`): maps each kanji to its Shift JIS code. */
  toSJISFunc?: QRCodeToSJISFunc | undefined
}

/** What the renderers read: the symbol's options and the image's. */
export interface QRCodeRenderersOptions extends QRCodeOptions {
  /** Quiet zone in modules, default 4. */
  margin?: number | undefined
  /** Pixels per module, default 4. */
  scale?: number | undefined
  /** Image width in px; wins over `scale`; ignored when too small for the symbol. */
  width?: number | undefined
  /** Hex colours, `#rgb[a]` or `#rrggbb[aa]`. */
  color?: QRCodeColor | undefined
}

/** Colours of the image, as hex: `#rgb[a]` or `#rrggbb[aa]`. */
export interface QRCodeColor {
  /** The dark modules, default `'#000000ff'`. */
  dark?: string | undefined
  /** The light modules and the margin, default `'#ffffffff'`. */
  light?: string | undefined
}

/** Accepted as `qrcode` accepts them; qr-native's PNG has its own fixed settings. */
export interface QRCodePngRendererOptions {
  /** pngjs's zlib level: accepted and ignored (the PNG is 1-bit, compressed our way). */
  deflateLevel?: number | undefined
  /** pngjs's zlib strategy: accepted and ignored. */
  deflateStrategy?: number | undefined
}

/** The `type` of `toDataURL`. */
export type QRCodeDataURLType = 'image/png' | 'image/jpeg' | 'image/webp'
/** Options of `toDataURL`. */
export type QRCodeToDataURLOptions = QRCodeToDataURLOptionsJpegWebp | QRCodeToDataURLOptionsOther
/** Named for `@types/qrcode`; in Node, `qrcode` and qr-native both make a PNG. */
export interface QRCodeToDataURLOptionsJpegWebp extends QRCodeRenderersOptions {
  /** Accepted as `qrcode` accepts it; the data URL is a PNG. */
  type: 'image/jpeg' | 'image/webp'
  /** Accepted and ignored. */
  rendererOpts?: QRCodeJpegWebpRendererOptions | undefined
}

/** `rendererOpts` of a JPEG or WebP data URL in `qrcode`'s browser build. */
export interface QRCodeJpegWebpRendererOptions {
  /** The image quality, 0..1: accepted and ignored. */
  quality?: number | undefined
}
/** A PNG data URL's options. */
export interface QRCodeToDataURLOptionsOther extends QRCodeRenderersOptions {
  /** Default `'image/png'`. */
  type?: 'image/png' | undefined
  /** pngjs's settings, accepted and ignored. */
  rendererOpts?: QRCodePngRendererOptions | undefined
}

/** The `type` of `toString`. */
export type QRCodeStringType = 'utf8' | 'svg' | 'terminal'
/** Options of `toString`. */
export type QRCodeToStringOptions = QRCodeToStringOptionsTerminal | QRCodeToStringOptionsOther
/** A terminal drawing's options. */
export interface QRCodeToStringOptionsTerminal extends QRCodeRenderersOptions {
  /** ANSI colours for a terminal. */
  type: 'terminal'
  /** Half-height blocks. */
  small?: boolean | undefined
}
/** A UTF-8 drawing's or an SVG's options. */
export interface QRCodeToStringOptionsOther extends QRCodeRenderersOptions {
  /** Default `'utf8'` (half blocks). */
  type?: 'utf8' | 'svg' | undefined
}

/** The `type` of `toFile`; by default, the file's extension decides. */
export type QRCodeFileType = 'png' | 'svg' | 'utf8'
/** Options of `toFile`. */
export type QRCodeToFileOptions = QRCodeToFileOptionsPng | QRCodeToFileOptionsOther
/** A PNG file's options. */
export interface QRCodeToFileOptionsPng extends QRCodeRenderersOptions {
  /** `'png'`, or the file's extension when absent. */
  type?: 'png' | undefined
  /** pngjs's settings, accepted and ignored. */
  rendererOpts?: QRCodePngRendererOptions | undefined
}
/** An SVG or text file's options. */
export interface QRCodeToFileOptionsOther extends QRCodeRenderersOptions {
  /** `'svg'` or `'utf8'`. */
  type: 'svg' | 'utf8' | undefined
}

/** The `type` of `toFileStream`: PNG only. */
export type QRCodeFileStreamType = 'png'
/** Options of `toFileStream`. */
export interface QRCodeToFileStreamOptions extends QRCodeRenderersOptions {
  /** `'png'`, the default. */
  type?: QRCodeFileStreamType | undefined
  /** pngjs's settings, accepted and ignored. */
  rendererOpts?: QRCodePngRendererOptions | undefined
}

/** The `type` of `toBuffer`: PNG only. */
export type QRCodeBufferType = 'png'
/** Options of `toBuffer`. */
export interface QRCodeToBufferOptions extends QRCodeRenderersOptions {
  /** `'png'`, the default. */
  type?: QRCodeBufferType | undefined
  /** pngjs's settings, accepted and ignored. */
  rendererOpts?: QRCodePngRendererOptions | undefined
}

/** The mode of a segment given by the caller. */
export type QRCodeSegmentMode = 'alphanumeric' | 'numeric' | 'byte' | 'kanji'
/** A segment given by the caller: with a mode, or without one (its bytes, in byte mode). */
export type QRCodeSegment =
  | QRCodeNumericSegment
  | QRCodeAlphanumericSegment
  | QRCodeByteSegment
  | QRCodeKanjiSegment
  | QRCodeUnspecifiedSegment
/** A segment without a mode: `qrcode` picks byte mode. */
export interface QRCodeUnspecifiedSegment {
  /** Absent. */
  mode?: never
  /** The text or bytes. */
  data: string | Buffer | Uint8ClampedArray | Uint8Array
}
/** Digits, in numeric mode. */
export interface QRCodeNumericSegment {
  /** `'numeric'`. */
  mode: 'numeric'
  /** The digits. */
  data: string | number
}
/** `0-9A-Z $%*+-./:`, in alphanumeric mode. */
export interface QRCodeAlphanumericSegment {
  /** `'alphanumeric'`. */
  mode: 'alphanumeric'
  /** The characters. */
  data: string
}
/** Bytes, in byte mode. */
export interface QRCodeByteSegment {
  /** `'byte'`. */
  mode: 'byte'
  /** The bytes. */
  data: Buffer | Uint8ClampedArray | Uint8Array
}
/** Kanji, in kanji mode (needs `toSJISFunc`). */
export interface QRCodeKanjiSegment {
  /** `'kanji'`. */
  mode: 'kanji'
  /** The kanji. */
  data: string
}

/** What `create` returns: the symbol, as `qrcode` shapes it. */
export interface QRCode {
  /** The modules, dark or light. */
  modules: BitMatrix
  /** The version, 1..40. */
  version: number
  /** `qrcode`'s own level object (`require('qrcode/lib/core/error-correction-level').M` …) when `qrcode` is installed. */
  errorCorrectionLevel: ErrorCorrectionLevel
  /** The mask applied. */
  maskPattern: QRCodeMaskPattern | undefined
  /** The segments the data was encoded in. */
  segments: GeneratedQRCodeSegment[]
}

/** The symbol's modules, row by row, as `qrcode`'s `BitMatrix`. */
export interface BitMatrix {
  /** Modules per side. */
  size: number
  /** `size * size` modules, 1 = dark. */
  data: Uint8Array
  /** 1 where a module belongs to a function pattern (finders, timing, format, version). */
  reservedBit: Uint8Array
  /** Sets a module, and whether it is reserved. */
  set(row: number, col: number, value: number, reserved: boolean): void
  /** A module: 1 dark, 0 light. */
  get(row: number, col: number): number
  /** Flips a module where `value` is 1. */
  xor(row: number, col: number, value: number): void
  /** 1 where the module is reserved. */
  isReserved(row: number, col: number): number
}

/** An error-correction level as `qrcode` shapes it. */
export interface ErrorCorrectionLevel {
  /** The level's two format bits: L 1, M 0, Q 3, H 2. */
  bit: 0 | 1 | 2 | 3
}

/** A mode's name in `qrcode`'s objects. */
export type ModeId = 'Numeric' | 'Alphanumeric' | 'Byte' | 'Kanji'
/** A mode as `qrcode` shapes it. */
export interface Mode<TModeId extends ModeId = ModeId> {
  /** Its name. */
  id: TModeId
  /** Its 4-bit indicator. */
  bit: number
  /** Its character-count bits for versions 1–9, 10–26 and 27–40. */
  ccBits: readonly number[]
}

/** A segment of `create`'s result. */
export type GeneratedQRCodeSegment = NumericData | AlphanumericData | ByteData | KanjiData
/** What every segment of `create`'s result has. */
export interface DataSegment {
  /** Its length in characters (bytes in byte mode). */
  getLength(): number
  /** Its data's length in bits, without the mode and count. */
  getBitsLength(): number
}
/** A numeric segment of `create`'s result. */
export interface NumericData extends DataSegment {
  /** Its mode. */
  mode: Mode<'Numeric'>
  /** Its data. */
  data: string
}
/** A alphanumeric segment of `create`'s result. */
export interface AlphanumericData extends DataSegment {
  /** Its mode. */
  mode: Mode<'Alphanumeric'>
  /** Its data. */
  data: string
}
/** A byte segment of `create`'s result. */
export interface ByteData extends DataSegment {
  /** Its mode. */
  mode: Mode<'Byte'>
  /** Its data. */
  data: Uint8Array
}
/** A kanji segment of `create`'s result. */
export interface KanjiData extends DataSegment {
  /** Its mode. */
  mode: Mode<'Kanji'>
  /** Its data. */
  data: string
}

/** What to encode: a string, or a list of segments. */
export type Text = string | QRCodeSegment[]
/** A callback that gets only an error. */
export type Done = (error: Error | null | undefined) => void

/** Makes the symbol, on the calling thread: the modules, version, level, mask and segments `qrcode.create` gives. Returns it. */
export function create(text: Text, options?: QRCodeOptions): QRCode

/** A PNG of the code, made on the threadpool. Calls `callback` when done (always asynchronously). */
export function toBuffer(text: Text, callback: (error: Error | null | undefined, buffer: Buffer) => void): void
/** A PNG of the code, made on the threadpool. Resolves with it; rejects with `qrcode`'s messages. */
export function toBuffer(text: Text, options?: QRCodeToBufferOptions): Promise<Buffer>
/** A PNG of the code, made on the threadpool. Calls `callback` when done (always asynchronously). */
export function toBuffer(text: Text, options: QRCodeToBufferOptions, callback: (error: Error | null | undefined, buffer: Buffer) => void): void

/** A `data:image/png;base64,…` URL of the code, made on the threadpool. Calls `callback` when done (always asynchronously). */
export function toDataURL(text: Text, callback: (error: Error | null | undefined, url: string) => void): void
/** A `data:image/png;base64,…` URL of the code, made on the threadpool. Resolves with it; rejects with `qrcode`'s messages. */
export function toDataURL(text: Text, options?: QRCodeToDataURLOptions): Promise<string>
/** A `data:image/png;base64,…` URL of the code, made on the threadpool. Calls `callback` when done (always asynchronously). */
export function toDataURL(text: Text, options: QRCodeToDataURLOptions, callback: (error: Error | null | undefined, url: string) => void): void

/** The code as a UTF-8 drawing, an SVG or a terminal drawing, made on the threadpool. Calls `callback` when done (always asynchronously). */
export function toString(text: Text, callback: (error: Error | null | undefined, string: string) => void): void
/** The code as a UTF-8 drawing, an SVG or a terminal drawing, made on the threadpool. Resolves with it; rejects with `qrcode`'s messages. */
export function toString(text: Text, options?: QRCodeToStringOptions): Promise<string>
/** The code as a UTF-8 drawing, an SVG or a terminal drawing, made on the threadpool. Calls `callback` when done (always asynchronously). */
export function toString(text: Text, options: QRCodeToStringOptions, callback: (error: Error | null | undefined, string: string) => void): void

/** Writes the code to `path`, as PNG, SVG or UTF-8 (by `type`, else the extension). Calls `callback` when done (always asynchronously). */
export function toFile(path: string, text: Text, callback: Done): void
/** Writes the code to `path`, as PNG, SVG or UTF-8 (by `type`, else the extension). Resolves with it; rejects with `qrcode`'s messages. */
export function toFile(path: string, text: Text, options?: QRCodeToFileOptions): Promise<void>
/** Writes the code to `path`, as PNG, SVG or UTF-8 (by `type`, else the extension). Calls `callback` when done (always asynchronously). */
export function toFile(path: string, text: Text, options: QRCodeToFileOptions, callback: Done): void

/** Writes a PNG of the code to `stream`. Calls `callback` when done (always asynchronously). */
export function toFileStream(stream: Writable, text: Text, callback: Done): void
/** Writes a PNG of the code to `stream`. Resolves with it; rejects with `qrcode`'s messages. */
export function toFileStream(stream: Writable, text: Text, options?: QRCodeToFileStreamOptions): Promise<void>
/** Writes a PNG of the code to `stream`. Calls `callback` when done (always asynchronously). */
export function toFileStream(stream: Writable, text: Text, options: QRCodeToFileStreamOptions, callback: Done): void
