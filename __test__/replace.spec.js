'use strict'
// `Matcher.prototype.replace` against V8's own `String.prototype.replace` with the union
// RegExp of the same patterns (`(?:p0)|(?:p1)|…`, the `g` flag and the set's flags), in the
// same process: random sets of JS-dialect regexes (classes, quantifiers that match empty,
// anchors, bounded look-around), literals of every kind, mixed, with and without `i`, `m`,
// `s`, `u`; ASCII texts and texts with é, ſ, K, 𝒜 and 😀; replacement strings with every `$`
// form. Array replacements are held to V8 through a function that finds which alternative
// matched (one capturing group around each) and expands that pattern's string with V8's own
// `$` rules at that match. Plus the real crawler list on real user agents.
const { test, describe } = require('node:test')
const assert = require('node:assert/strict')
const crawlers = require('crawler-user-agents')
const UserAgent = require('user-agents')
const { Matcher } = require('..')
const { rng } = require('./helpers/corpus')

// Under qemu (arm64 in CI) a tenth: the same native paths, at a tenth of the time.
const CASES = Number(process.env.REPLACE_CASES || (process.arch === 'x64' ? 21000 : 2100))
const ATOMS = ['a', 'b', 'ab', 'ba', 'é', 'É', 's', 'k', '1', ' ', '.', '\\d', '\\w', '\\s', '[ab]', '[^a]', '[a-c]', '\\.', '😀', '𝒜', '\\n', '\\b', '\\B']
const QUANTIFIERS = ['', '', '', '*', '+', '?', '{0,2}', '*?', '+?', '{2}']
const TEXT = ['a', 'b', 'A', 'B', 'é', 'É', 's', 'S', 'ſ', 'k', 'K', 'K', '1', '2', ' ', '.', '\n', '\r', '_', '😀', '𝒜', 'x']
const PIECES = ['-', '<', '>', '$&', '$`', "$'", '$$', '$1', '$<x>', '$0', '$', '[$&]', '', 'é😀']

/** A random JS-dialect regex source of `rand`, bounded look-around at its edges only. */
function regexSource (rand, unicode) {
  const pick = (list) => list[Math.floor(rand() * list.length)]
  const alternative = () => {
    let s = ''
    const n = 1 + Math.floor(rand() * 3)
    for (let i = 0; i < n; i++) {
      const atom = pick(ATOMS)
      // Without `u`, a quantifier after an astral character repeats its second half.
      s += (atom.length > 1 && atom.codePointAt(0) > 0xffff && !unicode) ? `(?:${atom})` + pick(QUANTIFIERS) : atom + (atom.startsWith('\\b') || atom.startsWith('\\B') ? '' : pick(QUANTIFIERS))
    }
    const r = rand()
    if (r < 0.08) s = '^' + s
    else if (r < 0.14) s += '$'
    else if (r < 0.2) s = pick(['(?<=a)', '(?<!b)', '(?<=[a\\s])', '(?<!é)']) + s
    else if (r < 0.26) s += pick(['(?=b)', '(?!a)', '(?=\\d|$)', '(?!😀)'])
    return s
  }
  return rand() < 0.2 ? `${alternative()}|${alternative()}` : alternative()
}

// A lone surrogate: a half of an astral character on its own.
const LONE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/

const escape = (s) => s.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&')
const LITERAL_KINDS = ['contains', 'contains', 'prefix', 'suffix', 'exact']

/** A random case: patterns (for `Matcher`) and the union RegExp source of the same. */
function randomCase (rand) {
  const pick = (list) => list[Math.floor(rand() * list.length)]
  const flags = ['i', 'm', 's', 'u'].filter(() => rand() < 0.3).join('')
  const unicode = flags.includes('u')
  const ci = flags.includes('i')
  const shape = rand()
  const n = 1 + Math.floor(rand() * (rand() < 0.2 ? 12 : 4))
  const patterns = []
  const alternatives = []
  for (let i = 0; i < n; i++) {
    // Literals keep ASCII case folding: with both `u` and `i`, V8 also folds ſ into s.
    const literal = shape < 0.3 || (shape < 0.7 && rand() < 0.5)
    if (literal && !(unicode && ci)) {
      // (With `m`, the reference would anchor with look-around, which V8 with `u` tries
      // between the halves of an astral character: literals are substrings there.)
      const kind = flags.includes('m') ? 'contains' : pick(LITERAL_KINDS)
      let text = ''
      const len = kind === 'contains' ? 1 + Math.floor(rand() * 3) : Math.floor(rand() * 3)
      for (let j = 0; j < len; j++) text += pick(['a', 'b', 'ab', 's', 'é', '1', '😀', ' '])
      patterns.push({ pattern: text, kind, caseInsensitive: ci })
      const body = escape(text)
      alternatives.push(kind === 'contains' ? body : kind === 'prefix' ? `^${body}` : kind === 'suffix' ? `${body}$` : `^${body}$`)
    } else {
      const source = regexSource(rand, unicode)
      patterns.push(new RegExp(source, flags))
      alternatives.push(source)
    }
  }
  let text = ''
  const len = Math.floor(rand() * 24)
  for (let j = 0; j < len; j++) text += pick(TEXT)
  const replacement = Array.from({ length: 1 + Math.floor(rand() * 3) }, () => pick(PIECES)).join('')
  const perPattern = patterns.map(() => Array.from({ length: 1 + Math.floor(rand() * 2) }, () => pick(PIECES)).join(''))
  return { flags, patterns, alternatives, text, replacement, perPattern }
}

/** V8's answer with one replacement string for each alternative: which one matched is the
 * first that matches there on its own (sticky, at the match's offset: what an alternation
 * tries in order); its string is expanded with V8's own `$` rules at that match (a sticky
 * regex of the match's length there). (Capturing groups around each alternative would say
 * too, but V8 reports some that took no part as '' with `iu`.) */
function v8PerPattern (union, text, strings) {
  const alone = union.alternatives.map((a) => new RegExp(a, union.flags + 'y'))
  const all = new RegExp(union.alternatives.map((a) => `(?:${a})`).join('|'), union.flags + 'g')
  return text.replace(all, (match, offset) => {
    const k = alone.findIndex((re) => {
      re.lastIndex = offset
      const m = re.exec(text)
      return m !== null && m[0] === match
    })
    const here = new RegExp(`[^]{${match.length}}`, 'y')
    here.lastIndex = offset
    const whole = text.replace(here, strings[k])
    return whole.slice(offset, whole.length - (text.length - offset - match.length))
  })
}

describe('replace against V8 on random sets', () => {
  test(`${CASES} random (patterns, flags, text, replacement) cases (at least 20,000 compared): string, per-pattern and function replacements, 0 differences`, (t) => {
    const rand = rng(48)
    let compared = 0
    let refused = 0
    let splitByV8 = 0
    let nonBmp = 0
    let withMatches = 0
    const kinds = new Set()
    for (let c = 0; c < CASES; c++) {
      const k = randomCase(rand)
      let m
      try {
        m = new Matcher(k.patterns)
      } catch (e) {
        // Look-around the engine has no linear-time meaning for is refused, by name.
        assert.equal(e.code, 'ERR_INVALID_PATTERN', `${e.message} ${k.patterns}`)
        if (process.env.REPLACE_REFUSALS) console.log(e.message)
        refused++
        continue
      }
      const union = new RegExp(k.alternatives.map((a) => `(?:${a})`).join('|'), k.flags + 'g')
      // V8 (Node 20 to 24) tries a `u` regex that starts with an assertion (\b, \B, look-around)
      // between the two halves of an astral character too, where the spec (AdvanceStringIndex)
      // and we do not: its answer then splits the pair. Counted, not compared.
      if (k.flags.includes('u') && LONE.test(k.text.replace(union, '-'))) {
        splitByV8++
        continue
      }
      const where = () => `patterns ${JSON.stringify(k.patterns.map((p) => p instanceof RegExp ? String(p) : p))} flags '${k.flags}' text ${JSON.stringify(k.text)}`
      assert.equal(m.replace(k.text, k.replacement), k.text.replace(union, k.replacement), `replacement ${JSON.stringify(k.replacement)}, ${where()}`)
      assert.equal(m.replace(k.text, k.perPattern), v8PerPattern({ alternatives: k.alternatives, flags: k.flags }, k.text, k.perPattern), `per pattern ${JSON.stringify(k.perPattern)}, ${where()}`)
      // A function sees each match, its pattern and its offset, as V8's callback would.
      const seen = []
      m.replace(k.text, (match, pattern, offset) => { seen.push([match, offset]); return '' })
      const v8Seen = []
      k.text.replace(union, (match, offset) => { v8Seen.push([match, offset]); return '' })
      assert.deepEqual(seen, v8Seen, where())
      compared++
      if (/[\u{10000}-\u{10ffff}]/u.test(k.text)) nonBmp++
      if (seen.length) withMatches++
      for (const p of k.patterns) kinds.add(p instanceof RegExp ? 'regex' : p.kind)
    }
    assert.ok(compared >= CASES * 0.95, `${compared} compared, ${refused} refused, ${splitByV8} split by V8`)
    assert.ok(splitByV8 < CASES / 100, `${splitByV8} answers of V8 split an astral character`)
    t.diagnostic(`${compared} cases compared (${nonBmp} with astral characters, ${withMatches} with matches), ${refused} sets refused, ${splitByV8} left out where V8 split an astral character`)
    assert.ok(nonBmp > compared / 5 && withMatches > compared / 2, `${nonBmp} with astral characters, ${withMatches} with matches`)
    assert.deepEqual([...kinds].sort(), ['contains', 'exact', 'prefix', 'regex', 'suffix'])
  })
})

describe('replace on real lists and texts', () => {
  test('1500 crawler patterns on 3000 real user agents (600 off x64): the same string as V8\'s union replace', () => {
    const patterns = crawlers.map((c) => c.pattern)
    const m = new Matcher(patterns)
    const union = new RegExp(patterns.map((p) => `(?:${p})`).join('|'), 'g')
    const agents = crawlers.flatMap((c) => c.instances || []).slice(0, 1500)
    // (Elsewhere than x64, in CI under qemu: 600 of them.)
    const count = process.arch === 'x64' ? 3000 : 600
    agents.length = Math.min(agents.length, count / 2)
    for (let i = 0; agents.length < count; i++) agents.push(new UserAgent().toString())
    let changed = 0
    for (const ua of agents) {
      const ours = m.replace(ua, '[$&]')
      assert.equal(ours, ua.replace(union, '[$&]'), ua)
      if (ours !== ua) changed++
    }
    assert.ok(changed > count / 3, `${changed} changed`)
  })
})

describe('replace: arguments and bounds', () => {
  const m = new Matcher(['a', /b+/, { pattern: 'c', kind: 'suffix' }])

  test('no match gives the very same string back', () => {
    const text = 'x'.repeat(1000)
    assert.equal(m.replace(text, '-'), text)
  })

  test('a text that is not a string, a wrong replacement, an array of the wrong length are refused', () => {
    for (const text of [Buffer.from('a'), 1, null, undefined, ['a']]) {
      assert.throws(() => m.replace(text, '-'), (e) => e instanceof TypeError && e.code === 'ERR_INVALID_ARG_TYPE', String(text))
    }
    for (const r of [1, null, undefined, {}, /a/]) {
      assert.throws(() => m.replace('a', r), (e) => e instanceof TypeError && e.code === 'ERR_INVALID_ARG_TYPE')
    }
    assert.throws(() => m.replace('a', ['x', 'y']), (e) => e instanceof RangeError && e.code === 'ERR_OUT_OF_RANGE' && /must be the number of patterns, 3/.test(e.message))
    assert.throws(() => m.replace('a', ['x', 2, 'z']), (e) => e instanceof TypeError && /replacement\[1\]/.test(e.message))
    assert.throws(() => m.replace('a\ud800', '-'), (e) => e instanceof TypeError && e.code === 'ERR_INVALID_ARG_VALUE')
  })

  test('a few literals on texts from 200 to 3000 units (V8\'s union after a native well-formed check): lone halves anywhere are refused, pairs are not', () => {
    const rand = rng(909)
    const sets = [['bot', 'crawl'], ['😀'], ['é', 'a😀b', 'zz']]
    let lone = 0
    let paired = 0
    for (const literals of sets) {
      const m = new Matcher(literals, { kind: 'contains' })
      const union = new RegExp(literals.map(escape).join('|'), 'g')
      for (let i = 0; i < 300; i++) {
        const units = 200 + Math.floor(rand() * 2800)
        let text = (rand() < 0.5 ? 'q' : 'Ā').repeat(units)
        // Halves, pairs and literals at random places, and at the ends and the 256-unit
        // runs the native check takes.
        const places = [0, units, 255, 256, 257, 511, 512].concat(Array.from({ length: 3 }, () => Math.floor(rand() * units)))
        for (const at of places) {
          if (rand() < 0.3) continue
          const piece = ['😀', 'bot', 'é', 'a😀b', '😀😀'][Math.floor(rand() * 5)]
          text = text.slice(0, at) + piece + text.slice(at)
        }
        // A third of the texts get one lone half, at one of the same places.
        if (rand() < 0.33) {
          const at = Math.min(places[Math.floor(rand() * places.length)], text.length)
          // Not inside a pair: that would split it, not add a half.
          const inside = at > 0 && at < text.length && (text.charCodeAt(at) & 0xfc00) === 0xdc00
          text = text.slice(0, at + (inside ? 1 : 0)) + (rand() < 0.5 ? '\ud83d' : '\ude00') + text.slice(at + (inside ? 1 : 0))
        }
        if (!text.isWellFormed()) {
          lone++
          assert.throws(() => m.replace(text, '-'), (e) => e instanceof TypeError && e.code === 'ERR_INVALID_ARG_VALUE', `lone half in ${text.length} units`)
          continue
        }
        if (/[\ud800-\udfff]/.test(text)) paired++
        assert.equal(m.replace(text, '<$&>'), text.replace(union, '<$&>'))
        assert.equal(m.replace(text, literals.map((l, j) => `[${j}]`)), text.replace(union, (x) => `[${literals.indexOf(x)}]`))
      }
    }
    assert.ok(lone > 200 && paired > 200, `${lone} texts with a lone half, ${paired} with pairs only`)
  })

  test('$1 and $<name> are text without groups, and refused with them; a function that throws passes its error on', () => {
    assert.equal(m.replace('a', '$1$<x>$0'), 'a'.replace(/a/g, '$1$<x>$0'))
    const groups = new Matcher([/(a)/, 'b'])
    assert.throws(() => groups.replace('a', '[$1]'), (e) => e.code === 'ERR_INVALID_ARG_VALUE' && /capturing group/.test(e.message))
    assert.throws(() => groups.replace('a', ['x', '$<n>']), (e) => e.code === 'ERR_INVALID_ARG_VALUE')
    assert.equal(groups.replace('ab', '[$&]'), '[a][b]')
    assert.throws(() => m.replace('a', () => { throw new Error('mine') }), /mine/)
  })

  test('past 100,000 matches it is a RangeError, as for findAll; the process lives on', () => {
    assert.equal(m.replace('a'.repeat(100000), '').length, 0)
    assert.throws(() => m.replace('a'.repeat(100001), ''), (e) => e instanceof RangeError && e.code === 'ERR_OUT_OF_RANGE' && /100000 matches/.test(e.message))
    // A few literals are replaced by V8's union up to the length where the bound could bind.
    const few = new Matcher(['a', { pattern: '', kind: 'exact' }])
    assert.equal(few.replace('a'.repeat(99000), ['', 'x']), '')
    assert.throws(() => few.replace('a'.repeat(100001), ''), (e) => e.code === 'ERR_OUT_OF_RANGE')
    const empty = new Matcher([{ pattern: '', kind: 'contains' }])
    assert.equal(empty.replace('ab', '-'), '-a-b-')
    assert.throws(() => empty.replace('a'.repeat(100000), '-'), (e) => e.code === 'ERR_OUT_OF_RANGE')
  })

  test("a replacement that would make a string past V8's limit is V8's RangeError, at once", () => {
    // 60,000 matches, each replaced by three copies of the rest of the text: about 5e9 units.
    for (const m of [new Matcher([/a/]), new Matcher(['a'])]) {
      const started = Date.now()
      assert.throws(() => m.replace('a'.repeat(60000), "$'$'$'"), (e) => e instanceof RangeError && /Invalid string length/.test(e.message))
      assert.ok(Date.now() - started < 2000)
    }
  })

  test('offsets are UTF-16 units across 64 KiB and astral characters at its edges', () => {
    const text = 'é'.repeat(32767) + '😀a' + '😀'.repeat(20000) + 'a'
    const lit = new Matcher(['a', { pattern: '😀', kind: 'contains' }])
    assert.equal(lit.replace(text, '<$&>'), text.replace(/a|😀/g, '<$&>'))
    const units = new Matcher([/\uDE00/, 'a'])
    assert.equal(units.replace(text, '-'), text.replace(/\uDE00|a/g, '-'))
  })
})
