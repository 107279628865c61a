'use strict'
// Finding 3: a string is read whole, whatever its length and wherever a multi-byte character
// falls. The needle sits after padding that puts a 2-, 3- or 4-byte character across each
// boundary a read buffer could have (4 KiB, 8 KiB, 64 KiB), at every byte offset around
// it. Every method must find it, on the string as on its bytes, as JavaScript does.
const { test } = require('node:test')
const assert = require('node:assert/strict')
const { runCase, survived } = require('./child.js')

test('a needle after a multi-byte character across a read boundary is found by every method', () => {
  const a = survived(assert, runCase(`
    // Two patterns, so no single-literal JavaScript path answers for native.
    const m = new qr.Matcher(['needle', 'n[e]{2}dle\\\\d'])
    const misses = []
    let cases = 0
    for (const boundary of [4096, 8192, 65536]) {
      for (const ch of ['é', '€', '😀']) {
        const width = Buffer.byteLength(ch)
        for (let offset = -width - 2; offset <= 2; offset++) {
          const text = 'a'.repeat(boundary + offset) + ch + 'needle'
          const bytes = Buffer.from(text)
          const start = text.indexOf('needle')
          const got = {
            test: m.test(text),
            first: m.first(text),
            matches: Array.from(m.matches(text)).join(),
            findAll: JSON.stringify(m.findAll(text)),
            testMany: m.testMany([text, 'x'])[0],
            isMatch: qr.isMatch('need+le', text)
          }
          const want = {
            test: true,
            first: 0,
            matches: '0',
            findAll: JSON.stringify([{ pattern: 0, start, end: start + 6 }]),
            testMany: 1,
            isMatch: true
          }
          cases++
          if (JSON.stringify(got) !== JSON.stringify(want) || !m.test(bytes)) misses.push({ boundary, ch, offset, got })
        }
      }
    }
    answer({ cases, misses: misses.slice(0, 5) })
  `))
  assert.deepEqual(a.misses, [])
  assert.ok(a.cases >= 40)
})

test('scanLines reads a string whole: a match after a 4 KiB boundary on the last line', () => {
  const a = survived(assert, runCase(`(async () => {
    const m = new qr.Matcher(['needle', 'other\\\\d'])
    const text = 'x\\n' + 'a'.repeat(4093) + '€' + 'needle'
    answer({ lines: Array.from(await m.scanLines(text)), bytes: Array.from(await m.scanLines(Buffer.from(text))) })
  })()`))
  assert.deepEqual(a, { lines: [1], bytes: [1] })
})

// A string of 1024 UTF-16 units or more is read as its units and converted natively: ASCII
// narrowed, a few other characters converted by encoding_rs (a slice of 4096 units at a
// time, a surrogate pair kept whole across slices), many written by V8 with room for three
// bytes a unit, or past 64 MiB of that room (22,369,621 units) exactly its length, counted.
// Each must take the string whole: 3-byte characters only, needle included (the text fills
// the room to its last byte but one, the byte N-API keeps for a terminator), surrogate pairs,
// a needle at the very end, strings built by \`+\`, either side of 1024 units, and a lone
// surrogate on each path, which must still throw.
test('long strings: read whole on every path, lone surrogates still throw', () => {
  const a = survived(assert, runCase(`
    // A regex among them, so no JavaScript path answers for native.
    const m = new qr.Matcher(['needle', '一二三', 'n[e]{2}dle\\\\d'])
    let built = ''
    for (let i = 0; i < 50; i++) built += 'a'.repeat(3000) + (i % 10 ? '' : 'é')
    const cases = {
      threeByte: '€'.repeat(30000) + '一二三',
      threeByteMiss: '€'.repeat(30000) + '一二',
      pairs: '😀'.repeat(20000) + 'needle',
      latin1: 'é'.repeat(40000) + 'needle',
      ascii: 'a'.repeat(100000) + 'needle',
      pairAcrossSlices: 'a'.repeat(4095) + '😀é' + 'a'.repeat(5000) + 'needle',
      pairAcrossSlicesMiss: 'a'.repeat(4095) + '😀é' + 'a'.repeat(5000) + 'needl',
      built: built + 'needle',
      builtMiss: built + 'needl',
      short: '€'.repeat(1017) + 'needle',
      shortest: '€'.repeat(1018) + 'needle',
      measured: '€'.repeat(22369621) + 'needle',
      measuredMiss: '€'.repeat(22369621) + 'needl'
    }
    const got = {}
    for (const [name, text] of Object.entries(cases)) {
      got[name] = { test: m.test(text), first: m.first(text), bytes: m.test(Buffer.from(text)) }
    }
    // The pair across two slices of the conversion is itself, not two U+FFFD.
    const pair = new qr.Matcher(['😀é', 'x\\\\d'])
    got.pair = [cases.pairAcrossSlices, cases.pairAcrossSlicesMiss].map((t) => pair.test(t) && pair.findAll(t)[0].start)
    const throws = (text) => { const e = attempt(() => m.test(text)); return [e.name, e.code] }
    answer({
      got,
      lone: throws('a'.repeat(70000) + '\\ud800'),
      loneSparse: throws('a'.repeat(5000) + 'é\\udc00needle'),
      loneLong: throws('€'.repeat(30000) + '\\udc00needle'),
      // Past the 64 MiB room the length is counted first: U+FFFD's 3 bytes, not 2.
      loneMeasured: throws('€'.repeat(22369621) + '\\udc00')
    })
  `))
  const hit = { test: true, first: 0, bytes: true }
  const miss = { test: false, first: -1, bytes: false }
  assert.deepEqual(a.got, {
    threeByte: { ...hit, first: 1 },
    threeByteMiss: miss,
    pairs: hit,
    latin1: hit,
    ascii: hit,
    pairAcrossSlices: hit,
    pairAcrossSlicesMiss: miss,
    built: hit,
    builtMiss: miss,
    short: hit,
    shortest: hit,
    measured: hit,
    measuredMiss: miss,
    pair: [4095, 4095]
  })
  const invalid = ['TypeError', 'ERR_INVALID_ARG_VALUE']
  assert.deepEqual({ lone: a.lone, loneSparse: a.loneSparse, loneLong: a.loneLong, loneMeasured: a.loneMeasured }, { lone: invalid, loneSparse: invalid, loneLong: invalid, loneMeasured: invalid })
})
