'use strict'
// The queue in front of the threadpool, setting by setting, each in its own process
// (bench/lib/queue-child.js): how long fs, dns and crypto wait during a burst of 10,000
// generate calls, how late a 1 ms timer runs with 1000 in flight, and the burst's own
// duration. `1024` is no limit at all: every call goes straight to libuv, as before the
// queue existed.
const { execFileSync } = require('node:child_process')
const os = require('node:os')
const path = require('node:path')
const { summary } = require('./lib/measure')

const CHILD = path.join(__dirname, 'lib', 'queue-child.js')
const POOL = Number(process.env.UV_THREADPOOL_SIZE) || 4
const SETTINGS = ['default', '1', '2', '3', String(POOL), '1024']
// The timer alone, with no work of ours: the machine idle, and one pure-JS thread busy.
const CONTROLS = ['control-idle', 'control-spin']

async function run ({ quick, progress }) {
  const rounds = quick ? 2 : 7
  const out = { cores: os.availableParallelism(), pool: POOL, settings: {} }
  for (const setting of SETTINGS) {
    progress(`queue: concurrency ${setting}`)
    const r = JSON.parse(execFileSync(process.execPath, [CHILD, setting, String(rounds)], { encoding: 'utf8' }))
    const med = (key) => summary(r.rounds.map((x) => x[key])).median
    const worst = (key) => Math.max(...r.rounds.map((x) => x[key]))
    out.settings[setting] = {
      concurrency: r.concurrency,
      burstMs: med('burstMs'),
      fsMs: worst('fsMs'),
      dnsMs: worst('dnsMs'),
      pbkdf2Ms: worst('pbkdf2Ms'),
      timerLateMs: med('timerLateMs'),
      timerLateMinMs: Math.min(...r.rounds.map((x) => x.timerLateMs)),
      timerLateWorstMs: worst('timerLateMs'),
      worstGcMs: worst('worstGcMs')
    }
  }
  progress(`queue: throughput at ${POOL} and with no limit, interleaved`)
  const t = JSON.parse(execFileSync(process.execPath, [CHILD, 'throughput', String(rounds), String(POOL)], { encoding: 'utf8' }))
  out.throughput = {
    poolMs: summary(t.rounds.map((x) => x.poolMs)),
    unlimitedMs: summary(t.rounds.map((x) => x.unlimitedMs)),
    ratio: summary(t.rounds.map((x) => x.unlimitedMs / x.poolMs))
  }
  out.controls = {}
  for (const setting of CONTROLS) {
    progress(`queue: ${setting}`)
    const r = JSON.parse(execFileSync(process.execPath, [CHILD, setting, String(rounds)], { encoding: 'utf8' }))
    out.controls[setting] = summary(r.rounds.map((x) => x.timerLateMs))
    out.controls[`${setting}-gc`] = Math.max(...r.rounds.map((x) => x.worstGcMs))
  }
  return out
}

function goals (r) {
  const d = r.settings.default
  const out = []
  for (const [name, key] of [['fs.readFile', 'fsMs'], ['dns.lookup', 'dnsMs'], ['crypto.pbkdf2', 'pbkdf2Ms']]) {
    out.push({ goal: `${name} during a burst of 10,000 generate, default settings (ms, worst round)`, value: d[key], target: '≤ 50', met: d[key] <= 50 })
    const share = d[key] / d.burstMs
    out.push({ goal: `${name}'s wait as a share of the burst, default settings`, value: share, target: '≤ 0.05', met: share <= 0.05 })
  }
  out.push({ goal: '1 ms timer: worst lateness with 1000 generate in flight, default settings (ms, median of 7 rounds)', value: d.timerLateMs, target: '≤ 5', met: d.timerLateMs <= 5 })
  const throughput = r.throughput.ratio.median
  out.push({ goal: `burst throughput with the limit at the pool size (${r.pool}) vs no limit (straight to libuv, as before), interleaved rounds (median)`, value: throughput, target: '≥ 0.95', met: throughput >= 0.95 })
  return out
}

function report (r) {
  const lines = [`### The queue in front of the threadpool (${r.cores} cores, libuv pool of ${r.pool})`, '',
    'A burst of 10,000 `generate` calls; an `fs.readFile`, a `dns.lookup` and a one-round `crypto.pbkdf2` issued just after it starts (ms until each completes, worst of the rounds); the burst\'s duration (median); the worst lateness of a 1 ms timer with 1000 calls in flight (arriving 25 per macrotask; median of the rounds, min–max), measured before any burst so that no burst\'s garbage is collected in its window, and the longest GC pause in those windows. `1024` is no limit: every call straight to libuv, as before the queue.', '',
    '| setConcurrency | burst ms | codes/s | fs.readFile ms | dns.lookup ms | pbkdf2 ms | timer late ms | of it, GC ms |', '|---|---|---|---|---|---|---|---|']
  for (const [setting, s] of Object.entries(r.settings)) {
    const name = setting === 'default' ? `default (${s.concurrency})` : setting
    lines.push(`| ${name} | ${s.burstMs.toFixed(0)} | ${(10000 / s.burstMs * 1000).toFixed(0)} | ${s.fsMs.toFixed(1)} | ${s.dnsMs.toFixed(1)} | ${s.pbkdf2Ms.toFixed(1)} | ${s.timerLateMs.toFixed(1)} (${s.timerLateMinMs.toFixed(1)}–${s.timerLateWorstMs.toFixed(1)}) | ${(s.worstGcMs ?? 0).toFixed(1)} |`)
  }
  const range = (x) => `${x.median.toFixed(1)} (${x.min.toFixed(1)}–${x.max.toFixed(1)})`
  lines.push('', `The same timer with no work of ours, in the same run (median of the rounds, min–max): the machine idle ${range(r.controls['control-idle'])} ms; one pure-JS Worker thread spinning ${range(r.controls['control-spin'])} ms.`)
  const t = r.throughput
  lines.push('', `A burst alone, the limit at the pool size (${r.pool}) and no limit alternating round by round in one process (ms, median and min–max of ${t.ratio.n} rounds): ${range(t.poolMs)} against ${range(t.unlimitedMs)}; per round, no limit ÷ limit = ${t.ratio.median.toFixed(3)} (${t.ratio.min.toFixed(3)}–${t.ratio.max.toFixed(3)}).`)
  return lines.join('\n')
}

module.exports = { name: 'queue', run, goals, report }
