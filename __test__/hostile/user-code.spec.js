'use strict'
// User code that runs while arguments are read (getters, Proxy traps, array element
// getters, a signal's methods), and strings that only look like an accepted value.
const { describe, test } = require('node:test')
const assert = require('node:assert/strict')
const { runCase, survived } = require('./child.js')

// Finding 6: what a Promise-returning function does when user code throws: it must return a
// promise rejected with exactly what was thrown, never throw synchronously.
describe('a Promise function whose arguments throw while read rejects with what was thrown', () => {
  const boom = "const boom = new Error('boom'); boom.code = 'USER_CODE'"
  const throwingSignal = "{ aborted: false, addEventListener () { throw boom }, removeEventListener () {} }"
  const cases = {
    'generate, an options getter': "qr.generate('a', { get margin () { throw boom } })",
    'generate, a Proxy ownKeys trap': "qr.generate('a', new Proxy({}, { ownKeys () { throw boom } }))",
    'generate, a signal whose addEventListener throws': `qr.generate('a', { signal: ${throwingSignal} })`,
    'generate, a signal whose aborted getter throws': "qr.generate('a', { signal: { get aborted () { throw boom }, addEventListener () {} } })",
    'generateMany, an element getter': "qr.generateMany(Object.defineProperty(['a', 'b'], 1, { get () { throw boom } }))",
    'generateMany, an options getter': "qr.generateMany(['a'], { get version () { throw boom } })",
    'toDataURL, a colour getter': "qr.toDataURL('a', { color: { get dark () { throw boom } } })",
    'toString, a type getter': "qr.toString('a', { get type () { throw boom } })",
    'scanLines, an options getter': "new qr.Matcher(['x']).scanLines('x', { get signal () { throw boom } })",
    'scanLines, a signal whose addEventListener throws': `new qr.Matcher(['x']).scanLines('x', { signal: ${throwingSignal} })`
  }
  for (const [name, call] of Object.entries(cases)) {
    test(name, () => {
      const a = survived(assert, runCase(`(async () => {
        ${boom}
        let returned, threw = false
        try { returned = ${call} } catch { threw = true }
        const isPromise = returned instanceof Promise
        const reason = isPromise ? await returned.then(() => 'resolved', (e) => e) : undefined
        answer({ threw, isPromise, same: reason === boom })
      })()`))
      assert.deepEqual(a, { threw: false, isPromise: true, same: true })
    })
  }

  test('a sync function lets what user code threw propagate as it is', () => {
    const a = survived(assert, runCase(`
      ${boom}
      const thrown = []
      for (const f of [
        () => qr.generateSync('a', { get scale () { throw boom } }),
        () => qr.encode('a', new Proxy({}, { ownKeys () { throw boom } })),
        () => new qr.Matcher(Object.defineProperty(['a', 'b'], 0, { get () { throw boom } })),
        () => new qr.Matcher(['a', 'b']).testMany(Object.defineProperty(['a', 'b'], 1, { get () { throw boom } })),
        () => qr.isMatch('a', 'a', { get kind () { throw boom } })
      ]) { try { f(); thrown.push('nothing') } catch (e) { thrown.push(e === boom) } }
      answer(thrown)
    `))
    assert.deepEqual(a, [true, true, true, true, true])
  })
})

// Finding 7: enum options are read as the string they are, not as its low bytes.
describe('an enum option that only shares low bytes with an accepted value is refused by name', () => {
  // 'Ō' is U+014C (low byte 0x4C, 'L'); 'ň' U+0148 ('H'); 'ŵŴŦĸ' → 'utf8'.
  const cases = [
    ['errorCorrectionLevel', '\u014C'],
    ['errorCorrectionLevel', '\u0148'],
    ['type', '\u0175\u0174\u0166\u0138'],
    ['type', '\u0170\u016E\u0167'] // low bytes 'png'
  ]
  for (const [key, value] of cases) {
    test(`${key}: '${value}'`, () => {
      const a = survived(assert, runCase(`(async () => {
        const options = { ${key}: ${JSON.stringify(value)} }
        const sync = attempt(() => qr.generateSync('a', options))
        const promised = await settle(qr.generate('a', options))
        answer({ sync, promised })
      })()`))
      for (const r of [a.sync, a.promised]) {
        assert.equal(r.ok, false, `accepted ${JSON.stringify(value)}`)
        assert.equal(r.code, 'ERR_INVALID_ARG_VALUE')
        assert.ok(r.message.includes(`'${value}'`), `the message shows the value as given: ${r.message}`)
      }
    })
  }
})

// Finding 9: a signal whose first listener registration threw still aborts later calls.
describe('a signal whose addEventListener threw once still aborts every later call', () => {
  const calls = {
    generate: "qr.generate('later', { signal })",
    scanLines: "new qr.Matcher(['x']).scanLines('x\\nx', { signal })"
  }
  for (const [name, call] of Object.entries(calls)) {
    test(name, () => {
      const a = survived(assert, runCase(`(async () => {
        const controller = new AbortController()
        const signal = controller.signal
        const add = signal.addEventListener
        let registrations = 0
        signal.addEventListener = function (...args) {
          if (++registrations === 1) throw new Error('refused once')
          return add.apply(this, args)
        }
        const first = await settle(${call})
        const pending = ${call}
        controller.abort()
        const second = await settle(pending)
        answer({ first: first.message, second: second.name })
      })()`))
      assert.deepEqual(a, { first: 'refused once', second: 'AbortError' })
    })
  }
})
