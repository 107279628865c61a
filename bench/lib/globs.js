'use strict'
// A 200-glob list of the kind a build tool, a linter's ignore list or a static-file router
// carries, and 10,000 repository paths to test it on (deterministic).

const DIRS = ['src', 'lib', 'test', 'docs', 'app', 'config', 'scripts', 'public', 'assets', 'packages/core',
  'packages/cli', 'tools', 'examples', 'bench', 'vendor', 'dist', 'build', 'coverage', 'fixtures', 'types']
const EXTS = ['js', 'ts', 'mjs', 'cjs', 'jsx', 'tsx', 'json', 'md', 'css', 'scss', 'html', 'svg', 'png', 'yml', 'map']

function globList() {
  const out = []
  const shapes = [
    (d, e) => `${d}/**/*.${e}`,
    (d, e) => `${d}/*.${e}`,
    (d, e) => `**/${d}/**/*.{${e},${EXTS[(EXTS.indexOf(e) + 1) % EXTS.length]}}`,
    (d, e) => `${d}/**/*.{test,spec}.${e}`,
    (d, e) => `${d}/**/[._]*.${e}`,
    (d, e) => `${d}/**/@(index|main).${e}`
  ]
  for (let i = 0; out.length < 200; i++) {
    const g = shapes[i % shapes.length](DIRS[(i * 7) % DIRS.length], EXTS[(i * 5 + Math.floor(i / 15)) % EXTS.length])
    if (!out.includes(g)) out.push(g)
  }
  return out
}

function pathList(n = 10000) {
  let s = 12345
  // Integer arithmetic (see `literalSets` in bench/matcher.js: in doubles it cycles).
  const r = () => { s = (Math.imul(s, 1103515245) + 12345) >>> 0; return s / 4294967296 }
  const pick = (xs) => xs[Math.floor(r() * xs.length)]
  const names = ['index', 'main', 'util', 'helpers', 'App', 'button', 'README', 'a.test', 'b.spec', '_partial', '.eslintrc', 'logo', 'server', 'types.d']
  const out = []
  for (let i = 0; i < n; i++) {
    const depth = Math.floor(r() * 4)
    const parts = [pick(DIRS)]
    for (let d = 0; d < depth; d++) parts.push(pick(['components', 'utils', 'api', 'v1', 'internal', 'node_modules', '.cache', 'deep']))
    parts.push(`${pick(names)}.${pick(EXTS)}`)
    out.push(parts.join('/'))
  }
  return out
}

module.exports = { globList, pathList }
