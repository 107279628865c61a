'use strict'
// `Matcher`: the native class, with the few-literal answers (./literals.js) and the
// objects of `findAll` made in JavaScript.
const binding = require('./load.js')
const { canCheckStrings, literalsAnswer } = require('./literals.js')
const { nativePatterns } = require('./patterns.js')

const kLiteral = Symbol('qr-native.Matcher.literal')

// The JavaScript answers for `matcher` on `text`, or undefined where native must answer.
function literalFor(matcher, text) {
  const literal = matcher?.[kLiteral]
  return literal && typeof text === 'string' ? literal : undefined
}

// A `Matcher` made as one (not a subclass, whose own methods must win) answers through
// methods of its own, non-enumerable like the prototype's: a call is then one property load
// and one function, where the prototype's method looks up the literal answer and checks for
// the bound native function first (8–15 ns of a 35–50 ns call to a few literals answered in
// JavaScript). A matcher answered in JavaScript gets the `test` its answer made
// (`testMethod`: one per shape of a sole literal, one for unions). Called on anything else,
// they are the prototype's: a detached `test` throws as before, and `a.test.call(b, text)`
// answers for `b`.
function ownMethods(matcher, answer, natives) {
  const proto = Matcher.prototype
  const nativeMethod = (name) => {
    const native = natives[name]
    return { [name](s) { return this !== matcher ? proto[name].call(this, s) : native(s) } }[name]
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
            return native(s)
          }
        }[name]
      : nativeMethod(name)
    return { value: method, writable: true, configurable: true }
  }
  const test = answer ? { value: answer.testMethod(matcher, nativeMethod('test')), writable: true, configurable: true } : own('test')
  Object.defineProperties(matcher, { test, first: own('first'), matches: own('matches') })
}

// The native `matches` answers −1 for no match and the index of one, and only several as a
// Uint32Array: V8 makes a small one on its own heap in tens of ns, where one made through
// N-API costs 0.8–1 µs, more than the rest of a short call.
const matchesArray = (found) => typeof found !== 'number' ? found : found < 0 ? new Uint32Array(0) : Uint32Array.of(found)

// The native `findAll` answers (pattern, start, end) flat in a Uint32Array; the objects are
// made here, where V8 makes one in nanoseconds, not through five N-API calls (about 1 µs a
// match: 40 matches in a 160-character text took 40–60 µs, the search 1.8).
const findAllFlat = binding.Matcher.prototype.findAll

class Matcher extends binding.Matcher {
  // `test`, `first` and `matches` bound to this matcher natively: a call skips the receiver
  // checks the prototype's methods make (they cost half of a short call). Private: no other
  // code can reach them, so they are only ever called on this matcher's behalf.
  #test
  #first
  #matches

  constructor(patterns, options) {
    super(nativePatterns(patterns, options), options)
    const literals = canCheckStrings ? binding.__matcherLiteral.call(this) : null
    const answer = literalsAnswer(literals)
    Object.defineProperty(this, kLiteral, { value: answer })
    ;[this.#test, this.#first, this.#matches] = binding.__matcherMethods.call(this)
    const matches = this.#matches
    if (new.target === Matcher) ownMethods(this, answer, { test: this.#test, first: this.#first, matches: (s) => matchesArray(matches(s)) })
  }

  test(text) {
    const found = literalFor(this, text)?.test(text)
    if (found !== undefined) return found
    return #test in this ? this.#test(text) : super.test(text)
  }

  first(text) {
    const found = literalFor(this, text)?.first(text)
    if (found !== undefined) return found
    return #first in this ? this.#first(text) : super.first(text)
  }

  matches(text) {
    const found = literalFor(this, text)?.matches(text)
    if (found !== undefined) return found
    return matchesArray(#matches in this ? this.#matches(text) : super.matches(text))
  }

  findAll(text) {
    const flat = findAllFlat.call(this, text)
    const found = []
    for (let j = 0; j < flat.length; j += 3) found.push({ pattern: flat[j], start: flat[j + 1], end: flat[j + 2] })
    return found
  }
}

module.exports = { Matcher }
