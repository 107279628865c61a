// Compiled with `tsc --noEmit --strict` against the installed package (packaging.spec.js):
// the public API is typed, and misuse does not compile.
import { concurrency, encode, generate, generateMany, generateSync, isMatch, Matcher, setConcurrency, setMaxQueue, stats, toDataURL, toString } from 'qr-native'
import type { FoundMatch, Input, Pattern, QrMatrix, QrOptions, QueueStats, Text } from 'qr-native'
import * as compat from 'qr-native/compat'

async function main (): Promise<void> {
  const options: QrOptions = { errorCorrectionLevel: 'H', width: 200, color: { dark: '#000', light: '#fff' }, signal: AbortSignal.timeout(1000) }
  const input: Input = Buffer.from('bytes')
  const png: Buffer = await generate('text', options)
  const many: Buffer[] = await generateMany(['a', input])
  const sync: Buffer = generateSync('text')
  const url: string = await toDataURL('text', { type: 'svg' })
  const svg: string = await toString('text', { type: 'svg' })
  const matrix: QrMatrix = encode('text')
  const size: number = matrix.size + matrix.modules.length

  const patterns: Pattern[] = ['bot', { pattern: '*.php', kind: 'glob', caseInsensitive: true }]
  const m = new Matcher(patterns, { kind: 'regex' })
  const text: Text = 'Googlebot'
  const hit: boolean = m.test(text) && isMatch('bot', text)
  const first: number = m.first(text) + m.size
  const all: Uint32Array = m.matches(text)
  const found: FoundMatch[] = m.findAll(text)
  const lines: Uint32Array = await m.scanLines(Buffer.from('a\nb'), { signal: new AbortController().signal })
  const flags: Uint8Array = m.testMany([text])
  const firsts: Int32Array = m.firstMany([text])

  const compatPng: Buffer = await compat.toBuffer('text', { errorCorrectionLevel: 'M', rendererOpts: { deflateLevel: 9 } })
  compat.toString('text', (err, s) => { if (!err) console.log(s.length) })
  const qr = compat.create('text')
  setConcurrency(concurrency())
  setMaxQueue(Infinity)
  const counters: QueueStats = stats()
  const waiting: number = counters.queued + counters.running + counters.completed + counters.rejected
  console.log(waiting)
  console.log(png, many, sync, url, svg, size, hit, first, all, found, lines, flags, firsts, compatPng, qr.version)

  // @ts-expect-error: the level must be one of the listed names
  await generate('x', { errorCorrectionLevel: 'X' })
  // @ts-expect-error: input must be text or bytes
  await generate(42)
  // @ts-expect-error: an unknown kind
  new Matcher(['x'], { kind: 'fuzzy' })
  // @ts-expect-error: the limit is a number
  setConcurrency('2')
}

void main()
