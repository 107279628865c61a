'use strict'
// A node:cluster of 2 processes serving the Express example on one port of 127.0.0.1.
// Reports { port } to its parent once both listen; on 'stop' exits 0 if no worker died.
const cluster = require('node:cluster')
const net = require('node:net')
const path = require('node:path')

function freePort () {
  return new Promise((resolve) => {
    const probe = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address()
      probe.close(() => resolve(port))
    })
  })
}

if (cluster.isPrimary) {
  (async () => {
    const port = await freePort()
    let died = false
    let listening = 0
    const workers = [cluster.fork({ CLUSTER_PORT: String(port) }), cluster.fork({ CLUSTER_PORT: String(port) })]
    cluster.on('exit', (worker, code, signal) => {
      if (!worker.exitedAfterDisconnect) died = true
      if (code || signal) died = died || !worker.exitedAfterDisconnect
    })
    cluster.on('listening', () => { if (++listening === 2) process.send({ port }) })
    process.on('message', (m) => {
      if (m !== 'stop') return
      for (const w of workers) w.disconnect()
      setTimeout(() => process.exit(died ? 1 : 0), 500)
    })
  })()
} else {
  const { createApp } = require(path.join(__dirname, '..', '..', 'examples', 'express', 'server.js'))
  createApp().listen(Number(process.env.CLUSTER_PORT), '127.0.0.1')
}
