'use strict'
// Every dot type × corner-square type × corner-dot type (6 × 7 × 7 = 294), each drawn in four
// geometries and decoded by zxing-wasm and by our own `decodeSync`; a combination `generate`
// refuses (ERR_QR_STYLE_UNREADABLE) is drawn anyway, by the drawer without the check, in 20
// more geometries. __test__/styled-matrix.spec.js asserts on the answer; `npm run bench --
// --only styled` reports it (the refusals' table in docs/styles.md).
const q = require('..')
const binding = require('../lib/load.js')

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

/**
 * Draws and decodes every combination. `zxing(png)` resolves with the bytes zxing-wasm read,
 * or null. Resolves with `failures` (accepted combinations some decoder missed, and refusals
 * that are not ERR_QR_STYLE_UNREADABLE), `accepted` (combinations and codes drawn) and
 * `rules` (per refusal rule: combinations, codes drawn, codes zxing-wasm and decode missed).
 */
async function measure (zxing) {
  const failures = []
  const rules = {}
  const accepted = { combinations: 0, drawn: 0 }
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
          if (e.code !== 'ERR_QR_STYLE_UNREADABLE' || !(e instanceof TypeError) || !/use corners(Dot 'dot'|Square 'rounded') instead/.test(e.message)) {
            failures.push(`${name}: refused with ${e.code}: ${e.message}`)
            continue
          }
          refusal = e
        }
        const geometries = refusal ? [...GEOMETRIES, ...MORE] : GEOMETRIES
        const rule = refusal ? /\(([^)]+)\)/.exec(refusal.message)[1] : null
        if (rule) rules[rule] ??= { combinations: 0, drawn: 0, zxingMissed: 0, decodeMissed: 0 }
        if (rule) rules[rule].combinations++
        else accepted.combinations++
        for (const g of geometries) {
          const options = { width: g.width, margin: 2, style: { ...style, shape: g.shape } }
          const png = refusal ? binding.__styledUncheckedSync(g.text, options) : q.generateSync(g.text, options)
          const read = await zxing(png)
          const zxingOk = read !== null && read.toString() === g.text
          const mine = q.decodeSync(png)
          const decodeOk = mine.length === 1 && mine[0].text === g.text
          if (rule) {
            rules[rule].drawn++
            if (!zxingOk) rules[rule].zxingMissed++
            if (!decodeOk) rules[rule].decodeMissed++
            continue
          }
          accepted.drawn++
          if (!zxingOk) failures.push(`${name} ${g.width} ${g.shape}: zxing-wasm read ${read}`)
          if (!decodeOk) failures.push(`${name} ${g.width} ${g.shape}: decode read ${JSON.stringify(mine.map((c) => c.text))}`)
        }
      }
    }
  }
  return { failures, accepted, rules }
}

module.exports = { DOTS, RINGS, CENTRES, GEOMETRIES, MORE, styleOf, measure }
