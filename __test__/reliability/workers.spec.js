'use strict'
// The addon inside worker_threads and a node:cluster: it loads, works and unloads in 8
// workers at once, three rounds, and a 2-process cluster serves the Express example.
const { test } = require('node:test')
const assert = require('node:assert/strict')
const path = require('node:path')
const { Worker } = require('node:worker_threads')
const { fork } = require('node:child_process')

const ROOT = path.join(__dirname, '..', '..')

const WORKER = `
  const { parentPort, workerData } = require('node:worker_threads')
  const qr = require(${JSON.stringify(ROOT)})
  ;(async () => {
    const m = new qr.Matcher(['bot', '^curl', '*.php'].map((p, i) => ({ pattern: p, kind: ['contains', 'regex', 'wildcard'][i] })))
    const pngs = await Promise.all(Array.from({ length: 50 }, (_, i) => qr.generate('worker ' + workerData + ' ' + i)))
    const lines = await m.scanLines(Buffer.from('a bot\\ncurl/8\\nhuman\\n/x.php'))
    parentPort.postMessage({ pngs: pngs.length, first: m.first('Googlebot'), lines: [...lines], sync: qr.generateSync('s').length > 0 })
  })()`

test('8 workers at once, three rounds: load, work, unload', { timeout: 120_000 }, async () => {
  for (let round = 0; round < 3; round++) {
    const results = await Promise.all(Array.from({ length: 8 }, (_, i) => new Promise((resolve, reject) => {
      const w = new Worker(WORKER, { eval: true, workerData: `${round}-${i}` })
      let message
      w.once('message', (m) => { message = m })
      w.once('error', reject)
      w.once('exit', (code) => (code === 0 ? resolve(message) : reject(new Error(`worker exited with ${code}`))))
    })))
    for (const r of results) assert.deepEqual(r, { pngs: 50, first: 0, lines: [0, 1, 3], sync: true })
  }
})

test('a worker terminated while its calls are in flight does not take the process down', async () => {
  const w = new Worker(`
    const qr = require(${JSON.stringify(ROOT)})
    for (let i = 0; i < 2000; i++) qr.generate('x'.repeat(500) + i)
    require('node:worker_threads').parentPort.postMessage('started')`, { eval: true })
  await new Promise((resolve) => w.once('message', resolve))
  await w.terminate()
  // The main thread still works.
  assert.ok((await require(ROOT).generate('after terminate')).length > 0)
})

test('a 2-process cluster serves the Express example without a crash', { timeout: 60_000 }, async () => {
  const primary = fork(path.join(__dirname, 'cluster-primary.js'), { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] })
  const { port } = await new Promise((resolve) => primary.once('message', resolve))
  const answers = await Promise.all(Array.from({ length: 200 }, (_, i) => fetch(`http://127.0.0.1:${port}/qrcode?text=cluster${i}`)))
  for (const res of answers) {
    assert.equal(res.status, 200)
    assert.equal(res.headers.get('content-type'), 'image/png')
    await res.arrayBuffer()
  }
  primary.send('stop')
  const code = await new Promise((resolve) => primary.once('exit', resolve))
  assert.equal(code, 0, 'no worker died')
})
