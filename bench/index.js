'use strict'
// `npm run bench [-- --quick] [-- --only qr,match]`: every performance claim of the README,
// measured next to its pure-JS peer in one run. Writes bench/results/latest.json and
// latest.md, and prints the same tables and the goals, each marked met or not met.
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')

const SUITES = { qr: './qr', compat: './compat', match: './matcher' }

function parseArgs (argv) {
  const args = { quick: false, only: null }
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--quick') args.quick = true
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
  const tables = []
  for (const name of names) {
    const suite = require(SUITES[name])
    const results = await suite.run({ quick: args.quick, progress })
    out.suites[name] = results
    out.goals.push(...suite.goals(results).map((g) => ({ suite: name, ...g })))
    tables.push(suite.report(results))
  }
  if (process.stderr.isTTY) process.stderr.write('\r\x1b[K')
  const goalLines = ['### Goals', '', '| goal | measured | target | |', '|---|---|---|---|',
    ...out.goals.map((g) => `| ${g.goal} | ${typeof g.value === 'number' ? g.value.toFixed(g.value < 1 ? 3 : 1) : g.value} | ${g.target} | ${g.met ? 'met' : '**not met**'} |`)]
  const header = `Measured ${out.date.slice(0, 10)} on ${out.machine.cpus} × ${out.machine.model}, Node ${out.versions.node}` +
    `${args.quick ? ' (--quick)' : ''}. Reproduce: \`npm run bench\`.`
  const markdown = [header, '', ...tables.flatMap((t) => [t, '']), ...goalLines, ''].join('\n')
  const dir = path.join(__dirname, 'results')
  fs.mkdirSync(dir, { recursive: true })
  fs.writeFileSync(path.join(dir, 'latest.json'), JSON.stringify(out, null, 2) + '\n')
  fs.writeFileSync(path.join(dir, 'latest.md'), markdown)
  console.log(markdown)
}

main().catch((e) => { console.error(e); process.exit(1) })
