'use strict'
// Workloads run in a child process, so each gets its own UV_THREADPOOL_SIZE or its own
// build of the addon. `node workload-child.js <workload> [addon path] [ms]` prints JSON.
//   generate   ops/s of generate, 256 in flight
//   scanLines  MiB/s of scanLines over an 8 MiB log, 4 in flight
//   sync       ops/s of generateSync and of Matcher.first (allocator comparison)
//   memory     RSS (MiB) at start, after warm-up, after 200k generate and 200k Matcher.test
const path = require('node:path')

const [workload, addonPath, msArg] = process.argv.slice(2)
const addon = require(addonPath && addonPath !== '-' ? path.resolve(addonPath) : path.join(__dirname, '..', '..'))
const ms = Number(msArg) || 1500
const TEXT = 'https://example.com/products/12345?ref=qr-1'
const PATTERNS = require('crawler-user-agents').map((c) => c.pattern)
const UA = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36'
const rssMB = () => process.memoryUsage().rss / 2 ** 20

async function inFlight (n, call, until) {
  let done = 0
  const worker = async () => { while (performance.now() < until) { await call(); done++ } }
  await Promise.all(Array.from({ length: n }, worker))
  return done
}

function syncOps (fn) {
  let n = 0
  const start = performance.now()
  while (performance.now() - start < ms) { for (let i = 0; i < 16; i++) fn(); n += 16 }
  return (n * 1000) / (performance.now() - start)
}

async function main () {
  let out
  if (workload === 'generate') {
    const start = performance.now()
    const n = await inFlight(256, () => addon.generate(TEXT), start + ms)
    out = { opsPerSec: (n * 1000) / (performance.now() - start) }
  } else if (workload === 'scanLines') {
    const m = new addon.Matcher(PATTERNS)
    const log = Buffer.from((`{"path":"/p/1","ua":"${UA}"}\n`).repeat(Math.ceil((8 << 20) / 120)))
    const start = performance.now()
    const n = await inFlight(4, () => m.scanLines(log), start + ms)
    out = { mibPerSec: (n * log.length / 2 ** 20 * 1000) / (performance.now() - start) }
  } else if (workload === 'sync') {
    const m = new addon.Matcher(PATTERNS)
    out = { generateSync: syncOps(() => addon.generateSync(TEXT)), matcherFirst: syncOps(() => m.first(UA)), encode: syncOps(() => addon.encode(TEXT)) }
  } else if (workload === 'memory') {
    const m = new addon.Matcher(PATTERNS)
    const before = rssMB()
    for (let i = 0; i < 10000; i++) { await addon.generate(TEXT + (i % 100)); m.test(UA + i) }
    const warm = rssMB()
    out = { before, warm }
    // 200k generate calls, 64 in flight.
    let left = 200000
    await Promise.all(Array.from({ length: 64 }, async () => { while (left-- > 0) await addon.generate(TEXT + (left % 1000)) }))
    out.afterGenerate = rssMB()
    for (let k = 0; k < 200000; k++) m.test(UA + (k % 1000))
    out.afterMatcher = rssMB()
  }
  process.stdout.write(JSON.stringify(out))
}

main()
