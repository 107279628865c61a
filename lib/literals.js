'use strict'
// The few-literal answers: JavaScript answers for a Matcher of a few literal patterns.
//
// The whole rule is here, in JavaScript, and in src/matcher/mod.rs: the native side says which
// matchers qualify, by listing their literals (`__matcherLiteral`) only when they are few
// (`MAX_JS_LITERALS`, `MAX_JS_CONTAINS`, `MAX_JS_CASE_SENSITIVE_CONTAINS`,
// `MAX_JS_LITERAL_BYTES`); this module says which texts: `test`, `first` and `matches` on a
// well-formed string (for two or more literals, of at most `MAX_JS_UNION_TEXT` units), and
// `replace` through V8's union (`literalUnion`). Buffers, strings with a lone surrogate (an
// error, from native) and every other matcher go to native.
//
// Why: the call into native alone costs several times what a few comparisons cost. The
// native side classifies the patterns, so both paths agree on what they mean.
// Node 18 lacks `isWellFormed`: there every call goes to native.
// docs/design/few-literals.md gives the figures.
const canCheckStrings = typeof String.prototype.isWellFormed === 'function'

// `isWellFormed` walks every unit on Node 20 to 24, even of a one-byte string, which cannot
// hold a surrogate. From this length a native check is the faster (a copy of the units and
// one vectorised pass over neighbours); the two were even at about half of it.
const NATIVE_CHECK_FROM = 256
const nativeWellFormed = require('./load.js').__wellFormed
const wellFormed = (s) => (s.length < NATIVE_CHECK_FROM ? s.isWellFormed() : nativeWellFormed(s))

const MAX_JS_CI_LITERAL = 1024
const MAX_FIND_ALL = require('./limits.js').maxFindAll

// The RegExp source of a literal at its place (no flags: `^` and `$` are the text's edges).
function literalSource({ place, text }) {
  const body = text.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&')
  return { exact: `^${body}$`, prefix: `^${body}`, suffix: `${body}$`, contains: body }[place]
}

// A string test equivalent to the native one for `{ place, text, caseInsensitive }`, or
// null where native answers.
function literalTest(literal) {
  const { place, text, caseInsensitive } = literal
  if (caseInsensitive) {
    // V8 compiles a RegExp when it first runs, and refuses a very long one then ("Regular
    // expression too large"): long literals stay native.
    if (text.length > MAX_JS_CI_LITERAL) return null
    // The literal is ASCII and folds ASCII only: so does `/i` without `u` (a character at or
    // above U+0080 never folds to one below).
    const re = new RegExp(literalSource(literal), 'i')
    return (s) => re.test(s)
  }
  switch (place) {
    case 'exact': return (s) => s === text
    case 'prefix': return (s) => s.startsWith(text)
    case 'suffix': return (s) => s.endsWith(text)
    case 'contains': return (s) => s.includes(text)
    default: return null
  }
}

// V8 compiles a RegExp to machine code on its second run, or on its first with a subject of
// 1000 units or more, and chooses its Boyer–Moore skip from the character frequencies of 128
// units of that subject: a union of literals compiled on one random text may skip on every
// window or on none, and two random literals on random letters took twice as long or more
// by the first text's luck. A union here is compiled at once, on
// printable ASCII in equal parts (one-byte code, and two-byte code after one U+0100), so that
// its choice weighs every letter alike; its source is our own (`(?:…)`): V8 shares compiled
// code between RegExps of one source, and a caller's RegExp of the same literals keeps its own.
const PRINTABLE = Array.from({ length: 1024 }, (_, i) => String.fromCharCode(0x20 + (i % 95))).join('')
const NEUTRAL_SUBJECTS = [PRINTABLE, `\u0100${PRINTABLE}`]
function compiledRegExp(source, flags) {
  const re = new RegExp(`(?:${source})`, flags)
  for (const subject of NEUTRAL_SUBJECTS) {
    for (let run = 0; run < 2; run++) {
      re.lastIndex = 0
      re.test(subject)
    }
  }
  return re
}

// Longest string the union answers: past it, one native call (Teddy, which skips to a
// literal's first byte by `memchr`) is faster than V8's union, which steps. The bench's
// long-text table measures both sides of it (docs/design/few-literals.md).
const MAX_JS_UNION_TEXT = 384

// Any unit of a surrogate pair, or a lone one.
const SURROGATE = '[\\uD800-\\uDFFF]'
const isSurrogate = (unit) => (unit & 0xF800) === 0xD800

// `{ test, first, matches }` for a matcher whose patterns are `literals` (from native, in
// pattern order), or null where native answers. Each takes any string and answers
// `undefined` for one with a lone surrogate, which native refuses.
function literalsAnswer(literals) {
  // The native side lists literals only when JavaScript may answer for them (see the top).
  if (!Array.isArray(literals)) return null
  const tests = literals.map(literalTest)
  if (tests.includes(null)) return null
  // One literal is one comparison after `isWellFormed`: `includes` finds a literal's first
  // character by `memchr`, where a RegExp steps (one literal that starts with '@' on long
  // random letters: many times faster than the union below).
  if (tests.length === 1) {
    const [one] = tests
    const { place, text, caseInsensitive } = literals[0]
    const answer = answerWith((s) => (wellFormed(s) ? one(s) : undefined), tests)
    answer.testMethod = caseInsensitive ? soleTestMethods.caseInsensitive(one) : soleTestMethods[place](text)
    return answer
  }
  // One union RegExp per case mode answers `test` in one pass (V8 compiles an alternation of
  // literals to machine code). The first also finds any surrogate, so a string without one
  // needs no `isWellFormed`, whose call is a fair share of a short answer; every one-byte string
  // is such a string, and V8 compiles a RegExp for those apart, where the class can match
  // nothing (the union measured as fast with it as without).
  const groups = [false, true]
    .map((ci) => literals.filter((l) => l.caseInsensitive === ci))
    .filter((group) => group.length > 0)
  let guard, other
  try {
    ;[guard, other] = groups.map((group, i) => compiledRegExp(
      group.map(literalSource).join('|') + (i === 0 ? `|${SURROGATE}` : ''),
      (group[0].caseInsensitive ? 'i' : '') + (i === 0 ? 'g' : '')))
  } catch {
    return null // too large for V8 ("Regular expression too large"): native answers
  }
  const any = (s) => {
    if (s.length > MAX_JS_UNION_TEXT) return undefined
    guard.lastIndex = 0 // `g`: the search starts at 0, and leaves where its match ends
    if (!guard.test(s)) return other !== undefined && other.test(s)
    if (!s.isWellFormed()) return undefined
    // A match that ends in a surrogate is the class, or a literal that ends in a pair: ask
    // each literal (such strings are rare).
    return !isSurrogate(s.charCodeAt(guard.lastIndex - 1)) || tests.some((t) => t(s))
  }
  const answer = answerWith(any, tests)
  // Its own `test` method, apart from `ownMethods`' shared one, so that its call of `any`
  // meets unions only (see `soleTestMethods`).
  answer.testMethod = (matcher, fallback) => ({
    test(s) {
      if (this === matcher && typeof s === 'string') {
        const found = any(s)
        if (found !== undefined) return found
      }
      return fallback.call(this, s)
    }
  }).test
  return answer
}

// A matcher's own `test` (see `ownMethods`) for one literal, given the matcher and the method
// to call for anything else. The comparison is written in the method, one method per kind of
// literal: a call through a function that every kind shares (the literal's own test) reaches
// targets of several kinds in a process with several matchers, where V8 stops inlining it.
// The bench's sets of one literal, after matchers of other kinds had run, were slower
// through the shared function and as fast here as the `includes` loop.
const soleTestMethods = {
  contains: (text) => (matcher, fallback) => ({
    test(s) { return this === matcher && typeof s === 'string' && wellFormed(s) ? s.includes(text) : fallback.call(this, s) }
  }).test,
  prefix: (text) => (matcher, fallback) => ({
    test(s) { return this === matcher && typeof s === 'string' && wellFormed(s) ? s.startsWith(text) : fallback.call(this, s) }
  }).test,
  suffix: (text) => (matcher, fallback) => ({
    test(s) { return this === matcher && typeof s === 'string' && wellFormed(s) ? s.endsWith(text) : fallback.call(this, s) }
  }).test,
  exact: (text) => (matcher, fallback) => ({
    test(s) { return this === matcher && typeof s === 'string' && wellFormed(s) ? s === text : fallback.call(this, s) }
  }).test,
  caseInsensitive: (one) => (matcher, fallback) => ({
    test(s) { return this === matcher && typeof s === 'string' && wellFormed(s) ? one(s) : fallback.call(this, s) }
  }).test
}

// `test` is `any`; `first` and `matches` try the literals one by one only after `any` has
// found something, which most texts do not have (a sole literal is found by then).
function answerWith(any, tests) {
  const sole = tests.length === 1
  return {
    test: any,
    first: (s) => {
      const found = any(s)
      return !found ? (found === undefined ? undefined : -1) : sole ? 0 : tests.findIndex((t) => t(s))
    },
    matches: (s) => {
      const found = any(s)
      if (!found) return found === undefined ? undefined : new Uint32Array(0)
      if (sole) return Uint32Array.of(0)
      const out = []
      for (let i = 0; i < tests.length; i++) if (tests[i](s)) out.push(i)
      return Uint32Array.from(out)
    }
  }
}

// A matcher of a few literals (the ones `test` answers in JavaScript, of one case mode)
// replaces through V8's union RegExp of them, with `g`: V8 searches and builds the string in
// one native call, where ours reads the string into UTF-8 first (the replace bench's
// 2-literal row measures both). The answer is the same by construction: the
// union is what `replace` is defined as. `plain` has no groups (`$1` stays text, as it does
// natively); `grouped` has one around each literal, to say which matched. Texts long enough
// to hold more than `MAX_FIND_ALL` matches go native, where that bound is kept. `state` is
// `{ literals, union }` from `literalState`; the union is made on first use and kept there.
function literalUnion(state) {
  if (!state || !canCheckStrings) return undefined
  if (state.union === undefined) {
    const { literals } = state
    const ci = literals[0].caseInsensitive
    if (literals.some((l) => l.caseInsensitive !== ci) || literals.some((l) => l.text.length > MAX_JS_CI_LITERAL)) {
      state.union = null
    } else {
      const sources = literals.map(literalSource)
      const flags = ci ? 'gi' : 'g'
      const shortest = Math.min(...literals.filter((l) => l.place === 'contains').map((l) => l.text.length), Infinity)
      state.union = {
        plain: new RegExp(sources.map((s) => `(?:${s})`).join('|'), flags),
        grouped: new RegExp(sources.map((s) => `(${s})`).join('|'), flags),
        count: literals.length,
        // Matches are at most (length + 1) / shortest contains literal, plus one a literal elsewhere.
        maxText: MAX_FIND_ALL * Math.max(1, Math.min(shortest, MAX_JS_CI_LITERAL)) - literals.length - 1
      }
    }
  }
  return state.union ?? undefined
}

// What a matcher keeps of its few literals for `replace`: null when it has none.
const literalState = (literals) => (literals ? { literals, union: undefined } : null)

module.exports = { canCheckStrings, wellFormed, literalsAnswer, literalState, literalUnion }
