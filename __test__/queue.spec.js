'use strict'
// The queue in front of the libuv threadpool: its limit, FIFO order, what other pool users
// see during a burst, backpressure, aborts while waiting, counters, and worker threads
// sharing one limit. Every case runs in a child process (the limit is process-wide), and
// bounds are checked by order and counters, never by the clock: a file read must finish
// while our queue still holds waiting calls. Where a case needs calls to stay waiting, a
// long scan holds the one slot first (a pool thread runs waiting calls as soon as it can).

// Holds the slot for a while: a scan of 64 MiB with a pattern no prefilter can skip.
const BLOCKER = "const blocker = new qr.Matcher(['[a-w]{3}x\\\\d', 'q\\\\d']).scanLines(Buffer.alloc(64 << 20, 'x'))"
const { describe, test } = require('node:test')
const assert = require('node:assert/strict')
const os = require('node:os')
const { runCase, survived } = require('./hostile/child.js')
const { WASI, unlessWasi } = require('./helpers/wasi.js')

describe('the limit', () => {
  for (const pool of [2, 4, 8]) {
    test(`the default is min(UV_THREADPOOL_SIZE − 1, cores − 1), at least 1 (UV_THREADPOOL_SIZE=${pool})`, () => {
      const r = runCase('answer(qr.concurrency())', { env: { UV_THREADPOOL_SIZE: String(pool) } })
      assert.equal(survived(assert, r), Math.max(1, Math.min(pool - 1, os.availableParallelism() - 1)))
    })
  }

  test('no more than the limit run at once, and calls start in the order they were made', () => {
    const a = survived(assert, runCase(`(async () => {
      qr.setConcurrency(1)
      const order = []
      let maxRunning = 0, maxQueued = 0
      const sample = setInterval(() => { const s = qr.stats(); maxRunning = Math.max(maxRunning, s.running); maxQueued = Math.max(maxQueued, s.queued) }, 0)
      await Promise.all(Array.from({ length: 300 }, (_, i) => qr.generate('item ' + i).then(() => order.push(i))))
      clearInterval(sample)
      qr.setConcurrency(3)
      let maxRunning3 = 0
      const sample3 = setInterval(() => { maxRunning3 = Math.max(maxRunning3, qr.stats().running) }, 0)
      await Promise.all(Array.from({ length: 300 }, (_, i) => new qr.Matcher(['x' + i, 'y']).scanLines('x'.repeat(20000) + i)))
      clearInterval(sample3)
      answer({ fifo: order.every((v, i) => v === i), maxRunning, maxQueued, maxRunning3, stats: qr.stats() })
    })()`))
    assert.equal(a.fifo, true, 'with one slot, calls settle in the order they were made')
    assert.equal(a.maxRunning, 1)
    assert.ok(a.maxQueued > 100, `calls waited in our queue (${a.maxQueued})`)
    assert.ok(a.maxRunning3 <= 3, `${a.maxRunning3} ran at once under a limit of 3`)
    const { nativeBytes, ...counters } = a.stats
    assert.deepEqual(counters, { queued: 0, running: 0, completed: 600, rejected: 0 })
    assert.ok(Number.isInteger(nativeBytes) && nativeBytes > 0, `nativeBytes ${nativeBytes}`)
  })

  test('when a call settles, stats() already counts it completed and its slot free', () => {
    // The pool thread gives its core up right after sending a result home, so the main
    // thread may settle the promise before that thread runs again: the counters must be
    // final before the result is sent.
    const a = survived(assert, runCase(`(async () => {
      const seen = []
      for (const concurrency of [1, 2]) {
        qr.setConcurrency(concurrency)
        for (let i = 0; i < 300; i++) {
          const before = qr.stats().completed
          await qr.generate('settle ' + i)
          const s = qr.stats()
          if (s.running !== 0 || s.completed !== before + 1) seen.push({ i, concurrency, running: s.running, completed: s.completed - before })
          // A burst, then the same check after its last call.
          if (i % 50 === 0) {
            const start = qr.stats().completed
            await Promise.all(Array.from({ length: 20 }, (_, k) => qr.generate('burst ' + k)))
            const b = qr.stats()
            if (b.running !== 0 || b.queued !== 0 || b.completed !== start + 20) seen.push({ i, burst: true, running: b.running, completed: b.completed - start })
          }
        }
      }
      answer({ seen: seen.slice(0, 5), count: seen.length })
    })()`))
    assert.deepEqual(a, { seen: [], count: 0 })
  })

  test('raising the limit starts waiting calls at once', () => {
    const a = survived(assert, runCase(`(async () => {
      qr.setConcurrency(1)
      // Long scans, so that the three can be seen running together (2000 generate calls
      // once were, until each took ~20 µs and finished between two samples).
      const m = new qr.Matcher(['[a-w]{3}x\\\\d', 'q\\\\d'])
      const text = Buffer.alloc(16 << 20, 'x')
      const all = Array.from({ length: 6 }, () => m.scanLines(text))
      const before = qr.stats().running
      qr.setConcurrency(3)
      let seen = 0
      for (let i = 0; i < 50 && seen < 3; i++) { await new Promise(setImmediate); seen = Math.max(seen, qr.stats().running) }
      await Promise.all(all)
      answer({ before, seen })
    })()`))
    assert.deepEqual(a, { before: 1, seen: 3 })
  })

  test('setConcurrency and setMaxQueue check their argument', () => {
    const a = survived(assert, runCase(`answer([
      attempt(() => qr.setConcurrency(0)), attempt(() => qr.setConcurrency(1.5)), attempt(() => qr.setConcurrency(1025)),
      attempt(() => qr.setConcurrency('2')), attempt(() => qr.setMaxQueue(-1)), attempt(() => qr.setMaxQueue(NaN)),
      attempt(() => qr.setMaxQueue(Infinity)), attempt(() => qr.setMaxQueue(0)), attempt(() => qr.setConcurrency(1024))
    ].map((r) => r.ok ? 'ok' : r.code + ' ' + r.message))`))
    assert.match(a[0], /^ERR_OUT_OF_RANGE .*"n".*>= 1 and <= 1024/)
    assert.match(a[1], /^ERR_OUT_OF_RANGE/)
    assert.match(a[2], /^ERR_OUT_OF_RANGE/)
    assert.match(a[3], /^ERR_INVALID_ARG_TYPE/)
    assert.match(a[4], /^ERR_OUT_OF_RANGE/)
    assert.match(a[5], /^ERR_OUT_OF_RANGE/)
    assert.deepEqual(a.slice(6), ['ok', 'ok', 'ok'])
  })
})

describe('other threadpool users during a burst of ours', () => {
  test('fs.readFile, dns.lookup and crypto.pbkdf2 finish while 10,000 generate calls still wait (default settings)', () => {
    const a = survived(assert, runCase(`(async () => {
      const fs = require('node:fs'), dns = require('node:dns'), crypto = require('node:crypto')
      const burst = Promise.all(Array.from({ length: 10000 }, (_, i) => qr.generate('https://example.com/' + i)))
      const waitingWhenDone = (start) => new Promise((resolve) => start(() => resolve(qr.stats().queued)))
      const others = await Promise.all([
        waitingWhenDone((done) => fs.readFile(__filename === '[eval]' ? '/proc/self/status' : __filename, done)),
        waitingWhenDone((done) => dns.lookup('localhost', done)),
        waitingWhenDone((done) => crypto.pbkdf2('secret', 'salt', 1, 32, 'sha256', done))
      ])
      await burst
      answer(others)
    })()`))
    for (const queued of a) assert.ok(queued > 1000, `finished with only ${queued} of our calls still waiting`)
  })

  test('two worker threads bursting at once share the one limit and leave the pool to fs', {
    skip: unlessWasi('each worker thread loads its own WebAssembly instance, with its own memory and queue (the next test)')
  }, () => {
    const a = survived(assert, runCase(`(async () => {
      const { Worker } = require('node:worker_threads')
      const fs = require('node:fs')
      const source = \`const qr = require(\${JSON.stringify(ROOT)}); const { parentPort } = require('node:worker_threads')
        Promise.all(Array.from({ length: 4000 }, (_, i) => qr.generate('w' + i))).then((b) => parentPort.postMessage(b.length))\`
      const workers = [0, 1].map(() => new Worker(source, { eval: true }))
      const online = Promise.all(workers.map((w) => new Promise((resolve) => w.once('online', resolve))))
      await online
      let maxRunning = 0, maxQueued = 0
      const sample = setInterval(() => { const s = qr.stats(); maxRunning = Math.max(maxRunning, s.running); maxQueued = Math.max(maxQueued, s.queued) }, 0)
      while (qr.stats().queued < 1000) await new Promise(setImmediate)
      const queuedAtRead = await new Promise((resolve) => fs.readFile('/proc/self/status', () => resolve(qr.stats().queued)))
      const made = await Promise.all(workers.map((w) => new Promise((resolve) => w.once('message', resolve))))
      clearInterval(sample)
      answer({ limit: qr.concurrency(), maxRunning, maxQueued, queuedAtRead, made })
    })()`))
    assert.ok(a.maxRunning <= a.limit, `${a.maxRunning} ran at once under a limit of ${a.limit}`)
    assert.ok(a.maxQueued > 1000)
    assert.ok(a.queuedAtRead > 0, 'the file read finished while the workers\' calls still waited')
    assert.deepEqual(a.made, [4000, 4000])
  })

  test('under WebAssembly each worker thread has its own instance and queue: both finish, the main thread sees neither', {
    skip: WASI ? false : 'only under WebAssembly: natively the threads share one queue (the test before)'
  }, () => {
    const a = survived(assert, runCase(`(async () => {
      const { Worker } = require('node:worker_threads')
      const source = \`const qr = require(\${JSON.stringify(ROOT)}); const { parentPort } = require('node:worker_threads')
        Promise.all(Array.from({ length: 4000 }, (_, i) => qr.generate('w' + i))).then((b) => parentPort.postMessage([b.length, qr.stats().completed]))\`
      const before = qr.stats().completed
      const workers = [0, 1].map(() => new Worker(source, { eval: true }))
      const made = await Promise.all(workers.map((w) => new Promise((resolve) => w.once('message', resolve))))
      answer({ made, seenHere: qr.stats().completed - before })
    })()`))
    assert.deepEqual(a.made, [[4000, 4000], [4000, 4000]])
    assert.equal(a.seenHere, 0)
  })
})

describe('backpressure and aborts', () => {
  test('past setMaxQueue a call rejects at once with ERR_QR_NATIVE_QUEUE_FULL, reading no argument', () => {
    const a = survived(assert, runCase(`(async () => {
      const compat = require(ROOT + '/compat')
      qr.setConcurrency(1)
      qr.setMaxQueue(10)
      ${BLOCKER}
      let optionReads = 0
      const options = { get margin () { optionReads++; return 2 } }
      const calls = Array.from({ length: 50 }, () => settle(qr.generate('x', options)))
      const scanning = settle(new qr.Matcher(['x']).scanLines('x'))
      const compatCall = settle(compat.toBuffer('x'))
      const [scan, viaCompat, results] = await Promise.all([scanning, compatCall, Promise.all(calls)])
      await blocker
      answer({
        ok: results.filter((r) => r.ok).length,
        full: results.filter((r) => r.code === 'ERR_QR_NATIVE_QUEUE_FULL').length,
        message: results.find((r) => !r.ok).message,
        name: results.find((r) => !r.ok).name,
        optionReads,
        scan: scan.code,
        compat: viaCompat.message,
        stats: qr.stats()
      })
    })()`))
    assert.equal(a.ok, 10, 'ten waited behind the scan that held the slot')
    assert.equal(a.full, 40)
    assert.equal(a.name, 'Error')
    assert.match(a.message, /queue is full: 10 calls/)
    assert.equal(a.optionReads, 10, 'a refused call read nothing')
    assert.equal(a.scan, 'ERR_QR_NATIVE_QUEUE_FULL')
    assert.match(a.compat, /queue is full/)
    assert.equal(a.stats.rejected, 42)
  })

  test('aborting waiting calls removes them from the queue at once and rejects them', () => {
    const a = survived(assert, runCase(`(async () => {
      qr.setConcurrency(1)
      ${BLOCKER}
      const events = []
      const running = Array.from({ length: 200 }, (_, i) => qr.generate('first ' + i).then(() => events.push('done')))
      const controller = new AbortController()
      const waiting = Array.from({ length: 100 }, () => qr.generate('abort me', { signal: controller.signal }).then(() => 'resolved', (e) => { events.push('aborted'); return e.name }))
      const queuedBefore = qr.stats().queued
      controller.abort()
      const queuedAfter = qr.stats().queued
      const outcomes = await Promise.all(waiting)
      await Promise.all(running)
      await blocker
      answer({ queuedBefore, queuedAfter, outcomes: [...new Set(outcomes)], abortedFirst: events.indexOf('aborted') < events.lastIndexOf('done') })
    })()`))
    assert.equal(a.queuedBefore, 300)
    assert.equal(a.queuedBefore - a.queuedAfter, 100, 'all 100 left the queue on abort()')
    assert.deepEqual(a.outcomes, ['AbortError'])
    assert.equal(a.abortedFirst, true, 'they rejected before the calls ahead of them finished')
  })
})

describe('stats().nativeBytes', () => {
  test('counts the addon\'s own heap: up by a matcher\'s patterns while it lives, down after it is collected', () => {
    const a = survived(assert, runCase(`(async () => {
      const { nativeBytesAfterGc } = require(${JSON.stringify(require.resolve('./helpers/native-heap'))})
      const settled = () => nativeBytesAfterGc(qr)
      const base = await settled()
      let m = new qr.Matcher(Array.from({ length: 2000 }, (_, i) => 'literal-' + i + '-' + 'x'.repeat(1000)), { kind: 'contains' })
      const live = await settled()
      m.test('x')
      m = null
      const after = await settled()
      answer({ base, live, after })
    })()`))
    const MiB = 2 ** 20
    // 2000 patterns of ~1 KiB: at least their bytes, and the automaton built from them.
    assert.ok(a.live - a.base > 2 * MiB, `a live matcher holds ${(a.live - a.base) / MiB} MiB`)
    assert.ok(Math.abs(a.after - a.base) < 0.5 * MiB, `after collection ${(a.after - a.base) / MiB} MiB remain`)
  })
})
