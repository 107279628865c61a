'use strict'
// The classic QR endpoint with qr-native in place of qrcode: GET /qrcode?text=… answers a
// PNG, or 400 when `text` is missing or longer than 512 characters. The PNG is made on the
// libuv threadpool, so other requests keep being served meanwhile.
const express = require('express')
const { generate } = require('qr-native')

const MAX_TEXT = 512

function createApp () {
  const app = express()
  app.get('/qrcode', async (req, res, next) => {
    const text = req.query.text
    if (typeof text !== 'string' || text.length === 0) {
      return res.status(400).type('text/plain').send('query parameter "text" is required\n')
    }
    if (text.length > MAX_TEXT) {
      return res.status(400).type('text/plain').send(`query parameter "text" is longer than ${MAX_TEXT} characters\n`)
    }
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
  const port = Number(process.env.PORT) || 3000
  const server = createApp().listen(port, '127.0.0.1', () => {
    console.log(`qr-native example on http://127.0.0.1:${server.address().port}/qrcode?text=hello`)
  })
}

module.exports = { createApp }
