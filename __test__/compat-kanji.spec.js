'use strict'
// Kanji mode, in its own process: `toSJISFunc` switches kanji mode on for the rest of the
// process in `qrcode`, and the compat layer keeps that behaviour.
const { test } = require('node:test')
const assert = require('node:assert/strict')
const QRCode = require('qrcode')
const toSJIS = require('qrcode/helper/to-sjis')
const compat = require('qr-native/compat')
const { rng } = require('./helpers/corpus')

const KANJI_TEXT = '漢字テストひらがなカタカナ日本語の文章、点。ΑΒΓабв§±×÷→←※'
const PIECES = [KANJI_TEXT, 'ascii text ', '0123456789', 'ABC DEF:', 'é😀', '\u2028', '全角ＡＢＣ１２３']

function texts (count) {
  const rand = rng(5)
  return Array.from({ length: count }, () => {
    let t = ''
    const n = 1 + Math.floor(rand() * 6)
    for (let i = 0; i < n; i++) {
      const piece = PIECES[Math.floor(rand() * PIECES.length)]
      const start = Math.floor(rand() * piece.length)
      t += piece.slice(start, start + 1 + Math.floor(rand() * 20))
    }
    return t
  })
}

const same = (a, b) => Buffer.from(a.modules.data).equals(Buffer.from(b.modules.data)) && a.version === b.version && a.maskPattern === b.maskPattern

test('without toSJISFunc, kanji text is byte mode in both', () => {
  const a = compat.create(KANJI_TEXT)
  const b = QRCode.create(KANJI_TEXT)
  assert.ok(same(a, b))
  assert.deepEqual(a.segments.map((s) => s.mode.id), ['Byte'])
})

test('with toSJISFunc, 500 mixed kanji texts give qrcode\'s symbols and segments', () => {
  let kanjiSegments = 0
  for (const [i, text] of texts(500).entries()) {
    const options = { toSJISFunc: toSJIS, errorCorrectionLevel: 'LMQH'[i % 4] }
    let theirs
    try { theirs = QRCode.create(text, options) } catch (e) {
      assert.throws(() => compat.create(text, options), { message: e.message })
      continue
    }
    const ours = compat.create(text, options)
    assert.ok(same(ours, theirs), JSON.stringify(text))
    assert.deepEqual(ours.segments.map((s) => [s.mode.id, s.getLength()]), theirs.segments.map((s) => [s.mode.id, s.getLength()]))
    kanjiSegments += ours.segments.filter((s) => s.mode.id === 'Kanji').length
  }
  assert.ok(kanjiSegments > 100, `${kanjiSegments} kanji segments`)
})

test('kanji segments given explicitly, and the strings rendered from them, match', async () => {
  const input = [{ data: '漢字', mode: 'kanji' }, { data: '123', mode: 'numeric' }]
  assert.ok(same(compat.create(input), QRCode.create(input)))
  assert.equal(await compat.toString(KANJI_TEXT, { type: 'svg' }), await QRCode.toString(KANJI_TEXT, { type: 'svg' }))
})

test('kanji mode stays on in later calls without toSJISFunc, as in qrcode', () => {
  const a = compat.create('漢字漢字漢字漢字')
  assert.ok(same(a, QRCode.create('漢字漢字漢字漢字')))
  assert.equal(a.segments[0].mode.id, 'Kanji')
})

test('a toSJISFunc giving a value outside Shift JIS fails with qrcode\'s message', () => {
  const bad = { toSJISFunc: () => 0x1234 }
  assert.throws(() => QRCode.create('漢字', bad), /Invalid SJIS character/)
  assert.throws(() => compat.create('漢字', bad), (e) => e.message === 'Invalid SJIS character: 漢\nMake sure your charset is UTF-8')
  compat.create('x', { toSJISFunc: toSJIS })
  QRCode.create('x', { toSJISFunc: toSJIS })
})

test('a Kanji-mode code reads back as its Shift JIS bytes and its text, in one kanji segment', async () => {
  const qr = require('qr-native')
  const text = '漢字テスト日本語'
  const png = await compat.toBuffer(text, { toSJISFunc: toSJIS, scale: 3 })
  assert.deepEqual(compat.create(text, { toSJISFunc: toSJIS }).segments.map((s) => s.mode.id), ['Kanji'])
  const sjis = Buffer.from([...text].flatMap((c) => { const v = toSJIS(c); return [v >> 8, v & 0xff] }))
  const [code] = qr.decodeSync(png)
  assert.deepEqual(Buffer.from(code.bytes), sjis)
  assert.equal(code.text, text)
  assert.deepEqual(code.segments, [{ mode: 'kanji', eci: null, start: 0, end: sjis.length, charset: 'Shift_JIS', charsetFrom: 'mode' }])
})
