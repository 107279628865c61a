'use strict'
// `npm run bench -- --only replace`: Matcher.replace, lines() and dispose, next to what a
// Node user reaches for instead, in one run.
//
// - replace: 2, 10, 100 and 1000 literals, and a redaction set of regexes, on 100 KB of real
//   English (the READMEs of this repository's dependencies, as installed), against V8's
//   `text.replace(union, …)` and modern-ahocorasick's `replace` (leftmost-first), the answers
//   checked equal first. Interleaved rounds; ops/s.
// - lines(): a generated JSON access log (real user agents from crawler-user-agents and
//   user-agents) through `fs.createReadStream(…).pipe(matcher.lines())`, against `readline`
//   with the patterns' RegExps and ripgrep on the same file and patterns (when installed),
//   the line numbers checked against scanLines; each run in a child process of its own, its
//   peak RSS read from the kernel.
// - dispose: a loop that makes matchers and never yields, with and without dispose, on Node
//   20 (this process's) and on Node 22 and 24 (from npm, as scripts/targets.js fetches
//   them), its RSS each second.
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { spawnSync } = require('node:child_process')
const { Matcher } = require('..')
const { interleave, opsPerSecSync } = require('./lib/measure')
const { nodeFromNpm } = require('./lib/node')

const ROOT = path.join(__dirname, '..')
const KB = 1024

/** 100 KB of real English: the READMEs of the installed dependencies, in name order. */
function realText (bytes) {
  const dir = path.join(ROOT, 'node_modules')
  let text = ''
  for (const name of fs.readdirSync(dir).sort()) {
    const file = path.join(dir, name, 'README.md')
    if (fs.existsSync(file)) text += fs.readFileSync(file, 'utf8') + '\n'
    if (text.length >= bytes) break
  }
  return text.slice(0, bytes)
}

/** The text's words of five letters or more, most frequent first. */
function vocabulary (text) {
  const freq = new Map()
  for (const w of text.match(/[A-Za-z]{5,}/g)) freq.set(w, (freq.get(w) || 0) + 1)
  return [...freq].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map((e) => e[0])
}

const escape = (s) => s.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&')

// What a log redaction would hide: e-mail addresses, IPv4 addresses, long hex tokens, URLs.
const REDACT = [/[\w.+-]+@[\w-]+\.[\w.]+/i, /\b\d{1,3}(?:\.\d{1,3}){3}\b/i, /\b[0-9a-f]{24,}\b/i, /https?:\/\/[^\s)>\]]+/i]

async function replaceSuite ({ ms, rounds, progress }) {
  const AhoCorasick = require('modern-ahocorasick')
  const text = realText(100 * KB)
  const words = vocabulary(text)
  const out = { textBytes: Buffer.byteLength(text), sets: {} }
  const sets = [2, 10, 100, 1000].map((n) => {
    const step = Math.floor(words.length / n)
    return { name: `${n} literals`, literals: Array.from({ length: n }, (_, i) => words[i * step]) }
  })
  sets.push({ name: 'redaction regexes (e-mail, IPv4, hex token, URL)', regexes: REDACT })
  for (const set of sets) {
    const m = set.literals ? new Matcher(set.literals, { kind: 'contains' }) : new Matcher(set.regexes)
    const union = new RegExp((set.literals ? set.literals.map(escape) : set.regexes.map((r) => r.source)).join('|'), set.literals ? 'g' : 'gi')
    const r = '[redacted]'
    const ours = m.replace(text, r)
    if (ours !== text.replace(union, r)) throw new Error(`bench replace, ${set.name}: our answer differs from V8's`)
    const cases = [
      { name: 'V8 text.replace(union)', run: () => opsPerSecSync(() => text.replace(union, r), ms) },
      { name: 'Matcher.replace', run: () => opsPerSecSync(() => m.replace(text, r), ms) }
    ]
    const ops = await interleave(cases, rounds, (p) => progress(`replace ${set.name}: ${p}`))
    if (set.literals) {
      // Its replace takes seconds on 100 KB (its time grows with the square of the text's
      // length here: 22 ms on 10 KB, 148 on 30 KB): one timed call, checked.
      progress(`replace ${set.name}: modern-ahocorasick (seconds)`)
      const ac = new AhoCorasick(set.literals)
      const t = performance.now()
      const theirs = ac.replace(text, r, { strategy: 'leftmost-first' })
      const once = 1000 / (performance.now() - t)
      if (theirs !== ours) throw new Error(`bench replace, ${set.name}: modern-ahocorasick's answer differs`)
      ops['modern-ahocorasick replace'] = { min: once, median: once, max: once, n: 1 }
    }
    out.sets[set.name] = { matches: m.findAll(text).length, ops }
  }
  return out
}

/** A JSON access log of `mb` MiB at `file`, one request a line, real user agents. */
function writeLog (file, mb) {
  const crawlers = require('crawler-user-agents')
  const UserAgent = require('user-agents')
  const uas = crawlers.flatMap((c) => c.instances || [])
  for (let i = 0; uas.length < 4000; i++) uas.push(new UserAgent().toString())
  const fd = fs.openSync(file, 'w')
  let bytes = 0
  for (let i = 0; bytes < mb * 2 ** 20;) {
    const lines = []
    for (let k = 0; k < 10000; k++, i++) {
      lines.push(JSON.stringify({ t: 1764489600 + i, ip: `10.${i % 256}.${(i >> 8) % 256}.${i % 7}`, method: 'GET', path: `/p/${i % 5000}`, status: i % 97 === 0 ? 500 : 200, ua: uas[(i * 7919) % uas.length] }))
    }
    const chunk = lines.join('\n') + '\n'
    fs.writeSync(fd, chunk)
    bytes += chunk.length
  }
  fs.closeSync(fd)
}

// The patterns grep'd for (bench/lib/lines-child.js has them as a Matcher's): two crawler
// names, errors, curl of any version (case-insensitive), one more bot. Regexes all, as
// ripgrep joins them: `-F` would take the curl one literally too.
const RG_ARGS = ['-e', 'Googlebot', '-e', 'bingbot', '-e', '"status":500', '-e', 'AhrefsBot', '-e', '(?i)curl/\\d+']

/** One way of grepping `file` in a child process: its ms, peak RSS and the line numbers' digest. */
function grepOnce (way, file) {
  const child = path.join(__dirname, 'lib', 'lines-child.js')
  const r = spawnSync(process.execPath, [child, way, file], { encoding: 'utf8', maxBuffer: 1 << 26 })
  if (r.status !== 0) throw new Error(`bench lines, ${way}: ${r.stderr}`)
  return JSON.parse(r.stdout)
}

/** ripgrep on the same file and patterns, when installed: ms of its fastest of `rounds`. */
function ripgrep (file, rounds) {
  const rg = spawnSync('rg', ['--version'], { encoding: 'utf8' })
  if (rg.status !== 0) return null
  const times = []
  let lines = 0
  for (let i = 0; i < rounds; i++) {
    const t = performance.now()
    const r = spawnSync('rg', [...RG_ARGS, '--no-filename', '-c', file], { encoding: 'utf8' })
    times.push(performance.now() - t)
    lines = Number(r.stdout.trim())
  }
  return { ms: Math.min(...times), msMedian: times.sort((a, b) => a - b)[times.length >> 1], lines, version: rg.stdout.split('\n')[0] }
}

async function linesSuite ({ quick, progress }) {
  const mb = quick ? 64 : 1024
  const file = path.join(os.tmpdir(), `qr-native-bench-log-${mb}.jsonl`)
  if (!fs.existsSync(file) || fs.statSync(file).size < mb * 2 ** 20) {
    progress(`lines: writing a ${mb} MiB log`)
    writeLog(file, mb)
  }
  const rounds = quick ? 1 : 3
  const ways = ['lines', 'readline', 'scanLines']
  const runs = Object.fromEntries(ways.map((w) => [w, []]))
  for (let r = 0; r < rounds; r++) {
    for (const w of ways) {
      if (w === 'scanLines' && mb > 512) continue // one Buffer of the whole file: 2 GiB at most
      progress(`lines round ${r + 1}/${rounds}: ${w}`)
      runs[w].push(grepOnce(w, file))
    }
  }
  const digests = new Set(Object.values(runs).flat().map((x) => x.digest))
  if (digests.size !== 1) throw new Error('bench lines: the ways found different line numbers')
  const best = (list) => list.length ? { ms: Math.min(...list.map((x) => x.ms)), rssMB: Math.max(...list.map((x) => x.rssMB)), lines: list[0].lines } : null
  const rg = ripgrep(file, Math.max(3, rounds))
  if (rg && rg.lines !== runs.lines[0].lines) throw new Error(`bench lines: ripgrep found ${rg.lines} lines, lines() ${runs.lines[0].lines}`)
  return { mb, bytes: fs.statSync(file).size, ways: Object.fromEntries(ways.map((w) => [w, best(runs[w])])), ripgrep: rg }
}

const NODES = { 22: '22.23.5', 24: '24.22.3' }

// The same patterns each time (which matchers share: src/runtime/shared.rs), with and without
// dispose, and new patterns each time without it (which nothing shares).
const MODES = ['same patterns, no dispose', 'same patterns, dispose', 'new patterns, no dispose', 'new patterns, dispose']

function disposeSuite ({ quick, progress }) {
  const seconds = quick ? 6 : 12
  const child = path.join(__dirname, 'lib', 'dispose-child.js')
  const out = {}
  const nodes = [[process.version, process.execPath], ...Object.values(NODES).map((v) => [`v${v}`, nodeFromNpm(v)])]
  for (const [version, exe] of nodes) {
    if (!exe) continue
    for (const mode of MODES) {
      progress(`dispose: Node ${version}, ${mode}`)
      const r = spawnSync(exe, [child, mode, String(seconds)], { encoding: 'utf8', env: { ...process.env, QR_NATIVE_ROOT: ROOT } })
      if (r.status !== 0) throw new Error(`bench dispose, Node ${version}: ${r.stderr}`)
      out[`${version}, ${mode}`] = JSON.parse(r.stdout)
    }
  }
  return out
}

async function run ({ quick, progress }) {
  const ms = quick ? 150 : 400
  const rounds = quick ? 3 : 5
  return {
    replace: await replaceSuite({ ms, rounds, progress }),
    lines: await linesSuite({ quick, progress }),
    dispose: disposeSuite({ quick, progress }),
    versions: { 'modern-ahocorasick': require('modern-ahocorasick/package.json').version }
  }
}

const ratio = (ops, ours, peer) => ops[ours].median / ops[peer].median

function goals (r) {
  const out = []
  const k = r.replace.sets['1000 literals']
  if (k) {
    out.push({ goal: '#48: replace, 1000 literals on 100 KB vs V8 union replace', value: ratio(k.ops, 'Matcher.replace', 'V8 text.replace(union)'), target: '≥ 10×', met: ratio(k.ops, 'Matcher.replace', 'V8 text.replace(union)') >= 10 })
    out.push({ goal: '#48: replace, 1000 literals on 100 KB vs modern-ahocorasick replace', value: ratio(k.ops, 'Matcher.replace', 'modern-ahocorasick replace'), target: '≥ 10×', met: ratio(k.ops, 'Matcher.replace', 'modern-ahocorasick replace') >= 10 })
  }
  const w = r.lines.ways
  if (w.lines && w.readline) {
    const v = w.readline.ms / w.lines.ms
    out.push({ goal: `#48: lines() on a ${r.lines.mb} MiB log vs readline + RegExp`, value: v, target: '≥ 10×', met: v >= 10 })
  }
  if (w.lines && r.lines.ripgrep) {
    const v = w.lines.ms / r.lines.ripgrep.ms
    out.push({ goal: `#48: lines() on a ${r.lines.mb} MiB log, time vs ripgrep`, value: v, target: '≤ 2×', met: v <= 2 })
  }
  const flat = Object.entries(r.dispose).filter(([k]) => k.endsWith(', dispose'))
  if (flat.length) {
    const worst = Math.max(...flat.map(([, d]) => d.growthMB))
    out.push({ goal: '#48: matchers made and disposed without yielding, RSS growth from the third second', value: worst, target: '< 20 MB', met: worst < 20 })
  }
  // #65: the same patterns without dispose, from the fourth second: 20 MB on Node 22 and
  // later, 50 MB on Node 20.
  for (const [name, d] of Object.entries(r.dispose)) {
    if (!name.endsWith('same patterns, no dispose') || d.rssMB.length < 5) continue
    const growth = Math.max(...d.rssMB.slice(3)) - d.rssMB[3]
    const bound = name.startsWith('v20.') ? 50 : 20
    out.push({ goal: `#65: ${name.split(',')[0]}, the same patterns without dispose, never yielding: RSS growth from the fourth second`, value: growth, target: `< ${bound} MB`, met: growth < bound })
  }
  return out
}

function report (r) {
  // Two significant digits below 1 op/s (modern-ahocorasick's replace takes seconds).
  const num = (x) => x < 1 ? x.toPrecision(2) : x.toFixed(x < 100 ? 1 : 0)
  const cell = (s) => s.n === 1 ? num(s.median) : `${num(s.median)} (${num(s.min)}–${num(s.max)})`
  const lines = [`### Matcher.replace on ${Math.round(r.replace.textBytes / KB)} KB of real English, next to V8's union replace and modern-ahocorasick ${r.versions['modern-ahocorasick']} (leftmost-first, one timed call: it takes seconds), the same answers (ops/s)`, '',
    '| patterns | matches | V8 union replace | modern-ahocorasick | Matcher.replace | vs the faster peer |', '|---|---|---|---|---|---|']
  for (const [name, s] of Object.entries(r.replace.sets)) {
    const v8 = s.ops['V8 text.replace(union)']
    const ac = s.ops['modern-ahocorasick replace']
    const faster = ac && ac.median > v8.median ? 'modern-ahocorasick replace' : 'V8 text.replace(union)'
    lines.push(`| ${name} | ${s.matches} | ${cell(v8)} | ${ac ? cell(ac) : '—'} | ${cell(s.ops['Matcher.replace'])} | ${ratio(s.ops, 'Matcher.replace', faster).toFixed(1)}× |`)
  }
  const l = r.lines
  lines.push('', `### lines() on a ${l.mb} MiB JSON access log (${l.ways.lines.lines} matching lines), best of the rounds, each way in a process of its own`, '',
    '| way | ms | MB/s | peak RSS (MB) |', '|---|---|---|---|')
  const mbps = (ms) => (l.bytes / 2 ** 20 / (ms / 1000)).toFixed(0)
  for (const [name, w] of Object.entries(l.ways)) {
    if (!w) continue
    const label = { lines: 'fs.createReadStream → matcher.lines()', readline: 'readline + the patterns\' RegExps', scanLines: 'fs.readFileSync → scanLines' }[name]
    lines.push(`| ${label} | ${w.ms.toFixed(0)} | ${mbps(w.ms)} | ${w.rssMB.toFixed(0)} |`)
  }
  if (l.ripgrep) lines.push(`| ${l.ripgrep.version} (rg -c, same patterns) | ${l.ripgrep.ms.toFixed(0)} | ${mbps(l.ripgrep.ms)} | |`)
  lines.push('', '### A loop that makes matchers and never yields to the event loop: RSS (MB) each second', '',
    '| Node, way | matchers made | RSS each second | growth from the third second |', '|---|---|---|---|')
  for (const [name, d] of Object.entries(r.dispose)) lines.push(`| ${name} | ${d.made} | ${d.rssMB.map((x) => x.toFixed(0)).join(', ')} | ${d.growthMB.toFixed(1)} |`)
  return lines.join('\n')
}

module.exports = { name: 'replace', run, goals, report }
