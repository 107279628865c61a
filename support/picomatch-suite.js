'use strict'
// picomatch's own test suite (its repository at tag 4.0.5, copied into
// `__test__/fixtures/picomatch-tests/` with its licence from `../shared/corpora/picomatch-tests/`:
// mocha files that `require('..')`), run with something standing in for picomatch:
//
//   node support/picomatch-suite.js [picomatch | qr-native | qr-native-without-dot] [--list]
//
// - `picomatch`: picomatch itself from npm, the control: every assertion must pass.
// - `qr-native`: `picomatch(glob, options)` answers with a `Matcher` of `{ kind: 'glob',
//   ...options }` (an array of globs as one matcher), `picomatch.isMatch(text, glob, options)`
//   with `isMatch(glob, text, { kind: 'glob', ...options })`.
// - `qr-native-without-dot`: the same, with `dot` dropped before qr-native reads the options:
//   the check that this harness can fail (44 assertions must differ).
//
// Each assertion is recorded, never thrown, so one difference does not hide the rest of its
// test: `pass`, `difference` (an answer other than picomatch's), `refused` (qr-native threw
// where picomatch answers; the error is kept), or `not applicable`: what is not matching
// (`makeRe`, `parse`, `scan`, `compileRe`, its utils module, a matcher's `.state`) cannot be stood
// in for, and a test that needs it stops there; its assertions are counted against the
// control's total, never as passed. `assert.throws` agrees when both throw (picomatch's
// messages are its own).
const fs = require('node:fs')
const path = require('node:path')
const Module = require('node:module')
const realAssert = require('node:assert')

const CORPUS = path.join(__dirname, '..', '__test__', 'fixtures', 'picomatch-tests', 'test')

class NotApplicable extends Error {}

/** The answers of one run: counts, and every assertion that did not pass. */
function run(impl, { corpus = CORPUS } = {}) {
  const files = fs.readdirSync(corpus).filter((f) => f.endsWith('.js')).sort()
  const out = { impl, assertions: 0, passed: 0, differences: [], refused: [], notApplicable: [], errors: [] }
  // What the stand-in did since the last assertion: a refusal (its error), a call that is
  // not matching.
  const since = { refusal: null, notApplicable: null, inThrows: 0 }
  let where = ''
  const record = (ok, detail) => {
    out.assertions++
    const at = `${where} #${out.assertions}`
    if (since.notApplicable) out.notApplicable.push({ at, what: since.notApplicable })
    else if (since.refusal) out.refused.push({ at, ...detail(), error: `${since.refusal.code}: ${since.refusal.message}` })
    else if (ok) out.passed++
    else out.differences.push({ at, ...detail() })
    since.refusal = since.notApplicable = null
  }
  const show = (v) => {
    try { return JSON.stringify(v) } catch { return String(v) }
  }
  const deepOk = (a, b) => {
    try { realAssert.deepStrictEqual(a, b); return true } catch { return false }
  }
  const assert = (value, message) => record(!!value, () => ({ assertion: 'assert', got: show(value), message }))
  Object.assign(assert, {
    ok: assert,
    equal: (a, b, message) => record(a == b, () => ({ assertion: 'equal', got: show(a), expected: show(b), message })), // eslint-disable-line eqeqeq
    strictEqual: (a, b, message) => record(Object.is(a, b), () => ({ assertion: 'strictEqual', got: show(a), expected: show(b), message })),
    deepStrictEqual: (a, b, message) => record(deepOk(a, b), () => ({ assertion: 'deepStrictEqual', got: show(a), expected: show(b), message })),
    deepEqual: (a, b, message) => record(deepOk(a, b), () => ({ assertion: 'deepEqual', got: show(a), expected: show(b), message })),
    throws: (fn, expected, message) => {
      let threw = false
      since.inThrows++
      try { fn() } catch (e) {
        threw = true
        if (e instanceof NotApplicable) since.notApplicable = e.message
      } finally { since.inThrows-- }
      since.refusal = null
      record(threw, () => ({ assertion: 'throws', got: 'no exception', expected: String(expected), message }))
    }
  })
  assert.strict = assert

  const standIn = impl === 'picomatch' ? require('picomatch') : qrNative(since, impl === 'qr-native-without-dot')
  const standInPosix = impl === 'picomatch' ? require('picomatch/posix') : standIn
  const notMatching = (name) => new Proxy(function () {}, {
    get: (t, key) => key === 'then' ? undefined : notMatching(`${name}.${String(key)}`),
    apply: () => { throw new NotApplicable(name) }
  })

  const originalLoad = Module._load
  Module._load = function (request, parent, isMain) {
    if (parent && parent.filename && parent.filename.startsWith(corpus + path.sep)) {
      if (request === 'assert' || request === 'node:assert') return assert
      if (request === '..' || request === '../..') return standIn
      if (request === '../posix') return standInPosix
      // Packages the tests use themselves (fill-range) come from this repository's node_modules.
      if (!request.startsWith('.')) return originalLoad.call(this, require.resolve(request), parent, isMain)
      if (request.startsWith('../lib/')) return impl === 'picomatch' ? originalLoad.call(this, require.resolve(`picomatch/lib/${request.slice(7)}`), parent, isMain) : notMatching(request)
    }
    return originalLoad.call(this, request, parent, isMain)
  }
  const saved = { describe: global.describe, it: global.it }
  try {
    for (const file of files) {
      const tests = []
      const stack = []
      global.describe = (name, fn) => { stack.push(name); try { fn() } finally { stack.pop() } }
      global.it = (name, fn) => tests.push({ name: [file, ...stack, name].join(' › '), fn })
      const filename = path.join(corpus, file)
      delete require.cache[filename]
      require(filename)
      for (const t of tests) {
        where = t.name
        since.refusal = since.notApplicable = null
        try {
          t.fn.call({ timeout () {} })
        } catch (e) {
          if (e instanceof NotApplicable) out.notApplicable.push({ at: where, what: e.message, test: true })
          else out.errors.push({ at: where, error: String(e && e.stack || e).split('\n').slice(0, 3).join('\n') })
        }
      }
    }
  } finally {
    Module._load = originalLoad
    Object.assign(global, saved)
    for (const key of Object.keys(require.cache)) if (key.startsWith(corpus + path.sep)) delete require.cache[key]
  }
  return out
}

/** qr-native standing in for picomatch's API: its matching, nothing else. */
function qrNative(since, withoutDot) {
  const qr = require('..')
  const options = (o) => {
    const opts = { ...o }
    if (withoutDot) delete opts.dot
    return { ...opts, kind: 'glob' }
  }
  // A refusal is recorded and answered as "no match", so the test goes on to its next
  // assertion; inside `assert.throws` it is thrown, as picomatch throws.
  const refuse = (e, answer) => {
    if (since.inThrows) throw e
    since.refusal ??= e
    return answer
  }
  const toPosixSlashes = (s) => s.replace(/\\/g, '/')
  function picomatch(glob, o, returnState) {
    const opts = o || {}
    let m
    try {
      m = new qr.Matcher([].concat(glob), options(opts))
    } catch (e) {
      const answer = refuse(e, false)
      return (input, returnObject) => returnObject ? { isMatch: answer, input, output: input } : refuse(e, answer)
    }
    const matcher = (input, returnObject = false) => {
      let isMatch
      try {
        isMatch = m.test(input)
      } catch (e) {
        isMatch = refuse(e, false)
      }
      if (!returnObject) return isMatch
      // picomatch's `output`: the text as its test saw it (`format`'s, or with `windows` every
      // '\' made a '/').
      const output = typeof opts.format === 'function' ? opts.format(input) : opts.windows ? toPosixSlashes(input) : input
      return { glob, isMatch, input, output, match: isMatch, regex: undefined, get state () { throw new NotApplicable('state') } }
    }
    if (returnState) Object.defineProperty(matcher, 'state', { get () { throw new NotApplicable('state') } })
    return matcher
  }
  picomatch.isMatch = (text, glob, o) => {
    try {
      return [].concat(glob).some((g) => qr.isMatch(g, text, options(o)))
    } catch (e) {
      return refuse(e, false)
    }
  }
  picomatch.matchBase = (text, glob, o) => picomatch.isMatch(text, glob, { ...o, matchBase: true })
  for (const name of ['makeRe', 'parse', 'scan', 'compileRe', 'toRegex', 'test']) {
    picomatch[name] = () => { throw new NotApplicable(name) }
  }
  picomatch.constants = require('picomatch').constants
  return picomatch
}

function summary(r) {
  const notApplicable = r.notApplicable.length
  return `${r.impl}: ${r.assertions} assertions: ${r.passed} passed, ${r.differences.length} differ, ${r.refused.length} refused, ${notApplicable} not applicable; ${r.errors.length} tests stopped by an error`
}

module.exports = { run, summary, CORPUS }

if (require.main === module) {
  const impl = process.argv[2] || 'qr-native'
  const r = run(impl)
  console.log(summary(r))
  if (process.argv.includes('--list')) {
    for (const d of r.differences) console.log('DIFF', JSON.stringify(d))
    for (const d of r.refused) console.log('REFUSED', JSON.stringify(d))
    for (const d of r.errors) console.log('ERROR', JSON.stringify(d))
  }
}
