const express = require('express')
const { decode } = require('qr-native')

const app = express()
// An uploaded image (PNG, JPEG, WebP, GIF or BMP) as the request body, up to 5 MB.
app.post('/scan', express.raw({ type: 'image/*', limit: '5mb' }), async (req, res) => {
  try {
    const codes = await decode(req.body, { maxPixels: 16_000_000 })   // on the threadpool
    res.json(codes.map((c) => c.text))          // [] when the image holds no code
  } catch (err) {
    // Not an image, a corrupt file, or more pixels than allowed: the client's error.
    res.status(err instanceof TypeError || err instanceof RangeError ? 400 : 500).json({ error: err.message })
  }
})

module.exports = app
