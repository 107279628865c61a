'use strict'
// The docs as a user reads them: every `js` block of README.md, docs/ and CONTRIBUTING.md runs
// (a block under `<!-- example: FILE -->` must be FILE word for word; readme.spec.js serves
// those over HTTP), every `sh` block names scripts and files that exist and its `npx qr-native`
// commands run, every figure comes from the bench (support/docs.js renders each
// `<!-- bench:… -->` block from bench/results/latest.json), and the README stays short.
const { test } = require('node:test')
const assert = require('node:assert/strict')
const fs = require('node:fs')
const path = require('node:path')
const os = require('node:os')
const { execFileSync, spawnSync } = require('node:child_process')
const docs = require('../support/docs')

const ROOT = path.join(__dirname, '..')
const FILES = [...docs.files(), path.join(ROOT, 'CONTRIBUTING.md'), path.join(ROOT, 'CHANGELOG.md')]
const rel = (f) => path.relative(ROOT, f)
const results = JSON.parse(fs.readFileSync(path.join(ROOT, 'bench', 'results', 'latest.json'), 'utf8'))

/** Each js block of a Markdown text: { code, example, line }. */
function jsBlocks (text) {
  return [...text.matchAll(/(?:<!-- example: (\S+) -->\n)?```js\n([\s\S]*?)```/g)]
    .map((m) => ({ example: m[1], code: m[2], line: text.slice(0, m.index).split('\n').length }))
}

test('the README is at most 350 lines and links only to files that exist', () => {
  const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8')
  assert.ok(readme.split('\n').length <= 351, `README.md has ${readme.split('\n').length} lines`)
  for (const file of FILES) {
    const text = fs.readFileSync(file, 'utf8')
    for (const [, link] of text.matchAll(/\]\(([^)#:]+)(?:#[^)]*)?\)/g)) {
      assert.ok(fs.existsSync(path.join(path.dirname(file), link)), `${rel(file)} links to ${link}, which does not exist`)
    }
  }
})

test('every bench block is what the bench renders from bench/results/latest.json', () => {
  let blocks = 0
  for (const file of docs.files()) {
    const text = fs.readFileSync(file, 'utf8')
    blocks += [...text.matchAll(docs.BLOCK)].length
    assert.equal(text, docs.rewrite(text, results), `${rel(file)}: a figure differs from the bench's; run \`node support/docs.js\``)
  }
  assert.ok(blocks >= 10, `${blocks} bench blocks`)
})

// A performance figure: a number with a time unit, a rate, or a ratio (`12×`).
const FIGURE = /\b\d[\d,.]*\s?(?:×(?!\s?\d)|ns\b|µs\b|ms\b|ops\/s|req\/s|MB\/s|GB\/s)/

test('no performance figure outside a bench block', () => {
  for (const file of FILES.filter((f) => fs.existsSync(f))) {
    const text = fs.readFileSync(file, 'utf8').replace(docs.BLOCK, '').replace(/```[\s\S]*?```/g, '')
    text.split('\n').forEach((line, i) => {
      const m = FIGURE.exec(line)
      assert.ok(!m, `${rel(file)}:${i + 1}: "${m && m[0]}" is a figure the bench did not write: ${line.trim().slice(0, 100)}`)
    })
  }
})

test('every js block in the docs runs', () => {
  const dir = fs.mkdtempSync(path.join(ROOT, '.docs-blocks-'))
  try {
    let ran = 0
    for (const file of FILES.filter((f) => fs.existsSync(f))) {
      for (const block of jsBlocks(fs.readFileSync(file, 'utf8'))) {
        const where = `${rel(file)}:${block.line}`
        if (block.example) {
          assert.equal(block.code, fs.readFileSync(path.join(ROOT, block.example), 'utf8'), `${where}: not ${block.example} word for word`)
          continue
        }
        // Inside the package folder, so that `require('qr-native')` is the package itself;
        // wrapped in an async function for `await`. An app that listens is not run here.
        const script = path.join(dir, `block-${ran}.js`)
        fs.writeFileSync(script, `'use strict'\n;(async () => {\n${block.code}\n})().catch((e) => { console.error(e); process.exit(1) })\n`)
        try {
          execFileSync(process.execPath, [script], { cwd: ROOT, encoding: 'utf8', stdio: 'pipe', timeout: 60000 })
        } catch (e) {
          assert.fail(`${where}: the block fails: ${String(e.stderr || e.message).slice(0, 600)}`)
        }
        ran++
      }
    }
    assert.ok(ran >= 3, `${ran} blocks ran`)
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
})

/** Each line of each `sh` block, without its comment: { line, where }. */
function shellLines (file) {
  const text = fs.readFileSync(file, 'utf8')
  return [...text.matchAll(/```sh\n([\s\S]*?)```/g)].flatMap((m) => {
    const first = text.slice(0, m.index).split('\n').length + 1
    return m[1].split('\n').map((l, i) => ({ line: l.replace(/\s+#.*$/, '').trim(), where: `${rel(file)}:${first + i}` })).filter((l) => l.line)
  })
}

/** `a "b c" d` → ['a', 'b c', 'd']. */
const words = (line) => [...line.matchAll(/"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2])

test('every shell block names npm scripts, files and fuzz targets that exist, and its qr-native commands run', () => {
  const { scripts } = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'))
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'qr-native-docs-'))
  try {
    fs.writeFileSync(path.join(dir, 'photo.jpg'), require('..').generateSync('a photo', { width: 300 }))
    let cli = 0
    for (const file of FILES.filter((f) => fs.existsSync(f))) {
      for (const { line, where } of shellLines(file)) {
        for (const command of line.split(/\s*&&\s*/)) {
          const w = words(command)
          if (w[0] === 'npm' && w[1] === 'run') assert.ok(scripts[w[2]], `${where}: no npm script "${w[2]}"`)
          if (w[0] === 'node' && !w[1].startsWith('-')) assert.ok(fs.existsSync(path.join(ROOT, w[1])), `${where}: no file ${w[1]}`)
          if (w[0] === 'cargo' && w.includes('fuzz') && w.includes('run')) {
            const target = w[w.indexOf('-O') + 1]
            assert.ok(fs.existsSync(path.join(ROOT, 'fuzz', 'fuzz_targets', `${target}.rs`)), `${where}: no fuzz target ${target}`)
          }
          if (w[0] === 'npx' && w[1] === 'qr-native') {
            const r = spawnSync(process.execPath, [path.join(ROOT, 'bin', 'qr-native.js'), ...w.slice(2)], { cwd: dir, encoding: 'utf8' })
            assert.equal(r.status, 0, `${where}: ${command} exited ${r.status}: ${r.stderr}`)
            cli++
          }
        }
      }
    }
    assert.ok(cli >= 5, `${cli} qr-native commands ran`)
    for (const f of ['out.png', 'out.svg']) assert.ok(fs.statSync(path.join(dir, f)).size > 0, f)
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
})

test("CONTRIBUTING.md's file map is what every file's own header says", () => {
  const { current, block, missing } = require('../scripts/layout.js').check()
  assert.deepEqual(missing, [], 'every mapped file opens with a header comment')
  assert.equal(current, block, 'CONTRIBUTING.md\'s layout is stale: run `node scripts/layout.js`')
})
