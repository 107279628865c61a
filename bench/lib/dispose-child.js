'use strict'
// A loop that makes matchers and never yields to the event loop, for bench/replace.js:
// `node dispose-child.js <mode> <seconds>`, the mode '<same|new> patterns, <dispose|no
// dispose>' (new: a literal of its own in each matcher). Prints { made, rssMB, growthMB }: RSS
// each second, and its growth from the third second on.
const { Matcher } = require(process.env.QR_NATIVE_ROOT || '../..')

const [mode, seconds] = [process.argv[2], Number(process.argv[3])]
const rss = []
const t0 = performance.now()
let next = 1000
let made = 0
while (performance.now() - t0 < seconds * 1000) {
  const own = mode.startsWith('new') ? [`own-${made}`] : []
  const m = new Matcher(['googlebot', 'bingbot', /curl\/\d+/i, { pattern: '*.php', kind: 'wildcard' }, ...own])
  m.test('Mozilla/5.0 (compatible; Googlebot/2.1)')
  if (mode.endsWith(', dispose')) m[Symbol.dispose]()
  made++
  if (performance.now() - t0 >= next) {
    rss.push(process.memoryUsage.rss() / 2 ** 20)
    next += 1000
  }
}
// From the third second to the last (at least four seconds are sampled).
const growthMB = rss.length > 3 ? rss[rss.length - 1] - rss[2] : NaN
process.stdout.write(JSON.stringify({ made, rssMB: rss, growthMB }))
