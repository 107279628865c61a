'use strict'
// `matcher[Symbol.dispose]()`: the compiled patterns are freed at once, every later call
// throws ERR_QR_NATIVE_DISPOSED (the few literals answered in JavaScript too), a call in
// flight on the threadpool finishes; and a loop that makes and disposes 100,000 matchers
// without ever yielding to the event loop keeps its memory flat (a child process, its RSS
// sampled every second).
const { test } = require('node:test')
const assert = require('node:assert/strict')
const { unlessWasi } = require('./helpers/wasi.js')
const { Matcher } = require('..')
const { runCase, survived } = require('./hostile/child.js')

const disposedError = (e) => e instanceof Error && e.code === 'ERR_QR_NATIVE_DISPOSED' && /disposed/.test(e.message)

test('after dispose, every method throws ERR_QR_NATIVE_DISPOSED, for every kind of matcher', async () => {
  const sets = [['bot'], ['bot', 'crawl'], [/curl\/\d/i, 'wget'], [{ pattern: '*.php', kind: 'glob' }], ['(?<!lib)http']]
  for (const patterns of sets) {
    const m = new Matcher(patterns)
    assert.equal(typeof m.test('a bot'), 'boolean')
    m[Symbol.dispose]()
    const calls = {
      test: () => m.test('a bot'),
      first: () => m.first('a bot'),
      matches: () => m.matches('a bot'),
      findAll: () => m.findAll('a bot'),
      testMany: () => m.testMany(['a bot']),
      firstMany: () => m.firstMany(['a bot']),
      replace: () => m.replace('a bot', '-'),
      size: () => m.size,
      'test on a Buffer': () => m.test(Buffer.from('a bot'))
    }
    for (const [name, call] of Object.entries(calls)) assert.throws(call, disposedError, `${patterns}: ${name}`)
    await assert.rejects(m.scanLines('a bot\n'), disposedError)
    // A second dispose does nothing; so does dispose().
    m[Symbol.dispose]()
    m.dispose()
  }
})

test('a subclass disposes the same way; another matcher is untouched', () => {
  class Bots extends Matcher {}
  const a = new Bots(['bot', /spider/])
  const b = new Matcher(['bot', /spider/])
  a.dispose()
  assert.throws(() => a.test('bot'), disposedError)
  assert.equal(b.test('a bot'), true)
  assert.deepEqual([...b.matches('bot spider')], [0, 1])
})

test('a scanLines call in flight when its matcher is disposed finishes with its answer', async () => {
  const m = new Matcher(['needle'])
  const data = Buffer.from('hay\n'.repeat(200000) + 'needle\n')
  const pending = m.scanLines(data)
  m[Symbol.dispose]()
  assert.deepEqual([...await pending], [200000])
})

test('100,000 matchers made and disposed in a loop that never yields: RSS flat from the third second on', {
  skip: unlessWasi('a WebAssembly memory grows and never shrinks, so RSS does not show what is freed')
}, () => {
  const a = survived(assert, runCase(`
    const samples = []
    const t0 = Date.now()
    let next = 1000
    // (Elsewhere than x64, the loop is run under qemu in CI: its first 8 s, 4 samples or more.)
    const seconds = ${process.arch === 'x64' ? 'Infinity' : 8}
    for (let i = 0; i < 100000 && Date.now() - t0 < seconds * 1000; i++) {
      const m = new qr.Matcher(['googlebot', 'bingbot', /curl\\/\\d/, { pattern: '*.php', kind: 'wildcard' }])
      m.test('Mozilla/5.0 (compatible; Googlebot/2.1)')
      m.replace('curl/8 and bingbot', '-')
      m[Symbol.dispose]()
      if (Date.now() - t0 >= next) { samples.push(process.memoryUsage.rss()); next += 1000 }
    }
    samples.push(process.memoryUsage.rss())
    answer({ samples, seconds: (Date.now() - t0) / 1000 })`, { timeout: 300_000 }))
  const mb = a.samples.map((b) => b / 1048576)
  assert.ok(mb.length >= 4, `the loop took ${a.seconds} s: too short to sample`)
  const growth = Math.max(...mb.slice(2)) - mb[2]
  assert.ok(growth < 20, `RSS from the third second on: ${mb.map((x) => x.toFixed(1)).join(', ')} MB`)
})
