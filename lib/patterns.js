'use strict'
// Patterns as the native side reads them: RegExp objects as `/source/flags`, globs turned
// into picomatch's RegExp, and `isMatch` with a glob.
const { isRegExp } = require('node:util').types
const binding = require('./load.js')

// A RegExp pattern brings its own source and flags, as the `/source/flags` string the native
// side reads (a RegExp's `source` escapes every '/'); the matcher's options do not apply to it.
//
// A glob means what picomatch means: picomatch itself turns it into a RegExp (its POSIX build,
// so '/' is the only separator on every platform), and the native side compiles that regex
// (look-ahead and all) into one without look-around. Its options: `dot`, `matchBase` (or
// `basename`), `nobrace`, `noextglob`, `noglobstar`, `nonegate`, `strictSlashes`, per matcher
// or per pattern; `caseInsensitive` is picomatch's `nocase`.
//
// A list longer than the native limit goes as it is, to be refused by its length: a sparse
// array can claim 2^32 − 1 elements, and walking them would take minutes.
const MAX_PATTERNS = require('./limits.js').maxPatterns
const GLOB_OPTIONS = ['dot', 'matchBase', 'basename', 'nobrace', 'noextglob', 'noglobstar', 'nonegate', 'strictSlashes']
let picomatch
function globOptions(name, object, defaults) {
  const out = { ...defaults }
  if (object === null || typeof object !== 'object') return out
  for (const key of GLOB_OPTIONS) {
    const value = object[key]
    if (value === undefined) continue
    if (typeof value !== 'boolean') {
      const error = new TypeError(`The "${name}.${key}" property must be of type boolean. Received ${typeof value}`)
      error.code = 'ERR_INVALID_ARG_TYPE'
      throw error
    }
    out[key] = value
  }
  return out
}

// picomatch's parser takes time quadratic in a glob's nesting (tens of seconds for 30,000
// nested braces): past these a glob is refused before picomatch reads it. Within them it
// takes a fraction of a second, and the native side's own limits (128 nested groups) still apply.
const MAX_GLOB_UNITS = 8192
const MAX_GLOB_GROUPS = 256

function invalidGlob(index, glob, why) {
  const shown = glob.slice(0, 60)
  const error = new SyntaxError(`Invalid pattern at index ${index} ('${shown}${shown.length < glob.length ? '…' : ''}'): ${why}`)
  error.code = 'ERR_INVALID_PATTERN'
  return error
}

// `{ source, flags, matchBase }` for the native side, or undefined when picomatch refuses the
// glob (only for its length: the native side then refuses it with a RangeError).
function picomatchRegex(glob, options, caseInsensitive, index) {
  if (glob.length > MAX_GLOB_UNITS) {
    const error = new RangeError(`The value of "${index === undefined ? 'pattern' : `patterns[${index}]`}" is out of range. A glob must be at most ${MAX_GLOB_UNITS} characters long. Received ${glob.length} characters`)
    error.code = 'ERR_OUT_OF_RANGE'
    throw error
  }
  let groups = 0
  for (let i = 0; i < glob.length; i++) {
    const c = glob.charCodeAt(i)
    if (c === 0x28 || c === 0x5b || c === 0x7b) groups++
  }
  if (groups > MAX_GLOB_GROUPS) {
    throw invalidGlob(index ?? 0, glob, `a glob may hold at most ${MAX_GLOB_GROUPS} of '(', '[' and '{' together; this one has ${groups}`)
  }
  picomatch ??= require('picomatch/posix')
  let re
  try {
    re = picomatch.makeRe(glob, { ...options, nocase: caseInsensitive === true, windows: false })
  } catch {
    return undefined
  }
  return { source: re.source, flags: re.flags, matchBase: options.matchBase === true || options.basename === true }
}

function nativePatterns(patterns, options) {
  if (!Array.isArray(patterns) || patterns.length > MAX_PATTERNS) return patterns
  const defaults = options !== null && typeof options === 'object' ? options : {}
  const kind = defaults.kind
  if (kind !== 'glob' && !patterns.some((p) => isRegExp(p) || (p !== null && typeof p === 'object' && p.kind === 'glob'))) {
    return patterns
  }
  const matcherGlob = globOptions('options', defaults, {})
  return Array.from(patterns, (p, i) => {
    if (isRegExp(p)) return { pattern: `/${p.source}/${p.flags}`, kind: 'regex', syntax: 'js', caseInsensitive: false }
    if (typeof p === 'string' && kind === 'glob') {
      return { pattern: p, kind, caseInsensitive: defaults.caseInsensitive, picomatch: picomatchRegex(p, matcherGlob, defaults.caseInsensitive, i) }
    }
    if (p !== null && typeof p === 'object' && !Array.isArray(p) && typeof p.pattern === 'string') {
      const own = p.kind === undefined ? kind : p.kind
      if (own !== 'glob') return p
      const ci = p.caseInsensitive === undefined ? defaults.caseInsensitive : p.caseInsensitive
      const glob = globOptions(`patterns[${i}]`, p, matcherGlob)
      return { pattern: p.pattern, kind: own, caseInsensitive: ci, syntax: p.syntax, picomatch: picomatchRegex(p.pattern, glob, ci, i) }
    }
    return p
  })
}

// `isMatch` with `kind: 'glob'` takes picomatch's regex along in its options. picomatch's
// parse costs microseconds, so its answers are kept (as the native side keeps the compiled
// matchers): up to 1024 globs-with-options, all dropped when full.
const isMatchGlobs = new Map()
function isMatch(pattern, text, options) {
  if (typeof pattern === 'string' && options !== null && typeof options === 'object' && options.kind === 'glob') {
    const glob = globOptions('options', options, {})
    const ci = options.caseInsensitive
    const key = `${ci === true}\0${GLOB_OPTIONS.map((k) => glob[k] === true).join()}\0${pattern}`
    let picomatch = isMatchGlobs.get(key)
    if (picomatch === undefined) {
      picomatch = picomatchRegex(pattern, glob, ci)
      if (isMatchGlobs.size >= 1024) isMatchGlobs.clear()
      isMatchGlobs.set(key, picomatch)
    }
    options = { kind: 'glob', caseInsensitive: ci, picomatch }
  }
  return binding.isMatch(pattern, text, options)
}

module.exports = { nativePatterns, isMatch }
