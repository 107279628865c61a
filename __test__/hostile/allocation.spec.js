'use strict'
// Finding 2: no memory is reserved from a number the caller controls before it is checked
// against a documented limit. A sparse array claims any length up to 2^32 − 1 for free;
// each case runs under a 3 GiB address-space cap (as a container limit would impose), where
// reserving from that length aborts the process.
const { describe, test } = require('node:test')
const assert = require('node:assert/strict')
const { runCase, survived } = require('./child.js')

const CAP_KIB = 3 * 1024 * 1024
const sparse = (n) => `(() => { const a = []; a.length = ${n}; return a })()`

describe('a sparse array of length 2^32 − 1 is refused by its length, before any allocation', () => {
  const cases = {
    testMany: `new qr.Matcher(['a', 'b']).testMany(${sparse(2 ** 32 - 1)})`,
    firstMany: `new qr.Matcher(['a', 'b']).firstMany(${sparse(2 ** 32 - 1)})`,
    'new Matcher': `new qr.Matcher(${sparse(2 ** 32 - 1)})`,
    'internal __compatEncode': `require(ROOT + '/binding.js').__compatEncode(${sparse(2 ** 32 - 1)}, {})`,
    'internal __compatEncode, kanji pairs': `require(ROOT + '/binding.js').__compatEncode('a', { kanji: ${sparse(2 ** 32 - 1)} })`
  }
  for (const [name, call] of Object.entries(cases)) {
    test(name, () => {
      const a = survived(assert, runCase(`answer(attempt(() => ${call}))`, { memoryKiB: CAP_KIB }))
      assert.equal(a.ok, false)
      assert.equal(a.code, 'ERR_OUT_OF_RANGE', a.message)
      assert.match(a.message, /length/)
    })
  }

  test('generateMany rejects (never throws) by length', () => {
    const a = survived(assert, runCase(`settle(qr.generateMany(${sparse(2 ** 32 - 1)})).then(answer)`, { memoryKiB: CAP_KIB }))
    assert.equal(a.code, 'ERR_OUT_OF_RANGE')
  })

  test('internal __compatRender rejects by length', () => {
    const a = survived(assert, runCase(
      `settle(require(ROOT + '/binding.js').__compatRender(${sparse(2 ** 32 - 1)}, {})).then(answer)`,
      { memoryKiB: CAP_KIB }
    ))
    assert.equal(a.code, 'ERR_OUT_OF_RANGE')
  })
})

describe('each list limit, just under and just over', () => {
  // Just under a limit, a sparse list fails at its first hole (index 0): proof that the
  // length was accepted and nothing was reserved for it.
  const limits = [
    ['testMany', 2 ** 24, "new qr.Matcher(['a', 'b']).testMany(LIST)", 'texts[0]'],
    ['firstMany', 2 ** 24, "new qr.Matcher(['a', 'b']).firstMany(LIST)", 'texts[0]'],
    ['new Matcher', 100000, 'new qr.Matcher(LIST)', 'patterns[0]']
  ]
  for (const [name, limit, call, first] of limits) {
    test(`${name}: ${limit} is read, ${limit + 1} is refused`, () => {
      const a = survived(assert, runCase(`answer([
        attempt(() => ${call.replace('LIST', sparse(limit))}),
        attempt(() => ${call.replace('LIST', sparse(limit + 1))})
      ])`, { memoryKiB: CAP_KIB }))
      assert.equal(a[0].code, 'ERR_INVALID_ARG_TYPE')
      assert.ok(a[0].message.includes(first), a[0].message)
      assert.equal(a[1].code, 'ERR_OUT_OF_RANGE')
      assert.ok(a[1].message.includes(String(limit)), a[1].message)
    })
  }

  test('generateMany: 10000 is read, 10001 is refused', () => {
    const a = survived(assert, runCase(`Promise.all([
      settle(qr.generateMany(${sparse(10000)})),
      settle(qr.generateMany(${sparse(10001)}))
    ]).then(answer)`))
    assert.equal(a[0].code, 'ERR_INVALID_ARG_TYPE')
    assert.equal(a[1].code, 'ERR_OUT_OF_RANGE')
  })

  test('patterns: 64 KiB is compiled, one byte more is refused before it is copied', () => {
    const a = survived(assert, runCase(`answer([
      attempt(() => new qr.Matcher(['x'.repeat(65536), 'y'], { kind: 'contains' }).size),
      attempt(() => new qr.Matcher(['x'.repeat(65537), 'y'], { kind: 'contains' }).size),
      attempt(() => qr.isMatch('x'.repeat(65537), 'x'))
    ])`))
    assert.deepEqual(a[0], { ok: true, value: 2 })
    assert.equal(a[1].code, 'ERR_OUT_OF_RANGE')
    assert.equal(a[2].code, 'ERR_OUT_OF_RANGE')
  })

  test('patterns together: 16 MiB is compiled, more is refused', () => {
    const a = survived(assert, runCase(`answer([
      attempt(() => new qr.Matcher(Array.from({ length: 256 }, (_, i) => String(i).padStart(65536, 'x')), { kind: 'exact' }).size),
      attempt(() => new qr.Matcher(Array.from({ length: 257 }, (_, i) => String(i).padStart(65536, 'x')), { kind: 'exact' }).size)
    ])`))
    assert.deepEqual(a[0], { ok: true, value: 256 })
    assert.equal(a[1].code, 'ERR_OUT_OF_RANGE')
    assert.match(a[1].message, /16777216/)
  })
})

test('the internal entry points are not part of require(\'qr-native\')', () => {
  const a = survived(assert, runCase(`
    const internal = Object.keys(qr).filter((k) => k.startsWith('__'))
    import(ROOT + '/index.mjs').then((esm) => answer({ internal, esm: Object.keys(esm).filter((k) => k.startsWith('__')) }))
  `))
  assert.deepEqual(a, { internal: [], esm: [] })
})
