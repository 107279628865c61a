// Types of `qr-native/compat`: the server API of the `qrcode` package, same signatures.

export type QRCodeErrorCorrectionLevel = 'low' | 'medium' | 'quartile' | 'high' | 'L' | 'M' | 'Q' | 'H'
export type QRCodeMaskPattern = 0 | 1 | 2 | 3 | 4 | 5 | 6 | 7
export type QRCodeToSJISFunc = (codePoint: string) => number

export interface QRCodeSegment {
  data: string | Buffer | Uint8Array | number[]
  mode?: 'numeric' | 'alphanumeric' | 'byte' | 'kanji'
}

export interface QRCodeOptions {
  version?: number
  errorCorrectionLevel?: QRCodeErrorCorrectionLevel
  maskPattern?: QRCodeMaskPattern
  toSJISFunc?: QRCodeToSJISFunc
}

export interface QRCodeRenderersOptions extends QRCodeOptions {
  margin?: number
  scale?: number
  width?: number
  color?: { dark?: string; light?: string }
  small?: boolean
  inverse?: boolean
  type?: 'png' | 'image/png' | 'svg' | 'utf8' | 'terminal' | 'txt'
  /** Accepted for pngjs; qr-native's PNG has its own fixed settings. */
  rendererOpts?: { deflateLevel?: number; deflateStrategy?: number; [key: string]: unknown }
}

export interface BitMatrix {
  size: number
  data: Uint8Array
  reservedBit: Uint8Array
  set(row: number, col: number, value: number, reserved: boolean): void
  get(row: number, col: number): number
  xor(row: number, col: number, value: boolean): void
  isReserved(row: number, col: number): number
}

export interface QRCode {
  modules: BitMatrix
  version: number
  errorCorrectionLevel: { bit: number }
  maskPattern: number
  segments: Array<{ mode: { id: string; bit: number; ccBits: number[] }; data: string | Uint8Array; getLength(): number; getBitsLength(): number }>
}

type Text = string | QRCodeSegment[]
type Callback<T> = (error: Error | null | undefined, value: T) => void

export function create(text: Text, options?: QRCodeOptions): QRCode

export function toBuffer(text: Text, options?: QRCodeRenderersOptions): Promise<Buffer>
export function toBuffer(text: Text, callback: Callback<Buffer>): void
export function toBuffer(text: Text, options: QRCodeRenderersOptions, callback: Callback<Buffer>): void

export function toDataURL(text: Text, options?: QRCodeRenderersOptions): Promise<string>
export function toDataURL(text: Text, callback: Callback<string>): void
export function toDataURL(text: Text, options: QRCodeRenderersOptions, callback: Callback<string>): void

export function toString(text: Text, options?: QRCodeRenderersOptions): Promise<string>
export function toString(text: Text, callback: Callback<string>): void
export function toString(text: Text, options: QRCodeRenderersOptions, callback: Callback<string>): void

export function toFile(path: string, text: Text, options?: QRCodeRenderersOptions): Promise<void>
export function toFile(path: string, text: Text, callback: (error: Error | null | undefined) => void): void
export function toFile(path: string, text: Text, options: QRCodeRenderersOptions, callback: (error: Error | null | undefined) => void): void

export function toFileStream(stream: NodeJS.WritableStream, text: Text, options?: QRCodeRenderersOptions): void
