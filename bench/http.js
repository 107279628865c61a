'use strict'
// The tiers of Rust adoption for an Express QR endpoint, one server at a time on 127.0.0.1,
// load from wrk where installed (a C client: it leaves more of a small machine to the
// server), else autocannon, bounded in time: tier 0 (qrcode), tier 3 (generateSync on the main
// thread), ours (generate on the threadpool), and with --with-rust-server the pure-Rust
// reference (axum, the same encoder; bench/rust-server, built on demand).
const { fork, spawn, execFileSync } = require('node:child_process')
const fs = require('node:fs')
const path = require('node:path')
const autocannon = require('autocannon')
const { summary } = require('./lib/measure')

// Three 44-character URLs and one 500-character text: payloads vary in real traffic, and a
// long one is where work on the main thread holds every other request up.
const LONG = ('Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore et dolore magna aliqua. ').repeat(5).slice(0, 500)
const TEXTS = [
  'https://example.com/products/12345?ref=qr-1',
  'https://example.com/order/2026-11-30/98765?x=7',
  'https://shop.example.org/p/item-4711?utm=qr2',
  LONG
]

const WRK = (() => {
  try { return execFileSync('sh', ['-c', 'command -v wrk'], { encoding: 'utf8' }).trim() || null } catch { return null }
})()

/** wrk with a script cycling through TEXTS; the same fields as autocannon's result. */
function loadWrk (port, seconds, connections) {
  const script = path.join(require('node:os').tmpdir(), `qr-native-wrk-${process.pid}.lua`)
  const paths = TEXTS.map((t) => `"/qrcode?text=${encodeURIComponent(t)}"`).join(', ')
  fs.writeFileSync(script, `local paths = { ${paths} }\n` + String.raw`local i = 0
request = function() i = i % #paths + 1; return wrk.format("GET", paths[i]) end
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format("WRK %d %d %f %f %f %d %d\n", summary.requests, summary.bytes, summary.duration / 1e6,
    latency.mean / 1000, latency:percentile(99) / 1000, e.status, e.connect + e.read + e.write + e.timeout))
end
`)
  const out = execFileSync(WRK, ['-t', '1', '-c', String(connections), '-d', `${seconds}s`, '-s', script, `http://127.0.0.1:${port}`], { encoding: 'utf8' })
  fs.rmSync(script, { force: true })
  const [requests, bytes, secs, mean, p99, non2xx, errors] = out.slice(out.indexOf('WRK ') + 4).split('\n')[0].split(' ').map(Number)
  const r = { requests, bytes, seconds: secs, mean, p99, non2xx, errors }
  return {
    requests: { average: r.requests / r.seconds },
    latency: { average: r.mean, p99: r.p99 },
    throughput: { average: r.bytes / r.seconds },
    non2xx: r.non2xx,
    errors: r.errors
  }
}

function load (port, seconds, connections) {
  if (WRK) return Promise.resolve(loadWrk(port, seconds, connections))
  return new Promise((resolve, reject) => {
    autocannon({
      url: `http://127.0.0.1:${port}`,
      connections,
      duration: seconds,
      requests: TEXTS.map((t) => ({ method: 'GET', path: `/qrcode?text=${encodeURIComponent(t)}` }))
    }, (err, result) => (err ? reject(err) : resolve(result)))
  })
}

function startNode (tier, env = process.env) {
  const child = fork(path.join(__dirname, 'http', 'server.js'), [tier], { env, stdio: ['ignore', 'ignore', 'inherit', 'ipc'] })
  return new Promise((resolve) => child.once('message', (m) => resolve({ child, port: m.port })))
}

function ask (child, msg) {
  return new Promise((resolve) => { child.once('message', resolve); child.send(msg) })
}

function rustServerBinary () {
  const dir = path.join(__dirname, 'rust-server')
  execFileSync('cargo', ['build', '--release', '--quiet'], { cwd: dir, stdio: ['ignore', 'ignore', 'inherit'] })
  return path.join(dir, 'target', 'release', 'qr-native-rust-server')
}

function startRust (bin) {
  const child = spawn(bin, [], { stdio: ['ignore', 'pipe', 'inherit'] })
  return new Promise((resolve) => {
    child.stdout.once('data', (d) => resolve({ child, port: Number(String(d).trim().split(' ')[1]) }))
  })
}

function rssOf (pid) {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8')
  return Number(/VmRSS:\s+(\d+)/.exec(status)[1]) / 1024
}

async function run ({ quick, progress, withRustServer }) {
  const seconds = quick ? 3 : 10
  const connections = 32
  const tiers = ['tier0', 'tier3', 'ours']
  const out = { seconds, connections, client: WRK ? 'wrk (1 thread)' : 'autocannon', tiers: {} }
  const runTier = async (name, started, isNode) => {
    const { child, port } = await started
    progress(`http ${name}: warm-up`)
    await load(port, 1, connections)
    if (isNode) child.send('start')
    progress(`http ${name}: ${seconds} s of load, ${connections} connections`)
    const r = await load(port, seconds, connections)
    const report = isNode ? await ask(child, 'report') : { rssMB: rssOf(child.pid) }
    child.kill()
    out.tiers[name] = {
      reqPerSec: r.requests.average,
      latencyAvgMs: r.latency.average,
      latencyP99Ms: r.latency.p99,
      bytesPerResponse: r.throughput.average / Math.max(r.requests.average, 1),
      non2xx: r.non2xx,
      errors: r.errors,
      rssMB: report.rssMB,
      eventLoopDelayMs: report.eventLoopDelayMs || null
    }
  }
  for (const tier of tiers) await runTier(tier, startNode(tier), true)
  // The same server with the queue's limit lifted: every call straight to libuv, as before
  // the queue existed (the baseline for the default's throughput).
  const NO_LIMIT = { ...process.env, QR_NATIVE_CONCURRENCY: '1024' }
  await runTier('oursNoLimit', startNode('ours', NO_LIMIT), true)
  // The default against no limit side by side: both servers up, loaded in turn, round by
  // round in alternating order, so that the machine's drift (the client shares its two
  // cores) lands on both. Each tier above ran once, minutes apart; this is what the goal reads.
  out.interleaved = await interleaved({ ours: startNode('ours'), oursNoLimit: startNode('ours', NO_LIMIT) },
    quick ? 1 : 5, quick ? 2 : 4, connections, progress)
  if (withRustServer) {
    progress('http building bench/rust-server (cargo build --release)')
    await runTier('rust', startRust(rustServerBinary()), false)
  }
  return out
}

/** req/s and p99 of each server in `started`, loaded in turn for `seconds`, `rounds` times. */
async function interleaved (started, rounds, seconds, connections, progress) {
  const servers = Object.fromEntries(await Promise.all(Object.entries(started).map(async ([name, s]) => [name, await s])))
  const names = Object.keys(servers)
  for (const name of names) await load(servers[name].port, 1, connections)
  const out = { seconds, rounds: [] }
  for (let r = 0; r < rounds; r++) {
    const round = {}
    for (const name of r % 2 ? [...names].reverse() : names) {
      progress(`http interleaved round ${r + 1}/${rounds}: ${name}`)
      const res = await load(servers[name].port, seconds, connections)
      round[name] = { reqPerSec: res.requests.average, latencyP99Ms: res.latency.p99 }
    }
    out.rounds.push(round)
  }
  for (const { child } of Object.values(servers)) child.kill()
  return out
}

/** One interleaved round's throughput, the default limit's over no limit's. */
const keptRatio = (round) => round.ours.reqPerSec / round.oursNoLimit.reqPerSec

const NAMES = {
  tier0: 'tier 0: Express + qrcode',
  tier3: 'tier 3: Express + generateSync',
  ours: 'ours: Express + generate',
  oursNoLimit: 'ours, no queue limit (straight to libuv)',
  rust: 'pure Rust: axum + the same encoder'
}

function goals (r) {
  const t0 = r.tiers.tier0
  const ours = r.tiers.ours
  const t3 = r.tiers.tier3
  const out = []
  const add = (goal, value, target, met) => out.push({ goal, value, target, met })
  add('HTTP throughput, ours vs tier 0', ours.reqPerSec / t0.reqPerSec, '≥ 12×', ours.reqPerSec >= 12 * t0.reqPerSec)
  add('HTTP p99 latency, ours / tier 0', ours.latencyP99Ms / t0.latencyP99Ms, '≤ 0.1', ours.latencyP99Ms <= 0.1 * t0.latencyP99Ms)
  add('HTTP response bytes, ours / tier 0', ours.bytesPerResponse / t0.bytesPerResponse, '≤ 1/3', ours.bytesPerResponse * 3 <= t0.bytesPerResponse)
  add('HTTP throughput, ours vs tier 3', ours.reqPerSec / t3.reqPerSec, '> 1×', ours.reqPerSec > t3.reqPerSec)
  add('HTTP p99 latency, tier 3 / ours', t3.latencyP99Ms / ours.latencyP99Ms, '≫ 1 (far ahead)', t3.latencyP99Ms > 2 * ours.latencyP99Ms)
  if (r.interleaved) {
    const kept = summary(r.interleaved.rounds.map(keptRatio)).median
    add(`HTTP throughput, ours with the default queue limit / with no limit (as before the queue), ${r.interleaved.rounds.length} interleaved rounds (median), load from ${r.client || 'autocannon'}` +
      (r.client && r.client.startsWith('wrk') ? '' : ' (a Node client on the same cores: install wrk for a client that leaves them to the servers)'), kept, '≥ 1 (within noise)', kept >= 0.95)
  }
  add('event-loop delay p99 under load, tier 3 / ours', t3.eventLoopDelayMs.p99 / ours.eventLoopDelayMs.p99, '> 1', t3.eventLoopDelayMs.p99 > ours.eventLoopDelayMs.p99)
  if (r.tiers.rust) add('(for information) HTTP throughput, ours / pure Rust', ours.reqPerSec / r.tiers.rust.reqPerSec, 'within reach', true)
  return out
}

function report (r) {
  const t0 = r.tiers.tier0
  const lines = [`### HTTP tiers: GET /qrcode?text=… (three 44-char URLs and one 500-char text, in turn), ${r.connections} connections, ${r.seconds} s each, ${r.client || 'autocannon'} on the same machine`, '',
    '| server | req/s | avg latency ms | p99 latency ms | bytes/response | server RSS MB | event-loop delay p99 / max ms |', '|---|---|---|---|---|---|---|']
  for (const [name, t] of Object.entries(r.tiers)) {
    const ratio = (a, b) => (name === 'tier0' ? '' : ` (${(a / b).toFixed(a / b < 1 ? 2 : 1)}×)`)
    const eld = t.eventLoopDelayMs ? `${t.eventLoopDelayMs.p99.toFixed(1)} / ${t.eventLoopDelayMs.max.toFixed(1)}` : '–'
    lines.push(`| ${NAMES[name]} | ${t.reqPerSec.toFixed(0)}${ratio(t.reqPerSec, t0.reqPerSec)} | ${t.latencyAvgMs.toFixed(2)}${ratio(t.latencyAvgMs, t0.latencyAvgMs)} | ` +
      `${t.latencyP99Ms.toFixed(1)}${ratio(t.latencyP99Ms, t0.latencyP99Ms)} | ${t.bytesPerResponse.toFixed(0)}${ratio(t.bytesPerResponse, t0.bytesPerResponse)} | ` +
      `${t.rssMB.toFixed(0)}${ratio(t.rssMB, t0.rssMB)} | ${eld} |`)
  }
  if (r.interleaved) {
    const rounds = r.interleaved.rounds
    const span = (f, digits = 0) => {
      const s = summary(rounds.map(f))
      return `${s.median.toFixed(digits)} (${s.min.toFixed(digits)}–${s.max.toFixed(digits)})`
    }
    lines.push('', `The default queue limit against no limit, both servers up and loaded in turn, ${rounds.length} rounds of ${r.interleaved.seconds} s in alternating order (median, min–max): ` +
      `req/s ${span((x) => x.ours.reqPerSec)} against ${span((x) => x.oursNoLimit.reqPerSec)}, per round ${span(keptRatio, 3)}; ` +
      `p99 ms ${span((x) => x.ours.latencyP99Ms)} against ${span((x) => x.oursNoLimit.latencyP99Ms)}.`)
  }
  lines.push('', 'Ratios are to tier 0. Non-2xx responses or errors in any tier would be listed here: ' +
    (Object.entries(r.tiers).filter(([, t]) => t.non2xx || t.errors).map(([n, t]) => `${n}: ${t.non2xx} non-2xx, ${t.errors} errors`).join('; ') || 'none.'))
  return lines.join('\n')
}

module.exports = { name: 'http', run, goals, report }
