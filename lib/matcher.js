'use strict'
// `Matcher`: a JavaScript class over the native one, whose compiled sets the matchers made
// from the same patterns share, with the few-literal answers (./literals.js) and the objects
// of `findAll` made in JavaScript.
const { setImmediate } = require('node:timers')
const binding = require('./load.js')
const { canCheckStrings, wellFormed, literalsAnswer, literalState, literalUnion } = require('./literals.js')
const { codeError } = require('./errors.js')
const { nativePatterns, formatPlan, formattedMatches, callbacks } = require('./patterns.js')
const { MatcherLines } = require('./lines.js')

const kLiteral = Symbol('qr-native.Matcher.literal')
// The few literals themselves, for replace's JavaScript union (see `literalUnion`).
const kLiterals = Symbol('qr-native.Matcher.literals')

// The JavaScript answers for `matcher` on `text`, or undefined where native must answer.
function literalFor(matcher, text) {
  const literal = matcher?.[kLiteral]
  return literal && typeof text === 'string' ? literal : undefined
}

// A `Matcher` made as one (not a subclass, whose own methods must win) answers through
// methods of its own, non-enumerable like the prototype's: a call is then one property load
// and one function, where the prototype's method looks up the literal answer and checks for
// the bound native function first (a quarter of a call to a few literals answered in
// JavaScript). A matcher answered in JavaScript gets the `test` its answer made
// (`testMethod`: one per shape of a sole literal, one for unions). Called on anything else,
// they are the prototype's: a detached `test` throws as before, and `a.test.call(b, text)`
// answers for `b`. Native calls go through the matcher's handle (`natives`, bound to it).
function ownMethods(matcher, answer, handle) {
  const proto = Matcher.prototype
  // One method per name, each with its native call written in it (a call through a shared
  // closure cost a measurable share of a short call).
  const natives = {
    test: { test(s) { return this !== matcher ? proto.test.call(this, s) : boundTest(handle, s) } }.test,
    first: { first(s) { return this !== matcher ? proto.first.call(this, s) : boundFirst(handle, s) } }.first,
    matches: { matches(s) { return this !== matcher ? proto.matches.call(this, s) : matchesArray(boundMatches(handle, s)) } }.matches
  }
  const own = (name) => {
    const js = answer?.[name]
    const native = natives[name]
    const method = js
      ? {
          [name](s) {
            if (this !== matcher) return proto[name].call(this, s)
            if (typeof s === 'string') {
              const found = js(s)
              if (found !== undefined) return found
            }
            return native.call(this, s)
          }
        }[name]
      : native
    return { value: method, writable: true, configurable: true }
  }
  const test = answer ? { value: answer.testMethod(matcher, natives.test), writable: true, configurable: true } : own('test')
  Object.defineProperties(matcher, { test, first: own('first'), matches: own('matches') })
}

// The native `matches` answers −1 for no match and the index of one, and only several as a
// Uint32Array: V8 makes a small one on its own heap, where one made through N-API costs
// more than the rest of a short call.
const matchesArray = (found) => typeof found !== 'number' ? found : found < 0 ? new Uint32Array(0) : Uint32Array.of(found)

// The native `findAll` answers (pattern, start, end) flat in a Uint32Array; the objects are
// made here, where V8 makes one in nanoseconds, not through five N-API calls (which cost
// many times the search on a short text with many matches).
const findAllFlat = binding.Matcher.prototype.findAll

// `replace`: the native side finds what to replace (pattern, start, end) in one call; the new
// string is built here, where V8 joins slices and replacements without a copy each.
const replaceSpans = binding.__replaceSpans
const matcherGroups = binding.__matcherGroups
const matcherDispose = binding.__matcherDispose
const dispose = Symbol.dispose ?? Symbol.for('nodejs.dispose')


const describe = (v) => v === null ? 'null' : typeof v === 'function' ? `function ${v.name}` : typeof v === 'object' ? `an instance of ${v.constructor?.name ?? 'Object'}` : `type ${typeof v} (${String(v).slice(0, 40)})`

// A replacement string as `String.prototype.replace` reads it: `$$`, `$&`, `` $` `` and `$'`;
// every other `$` is itself, as it is for a RegExp without capturing groups (`$1`, `$<name>`
// name a group only when there are groups, and then `matcher` refuses them). Returns the
// string itself when it has no `$` pattern, else its parts: strings, and 0 for the match, 1
// for what precedes it, 2 for what follows it.
function template(replacement, name, matcher) {
  if (!replacement.includes('$')) return replacement
  const parts = []
  let literal = ''
  for (let i = 0; i < replacement.length; i++) {
    const c = replacement[i]
    const next = replacement[i + 1]
    if (c !== '$' || next === undefined) {
      literal += c
      continue
    }
    const code = next === '&' ? 0 : next === '`' ? 1 : next === "'" ? 2 : next === '$' ? '$' : undefined
    if (code === undefined) {
      if ((next === '<' || (next >= '0' && next <= '9')) && matcherGroups.call(nativeOf(matcher))) {
        throw codeError(TypeError, 'ERR_INVALID_ARG_VALUE', `The argument '${name}' refers to a capturing group ('$${next}…'), and replace has no groups: the union of patterns numbers them across patterns. Use (?:…) groups, or a function`)
      }
      literal += c
      continue
    }
    i++
    if (code === '$') {
      literal += '$'
      continue
    }
    if (literal) parts.push(literal)
    literal = ''
    parts.push(code)
  }
  if (literal) parts.push(literal)
  return parts.length === 1 && typeof parts[0] === 'string' ? parts[0] : parts
}

function expand(parts, text, start, end) {
  if (typeof parts === 'string') return parts
  let out = ''
  for (const part of parts) {
    out += part === 0 ? text.slice(start, end) : part === 1 ? text.slice(0, start) : part === 2 ? text.slice(end) : part
  }
  return out
}

// The bound native calls: `(handle, text)`, the handle naming this matcher in the native
// registry (see src/napi/matcher.rs, `Registry`): the call skips the receiver checks the
// prototype's methods make (they cost half of a short call), and no native function is made
// per matcher (each left Node-API bookkeeping behind until the event loop turned).
const boundTest = binding.__boundTest
const boundFirst = binding.__boundFirst
const boundMatches = binding.__boundMatches

// `replace` for one replacement, checked and read once: a function of the text.
function replacer(matcher, replacement) {
  let piece
  if (typeof replacement === 'string') {
    const parts = template(replacement, 'replacement', matcher)
    piece = (text, p, start, end) => expand(parts, text, start, end)
  } else if (Array.isArray(replacement)) {
    const size = matcher.size
    if (replacement.length !== size) {
      throw codeError(RangeError, 'ERR_OUT_OF_RANGE', `The value of "replacement.length" is out of range. It must be the number of patterns, ${size}. Received ${replacement.length}`)
    }
    const parts = []
    for (let i = 0; i < size; i++) {
      if (typeof replacement[i] !== 'string') {
        throw codeError(TypeError, 'ERR_INVALID_ARG_TYPE', `The "replacement[${i}]" argument must be of type string. Received ${describe(replacement[i])}`)
      }
      parts[i] = template(replacement[i], `replacement[${i}]`, matcher)
    }
    piece = (text, p, start, end) => expand(parts[p], text, start, end)
  } else if (typeof replacement === 'function') {
    piece = (text, p, start, end) => String(replacement(text.slice(start, end), p, start))
  } else {
    throw codeError(TypeError, 'ERR_INVALID_ARG_TYPE', `The "replacement" argument must be of type string, an array of strings, or a function. Received ${describe(replacement)}`)
  }
  const js = literalUnion(matcher?.[kLiterals])
  return (text) => {
    // A few literals on a well-formed string short enough to stay within the bound on
    // matches: V8's own union (see `literalUnion`).
    if (js !== undefined && text.length < js.maxText && wellFormed(text)) {
      if (typeof replacement === 'string') return text.replace(js.plain, replacement)
      return text.replace(js.grouped, (...args) => {
        const offset = args[js.count + 1]
        let p = 0
        while (args[p + 1] === undefined) p++
        return piece(text, p, offset, offset + args[0].length)
      })
    }
    const flat = replaceSpans.call(nativeOf(matcher), text)
    if (flat.length === 0) return text
    let out = ''
    let last = 0
    for (let j = 0; j < flat.length; j += 3) {
      const start = flat[j + 1]
      const end = flat[j + 2]
      out += text.slice(last, start) + piece(text, flat[j], start, end)
      last = end
    }
    return out + text.slice(last)
  }
}

// A matcher made with picomatch's `format` or callbacks (every pattern a glob): its answers on
// strings as picomatch's (`formattedMatches`), from the native answers on the text and on its
// format, and the callbacks called as picomatch calls them (`callbacks`; for `onIgnore`, a
// second native matcher without the ignore globs, made on first need). What searches within
// a text (findAll, replace, scanLines, lines) is refused: picomatch's format applies to whole
// texts.
function formatted(matcher, plan, patterns, options) {
  const proto = Matcher.prototype
  const nativeOn = (s) => proto.matches.call(matcher, s)
  let bare
  const bareOn = (s) => {
    if (bare === undefined) {
      const specs = nativePatterns(patterns, { ...options, ignore: undefined, onIgnore: undefined })
      bare = matcherShared(specs, options) ?? new binding.Matcher(specs, options)
    }
    return matchesArray(nativeMatches.call(bare, s))
  }
  const answer = (text, all) => {
    const a = formattedMatches(plan, text, nativeOn)
    callbacks(plan, text, a, all, bareOn)
    return a.found
  }
  // Each text in turn, grown as read (never from `length`: a sparse array may claim 2^32 − 1
  // elements); its first hole is a TypeError, as natively.
  const each = (texts, fn) => {
    if (!Array.isArray(texts)) {
      throw codeError(TypeError, 'ERR_INVALID_ARG_TYPE', `The "texts" argument must be an instance of Array. Received ${describe(texts)}`)
    }
    const out = []
    for (let i = 0; i < texts.length; i++) out.push(fn(texts[i]))
    return out
  }
  const refused = (name) => function () {
    throw codeError(TypeError, 'ERR_INVALID_ARG_VALUE', `${name}() searches within a text, and this matcher was made with picomatch's format or callbacks, which apply to whole texts: use a matcher made without them`)
  }
  const methods = {
    test: (text) => answer(text, false).length > 0,
    first: (text) => answer(text, false)[0] ?? -1,
    matches: (text) => Uint32Array.from(answer(text, true)),
    testMany: (texts) => Uint8Array.from(each(texts, (t) => answer(t, false).length > 0 ? 1 : 0)),
    firstMany: (texts) => Int32Array.from(each(texts, (t) => answer(t, false)[0] ?? -1)),
    findAll: refused('findAll'),
    replace: refused('replace'),
    scanLines: refused('scanLines'),
    lines: refused('lines')
  }
  for (const [name, fn] of Object.entries(methods)) {
    Object.defineProperty(matcher, name, { value: fn, writable: true, configurable: true })
  }
}

// The native class's methods, called on a matcher's native object (`nativeOf`): on anything
// else they throw the TypeError a wrong receiver gets, on a disposed one
// ERR_QR_NATIVE_DISPOSED.
const native = binding.Matcher.prototype
const nativeSize = Object.getOwnPropertyDescriptor(native, 'size').get
const { test: nativeTest, first: nativeFirst, matches: nativeMatches, testMany: nativeTestMany, firstMany: nativeFirstMany, scanLines: nativeScanLines } = native
const matcherShared = binding.__matcherShared

// A matcher's compiled patterns are a native object, which the matchers made from the same
// patterns and options share (src/runtime/shared.rs: a loop that makes matchers and never
// yields compiles once). What they share besides, made once per native object: its handle
// and the few-literal answers.
const shared = new WeakMap()
function sharedState(object) {
  let state = shared.get(object)
  if (state === undefined) {
    const literals = canCheckStrings ? binding.__matcherLiteral.call(object) : null
    state = { handle: binding.__matcherHandle.call(object), answer: literalsAnswer(literals), literals: literalState(literals) }
    shared.set(object, state)
  }
  hold(object)
  return state
}

// The native side notes the sets through weak references. Node finalizes a native object
// only when the event loop turns, so one collected before that is memory held until then: the
// native objects of the last matchers made (at most `HELD`) are held here until the loop
// turns, and a loop that drops each matcher before making the next finds the one it made.
const HELD = 16
const held = new Set()
let releasing = false
function hold(object) {
  if (held.has(object)) return
  if (held.size >= HELD) held.delete(held.values().next().value)
  held.add(object)
  if (!releasing) {
    releasing = true
    setImmediate(() => {
      held.clear()
      releasing = false
    }).unref?.()
  }
}

// The native object of a disposed matcher: one, freed, which refuses every call.
let disposedObject
function disposedNative() {
  if (disposedObject === undefined) {
    const object = new binding.Matcher(['disposed'])
    matcherDispose.call(object)
    disposedObject = object
  }
  return disposedObject
}

// `m`'s native object (`m` itself when it is not a Matcher, for the native methods to refuse),
// and its handle (undefined when it is not one, or disposed).
let nativeOf, handleOf

class Matcher {
  // The native object and its handle (undefined once disposed). Private: no other code can
  // reach them.
  #native
  #handle

  static {
    const mine = (m) => m !== null && typeof m === 'object' && #native in m
    nativeOf = (m) => mine(m) ? m.#native : m
    handleOf = (m) => mine(m) ? m.#handle : undefined
  }

  constructor(patterns, options) {
    const plan = formatPlan(patterns, options)
    const specs = nativePatterns(patterns, options)
    const object = matcherShared(specs, options) ?? new binding.Matcher(specs, options)
    const { handle, answer, literals } = sharedState(object)
    this.#native = object
    this.#handle = handle
    Object.defineProperty(this, kLiteral, { value: answer, configurable: true })
    Object.defineProperty(this, kLiterals, { value: literals, configurable: true })
    if (new.target === Matcher) ownMethods(this, answer, handle)
    if (plan !== undefined) formatted(this, plan, patterns, options)
  }

  get size() {
    return nativeSize.call(nativeOf(this))
  }

  test(text) {
    const found = literalFor(this, text)?.test(text)
    if (found !== undefined) return found
    const handle = handleOf(this)
    return handle !== undefined ? boundTest(handle, text) : nativeTest.call(nativeOf(this), text)
  }

  first(text) {
    const found = literalFor(this, text)?.first(text)
    if (found !== undefined) return found
    const handle = handleOf(this)
    return handle !== undefined ? boundFirst(handle, text) : nativeFirst.call(nativeOf(this), text)
  }

  matches(text) {
    const found = literalFor(this, text)?.matches(text)
    if (found !== undefined) return found
    const handle = handleOf(this)
    return matchesArray(handle !== undefined ? boundMatches(handle, text) : nativeMatches.call(nativeOf(this), text))
  }

  findAll(text) {
    const flat = findAllFlat.call(nativeOf(this), text)
    const found = []
    for (let j = 0; j < flat.length; j += 3) found.push({ pattern: flat[j], start: flat[j + 1], end: flat[j + 2] })
    return found
  }

  testMany(texts) {
    return nativeTestMany.call(nativeOf(this), texts)
  }

  firstMany(texts) {
    return nativeFirstMany.call(nativeOf(this), texts)
  }

  scanLines(...args) {
    return nativeScanLines.apply(nativeOf(this), args)
  }

  // What `text.replace(union, replacement)` answers, the union being the patterns in order
  // with the `g` flag (docs/matcher.md, "replace").
  replace(text, replacement) {
    if (typeof text !== 'string') {
      throw codeError(TypeError, 'ERR_INVALID_ARG_TYPE', `The "text" argument must be of type string. Received ${describe(text)}`)
    }
    return replacer(this, replacement)(text)
  }

  // Grep over a byte stream: a Transform (lib/lines.js).
  lines(options) {
    return new MatcherLines(() => nativeOf(this), options, (replacement) => replacer(this, replacement))
  }

  // This matcher is done with its compiled patterns, freed now unless another matcher made
  // from the same patterns and options still uses them (then with the last); every later call
  // throws ERR_QR_NATIVE_DISPOSED.
  [dispose]() {
    const object = nativeOf(this)
    // Not a Matcher: the native side says so.
    if (object === this) return matcherDispose.call(this)
    if (object === disposedObject) return
    this.#native = disposedNative()
    this.#handle = undefined
    matcherDispose.call(object)
    // The answers made in JavaScript go too: every method now reaches the native side, which
    // refuses.
    if (Object.hasOwn(this, kLiteral)) Object.defineProperty(this, kLiteral, { value: undefined })
    if (Object.hasOwn(this, kLiterals)) Object.defineProperty(this, kLiterals, { value: undefined })
    for (const name of ['test', 'first', 'matches']) {
      if (Object.hasOwn(this, name)) delete this[name]
    }
  }

  // The same as `[Symbol.dispose]()`, for runtimes and code without `using`.
  dispose() {
    this[dispose]()
  }
}

// (`nativeOf` for the tests that compare the JavaScript answers with native's.)
module.exports = { Matcher, nativeOf }
