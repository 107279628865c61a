'use strict'
// CONTRIBUTING.md's file map, generated from each source file's own header: the first
// sentence of a Rust file's `//!` lines, or of the `//` comment that opens a JS file. A map
// typed by hand went stale as files were added; this one cannot.
//
//   node scripts/layout.js           rewrite the block between <!-- layout --> and <!-- /layout -->
//   node scripts/layout.js --check   exit 1 when the block is not what the headers say (lint)
const fs = require('node:fs')
const path = require('node:path')

const ROOT = path.join(__dirname, '..')
const FILE = path.join(ROOT, 'CONTRIBUTING.md')
/** The folders mapped, file by file. */
const DIRS = ['src', 'lib', 'scripts', 'support', 'fuzz/fuzz_targets']
const ENTRIES = ['index.js', 'compat.js', 'styling.js', 'bin/qr-native.js']

function files (dir) {
  const out = []
  for (const e of fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    const rel = `${dir}/${e.name}`
    if (e.isDirectory()) out.push(...files(rel))
    else if (/\.(rs|js)$/.test(e.name)) out.push(rel)
  }
  return out
}

/** The header's first sentence, on one line; null when the file has none. */
function summary (rel) {
  const lines = fs.readFileSync(path.join(ROOT, rel), 'utf8').split('\n')
  const rust = rel.endsWith('.rs')
  const head = []
  for (const line of lines) {
    if (!rust && (line === "'use strict'" || line.startsWith('#!') || (head.length === 0 && line.trim() === ''))) continue
    const m = rust ? /^\/\/!\s?(.*)$/.exec(line) : /^\/\/\s?(.*)$/.exec(line)
    if (!m || (m[1].trim() === '' && head.length)) break
    if (m[1].trim()) head.push(m[1].trim())
  }
  if (!head.length) return null
  const text = head.join(' ')
  // The first sentence: up to a full stop that ends a word and is followed by a space.
  const end = text.search(/(?<=[a-z)`'"])[.](\s|$)/)
  return (end > 0 ? text.slice(0, end + 1) : text).replace(/\|/g, '\\|')
}

function render () {
  const rows = []
  const missing = []
  for (const rel of [...ENTRIES, ...DIRS.flatMap(files)]) {
    const s = summary(rel)
    if (s === null) missing.push(rel)
    rows.push(`| \`${rel}\` | ${s ?? ''} |`)
  }
  return { block: ['| file | what it is (its header\'s first sentence) |', '|---|---|', ...rows].join('\n'), missing }
}

function check () {
  const text = fs.readFileSync(FILE, 'utf8')
  const m = /<!-- layout -->\n([\s\S]*?)\n<!-- \/layout -->/.exec(text)
  const { block, missing } = render()
  return { text, current: m && m[1], block, missing }
}

if (require.main === module) {
  const { text, current, block, missing } = check()
  if (current === null) { console.error('CONTRIBUTING.md has no <!-- layout --> block'); process.exit(1) }
  if (missing.length) console.error(`files without a header: ${missing.join(', ')}`)
  if (process.argv.includes('--check')) {
    if (current !== block) console.error('CONTRIBUTING.md\'s layout is stale: run `node scripts/layout.js`')
    console.log(`layout: ${block.split('\n').length - 2} files`)
    process.exit(current !== block || missing.length ? 1 : 0)
  }
  fs.writeFileSync(FILE, text.replace(current, () => block))
  console.log(`layout: ${block.split('\n').length - 2} files written to CONTRIBUTING.md`)
}

module.exports = { check }
