'use strict'
// Bad input: each case gets the contract's class, code and a message naming the argument;
// async functions reject (never throw), sync functions throw, and the process lives on.
const { test } = require('node:test')
const assert = require('node:assert/strict')
const qr = require('..')

const TYPE = [TypeError, 'ERR_INVALID_ARG_TYPE']
const VALUE = [TypeError, 'ERR_INVALID_ARG_VALUE']
const RANGE = [RangeError, 'ERR_OUT_OF_RANGE']
const TOO_LONG = [RangeError, 'ERR_QR_DATA_TOO_LONG']

// [description, input, options, expected [class, code], message pattern]
const qrCases = [
  ['a number as input', 123, undefined, TYPE, /"input"/],
  ['undefined input', undefined, undefined, TYPE, /"input"/],
  ['null input', null, undefined, TYPE, /"input"/],
  ['an object as input', {}, undefined, TYPE, /"input"/],
  ['an array as input', ['a'], undefined, TYPE, /"input"/],
  ['an Int16Array as input', new Int16Array(4), undefined, TYPE, /"input"/],
  ['an empty string', '', undefined, VALUE, /'input'.*empty/],
  ['an empty Buffer', Buffer.alloc(0), undefined, VALUE, /'input'.*empty/],
  ['a lone high surrogate', 'ab\uD800cd', undefined, VALUE, /surrogate at index 2/],
  ['a lone low surrogate', '\uDC00', undefined, VALUE, /surrogate at index 0/],
  ['text one over the capacity', '9'.repeat(7090), undefined, TOO_LONG, /too long/],
  ['a million characters', 'x'.repeat(1e6), undefined, TOO_LONG, /too long/],
  ['bytes over the capacity', Buffer.alloc(3000, 1), undefined, TOO_LONG, /too long/],
  ['a forced version too small', 'x'.repeat(100), { version: 1 }, TOO_LONG, /version 1/],
  ['options as a string', 'a', 'png', TYPE, /"options"/],
  ['an unknown level', 'a', { errorCorrectionLevel: 'X' }, VALUE, /errorCorrectionLevel/],
  ['a numeric level', 'a', { errorCorrectionLevel: 1 }, TYPE, /errorCorrectionLevel/],
  ['an unknown type', 'a', { type: 'gif' }, VALUE, /options\.type/],
  ['width NaN', 'a', { width: NaN }, RANGE, /options\.width.*NaN/],
  ['width Infinity', 'a', { width: Infinity }, RANGE, /options\.width.*Infinity/],
  ['width negative', 'a', { width: -1 }, RANGE, /options\.width.*<= 8192/],
  ['width fractional', 'a', { width: 200.5 }, RANGE, /options\.width.*integer/],
  ['width over 8192', 'a', { width: 8193 }, RANGE, /options\.width/],
  ['width as a string', 'a', { width: '200' }, TYPE, /options\.width/],
  ['scale 0', 'a', { scale: 0 }, RANGE, /options\.scale/],
  ['scale 257', 'a', { scale: 257 }, RANGE, /options\.scale.*256/],
  ['scale fractional', 'a', { scale: 2.5 }, RANGE, /options\.scale/],
  ['margin negative', 'a', { margin: -1 }, RANGE, /options\.margin/],
  ['margin 257', 'a', { margin: 257 }, RANGE, /options\.margin/],
  ['version 0', 'a', { version: 0 }, RANGE, /options\.version/],
  ['version 41', 'a', { version: 41 }, RANGE, /options\.version.*40/],
  ['maskPattern 8', 'a', { maskPattern: 8 }, RANGE, /options\.maskPattern.*7/],
  ['color as a string', 'a', { color: 'red' }, TYPE, /options\.color/],
  ['a malformed dark colour', 'a', { color: { dark: '#12' } }, VALUE, /options\.color\.dark/],
  ['a non-hex light colour', 'a', { color: { light: '#zzzzzz' } }, VALUE, /options\.color\.light/],
  ['a numeric colour', 'a', { color: { dark: 0 } }, TYPE, /options\.color\.dark/],
  ['small as a string', 'a', { small: 'yes' }, TYPE, /options\.small/],
  ['an image over 8192 px', 'x'.repeat(2000), { scale: 256 }, RANGE, /8192/],
  ['a signal that is not an AbortSignal', 'a', { signal: {} }, TYPE, /options\.signal/],
  ['a detached buffer', (() => { const u = new Uint8Array(8); structuredClone(u.buffer, { transfer: [u.buffer] }); return u })(), undefined, VALUE, /empty|detached/],
  ['a DataView', new DataView(new ArrayBuffer(4)), undefined, TYPE, /"input"/],
  ['a symbol', Symbol('x'), undefined, TYPE, /"input"/],
  ['a bigint width', 'a', { width: 200n }, TYPE, /options\.width/],
  ['an options array', 'a', [], TYPE, /"options"/]
]

for (const [what, input, options, [cls, code], pattern] of qrCases) {
  test(`generate rejects ${what}`, async () => {
    let promise
    assert.doesNotThrow(() => { promise = qr.generate(input, options) })
    await assert.rejects(promise, (e) => {
      assert.ok(e instanceof cls, `${e.constructor.name}: ${e.message}`)
      assert.equal(e.code, code)
      assert.match(e.message, pattern)
      return true
    })
  })
  test(`generateSync throws for ${what}`, () => {
    assert.throws(() => qr.generateSync(input, options), (e) => e instanceof cls && e.code === code && pattern.test(e.message))
  })
}

test('encode throws the same errors as generateSync', () => {
  assert.throws(() => qr.encode(5), { code: 'ERR_INVALID_ARG_TYPE' })
  assert.throws(() => qr.encode('a', { maskPattern: -1 }), { code: 'ERR_OUT_OF_RANGE' })
})

test('generateMany checks the list and each input', async () => {
  await assert.rejects(qr.generateMany('abc'), { name: 'TypeError', code: 'ERR_INVALID_ARG_TYPE' })
  await assert.rejects(qr.generateMany(['ok', 7]), (e) => e.code === 'ERR_INVALID_ARG_TYPE' && /inputs\[1\]/.test(e.message))
  await assert.rejects(qr.generateMany(Array.from({ length: 10001 }, () => 'a')), { name: 'RangeError', code: 'ERR_OUT_OF_RANGE' })
  assert.deepEqual(await qr.generateMany([]), [])
})

test('toDataURL and toString refuse formats they cannot return', async () => {
  await assert.rejects(qr.toDataURL('a', { type: 'utf8' }), { code: 'ERR_INVALID_ARG_VALUE' })
  await assert.rejects(qr.toString('a', { type: 'png' }), { code: 'ERR_INVALID_ARG_VALUE' })
})

test('the process still works after every bad input', async () => {
  const png = await qr.generate('still alive')
  assert.equal(png.subarray(1, 4).toString(), 'PNG')
})

// ---- Matcher and isMatch
const { Matcher, isMatch } = qr
const SYNTAX = [SyntaxError, 'ERR_INVALID_PATTERN']

const matcherCases = [
  ['patterns that are not an array', () => new Matcher('bot'), TYPE, /"patterns"/],
  ['an empty pattern list', () => new Matcher([]), VALUE, /'patterns' must not be empty/],
  ['a numeric pattern', () => new Matcher(['ok', 42]), TYPE, /patterns\[1\]/],
  ['a pattern object without pattern', () => new Matcher([{ kind: 'exact' }]), TYPE, /patterns\[0\]\.pattern/],
  ['an unknown kind', () => new Matcher(['x'], { kind: 'fuzzy' }), VALUE, /options\.kind/],
  ['an unknown kind in a pattern object', () => new Matcher([{ pattern: 'x', kind: 'wild' }]), VALUE, /patterns\[0\]\.kind/],
  ['caseInsensitive as a string', () => new Matcher(['x'], { caseInsensitive: 'yes' }), TYPE, /caseInsensitive/],
  ['a lone surrogate in a pattern', () => new Matcher(['ok', 'a\uD800']), VALUE, /patterns\[1\].*surrogate/],
  ['a pattern over 64 KiB', () => new Matcher(['x'.repeat(70000)]), RANGE, /patterns\[0\]/],
  ['more than 100,000 patterns', () => new Matcher(Array.from({ length: 100001 }, (_, i) => `p${i}`)), RANGE, /patterns\.length/],
  ['an unclosed group', () => new Matcher(['ok', '(unclosed']), SYNTAX, /index 1/],
  ['a backreference', () => new Matcher(['(a)\\1']), SYNTAX, /index 0/],
  ['look-ahead inside a pattern', () => new Matcher(['x(?=y)z']), SYNTAX, /index 0.*look-ahead/],
  ['the sticky flag', () => new Matcher([/a/y]), SYNTAX, /index 0.*sticky/],
  ['an unknown syntax', () => new Matcher(['a'], { syntax: 'pcre' }), VALUE, /options\.syntax.*'js', 'rust'/],
  ['an unclosed wildcard class', () => new Matcher(['[abc'], { kind: 'wildcard' }), SYNTAX, /index 0/],
  ['test on a number', () => new Matcher(['x']).test(5), TYPE, /"text"/],
  ['test on a lone surrogate', () => new Matcher(['x']).test('\uDC00x'), VALUE, /surrogate/],
  ['test on an Int32Array', () => new Matcher(['x']).test(new Int32Array(2)), TYPE, /"text"/],
  ['testMany on a string', () => new Matcher(['x']).testMany('x'), TYPE, /"texts"/],
  ['testMany with a bad element', () => new Matcher(['x']).testMany(['a', null]), TYPE, /texts\[1\]/],
  ['a method on another object', () => Matcher.prototype.test.call({}, 'x'), TYPE, /./],
  ['findAll over 100,000 matches', () => new Matcher([''], { kind: 'contains' }).findAll('x'.repeat(200000)), RANGE, /findAll/],
  ['isMatch with a numeric pattern', () => isMatch(1, 'x'), TYPE, /"pattern"/],
  ['isMatch with an invalid regex', () => isMatch('(', 'x'), SYNTAX, /index 0/],
  ['isMatch with a bad kind', () => isMatch('x', 'x', { kind: 1 }), TYPE, /options\.kind/]
]

for (const [what, fn, [cls, code], pattern] of matcherCases) {
  test(`Matcher: ${what}`, () => {
    assert.throws(fn, (e) => {
      // V8 itself rejects a wrong receiver before our code runs ("Illegal invocation").
      if (what === 'a method on another object') return e instanceof TypeError
      assert.ok(e instanceof cls, `${e.constructor.name}: ${e.message}`)
      assert.equal(e.code, code)
      assert.match(e.message, pattern)
      return true
    })
  })
}

test('Matcher: calling the class without new throws', () => {
  assert.throws(() => Matcher(['x']), TypeError)
})

test('scanLines rejects (never throws) bad data, options and signals', async () => {
  const m = new Matcher(['x'])
  let p
  assert.doesNotThrow(() => { p = m.scanLines(42) })
  await assert.rejects(p, { code: 'ERR_INVALID_ARG_TYPE' })
  await assert.rejects(m.scanLines('x', { signal: 'no' }), { code: 'ERR_INVALID_ARG_TYPE' })
  await assert.rejects(m.scanLines('x', { signal: AbortSignal.abort() }), { name: 'AbortError', code: 'ABORT_ERR' })
})

test('an already-aborted signal, reused, rejects every call at once with AbortError', async () => {
  const signal = AbortSignal.abort()
  for (let i = 0; i < 3; i++) {
    await assert.rejects(qr.generate('x', { signal }), { name: 'AbortError', code: 'ABORT_ERR' })
    await assert.rejects(qr.generateMany(['x'], { signal }), { name: 'AbortError' })
    await assert.rejects(new Matcher(['x']).scanLines('x', { signal }), { name: 'AbortError' })
  }
})

// One line per family for the CI log: every case again, many times, with RSS before and after.
test('summary: bad input never crashes and memory stays bounded', async (t) => {
  const families = {
    'QR functions': async () => {
      let tried = 0
      let asSpecified = 0
      for (const [, input, options, [cls, code]] of qrCases) {
        tried += 2
        try { await qr.generate(input, options) } catch (e) { if (e instanceof cls && e.code === code) asSpecified++ }
        try { qr.generateSync(input, options) } catch (e) { if (e instanceof cls && e.code === code) asSpecified++ }
      }
      return [tried, asSpecified]
    },
    Matcher: async () => {
      let tried = 0
      let asSpecified = 0
      for (const [what, fn, [cls, code]] of matcherCases) {
        tried++
        try { fn() } catch (e) { if ((e instanceof cls && e.code === code) || what === 'a method on another object') asSpecified++ }
      }
      return [tried, asSpecified]
    }
  }
  // Our memory, not the runtime's: the addon's live Rust heap (stats().nativeBytes), after a
  // collection has run the finalizers of what the rounds made. RSS moves with the JS
  // runtime's own heap (on Node 24, building these inputs 300 times grows it by ~100 MiB
  // with no addon call at all), so it is reported, not judged.
  const { nativeBytesAfterGc } = require('./helpers/native-heap')
  const settled = () => nativeBytesAfterGc(qr)
  for (const [family, run] of Object.entries(families)) {
    await run()
    const before = await settled()
    const rssBefore = process.memoryUsage().rss
    let tried = 0
    let asSpecified = 0
    for (let round = 0; round < 20; round++) {
      const [a, b] = await run()
      tried += a
      asSpecified += b
    }
    const growth = (await settled() - before) / 2 ** 20
    const rss = (process.memoryUsage().rss - rssBefore) / 2 ** 20
    const line = `bad input, ${family}: ${tried} inputs tried, ${asSpecified} errors as specified, 0 crashes, native heap growth ${growth.toFixed(2)} MiB (RSS ${rss.toFixed(1)} MiB)`
    t.diagnostic(line)
    console.log(line)
    assert.equal(asSpecified, tried)
    assert.ok(growth < 1, line)
  }
})
