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

const OPTIONS = [{}, { dot: true }, { caseInsensitive: true }, { matchBase: true }, { dot: true, basename: true, caseInsensitive: true },
  // picomatch's `windows` (a '\\' in the text is a '/'), on each path also with '\\'s, and `ignore`.
  { windows: true }, { windows: true, matchBase: true, nocase: true }, { ignore: ['**/*.js', 'a*/**', '?'] }, { ignore: '**/b*', dot: true, windows: true }]
const reference = (g, o) => picomatch(g, { ...o, nocase: o.caseInsensitive === true || o.nocase === true })

describe('globs against picomatch (kind: glob)', () => {
  for (const [n, options] of OPTIONS.entries()) {
    const windows = (texts) => options.windows ? texts.flatMap((t) => [t, t.replaceAll('/', '\\')]) : texts
    test(`random globs with ${JSON.stringify(options)}: 0 differences from picomatch`, () => {
      // (The sets with windows and ignore draw from seeds 2005-2008: on some globs and texts
      // of 1005-1008, picomatch's own regexes backtrack in V8 for seconds per text.)
      const rand = rng(n < 5 ? 1000 + n : 2000 + n)
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
        const texts = windows([g, ...Array.from({ length: 25 }, () => path(rand)), ...Array.from({ length: 25 }, () => near(rand, g))])
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
      const texts = windows(Array.from({ length: n < 5 ? 300 : 60 }, (_, i) => (i % 2 ? path(rand) : near(rand, globs[i % globs.length]))))
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

  test("picomatch's options: each honoured or refused, none ignored", () => {
    // nocase is picomatch's name for caseInsensitive; both, differing, is an error.
    assert.equal(isMatch('*.JS', 'a.js', { kind: 'glob', nocase: true }), true)
    assert.equal(new Matcher(['*.JS'], { kind: 'glob', nocase: true }).test('a.js'), true)
    assert.throws(() => new Matcher(['*'], { kind: 'glob', nocase: true, caseInsensitive: false }), { name: 'TypeError', code: 'ERR_INVALID_ARG_VALUE', message: /nocase.*caseInsensitive/ })
    // Read by picomatch's parser: passed on, so they mean what they mean there.
    for (const [g, t, o] of [['a+b', 'aab', { regex: true }], ['[[:alpha:]]', 'a', { posix: true }], ['@(a)', '@(a)', { noext: true }], ['\\*', '*', { unescape: true }],
      ['{1..3}', '2', { expandRange: (a, b) => `[${a}-${b}]` }], ['a/b', 'a\\b', { windows: true }], ['*.md', 'a\\b\\c.md', { windows: true, matchBase: true }]]) {
      assert.equal(new Matcher([g], { kind: 'glob', ...o }).test(t), picomatch(g, o)(t), `${g} on ${t} with ${Object.keys(o)}`)
    }
    assert.throws(() => isMatch('aaaa', 'a', { kind: 'glob', maxLength: 3 }), { name: 'RangeError', code: 'ERR_OUT_OF_RANGE', message: /maxLength is 3/ })
    assert.throws(() => new Matcher(['a['], { kind: 'glob', strictBrackets: true }), { code: 'ERR_INVALID_PATTERN', message: /picomatch refuses it/ })
    // What a compiled matcher cannot do: refused, saying what to do instead.
    for (const [key, value, why] of [['capture', true, /groups/], ['contains', true, /whole text/], ['prepend', 'x', /internal/], ['relaxSlashes', true, /not an option of a glob/]]) {
      assert.throws(() => new Matcher(['*'], { kind: 'glob', [key]: value }), { name: 'TypeError', code: 'ERR_INVALID_ARG_VALUE', message: why }, key)
    }
    assert.throws(() => new Matcher([{ pattern: '*', kind: 'glob', format: String }]), { code: 'ERR_INVALID_ARG_VALUE', message: /matcher's options/ })
    assert.throws(() => new Matcher(['*', /a/], { kind: 'glob', format: String }), { code: 'ERR_INVALID_ARG_VALUE', message: /patterns\[1\] is not a glob/ })
    // A glob as long as picomatch takes (65,536); one more is refused before picomatch reads it.
    assert.equal(isMatch('\\'.repeat(65500) + 'A', '\\A', { kind: 'glob' }), true)
    assert.throws(() => new Matcher(['*'.repeat(65537)], { kind: 'glob' }), { name: 'RangeError', code: 'ERR_OUT_OF_RANGE', message: /at most 65536/ })
  })

  test('ignore, per matcher and per pattern, as picomatch means it; replace refuses it', () => {
    const ignore = ['**/node_modules/**', '**/*.d.ts']
    const m = new Matcher(['src/**/*.ts', '**/*.js', { pattern: 'lib/**', kind: 'glob', ignore: 'lib/x*' }], { kind: 'glob', ignore })
    const texts = ['src/a.ts', 'src/a.d.ts', 'node_modules/x/a.js', 'b.js', 'lib/x.js', 'lib/y.md', 'lib/node_modules/a.md']
    const refs = [picomatch('src/**/*.ts', { ignore }), picomatch('**/*.js', { ignore }), picomatch('lib/**', { ignore: 'lib/x*' })]
    for (const t of texts) {
      const expected = refs.flatMap((f, i) => (f(t) ? [i] : []))
      assert.deepEqual([...m.matches(t)], expected, t)
      assert.equal(m.first(t), expected.length ? expected[0] : -1, t)
      assert.deepEqual(m.findAll(t).map((f) => f.pattern), expected, t)
    }
    assert.deepEqual([...m.testMany(texts)], texts.map((t) => (refs.some((f) => f(t)) ? 1 : 0)))
    assert.throws(() => m.replace('b.js', 'x'), { code: 'ERR_INVALID_ARG_VALUE', message: /ignore/ })
    assert.throws(() => new Matcher(['*'], { kind: 'glob', ignore: [1] }), { name: 'TypeError', code: 'ERR_INVALID_ARG_TYPE' })
  })

  test('format and the callbacks: answers and calls as picomatch makes them; searching refused', () => {
    const format = (s) => s.replace(/^\.\//, '')
    const seen = []
    const pmOptions = { format, ignore: '*.md' }
    const options = { kind: 'glob', ...pmOptions, onMatch: (r) => seen.push(['match', r.glob, r.input, r.output]), onResult: (r) => seen.push(['result', r.glob, r.isMatch]), onIgnore: (r) => seen.push(['ignore', r.glob]) }
    const expected = []
    const reference = picomatch(['a/*', '*.md', '*'], { ...pmOptions, onMatch: (r) => expected.push(['match', r.glob, r.input, r.output]), onResult: (r) => expected.push(['result', r.glob, r.isMatch]), onIgnore: (r) => expected.push(['ignore', r.glob]) })
    const m = new Matcher(['a/*', '*.md', '*'], options)
    for (const t of ['./a/b', 'a/b', './x.md', './c', 'd/e']) {
      assert.equal(m.test(t), reference(t), t)
    }
    assert.deepEqual(seen, expected)
    assert.deepEqual([...m.matches('./c')], [2])
    assert.throws(() => m.findAll('./c'), { code: 'ERR_INVALID_ARG_VALUE', message: /whole texts/ })
    assert.throws(() => m.test(Buffer.from('c')), { name: 'TypeError', code: 'ERR_INVALID_ARG_TYPE' })
    assert.throws(() => new Matcher(['*'], { kind: 'glob', format: () => 1 }).test('a'), { name: 'TypeError', code: 'ERR_INVALID_RETURN_VALUE' })
  })
})

test('globs of many * segments compile (each a state or two, not twice the last) and answer as picomatch', () => {
  for (const n of [11, 32, 128, 512]) {
    const glob = Array(n).fill('*').join('/')
    const m = new Matcher([glob], { kind: 'glob' })
    const is = picomatch(glob)
    const texts = [Array(n).fill('a').join('/'), Array(n + 1).fill('a').join('/'), Array(n - 1).fill('a').join('/'),
      Array(n).fill('a').join('/') + '/', '.a/' + Array(n - 1).fill('a').join('/'), Array(n).fill('').join('/'), 'a']
    for (const t of texts) assert.equal(m.test(t), is(t), `${n} segments on ${JSON.stringify(t.slice(0, 20))}…`)
  }
  // Past the automaton's state budget: refused, never compiled half.
  assert.throws(() => new Matcher([Array(1024).fill('*').join('/')], { kind: 'glob' }), { code: 'ERR_INVALID_PATTERN', message: /states|budget|automaton/ })
})
