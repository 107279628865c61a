'use strict'
// A fuzz of call sequences over the whole async API: fast-check draws sequences of calls
// (on strings and on views of shared, resizable or plain ArrayBuffers), aborts, transfers,
// resizes, rewrites, hand-offs to a worker and garbage collections; one child process runs
// them all. Every call must settle with the answer the same call gives on a copy of its
// input taken when it was made, or with an AbortError when its signal aborted.
const { test } = require('node:test')
const assert = require('node:assert/strict')
const fc = require('fast-check')
const { runCase, survived } = require('./child.js')

const FUNCTIONS = ['generate', 'generateMany', 'toDataURL', 'toString', 'scanLines']
const op = fc.oneof(
  fc.record({ op: fc.constant('call'), fn: fc.constantFrom(...FUNCTIONS), buffer: fc.nat(3), length: fc.integer({ min: 1, max: 600 }), withSignal: fc.boolean() }),
  fc.record({ op: fc.constant('callString'), fn: fc.constantFrom(...FUNCTIONS), length: fc.integer({ min: 1, max: 600 }) }),
  fc.record({ op: fc.constantFrom('abort', 'transfer', 'resize', 'rewrite', 'postToWorker', 'gc', 'tick'), target: fc.nat(3) })
)

test('random sequences of calls and buffer tricks: every answer is the answer for the input as passed', () => {
  const sequences = fc.sample(fc.array(op, { minLength: 4, maxLength: 30 }), { numRuns: 60, seed: Number(process.env.FC_SEED || 20261130) })
  const a = survived(assert, runCase(`(async () => {
    const { Worker } = require('node:worker_threads')
    const sequences = ${JSON.stringify(sequences)}
    const matcher = new qr.Matcher(['AB', 'C+A', 'zz'])
    const run = {
      generate: (d, o) => qr.generate(d, o),
      generateMany: (d, o) => qr.generateMany([d, 'x'], o),
      toDataURL: (d, o) => qr.toDataURL(d, o),
      toString: (d, o) => qr.toString(d, o),
      scanLines: (d, o) => matcher.scanLines(d, o)
    }
    const shape = (v) => typeof v === 'string' ? v : Array.isArray(v) ? v.map((b) => hex(b)).join() : v instanceof Uint32Array ? Array.from(v).join() : hex(v)
    const worker = new Worker('require("node:worker_threads").parentPort.on("message", () => {})', { eval: true })
    const failures = []
    let settled = 0
    for (const [n, sequence] of sequences.entries()) {
      // Four buffers: plain, resizable, shared, and a small view into a large one.
      const buffers = [
        new ArrayBuffer(4096),
        new ArrayBuffer(4096, { maxByteLength: 8192 }),
        new SharedArrayBuffer(4096),
        new ArrayBuffer(1 << 20)
      ]
      const fill = (ab) => { const v = new Uint8Array(ab); for (let i = 0; i < v.length; i++) v[i] = i % 9 === 8 ? 10 : 65 + (i * 7 % 4) }
      buffers.forEach(fill)
      const controllers = [new AbortController(), new AbortController(), new AbortController(), new AbortController()]
      const pending = []
      for (const step of sequence) {
        if (step.op === 'call' || step.op === 'callString') {
          let input
          if (step.op === 'callString') input = 'A'.repeat(step.length)
          else {
            const ab = buffers[step.buffer]
            if (ab.byteLength === 0 || (ab.detached ?? false)) continue
            const length = Math.min(step.length, ab.byteLength - 16)
            if (length < 1) continue
            input = new Uint8Array(ab, 16, length)
          }
          const snapshot = typeof input === 'string' ? input : Buffer.from(input)
          const options = step.withSignal ? { signal: controllers[step.buffer].signal } : undefined
          const aborted = options && options.signal.aborted
          pending.push({ step, aborted, options, promise: settle(run[step.fn](input, options)), expected: run[step.fn](snapshot).then(shape, (e) => 'error ' + e.code) })
        } else if (step.op === 'abort') controllers[step.target].abort()
        else if (step.op === 'transfer') { const ab = buffers[step.target]; if (!(ab instanceof SharedArrayBuffer) && !ab.detached && ab.byteLength) { buffers[step.target] = transfer(ab) } }
        else if (step.op === 'resize') { const ab = buffers[step.target]; if (ab.resizable && !ab.detached) ab.resize(step.target % 2 ? 0 : 17) }
        else if (step.op === 'rewrite') { const ab = buffers[step.target]; if (!ab.detached && ab.byteLength) new Uint8Array(ab).fill(0x5a) }
        else if (step.op === 'postToWorker') { const ab = buffers[step.target]; if (!(ab instanceof SharedArrayBuffer) && !ab.detached && ab.byteLength) worker.postMessage(ab, [ab]) }
        else if (step.op === 'gc') collect()
        else await new Promise(setImmediate)
      }
      for (const p of pending) {
        const got = await p.promise
        const expected = await p.expected
        settled++
        const abortedLater = p.options && p.options.signal.aborted
        const ok = got.ok ? shape(got.value) === expected : (got.name === 'AbortError' && (p.aborted || abortedLater)) || ('error ' + got.code) === expected
        if (!ok) failures.push({ sequence: n, step: p.step, got: got.ok ? 'a different answer' : got.code + ' ' + got.message, expected: String(expected).slice(0, 60) })
      }
    }
    await worker.terminate()
    answer({ sequences: sequences.length, settled, failures: failures.slice(0, 5) })
  })()`))
  assert.deepEqual(a.failures, [])
  assert.equal(a.sequences, 60)
  assert.ok(a.settled > 100, `only ${a.settled} calls were made`)
})
