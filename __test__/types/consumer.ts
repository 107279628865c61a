// Compiled with `tsc --noEmit --strict` in the repository (types.spec.js) and against the
// package installed from a registry (npm-install.spec.js): the public API is typed, what is
// right compiles, and each misuse below is a compile error (`@ts-expect-error` fails the
// compile if it is not).
import { concurrency, decode, decodeSync, encode, generate, generateMany, generateSync, isMatch, Matcher, setConcurrency, setMaxQueue, stats, toDataURL, toString } from 'qr-native'
import type { QrStyle, QrLogo, DotType, Paint, QrGradient, ImageType, CornerSquareType, CornerDotType, ColorStop } from 'qr-native'
import type { DataURLOptions, DecodeOptions, ImageInput, Point, QrCode, QrPosition, QrSegment, FoundMatch, GlobOptions, Input, MaskPattern, Pattern, QrMatrix, QrOptions, QueueStats, StringOptions, Text, Version } from 'qr-native'
import type { LinesOptions, MatchedLine, Replacement } from 'qr-native'
// @ts-expect-error: internal entry points are not exported
import { __compatEncode } from 'qr-native'
// @ts-expect-error: nor is the loader's marker
import { __napiBindingTarget } from 'qr-native'
import * as compat from 'qr-native/compat'
import { QRCodeStyling } from 'qr-native/styling'
import type { QrCodeStylingOptions } from 'qr-native/styling'

async function main (): Promise<void> {
  const options: QrOptions = { errorCorrectionLevel: 'H', width: 200, color: { dark: '#000', light: '#fff' }, signal: AbortSignal.timeout(1000) }
  const input: Input = Buffer.from('bytes')
  const png: Buffer = await generate('text', options)
  const many: Buffer[] = await generateMany(['a', input])
  const sync: Buffer = generateSync('text')
  const url: string = await toDataURL('text', { type: 'svg' })
  const stops: ColorStop[] = [{ offset: 0, color: '#000' }, { offset: 1, color: '#333' }]
  const gradient: QrGradient = { type: 'radial', colorStops: stops }
  const paint: Paint = { gradient }
  const logo: QrLogo = { image: Buffer.from('png'), size: 0.2, margin: 2, hideBackgroundDots: true }
  const dots: DotType = 'classy-rounded'
  const ring: CornerSquareType = 'extra-rounded'
  const centre: CornerDotType = 'dot'
  const style: QrStyle = { dots: { type: dots, ...paint }, cornersSquare: { type: ring }, cornersDot: { type: centre }, background: { color: '#fff', round: 0.2 }, shape: 'circle', logo }
  const kind: ImageType = 'webp'
  const styled: Buffer = await generate('text', { type: kind, quality: 80, style })
  const styledUrl: string = await toDataURL('text', { type: 'jpeg', style })
  // @ts-expect-error: not a dot type
  const badDots: QrStyle = { dots: { type: 'hexagon' } }
  // @ts-expect-error: a gradient needs its stops
  const badGradient: QrGradient = { type: 'linear' }
  const stylingOptions: QrCodeStylingOptions = { width: 300, height: 300, data: 'x', dotsOptions: { type: 'rounded', color: '#123' }, cornersSquareOptions: { type: 'extra-rounded' }, imageOptions: { imageSize: 0.3 } }
  const drawer = new QRCodeStyling(stylingOptions)
  drawer.update({ data: 'y' })
  const raw: Buffer = await drawer.getRawData('webp')
  // @ts-expect-error: qr-code-styling has no 'gif' output
  await drawer.getRawData('gif')
  console.log(styled, styledUrl, badDots, badGradient, raw)
  const svg: string = await toString('text', { type: 'svg' })
  const matrix: QrMatrix = encode('text')
  const size: number = matrix.size + matrix.modules.length

  const patterns: Pattern[] = ['bot', /^curl\//i, { pattern: '*.php', kind: 'wildcard', caseInsensitive: true }, { pattern: '\\d', syntax: 'rust' }]
  const m = new Matcher(patterns, { kind: 'regex', syntax: 'js' })
  const text: Text = 'Googlebot'
  const hit: boolean = m.test(text) && isMatch('bot', text)
  const first: number = m.first(text) + m.size
  const all: Uint32Array = m.matches(text)
  const found: FoundMatch[] = m.findAll(text)
  const lines: Uint32Array = await m.scanLines(Buffer.from('a\nb'), { signal: new AbortController().signal })
  const flags: Uint8Array = m.testMany([text])
  const firsts: Int32Array = m.firstMany([text])
  const redacted: string = m.replace('a bot', '[$&]') + m.replace('x', ['a', 'b', 'c', 'd']) + m.replace('x', (match, pattern, offset) => `${match}${pattern + offset}`)
  const replacement: Replacement = ['*', '*']
  const grep = m.lines({ invert: false, maxLineBytes: 1 << 20, signal: AbortSignal.timeout(1000) })
  const redactor = m.lines({ replace: replacement })
  grep.on('data', (x: MatchedLine) => console.log(x.number, x.line.length))
  const linesOptions: LinesOptions = { replace: '-' }
  console.log(redacted, redactor.writable, linesOptions)
  m[Symbol.dispose]()
  m.dispose()

  const compatPng: Buffer = await compat.toBuffer('text', { errorCorrectionLevel: 'M', rendererOpts: { deflateLevel: 9 } })
  compat.toString('text', (err, s) => { if (!err) console.log(s.length) })
  const qr = compat.create('text')
  setConcurrency(concurrency())
  setMaxQueue(Infinity)
  const counters: QueueStats = stats()
  const waiting: number = counters.queued + counters.running + counters.completed + counters.rejected + counters.nativeBytes

  // Right, and accepted: readonly arrays, levels in any case, each function's own options.
  const fixed = ['Googlebot', { pattern: '*.php', kind: 'glob' }] as const
  const frozen = new Matcher(fixed)
  const globOptions: GlobOptions = { dot: true, matchBase: false }
  const globs = new Matcher(['src/**/*.{js,ts}', { pattern: '*.md', kind: 'glob', matchBase: true }], { kind: 'glob', ...globOptions })
  console.log(globs.test('src/a.js'), isMatch('!*.js', 'a.md', { kind: 'glob', strictSlashes: true }))
  const texts: readonly Text[] = ['a', Buffer.from('b')]
  console.log(frozen.testMany(texts), frozen.firstMany(['x'] as const), await generateMany(['a', 'b'] as const))
  const v: Version = matrix.version
  const mp: MaskPattern = matrix.maskPattern
  await generate('x', { errorCorrectionLevel: 'LOW', version: v, maskPattern: mp })
  await generate('x', { errorCorrectionLevel: 'Quartile' })
  const urlOptions: DataURLOptions = { type: 'png', width: 100 }
  const textOptions: StringOptions = { type: 'terminal', small: true }
  console.log(await toDataURL('x', urlOptions), await toString('x', textOptions))
  class Named extends Matcher<Pattern[]> { get count (): number { return this.size } }
  console.log(new Named(patterns).count, frozen instanceof Matcher, __compatEncode, __napiBindingTarget)
  console.log(waiting)
  const image: ImageInput = { data: new Uint8ClampedArray(4), width: 1, height: 1 }
  const decodeOptions: DecodeOptions = { inverted: true, tryHarder: false, pure: true, maxPixels: 1e6, signal: AbortSignal.timeout(1000) }
  const codes: QrCode[] = await decode(png, decodeOptions)
  const read: QrCode[] = decodeSync(image)
  const position: QrPosition | undefined = codes[0]?.position
  const corner: Point | undefined = position?.topLeft
  const payload: string | null = read.length ? read[0].text : null
  const bytes: Uint8Array | undefined = read[0]?.bytes
  const segments: QrSegment[] = codes[0]?.segments ?? []
  const eci: number | null = segments[0]?.eci ?? null
  console.log(corner, payload, bytes, eci, segments.map((s) => [s.mode, s.start, s.end]), codes.map((c) => [c.version, c.errorCorrectionLevel, c.mask]))
  console.log(png, many, sync, url, svg, size, hit, first, all, found, lines, flags, firsts, compatPng, qr.version)

  // @ts-expect-error: the level must be one of the listed names
  await generate('x', { errorCorrectionLevel: 'X' })
  // @ts-expect-error: input must be text or bytes
  await generate(42)
  // @ts-expect-error: an unknown kind
  new Matcher(['x'], { kind: 'fuzzy' })
  // @ts-expect-error: an unknown regex dialect
  new Matcher(['x'], { syntax: 'pcre' })
  // @ts-expect-error: the limit is a number
  setConcurrency('2')
  // @ts-expect-error: a data URL is a PNG or an SVG
  await toDataURL('x', { type: 'utf8' })
  // @ts-expect-error: toString makes text, not a PNG
  await toString('x', { type: 'png' })
  // @ts-expect-error: a matcher needs at least one pattern
  new Matcher([])
  // @ts-expect-error: replace takes strings only
  m.replace(Buffer.from('x'), '-')
  // @ts-expect-error: a replacement function returns a string
  m.replace('x', () => 1)
  // @ts-expect-error: maxLineBytes is a number
  m.lines({ maxLineBytes: '1 MiB' })
  // @ts-expect-error: decode reads images, not text
  await decode('a string')
  // @ts-expect-error: pixels need their width and height
  decodeSync({ data: new Uint8Array(4) })
  // @ts-expect-error: tryHarder is a boolean
  await decode(png, { tryHarder: 'yes' })
  // @ts-expect-error: mask patterns are 0..7
  await generate('x', { maskPattern: 9 })
  // @ts-expect-error: versions are 1..40
  await generate('x', { version: 41 })
  // @ts-expect-error: testMany takes texts, not numbers
  m.testMany([1, 2])
}

void main()
