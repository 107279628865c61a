'use strict'
// Every dot type × corner-square type × corner-dot type (6 × 7 × 7 = 294), each drawn in four
// geometries (200 and 260 px square, 360 and 500 px circle, four texts, half with gradients)
// and decoded by zxing-wasm (a decoder we did not write) and by our own `decodeSync`. This is
// the measurement behind ERR_QR_STYLE_UNREADABLE: a combination `generate` accepts must be
// read by both in every geometry. A refused one is drawn anyway (`__styledUncheckedSync`, the
// drawer without the check) in 20 more geometries, and each refusal rule must be one that
// zxing-wasm misses in some of them. If a rule's combinations start to scan everywhere, or an
// accepted combination fails, this test fails and the list in docs/styles.md is stale.
const test = require('node:test')
const assert = require('node:assert/strict')
const q = require('../index.js')
const binding = require('../lib/load.js')
const { QrDecoder } = require('./helpers/decoder.js')

const DOTS = ['square', 'dots', 'rounded', 'extra-rounded', 'classy', 'classy-rounded']
const RINGS = ['square', 'dot', 'extra-rounded', 'dots', 'rounded', 'classy', 'classy-rounded']
const CENTRES = ['square', 'dot', 'dots', 'rounded', 'extra-rounded', 'classy', 'classy-rounded']
const MORE = []
for (let t = 0; t < 20; t++) {
  const text = ['mailto:someone@example.com?subject=', 'https://example.com/item/', 'tel:+1555'][t % 3] + 'x'.repeat(t * 4) + t
  MORE.push({ text, width: [200, 260, 300, 360, 500][t % 5], shape: t % 2 ? 'circle' : 'square' })
}
const GEOMETRIES = [
  { text: 'https://qr-native.example/styled?id=42', width: 200, shape: 'square' },
  { text: 'Styled codes scan: 0123456789 ABCDEFGH', width: 260, shape: 'square' },
  { text: 'https://example.com/item/xxxxxxxxxxxxxxxxxxxxxxxxxxxxxx7', width: 360, shape: 'circle' },
  { text: 'mailto:someone@example.com?subject=styled', width: 500, shape: 'circle' }
]

function styleOf (dots, ring, centre, i) {
  const gradient = i % 2 === 1
  return {
    dots: gradient
      ? { type: dots, gradient: { type: i % 4 === 1 ? 'linear' : 'radial', rotation: i / 7, colorStops: [{ offset: 0, color: '#1a237e' }, { offset: 1, color: '#6a1b9a' }] } }
      : { type: dots, color: '#222' },
    cornersSquare: { type: ring, ...(gradient ? { color: '#b71c1c' } : {}) },
    cornersDot: { type: centre }
  }
}

test('every finder combination: accepted ones scan in zxing-wasm and decode, refused ones do not always scan in zxing-wasm', async () => {
  const zxing = new QrDecoder()
  const refused = []
  const failures = []
  let i = 0
  for (const dots of DOTS) {
    for (const ring of RINGS) {
      for (const centre of CENTRES) {
        const name = `${dots}/${ring}/${centre}`
        const style = styleOf(dots, ring, centre, i++)
        let refusal = null
        try {
          q.generateSync('probe', { style })
        } catch (e) {
          assert.equal(e.code, 'ERR_QR_STYLE_UNREADABLE', `${name}: ${e.message}`)
          assert.ok(e instanceof TypeError)
          assert.match(e.message, /use corners(Dot 'dot'|Square 'rounded') instead/)
          refusal = e
        }
        let missed = 0
        for (const g of refusal ? [...GEOMETRIES, ...MORE] : GEOMETRIES) {
          const options = { width: g.width, margin: 2, style: { ...style, shape: g.shape } }
          const png = refusal ? binding.__styledUncheckedSync(g.text, options) : q.generateSync(g.text, options)
          const read = await zxing.decode(png)
          const ok = read !== null && read.toString() === g.text
          if (!ok) missed++
          if (refusal) continue
          if (!ok) failures.push(`${name} ${g.width} ${g.shape}: zxing-wasm read ${read}`)
          const mine = q.decodeSync(png)
          if (mine.length !== 1 || mine[0].text !== g.text) failures.push(`${name} ${g.width} ${g.shape}: decode read ${JSON.stringify(mine.map((c) => c.text))}`)
        }
        if (refusal) refused.push({ name, missed, rule: /\(([^)]+)\)/.exec(refusal.message)[1] })
      }
    }
  }
  assert.deepEqual(failures, [], 'every accepted combination scans')
  // cornersDot 'dots' (6 × 7), cornersSquare 'dot' around 'square', 'classy', 'classy-rounded'
  // (6 × 3), and dots 'dots' with cornersSquare 'dots' (the 6 centres not counted yet).
  assert.equal(refused.length, 42 + 18 + 6)
  const rules = {}
  for (const r of refused) {
    rules[r.rule] ??= { combinations: 0, drawn: 0, missed: 0 }
    rules[r.rule].combinations++
    rules[r.rule].drawn += GEOMETRIES.length + MORE.length
    rules[r.rule].missed += r.missed
  }
  for (const [rule, n] of Object.entries(rules)) {
    console.log(`refused (${rule}): zxing-wasm missed ${n.missed} of ${n.drawn} codes of ${n.combinations} combinations`)
    assert.ok(n.missed > 0, `the rule "${rule}" refuses codes zxing-wasm reads: drop it`)
  }
  assert.equal(Object.keys(rules).length, 3)
})
