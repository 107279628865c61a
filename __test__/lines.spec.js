'use strict'
// `matcher.lines()`: grep as a Transform. The same line numbers as `scanLines` and as
// readline with the patterns' RegExps, on a log of real user agents cut into chunks of every
// size (a line split across chunks, `\r\n` split between them); invert; replace (redaction)
// against `Matcher.replace` line by line; a gzip'd log through zlib; backpressure (a slow
// reader holds the stream, and memory stays bounded); a line over `maxLineBytes` errors after
// every line before it; an abort signal; chunks the caller rewrites after writing them.
const { test } = require('node:test')
const assert = require('node:assert/strict')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const zlib = require('node:zlib')
const readline = require('node:readline')
const { Readable, Writable } = require('node:stream')
const { pipeline } = require('node:stream/promises')
const crawlers = require('crawler-user-agents')
const UserAgent = require('user-agents')
const { Matcher } = require('..')
const { rng } = require('./helpers/corpus')

const PATTERNS = ['Googlebot', 'bingbot', '"status":500', /curl\/\d+/i, '(?<!lib)http']

/** A JSON access log of `n` lines with real user agents, some lines ending in \r\n. */
function log (n) {
  const uas = crawlers.flatMap((c) => c.instances || []).slice(0, 400)
  for (let i = 0; i < 200; i++) uas.push(new UserAgent().toString())
  const lines = []
  for (let i = 0; i < n; i++) {
    lines.push(JSON.stringify({ i, status: i % 97 === 0 ? 500 : 200, ua: uas[(i * 7919) % uas.length], note: i % 13 === 0 ? 'Ünïcödé 😀 ſ' : '' }) + (i % 5 === 0 ? '\r' : ''))
  }
  return Buffer.from(lines.join('\n') + '\n')
}

/** Every `{ line, number }` the stream gives for `chunks`. */
async function collect (stream, chunks) {
  const out = []
  await pipeline(Readable.from(chunks, { objectMode: false }), stream, new Writable({
    objectMode: true,
    write (x, _, cb) { out.push(x); cb() }
  }))
  return out
}

/** `data` cut at random places, each piece its own Buffer. */
function cut (data, rand, most) {
  const pieces = []
  for (let at = 0; at < data.length;) {
    const n = 1 + Math.floor(rand() * most)
    pieces.push(Buffer.from(data.subarray(at, at + n)))
    at += n
  }
  return pieces
}

test('the same line numbers as scanLines and as readline with RegExps, whatever the chunks', async () => {
  const m = new Matcher(PATTERNS)
  const data = log(20000)
  const expected = [...await m.scanLines(data)]
  // readline and the patterns' own RegExps (the look-behind one as JS reads it).
  const res = [/Googlebot/, /bingbot/, /"status":500/, /curl\/\d+/i, /(?<!lib)http/]
  const viaReadline = []
  let n = 0
  for await (const line of readline.createInterface({ input: Readable.from([data]), crlfDelay: Infinity })) {
    if (res.some((re) => re.test(line))) viaReadline.push(n)
    n++
  }
  assert.deepEqual(expected, viaReadline)
  assert.ok(expected.length > 1000 && expected.length < 19000, `${expected.length} lines match`)
  const rand = rng(5)
  // Tiny chunks (a call into native each) on the first 150 lines; larger ones on all of it.
  const head = data.subarray(0, data.indexOf('\n', data.indexOf('"i":150,')) + 1)
  const headExpected = [...await m.scanLines(head)]
  for (const most of [1, 7, 100]) {
    const got = await collect(m.lines(), cut(head, rand, most))
    assert.deepEqual(got.map((x) => x.number), headExpected, `chunks of up to ${most} bytes`)
  }
  for (const most of [4096, 65536, 1 << 20]) {
    const got = await collect(m.lines(), cut(data, rand, most))
    assert.deepEqual(got.map((x) => x.number), expected, `chunks of up to ${most} bytes`)
    // Each line is the line's bytes, without its '\n' or '\r\n'.
    const text = data.toString('latin1').split('\n')
    for (const { line, number } of got) assert.equal(line.toString('latin1'), text[number].replace(/\r$/, ''))
  }
  // Few lines a chunk: they are copied out and the chunk's buffer serves the next chunks.
  // Read after the stream has ended, each is still its own line.
  const rare = new Matcher(['"status":500'])
  const got = await collect(rare.lines(), cut(data, rand, 65536))
  const text = data.toString('latin1').split('\n')
  assert.deepEqual(got.map((x) => x.number), [...await rare.scanLines(data)])
  assert.ok(got.length > 100)
  for (const { line, number } of got) assert.equal(line.toString('latin1'), text[number].replace(/\r$/, ''))
})

test('invert gives the other lines; a last line without its newline counts; strings are read as UTF-8', async () => {
  const m = new Matcher(['bot'])
  const got = await collect(m.lines({ invert: true }), ['a bot\nhuman\r', '\nrobot\nlast ünï'])
  assert.deepEqual(got.map((x) => [x.number, x.line.toString()]), [[1, 'human'], [3, 'last ünï']])
  assert.deepEqual((await collect(m.lines(), [''])).length, 0)
  assert.deepEqual((await collect(m.lines(), ['bot'])).map((x) => x.number), [0])
})

test('replace: every line out, its matches replaced as Matcher.replace replaces the line', async () => {
  const m = new Matcher([/[\w.+-]+@[\w-]+\.\w+/, /\b\d{1,3}(?:\.\d{1,3}){3}\b/, 'secret'])
  const lines = ['user ann@example.com from 10.0.0.1', 'nothing here', 'secret: x, bob@b.org', 'ünïcödé 😀 secret']
  const replacements = ['[redacted]', ['<email>', '<ip>', '***'], (match, pattern) => `{${pattern}:${match.length}}`]
  for (const replacement of replacements) {
    const got = await collect(m.lines({ replace: replacement }), cut(Buffer.from(lines.join('\r\n')), rng(2), 9))
    assert.deepEqual(got.map((x) => x.line.toString()), lines.map((l) => m.replace(l, replacement)))
    assert.deepEqual(got.map((x) => x.number), [0, 1, 2, 3])
  }
  assert.throws(() => m.lines({ replace: ['too', 'short'] }), (e) => e.code === 'ERR_OUT_OF_RANGE')
  assert.throws(() => m.lines({ replace: '-', invert: true }), (e) => e.code === 'ERR_INVALID_ARG_VALUE')
})

test('a gzip\'d log through zlib: the recipe in docs/matcher.md', async () => {
  const m = new Matcher(PATTERNS)
  const data = log(5000)
  const file = path.join(os.tmpdir(), `qr-native-lines-${process.pid}.jsonl.gz`)
  fs.writeFileSync(file, zlib.gzipSync(data))
  try {
    const numbers = []
    for await (const { number } of fs.createReadStream(file).pipe(zlib.createGunzip()).pipe(m.lines())) numbers.push(number)
    assert.deepEqual(numbers, [...await m.scanLines(data)])
  } finally {
    fs.rmSync(file, { force: true })
  }
})

test('a line over maxLineBytes errors with ERR_OUT_OF_RANGE after every line before it, the unfinished one too', async () => {
  const m = new Matcher(['x'])
  const seen = []
  const s = m.lines({ maxLineBytes: 10 })
  s.on('data', (d) => seen.push(d.number))
  const failed = new Promise((resolve) => s.on('error', resolve))
  s.write('x1\nx2\n0123456789ABC\nx4\n')
  const e = await failed
  assert.equal(e.code, 'ERR_OUT_OF_RANGE')
  assert.match(e.message, /Line 2 is longer than options.maxLineBytes \(10 bytes\)/)
  assert.deepEqual(seen, [0, 1])
  // A line that never ends, in small chunks: refused once it passes the limit, not at its end.
  const endless = m.lines({ maxLineBytes: 64 })
  const err = new Promise((resolve) => endless.on('error', resolve))
  endless.on('data', () => {})
  for (let i = 0; i < 20; i++) endless.write('x'.repeat(10))
  assert.equal((await err).code, 'ERR_OUT_OF_RANGE')
  for (const bad of [0, -1, 1.5, 2 ** 31, NaN]) assert.throws(() => m.lines({ maxLineBytes: bad }), (e) => e.code === 'ERR_OUT_OF_RANGE')
  assert.throws(() => m.lines({ maxLineBytes: '10' }), (e) => e.code === 'ERR_INVALID_ARG_TYPE')
  assert.throws(() => m.lines({ invert: 1 }), (e) => e.code === 'ERR_INVALID_ARG_TYPE')
  assert.throws(() => m.lines(5), (e) => e.code === 'ERR_INVALID_ARG_TYPE')
})

test('backpressure: a reader that does not read holds the writer, and memory stays bounded', async () => {
  const m = new Matcher(['a'])
  const s = m.lines()
  const chunk = Buffer.from('a\n'.repeat(32768))
  let writes = 0
  while (s.write(chunk) && writes < 10000) writes++
  // The writable side said stop long before 10000 chunks (640 MB) were taken.
  assert.ok(writes < 64, `${writes} chunks taken without a reader`)
  await new Promise((resolve) => setTimeout(resolve, 50))
  const before = process.memoryUsage().rss
  let read = 0
  s.on('data', () => { read++ })
  await new Promise((resolve) => { s.on('end', resolve); s.end() })
  assert.equal(read, (writes + 1) * 32768)
  assert.ok(process.memoryUsage().rss - before < 256 << 20)
})

test('an abort signal destroys the stream with an AbortError; the caller may rewrite a chunk it wrote', async () => {
  const m = new Matcher(['needle'])
  const controller = new AbortController()
  const s = m.lines({ signal: controller.signal })
  const failed = new Promise((resolve) => s.on('error', resolve))
  s.on('data', () => {})
  s.write(Buffer.from('hay\n'.repeat(100000)))
  controller.abort()
  assert.equal((await failed).name, 'AbortError')
  // Written, then rewritten at once: the lines are what was written.
  const chunk = Buffer.from('a needle\nmore\n')
  const t = m.lines()
  const out = []
  t.on('data', (d) => out.push(d.line.toString()))
  t.write(chunk)
  chunk.fill(0x20)
  await new Promise((resolve) => t.end(resolve))
  await new Promise((resolve) => setImmediate(resolve))
  assert.deepEqual(out, ['a needle'])
  // Written while another chunk is read, then transferred away, or its memory rewritten.
  const u = m.lines()
  const got = []
  u.on('data', (d) => got.push(d.number))
  u.write(Buffer.from('needle\n'.repeat(50000)))
  const waiting = new Uint8Array(Buffer.from('x\nneedle\n'))
  u.write(waiting)
  structuredClone(waiting.buffer, { transfer: [waiting.buffer] })
  const rewritten = Buffer.from('needle\nneedle\n')
  u.write(rewritten)
  rewritten.fill(0x20)
  await new Promise((resolve) => u.end(resolve))
  await new Promise((resolve) => setImmediate(resolve))
  assert.equal(got.length, 50003)
  assert.deepEqual(got.slice(-3), [50001, 50002, 50003])
})

test('chunks read at once: an abort or a dispose while several are in flight errors after the lines before, with no unhandled rejection', async () => {
  const unhandled = []
  const onUnhandled = (e) => unhandled.push(e)
  process.on('unhandledRejection', onUnhandled)
  try {
    const chunk = (from, n) => Buffer.from(Array.from({ length: n }, (_, i) => `line ${from + i} needle\n`).join(''))
    // Disposed with two chunks in flight and a third waiting: the first two chunks' lines
    // come out, in order, then ERR_QR_NATIVE_DISPOSED.
    const m = new Matcher(['needle'])
    const s = m.lines()
    const seen = []
    s.on('data', (d) => seen.push(d.number))
    const failed = new Promise((resolve) => s.on('error', resolve))
    s.write(chunk(0, 40000))
    s.write(chunk(40000, 40000))
    s.write(chunk(80000, 10))
    m[Symbol.dispose]()
    assert.equal((await failed).code, 'ERR_QR_NATIVE_DISPOSED')
    assert.deepEqual(seen, Array.from({ length: 80000 }, (_, i) => i))
    // Aborted with two chunks in flight: an AbortError, once.
    const controller = new AbortController()
    const n = new Matcher(['needle'])
    const t = n.lines({ signal: controller.signal })
    const errors = []
    t.on('error', (e) => errors.push(e))
    t.on('data', () => {})
    t.write(chunk(0, 100000))
    t.write(chunk(100000, 100000))
    controller.abort()
    await new Promise((resolve) => setTimeout(resolve, 200))
    assert.deepEqual(errors.map((e) => e.name), ['AbortError'])
    await new Promise((resolve) => setImmediate(resolve))
    assert.deepEqual(unhandled, [])
  } finally {
    process.off('unhandledRejection', onUnhandled)
  }
})
