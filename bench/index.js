'use strict'
// `npm run bench [-- --quick] [-- --only qr,match]`: every performance claim of the README,
// measured next to its pure-JS peer in one run. Writes bench/results/latest.json and
// latest.md, and prints the same tables and the goals, each marked met or not met.
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')

const { barChart } = require('./lib/chart')

const { SUITES, suite: suiteNamed } = require('./suites')

function parseArgs (argv) {
  const args = { quick: false, only: null, withRustServer: false, withAllocators: false }
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--quick') args.quick = true
    else if (argv[i] === '--with-rust-server') args.withRustServer = true
    else if (argv[i] === '--with-allocators') args.withAllocators = true
    else if (argv[i] === '--only') args.only = argv[++i].split(',')
    else if (argv[i].startsWith('--only=')) args.only = argv[i].slice(7).split(',')
  }
  return args
}

function progress (text) {
  if (process.stderr.isTTY) process.stderr.write(`\r\x1b[K${text}`)
  else process.stderr.write(`${text}\n`)
}

async function main () {
  const args = parseArgs(process.argv.slice(2))
  const names = args.only || Object.keys(SUITES)
  const pkg = require('../package.json')
  const out = {
    date: new Date().toISOString(),
    machine: { cpus: os.cpus().length, model: os.cpus()[0] && os.cpus()[0].model, memGiB: Math.round(os.totalmem() / 2 ** 30), platform: `${process.platform}-${process.arch}` },
    versions: { node: process.version, 'qr-native': pkg.version, qrcode: require('qrcode/package.json').version },
    quick: args.quick,
    suites: {},
    goals: []
  }
  // A filtered run (--only) updates its suites in the last results and keeps the others.
  const file = path.join(__dirname, 'results', 'latest.json')
  if (args.only && fs.existsSync(file)) {
    const previous = JSON.parse(fs.readFileSync(file, 'utf8'))
    out.suites = previous.suites || {}
    out.measuredAt = previous.measuredAt || {}
  }
  out.measuredAt = out.measuredAt || {}
  for (const name of names) {
    out.suites[name] = await suiteNamed(name).run({ ...args, progress })
    out.measuredAt[name] = out.date
  }
  const tables = []
  for (const name of Object.keys(SUITES).filter((n) => out.suites[n])) {
    const suite = suiteNamed(name)
    out.goals.push(...suite.goals(out.suites[name]).map((g) => ({ suite: name, ...g })))
    tables.push(suite.report(out.suites[name]))
  }
  if (process.stderr.isTTY) process.stderr.write('\r\x1b[K')
  const goalLines = ['### Goals', '', '| goal | measured | target | |', '|---|---|---|---|',
    ...out.goals.map((g) => `| ${g.goal} | ${typeof g.value === 'number' ? g.value.toFixed(g.value < 1 ? 3 : 1) : g.value} | ${g.target} | ${g.met ? 'met' : '**not met**'} |`)]
  const reran = args.only ? ` (${names.join(', ')} rerun; the rest from the previous run)` : ''
  const header = `Measured ${out.date.slice(0, 10)}${reran} on ${out.machine.cpus} × ${out.machine.model}, Node ${out.versions.node}` +
    `${args.quick ? ' (--quick)' : ''}. Reproduce: \`npm run bench\`.`
  const markdown = [header, '', ...tables.flatMap((t) => [t, '']), ...goalLines, ''].join('\n')
  const dir = path.join(__dirname, 'results')
  fs.mkdirSync(dir, { recursive: true })
  fs.writeFileSync(path.join(dir, 'latest.json'), JSON.stringify(out, null, 2) + '\n')
  fs.writeFileSync(path.join(dir, 'latest.md'), markdown)
  for (const [file, svg] of Object.entries(charts(out.suites))) fs.writeFileSync(path.join(dir, file), svg)
  // Every figure of README.md and docs/ is a block rendered from these results.
  const changed = require('../support/docs').write(out)
  console.log(markdown)
  if (changed.length) console.error(`bench: rewrote the figures of ${changed.join(', ')}`)
}

/** The headline comparisons as SVG bar charts, for the suites that ran. */
function charts (suites) {
  const out = {}
  if (suites.qr) {
    const r = suites.qr.png.url44
    out['qr-png.svg'] = barChart({
      title: 'QR PNG, 200 px, 44-char URL: operations per second',
      subtitle: 'qrcode.toBuffer vs qr-native, median of interleaved rounds (log scale)',
      log: true,
      unit: 'ops/s',
      bars: [
        { label: 'qrcode.toBuffer (pure JS)', value: r['qrcode.toBuffer'].median },
        { label: 'generateSync (main thread)', value: r.generateSync.median, highlight: true },
        { label: 'generate (threadpool, 64 in flight)', value: r['generate (64 in flight)'].median, highlight: true }
      ]
    })
  }
  if (suites.http) {
    const names = { tier0: 'tier 0: Express + qrcode', tier3: 'tier 3: Express + generateSync', ours: 'ours: Express + generate', oursNoLimit: 'ours, no queue limit', rust: 'pure Rust: axum' }
    out['http-tiers.svg'] = barChart({
      title: 'Express QR endpoint: requests per second',
      subtitle: 'autocannon, 32 connections, 127.0.0.1 (log scale)',
      log: true,
      unit: 'req/s',
      bars: Object.entries(suites.http.tiers).map(([k, t]) => ({ label: names[k], value: t.reqPerSec, highlight: k.startsWith('ours') }))
    })
  }
  if (suites.match) {
    const r = suites.match.perText.all
    out['matching.svg'] = barChart({
      title: '1500 crawler patterns: ns per user agent (lower is better)',
      subtitle: 'bots and browsers mixed, median of interleaved rounds (log scale)',
      log: true,
      unit: 'ns',
      bars: Object.entries(r).map(([name, s]) => ({ label: name, value: s.median, highlight: name.startsWith('Matcher') }))
    })
  }
  return out
}

main().catch((e) => { console.error(e); process.exit(1) })
