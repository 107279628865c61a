'use strict'
const { rng } = require('./corpus')
// Random globs from a grammar of picomatch's features, and random paths to try them on.
// Shared by the agreement spec and the benchmark.

const pick = (r, xs) => xs[Math.floor(r() * xs.length)]

const WORDS = ['a', 'b', 'ab', 'x', 'A', 'src', 'lib', 'index', 'test', '1', '2', '10', 'é', '-', '_', '~', '@', '+', '$', ' ', ',']
const EXTS = ['js', 'ts', 'md', 'json', 'JS', 'd.ts']

function literal(r) {
  let s = pick(r, WORDS)
  if (r() < 0.3) s += '.' + pick(r, EXTS)
  if (r() < 0.1) s = '.' + s
  return s
}

// `inExt`: inside an extglob's body nothing repeats (no star, `**` or quantified extglob):
// picomatch's regex for a repeated body that itself repeats (`*(**(a))`) backtracks for
// minutes in V8 on some paths, and the reference must answer.
function item(r, depth, inExt) {
  const k = r()
  if (k < 0.28) return literal(r)
  if (k < 0.42) return inExt ? '?' : '*'
  if (k < 0.5) return '?'
  if (k < 0.58) return pick(r, ['[ab]', '[!a]', '[^a]', '[a-c]', '[[:digit:]]', '[[:alpha:]]', '[.]', '[a-z0-9]', '[[:upper:]x]', '[]a]'])
  if (k < 0.66) return inExt ? pick(r, ['.js', '.{js,ts}']) : pick(r, ['*.js', '*.{js,ts}', '*.' + pick(r, EXTS), '.*'])
  if (k < 0.76 && depth < 2) {
    const n = 1 + Math.floor(r() * 3)
    const alts = Array.from({ length: n }, () => segment(r, depth + 1, inExt))
    return '{' + alts.join(',') + (r() < 0.2 ? ',' : '') + '}'
  }
  if (k < 0.8) return pick(r, ['{1..3}', '{a..c}', '{0..9}'])
  if (k < 0.92 && depth < 2 && !inExt) {
    const n = 1 + Math.floor(r() * 2)
    const alts = Array.from({ length: n }, () => segment(r, depth + 1, true))
    return pick(r, ['@', '?', '+', '*', '!']) + '(' + alts.join('|') + ')'
  }
  return pick(r, ['\\*', '\\?', '\\[a]', 'a\\{b}'])
}

function segment(r, depth = 0, inExt = false) {
  const n = 1 + Math.floor(r() * 3)
  let s = ''
  for (let i = 0; i < n; i++) s += item(r, depth, inExt)
  return s
}

function glob(r) {
  const n = 1 + Math.floor(r() * 4)
  const segs = Array.from({ length: n }, () => (r() < 0.2 ? '**' : segment(r)))
  let g = segs.join('/')
  const k = r()
  if (k < 0.08) g = '!' + g
  else if (k < 0.12) g = './' + g
  else if (k < 0.15) g = '/' + g
  if (r() < 0.05) g += '/'
  return g
}

const PATH_WORDS = ['a', 'b', 'ab', 'x', 'A', 'src', 'lib', 'index', 'test', '1', '2', '10', 'é', 'ü', '😀', '-', '_', '.', '..', '.git', '.env', 'a.js', 'b.ts', 'x.md', 'a.d.ts', 'A.JS', 'c.json', '[ab]', '*', '{a,b}', 'a b', 'a\nb', '$', ',', '~', '@', '+']

function path(r) {
  const n = 1 + Math.floor(r() * 4)
  const segs = Array.from({ length: n }, () => {
    let s = pick(r, PATH_WORDS)
    if (r() < 0.3) s += pick(r, PATH_WORDS)
    return s
  })
  let p = segs.join('/')
  const k = r()
  if (k < 0.05) p = '/' + p
  else if (k < 0.1) p = './' + p
  else if (k < 0.13) p = p + '/'
  else if (k < 0.15) p = p.replace('/', '//')
  return p
}

// Paths made from a glob by filling its wildcards, so that many of them match.
function near(r, g) {
  return g
    .replace(/^!/, '')
    .replace(/\*\*/g, () => pick(r, ['', 'a', 'a/b', '.x', 'x/.y']))
    .replace(/\[[^\]]*\]|\{[^}]*\}|[*?]|[@?+*!]\([^)]*\)/g, () => pick(r, ['', 'a', 'b', '1', '.', 'js', 'é', '😀']))
    .replace(/\\/g, '')
}

module.exports = { rng, glob, path, near }
