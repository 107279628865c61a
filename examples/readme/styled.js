const express = require('express')
const { generate } = require('qr-native')

const app = express()
app.get('/qrcode/styled', async (req, res) => {
  const text = typeof req.query.text === 'string' ? req.query.text : ''
  try {
    const png = await generate(text, {
      width: 300,
      style: {
        dots: { type: 'rounded', gradient: { colorStops: [{ offset: 0, color: '#1a237e' }, { offset: 1, color: '#880e4f' }] } },
        cornersSquare: { type: 'extra-rounded' },
        cornersDot: { type: 'dot' }
        // logo: { image: fs.readFileSync('logo.png') } — sized so that the code still scans
      }
    })
    res.type('image/png').send(png)
  } catch (err) {
    res.status(err instanceof TypeError || err instanceof RangeError ? 400 : 500).type('text/plain').send(err.message)
  }
})

module.exports = app
