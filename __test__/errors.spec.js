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
  ['a signal that is not an AbortSignal', 'a', { signal: {} }, TYPE, /options\.signal/]
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
