'use strict'
// Long runs, bounded in time (SOAK_SECONDS, default 60 in all): generate, generateMany,
// Matcher.test and scanLines in a loop, then isMatch with a stream of distinct patterns.
// Our memory after warm-up (the addon's live Rust heap, `stats().nativeBytes`, after a
// collection) must grow by less than 20 MiB; RSS, which the JS runtime moves on its own,
// is reported beside it.
const { test } = require('node:test')
const assert = require('node:assert/strict')
const qr = require('../..')

const SECONDS = Number(process.env.SOAK_SECONDS) || 60
const LIMIT_MB = 20
const rssMB = () => process.memoryUsage().rss / 2 ** 20
const { nativeBytesAfterGc } = require('../helpers/native-heap')
const nativeMB = async () => (await nativeBytesAfterGc(qr)) / 2 ** 20

async function soak (seconds, step) {
  // Warm-up: a tenth of the time, then the baseline.
  const warmEnd = performance.now() + seconds * 100
  let i = 0
  while (performance.now() < warmEnd) await step(i++)
  const nativeBase = await nativeMB()
  const base = rssMB()
  const end = performance.now() + seconds * 900
  let calls = 0
  let peak = base
  while (performance.now() < end) {
    await step(i++)
    calls++
    if (calls % 200 === 0) peak = Math.max(peak, rssMB())
  }
  const nativeEnd = await nativeMB()
  return { calls, base, end: rssMB(), peak, nativeBase, nativeEnd }
}

test(`generate, generateMany, Matcher.test and scanLines for ${Math.round(SECONDS * 0.75)} s: RSS grows < ${LIMIT_MB} MiB`, { timeout: SECONDS * 3000 }, async (t) => {
  const m = new qr.Matcher(require('crawler-user-agents').map((c) => c.pattern))
  const agents = require('crawler-user-agents').flatMap((c) => c.instances || [])
  const log = Buffer.from(agents.join('\n'))
  const r = await soak(SECONDS * 0.75, async (i) => {
    await Promise.all(Array.from({ length: 32 }, (_, k) => qr.generate(`soak ${i} ${k}`, { width: 100 + (k % 50) })))
    await qr.generateMany([`many ${i}`, `more ${i}`, 'x'.repeat(i % 300 + 1)])
    for (let k = 0; k < 200; k++) m.test(agents[(i * 200 + k) % agents.length])
    if (i % 20 === 0) await m.scanLines(log)
  })
  t.diagnostic(`soak: ${r.calls} rounds, native heap ${r.nativeBase.toFixed(2)} → ${r.nativeEnd.toFixed(2)} MiB, RSS ${r.base.toFixed(1)} → ${r.end.toFixed(1)} MiB (peak ${r.peak.toFixed(1)})`)
  assert.ok(r.calls > 10)
  assert.ok(r.nativeEnd - r.nativeBase < LIMIT_MB, `the native heap grew ${(r.nativeEnd - r.nativeBase).toFixed(2)} MiB`)
})

test(`isMatch with a stream of distinct patterns for ${Math.round(SECONDS * 0.25)} s: the cache stays bounded`, { timeout: SECONDS * 3000 }, async (t) => {
  const r = await soak(SECONDS * 0.25, async (i) => {
    for (let k = 0; k < 50; k++) {
      const n = i * 50 + k
      assert.equal(qr.isMatch(`^/api/v${n}/[a-z]+`, `/api/v${n}/items`), true)
    }
  })
  t.diagnostic(`isMatch: ${r.calls * 50} distinct patterns, native heap ${r.nativeBase.toFixed(2)} → ${r.nativeEnd.toFixed(2)} MiB, RSS ${r.base.toFixed(1)} → ${r.end.toFixed(1)} MiB`)
  assert.ok(r.calls * 50 > 5000, 'far more patterns than the cache holds')
  assert.ok(r.nativeEnd - r.nativeBase < LIMIT_MB, `the native heap grew ${(r.nativeEnd - r.nativeBase).toFixed(2)} MiB`)
})
