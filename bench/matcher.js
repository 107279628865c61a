'use strict'
// Matcher on a real list of 1500 crawler user-agent patterns (npm `crawler-user-agents`),
// next to a JS union RegExp, a loop of JS RegExps, re2js's RE2Set (pure JS) and re2's RE2.Set
// (a native addon built for Node 22, in a child process there: bench/lib/re2set-child.js); then
// scanLines against split-and-test on a generated access log; a single literal against
// RegExp.test; a pathological regex; and the RegexSet limits, default against ours.
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { execFileSync, spawnSync } = require('node:child_process')
const crawlers = require('crawler-user-agents')
const UserAgent = require('user-agents')
const { Matcher } = require('..')
const { interleave, opsPerSecSync } = require('./lib/measure')
const { nodeFromNpm, re2For } = require('./lib/node')

const PATTERNS = crawlers.map((c) => c.pattern)

function texts () {
  const bots = crawlers.flatMap((c) => c.instances || [])
  const humans = []
  const seen = new Set()
  for (let i = 0; humans.length < bots.length && i < 50000; i++) {
    const ua = new UserAgent().toString()
    if (!seen.has(ua)) { seen.add(ua); humans.push(ua) }
  }
  return { bots, humans, all: bots.concat(humans) }
}

// re2's RE2.Set on Node 22 (re2 1.27 builds for it; its Set needs Node 22 or later), side by
// side with Matcher.test in a process of that Node; null where it cannot be built.
const RE2_NODE = ['22.23.5', '1.27.1']
function re2SetOnNode22 (t, ms, rounds, progress) {
  const exe = nodeFromNpm(RE2_NODE[0])
  progress(`match: re2 ${RE2_NODE[1]} for Node ${RE2_NODE[0]} (built once, about a minute)`)
  const re2 = exe && re2For(exe, RE2_NODE[0], RE2_NODE[1])
  if (!re2) return null
  const file = path.join(os.tmpdir(), `qr-native-re2set-${process.pid}.json`)
  fs.writeFileSync(file, JSON.stringify({ patterns: PATTERNS, mixes: { all: t.all, bots: t.bots, humans: t.humans } }))
  try {
    progress(`match: re2 RE2.Set and Matcher.test on Node ${RE2_NODE[0]}`)
    const r = spawnSync(exe, [path.join(__dirname, 'lib', 're2set-child.js'), file, re2, String(ms), String(rounds)], {
      encoding: 'utf8', env: { ...process.env, QR_NATIVE_ROOT: path.join(__dirname, '..') }
    })
    if (r.status !== 0) throw new Error(`bench match, re2 on Node ${RE2_NODE[0]}: ${r.stderr}`)
    return JSON.parse(r.stdout)
  } finally {
    fs.rmSync(file, { force: true })
  }
}

function loadRe2 () {
  try { return require('re2') } catch { return null }
}

// re2js's RE2Set over `patterns` (RE2 syntax, unanchored), or null when not installed;
// with the patterns it refused.
function re2jsSet (patterns) {
  let RE2Set
  try { ({ RE2Set } = require('re2js')) } catch { return null }
  const set = new RE2Set()
  const refused = []
  for (const p of patterns) {
    try { set.add(p) } catch { refused.push(p) }
  }
  set.compile()
  // (re2js exports no package.json.)
  const version = JSON.parse(fs.readFileSync(path.join(path.dirname(require.resolve('re2js')), '..', 'package.json'), 'utf8')).version
  return { set, refused, version }
}

/** ns per text for `fn` cycling over `list`. */
const nsPerText = (list, fn, ms) => () => {
  let i = 0
  return 1e9 / opsPerSecSync(() => fn(list[i++ % list.length]), ms)
}

function accessLog (mb, uas) {
  const lines = []
  let bytes = 0
  for (let i = 0; bytes < mb * 2 ** 20; i++) {
    const line = JSON.stringify({ t: 1764489600 + i, ip: `10.${i % 256}.${(i >> 8) % 256}.${i % 7}`, method: 'GET', path: `/p/${i % 5000}`, status: 200, ua: uas[(i * 7919) % uas.length] })
    lines.push(line)
    bytes += line.length + 1
  }
  return lines.join('\n') + '\n'
}

function pathologicalJs (quick) {
  const script = "const t0 = process.hrtime.bigint(); /(a+)+$/.test('a'.repeat(30) + '!'); console.log(Number(process.hrtime.bigint() - t0) / 1e6)"
  const limitMs = quick ? 5000 : 10000
  const r = spawnSync(process.execPath, ['-e', script], { timeout: limitMs, encoding: 'utf8' })
  return r.error || r.signal ? { ms: null, note: `killed after ${limitMs / 1000} s` } : { ms: Number(r.stdout.trim()) }
}

const LITERAL_SET_SIZES = [1, 2, 3, 5, 10, 16, 20, 50, 100, 300, 1500, 5000]

const escape = (s) => s.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&')

// Random draws from `seed`, and random lower-case letters. A 32-bit LCG in integer
// arithmetic: `seed * 1103515245` in doubles loses its low bits past 2^53, and that
// generator fell into a cycle of 10,466 draws (the texts and the literals of the large sets
// repeated each other, and every text held a literal).
function randomFrom (seed) {
  const rnd = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 4294967296
  const letters = (n) => Array.from({ length: n }, () => String.fromCharCode(97 + Math.floor(rnd() * 26))).join('')
  return { rnd, letters }
}

async function literalSets ({ quick, ms, rounds, progress }) {
  const { rnd, letters } = randomFrom(16)
  const out = {}
  for (const n of quick ? [1, 2, 5, 16, 50, 300] : LITERAL_SET_SIZES) {
    // The five sets' cases are measured in one interleaving, round after round: a burst of
    // machine noise then lands on every set alike, not on whichever set was being measured
    // (measured set after set, one of five sets of 16 once came out 1.9× faster than
    // another where the Rust side of all five took 61–99 ns).
    const cases = []
    for (let k = 0; k < 5; k++) {
      const literals = Array.from({ length: n }, () => letters(6 + Math.floor(rnd() * 5)))
      const texts = Array.from({ length: 1000 }, (_, i) => {
        const t = letters(100)
        if (i % 10) return t
        const l = literals[i % n]
        const at = Math.floor(rnd() * (100 - l.length))
        return t.slice(0, at) + l + t.slice(at + l.length)
      })
      const m = new Matcher(literals, { kind: 'contains' })
      const union = new RegExp(literals.map(escape).join('|'))
      cases.push(
        { name: `${k} Matcher.test`, run: nsPerText(texts, (s) => m.test(s), ms) },
        { name: `${k} union RegExp.test`, run: nsPerText(texts, (s) => union.test(s), ms) }
      )
      if (n <= 300) cases.push({ name: `${k} includes loop`, run: nsPerText(texts, (s) => literals.some((l) => s.includes(l)), ms) })
    }
    const measured = await interleave(cases, rounds, (p) => progress(`match literal sets N=${n} ${p}`))
    const per = (name) => [0, 1, 2, 3, 4].map((k) => measured[`${k} ${name}`]?.median).filter((v) => v !== undefined)
    out[n] = { matcher: per('Matcher.test'), union: per('union RegExp.test'), includes: per('includes loop') }
  }
  return out
}

// Three random literals on long texts (a tenth hold one), where Teddy's skip to the first
// byte a literal can start with matters (src/matcher/literal.rs) and where a string's copy
// into native costs more than the search: literals that start with '@', which the letters
// lack (one `memchr` pass each for `includes`), and literals of letters. `Matcher.test` on
// the string and on a Buffer of it, against a union RegExp and a loop of includes.
async function longTexts ({ quick, ms, rounds, progress }) {
  const { rnd, letters } = randomFrom(2024)
  const out = {}
  for (const length of quick ? [10000] : [1000, 10000, 100000]) {
    const cases = []
    for (const first of ['@', 'letters', 'accented']) {
      const literals = Array.from({ length: 3 }, () => (first === '@' ? '@' : '') + letters(6 + Math.floor(rnd() * 4)))
      // `accented`: an é in every 100 letters, a string V8 writes as UTF-8 a character at a
      // time (see "Reading a string" in docs/design/matcher.md).
      const text = first === 'accented' ? (n) => Array.from({ length: Math.ceil(n / 100) }, () => letters(99) + 'é').join('').slice(0, n) : letters
      const texts = Array.from({ length: 50 }, (_, i) => {
        const t = text(length)
        if (i % 10) return t
        const l = literals[i % 3]
        const at = Math.floor(rnd() * (length - l.length))
        return t.slice(0, at) + l + t.slice(at + l.length)
      })
      const buffers = texts.map((t) => Buffer.from(t))
      const m = new Matcher(literals, { kind: 'contains' })
      const union = new RegExp(literals.map(escape).join('|'))
      cases.push(
        { name: `${first} Matcher.test`, run: nsPerText(texts, (s) => m.test(s), ms) },
        { name: `${first} Matcher.test on a Buffer`, run: nsPerText(buffers, (b) => m.test(b), ms) },
        { name: `${first} union RegExp.test`, run: nsPerText(texts, (s) => union.test(s), ms) },
        { name: `${first} includes loop`, run: nsPerText(texts, (s) => literals.some((l) => s.includes(l)), ms) }
      )
    }
    out[length] = await interleave(cases, rounds, (p) => progress(`match long texts ${length} ${p}`))
  }
  return out
}

// One regex whose lazy DFA needs a state for every mix of 13 bits: random bits build a new
// state at nearly every byte. A 256-bit text, timed before and after one `test` of 4 MB of
// random bits (a request body an attacker controls). The regex engine's lazy DFA gives up on
// a cache it has cleared over and over, and kept it so for good: every later search ran its
// slowest engine (src/matcher/resetting_regex.rs).
function afterHostile (quick) {
  const source = '[^x][01]*1[01]{12}y'
  let seed = 7
  const bits = (n) => Array.from({ length: n }, () => {
    seed = (Math.imul(seed, 1103515245) + 12345) | 0
    return (seed >>> 16) & 1
  }).join('')
  const calm = bits(256)
  const hostile = bits(4 << 20)
  const m = new Matcher([source])
  const time = () => {
    const best = []
    for (let r = 0; r < (quick ? 3 : 7); r++) best.push(1e9 / opsPerSecSync(() => m.test(calm), quick ? 30 : 80))
    return Math.min(...best)
  }
  const before = time()
  const s0 = process.hrtime.bigint()
  m.test(hostile)
  const hostileMs = Number(process.hrtime.bigint() - s0) / 1e6
  return { source, before, hostileMs, after: time() }
}

async function run ({ quick, progress }) {
  const ms = quick ? 150 : 400
  const rounds = quick ? 3 : 7
  const t = texts()
  const m = new Matcher(PATTERNS)
  const union = new RegExp(PATTERNS.join('|'))
  const loop = PATTERNS.map((p) => new RegExp(p))
  const jsFirst = (s) => { for (let k = 0; k < loop.length; k++) if (loop[k].test(s)) return k; return -1 }
  const RE2 = loadRe2()
  const re2Set = RE2 && RE2.Set ? new RE2.Set(PATTERNS) : null
  const results = { patterns: PATTERNS.length, texts: { bots: t.bots.length, humans: t.humans.length }, perText: {}, re2: re2Set ? 'installed' : 'not installed' }
  // re2js answers as Matcher.test on every text, or the difference is reported.
  const re2js = re2jsSet(PATTERNS)
  if (re2js) {
    progress('match: re2js RE2Set on every text (its answers against Matcher.test)')
    results.re2js = { version: re2js.version, refused: re2js.refused.length, differ: t.all.filter((s) => (re2js.set.match(s).length > 0) !== m.test(s)).length }
  }

  for (const [mix, list] of [['all', t.all], ['bots', t.bots], ['humans', t.humans]]) {
    const cases = [
      { name: 'JS union RegExp.test', run: nsPerText(list, (s) => union.test(s), ms) },
      { name: 'JS loop of RegExp (first)', run: nsPerText(list, jsFirst, ms) },
      { name: 'Matcher.test', run: nsPerText(list, (s) => m.test(s), ms) },
      { name: 'Matcher.first', run: nsPerText(list, (s) => m.first(s), ms) },
      { name: 'Matcher.matches', run: nsPerText(list, (s) => m.matches(s), ms) },
      {
        name: 'Matcher.testMany (1000 a call)',
        run: () => {
          const batch = list.slice(0, 1000)
          return 1e9 / (opsPerSecSync(() => m.testMany(batch), ms) * batch.length)
        }
      }
    ]
    if (re2Set) cases.push({ name: 're2 RE2.Set.test', run: nsPerText(list, (s) => re2Set.test(s), ms) })
    if (re2js) cases.push({ name: 're2js RE2Set.match (pure JS)', run: nsPerText(list, (s) => re2js.set.match(s).length > 0, ms) })
    results.perText[mix] = await interleave(cases, rounds, (p) => progress(`match ${mix} ${p}`))
  }
  results.re2SetNode22 = re2SetOnNode22(t, ms, rounds, progress)

  // One pattern on a short string: where crossing into native costs most, relatively. A
  // one-literal matcher answers strings in JavaScript (index.js); on a Buffer, or for a
  // pattern that is not a literal, it crosses into native, shown here for comparison.
  const one = new Matcher(['bot'], { kind: 'contains' })
  const oneCi = new Matcher(['bot'], { kind: 'contains', caseInsensitive: true })
  const oneRegex = new Matcher(['[a-z]bot'])
  const [re, reCi, reRegex] = [/bot/, /bot/i, /[a-z]bot/]
  const bytes = t.all.map((s) => Buffer.from(s))
  results.singleLiteral = await interleave([
    { name: 'RegExp.test', run: nsPerText(t.all, (s) => re.test(s), ms) },
    { name: 'Matcher.test', run: nsPerText(t.all, (s) => one.test(s), ms) },
    { name: 'String.prototype.includes', run: nsPerText(t.all, (s) => s.includes('bot'), ms) },
    { name: 'RegExp.test /i', run: nsPerText(t.all, (s) => reCi.test(s), ms) },
    { name: 'Matcher.test caseInsensitive', run: nsPerText(t.all, (s) => oneCi.test(s), ms) },
    { name: 'Matcher.test on a Buffer (native)', run: nsPerText(bytes, (b) => one.test(b), ms) },
    { name: 'RegExp.test [a-z]bot', run: nsPerText(t.all, (s) => reRegex.test(s), ms) },
    { name: 'Matcher.test [a-z]bot (native)', run: nsPerText(t.all, (s) => oneRegex.test(s), ms) }
  ], rounds, (p) => progress(`match one pattern ${p}`))

  // isbot's own list (206 patterns, 7 with look-around or Annex B syntax) loaded as is,
  // against isbot() on the same agents.
  const { isbot, list: isbotList } = require('isbot')
  const isbotMatcher = new Matcher(isbotList, { caseInsensitive: true })
  const binding = require('../lib/load.js')
  const isbotHandle = binding.__matcherHandle.call(require('../lib/matcher.js').nativeOf(isbotMatcher))
  const napiRsTest = binding.__napiRsBoundTest
  results.isbot = { patterns: isbotList.length }
  for (const [mix, list] of [['bots', t.bots], ['humans', t.humans]]) {
    const batch = list.slice(0, 1000)
    results.isbot[mix] = await interleave([
      { name: 'isbot()', run: nsPerText(list, (s) => isbot(s), ms) },
      { name: 'Matcher(isbot.list).test', run: nsPerText(list, (s) => isbotMatcher.test(s), ms) },
      // The call alone: into native and back, with nothing to read or walk.
      { name: "Matcher(isbot.list).test(''), the call alone", run: nsPerText(list, () => isbotMatcher.test(''), ms) },
      // The same call through napi-rs's own #[napi] wrapper: what raw N-API saves (src/napi/matcher.rs).
      { name: "the call alone, through napi-rs's #[napi]", run: nsPerText(list, () => napiRsTest(isbotHandle, ''), ms) },
      { name: 'loop of isbot(), per text', run: () => 1e9 / (opsPerSecSync(() => batch.map(isbot), ms) * batch.length) },
      { name: 'Matcher(isbot.list).testMany, per text', run: () => 1e9 / (opsPerSecSync(() => isbotMatcher.testMany(batch), ms) * batch.length) }
    ], rounds, (p) => progress(`match isbot ${mix} ${p}`))
  }

  // N random 6–10-letter literals on 100-byte texts (a tenth hold one): Matcher.test against
  // what users write instead, a union RegExp of the escaped literals and a loop of includes;
  // five random sets per N (issue #16's table).
  // Seven rounds of 100 ms, not three of 150: one case's rounds spread ±25 % here (a set of
  // 50 took 192–350 ns in five rounds of one run), and a median of three kept enough of that
  // to make one set of five look 1.8× another.
  results.literalSets = await literalSets({ quick, ms: quick ? 60 : 100, rounds: quick ? 3 : 7, progress })
  results.longTexts = await longTexts({ quick, ms: quick ? 60 : 100, rounds: quick ? 3 : 7, progress })

  // 200 globs (picomatch's meaning) on 10,000 repository paths: picomatch's own compiled
  // matchers against one Matcher, with every answer compared first.
  const picomatch = require('picomatch/posix')
  const { globList, pathList } = require('./lib/globs')
  const globs = globList()
  const paths = pathList()
  let started = process.hrtime.bigint()
  const globMatcher = new Matcher(globs, { kind: 'glob' })
  const compileMs = Number(process.hrtime.bigint() - started) / 1e6
  started = process.hrtime.bigint()
  const picoAny = picomatch(globs)
  const picoEach = globs.map((g) => picomatch(g))
  const picoCompileMs = Number(process.hrtime.bigint() - started) / 1e6
  const firstOf = (p) => picoEach.findIndex((f) => f(p))
  const differences = paths.filter((p) => globMatcher.first(p) !== firstOf(p)).length
  const globBatch = paths.slice(0, 1000)
  results.globs = {
    globs: globs.length,
    paths: paths.length,
    matching: paths.filter((p) => picoAny(p)).length,
    differences,
    compileMs,
    picoCompileMs,
    perText: await interleave([
      { name: 'picomatch(globs) (any)', run: nsPerText(paths, (p) => picoAny(p), ms) },
      { name: 'Matcher(globs, glob).test', run: nsPerText(paths, (p) => globMatcher.test(p), ms) },
      { name: 'first matching glob: loop of picomatch matchers', run: nsPerText(paths, firstOf, ms) },
      { name: 'Matcher.first', run: nsPerText(paths, (p) => globMatcher.first(p), ms) },
      { name: 'Matcher.testMany, per text', run: () => 1e9 / (opsPerSecSync(() => globMatcher.testMany(globBatch), ms) * globBatch.length) }
    ], rounds, (p) => progress(`match globs ${p}`))
  }
  // Compile time of a glob of n `*` segments (`*/*/…/*`), best of 5: it doubled with each
  // segment until the automaton's alike states were made one (js_regex/lookahead.rs, `merged`).
  results.globs.segments = {}
  for (const n of [8, 16, 32, 64, 128, 256, 512]) {
    progress(`match globs: compile ${n} segments`)
    const glob = Array(n).fill('*').join('/')
    let best = Infinity
    for (let r = 0; r < 5; r++) {
      const s = process.hrtime.bigint()
      new Matcher([glob], { kind: 'glob' }).dispose()
      best = Math.min(best, Number(process.hrtime.bigint() - s) / 1e6)
    }
    results.globs.segments[n] = best
  }

  // scanLines on a generated ndjson access log.
  const mb = quick ? 20 : 100
  progress(`match generating a ${mb} MiB access log`)
  const log = Buffer.from(accessLog(mb, t.all))
  const jsScan = () => {
    const lines = log.toString('utf8').split('\n')
    if (lines[lines.length - 1] === '') lines.pop()
    const out = []
    for (let i = 0; i < lines.length; i++) if (union.test(lines[i])) out.push(i)
    return out
  }
  const timeOnce = async (fn) => { const s = performance.now(); const r = await fn(); return { ms: performance.now() - s, n: r.length } }
  const scan = { js: [], native: [], copy: [] }
  let agree = true
  for (let r = 0; r < (quick ? 2 : 3); r++) {
    progress(`match scanLines round ${r + 1}`)
    const a = await timeOnce(jsScan)
    const b = await timeOnce(() => m.scanLines(log))
    // The call copies the Buffer on the main thread before the scan (no pointer into
    // JavaScript memory reaches the threadpool): time a copy of the same bytes alone.
    const c = await timeOnce(() => Buffer.from(log))
    scan.js.push(a.ms)
    scan.native.push(b.ms)
    scan.copy.push(c.ms)
    agree = agree && a.n === b.n
  }
  results.scanLines = {
    mb,
    lines: log.toString('latin1').split('\n').length - 1,
    jsMs: Math.min(...scan.js),
    nativeMs: Math.min(...scan.native),
    copyMs: Math.min(...scan.copy),
    sameLines: agree
  }

  progress('match after a hostile text')
  results.afterHostile = afterHostile(quick)

  progress('match pathological regex')
  const patho = new Matcher(['(a+)+$'])
  const s0 = process.hrtime.bigint()
  patho.test('a'.repeat(30) + '!')
  results.pathological = { nativeUs: Number(process.hrtime.bigint() - s0) / 1e3, js: pathologicalJs(quick) }

  try {
    progress('match RegexSet limits (cargo run --example regexset_limits)')
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'qr-native-bench-'))
    fs.writeFileSync(path.join(dir, 'patterns.txt'), PATTERNS.join('\n'))
    fs.writeFileSync(path.join(dir, 'texts.txt'), t.all.join('\n'))
    const out = execFileSync('cargo', ['run', '--quiet', '--release', '--no-default-features', '--example', 'regexset_limits', '--',
      path.join(dir, 'patterns.txt'), path.join(dir, 'texts.txt')], { cwd: path.join(__dirname, '..'), encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] })
    results.regexSetLimits = JSON.parse(out.trim())
  } catch {
    results.regexSetLimits = null
  }
  return results
}

const med = (r, mix, name) => r.perText[mix][name].median

function goals (r) {
  const out = []
  const add = (goal, value, target, met) => out.push({ goal, value, target, met })
  const ratio = (mix, a, b) => med(r, mix, a) / med(r, mix, b)
  const t = ratio('all', 'JS union RegExp.test', 'Matcher.test')
  add('Matcher.test vs JS union RegExp (1500 patterns)', t, '≥ 15× (#16)', t >= 15)
  const f = ratio('all', 'JS loop of RegExp (first)', 'Matcher.first')
  add('Matcher.first vs JS loop of RegExp', f, '≥ 40× (#16)', f >= 40)
  const per = med(r, 'all', 'Matcher.test')
  add('Matcher.test ns per agent, 1500 patterns', per, '≤ 500 (#16)', per <= 500)
  const fb = ratio('bots', 'JS loop of RegExp (first)', 'Matcher.first')
  add('(for information) Matcher.first vs JS loop, bot agents only: the loop stops at the first hit', fb, '—', true)
  const tm = ratio('all', 'JS union RegExp.test', 'Matcher.testMany (1000 a call)')
  add('Matcher.testMany vs JS union, per text', tm, '≥ 8×', tm >= 8)
  const s = r.scanLines.jsMs / r.scanLines.nativeMs
  add(`scanLines vs JS split-and-test (${r.scanLines.mb} MiB log)`, s, '≥ 25×', s >= 25 && r.scanLines.sameLines)
  if (r.scanLines.copyMs !== undefined) {
    const share = r.scanLines.copyMs / r.scanLines.nativeMs
    add('(for information) scanLines: share of the call spent copying the Buffer at the edge', share, 'a few %', true)
  }
  const slower = (a, b) => r.singleLiteral[a].median / r.singleLiteral[b].median
  const one = slower('Matcher.test', 'RegExp.test')
  add('single literal: Matcher.test vs RegExp.test (times slower)', one, '≤ 5× slower', one <= 5)
  if (r.singleLiteral['Matcher.test [a-z]bot (native)']) {
    add('(for information) one regex, which crosses into native: Matcher.test vs RegExp.test (times slower)',
      slower('Matcher.test [a-z]bot (native)', 'RegExp.test [a-z]bot'), '—', true)
  }
  if (r.isbot) {
    for (const mix of ['bots', 'humans']) {
      const x = r.isbot[mix]
      const v = x['isbot()'].median / x['Matcher(isbot.list).test'].median
      add(`isbot's list: Matcher.test vs isbot(), ${mix === 'bots' ? 'bot' : 'browser'} agents`, v, '≥ 5× (#16)', v >= 5)
      const b = x['loop of isbot(), per text'].median / x['Matcher(isbot.list).testMany, per text'].median
      add(`isbot's list: testMany vs a loop of isbot(), ${mix === 'bots' ? 'bot' : 'browser'} agents`, b, '≥ 3×', b >= 3)
      const napiRs = x["the call alone, through napi-rs's #[napi]"]
      if (napiRs && mix === 'bots') {
        add("(for information) the call alone: napi-rs's #[napi] vs our raw N-API (times slower)",
          napiRs.median / x["Matcher(isbot.list).test(''), the call alone"].median, '—', true)
      }
    }
  }
  if (r.literalSets) {
    const med = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]
    let worst = Infinity
    let spread = 0
    for (const [n, x] of Object.entries(r.literalSets)) {
      const best = Math.min(med(x.union), x.includes.length ? med(x.includes) : Infinity)
      worst = Math.min(worst, best / med(x.matcher))
      spread = Math.max(spread, Math.max(...x.matcher) / Math.min(...x.matcher))
      if (+n >= 300) add(`N=${n} literals: Matcher.test vs union RegExp`, med(x.union) / med(x.matcher), '≥ 3×', med(x.union) / med(x.matcher) >= 3)
    }
    add('literal sets, every N: Matcher.test vs the faster of union and includes (worst N)', worst, '≥ 1× (never slower)', worst >= 1)
    add('literal sets: max/min Matcher.test over five random sets of one N (worst N)', spread, '≤ 1.5', spread <= 1.5)
  }
  if (r.globs) {
    const g = r.globs.perText
    const v = g['picomatch(globs) (any)'].median / g['Matcher(globs, glob).test'].median
    add(`${r.globs.globs} globs: Matcher.test vs picomatch's compiled matchers (0 differences)`, v, '≥ 5×', v >= 5 && r.globs.differences === 0)
    const f = g['first matching glob: loop of picomatch matchers'].median / g['Matcher.first'].median
    add(`${r.globs.globs} globs: Matcher.first vs a loop of picomatch matchers`, f, '≥ 5×', f >= 5)
    if (r.globs.segments) {
      // Linear: 8 times the segments, at most about 8 times the time (16× allows for noise).
      const k = r.globs.segments[512] / r.globs.segments[64]
      add('#65: compile time of a glob of 512 `*` segments ÷ 64 segments (linear: about 8)', k, '≤ 16', k <= 16)
    }
  }
  if (r.afterHostile) {
    const h = r.afterHostile
    add('one regex, after one hostile 4 MB text: test on a 256-byte text, after/before (times slower)', h.after / h.before, '≤ 1.5', h.after / h.before <= 1.5)
  }
  add('(a+)+$ on 30 a and !: Matcher µs (JS in a child process)', r.pathological.nativeUs, 'µs, JS seconds', r.pathological.nativeUs < 1000 && (r.pathological.js.ms === null || r.pathological.js.ms > 1000))
  return out
}

function report (r) {
  const names = Object.keys(r.perText.all)
  const cell = (s) => `${s.median.toFixed(0)} (${s.min.toFixed(0)}–${s.max.toFixed(0)})`
  const lines = [`### Matching: ${r.patterns} crawler patterns, ns per text (median of rounds; min–max)`, '',
    `Texts: ${r.texts.bots} bot agents (the list's own samples) and ${r.texts.humans} browser agents. re2: ${r.re2}.` +
      (r.re2js ? ` re2js ${r.re2js.version}: ${r.re2js.refused} patterns refused, ${r.re2js.differ} texts answered otherwise than Matcher.test.` : ''), '',
    '| | all texts | bots | browsers |', '|---|---|---|---|',
    ...names.map((n) => `| ${n} | ${['all', 'bots', 'humans'].map((mix) => r.perText[mix][n] ? cell(r.perText[mix][n]) : '–').join(' | ')} |`),
    ...(r.re2SetNode22
      ? ['', `re2 ${r.re2SetNode22.re2}'s RE2.Set (a native addon; its Set needs Node 22 or later) beside Matcher.test, in one process of Node ${r.re2SetNode22.node.slice(1)}, the same texts; ${r.re2SetNode22.differ} texts answered differently. ns per text:`, '',
          '| | all texts | bots | browsers |', '|---|---|---|---|',
          ...['Matcher.test', 're2 RE2.Set.test'].map((n) => `| ${n} | ${['all', 'bots', 'humans'].map((mix) => cell(r.re2SetNode22.perText[mix][n])).join(' | ')} |`),
          `| RE2.Set ÷ Matcher | ${['all', 'bots', 'humans'].map((mix) => (r.re2SetNode22.perText[mix]['re2 RE2.Set.test'].median / r.re2SetNode22.perText[mix]['Matcher.test'].median).toFixed(1) + '×').join(' | ')} |`]
      : []),
    '', 'One pattern on the same texts, ns per text (a one-literal matcher answers strings in JavaScript):', '',
    '| | ns per text |', '|---|---|', ...Object.entries(r.singleLiteral).map(([n, v]) => `| ${n} | ${cell(v)} |`),
    ...(r.isbot
      ? ['', `isbot's own list (${r.isbot.patterns} patterns, loaded as is, case-insensitive as isbot compiles it), ns per text:`, '',
          '| | bots | browsers |', '|---|---|---|',
          ...Object.keys(r.isbot.bots).map((n) => `| ${n} | ${cell(r.isbot.bots[n])} | ${cell(r.isbot.humans[n])} |`)]
      : []),
    ...(r.literalSets
      ? ['', 'N random 6–10-letter literals (`contains`) on 100-byte texts, a tenth holding one; ns per `test`, median over five random sets (min–max of the sets):', '',
          '| N | Matcher.test | union RegExp | includes loop | Matcher vs the faster |', '|---|---|---|---|---|',
          ...Object.entries(r.literalSets).map(([n, x]) => {
            const med = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]
            const span = (xs) => xs.length ? `${med(xs).toFixed(0)} (${Math.min(...xs).toFixed(0)}–${Math.max(...xs).toFixed(0)})` : '–'
            const best = Math.min(med(x.union), x.includes.length ? med(x.includes) : Infinity)
            return `| ${n} | ${span(x.matcher)} | ${span(x.union)} | ${span(x.includes)} | ${(best / med(x.matcher)).toFixed(2)}× |`
          })]
      : []),
    ...(r.longTexts
      ? ['', 'Three random literals (`contains`) on long texts of letters, a tenth holding one; literals that start with `@` (no text holds one), literals of letters, and literals of letters on texts with an é in every 100 letters; ns per `test` (median of rounds; min–max):', '',
          '| text length | first bytes | Matcher.test | Matcher.test on a Buffer | union RegExp | includes loop |', '|---|---|---|---|---|---|',
          ...Object.entries(r.longTexts).flatMap(([length, x]) => ['@', 'letters', 'accented'].filter((f) => x[`${f} Matcher.test`]).map((f) =>
            `| ${length} | ${f === '@' ? '`@`' : f === 'accented' ? 'letters, é in 100' : 'letters'} | ${['Matcher.test', 'Matcher.test on a Buffer', 'union RegExp.test', 'includes loop'].map((n) => cell(x[`${f} ${n}`])).join(' | ')} |`))]
      : []),
    ...(r.globs
      ? ['', `${r.globs.globs} globs (picomatch's meaning, \`bench/lib/globs.js\`) on ${r.globs.paths} repository paths (${r.globs.matching} match; ` +
          `${r.globs.differences} answers differ from picomatch's). Compile: Matcher ${r.globs.compileMs.toFixed(0)} ms, picomatch ${r.globs.picoCompileMs.toFixed(0)} ms. ns per path:`, '',
          '| | ns per path |', '|---|---|', ...Object.entries(r.globs.perText).map(([n, v]) => `| ${n} | ${cell(v)} |`),
          ...(r.globs.segments
            ? ['', 'A glob of n `*` segments (`*/*/…/*`), compile time in ms (best of 5):', '',
                `| n | ${Object.keys(r.globs.segments).join(' | ')} |`, `|---|${Object.keys(r.globs.segments).map(() => '---').join('|')}|`,
                `| ms | ${Object.values(r.globs.segments).map((v) => v.toFixed(1)).join(' | ')} |`]
            : [])]
      : []),
    '', `scanLines over a ${r.scanLines.mb} MiB ndjson access log (${r.scanLines.lines} lines): JS split + union test ${r.scanLines.jsMs.toFixed(0)} ms, ` +
      `Matcher.scanLines ${r.scanLines.nativeMs.toFixed(0)} ms (${(r.scanLines.jsMs / r.scanLines.nativeMs).toFixed(1)}×), same lines: ${r.scanLines.sameLines}` +
      (r.scanLines.copyMs === undefined ? '.' : `; a copy of the Buffer alone (what the call makes at the edge) takes ${r.scanLines.copyMs.toFixed(0)} ms.`),
    ...(r.afterHostile
      ? ['', `One regex \`${r.afterHostile.source}\`, \`test\` on 256 random bits: ${r.afterHostile.before.toFixed(0)} ns; one \`test\` of 4 MiB of random bits ` +
          `(a new lazy DFA state at nearly every byte) ${r.afterHostile.hostileMs.toFixed(0)} ms; the 256 bits again: ${r.afterHostile.after.toFixed(0)} ns.`]
      : []),
    '', `\`(a+)+$\` on 30 \`a\` and \`!\`: Matcher ${r.pathological.nativeUs.toFixed(1)} µs; JS RegExp ${r.pathological.js.ms === null ? r.pathological.js.note : (r.pathological.js.ms / 1000).toFixed(1) + ' s'}.`]
  if (r.regexSetLimits) {
    const l = r.regexSetLimits
    lines.push('', `RegexSet of all ${l.patterns} patterns as regexes, ns per text: is_match ${l.is_match_ns.default} with the crate's default limits, ` +
      `${l.is_match_ns.raised} with ours (${(l.is_match_ns.default / l.is_match_ns.raised).toFixed(1)}×); matches ${l.matches_ns.default} vs ${l.matches_ns.raised} ` +
      `(${(l.matches_ns.default / l.matches_ns.raised).toFixed(1)}×). The Matcher sends the ${l.patterns} patterns' literals to plain comparisons instead.`)
  }
  return lines.join('\n')
}

module.exports = { name: 'match', run, goals, report }
