'use strict'
// Threadpool scaling (UV_THREADPOOL_SIZE 1, 2, 4), memory over 200k calls, and with
// --with-allocators the release build with mimalloc against the system allocator.
// Each measurement runs in its own child process (bench/lib/workload-child.js).
const { execFileSync } = require('node:child_process')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { summary } = require('./lib/measure')

const CHILD = path.join(__dirname, 'lib', 'workload-child.js')
const ROOT = path.join(__dirname, '..')

function child (workload, { addon = '-', ms = 1500, threads } = {}) {
  const env = { ...process.env }
  // Our queue's limit follows the pool size here: this measures how the work scales.
  if (threads) { env.UV_THREADPOOL_SIZE = String(threads); env.QR_NATIVE_CONCURRENCY = String(threads) }
  return JSON.parse(execFileSync(process.execPath, [CHILD, workload, addon, String(ms)], { env, encoding: 'utf8' }))
}

function buildMimalloc (progress) {
  progress('system: cargo build --release --features mimalloc (separate target dir)')
  const target = path.join(ROOT, 'target', 'alloc-mimalloc')
  execFileSync('cargo', ['build', '--release', '--lib', '--quiet', '--features', 'mimalloc', '--target-dir', target], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] })
  const node = path.join(os.tmpdir(), `qr-native-mimalloc-${process.pid}.node`)
  fs.copyFileSync(path.join(target, 'release', 'libqr_native.so'), node)
  return node
}

async function run ({ quick, progress, withAllocators }) {
  const ms = quick ? 800 : 2000
  const rounds = quick ? 2 : 5
  const out = { cores: os.cpus().length, scaling: {}, memory: null, allocators: null }
  for (const threads of [1, 2, 4]) {
    const gen = []
    const scan = []
    for (let r = 0; r < rounds; r++) {
      progress(`system scaling, ${threads} pool thread(s), round ${r + 1}`)
      gen.push(child('generate', { threads, ms }).opsPerSec)
      scan.push(child('scanLines', { threads, ms }).mibPerSec)
    }
    out.scaling[threads] = { generateOpsPerSec: summary(gen), scanLinesMiBPerSec: summary(scan) }
  }
  progress('system memory: 200k generate, 200k Matcher.test')
  out.memory = child('memory')
  if (withAllocators) {
    const mimalloc = buildMimalloc(progress)
    const runs = { system: [], mimalloc: [] }
    for (let r = 0; r < rounds; r++) {
      progress(`system allocators, round ${r + 1}`)
      runs.system.push({ ...child('sync', { ms }), generate: child('generate', { ms }).opsPerSec })
      runs.mimalloc.push({ ...child('sync', { addon: mimalloc, ms }), generate: child('generate', { addon: mimalloc, ms }).opsPerSec })
    }
    const med = (list, key) => summary(list.map((x) => x[key])).median
    out.allocators = {}
    for (const name of ['system', 'mimalloc']) {
      out.allocators[name] = Object.fromEntries(['generateSync', 'encode', 'matcherFirst', 'generate'].map((k) => [k, med(runs[name], k)]))
    }
    out.allocators.system.rssMB = out.memory.afterMatcher
    out.allocators.mimalloc.rssMB = child('memory', { addon: mimalloc }).afterMatcher
    fs.rmSync(mimalloc, { force: true })
  }
  return out
}

function goals (r) {
  const growth = r.memory.afterMatcher - r.memory.warm
  return [{ goal: 'RSS growth after warm-up, 200k generate + 200k Matcher.test (MiB)', value: growth, target: '< 20', met: growth < 20 }]
}

function report (r) {
  const base = r.scaling[1]
  const lines = [`### Threadpool scaling on this ${r.cores}-core machine (ratio to 1 thread; median of rounds)`, '',
    '| UV_THREADPOOL_SIZE | generate ops/s | ratio | scanLines MiB/s | ratio |', '|---|---|---|---|---|']
  for (const [threads, s] of Object.entries(r.scaling)) {
    lines.push(`| ${threads} | ${s.generateOpsPerSec.median.toFixed(0)} | ${(s.generateOpsPerSec.median / base.generateOpsPerSec.median).toFixed(2)} | ` +
      `${s.scanLinesMiBPerSec.median.toFixed(0)} | ${(s.scanLinesMiBPerSec.median / base.scanLinesMiBPerSec.median).toFixed(2)} |`)
  }
  const m = r.memory
  lines.push('', `### Memory (RSS, MiB): ${m.before.toFixed(1)} at start, ${m.warm.toFixed(1)} after warm-up, ` +
    `${m.afterGenerate.toFixed(1)} after 200k generate, ${m.afterMatcher.toFixed(1)} after 200k Matcher.test.`)
  if (r.allocators) {
    const a = r.allocators
    lines.push('', '### Allocators (release build each; ops/s, median of rounds)', '', '| | generateSync | encode | Matcher.first | generate (256 in flight) | RSS MiB |', '|---|---|---|---|---|---|')
    for (const name of ['system', 'mimalloc']) {
      const x = a[name]
      lines.push(`| ${name} | ${x.generateSync.toFixed(0)} | ${x.encode.toFixed(0)} | ${x.matcherFirst.toFixed(0)} | ${x.generate.toFixed(0)} | ${x.rssMB.toFixed(1)} |`)
    }
  }
  return lines.join('\n')
}

module.exports = { name: 'system', run, goals, report }
