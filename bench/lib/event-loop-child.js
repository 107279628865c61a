'use strict'
// Run in a child process so UV_THREADPOOL_SIZE can differ per run: prints, as JSON, the
// worst lateness (ms) of a 1 ms timer in each scenario, one value per round.
const qr = require('../..')
const { arriving, timerLateness } = require('./measure')

const rounds = Number(process.argv[2]) || 3
const OPTS = { errorCorrectionLevel: 'L', width: 200 }
const TEXT = 'Lorem ipsum dolor sit amet, consectetur adipiscing elit. Sed do eiusmod tempor incididunt ut labore et dolore magna aliqua. Ut enim ad minim veniam, quis nostrud exercitation ullamco laboris nisi ut aliquip.'
const batch = Array.from({ length: 1000 }, (_, i) => TEXT + i)

// As a server sees them: calls arrive 25 per macrotask and stay in flight together.
const arrivingCalls = () => arriving(batch.length, 25, (i) => qr.generate(batch[i], OPTS))

// Each scenario's rounds run together, the calls arriving as a server's do first (after one
// warm-up round): a round right after another scenario's 1000 results would collect that
// scenario's garbage in its window (a 5-10 ms major GC here), whatever made the calls.
async function main () {
  const out = { arriving: [], oneLoop: [], sync: [] }
  await timerLateness(arrivingCalls)
  for (let r = 0; r < rounds; r++) out.arriving.push(await timerLateness(arrivingCalls))
  for (let r = 0; r < rounds; r++) out.oneLoop.push(await timerLateness(() => Promise.all(batch.map((t) => qr.generate(t, OPTS)))))
  for (let r = 0; r < rounds; r++) out.sync.push(await timerLateness(async () => { for (const t of batch) qr.generateSync(t, OPTS) }))
  process.stdout.write(JSON.stringify(out))
}

main()
