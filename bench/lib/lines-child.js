'use strict'
// One way of grepping a log for bench/replace.js's lines table, in a process of its own:
// `node lines-child.js <lines|readline|scanLines> <file>`. Prints { ms, rssMB, lines, digest },
// the digest a hash of the matching line numbers (every way must find the same), taken
// after the clock stops.
const fs = require('node:fs')
const crypto = require('node:crypto')
const readline = require('node:readline')
const { Matcher } = require(process.env.QR_NATIVE_ROOT || '../..')

const PATTERNS = ['Googlebot', 'bingbot', '"status":500', /curl\/\d+/i, 'AhrefsBot']
const escape = (s) => s.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&')

async function main () {
  const [way, file] = process.argv.slice(2)
  const numbers = []
  const found = (n) => { numbers.push(n) }
  const start = performance.now()
  if (way === 'lines') {
    const m = new Matcher(PATTERNS)
    for await (const { number } of fs.createReadStream(file, { highWaterMark: 1 << 20 }).pipe(m.lines())) found(number)
  } else if (way === 'readline') {
    const res = PATTERNS.map((p) => (typeof p === 'string' ? new RegExp(escape(p)) : p))
    let n = 0
    for await (const line of readline.createInterface({ input: fs.createReadStream(file), crlfDelay: Infinity })) {
      if (res.some((re) => re.test(line))) found(n)
      n++
    }
  } else if (way === 'scanLines') {
    const m = new Matcher(PATTERNS)
    for (const n of await m.scanLines(fs.readFileSync(file))) found(n)
  } else {
    throw new Error(`unknown way ${way}`)
  }
  const ms = performance.now() - start
  const digest = crypto.createHash('sha256').update(numbers.join('\n')).digest('hex')
  process.stdout.write(JSON.stringify({ ms, rssMB: process.resourceUsage().maxRSS / 1024, lines: numbers.length, digest }))
}

main().catch((e) => { console.error(e); process.exit(1) })
