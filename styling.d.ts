// qr-native/styling: qr-code-styling's `QRCodeStyling` on a server, without jsdom or a canvas.

/** A colour stop of a gradient. */
export interface ColorStop {
  /** 0..1, ascending. */
  offset: number
  /** A hex colour, or `'transparent'`. */
  color: string
}

/** A gradient, as qr-code-styling describes one. */
export interface Gradient {
  /** `'linear'` (default) or `'radial'`. */
  type?: 'linear' | 'radial'
  /** Radians, linear only. */
  rotation?: number
  /** 2 to 16 stops. */
  colorStops: ReadonlyArray<ColorStop>
}

/** qr-code-styling's dot types. */
export type DotType = 'square' | 'dots' | 'rounded' | 'extra-rounded' | 'classy' | 'classy-rounded'
/** qr-code-styling's corner-square types: a figure, or the ring's modules in a dot type. */
export type CornerSquareType = 'square' | 'dot' | 'extra-rounded' | DotType
/** qr-code-styling's corner-dot types: a figure, or the centre's modules in a dot type. */
export type CornerDotType = 'square' | 'dot' | DotType

/** qr-code-styling's options, with its defaults. */
export interface QrCodeStylingOptions {
  /** Ignored on a server (`'canvas'` or `'svg'`): `getRawData` picks the format. */
  type?: 'canvas' | 'svg'
  /** `'square'` (default) or `'circle'`. */
  shape?: 'square' | 'circle'
  /** Image width in px, default 300. Must equal `height`. */
  width?: number
  /** Image height in px, default 300. */
  height?: number
  /** What the code holds. */
  data?: string
  /** A logo: a `data:` URL, a Buffer or a Uint8Array (PNG, JPEG, WebP, GIF or BMP). URLs are refused: nothing is fetched. */
  image?: string | Buffer | Uint8Array
  /** Clear space around the code in px, default 0. */
  margin?: number
  /** The encoder's options. */
  qrOptions?: {
    /** Version 0 (automatic, the default) to 40. */
    typeNumber?: number
    /** Default: from the data, as qr-code-styling picks it. */
    mode?: 'Numeric' | 'Alphanumeric' | 'Byte' | 'Kanji'
    /** Default `'Q'`. */
    errorCorrectionLevel?: 'L' | 'M' | 'Q' | 'H'
  }
  /** The logo's options. */
  imageOptions?: {
    /** Default `true`. */
    hideBackgroundDots?: boolean
    /** Default 0.4: the share of the level's correction the logo may take. */
    imageSize?: number
    /** Accepted and ignored: nothing is fetched. */
    crossOrigin?: string
    /** Default 0 px. */
    margin?: number
    /** Accepted and ignored. */
    saveAsBlob?: boolean
  }
  /** Dots: default `'square'` in `'#000'`. */
  dotsOptions?: {
    /** The dot shape. */
    type?: DotType
    /** A hex colour. */
    color?: string
    /** Wins over `color`. */
    gradient?: Gradient
    /** Floor module sizes to whole pixels (default `true`). */
    roundSize?: boolean
  }
  /** The finder rings; default: the dots' shape and paint. */
  cornersSquareOptions?: {
    /** The ring's shape. */
    type?: CornerSquareType
    /** A hex colour. */
    color?: string
    /** Wins over `color`. */
    gradient?: Gradient
  }
  /** The finder centres; default: the dots' shape, the ring's paint. */
  cornersDotOptions?: {
    /** The centre's shape. */
    type?: CornerDotType
    /** A hex colour. */
    color?: string
    /** Wins over `color`. */
    gradient?: Gradient
  }
  /** The background: default `'#fff'`. */
  backgroundOptions?: {
    /** A hex colour, or `'transparent'`. */
    color?: string
    /** Wins over `color`. */
    gradient?: Gradient
    /** Corner radius, 0..1 of half the side. */
    round?: number
  }
}

/** qr-code-styling's class, drawn natively on the threadpool. */
export declare class QRCodeStyling {
  /** Options merged into qr-code-styling's defaults. */
  constructor (options?: QrCodeStylingOptions)
  /** Merges `options` into the current ones and encodes again. */
  update (options?: QrCodeStylingOptions): void
  /** The image: `'png'` (default), `'jpeg'`, `'webp'` or `'svg'`. */
  getRawData (extension?: 'png' | 'jpeg' | 'webp' | 'svg'): Promise<Buffer>
  /** Throws `ERR_METHOD_NOT_IMPLEMENTED`: there is no DOM on a server. */
  append (): never
  /** Throws `ERR_METHOD_NOT_IMPLEMENTED`: use `getRawData` and write the Buffer. */
  download (): never
  /** Throws `ERR_METHOD_NOT_IMPLEMENTED`. */
  applyExtension (): never
}

export default QRCodeStyling
