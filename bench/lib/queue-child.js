'use strict'
// One queue setting, in its own process: `node queue-child.js <concurrency|default> <rounds>`
// prints JSON. Per round: a burst of 10,000 generate calls with an fs.readFile, a
// dns.lookup and a one-round crypto.pbkdf2 issued just after it starts (their latency, and
// the burst's duration); then the worst lateness of a 1 ms timer while 1000 calls are in
// flight, arriving 25 per macrotask as a server's do.
const crypto = require('node:crypto')
const dns = require('node:dns')
const fs = require('node:fs')
const { Worker } = require('node:worker_threads')
const qr = require('../..')
const { arriving, timerLateness } = require('./measure')

const [setting, roundsArg] = process.argv.slice(2)
if (setting !== 'default' && !setting.startsWith('control-')) qr.setConcurrency(Number(setting))
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

// 1000 calls in flight as a server sees them: arriving 25 per macrotask.
const lateness = () => timerLateness(() => arriving(1000, 25, (i) => qr.generate(URL + i)))

// The same timer with none of our work, for scale: the machine idle for 250 ms, or one
// pure-JS Worker thread spinning for 250 ms (about as long as the 1000 calls take).
const control = {
  'control-idle': () => timerLateness(() => new Promise((resolve) => setTimeout(resolve, 250))),
  'control-spin': () => timerLateness(() => new Promise((resolve) => {
    new Worker('const end = Date.now() + 250; while (Date.now() < end);', { eval: true }).on('exit', resolve)
  }))
}

async function main () {
  if (control[setting]) {
    const out = { concurrency: 0, rounds: [] }
    for (let r = 0; r < rounds; r++) out.rounds.push({ timerLateMs: await control[setting]() })
    process.stdout.write(JSON.stringify(out))
    return
  }
  await burst() // warm-up
  const out = { concurrency: qr.concurrency(), rounds: [] }
  for (let r = 0; r < rounds; r++) out.rounds.push({ ...(await burst()), timerLateMs: await lateness() })
  process.stdout.write(JSON.stringify(out))
}

main()
