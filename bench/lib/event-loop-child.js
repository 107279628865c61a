'use strict'
// Run in a child process so UV_THREADPOOL_SIZE can differ per run: prints, as JSON, the
// worst lateness (ms) of a 1 ms timer in each scenario, one value per round.
const qr = require('../..')

const rounds = Number(process.argv[2]) || 3
const OPTS = { errorCorrectionLevel: 'L', width: 200 }
const TEXT = 'Lorem ipsum dolor sit amet, consectetur adipiscing elit. Sed do eiusmod tempor incididunt ut labore et dolore magna aliqua. Ut enim ad minim veniam, quis nostrud exercitation ullamco laboris nisi ut aliquip.'
const batch = Array.from({ length: 1000 }, (_, i) => TEXT + i)

async function lateness (work) {
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
  worst = Math.max(worst, performance.now() - last - 1) // a timer that never fired was late all along
  clearInterval(timer)
  return worst
}

// As a server sees them: calls arrive 25 per macrotask and stay in flight together.
const arriving = () => new Promise((resolve) => {
  const calls = []
  let i = 0
  const next = () => {
    for (const end = Math.min(i + 25, batch.length); i < end; i++) calls.push(qr.generate(batch[i], OPTS))
    if (i < batch.length) setImmediate(next)
    else resolve(Promise.all(calls))
  }
  next()
})

async function main () {
  const out = { arriving: [], oneLoop: [], sync: [] }
  for (let r = 0; r < rounds; r++) {
    out.arriving.push(await lateness(arriving))
    out.oneLoop.push(await lateness(() => Promise.all(batch.map((t) => qr.generate(t, OPTS)))))
    out.sync.push(await lateness(async () => { for (const t of batch) qr.generateSync(t, OPTS) }))
  }
  process.stdout.write(JSON.stringify(out))
}

main()
