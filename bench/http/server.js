'use strict'
// One tier of the HTTP table, run as a child of bench/http.js: GET /qrcode?text=…, 400 for a
// missing or >512-character text, a PNG otherwise. Tell it which tier in argv[2]:
//   tier0  Express + qrcode (pure JS)
//   tier3  Express + generateSync (native, on the main thread)
//   ours   Express + generate (native, on the threadpool)
// It reports its port, then on request its RSS and event-loop delay, over IPC.
const express = require('express')
const { monitorEventLoopDelay } = require('node:perf_hooks')

const tier = process.argv[2]
const render = {
  tier0: () => { const QRCode = require('qrcode'); return (text) => QRCode.toBuffer(text) },
  tier3: () => { const { generateSync } = require('../..'); return async (text) => generateSync(text) },
  ours: () => { const { generate } = require('../..'); return (text) => generate(text) }
}[tier]()

const app = express()
app.get('/qrcode', async (req, res, next) => {
  const text = req.query.text
  if (typeof text !== 'string' || text.length === 0 || text.length > 512) {
    return res.status(400).type('text/plain').send('query parameter "text" is required, at most 512 characters\n')
  }
  try {
    res.type('image/png').send(await render(text))
  } catch (err) {
    next(err)
  }
})

const delay = monitorEventLoopDelay({ resolution: 1 })
const server = app.listen(0, '127.0.0.1', () => process.send({ port: server.address().port }))
process.on('message', (msg) => {
  if (msg === 'start') {
    delay.reset()
    delay.enable()
  } else if (msg === 'report') {
    delay.disable()
    process.send({
      rssMB: process.memoryUsage().rss / 2 ** 20,
      eventLoopDelayMs: { p50: delay.percentile(50) / 1e6, p99: delay.percentile(99) / 1e6, max: delay.max / 1e6 }
    })
  }
})
