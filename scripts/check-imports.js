'use strict'
// `node scripts/check-imports.js`: the Rust modules' imports point one way. Reads every
// `use` and every `super::…`/`crate::…` path in src/ (test modules left out), resolves each
// to the module file it names, and fails on a cycle, printing it. Layers, top to bottom:
// `napi` (the binding) → `qr`, `decode`, `matcher` (the cores) → `error`, `alloc`.
const fs = require('node:fs')
const path = require('node:path')

const SRC = process.argv[2] || path.join(__dirname, '..', 'src')

/** Every .rs file under src/, as its module path: ['matcher', 'js_regex', 'parse']. */
function modules () {
  const out = new Map()
  const walk = (dir, prefix) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name)
      if (entry.isDirectory()) walk(file, [...prefix, entry.name])
      else if (entry.name.endsWith('.rs')) {
        const stem = entry.name.slice(0, -3)
        const mod = stem === 'mod' || (stem === 'lib' && prefix.length === 0) ? prefix : [...prefix, stem]
        out.set(mod.join('::'), file)
      }
    }
  }
  walk(SRC, [])
  return out
}

/** The module a path names: the longest prefix of it that is a module file. */
function resolve (mods, segments) {
  for (let n = segments.length; n > 0; n--) {
    const key = segments.slice(0, n).join('::')
    if (mods.has(key)) return key
  }
  return ''
}

function edges (mods) {
  const graph = new Map()
  for (const [mod, file] of mods) {
    let text = fs.readFileSync(file, 'utf8')
    const tests = text.search(/#\[cfg\(test\)\]\s*mod tests/)
    if (tests !== -1) text = text.slice(0, tests)
    text = text.replace(/\/\/.*$/gm, '')
    const self = mod === '' ? [] : mod.split('::')
    const to = new Set()
    // An edge to another module; one to an ancestor (`super::item`) counts too, and cycles
    // inside one module's tree are dropped below.
    const add = (segments) => {
      const target = resolve(mods, segments)
      if (target !== mod) to.add(target)
    }
    // `use a::{b, c::{d}}` → each leaf path; `super::x::y` and `crate::x::y` anywhere.
    for (const m of text.matchAll(/\buse\s+([^;]+);/g)) {
      for (const leaf of expand(m[1].replace(/\s+/g, ''))) add(absolute(leaf, self))
    }
    for (const m of text.matchAll(/\b((?:crate|super)(?:::\w+)+)/g)) add(absolute(m[1], self))
    graph.set(mod, to)
  }
  return graph
}

function expand (tree) {
  const open = tree.indexOf('{')
  if (open === -1) return [tree.replace(/\bas\b.*$/, '')]
  const head = tree.slice(0, open)
  const body = tree.slice(open + 1, tree.lastIndexOf('}'))
  const parts = []
  let depth = 0
  let start = 0
  for (let i = 0; i < body.length; i++) {
    if (body[i] === '{') depth++
    else if (body[i] === '}') depth--
    else if (body[i] === ',' && depth === 0) { parts.push(body.slice(start, i)); start = i + 1 }
  }
  parts.push(body.slice(start))
  return parts.filter(Boolean).flatMap((p) => expand(p === 'self' ? head.replace(/::$/, '') : head + p))
}

/** A `use` path as segments from the crate root (an external crate's path matches no module). */
function absolute (p, here) {
  const segs = p.split('::').filter(Boolean)
  if (segs[0] === 'crate') return segs.slice(1)
  if (segs[0] === 'self') return [...here, ...segs.slice(1)]
  if (segs[0] === 'super') {
    let base = here
    let i = 0
    while (segs[i] === 'super') { base = base.slice(0, -1); i++ }
    return [...base, ...segs.slice(i)]
  }
  // A child module of this one (`use charset::CharSet` in js_regex/mod.rs), else external.
  return [...here, ...segs]
}

function cycles (graph) {
  const found = []
  const state = new Map()
  const stack = []
  const visit = (node) => {
    state.set(node, 'open')
    stack.push(node)
    for (const next of graph.get(node) || []) {
      if (state.get(next) === 'open') found.push([...stack.slice(stack.indexOf(next)), next])
      else if (!state.has(next)) visit(next)
    }
    stack.pop()
    state.set(node, 'done')
  }
  for (const node of graph.keys()) if (!state.has(node)) visit(node)
  return found
}

const mods = modules()
const graph = edges(mods)
// A parent module re-exporting its children, and children using the parent's items, is one
// module's inside: only cycles between siblings or across modules count.
const found = cycles(graph).filter((c) => !c.every((m) => c.every((n) => m === n || m.startsWith(n + '::') || n.startsWith(m + '::'))))
const name = (m) => m || 'lib'
if (found.length > 0) {
  for (const c of found) console.error(`import cycle: ${c.map(name).join(' → ')}`)
  process.exit(1)
}
console.log(`imports: ${mods.size} modules, ${[...graph.values()].reduce((n, s) => n + s.size, 0)} edges, no cycle`)
