'use strict'
// `npm run gallery`: the pictures of docs/styles.md, drawn by qr-native and laid out in a grid
// by sharp (a devDependency). Every code in them is decoded by zxing-wasm first: a gallery
// picture that does not scan fails the script.
//   docs/styles.png       every dot type, each finder shape, gradients, circle, logos
//   docs/logo-budget.png  one text at level H with the logo at 0.1, halfway, and the largest
//                         size the budget allows (the size ERR_QR_LOGO_TOO_LARGE names)
const fs = require('node:fs')
const path = require('node:path')
const sharp = require('sharp')
const q = require('..')
const { QrDecoder } = require('../support/decoder')

const ROOT = path.join(__dirname, '..')
const LOGO = fs.readFileSync(path.join(ROOT, 'examples', 'express', 'logo.png'))
const TEXT = 'https://github.com/qr-native'
const SIDE = 220
const gradient = (a, b, type = 'linear', rotation = 0.8) => ({ type, rotation, colorStops: [{ offset: 0, color: a }, { offset: 1, color: b }] })

const STYLES = [
  { dots: { type: 'square' } },
  { dots: { type: 'dots', color: '#1a237e' }, cornersSquare: { type: 'dot' }, cornersDot: { type: 'dot' } },
  { dots: { type: 'rounded', color: '#1b5e20' }, cornersSquare: { type: 'extra-rounded' } },
  { dots: { type: 'extra-rounded', gradient: gradient('#4a148c', '#e65100') }, cornersSquare: { type: 'extra-rounded', color: '#4a148c' }, cornersDot: { type: 'dot', color: '#e65100' } },
  { dots: { type: 'classy', color: '#263238' }, cornersSquare: { type: 'classy' }, cornersDot: { type: 'classy' } },
  { dots: { type: 'classy-rounded', gradient: gradient('#006064', '#1a237e', 'radial') }, cornersSquare: { type: 'rounded' }, cornersDot: { type: 'rounded' } },
  { dots: { type: 'rounded', color: '#b71c1c' }, background: { color: '#fff3e0', round: 0.3 } },
  { dots: { type: 'dots', gradient: gradient('#0d47a1', '#880e4f', 'linear', 2.2) }, cornersSquare: { type: 'extra-rounded' }, cornersDot: { type: 'dot' }, shape: 'circle' },
  { dots: { type: 'rounded', color: '#263238' }, cornersSquare: { type: 'extra-rounded' }, cornersDot: { type: 'dot' }, logo: { image: LOGO, margin: 2 } },
  { dots: { type: 'classy-rounded', gradient: gradient('#1b5e20', '#33691e') }, cornersSquare: { type: 'dot', color: '#1b5e20' }, cornersDot: { type: 'dot', color: '#827717' }, logo: { image: LOGO } },
  { dots: { type: 'square', color: '#fafafa' }, background: { color: '#212121' } },
  { dots: { type: 'extra-rounded', color: '#3e2723' }, cornersSquare: { type: 'square' }, cornersDot: { type: 'dot' }, shape: 'circle', background: { color: '#efebe9', round: 1 } }
]

async function grid (images, columns) {
  const gap = 12
  const rows = Math.ceil(images.length / columns)
  const width = columns * SIDE + (columns + 1) * gap
  const height = rows * SIDE + (rows + 1) * gap
  const composite = images.map((input, i) => ({ input, left: gap + (i % columns) * (SIDE + gap), top: gap + Math.floor(i / columns) * (SIDE + gap) }))
  return sharp({ create: { width, height, channels: 4, background: '#eceff1' } }).composite(composite).png({ palette: false, compressionLevel: 9 }).toBuffer()
}

async function main () {
  const zxing = new QrDecoder()
  const drawn = []
  for (const style of STYLES) {
    const png = await q.generate(TEXT, { width: SIDE, margin: 2, style })
    const read = await zxing.decode(png)
    if (String(read) !== TEXT) throw new Error(`gallery: ${JSON.stringify(style)} does not scan (zxing-wasm read ${read})`)
    drawn.push(png)
  }
  fs.writeFileSync(path.join(ROOT, 'docs', 'styles.png'), await grid(drawn, 4))

  let largest
  try {
    q.generateSync(TEXT, { style: { logo: { image: LOGO, size: 0.5 } } })
    largest = 0.5
  } catch (e) {
    largest = Number(/the largest size that fits is ([\d.]+)/.exec(e.message)[1])
  }
  const budget = []
  for (const size of [0.1, (0.1 + largest) / 2, largest]) {
    const png = await q.generate(TEXT, { width: SIDE, margin: 2, style: { dots: { type: 'rounded' }, logo: { image: LOGO, size } } })
    if (String(await zxing.decode(png)) !== TEXT) throw new Error(`gallery: the logo at ${size} does not scan`)
    budget.push(png)
  }
  fs.writeFileSync(path.join(ROOT, 'docs', 'logo-budget.png'), await grid(budget, 3))
  console.log(`gallery: docs/styles.png (${drawn.length} codes), docs/logo-budget.png (logo at 0.1 to ${largest})`)
}

main().catch((e) => { console.error(e.message); process.exit(1) })
