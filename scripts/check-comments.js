'use strict'
// Comments that stay true (part of `npm run lint`). A comment says why; a measured figure goes
// stale the day the code changes, so it lives where `npm run bench` rewrites it (docs/design/,
// bench/results/) and the comment points there. This fails on:
//   - a timing or speed ratio typed into a comment of the source (`45 ns`, `1.1 ms`, `3.1×`);
//   - a repository path named in a comment that does not exist (a file's old name after a
//     move; an example named without its .rs is found), in the source, the scripts, the tests and the bench.
// Usage: node scripts/check-comments.js [--list]
const fs = require('node:fs')
const path = require('node:path')

const ROOT = path.join(__dirname, '..')
/** Where figures are refused: the package's own source. Tests and the bench may report them. */
const NO_FIGURES = ['src', 'lib', 'index.js', 'compat.js', 'styling.js', 'binding.d.ts', 'index.d.ts', 'compat.d.ts', 'styling.d.ts']
/** Where named paths are checked. */
const PATHS_CHECKED = [...NO_FIGURES, 'scripts', '__test__', 'bench', 'support', 'fuzz/fuzz_targets', 'examples', '.ci']
const SKIP_DIRS = new Set(['node_modules', 'target', 'fixtures', 'results', 'decode-images', '.tools'])
const SOURCE = /\.(rs|js|mjs|cjs|ts)$|^run$/

// A number, then a unit of time or a ratio: `45 ns`, `1.1 ms`, `0.2 µs`, `3.1×`, `17 %` of a time.
const FIGURE = /(?<![\w.])\d[\d,_]*(?:\.\d+)?\s?(?:ns|µs|us|ms|s|seconds|minutes|ns\/byte|ns\/px|ops\/s)\b|(?<![\w.])\d+(?:\.\d+)?×(?!\d)/
// A path in the repository (the comment above names none that could fail): a known top folder, then a file with an extension (or a folder).
const TOP = ['src', 'lib', 'bench', 'scripts', '__test__', 'docs', 'support', 'fuzz', 'examples', 'npm', '.ci']
const PATH = new RegExp(`(?<![\\w./-])((?:${TOP.map((t) => t.replace('.', '\\.')).join('|')})/[\\w./-]*[\\w])`, 'g')

function walk (entry, out = []) {
  const abs = path.join(ROOT, entry)
  if (!fs.existsSync(abs)) return out
  if (fs.statSync(abs).isDirectory()) {
    for (const e of fs.readdirSync(abs)) if (!SKIP_DIRS.has(e)) walk(path.join(entry, e), out)
  } else if (SOURCE.test(path.basename(entry))) {
    out.push(entry)
  }
  return out
}

/** Comment lines of a file: `//…`, `/* … *\/`, ` * …`, and shell `#` in .ci/run. */
function comments (file, text) {
  const out = []
  const shell = path.basename(file) === 'run'
  let inBlock = false
  text.split('\n').forEach((line, i) => {
    let c = null
    if (shell) {
      const m = /(?:^|\s)#\s(.*)$/.exec(line)
      if (m) c = m[1]
    } else if (inBlock) {
      c = line
      if (line.includes('*/')) inBlock = false
    } else {
      const slash = line.indexOf('//')
      const block = line.indexOf('/*')
      // `//` inside a string or a URL is not a comment.
      if (slash >= 0 && (block < 0 || slash < block) && !/['"`][^'"`]*$/.test(line.slice(0, slash)) && !line.slice(0, slash).endsWith(':')) {
        c = line.slice(slash)
      } else if (block >= 0 && !/['"`][^'"`]*$/.test(line.slice(0, block))) {
        c = line.slice(block)
        if (!line.includes('*/', block)) inBlock = true
      }
    }
    if (c !== null) out.push({ line: i + 1, text: c })
  })
  return out
}

const problems = []
const seen = new Set()
for (const scope of [NO_FIGURES, PATHS_CHECKED]) {
  for (const file of scope.flatMap((e) => walk(e))) {
    if (seen.has(file)) continue
    seen.add(file)
    const figures = NO_FIGURES.some((e) => file === e || file.startsWith(e + '/'))
    for (const { line, text } of comments(file, fs.readFileSync(path.join(ROOT, file), 'utf8'))) {
      const figure = figures && FIGURE.exec(text)
      if (figure) problems.push(`${file}:${line}: a measured figure in a comment ('${figure[0]}'): point to where the bench writes it`)
      for (const m of text.matchAll(PATH)) {
        const p = m[1].replace(/[.:]+$/, '')
        // A glob, or a file of another project (`qrcode`'s lib/core/…), is not ours to check.
        if (/[*{}]/.test(p) || /qrcode|picomatch|zxing|upstream/i.test(text.slice(0, m.index))) continue
        // `examples/profile_decode` is run as an example: its file ends in .rs.
        if (['', '.rs'].some((ext) => fs.existsSync(path.join(ROOT, p + ext)))) continue
        problems.push(`${file}:${line}: names '${p}', which does not exist`)
      }
    }
  }
}

for (const p of problems) console.error(p)
console.log(`check-comments: ${seen.size} files, ${problems.length} problems`)
process.exit(problems.length ? 1 : 0)
