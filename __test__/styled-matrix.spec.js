'use strict'
// The measurement behind ERR_QR_STYLE_UNREADABLE (support/finders.js draws it): every
// dot × corner-square × corner-dot combination, decoded by zxing-wasm (a decoder we did not
// write) and by our own `decodeSync`. A combination `generate` accepts must be read by both
// in every geometry; each refusal rule must be one that zxing-wasm misses in some of its
// codes. If a rule's combinations start to scan everywhere, or an accepted combination
// fails, this test fails and the list in docs/styles.md is stale.
const test = require('node:test')
const assert = require('node:assert/strict')
const { measure } = require('../support/finders')
const { QrDecoder } = require('../support/decoder')

test('every finder combination: accepted ones scan in zxing-wasm and decode, refused ones do not always scan in zxing-wasm', async () => {
  const zxing = new QrDecoder()
  const { failures, accepted, rules } = await measure((png) => zxing.decode(png))
  assert.deepEqual(failures, [], 'every accepted combination scans')
  // cornersDot 'dots' (6 × 7), cornersSquare 'dot' around 'square', 'classy', 'classy-rounded'
  // (6 × 3), and dots 'dots' with cornersSquare 'dots' (the 6 centres not counted yet).
  assert.equal(accepted.combinations, 294 - 66)
  assert.equal(Object.values(rules).reduce((n, r) => n + r.combinations, 0), 66)
  assert.equal(Object.keys(rules).length, 3)
  for (const [rule, n] of Object.entries(rules)) {
    console.log(`refused (${rule}): zxing-wasm missed ${n.zxingMissed}, decode ${n.decodeMissed}, of ${n.drawn} codes of ${n.combinations} combinations`)
    assert.ok(n.zxingMissed > 0, `the rule "${rule}" refuses codes zxing-wasm reads: drop it`)
  }
})
