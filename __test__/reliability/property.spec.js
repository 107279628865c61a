'use strict'
// Property tests with fast-check: for random literal and glob patterns and random texts,
// Matcher agrees with a JS RegExp reference; random inputs survive a QR round trip.
const { test, after } = require('node:test')
const assert = require('node:assert/strict')
const fc = require('fast-check')
const { Matcher } = require('../..')
const qr = require('../..')
const { QrDecoder } = require('../../support/decoder')

const decoder = new QrDecoder()
after(() => decoder.close())

const escapeRe = (s) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')
// Small alphabets make matches likely; both cases and a non-ASCII letter for folding.
const char = fc.constantFrom('a', 'b', 'A', 'B', '/', '.', '-', 'é', '1')
const word = fc.string({ unit: char, minLength: 1, maxLength: 4 })
const text = fc.string({ unit: char, maxLength: 12 })
const KINDS = {
  exact: (p) => `^${escapeRe(p)}$`,
  prefix: (p) => `^${escapeRe(p)}`,
  suffix: (p) => `${escapeRe(p)}$`,
  contains: (p) => escapeRe(p)
}

test('literal patterns of every kind agree with RegExp, with and without case', () => {
  fc.assert(fc.property(
    fc.array(fc.record({ pattern: word, kind: fc.constantFrom(...Object.keys(KINDS)) }), { minLength: 1, maxLength: 8 }),
    fc.boolean(), fc.array(text, { minLength: 1, maxLength: 10 }),
    (patterns, ci, texts) => {
      // Case-insensitive non-ASCII literals fold by Unicode (documented); keep ASCII there.
      const ps = ci ? patterns.filter((p) => [...p.pattern].every((c) => c.charCodeAt(0) < 128)) : patterns
      fc.pre(ps.length > 0)
      const m = new Matcher(ps.map((p) => ({ ...p, caseInsensitive: ci })))
      const refs = ps.map((p) => new RegExp(KINDS[p.kind](p.pattern), ci ? 'i' : ''))
      for (const t of texts) assert.deepEqual([...m.matches(t)], refs.flatMap((re, i) => (re.test(t) ? [i] : [])))
    }), { numRuns: 400 })
})

test('one literal answers a string in JS exactly as native answers its bytes', () => {
  // One-literal matchers answer strings in JavaScript (index.js); Buffers always go to native.
  // (Internal: the addon's own class, called on the matcher's native object.)
  const nativeTest = require('../../binding.js').Matcher.prototype.test
  const { nativeOf } = require('../../lib/matcher.js')
  const wide = fc.constantFrom('a', 'B', 's', 'S', 'k', '\u212A', '\u017F', '\u0131', '\u0130', 'é', 'É', '😀', '\uFFFD', '.', '*', '^', '$')
  fc.assert(fc.property(
    fc.string({ unit: wide, maxLength: 3 }), fc.constantFrom('exact', 'prefix', 'suffix', 'contains', 'regex'), fc.boolean(),
    fc.array(fc.string({ unit: wide, maxLength: 8 }), { minLength: 1, maxLength: 10 }),
    (literal, kind, ci, texts) => {
      const pattern = kind === 'regex' ? escapeRe(literal) : literal
      const m = new Matcher([pattern], { kind, caseInsensitive: ci })
      for (const t of texts) {
        const expected = nativeTest.call(nativeOf(m), Buffer.from(t))
        assert.equal(m.test(t), expected, `${kind} ${JSON.stringify(pattern)} ci=${ci} on ${JSON.stringify(t)}`)
        assert.equal(m.first(t), expected ? 0 : -1)
      }
    }), { numRuns: 1000 })
})

test('wildcards agree with their RegExp translation', () => {
  const globPart = fc.oneof(word, fc.constant('*'), fc.constant('?'), fc.constant('[ab]'), fc.constant('[!a]'))
  const toRe = (g) => new RegExp('^' + g.map((x) => (x === '*' ? '[\\s\\S]*' : x === '?' ? '[\\s\\S]' : x === '[ab]' ? '[ab]' : x === '[!a]' ? '[^a]' : escapeRe(x))).join('') + '$')
  fc.assert(fc.property(fc.array(globPart, { minLength: 1, maxLength: 5 }), fc.array(text, { minLength: 1, maxLength: 10 }), (parts, texts) => {
    const m = new Matcher([parts.join('')], { kind: 'wildcard' })
    const re = toRe(parts)
    for (const t of texts) assert.equal(m.test(t), re.test(t), `${parts.join('')} on ${t}`)
  }), { numRuns: 400 })
})

test('random text and bytes survive a QR round trip through zxing-cpp', async () => {
  const samples = fc.sample(fc.oneof(
    fc.string({ minLength: 1, maxLength: 200 }).filter((s) => s.isWellFormed()),
    fc.uint8Array({ minLength: 1, maxLength: 200 })
  ), { numRuns: 60, seed: 7 })
  for (const s of samples) {
    const level = ['L', 'M', 'Q', 'H'][s.length % 4]
    const png = await qr.generate(typeof s === 'string' ? s : Buffer.from(s), { errorCorrectionLevel: level, scale: 3 })
    assert.deepEqual(await decoder.decode(png), typeof s === 'string' ? Buffer.from(s) : Buffer.from(s))
  }
})
