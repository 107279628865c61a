'use strict'
// `kind: 'glob'` means what picomatch means: against picomatch itself, in the same run, on
// globs drawn from a grammar of its features (stars, `**` segments, `?`, classes with ranges,
// negation and POSIX names, braces with lists and ranges, every extglob including `!(…)`,
// escapes, `./` and `/` prefixes, negated globs) and options (`dot`, `nocase`, `matchBase`),
// tried on random paths and on paths made to nearly match each glob.
const { test, describe } = require('node:test')
const assert = require('node:assert/strict')
const picomatch = require('picomatch/posix')
const { Matcher, isMatch } = require('..')
const { rng } = require('./helpers/corpus')
const { glob, path, near } = require('./helpers/globs')

const OPTIONS = [{}, { dot: true }, { caseInsensitive: true }, { matchBase: true }, { dot: true, basename: true, caseInsensitive: true }]
const reference = (g, o) => picomatch(g, { ...o, nocase: o.caseInsensitive === true })

describe('globs against picomatch (kind: glob)', () => {
  for (const [n, options] of OPTIONS.entries()) {
    test(`random globs with ${JSON.stringify(options)}: 0 differences from picomatch`, () => {
      const rand = rng(1000 + n)
      let compared = 0
      let refused = 0
      const globs = []
      for (let i = 0; i < 160; i++) {
        const g = glob(rand)
        let m
        try {
          m = new Matcher([g], { kind: 'glob', ...options })
        } catch (e) {
          // Only a budget refuses a glob, and it says so.
          assert.equal(e.code, 'ERR_INVALID_PATTERN', g)
          assert.match(e.message, /automaton of more than \d+ states|compiles to more than/, g)
          refused++
          continue
        }
        globs.push(g)
        const f = reference(g, options)
        const texts = [g, ...Array.from({ length: 25 }, () => path(rand)), ...Array.from({ length: 25 }, () => near(rand, g))]
        for (const t of texts) {
          const expected = f(t)
          assert.equal(m.test(t), expected, `${JSON.stringify(g)} on ${JSON.stringify(t)}`)
          if (t.isWellFormed()) assert.equal(m.test(Buffer.from(t)), expected, `${JSON.stringify(g)} on the Buffer of ${JSON.stringify(t)}`)
          compared++
        }
      }
      // Many globs in one matcher: each index matches when its glob does.
      const m = new Matcher(globs, { kind: 'glob', ...options })
      const fns = globs.map((g) => reference(g, options))
      const texts = Array.from({ length: 300 }, (_, i) => (i % 2 ? path(rand) : near(rand, globs[i % globs.length])))
      for (const t of texts) {
        const expected = fns.flatMap((f, i) => (f(t) ? [i] : []))
        assert.deepEqual([...m.matches(t)], expected, JSON.stringify(t))
        assert.equal(m.first(t), expected.length ? expected[0] : -1)
      }
      assert.deepEqual([...m.testMany(texts)], texts.map((t) => (fns.some((f) => f(t)) ? 1 : 0)))
      assert.ok(compared > 5000, `compared ${compared}`)
      assert.ok(refused <= 8, `refused ${refused} of 160`)
    })
  }

  test("the issue's examples answer as picomatch does, not as a wildcard", () => {
    const cases = [
      ['*.js', 'lib/a.js'], ['/api/*', '/api/users/1'], ['*', '.env'], ['**/*.js', 'a.js'], ['a/**/b', 'a/b'],
      ['src/**', 'src'], ['*.{js,ts}', 'a.ts'], ['file{1..3}.txt', 'file2.txt'], ['!*.js', 'a.md'], ['!*.js', 'a.js'],
      ['+(a|b).js', 'abba.js'], ['@(a|b).js', 'ab.js'], ['[[:digit:]].js', '7.js'], ['!(a|b).js', 'c.js'], ['!(a|b).js', 'a.js']
    ]
    for (const [g, t] of cases) {
      assert.equal(new Matcher([g], { kind: 'glob' }).test(t), picomatch(g)(t), `${g} on ${t}`)
      assert.equal(isMatch(g, t, { kind: 'glob' }), picomatch(g)(t), `isMatch ${g} on ${t}`)
    }
    // The v1 meaning stays, as `wildcard`: `*` crosses '/'.
    assert.equal(new Matcher(['*.js'], { kind: 'wildcard' }).test('lib/a.js'), true)
    assert.equal(new Matcher(['*.js'], { kind: 'glob' }).test('lib/a.js'), false)
  })

  test('options per pattern, and the empty text', () => {
    const m = new Matcher([{ pattern: '*.js', kind: 'glob', matchBase: true }, { pattern: '*', kind: 'glob', dot: true }, 'x'], { kind: 'exact' })
    assert.deepEqual([...m.matches('lib/a.js')], [0])
    assert.deepEqual([...m.matches('.env')], [1])
    assert.deepEqual([...m.matches('x')], [1, 2])
    assert.equal(new Matcher(['**'], { kind: 'glob' }).test(''), false)
    assert.equal(isMatch('*.JS', 'a.js', { kind: 'glob', caseInsensitive: true }), true)
    assert.equal(isMatch('*.js', 'lib/a.js', { kind: 'glob', basename: true }), true)
  })

  test('bad options are TypeErrors; an empty glob is refused', () => {
    assert.throws(() => new Matcher(['*'], { kind: 'glob', dot: 1 }), { name: 'TypeError', code: 'ERR_INVALID_ARG_TYPE', message: /options\.dot/ })
    assert.throws(() => new Matcher([{ pattern: '*', kind: 'glob', matchBase: 'yes' }]), { name: 'TypeError', message: /patterns\[0\]\.matchBase/ })
    assert.throws(() => isMatch('*', 'a', { kind: 'glob', nobrace: null }), { name: 'TypeError', message: /options\.nobrace/ })
    assert.throws(() => new Matcher([''], { kind: 'glob' }), { code: 'ERR_INVALID_PATTERN', message: /must not be empty/ })
  })
})
