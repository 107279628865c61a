'use strict'
// The classic QR endpoint with qr-native in place of qrcode: GET /qrcode?text=… answers a
// PNG, or 400 when `text` is missing or longer than 512 characters. The PNG is made on the
// libuv threadpool, so other requests keep being served meanwhile.
//
// GET /qrcode/styled?text=…&dots=rounded&format=webp answers a styled code in the brand's
// colours with the server's logo; `dots` and `format` are picked from fixed lists, so a
// request chooses a look, never a file or a size.
const path = require('node:path')
const fs = require('node:fs')
const express = require('express')
const { generate } = require('qr-native')

const MAX_TEXT = 512
const DOTS = ['square', 'dots', 'rounded', 'extra-rounded', 'classy', 'classy-rounded']
const FORMATS = { png: 'image/png', svg: 'image/svg+xml', jpeg: 'image/jpeg', webp: 'image/webp' }
// Read once at start-up: the logo is the server's, not the request's (pino's favicon, MIT:
// LICENSE-logo).
// A bundle of this server (docs/deploy.md) ships logo.png beside it.
const LOGO = fs.readFileSync(path.join(__dirname, 'logo.png'))

/** The text of a request, or the 400 answer's message. */
function textOf (req) {
  const text = req.query.text
  if (typeof text !== 'string' || text.length === 0) return { error: 'query parameter "text" is required' }
  if (text.length > MAX_TEXT) return { error: `query parameter "text" is longer than ${MAX_TEXT} characters` }
  return { text }
}

function createApp () {
  const app = express()
  app.get('/qrcode/styled', async (req, res, next) => {
    const { text, error } = textOf(req)
    if (error) return res.status(400).type('text/plain').send(error + '\n')
    const dots = req.query.dots ?? 'rounded'
    const format = req.query.format ?? 'png'
    if (!DOTS.includes(dots)) return res.status(400).type('text/plain').send(`query parameter "dots" must be one of ${DOTS.join(', ')}\n`)
    if (!FORMATS[format]) return res.status(400).type('text/plain').send(`query parameter "format" must be one of ${Object.keys(FORMATS).join(', ')}\n`)
    try {
      const image = await generate(text, {
        type: format,
        width: 300,
        margin: 2,
        style: {
          dots: { type: dots, gradient: { type: 'linear', rotation: 0.8, colorStops: [{ offset: 0, color: '#1a237e' }, { offset: 1, color: '#880e4f' }] } },
          cornersSquare: { type: 'extra-rounded', color: '#880e4f' },
          cornersDot: { type: 'dot', color: '#1a237e' },
          // The largest logo the code's error correction can spare, at most 0.3 of its side.
          logo: { image: LOGO, margin: 2 }
        }
      })
      res.type(FORMATS[format]).send(image)
    } catch (err) {
      // A text too long for a code at level H (the level a logo takes) is the caller's.
      if (err.code === 'ERR_QR_DATA_TOO_LONG' || err.code === 'ERR_QR_LOGO_TOO_LARGE') {
        return res.status(400).type('text/plain').send(err.message + '\n')
      }
      next(err)
    }
  })
  app.get('/qrcode', async (req, res, next) => {
    const { text, error } = textOf(req)
    if (error) return res.status(400).type('text/plain').send(error + '\n')
    try {
      const png = await generate(text)
      res.type('image/png').send(png)
    } catch (err) {
      if (err.code === 'ERR_QR_DATA_TOO_LONG' || err.code === 'ERR_INVALID_ARG_VALUE') {
        return res.status(400).type('text/plain').send(err.message + '\n')
      }
      next(err)
    }
  })
  return app
}

if (require.main === module) {
  // PORT=0: any free port (the bundler tests' way).
  const port = process.env.PORT ? Number(process.env.PORT) : 3000
  const server = createApp().listen(port, '127.0.0.1', () => {
    console.log(`qr-native example on http://127.0.0.1:${server.address().port}/qrcode?text=hello`)
  })
}

module.exports = { createApp }
