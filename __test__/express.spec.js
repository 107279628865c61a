'use strict'
// The Express example over real HTTP on 127.0.0.1, PNGs decoded by zxing-cpp.
const { test, before, after } = require('node:test')
const assert = require('node:assert/strict')
const { createApp } = require('../examples/express/server')
const { QrDecoder } = require('../support/decoder')

let server
let base
let decoder
before(async () => {
  decoder = new QrDecoder()
  server = createApp().listen(0, '127.0.0.1')
  await new Promise((resolve) => server.once('listening', resolve))
  base = `http://127.0.0.1:${server.address().port}`
})
after(() => { server.close(); decoder.close() })

test('GET /qrcode answers a PNG that decodes to the text', async () => {
  const text = 'https://example.com/ünïcode?x=1&y=2'
  const res = await fetch(`${base}/qrcode?text=${encodeURIComponent(text)}`)
  assert.equal(res.status, 200)
  assert.equal(res.headers.get('content-type'), 'image/png')
  const png = Buffer.from(await res.arrayBuffer())
  assert.deepEqual(await decoder.decode(png), Buffer.from(text))
})

test('a missing text is 400', async () => {
  const res = await fetch(`${base}/qrcode`)
  assert.equal(res.status, 400)
  assert.match(await res.text(), /required/)
})

test('text of 512 characters is served and 513 is 400', async () => {
  const ok = await fetch(`${base}/qrcode?text=${'a'.repeat(512)}`)
  assert.equal(ok.status, 200)
  assert.deepEqual(await decoder.decode(Buffer.from(await ok.arrayBuffer())), Buffer.from('a'.repeat(512)))
  const tooLong = await fetch(`${base}/qrcode?text=${'a'.repeat(513)}`)
  assert.equal(tooLong.status, 400)
})

test('50 concurrent requests all succeed', async () => {
  const answers = await Promise.all(Array.from({ length: 50 }, (_, i) => fetch(`${base}/qrcode?text=req${i}`)))
  for (const res of answers) assert.equal(res.status, 200)
})

test('GET /qrcode/styled answers each format with the logo, and each decodes to the text', async () => {
  const text = 'https://example.com/styled?id=7'
  for (const [format, type] of [['png', 'image/png'], ['jpeg', 'image/jpeg'], ['svg', 'image/svg+xml'], ['webp', 'image/webp']]) {
    const res = await fetch(`${base}/qrcode/styled?text=${encodeURIComponent(text)}&dots=classy-rounded&format=${format}`)
    assert.equal(res.status, 200, format)
    assert.match(res.headers.get('content-type'), new RegExp(`^${type.replace('+', '\\+')}`))
    const body = Buffer.from(await res.arrayBuffer())
    if (format === 'png' || format === 'jpeg') assert.deepEqual(await decoder.decode(body), Buffer.from(text), format)
    if (format === 'svg') assert.match(body.toString(), /<image [^>]*href="data:image\/png;base64,/)
    if (format === 'webp') assert.equal(body.subarray(8, 12).toString(), 'WEBP')
  }
})

test('GET /qrcode/styled refuses a shape or format off its lists, and text too long for level H', async () => {
  for (const q of ['dots=star', 'format=gif', 'dots=']) {
    const res = await fetch(`${base}/qrcode/styled?text=x&${q}`)
    assert.equal(res.status, 400, q)
  }
  const res = await fetch(`${base}/qrcode/styled?text=${'9'.repeat(500)}&dots=rounded`)
  assert.equal(res.status, 200)
  const long = await fetch(`${base}/qrcode/styled?text=${encodeURIComponent('€'.repeat(512))}`)
  assert.equal(long.status, 400)
  assert.match(await long.text(), /too long|too big|QR/i)
})
