'use strict'
// Patterns as the native side reads them: RegExp objects as `/source/flags`, globs turned
// into picomatch's RegExp, and `isMatch` with a glob.
const { isRegExp } = require('node:util').types
const binding = require('./load.js')
const { codeError } = require('./errors.js')

// A RegExp pattern brings its own source and flags, as the `/source/flags` string the native
// side reads (a RegExp's `source` escapes every '/'); the matcher's options do not apply to it.
//
// A glob means what picomatch means: picomatch itself turns it into a RegExp (its POSIX build,
// so '/' is the only separator unless `windows` says otherwise), and the native side compiles
// that regex (look-ahead and all) into one without look-around, adding what picomatch's
// matcher does around its regex: the glob itself, `matchBase`, `windows` (a '\' in the text
// is a '/') and `ignore` (src/matcher/glob.rs).
//
// Every picomatch option, per matcher or per pattern, is honoured or refused; none is
// ignored (docs/matcher.md, "Options"):
// - read by picomatch's parser: passed on to it, so they mean what they mean there;
const PARSE_OPTIONS = {
  boolean: ['bash', 'dot', 'fastpaths', 'keepQuotes', 'literalBrackets', 'nobrace', 'nobracket', 'noext', 'noextglob',
    'noglobstar', 'nonegate', 'noparen', 'posix', 'regex', 'strictBrackets', 'strictSlashes', 'unescape', 'debug',
    // read by picomatch's matcher as well, and so by the native side
    'matchBase', 'basename', 'windows',
    // picomatch's `scan` options, which its matcher does not read
    'tokens', 'parts', 'scanToEnd'],
  number: ['maxLength', 'maxExtglobRecursion'],
  function: ['expandRange'],
  string: ['flags']
}
// - `nocase` is picomatch's name for `caseInsensitive`; `ignore` (a glob or an array of them)
//   is honoured natively; `format` (a function of each text) and the callbacks `onMatch`,
//   `onResult` and `onIgnore` by lib/matcher.js, in a matcher's options when every pattern is
//   a glob (see `formatPlan`);
// - what a compiled matcher cannot do, refused with what to do instead.
const REFUSED_OPTIONS = {
  capture: 'a Matcher answers whether a glob matches, not its groups: use a regex pattern for groups',
  contains: 'a glob matches the whole text here, as picomatch\'s matcher does without it: use a regex pattern to search within a text',
  prepend: 'it is picomatch\'s internal option'
}
const OWN_OPTIONS = new Set(['kind', 'syntax', 'caseInsensitive', 'pattern'])
const TYPE_OF = new Map(Object.entries(PARSE_OPTIONS).flatMap(([type, keys]) => keys.map((k) => [k, type])))
const GLOB_OPTIONS = [...TYPE_OF.keys()]
const MAX_IGNORE_GLOBS = 256

// A list longer than the native limit goes as it is, to be refused by its length: a sparse
// array can claim 2^32 − 1 elements, and walking them would take minutes.
const MAX_PATTERNS = require('./limits.js').maxPatterns
let picomatch

// The glob options of `object` (a matcher's options, or a pattern object) over `defaults`:
// picomatch's options checked by type, `nocase` as `caseInsensitive`, `ignore` as a list.
function globOptions(name, object, defaults) {
  const out = { ...defaults }
  if (object === null || typeof object !== 'object') return out
  for (const key of Object.keys(object)) {
    const value = object[key]
    if (value === undefined || OWN_OPTIONS.has(key)) continue
    const type = TYPE_OF.get(key)
    if (type !== undefined) {
      if (typeof value !== type) {
        throw codeError(TypeError, 'ERR_INVALID_ARG_TYPE', `The "${name}.${key}" property must be of type ${type}. Received ${typeof value}`)
      }
      out[key] = value
    } else if (key === 'nocase') {
      if (typeof value !== 'boolean') {
        throw codeError(TypeError, 'ERR_INVALID_ARG_TYPE', `The "${name}.nocase" property must be of type boolean. Received ${typeof value}`)
      }
      if (typeof object.caseInsensitive === 'boolean' && object.caseInsensitive !== value) {
        throw codeError(TypeError, 'ERR_INVALID_ARG_VALUE', `The "${name}.nocase" property is picomatch's name for "${name}.caseInsensitive", and the two differ: give one of them`)
      }
      out.nocase = value
    } else if (PER_TEXT.includes(key)) {
      if (typeof value !== 'function') {
        throw codeError(TypeError, 'ERR_INVALID_ARG_TYPE', `The "${name}.${key}" property must be of type function. Received ${typeof value}`)
      }
      if (name !== 'options') {
        throw codeError(TypeError, 'ERR_INVALID_ARG_VALUE', `The "${name}.${key}" property is not supported on one pattern: it applies to every text a matcher reads, so give it in the matcher's options`)
      }
      out[key] = value
    } else if (key === 'ignore') {
      const list = typeof value === 'string' ? [value] : value
      // The length first: a sparse array may claim 2^32 − 1 elements.
      if (Array.isArray(list) && list.length > MAX_IGNORE_GLOBS) {
        throw codeError(RangeError, 'ERR_OUT_OF_RANGE', `The value of "${name}.ignore.length" is out of range. It must be <= ${MAX_IGNORE_GLOBS}. Received ${list.length}`)
      }
      if (!Array.isArray(list) || list.some((g) => typeof g !== 'string' || g === '')) {
        throw codeError(TypeError, 'ERR_INVALID_ARG_TYPE', `The "${name}.ignore" property must be a non-empty string or an array of them`)
      }
      out.ignore = list
    } else if (Object.hasOwn(REFUSED_OPTIONS, key)) {
      throw codeError(TypeError, 'ERR_INVALID_ARG_VALUE', `The "${name}.${key}" option of picomatch is not supported: ${REFUSED_OPTIONS[key]}`)
    } else {
      throw codeError(TypeError, 'ERR_INVALID_ARG_VALUE', `The "${name}.${key}" property is not an option of a glob. Its options are kind, caseInsensitive (or nocase), ignore and picomatch's ${GLOB_OPTIONS.join(', ')}`)
    }
  }
  return out
}

// picomatch's parser takes time quadratic in a glob's nesting (tens of seconds for 30,000
// nested braces): past these a glob is refused before picomatch reads it. Within them it
// takes a fraction of a second, and the native side's own limits (128 nested groups) still apply.
const MAX_GLOB_UNITS = 65536
const MAX_GLOB_GROUPS = 256

function invalidGlob(index, glob, why) {
  const shown = glob.slice(0, 60)
  const error = new SyntaxError(`Invalid pattern at index ${index} ('${shown}${shown.length < glob.length ? '…' : ''}'): ${why}`)
  error.code = 'ERR_INVALID_PATTERN'
  return error
}

// The globs' own limits, checked before picomatch reads a glob.
function checkGlob(glob, name, index) {
  if (glob === '') throw invalidGlob(index ?? 0, glob, 'a glob must not be empty')
  if (glob.length > MAX_GLOB_UNITS) {
    throw codeError(RangeError, 'ERR_OUT_OF_RANGE', `The value of "${name}" is out of range. A glob must be at most ${MAX_GLOB_UNITS} characters long. Received ${glob.length} characters`)
  }
  let groups = 0
  for (let i = 0; i < glob.length; i++) {
    const c = glob.charCodeAt(i)
    if (c === 0x28 || c === 0x5b || c === 0x7b) groups++
  }
  if (groups > MAX_GLOB_GROUPS) {
    throw invalidGlob(index ?? 0, glob, `a glob may hold at most ${MAX_GLOB_GROUPS} of '(', '[' and '{' together; this one has ${groups}`)
  }
}

// picomatch's RegExp for `glob`; what it throws (a `maxLength` exceeded, `strictBrackets`), as
// our errors.
function makeRe(glob, options, name, index) {
  checkGlob(glob, name, index)
  picomatch ??= require('picomatch/posix')
  try {
    return picomatch.makeRe(glob, options)
  } catch (e) {
    const message = String(e && e.message)
    if (/exceeds maximum allowed length/.test(message)) {
      throw codeError(RangeError, 'ERR_OUT_OF_RANGE', `The value of "${name}" is out of range. picomatch's maxLength is ${options.maxLength ?? 65536}: ${message}`)
    }
    throw invalidGlob(index ?? 0, glob, `picomatch refuses it: ${message}`)
  }
}

// `{ source, flags, matchBase, windows, ignore }` for the native side: what picomatch made of
// `glob` with `options` (src/matcher/glob.rs).
function picomatchRegex(glob, options, caseInsensitive, index) {
  const name = index === undefined ? 'pattern' : `patterns[${index}]`
  // What picomatch's matcher does around its regex is done natively or in lib/matcher.js.
  const parse = Object.fromEntries(Object.entries(options).filter(([k]) => k !== 'ignore' && !PER_TEXT.includes(k)))
  const opts = { ...parse, nocase: caseInsensitive === true, windows: options.windows === true }
  const { ignore } = options
  const re = makeRe(glob, opts, name, index)
  return {
    source: re.source,
    flags: re.flags,
    matchBase: options.matchBase === true || options.basename === true,
    windows: opts.windows,
    ignore: ignore === undefined
      ? undefined
      : ignore.map((g, i) => {
        const ig = makeRe(g, opts, `${name}.ignore[${i}]`, index)
        return { glob: g, source: ig.source, flags: ig.flags }
      })
  }
}

// `caseInsensitive`, or picomatch's `nocase`, of a pattern over its matcher's.
const caseOf = (own, defaults) => own.caseInsensitive ?? own.nocase ?? defaults.caseInsensitive ?? defaults.nocase

// A matcher's or a pattern's options when no glob reads them: a key that is not one of
// `own` is refused, never ignored (picomatch's options say so: they are for globs).
function checkKeys(name, object, own) {
  if (object === null || typeof object !== 'object' || isRegExp(object)) return
  for (const key of Object.keys(object)) {
    if (object[key] === undefined || own.has(key)) continue
    const globs = TYPE_OF.has(key) || key === 'nocase' || key === 'ignore' || PER_TEXT.includes(key)
    throw codeError(TypeError, 'ERR_INVALID_ARG_VALUE', globs
      ? `The "${name}.${key}" property is picomatch's, for globs, and ${name === 'options' ? 'this matcher has no glob pattern' : 'this pattern is not a glob'}`
      : `The "${name}.${key}" property is not an option of ${name === 'options' ? 'a matcher' : 'a pattern'}. Its options are ${[...own].join(', ')}, and picomatch's for globs`)
  }
}
const MATCHER_KEYS = new Set(['kind', 'syntax', 'caseInsensitive'])
const PATTERN_KEYS = new Set(['pattern', 'kind', 'syntax', 'caseInsensitive'])

function nativePatterns(patterns, options) {
  if (!Array.isArray(patterns) || patterns.length > MAX_PATTERNS) return patterns
  const defaults = options !== null && typeof options === 'object' ? options : {}
  const kind = defaults.kind
  if (kind !== 'glob' && !patterns.some((p) => isRegExp(p) || (p !== null && typeof p === 'object' && p.kind === 'glob'))) {
    checkKeys('options', defaults, MATCHER_KEYS)
    for (let i = 0; i < patterns.length; i++) {
      const p = patterns[i]
      if (p !== null && typeof p === 'object') checkKeys(`patterns[${i}]`, p, PATTERN_KEYS)
    }
    return patterns
  }
  const matcherGlob = globOptions('options', defaults, {})
  return Array.from(patterns, (p, i) => {
    if (isRegExp(p)) return { pattern: `/${p.source}/${p.flags}`, kind: 'regex', syntax: 'js', caseInsensitive: false }
    if (typeof p === 'string' && kind === 'glob') {
      const ci = caseOf({}, defaults)
      return { pattern: p, kind, caseInsensitive: ci, picomatch: picomatchRegex(p, matcherGlob, ci, i) }
    }
    if (p !== null && typeof p === 'object' && !Array.isArray(p) && typeof p.pattern === 'string') {
      const own = p.kind === undefined ? kind : p.kind
      if (own !== 'glob') {
        checkKeys(`patterns[${i}]`, p, PATTERN_KEYS)
        return p
      }
      const glob = globOptions(`patterns[${i}]`, p, matcherGlob)
      const ci = caseOf(p, defaults)
      return { pattern: p.pattern, kind: own, caseInsensitive: ci, syntax: p.syntax, picomatch: picomatchRegex(p.pattern, glob, ci, i) }
    }
    return p
  })
}

// A matcher with picomatch's `format`, or its callbacks (`onMatch`, `onResult`, `onIgnore`):
// every pattern a glob; what lib/matcher.js needs to answer as picomatch's matcher does
// (`formatted`). Undefined without them.
const PER_TEXT = ['format', 'onMatch', 'onResult', 'onIgnore']
function formatPlan(patterns, options) {
  if (options === null || typeof options !== 'object' || PER_TEXT.every((k) => options[k] === undefined)) return undefined
  const { format, onMatch, onResult, onIgnore, ignore, windows } = globOptions('options', options, {})
  const globs = []
  const matchBase = []
  const base = (o) => o.matchBase === true || o.basename === true
  const patternList = Array.isArray(patterns) ? patterns : []
  for (let i = 0; i < patternList.length; i++) {
    const p = patternList[i]
    const own = typeof p === 'string' ? options.kind : p !== null && typeof p === 'object' && !isRegExp(p) ? (p.kind ?? options.kind) : undefined
    const name = PER_TEXT.find((k) => options[k] !== undefined)
    if (own !== 'glob') {
      throw codeError(TypeError, 'ERR_INVALID_ARG_VALUE', `The "options.${name}" property is picomatch's, for globs: patterns[${i}] is not a glob`)
    }
    if (onIgnore !== undefined && typeof p === 'object' && p.ignore !== undefined) {
      throw codeError(TypeError, 'ERR_INVALID_ARG_VALUE', `The "options.onIgnore" property is not supported with an ignore of one pattern (patterns[${i}].ignore): give ignore in the matcher's options`)
    }
    globs.push(typeof p === 'string' ? p : p.pattern)
    matchBase.push(typeof p === 'string' ? base(options) : base({ matchBase: p.matchBase ?? options.matchBase, basename: p.basename ?? options.basename }))
  }
  // picomatch's test formats the text with `format`, else with `windows` makes each '\\' a '/'.
  const toPosixSlashes = (t) => t.replace(/\\/g, '/')
  return { format: format ?? (windows ? toPosixSlashes : undefined), onMatch, onResult, onIgnore: ignore === undefined ? undefined : onIgnore, windows: windows === true, globs, matchBase }
}

// What picomatch's matcher with `format` answers for each glob on `text`: `text` itself or
// `format(text)` equal to the glob, or its regex on `format(text)` (with `matchBase`: on the
// last segment of `text` itself). `nativeOn(s)` gives the indexes whose native language (the
// glob itself or its regex, less its ignore) holds on `s`: so glob i matches when that holds on
// `format(text)` (on `text` with matchBase), or the glob equals `text` (`format(text)` with
// matchBase). `{ output, found }`: the formatted text, the matching indexes ascending.
function formattedMatches(plan, text, nativeOn) {
  if (typeof text !== 'string') {
    throw codeError(TypeError, 'ERR_INVALID_ARG_TYPE', `The "text" argument must be of type string: this matcher reads texts as picomatch's format and callbacks do. Received ${text === null ? 'null' : typeof text}`)
  }
  const output = plan.format === undefined ? text : plan.format(text)
  if (typeof output !== 'string') {
    throw codeError(TypeError, 'ERR_INVALID_RETURN_VALUE', `Expected options.format to return a string. Received ${output === null ? 'null' : typeof output}`)
  }
  const onOut = new Set(nativeOn(output))
  const onRaw = output === text ? onOut : new Set(nativeOn(text))
  const found = []
  for (let i = 0; i < plan.globs.length; i++) {
    const base = plan.matchBase[i]
    if ((base ? onRaw : onOut).has(i) || plan.globs[i] === (base ? output : text)) found.push(i)
  }
  return { output, found }
}

// picomatch's callbacks for the globs tried on `text` (`answer` from `formattedMatches`), in
// its order: each glob until one matches (`all`: every glob, for `matches`), `onResult` for
// each, `onIgnore` for one its ignore refused (`ignoredOn(s)`: the indexes whose glob, less
// the ignore, holds), `onMatch` for one that matches. A result is `{ glob, posix, input,
// output, isMatch }` (picomatch's also has its parse state, regex and exec match).
function callbacks(plan, text, answer, all, ignoredOn) {
  if (plan.onMatch === undefined && plan.onResult === undefined && plan.onIgnore === undefined) return
  const found = new Set(answer.found)
  let bare
  for (let i = 0; i < plan.globs.length; i++) {
    const isMatch = found.has(i)
    const result = { glob: plan.globs[i], posix: plan.windows, input: text, output: answer.output, isMatch }
    if (plan.onIgnore !== undefined && !isMatch) {
      bare ??= new Set(formattedMatches(plan, text, ignoredOn).found)
      if (bare.has(i)) {
        plan.onResult?.({ ...result, isMatch: true })
        plan.onIgnore({ ...result, isMatch: false })
        continue
      }
    }
    plan.onResult?.(result)
    if (!isMatch) continue
    plan.onMatch?.(result)
    if (!all) return
  }
}

// `isMatch` with `kind: 'glob'` takes picomatch's regex along in its options. picomatch's
// parse costs microseconds, so its answers are kept (as the native side keeps the compiled
// matchers): up to 1024 globs-with-options, all dropped when full. Options with a function
// (`expandRange`) are not kept: the function may answer differently next time.
const isMatchGlobs = new Map()
function isMatch(pattern, text, options) {
  if (typeof pattern === 'string' && options !== null && typeof options === 'object' && options.kind === 'glob') {
    const glob = globOptions('options', options, {})
    const ci = caseOf(options, {})
    const key = glob.expandRange === undefined ? `${ci === true}\0${JSON.stringify(glob)}\0${pattern}` : undefined
    let picomatch = key === undefined ? undefined : isMatchGlobs.get(key)
    if (picomatch === undefined) {
      picomatch = picomatchRegex(pattern, glob, ci)
      if (isMatchGlobs.size >= 1024) isMatchGlobs.clear()
      if (key !== undefined) isMatchGlobs.set(key, picomatch)
    }
    const native = { kind: 'glob', caseInsensitive: ci, picomatch }
    if (PER_TEXT.some((k) => glob[k] !== undefined)) {
      const plan = formatPlan([pattern], options)
      const on = (opts) => (s) => binding.isMatch(pattern, s, opts) ? [0] : []
      const answer = formattedMatches(plan, text, on(native))
      if (plan.onIgnore !== undefined) {
        const bare = { ...native, picomatch: { ...picomatch, ignore: undefined } }
        callbacks(plan, text, answer, false, on(bare))
      } else {
        callbacks(plan, text, answer, false)
      }
      return answer.found.length > 0
    }
    options = native
  } else if (options !== null && typeof options === 'object') {
    checkKeys('options', options, MATCHER_KEYS)
  }
  return binding.isMatch(pattern, text, options)
}

module.exports = { nativePatterns, isMatch, formatPlan, formattedMatches, callbacks }
