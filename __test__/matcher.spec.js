'use strict'
// Matcher against JavaScript references: a real public list of 1500 crawler user-agent
// patterns (npm `crawler-user-agents`) with its sample agents and real browser agents
// (npm `user-agents`), a loop of JS RegExp as the reference; and each kind, with and
// without case-insensitivity, against a JS reference of its own.
const { test, describe } = require('node:test')
const assert = require('node:assert/strict')
const crawlers = require('crawler-user-agents')
const UserAgent = require('user-agents')
const { Matcher, isMatch } = require('..')
const picomatch = require('picomatch/posix')
const { rng } = require('./helpers/corpus')

const PATTERNS = crawlers.map((c) => c.pattern)
const JS = PATTERNS.map((p) => new RegExp(p))

function realTexts () {
  const texts = crawlers.flatMap((c) => c.instances || [])
  const seen = new Set(texts)
  for (let i = 0; texts.length < 6000 && i < 40000; i++) {
    const ua = new UserAgent().toString()
    if (!seen.has(ua)) { seen.add(ua); texts.push(ua) }
  }
  // Variants that break a literal or two, so near misses are tried too.
  const rand = rng(3)
  for (const t of texts.slice(0, 1500)) {
    const i = Math.floor(rand() * t.length)
    texts.push(t.slice(0, i) + t.slice(i + 1), t.toLowerCase())
  }
  return texts
}

const jsFirst = (t) => JS.findIndex((re) => re.test(t))
const jsMatches = (t) => JS.flatMap((re, i) => (re.test(t) ? [i] : []))

describe('1500 real crawler patterns, against a loop of JS RegExp', () => {
  const m = new Matcher(PATTERNS)
  const texts = realTexts()

  test('the list and texts are large enough to mean something', () => {
    assert.equal(m.size, PATTERNS.length)
    assert.ok(PATTERNS.length >= 500)
    assert.ok(texts.length >= 5000, `${texts.length} texts`)
    const hits = texts.filter((t) => jsFirst(t) >= 0).length
    assert.ok(hits > 1000 && texts.length - hits > 1000, `${hits} matching of ${texts.length}`)
  })

  test('first, test and matches agree with JS for every text', () => {
    for (const t of texts) {
      const first = jsFirst(t)
      assert.equal(m.first(t), first, t)
      assert.equal(m.test(t), first >= 0, t)
      assert.deepEqual([...m.matches(t)], jsMatches(t), t)
    }
  })

  test('Buffers give the same answers as strings', () => {
    for (const t of texts.slice(0, 1500)) assert.equal(m.first(Buffer.from(t)), m.first(t))
  })

  test('testMany and firstMany agree with test and first', () => {
    const batch = texts.slice(0, 2000)
    assert.deepEqual([...m.testMany(batch)], batch.map((t) => (m.test(t) ? 1 : 0)))
    assert.deepEqual([...m.firstMany(batch)], batch.map((t) => m.first(t)))
  })

  test('case-insensitive matching agrees with JS /i', () => {
    const mi = new Matcher(PATTERNS, { caseInsensitive: true })
    const jsi = PATTERNS.map((p) => new RegExp(p, 'i'))
    for (const t of texts.slice(0, 3000)) assert.equal(mi.first(t), jsi.findIndex((re) => re.test(t)), t)
  })
})

// Each kind against a JS reference of its own.
const escapeRe = (s) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')
function globToRegExp (g, flags) {
  let src = ''
  for (let i = 0; i < g.length; i++) {
    const c = g[i]
    if (c === '*') src += '[\\s\\S]*'
    else if (c === '?') src += '[\\s\\S]'
    else if (c === '[') {
      const end = g.indexOf(']', i + 2)
      let body = g.slice(i + 1, end)
      if (body[0] === '!') body = '^' + body.slice(1)
      src += '[' + body + ']'
      i = end
    } else src += escapeRe(c)
  }
  return new RegExp('^' + src + '$', flags)
}
const REFERENCE = {
  exact: (p, ci) => new RegExp('^' + escapeRe(p) + '$', ci ? 'i' : ''),
  prefix: (p, ci) => new RegExp('^' + escapeRe(p), ci ? 'i' : ''),
  suffix: (p, ci) => new RegExp(escapeRe(p) + '$', ci ? 'i' : ''),
  contains: (p, ci) => new RegExp(escapeRe(p), ci ? 'i' : ''),
  wildcard: (p, ci) => globToRegExp(p, ci ? 'i' : ''),
  // picomatch's own matcher (glob.spec.js compares it on far more globs and paths).
  glob: (p, ci) => ({ test: picomatch(p, { nocase: ci }) }),
  regex: (p, ci) => new RegExp(p, ci ? 'i' : '')
}

const pick = (rand, list) => list[Math.floor(rand() * list.length)]
const LONE_SURROGATE = { name: 'TypeError', code: 'ERR_INVALID_ARG_VALUE' }

function randomWord (rand, alphabet = 'abAB/._-x1') {
  let w = ''
  const n = 1 + Math.floor(rand() * 5)
  for (let i = 0; i < n; i++) w += alphabet[Math.floor(rand() * alphabet.length)]
  return w
}

const PATTERNS_BY_KIND = {
  exact: (rand) => randomWord(rand),
  prefix: (rand) => randomWord(rand),
  suffix: (rand) => randomWord(rand),
  contains: (rand) => randomWord(rand),
  wildcard: (rand) => [randomWord(rand), '*', randomWord(rand), rand() < 0.5 ? '?' : '', rand() < 0.3 ? '[ab]' : '', rand() < 0.3 ? '*' : ''].join(''),
  glob: (rand) => [randomWord(rand), '*', randomWord(rand), rand() < 0.5 ? '?' : '', rand() < 0.3 ? '[ab]' : '', rand() < 0.3 ? '**' : ''].join(''),
  regex: (rand) => [escapeRe(randomWord(rand)), ['.', 'a+', '[0-9]*', '(b|x)', ''][Math.floor(rand() * 5)], rand() < 0.3 ? '$' : ''].join('')
}

describe('every kind, with and without caseInsensitive, against a JS reference', () => {
  for (const kind of Object.keys(REFERENCE)) {
    for (const ci of [false, true]) {
      test(`${kind}${ci ? ', case-insensitive' : ''}`, () => {
        const rand = rng(kind.length * 7 + (ci ? 1 : 0))
        const patterns = Array.from({ length: 60 }, () => PATTERNS_BY_KIND[kind](rand))
        const m = new Matcher(patterns, { kind, caseInsensitive: ci })
        const refs = patterns.map((p) => REFERENCE[kind](p, ci))
        for (let i = 0; i < 400; i++) {
          const t = [randomWord(rand), randomWord(rand), randomWord(rand)].slice(0, 1 + Math.floor(rand() * 3)).join('')
          const expected = refs.flatMap((re, k) => (re.test(t) ? [k] : []))
          assert.deepEqual([...m.matches(t)], expected, `${JSON.stringify(t)} in ${kind}`)
          assert.equal(m.first(t), expected.length ? expected[0] : -1)
        }
      })
    }
  }

  test('a mixed set (literals of every shape, regexes, code-unit regexes) answers test as its patterns do one by one', () => {
    // Each structure (length-indexed literals, Aho–Corasick, the regex set, the code-units
    // set) answers its own patterns; the set must answer as any one of them would alone.
    const rand = rng(77)
    const WORDS = ['bot', 'Bot', 'a.b', 'x', 'é', '😀', 'sk', 'K', '\u212A', ' ', '/', 'ſ']
    const REGEXES = ['b.t', '^x', 'k$', '\\bbot\\b', '(?<!x)bot', 'bot(?!s)', '[^a]x', '^.$', '\\w+\\d', 'é|😀', '.{2}😀', '(?:sk|ſ)+']
    const KINDS = ['exact', 'prefix', 'suffix', 'contains', 'regex', 'regex']
    const piece = () => pick(rand, [...WORDS, 'BOT', 'bots', 'xbot', 'A.B', 'k', '😀😀', '\ufffd', '4'])
    for (let round = 0; round < 60; round++) {
      const n = round < 2 ? 520 + round * 10 : 2 + Math.floor(rand() * 30)
      const patterns = Array.from({ length: n }, (_, k) => {
        // Over 512 patterns, a few regexes: each look-around one compiles large.
        const kind = n > 512 && k % 50 !== 0 ? pick(rand, KINDS.slice(0, 4)) : pick(rand, KINDS)
        const pattern = kind === 'regex' ? pick(rand, REGEXES) : Array.from({ length: 1 + Math.floor(rand() * 2) }, () => pick(rand, WORDS)).join('')
        return { pattern, kind, caseInsensitive: rand() < 0.4 }
      })
      const m = new Matcher(patterns)
      const alone = patterns.map((p) => new Matcher([p]))
      for (let i = 0; i < 40; i++) {
        const t = Array.from({ length: Math.floor(rand() * 5) }, piece).join('')
        const bytes = rand() < 0.2 ? Buffer.concat([Buffer.from(t), Buffer.from([pick(rand, [0x80, 0xc3, 0xf0, 0xf5, 0xff])])]) : Buffer.from(t)
        const label = `${JSON.stringify(patterns.slice(0, 40))} on ${JSON.stringify(t)}`
        assert.equal(m.test(t), alone.some((a) => a.test(t)), label)
        assert.equal(m.test(bytes), alone.some((a) => a.test(bytes)), `${label} (bytes ${bytes.toString('hex')})`)
        assert.equal(m.test(t), m.first(t) !== -1, label)
      }
    }
  })

  test('pattern objects mix kinds and case in one matcher', () => {
    const m = new Matcher([{ pattern: '/admin', kind: 'prefix' }, { pattern: '.PHP', kind: 'suffix', caseInsensitive: true }, 'bot[0-9]+'])
    assert.deepEqual([...m.matches('/admin/index.php')], [0, 1])
    assert.deepEqual([...m.matches('x bot42')], [2])
  })
})

describe('one literal: strings answered in JavaScript, exactly as native answers', () => {
  // Internal, not exported by the package: the addon's own class, called on a matcher's
  // native object, and the literals it hands to JavaScript.
  const { nativeOf } = require('../lib/matcher.js')
  const proto = require('../binding.js').Matcher.prototype
  const native = Object.fromEntries(['test', 'first', 'matches'].map((name) => [name, { call: (m, t) => proto[name].call(nativeOf(m), t) }]))
  const literalsOf = (m) => require('../binding.js').__matcherLiteral.call(nativeOf(m))
  // Literal shapes of every kind, and texts that probe folding, non-ASCII and emptiness.
  const SHAPES = [
    ['exact', 'Bot-1'], ['prefix', 'Bot-1'], ['suffix', 'Bot-1'], ['contains', 'Bot-1'], ['contains', 'é😀'],
    ['contains', ''], ['exact', ''], ['contains', 'a\uFFFDb'],
    ['wildcard', 'bot'], ['wildcard', 'bot*'], ['wildcard', '*.php'], ['wildcard', '*bot*'],
    ['regex', 'bot'], ['regex', '^curl/'], ['regex', 'bot$'], ['regex', '^a\\.b$'], ['regex', ''], ['regex', 'sk']
  ]
  const PIECES = ['bot', 'BOT', 'Bot-1', 'bOT-1', 'curl/', 'CURL/', 'a.b', 'A.B', 'sk', 'SK', '\u212A', '\u017F',
    '\u0131', '\u0130', 'ß', 'é', 'É', '😀', 'a\uFFFDb', '.php', '.PHP', ' ', '']
  const rand = rng(99)
  const texts = [...PIECES]
  for (let i = 0; i < 600; i++) texts.push(Array.from({ length: 1 + Math.floor(rand() * 4) }, () => PIECES[Math.floor(rand() * PIECES.length)]).join(''))

  for (const ci of [false, true]) {
    test(`every literal shape${ci ? ', case-insensitive' : ''}: strings agree with Buffers (native) and with JS`, () => {
      let viaJs = 0
      for (const [kind, pattern] of SHAPES) {
        const m = new Matcher([pattern], { kind, caseInsensitive: ci })
        if (literalsOf(m) !== null) viaJs++
        for (const t of texts) {
          const bytes = Buffer.from(t)
          const expected = native.test.call(m, bytes)
          const label = `${kind} ${JSON.stringify(pattern)} on ${JSON.stringify(t)}`
          assert.equal(m.test(t), expected, label)
          assert.equal(m.first(t), expected ? 0 : -1, label)
          assert.deepEqual([...m.matches(t)], expected ? [0] : [], label)
          assert.equal(native.test.call(m, t), expected, label) // native on the string, too
          if (kind !== 'regex' && kind !== 'wildcard' && (!ci || [...pattern].every((c) => c.charCodeAt(0) < 128))) {
            assert.equal(m.test(t), REFERENCE[kind](pattern, ci).test(t), label)
          }
        }
      }
      // Every shape but a case-insensitive non-ASCII literal (Unicode folding: a regex) is a literal.
      assert.equal(viaJs, ci ? SHAPES.length - 2 : SHAPES.length)
    })
  }

  test('the JS path is taken for one literal on a well-formed string, native for the rest', (t) => {
    // How often `fn` calls String.prototype[method] (the comparison the JS path makes).
    const jsCalls = (method, fn) => {
      const spy = t.mock.method(String.prototype, method)
      try { fn() } finally { spy.mock.restore() }
      return spy.mock.callCount()
    }
    const contains = new Matcher(['bot'], { kind: 'contains' })
    const prefix = new Matcher(['^curl/'])
    const suffix = new Matcher(['*.php'], { kind: 'wildcard' })
    assert.equal(jsCalls('includes', () => assert.equal(contains.test('robot'), true)), 1)
    assert.equal(jsCalls('startsWith', () => assert.equal(prefix.first('curl/8'), 0)), 1)
    assert.equal(jsCalls('endsWith', () => assert.deepEqual([...suffix.matches('/a.php')], [0])), 1)
    // Bytes, a lone surrogate (native's error) and a wrong type go to native.
    assert.equal(jsCalls('includes', () => assert.equal(contains.test(Buffer.from('robot')), true)), 0)
    assert.equal(jsCalls('startsWith', () => assert.equal(prefix.first(new Uint8Array([99, 117, 114, 108, 47])), 0)), 0)
    assert.equal(jsCalls('includes', () => assert.throws(() => contains.test('bot\uD800'),
      { name: 'TypeError', code: 'ERR_INVALID_ARG_VALUE', message: /lone UTF-16 surrogate at index 3/ })), 0)
    assert.equal(jsCalls('includes', () => assert.throws(() => contains.matches(42), { name: 'TypeError', code: 'ERR_INVALID_ARG_TYPE' })), 0)
    assert.equal(literalsOf(new Matcher(['bot\\d'])), null)
    assert.equal(literalsOf(new Matcher(['bot', 'crawl\\d'])), null)
    assert.equal(literalsOf(new Matcher(Array.from({ length: 17 }, (_, i) => `w${i}`), { kind: 'contains' })), null)
    assert.deepEqual(literalsOf(new Matcher(['bot', '^crawl'])).map((l) => ({ ...l })),
      [{ place: 'contains', text: 'bot', caseInsensitive: false }, { place: 'prefix', text: 'crawl', caseInsensitive: false }])
    assert.deepEqual(literalsOf(contains).map((l) => ({ ...l })), [{ place: 'contains', text: 'bot', caseInsensitive: false }])
    // A few literals: union RegExps answer (native runs none).
    const few = new Matcher(['bot', { pattern: 'CRAWL', kind: 'prefix', caseInsensitive: true }, '\\.php$'])
    const spy = t.mock.method(RegExp.prototype, 'test')
    try {
      assert.equal(few.test('crawler/1'), true)
      assert.equal(few.first('/a.php?bot'), 0)
      assert.deepEqual([...few.matches('Crawlbot/a.php')], [0, 1, 2])
      assert.ok(spy.mock.callCount() >= 3)
      const before = spy.mock.callCount()
      assert.equal(few.test(Buffer.from('crawler/1')), true)
      assert.equal(spy.mock.callCount(), before)
    } finally { spy.mock.restore() }
    // Three case-sensitive `contains` literals, or four case-insensitive ones: a union RegExp
    // (made, and run on a sample, at construction). Four case-sensitive substrings or more, or
    // five of any case mode (among other shapes or not), answer natively: no RegExp runs and
    // no `includes`.
    const three = new Matcher(['bot', 'crawl', 'spider'], { kind: 'contains' })
    const four = new Matcher(['a1', 'a2', 'A3', 'a4'], { kind: 'contains', caseInsensitive: true })
    const natives = [
      [new Matcher(['bot', 'crawl', 'spider', 'x'], { kind: 'contains' }), 'a web spider', 'a spider crawl'],
      [new Matcher(['x', 'crawl', 'spider', 'y', { pattern: 'SLURP', caseInsensitive: true }], { kind: 'contains' }), 'slurp', 'Slurp crawl'],
        [new Matcher(['a1', 'a2', 'a3', 'a4', 'A5'], { kind: 'contains', caseInsensitive: true }), 'xa5', 'xa5 A2'],
      [new Matcher(['a1', 'a2', 'a3', 'a4', 'a5', { pattern: 'b', kind: 'prefix' }], { kind: 'contains' }), 'xa5', 'xa5 a2']
    ]
    const regexps = t.mock.method(RegExp.prototype, 'test')
    try {
      assert.equal(literalsOf(three).length, 3)
      assert.equal(jsCalls('includes', () => assert.equal(three.test('a crawler'), true)), 0)
      assert.equal(jsCalls('includes', () => assert.equal(three.test('a browser'), false)), 0)
      assert.equal(regexps.mock.callCount(), 2)
      assert.equal(literalsOf(four).length, 4)
      assert.equal(four.test('xa3'), true)
      assert.equal(regexps.mock.callCount(), 3)
      // Past 384 units a string goes to native (Teddy's `memchr` skip beats the union there).
      for (const [text, found] of [[`${'x'.repeat(381)}bot`, true], [`${'x'.repeat(382)}bot`, true], [`${'x'.repeat(381)}bo`, false]]) {
        const before = regexps.mock.callCount()
        assert.equal(jsCalls('includes', () => assert.equal(three.test(text), found)), 0)
        assert.equal(three.first(text), found ? 0 : -1)
        assert.equal(regexps.mock.callCount() - before, text.length <= 384 ? 2 : 0, `${text.length} units`)
      }
      const calls = regexps.mock.callCount()
      for (const [native, text, first] of natives) {
        assert.equal(literalsOf(native), null, 'native keeps these substrings for itself')
        assert.equal(jsCalls('includes', () => assert.equal(native.test(text), true)), 0)
        assert.equal(jsCalls('includes', () => assert.equal(native.test('none'), false)), 0)
        assert.equal(jsCalls('includes', () => assert.equal(native.first(first), 1)), 0)
      }
      assert.equal(regexps.mock.callCount(), calls)
    } finally { regexps.mock.restore() }
  })

  test('2 to 24 case-sensitive substrings (up to 3 in JS, then native: Teddy up to 20 of up to 16 bytes): test agrees with String.prototype.includes on strings and Buffers, short and long', () => {
    const rand = rng(37)
    const word = (n) => Array.from({ length: n }, () => pick(rand, ['a', 'b', 'c', 'x'])).join('')
    for (let round = 0; round < 150; round++) {
      const literals = Array.from({ length: 2 + Math.floor(rand() * 23) }, () => word(1 + Math.floor(rand() * (rand() < 0.2 ? 24 : 8))))
      const m = new Matcher(literals, { kind: 'contains' })
      // `piece()` put in `t` at a random place.
      const insert = (t, piece) => {
        const at = Math.floor(rand() * (t.length + 1))
        return t.slice(0, at) + piece() + t.slice(at)
      }
      for (let i = 0; i < 40; i++) {
        // Texts across Teddy's 16- and 32-byte blocks, a literal put in one time in two.
        let t = word(Math.floor(rand() * 200))
        // One in two past 256 bytes, with a run of a byte no literal holds: a set whose
        // literals start with at most three bytes searches such a text from the first of them.
        if (rand() < 0.5) t = insert(t, () => 'y'.repeat(256 + Math.floor(rand() * 100)))
        if (rand() < 0.5) t = insert(t, () => pick(rand, literals))
        const expected = literals.some((l) => t.includes(l))
        assert.equal(m.test(t), expected, `${JSON.stringify(literals)} in ${JSON.stringify(t)}`)
        assert.equal(m.test(Buffer.from(t)), expected)
      }
    }
  })

  test('a few literals (2 to 8 in JS, up to 16 tried, any shapes, mixed case modes): strings answered in JS agree with native on bytes', () => {
    const rand = rng(2024)
    const SHAPE = ['exact', 'prefix', 'suffix', 'contains']
    const WORDS = ['bot', 'Bot', 'a.b', 'x', '', 'é', '😀', 'sk', 'K', 'a|b', '(x)', '^$', 'a\\b', '\n']
    for (let round = 0; round < 200; round++) {
      // One round in four: 2 to 6 case-sensitive `contains` literals (up to three answer with
      // a union RegExp, four or more natively).
      const plain = round % 4 === 0
      const n = plain ? 2 + Math.floor(rand() * 5) : 2 + Math.floor(rand() * 15)
      const patterns = Array.from({ length: n }, () => ({
        pattern: Array.from({ length: 1 + Math.floor(rand() * 2) }, () => pick(rand, WORDS)).join(''),
        kind: plain ? 'contains' : pick(rand, SHAPE),
        caseInsensitive: plain ? false : rand() < 0.4
      }))
      const m = new Matcher(patterns)
      const viaJs = literalsOf(m) !== null
      // Past 8 patterns, 4 substrings or 3 case-sensitive ones, or with a case-insensitive
      // non-ASCII literal (a regex), a set stays native.
      const substrings = patterns.filter((p) => p.kind === 'contains')
      const sensitive = substrings.filter((p) => !p.caseInsensitive).length
      const nonAsciiFolded = patterns.some((p) => p.caseInsensitive && [...p.pattern].some((c) => c.charCodeAt(0) > 127))
      assert.equal(viaJs, n <= 8 && substrings.length <= 4 && sensitive <= 3 && !nonAsciiFolded, JSON.stringify(patterns))
      for (let i = 0; i < 30; i++) {
        // Lone halves of a pair too: next to each other, or to '😀', they may pair up.
        const t = Array.from({ length: Math.floor(rand() * 4) }, () => pick(rand, [...WORDS, 'BOT', 'A.B', '\u212A', '\u017F', ' ', 'k', '\uD83D', '\uDE00'])).join('')
        const label = `${JSON.stringify(patterns)} on ${JSON.stringify(t)}`
        if (!t.isWellFormed()) {
          for (const method of ['test', 'first', 'matches']) assert.throws(() => m[method](t), LONE_SURROGATE, label)
          continue
        }
        const bytes = Buffer.from(t)
        assert.equal(m.test(t), native.test.call(m, bytes), label)
        assert.equal(m.first(t), native.first.call(m, bytes), label)
        assert.deepEqual([...m.matches(t)], [...m.matches(bytes)], label)
      }
    }
  })

  test('a few literals in JS: a surrogate anywhere, paired or lone, one-byte and two-byte strings, short and longer', () => {
    // The union RegExp also finds any surrogate, so that a string without one needs no
    // `isWellFormed`: these are the strings where it finds one, or a literal that ends in one.
    const sets = [
      [['bot', 'crawl'], { kind: 'contains' }],
      [['bot', 'crawl', 'spider'], { kind: 'contains' }],
      [['😀', 'bot'], { kind: 'contains' }],
      [['a😀', 'b\uD83D\uDE01c', 'é'], { kind: 'contains' }],
      [['bot', { pattern: 'CRAWL', caseInsensitive: true }, { pattern: '😀', kind: 'suffix' }], { kind: 'contains' }],
      [[{ pattern: 'Bot', caseInsensitive: true }, { pattern: '😀', kind: 'prefix' }, { pattern: 'x😀', kind: 'exact' }], {}],
      // One literal: a comparison after the well-formed check (native from 256 units).
      [['bot'], { kind: 'contains' }],
      [['😀'], { kind: 'suffix' }],
      [[{ pattern: 'Bot', caseInsensitive: true }], { kind: 'contains' }]
    ]
    const PIECES = ['bot', 'BOT', 'crawl', 'spider', 'a', 'b', 'c', 'é', 'Ā', '😀', '😁', '\uD83D', '\uDE00', '\uDE01', 'x', ' ']
    const rand = rng(4242)
    for (const [patterns, options] of sets) {
      const m = new Matcher(patterns, options)
      assert.notEqual(literalsOf(m), null, `${JSON.stringify(patterns)} is answered in JS`)
      // A reference we did not write: a JS RegExp of each pattern alone.
      const references = patterns.map((p) => typeof p === 'string' ? { pattern: p } : p)
        .map((p) => REFERENCE[p.kind ?? options.kind ?? 'regex'](p.pattern, p.caseInsensitive ?? false))
      const texts = []
      for (let i = 0; i < 400; i++) texts.push(Array.from({ length: 1 + Math.floor(rand() * 5) }, () => pick(rand, PIECES)).join(''))
      // Longer, one-byte and two-byte, on both sides of the 384 units past which native
      // answers, and surrogates far from where a match ends.
      const longer = (n) => 'q'.repeat(n) + pick(rand, texts) + (rand() < 0.5 ? 'Ā'.repeat(n) : 'q'.repeat(n)) + pick(rand, PIECES)
      for (let i = 0; i < 40; i++) texts.push(longer(100 + Math.floor(rand() * 80)), longer(200 + Math.floor(rand() * 2000)))
      let lone = 0
      let paired = 0
      for (const t of texts) {
        const label = `${JSON.stringify(patterns)} on ${JSON.stringify(t.length > 60 ? `${t.slice(0, 20)}…${t.slice(-20)}` : t)}`
        if (!t.isWellFormed()) {
          lone++
          for (const method of ['test', 'first', 'matches']) {
            assert.throws(() => m[method](t), LONE_SURROGATE, label)
            assert.throws(() => Matcher.prototype[method].call(m, t), LONE_SURROGATE, label)
          }
          continue
        }
        if (/[\uD800-\uDFFF]/.test(t)) paired++
        const expected = native.matches.call(m, Buffer.from(t))
        const found = Array.isArray(expected) || ArrayBuffer.isView(expected) ? [...expected] : expected < 0 ? [] : [expected]
        assert.deepEqual(found, references.flatMap((re, i) => (re.test(t) ? [i] : [])), `native on bytes, ${label}`)
        assert.equal(m.test(t), found.length > 0, label)
        assert.equal(m.first(t), found.length > 0 ? found[0] : -1, label)
        assert.deepEqual([...m.matches(t)], found, label)
        assert.equal(Matcher.prototype.test.call(m, t), found.length > 0, label)
      }
      assert.ok(lone > 50 && paired > 50, `${lone} texts with a lone surrogate, ${paired} with pairs only`)
    }
  })

  test('a method called on another object still fails as native does', () => {
    assert.throws(() => Matcher.prototype.test.call({}, 'x'), TypeError)
    assert.throws(() => Matcher.prototype.first.call(undefined, 'x'), TypeError)
    const { test: detached } = new Matcher(['x'], { kind: 'exact' })
    assert.throws(() => detached('x'), TypeError)
    // findAll's objects are made in JavaScript from the native flat answer: its receiver
    // and argument are still checked natively, and a subclass inherits it.
    assert.throws(() => Matcher.prototype.findAll.call({}, 'x'), TypeError)
    assert.throws(() => new Matcher(['x']).findAll(42), { name: 'TypeError', code: 'ERR_INVALID_ARG_TYPE' })
    class Sub extends Matcher {}
    const found = new Sub(['b+', /a/g]).findAll('abba a')
    assert.deepEqual(found, [{ pattern: 1, start: 0, end: 1 }, { pattern: 0, start: 1, end: 3 }, { pattern: 1, start: 3, end: 4 }, { pattern: 1, start: 5, end: 6 }])
    assert.deepEqual(Object.keys(found[0]), ['pattern', 'start', 'end'])
  })

  test('matches answers a Uint32Array for no, one and several matches, by every path', () => {
    // The native side answers none or one as a number, which index.js turns into the array.
    class Sub extends Matcher {}
    const patterns = ['\\d', 'x\\d', '[yz]']
    for (const m of [new Matcher(patterns), new Sub(patterns)]) {
      for (const [text, expected] of [['abc', []], ['a1', [0]], ['x1 y', [0, 1, 2]], ['z', [2]]]) {
        for (const found of [m.matches(text), m.matches(Buffer.from(text)), Matcher.prototype.matches.call(m, text)]) {
          assert.ok(found instanceof Uint32Array, `${text}: ${found}`)
          assert.deepEqual(Array.from(found), expected, text)
        }
      }
    }
    assert.throws(() => Matcher.prototype.matches.call({}, 'x'), TypeError)
    assert.throws(() => new Matcher(['x']).matches(42), { name: 'TypeError', code: 'ERR_INVALID_ARG_TYPE' })
  })

  test('one literal of each shape, and a few: the own test throws, refuses and answers for others as native does', () => {
    // A matcher of one literal has a `test` of its own for each shape of literal, with the
    // comparison written in it; a few literals have one around their union.
    // Each with a JS RegExp that means the same, and a text it matches.
    const made = [
      [new Matcher(['bot'], { kind: 'contains' }), /bot/, 'a bot'],
      [new Matcher(['^curl/']), /^curl\//, 'curl/8'],
      [new Matcher(['*.php'], { kind: 'wildcard' }), /\.php$/, '/a.php'],
      [new Matcher(['x'], { kind: 'exact' }), /^x$/, 'x'],
      [new Matcher(['BOT'], { kind: 'contains', caseInsensitive: true }), /bot/i, 'a Bot'],
      [new Matcher(['bot', '^curl/']), /bot|^curl\//, 'curl/x'],
      [new Matcher(['bot', 'crawl', 'spider'], { kind: 'contains' }), /bot|crawl|spider/, 'a crawler']
    ]
    const others = ['', 'none', 'x\u{1F600}', 'robot.php', 'Curl/8', 'a BOT', 'curl/', 'spider\u00e9', 'é'.repeat(300) + 'crawl']
    for (const [m, reference, hit] of made) {
      const label = literalsOf(m).map((l) => `${l.place} ${l.text}`).join(', ')
      assert.ok(Object.hasOwn(m, 'test'), label)
      assert.deepEqual([m.test(hit), m.test(`${hit}\u{1F600}`), m.test('none'), m.test(Buffer.from(hit))],
        [true, reference.test(`${hit}\u{1F600}`), false, true], label)
      for (const text of others) assert.equal(m.test(text), reference.test(text), `${label} on ${JSON.stringify(text.slice(0, 12))}`)
      for (const lone of ['\uD800', '\uDFFF']) {
        for (const text of [hit + lone, lone + hit, lone, `${'a'.repeat(400)}${hit}${lone}`]) {
          assert.throws(() => m.test(text), { name: 'TypeError', code: 'ERR_INVALID_ARG_VALUE' }, `${label} on ${JSON.stringify(text.slice(-8))}`)
        }
      }
      for (const wrong of [42, null, undefined, {}, ['bot'], new Uint16Array(2)]) {
        assert.throws(() => m.test(wrong), { name: 'TypeError', code: 'ERR_INVALID_ARG_TYPE' }, label)
      }
      for (const [other, , otherHit] of made) {
        assert.deepEqual([m.test.call(other, otherHit), m.test.call(other, 'none')], [true, false], label)
      }
      assert.throws(() => m.test.call({}, hit), TypeError)
      assert.throws(() => m.test.call(undefined, hit), TypeError)
    }
  })

  test('a matcher\'s own methods answer for whichever matcher they are called on, and a subclass\'s win', () => {
    for (const [a, b] of [
      [new Matcher(['x'], { kind: 'exact' }), new Matcher(['y'], { kind: 'exact' })], // answered in JS
      [new Matcher(['^x\\d']), new Matcher(['^y\\d'])] // native
    ]) {
      assert.ok(Object.hasOwn(a, 'test') && !Object.keys(a).includes('test'))
      const [x, y] = a.size && a.test('x') ? ['x', 'y'] : ['x1', 'y1']
      assert.deepEqual([a.test(x), a.test(y), a.test.call(b, x), a.test.call(b, y)], [true, false, false, true])
      assert.deepEqual([a.first.call(b, y), Array.from(a.matches.call(b, y))], [0, [0]])
    }
    class Loud extends Matcher {
      test(text) { return `loud: ${super.test(text)}` }
    }
    const loud = new Loud(['x'], { kind: 'exact' })
    assert.equal(Object.hasOwn(loud, 'test'), false)
    assert.equal(loud.test('x'), 'loud: true')
  })
})

describe('findAll and offsets', () => {
  test('matches each pattern left to right like String.prototype.matchAll', () => {
    const patterns = ['a+', 'ab', 'b.']
    const m = new Matcher(patterns)
    for (const t of ['aab ab abba', 'bbbb', 'ab'.repeat(50)]) {
      const expected = patterns.flatMap((p, i) => [...t.matchAll(new RegExp(p, 'g'))].map((x) => ({ pattern: i, start: x.index, end: x.index + x[0].length })))
        .sort((x, y) => x.start - y.start || x.pattern - y.pattern)
      assert.deepEqual(m.findAll(t), expected)
    }
  })

  test('offsets are UTF-16 units for strings and bytes for Buffers', () => {
    const m = new Matcher(['bot'], { kind: 'contains' })
    const t = 'é😀 bot'
    assert.deepEqual(m.findAll(t), [{ pattern: 0, start: t.indexOf('bot'), end: t.indexOf('bot') + 3 }])
    const b = Buffer.from(t)
    assert.deepEqual(m.findAll(b), [{ pattern: 0, start: b.indexOf('bot'), end: b.indexOf('bot') + 3 }])
  })
})

describe('scanLines', () => {
  const m = new Matcher(PATTERNS.slice(0, 300))
  const lines = realTexts().slice(0, 3000)

  test('finds the same lines as split-and-test, for \\n and \\r\\n', async () => {
    const expected = lines.flatMap((l, i) => (JS.slice(0, 300).some((re) => re.test(l)) ? [i] : []))
    assert.deepEqual([...await m.scanLines(Buffer.from(lines.join('\n')))], expected)
    assert.deepEqual([...await m.scanLines(Buffer.from(lines.join('\r\n') + '\r\n'))], expected)
    assert.deepEqual([...await m.scanLines(lines.join('\n'))], expected)
  })

  test('an abort while it runs rejects with AbortError', async () => {
    const big = Buffer.from((lines.join('\n') + '\n').repeat(60))
    const controller = new AbortController()
    const scan = m.scanLines(big, { signal: controller.signal })
    setTimeout(() => controller.abort(), 5)
    await assert.rejects(scan, { name: 'AbortError', code: 'ABORT_ERR' })
  })
})

describe('isMatch', () => {
  // That a repeated pattern is compiled once is tested in Rust (src/matcher/cache.rs).
  test('agrees with JS RegExp, every kind', () => {
    for (let i = 0; i < 100; i++) assert.equal(isMatch('^GET /api/v[0-9]+/', `GET /api/v${i}/items`), true)
    assert.equal(isMatch('bot', 'Googlebot'), true)
    assert.equal(isMatch('^bot', 'Googlebot'), false)
    assert.equal(isMatch('*.png', '/img/logo.png', { kind: 'wildcard' }), true)
    assert.equal(isMatch('*.png', '/img/logo.png', { kind: 'glob' }), false)
    assert.equal(isMatch('/**/*.png', '/img/logo.png', { kind: 'glob' }), true)
    assert.equal(isMatch('GOOGLE', 'googlebot', { kind: 'contains', caseInsensitive: true }), true)
  })
})

// A backtracking engine would not be slow here but stuck: the timeouts catch that; how long
// these take is measured in bench/, not asserted.
describe('hostile patterns', () => {
  test('(a+)+$ against 30 a and a ! does not backtrack (JS takes seconds)', { timeout: 10_000 }, () => {
    const m = new Matcher(['(a+)+$'])
    assert.equal(m.test('a'.repeat(30) + '!'), false)
    assert.equal(m.test('a'.repeat(100000) + '!'), false)
  })

  test('backreferences and look-around are refused with the pattern\'s index', () => {
    assert.throws(() => new Matcher(['ok', '(a)\\1']), (e) => e instanceof SyntaxError && e.code === 'ERR_INVALID_PATTERN' && /index 1/.test(e.message))
    assert.throws(() => new Matcher(['(?=x)y']), { code: 'ERR_INVALID_PATTERN' })
  })

  test('a pattern compiling past the size budget is refused', { timeout: 10_000 }, () => {
    assert.throws(() => new Matcher(['(\\w+\\s*){500}{500}']), (e) => e.code === 'ERR_INVALID_PATTERN' && /index 0/.test(e.message))
  })
})
