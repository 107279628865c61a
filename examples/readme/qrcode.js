const express = require('express')
const { generate } = require('qr-native')        // or: import { generate } from 'qr-native'

const app = express()
app.get('/qrcode', async (req, res) => {
  const text = typeof req.query.text === 'string' ? req.query.text : ''
  try {
    res.type('image/png').send(await generate(text))
  } catch (err) {
    // Empty, too long or malformed text is the client's error (TypeError, RangeError).
    res.status(err instanceof TypeError || err instanceof RangeError ? 400 : 500).type('text/plain').send(err.message)
  }
})

module.exports = app
