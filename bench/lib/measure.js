'use strict'
// Interleaved measurement: every case runs once per round, round after round, so machine
// noise lands on all of them alike. Each figure is reported as min / median / max.

function summary (values) {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = sorted.length >> 1
  const median = sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
  return { min: sorted[0], median, max: sorted[sorted.length - 1], n: sorted.length }
}

/** Runs `fn` (sync) repeatedly for at least `ms` milliseconds; returns operations per second. */
function opsPerSecSync (fn, ms) {
  let n = 0
  const start = performance.now()
  let now = start
  while (now - start < ms) {
    for (let i = 0; i < 8; i++) fn()
    n += 8
    now = performance.now()
  }
  return (n * 1000) / (now - start)
}

/** Runs async `fn` with `inFlight` calls outstanding for at least `ms`; returns ops/s. */
async function opsPerSecAsync (fn, ms, inFlight = 1) {
  let n = 0
  const start = performance.now()
  const deadline = start + ms
  async function worker () {
    while (performance.now() < deadline) { await fn(); n++ }
  }
  await Promise.all(Array.from({ length: inFlight }, worker))
  return (n * 1000) / (performance.now() - start)
}

/**
 * Measures `cases` ({ name, run: () => number|Promise<number> } returning ops/s) over
 * `rounds` interleaved rounds. Calls `progress(text)` as it goes.
 */
async function interleave (cases, rounds, progress = () => {}) {
  const values = new Map(cases.map((c) => [c.name, []]))
  for (let r = 0; r < rounds; r++) {
    for (const c of cases) {
      progress(`round ${r + 1}/${rounds}: ${c.name}`)
      values.get(c.name).push(await c.run())
    }
  }
  return Object.fromEntries([...values].map(([name, v]) => [name, summary(v)]))
}

/**
 * The worst lateness (ms) of a 1 ms interval timer while `work()` runs; a timer that never
 * fired was late all along.
 */
async function timerLateness (work) {
  let worst = 0
  let last = performance.now()
  const timer = setInterval(() => {
    const now = performance.now()
    worst = Math.max(worst, now - last - 1)
    last = now
  }, 1)
  await new Promise((resolve) => setTimeout(resolve, 5))
  last = performance.now()
  await work()
  worst = Math.max(worst, performance.now() - last - 1)
  clearInterval(timer)
  return worst
}

/** Calls `start(i)` for i < `total`, `perTick` per macrotask, as requests reach a server. */
function arriving (total, perTick, start) {
  return new Promise((resolve) => {
    const calls = []
    const next = () => {
      for (const end = Math.min(calls.length + perTick, total); calls.length < end;) calls.push(start(calls.length))
      if (calls.length < total) setImmediate(next)
      else resolve(Promise.all(calls))
    }
    next()
  })
}

module.exports = { summary, opsPerSecSync, opsPerSecAsync, interleave, timerLateness, arriving }
