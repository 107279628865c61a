'use strict'
// The figures of README.md and docs/: every one comes from bench/results/latest.json through
// this file, never typed by hand. A Markdown file marks a generated block as
//
//   <!-- bench:table PREFIX -->  the heading or paragraph of the bench's report that starts
//                                with PREFIX, with the table that follows it
//   <!-- bench:goals SUITE -->   the goals of one suite (or `all`), each measured and marked
//   <!-- bench:report -->        the whole report, every table and the goals
//   <!-- bench:measured -->      when, where and on what the figures were measured
//   <!-- bench:headline -->      the README's few headline goals (HEADLINE below)
//   ...
//   <!-- /bench -->
//
// `npm run bench` rewrites every block (`write`); `node support/docs.js` does it from the
// last results without measuring; __test__/docs.spec.js fails when a block differs from what
// this file renders, or when a figure stands outside a block.
const fs = require('node:fs')
const path = require('node:path')

const ROOT = path.join(__dirname, '..')
const { SUITES, suite } = require('../bench/suites')

/** Every Markdown file whose figures come from here. */
function files () {
  const out = [path.join(ROOT, 'README.md')]
  const walk = (dir) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name)
      if (e.isDirectory() && e.name !== 'api') walk(p)
      else if (e.name.endsWith('.md')) out.push(p)
    }
  }
  if (fs.existsSync(path.join(ROOT, 'docs'))) walk(path.join(ROOT, 'docs'))
  return out
}

/**
 * The bench's report as chunks: a heading or paragraph, any paragraphs after it, and the
 * table that follows them. A line after a table starts the next chunk.
 */
function chunks (results) {
  const out = []
  for (const name of Object.keys(SUITES).filter((n) => results.suites[n])) {
    const report = suite(name).report(results.suites[name])
    let current = null
    for (const line of report.split('\n')) {
      if (line.startsWith('|')) {
        if (current) {
          current.lines.push(line)
          current.table = true
        }
      } else if (line.trim() !== '') {
        const text = line.startsWith('#') ? `**${line.replace(/^#+\s*/, '')}**` : line
        if (!current || current.table) {
          current = { suite: name, titles: [], lines: [], table: false }
          out.push(current)
        }
        current.titles.push(line.replace(/^#+\s*/, ''))
        current.lines.push(text, '')
      }
    }
  }
  return out.map((c) => ({ ...c, text: c.lines.join('\n').trimEnd() }))
}

// The README's headline: one or two goals per family, by the start of their names.
const HEADLINE = [
  'generateSync vs qrcode, 44-char URL', 'generateSync vs qrcode, 500 chars', 'compat toBuffer vs qrcode',
  '#47: styled PNG vs qr-code-styling',
  'HTTP throughput, ours vs tier 0', '#17: ms per image, zxing-wasm', "#45: photos (zxing-cpp's samples), ms per image, zxing-wasm",
  '#45: photos, codes read', 'Matcher.test vs JS union RegExp (1500 patterns)', "isbot's list: Matcher.test vs isbot(), browser",
  '200 globs: Matcher.test vs picomatch', 'scanLines vs JS split-and-test', 'fs.readFile during a burst'
]

function headline (results) {
  const shown = (v) => (typeof v === 'number' ? v.toFixed(1) : v)
  const rows = HEADLINE.map((start) => {
    const g = results.goals.find((goal) => goal.goal.startsWith(start))
    if (!g) throw new Error(`bench headline: no goal starts with "${start}"`)
    return `| ${g.goal.replace(/^#\d+: /, '')} | ${shown(g.value)} | ${g.target} | ${g.met ? 'met' : '**not met**'} |`
  })
  return ['| measured side by side | result | goal | |', '|---|---|---|---|', ...rows].join('\n')
}

function goalsTable (results, suite) {
  const goals = results.goals.filter((g) => suite === 'all' || g.suite === suite)
  const shown = (v) => (typeof v === 'number' ? v.toFixed(v < 1 ? 3 : 1) : v)
  return ['| goal | measured | target | |', '|---|---|---|---|',
    ...goals.map((g) => `| ${g.goal} | ${shown(g.value)} | ${g.target} | ${g.met ? 'met' : '**not met**'} |`)].join('\n')
}

function measured (results) {
  const m = results.machine
  const when = Object.entries(results.measuredAt || {}).map(([s, d]) => `${s} ${d.slice(0, 10)}`).join(', ')
  return `Measured by \`npm run bench\` on ${m.cpus} × ${m.model} (${m.memGiB} GiB, ${m.platform}), Node ${results.versions.node}, qrcode ${results.versions.qrcode}; suites last run: ${when}.`
}

/** The text of one block, or an error naming the spec that matches nothing. */
function render (spec, results, all = chunks(results)) {
  const [kind, ...rest] = spec.split(' ')
  const arg = rest.join(' ')
  if (kind === 'measured') return measured(results)
  if (kind === 'headline') return headline(results)
  if (kind === 'goals') return goalsTable(results, arg || 'all')
  if (kind === 'report') return [measured(results), '', ...all.map((c) => c.text + '\n'), '**Goals**', '', goalsTable(results, 'all')].join('\n')
  if (kind === 'table') {
    const found = all.find((c) => c.titles.some((t) => t.startsWith(arg)))
    if (!found) throw new Error(`bench block "${spec}": no heading or paragraph of the report starts with "${arg}"`)
    return found.text
  }
  throw new Error(`bench block "${spec}": unknown kind (table, goals, report, measured, headline)`)
}

const BLOCK = /<!-- bench:([^>]*?) -->\n[\s\S]*?<!-- \/bench -->/g

/** `text` with every block rendered from `results`. */
function rewrite (text, results) {
  const all = chunks(results)
  return text.replace(BLOCK, (_, spec) => `<!-- bench:${spec} -->\n${render(spec, results, all)}\n<!-- /bench -->`)
}

/** Rewrites every block of every file; returns the files that changed. */
function write (results) {
  const changed = []
  for (const file of files()) {
    const text = fs.readFileSync(file, 'utf8')
    const next = rewrite(text, results)
    if (next !== text) {
      fs.writeFileSync(file, next)
      changed.push(path.relative(ROOT, file))
    }
  }
  return changed
}

module.exports = { files, rewrite, write, render, BLOCK }

if (require.main === module) {
  const results = JSON.parse(fs.readFileSync(path.join(ROOT, 'bench', 'results', 'latest.json'), 'utf8'))
  const changed = write(results)
  console.log(changed.length ? `rewrote ${changed.join(', ')}` : 'every bench block is up to date')
}
