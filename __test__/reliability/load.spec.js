'use strict'
// Load and cancellation: 10,000 calls in flight complete correctly while other users of the
// threadpool progress; an AbortSignal cancels queued work; many async scans of one shared
// Matcher give the answers of sequential ones.
const { test, after } = require('node:test')
const assert = require('node:assert/strict')
const fs = require('node:fs')
const qr = require('../..')
const { QrDecoder } = require('../../support/decoder')

const decoder = new QrDecoder()
after(() => decoder.close())

// Our queue keeps 10,000 QR tasks from taking the threadpool: a file read made after them
// completes correctly while most of them still wait (libuv alone would run it after all).
test('10,000 generate calls in flight all complete correctly, and an fs.readFile made after them completes first', async () => {
  let pending = 10000
  const calls = Array.from({ length: 10000 }, (_, i) => qr.generate(`load ${i}`).then((png) => { pending--; return png }))
  const read = fs.promises.readFile(__filename, 'utf8').then((text) => ({ text, pendingThen: pending }))
  const [pngs, file] = await Promise.all([Promise.all(calls), read])
  assert.equal(pngs.length, 10000)
  assert.match(file.text, /10,000 generate calls/)
  assert.ok(file.pendingThen > 5000, `the read finished with ${file.pendingThen} calls still pending`)
  for (const i of [0, 1234, 5555, 9999]) assert.deepEqual(await decoder.decode(pngs[i]), Buffer.from(`load ${i}`))
  for (const png of pngs) assert.equal(png.subarray(1, 4).toString(), 'PNG')
})

test('aborting cancels queued calls: they reject with AbortError without being encoded', async () => {
  const controller = new AbortController()
  const calls = Array.from({ length: 3000 }, (_, i) => qr.generate('cancel me '.repeat(40) + i, { signal: controller.signal }))
  controller.abort(new Error('shutting down'))
  const settled = await Promise.allSettled(calls)
  const aborted = settled.filter((s) => s.status === 'rejected')
  assert.ok(aborted.length > 2500, `${aborted.length} of 3000 aborted`)
  for (const s of aborted) {
    assert.equal(s.reason.code, 'ABORT_ERR')
    assert.equal(s.reason.cause.message, 'shutting down')
  }
})

test('100 concurrent scans of one shared Matcher give the sequential answers', async () => {
  const m = new qr.Matcher(require('crawler-user-agents').map((c) => c.pattern))
  const lines = require('crawler-user-agents').flatMap((c) => c.instances || []).concat(Array.from({ length: 2000 }, (_, i) => `Mozilla/5.0 human ${i}`))
  const data = Buffer.from(lines.join('\n'))
  const expected = [...await m.scanLines(data)]
  const concurrent = await Promise.all(Array.from({ length: 100 }, () => m.scanLines(data)))
  for (const r of concurrent) assert.deepEqual([...r], expected)
  assert.deepEqual(expected, lines.flatMap((l, i) => (m.test(l) ? [i] : [])))
})

test('a large log scans without a string per line', async () => {
  const m = new qr.Matcher(['bot'], { kind: 'contains' })
  const log = Buffer.alloc(64 << 20, 'human line\n')
  log.write('a bot\n', 11 * 1000)
  const found = await m.scanLines(log)
  assert.deepEqual([...found], [1000])
})
