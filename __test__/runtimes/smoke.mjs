// The smoke suite for other runtimes: `bun __test__/runtimes/smoke.mjs`,
// `deno run -A __test__/runtimes/smoke.mjs`, `node __test__/runtimes/smoke.mjs`.
// Plain ES module, no test runner: each check prints `ok` or `not ok` (TAP-like) and the
// summary line `# runtime NAME VERSION: P passed, F failed`; the exit status is the failures.
import { createRequire } from 'node:module'
import { Buffer } from 'node:buffer'
import * as qr from '../../index.mjs'

const require = createRequire(import.meta.url)
const { QrDecoder } = require('../helpers/decoder.js')
const compat = require('../../compat.js')

const runtime = typeof globalThis.Bun !== 'undefined'
  ? `bun ${globalThis.Bun.version}`
  : typeof globalThis.Deno !== 'undefined' ? `deno ${globalThis.Deno.version.deno}` : `node ${process.version}`

const checks = []
const check = (name, fn) => checks.push({ name, fn })
const equal = (actual, expected, what) => {
  if (actual !== expected) throw new Error(`${what}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`)
}

const decoder = new QrDecoder()

check('generate: a PNG that zxing-wasm decodes to the text', async () => {
  const png = await qr.generate('héllo from another runtime')
  equal(Buffer.isBuffer(png), true, 'a Buffer')
  equal(String(await decoder.decode(png)), 'héllo from another runtime', 'zxing-wasm')
})

check('generateSync, toString (svg) and toDataURL', async () => {
  equal(qr.generateSync('x').subarray(1, 4).toString(), 'PNG', 'PNG signature')
  equal((await qr.toString('x', { type: 'svg' })).startsWith('<svg'), true, 'an SVG')
  equal((await qr.toDataURL('x')).startsWith('data:image/png;base64,'), true, 'a data URL')
})

check('decode reads our own PNG, and decodeSync the same', async () => {
  const png = qr.generateSync('https://example.com/r/42')
  const found = await qr.decode(png)
  equal(found.length, 1, 'one code')
  equal(found[0].text, 'https://example.com/r/42', 'text')
  equal(qr.decodeSync(png)[0].text, 'https://example.com/r/42', 'decodeSync')
})

check('a Matcher with a glob, a RegExp and a literal', async () => {
  const m = new qr.Matcher([{ pattern: '**/*.{pem,key}', kind: 'glob' }, /bot\b/i, 'curl/'])
  equal(m.test('keys/server.key'), true, 'glob')
  equal(m.first('Googlebot/2.1'), 1, 'regex')
  equal(Array.from(m.matches('curl/8.4 (a bot)')).join(), '1,2', 'matches')
  equal(m.findAll('GoogleBot curl/').length, 2, 'findAll')
  equal(qr.isMatch('*.js', 'a.js', { kind: 'glob' }), true, 'isMatch')
})

check('a Matcher reads long strings whole (1024 units and more, read as UTF-16 units)', async () => {
  const m = new qr.Matcher([/bot\b/i, 'curl/'])
  const ascii = 'x'.repeat(5000) + ' curl/'
  const sparse = 'é'.repeat(3) + 'x'.repeat(5000) + '😀 curl/'
  const dense = '€'.repeat(5000) + ' curl/'
  for (const [name, text] of Object.entries({ ascii, sparse, dense })) {
    equal(m.first(text), 1, `${name}: found at the end`)
    equal(m.first(text.slice(0, -1)), -1, `${name}: cut short, not found`)
    equal(JSON.stringify(m.findAll(text)), JSON.stringify([{ pattern: 1, start: text.length - 5, end: text.length }]), `${name}: offsets`)
  }
  let lone = null
  try { m.test('x'.repeat(5000) + '\ud800') } catch (e) { lone = e }
  equal(lone?.code, 'ERR_INVALID_ARG_VALUE', 'a lone surrogate throws')
})

check('an aborted call rejects with AbortError, and the next call works', async () => {
  const controller = new AbortController()
  const pending = qr.generate('a'.repeat(2000), { signal: controller.signal })
  controller.abort()
  let name
  try {
    await pending
  } catch (e) {
    name = e.name
  }
  equal(name, 'AbortError', 'rejection')
  equal(String(await decoder.decode(await qr.generate('after'))), 'after', 'next call')
})

check('a burst of 200 calls all settle, in order of their inputs', async () => {
  const texts = Array.from({ length: 200 }, (_, i) => `burst ${i}`)
  const pngs = await Promise.all(texts.map((t) => qr.generate(t)))
  for (const i of [0, 57, 199]) equal(qr.decodeSync(pngs[i])[0].text, texts[i], `code ${i}`)
  equal(qr.stats().queued, 0, 'queue empty after')
})

check('bad input is a TypeError or RangeError, and the process lives on', async () => {
  let first, second
  try { qr.generateSync(42) } catch (e) { first = e }
  try { await qr.generate('9'.repeat(8000)) } catch (e) { second = e }
  equal(first instanceof TypeError, true, 'generateSync(42)')
  equal(second instanceof RangeError, true, 'too long')
})

check('qr-native/compat toBuffer matches qrcode\'s API', async () => {
  const png = await compat.toBuffer('compat', { width: 200 })
  equal(String(await decoder.decode(png)), 'compat', 'zxing-wasm')
})

let failed = 0
for (const [i, { name, fn }] of checks.entries()) {
  try {
    await fn()
    console.log(`ok ${i + 1} - ${name}`)
  } catch (e) {
    failed++
    console.log(`not ok ${i + 1} - ${name}\n  # ${String(e && e.stack || e).split('\n').join('\n  # ')}`)
  }
}
console.log(`# runtime ${runtime}: ${checks.length - failed} passed, ${failed} failed`)
if (typeof globalThis.Deno !== 'undefined') globalThis.Deno.exit(failed)
process.exit(failed)
