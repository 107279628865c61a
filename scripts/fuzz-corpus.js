'use strict'
// The fuzz corpora, one archive a target: fuzz/corpus/<target>.tar.gz holds the inputs that
// cover the target's code (each edge at least once), and fuzz/corpus/<target>/ (not tracked)
// is where cargo fuzz reads and grows them. Thousands of small files in git made most of the
// repository's files; an archive a target keeps it a repository of source.
//
//   node scripts/fuzz-corpus.js unpack [target…]   archives → fuzz/corpus/<target>/ (CI does this
//                                                   before its replay; do it before `cargo fuzz run`)
//   node scripts/fuzz-corpus.js pack [target…]     fuzz/corpus/<target>/ minimised to the inputs that
//                                                   cover its edges (libFuzzer's merge, counters off),
//                                                   then archived; needs `cargo +nightly fuzz build -O`
//
// Inputs named `seed-*` (hand-made files of a format, such as a JPEG the decode target starts
// from) and `crash-*` (a fixed crash's reproducer, kept as a regression input) are kept
// whether or not they add coverage.
const { execFileSync } = require('node:child_process')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const zlib = require('node:zlib')

const FUZZ = path.join(__dirname, '..', 'fuzz')
const CORPUS = path.join(FUZZ, 'corpus')
const KEEP = /^(seed|crash)-/

const targets = (given) => given.length ? given : fs.readdirSync(path.join(FUZZ, 'fuzz_targets')).filter((f) => f.endsWith('.rs')).map((f) => f.slice(0, -3)).sort()
const archive = (t) => path.join(CORPUS, `${t}.tar.gz`)

function unpack (t) {
  const dir = path.join(CORPUS, t)
  fs.mkdirSync(dir, { recursive: true })
  if (fs.existsSync(archive(t))) execFileSync('tar', ['-xzf', archive(t), '-C', dir])
  return fs.readdirSync(dir).length
}

function pack (t) {
  const dir = path.join(CORPUS, t)
  const bin = path.join(FUZZ, 'target', 'x86_64-unknown-linux-gnu', 'release', t)
  if (!fs.existsSync(bin)) throw new Error(`${bin} is missing: run cargo +nightly fuzz build -O first`)
  const out = fs.mkdtempSync(path.join(os.tmpdir(), `corpus-${t}-`))
  // Edges, not hit counts: one input for each edge any input reaches.
  execFileSync(bin, ['-merge=1', '-use_counters=0', '-rss_limit_mb=4096', out, dir], { stdio: ['ignore', 'ignore', 'ignore'] })
  for (const f of fs.readdirSync(dir).filter((f) => KEEP.test(f))) fs.copyFileSync(path.join(dir, f), path.join(out, f))
  const files = fs.readdirSync(out).sort()
  // Reproducible: sorted names, no times, no owners; zlib's gzip header holds no name or time.
  const tar = execFileSync('tar', ['--sort=name', '--mtime=@0', '--owner=0', '--group=0', '--numeric-owner', '-cf', '-', '-C', out, ...files], { maxBuffer: 1 << 30 })
  fs.writeFileSync(archive(t), zlib.gzipSync(tar, { level: 9 }))
  fs.rmSync(dir, { recursive: true, force: true })
  fs.renameSync(out, dir)
  return files.length
}

const [command, ...given] = process.argv.slice(2)
if (command !== 'pack' && command !== 'unpack') {
  console.error('usage: node scripts/fuzz-corpus.js pack|unpack [target…]')
  process.exit(2)
}
for (const t of targets(given)) console.log(`${command} ${t}: ${(command === 'pack' ? pack : unpack)(t)} inputs`)
