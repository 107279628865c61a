'use strict'
// The Buffer paths under valgrind (run by scripts/memcheck.js, not by the test runner): every
// async function with its buffer transferred away and collected, shrunk to nothing, or
// rewritten while the call waits; the sync matcher methods on buffers and on strings whose
// multi-byte characters straddle each read boundary. Small sizes: valgrind is ~50× slower.
const path = require('node:path')
const qr = require(process.env.QR_NATIVE_ROOT || path.join(__dirname, '..', '..'))

const transfer = (ab) => structuredClone(ab, { transfer: [ab] })
const collect = () => { globalThis.gc(); globalThis.gc() }

const calls = {
  generate: (data) => qr.generate(data),
  generateMany: (data) => qr.generateMany([data, data]),
  toDataURL: (data) => qr.toDataURL(data),
  toString: (data) => qr.toString(data),
  scanLines: (data) => new qr.Matcher(['AB', 'C+A']).scanLines(data),
  // One chunk through lines(): the chunk is copied at the write, then again for the threadpool.
  lines: (data) => new Promise((resolve, reject) => {
    const s = new qr.Matcher(['AB', 'C+A']).lines({ replace: '-' })
    s.on('data', () => {}).on('end', resolve).on('error', reject)
    s.end(data)
  })
}

const attacks = {
  transferred: (ab) => { transfer(ab); collect() },
  resized: (ab) => { ab.resize(0); collect() },
  rewritten: (ab, view) => { view.fill(0x5a) }
}

async function main () {
  let calls_ = 0
  for (const [name, call] of Object.entries(calls)) {
    for (const [attack, run] of Object.entries(attacks)) {
      const ab = attack === 'resized' ? new ArrayBuffer(8192, { maxByteLength: 8192 }) : new ArrayBuffer(8192)
      const view = new Uint8Array(ab, 512, 1000)
      for (let i = 0; i < view.length; i++) view[i] = i % 7 === 6 ? 10 : 65 + (i % 3)
      const ahead = Array.from({ length: 40 }, () => qr.generate('x'.repeat(200)))
      const pending = call(view)
      run(ab, view)
      await pending
      await Promise.all(ahead)
      calls_++
    }
    process.stderr.write(`memcheck workload: ${name} done\n`)
  }
  // Styled codes: a logo file in a buffer attacked while the call waits, in every format.
  const logo = require('node:fs').readFileSync(path.join(__dirname, '..', 'fixtures', 'logos', 'pino-favicon.png'))
  const gradient = { type: 'radial', colorStops: [{ offset: 0, color: '#123' }, { offset: 1, color: '#a00' }] }
  for (const [attack, run] of Object.entries(attacks)) {
    for (const type of ['png', 'svg', 'jpeg', 'webp']) {
      const ab = attack === 'resized' ? new ArrayBuffer(4096, { maxByteLength: 4096 }) : new ArrayBuffer(4096)
      const view = new Uint8Array(ab, 512, logo.length)
      view.set(logo)
      const ahead = Array.from({ length: 10 }, () => qr.generate('x'.repeat(200)))
      const pending = qr.generate('styled under valgrind', { type, width: 120, style: { dots: { type: 'classy-rounded', gradient }, shape: 'circle', logo: { image: view, size: 0.1 } } })
      run(ab, view)
      await pending
      await Promise.all(ahead)
      calls_++
    }
  }
  process.stderr.write('memcheck workload: styled done\n')
  const m = new qr.Matcher(['needle', 'n[e]{2}dle\\d'])
  for (const boundary of [4096, 8192]) {
    for (const ch of ['é', '€', '😀']) {
      for (let offset = -5; offset <= 1; offset++) {
        const text = 'a'.repeat(boundary + offset) + ch + 'needle'
        if (!m.test(text) || m.first(text) !== 0 || m.findAll(text).length !== 1 || !m.test(Buffer.from(text))) {
          throw new Error(`missed the needle at ${boundary}${offset} after ${ch}`)
        }
        m.testMany([text, Buffer.from(text)])
        m.firstMany([text, Buffer.from(text)])
        if (m.replace(text, '<$&>') !== text.replace(/needle|n[e]{2}dle\d/g, '<$&>')) throw new Error('replace differs')
        qr.isMatch('need+le', text)
        calls_++
      }
    }
  }
  // A matcher disposed with a call in flight, and one whose handle is reused.
  for (let i = 0; i < 4; i++) {
    const d = new qr.Matcher(['AB', /C+A/])
    const pending = d.scanLines(Buffer.from('xxAB\nCCA\n'))
    d[Symbol.dispose]()
    if ((await pending).length !== 2) throw new Error('a scan in flight lost its matcher')
    const next = new qr.Matcher(['AB'])
    if (!next.test('AB')) throw new Error('a reused handle answers for the new matcher')
    calls_++
  }
  console.log(`memcheck workload: ${calls_} sequences`)
}

main().catch((e) => { console.error(e); process.exit(1) })
