'use strict'
// Finding 1: a Buffer/Uint8Array passed to an async function may be transferred, detached,
// resized, rewritten or handed to a worker the moment the call returns. The task must work
// on what the caller passed at the call, never read the caller's memory later. Each case
// queues the call behind others (so it is still waiting when the buffer goes), then
// compares the answer with the same call made on an untouched copy.
const { describe, test } = require('node:test')
const assert = require('node:assert/strict')
const { runCase, survived } = require('./child.js')

// How each async function is called on `data`, and how its answer is made comparable.
const CALLS = {
  generate: ['qr.generate(DATA)', 'hex(v)'],
  generateMany: ['qr.generateMany([DATA, DATA])', 'v.map(hex).join()'],
  toDataURL: ['qr.toDataURL(DATA)', 'v'],
  toString: ['qr.toString(DATA)', 'v'],
  scanLines: ['new qr.Matcher(["AAB", "C+A"]).scanLines(DATA)', 'Array.from(v).join()']
}

// Fills `view` with lines some of which match the scanLines patterns; QR input besides.
const FILL = `
  for (let i = 0; i < view.length; i++) view[i] = i % 7 === 6 ? 10 : 65 + (i * 31 % 3)
`

/**
 * The child: `before` (set-up), `view` over an ArrayBuffer made by `makeBuffer`, 400 calls
 * queued ahead,
 * the call under test, then `afterCall` (the attack), then the answer compared with the
 * same call on a copy made before the attack.
 */
function sequence (name, makeBuffer, afterCall, before = '') {
  const [call, shape] = CALLS[name]
  return `(async () => {
    ${before}
    ${makeBuffer}
    ${FILL}
    const expected = await ${call.replace('DATA', 'Buffer.from(view)').replace('DATA', 'Buffer.from(view)')}.then((v) => ${shape})
    const ahead = Array.from({ length: 400 }, () => qr.generate('x'.repeat(300)))
    const pending = ${call.replace(/DATA/g, 'view')}
    ${afterCall}
    const got = await settle(pending)
    await Promise.all(ahead)
    answer({ ok: got.ok, code: got.code, same: got.ok && (((v) => ${shape})(got.value)) === expected })
  })()`
}

// A view of 1000 bytes inside a 64 MiB ArrayBuffer: freeing it unmaps the pages.
const BIG = 'let ab = new ArrayBuffer(64 << 20); const view = new Uint8Array(ab, 1 << 20, 1000)'
const RESIZABLE = 'const ab = new ArrayBuffer(64 << 20, { maxByteLength: 64 << 20 }); const view = new Uint8Array(ab, 1 << 20, 1000)'

describe('a buffer the caller changes after the call: the task uses what was passed', () => {
  for (const name of Object.keys(CALLS)) {
    test(`${name}: the ArrayBuffer is transferred away and collected`, () => {
      const a = survived(assert, runCase(sequence(name, BIG, 'let moved = transfer(ab); moved = null; ab = null; collect()')))
      assert.deepEqual(a, { ok: true, same: true })
    })

    test(`${name}: a resizable ArrayBuffer is shrunk to nothing`, () => {
      const a = survived(assert, runCase(sequence(name, RESIZABLE, 'ab.resize(0); collect()')))
      assert.deepEqual(a, { ok: true, same: true })
    })

    test(`${name}: the bytes are rewritten at once`, () => {
      const a = survived(assert, runCase(sequence(name, BIG, 'view.fill(0x5a)')))
      assert.deepEqual(a, { ok: true, same: true })
    })

    test(`${name}: the buffer is posted to a worker that exits`, () => {
      const startWorker = `
        const { Worker } = require('node:worker_threads')
        const w = new Worker('require("node:worker_threads").parentPort.once("message", () => process.exit(0))', { eval: true })
        await new Promise((resolve) => w.once('online', resolve))`
      const postAndExit = `
        w.postMessage(ab, [ab]); ab = null
        await new Promise((resolve) => w.once('exit', resolve))
        collect()`
      const a = survived(assert, runCase(sequence(name, BIG, postAndExit, startWorker)))
      assert.deepEqual(a, { ok: true, same: true })
    })
  }

  test('generate: bytes on a SharedArrayBuffer rewritten by a worker while the call waits', () => {
    const a = survived(assert, runCase(`(async () => {
      const { Worker } = require('node:worker_threads')
      const sab = new SharedArrayBuffer(1000); const view = new Uint8Array(sab); view.fill(66)
      const expected = hex(await qr.generate(Buffer.from(view)))
      const w = new Worker('const { workerData, parentPort } = require("node:worker_threads"); parentPort.once("message", () => { new Uint8Array(workerData).fill(67); process.exit(0) })', { eval: true, workerData: sab })
      await new Promise((resolve) => w.once('online', resolve))
      const ahead = Array.from({ length: 400 }, () => qr.generate('x'.repeat(300)))
      const pending = qr.generate(view)
      w.postMessage('rewrite')
      await new Promise((resolve) => w.once('exit', resolve))
      const got = await settle(pending)
      await Promise.all(ahead)
      answer({ rewritten: view[0] === 67, same: got.ok && hex(got.value) === expected })
    })()`))
    assert.deepEqual(a, { rewritten: true, same: true })
  })

  for (const [name, call] of [['generate', 'qr.generate(view, { signal })'], ['scanLines', 'new qr.Matcher(["D"]).scanLines(view, { signal })']]) {
    test(`${name}: the signal's getter, read after the input, detaches the buffer`, () => {
      const a = survived(assert, runCase(`(async () => {
      let ab = new ArrayBuffer(64 << 20); const view = new Uint8Array(ab, 1 << 20, 1000); view.fill(68)
      const shape = (v) => '${name}' === 'generate' ? hex(v) : Array.from(v).join()
      const expected = shape(await ${call.replace('view', 'Buffer.from(view)').replace(', { signal }', '')})
      const ahead = Array.from({ length: 400 }, () => qr.generate('x'.repeat(300)))
      const controller = new AbortController()
      let reads = 0
      const signal = new Proxy(controller.signal, {
        get (target, key) {
          if (key === 'aborted' && ++reads === 2) { let moved = transfer(ab); moved = null; ab = null; collect() }
          const v = Reflect.get(target, key, target)
          return typeof v === 'function' ? v.bind(target) : v
        }
      })
      const got = await settle(${call})
      await Promise.all(ahead)
      answer({ reads, same: got.ok && shape(got.value) === expected })
    })()`))
      assert.equal(a.same, true)
      assert.ok(a.reads >= 2, 'the getter ran after the input was read')
    })
  }
})
