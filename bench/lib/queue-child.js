'use strict'
// One queue setting, in its own process: `node queue-child.js <concurrency|default> <rounds>`
// prints JSON. First the timer rounds: the worst lateness of a 1 ms timer while 1000 calls
// are in flight, arriving 25 per macrotask as a server's do, and how much of that window V8's
// garbage collector paused the main thread. Then the burst rounds: 10,000 generate calls
// with an fs.readFile, a dns.lookup and a one-round crypto.pbkdf2 issued just after it
// starts (their latency, and the burst's duration). The timer rounds come first so that
// they do not inherit a burst's 10,000 results as garbage: a major GC of that heap alone
// pauses the main thread 5-10 ms here, whatever issued the calls.
//
// `node queue-child.js throughput <rounds> <pool>` instead measures the burst alone at two
// limits side by side: each round runs one burst with setConcurrency(pool) and one with no
// limit (1024), in alternating order, so the machine's drift lands on both alike.
const crypto = require('node:crypto')
const dns = require('node:dns')
const fs = require('node:fs')
const { PerformanceObserver } = require('node:perf_hooks')
const { Worker } = require('node:worker_threads')
const qr = require('../..')
const { arriving, timerLateness } = require('./measure')

const [setting, roundsArg] = process.argv.slice(2)
if (setting !== 'default' && setting !== 'throughput' && !setting.startsWith('control-')) qr.setConcurrency(Number(setting))
const rounds = Number(roundsArg) || 3
const URL = 'https://example.com/products/12345?ref=qr-'

const since = (start, run) => new Promise((resolve) => run(() => resolve(performance.now() - start)))

async function burst () {
  const start = performance.now()
  const all = Promise.all(Array.from({ length: 10000 }, (_, i) => qr.generate(URL + i)))
  const issued = performance.now()
  const [fsMs, dnsMs, pbkdf2Ms] = await Promise.all([
    since(issued, (done) => fs.readFile(__filename, done)),
    since(issued, (done) => dns.lookup('localhost', done)),
    since(issued, (done) => crypto.pbkdf2('secret', 'salt', 1, 32, 'sha256', done))
  ])
  await all
  return { burstMs: performance.now() - start, fsMs, dnsMs, pbkdf2Ms }
}

// V8's pauses of the main thread, as [start, duration] in ms.
const pauses = []
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) pauses.push([e.startTime, e.duration])
}).observe({ entryTypes: ['gc'] })

/** The timer's worst lateness during `work`, and the GC pauses (ms) within that window. */
async function timed (work) {
  const start = performance.now()
  pauses.length = 0
  const timerLateMs = await timerLateness(work)
  const end = performance.now()
  const gcMs = pauses.filter(([at]) => at >= start && at <= end).reduce((sum, [, ms]) => sum + ms, 0)
  return { timerLateMs, gcMs, worstGcMs: Math.max(0, ...pauses.filter(([at]) => at >= start && at <= end).map(([, ms]) => ms)) }
}

// 1000 calls in flight as a server sees them: arriving 25 per macrotask.
const lateness = () => timed(() => arriving(1000, 25, (i) => qr.generate(URL + i)))

// The same timer with none of our work, for scale: the machine idle for 250 ms, or one
// pure-JS Worker thread spinning for 250 ms (about as long as the 1000 calls take).
const control = {
  'control-idle': () => timed(() => new Promise((resolve) => setTimeout(resolve, 250))),
  'control-spin': () => timed(() => new Promise((resolve) => {
    new Worker('const end = Date.now() + 250; while (Date.now() < end);', { eval: true }).on('exit', resolve)
  }))
}

async function throughput (pool, rounds) {
  const out = { rounds: [] }
  const once = async (limit) => {
    qr.setConcurrency(limit)
    const start = performance.now()
    await Promise.all(Array.from({ length: 10000 }, (_, i) => qr.generate(URL + i)))
    return performance.now() - start
  }
  await once(pool) // warm-up
  await once(1024)
  for (let r = 0; r < rounds; r++) {
    const round = {}
    for (const limit of r % 2 ? [1024, pool] : [pool, 1024]) round[limit === pool ? 'poolMs' : 'unlimitedMs'] = await once(limit)
    out.rounds.push(round)
  }
  return out
}

async function main () {
  if (setting === 'throughput') {
    process.stdout.write(JSON.stringify(await throughput(Number(process.argv[4]), rounds)))
    return
  }
  if (control[setting]) {
    const out = { concurrency: 0, rounds: [] }
    for (let r = 0; r < rounds; r++) out.rounds.push(await control[setting]())
    process.stdout.write(JSON.stringify(out))
    return
  }
  await lateness() // warm-up
  const out = { concurrency: qr.concurrency(), rounds: [] }
  for (let r = 0; r < rounds; r++) out.rounds.push(await lateness())
  await burst() // warm-up
  for (let r = 0; r < rounds; r++) Object.assign(out.rounds[r], await burst())
  process.stdout.write(JSON.stringify(out))
}

main()
