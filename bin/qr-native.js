#!/usr/bin/env node
'use strict'
// `qr-native [options] <input string>`: the flags of the `qrcode` package's CLI. Draws in the
// terminal, or with -o saves a PNG, SVG or text file (type from -t or the file's extension).
// The style flags (--dots, --corners, --corner-dots, --gradient, --logo) and the JPEG and
// WebP types draw a styled code with `generate` instead; they need -o.
const { parseArgs } = require('node:util')
const qr = require('../compat')

const USAGE = `Usage: qr-native [options] <input string>
       qr-native --decode <image file> [--try-harder] [--json]

QR Code options:
  -v, --qversion  QR Code symbol version (1 - 40)
  -e, --error     Error correction level  [choices: "L", "M", "Q", "H"]
  -m, --mask      Mask pattern (0 - 7)

Renderer options:
  -t, --type        Output type  [choices: "png", "svg", "utf8", "jpeg", "webp"]
  -i, --inverse     Invert colors
  -w, --width       Image width (px)
  -s, --scale       Scale factor
  -q, --qzone       Quiet zone size
  -l, --lightcolor  Light RGBA hex color
  -d, --darkcolor   Dark RGBA hex color
      --small       Output smaller QR code to terminal

Style options (need -o; see docs/styles.md):
      --dots         Module shape  [choices: "square", "dots", "rounded", "extra-rounded",
                     "classy", "classy-rounded"]
      --corners      Finder ring shape: "square", "dot", "extra-rounded" or a module shape
      --corner-dots  Finder centre shape: "square", "dot" or a module shape
      --gradient     Dots gradient: colours separated by commas, "radial:" in front for a
                     radial one (e.g. "#0d47a1,#b71c1c")
      --logo         Logo file (PNG, JPEG, WebP, GIF or BMP), sized to what the code can spare
      --logo-size    Logo size as a share of the symbol's side, (0, 0.5]
      --quality      JPEG quality (1 - 100)

Reading codes:
      --decode      Read every QR code in a PNG, JPEG, WebP, GIF or BMP file (or - for
                    stdin): one line of text each, in reading order; exit status 1 if none
      --try-harder  Run every pass (slower), and return every code any pass finds
      --json        Print the codes as JSON (text, bytes as hex, version, level, mask,
                    position)

Options:
  -o, --output   Output file
  -h, --help     Show help
      --version  Show version number

Examples:
  qr-native "some text"                     Draw in terminal window
  qr-native -o out.png "some text"          Save as png image
  qr-native -d F00 -o out.png "some text"   Use red as foreground color
  qr-native --dots rounded --logo logo.png -o out.png "some text"
                                            Save a styled code with a logo
  qr-native --decode ticket.jpg             Print the text of each code in the photo
`

function fail (message) {
  process.stderr.write(`${USAGE}\n${message}\n`)
  process.exit(1)
}

function parse (argv) {
  let parsed
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        qversion: { type: 'string', short: 'v' },
        error: { type: 'string', short: 'e' },
        mask: { type: 'string', short: 'm' },
        type: { type: 'string', short: 't' },
        inverse: { type: 'boolean', short: 'i' },
        width: { type: 'string', short: 'w' },
        scale: { type: 'string', short: 's' },
        qzone: { type: 'string', short: 'q' },
        lightcolor: { type: 'string', short: 'l' },
        darkcolor: { type: 'string', short: 'd' },
        small: { type: 'boolean' },
        dots: { type: 'string' },
        corners: { type: 'string' },
        'corner-dots': { type: 'string' },
        gradient: { type: 'string' },
        logo: { type: 'string' },
        'logo-size': { type: 'string' },
        quality: { type: 'string' },
        output: { type: 'string', short: 'o' },
        decode: { type: 'string' },
        'try-harder': { type: 'boolean' },
        json: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
        version: { type: 'boolean' }
      }
    })
  } catch (e) {
    fail(e.message)
  }
  const v = parsed.values
  if (v.error && !['L', 'M', 'Q', 'H'].includes(v.error)) fail(`Invalid values:\n  Argument: e, Given: "${v.error}", Choices: "L", "M", "Q", "H"`)
  if (v.type && !['png', 'svg', 'utf8', 'jpeg', 'webp'].includes(v.type)) fail(`Invalid values:\n  Argument: t, Given: "${v.type}", Choices: "png", "svg", "utf8", "jpeg", "webp"`)
  if (styled(v) && !v.output) fail('Missing dependent arguments:\n style options -> output (terminal output cannot be styled)')
  if (v.type && !v.output) fail('Missing dependent arguments:\n type -> output')
  if (v.width && v.scale) fail('Arguments width and scale are mutually exclusive')
  if (v.small && v.type) fail('Arguments small and type are mutually exclusive')
  return parsed
}

function options (v) {
  return {
    version: v.qversion,
    errorCorrectionLevel: v.error,
    type: v.type,
    small: !!v.small,
    inverse: !!v.inverse,
    maskPattern: v.mask,
    margin: v.qzone,
    width: v.width,
    scale: v.scale,
    color: { light: v.lightcolor, dark: v.darkcolor }
  }
}

const STYLE_FLAGS = ['dots', 'corners', 'corner-dots', 'gradient', 'logo', 'logo-size', 'quality']

/** Whether the flags ask for a styled code (a style flag, or a JPEG or WebP file). */
function styled (v) {
  const type = v.type || (v.output && typeFromName(v.output))
  return STYLE_FLAGS.some((k) => v[k] !== undefined) || type === 'jpeg' || type === 'webp'
}

function typeFromName (file) {
  const ext = require('node:path').extname(file).slice(1).toLowerCase()
  return { png: 'png', svg: 'svg', jpg: 'jpeg', jpeg: 'jpeg', webp: 'webp', txt: 'utf8' }[ext]
}

/** The native options for a styled code; numbers are checked by `generate` itself. */
function styleOptions (v) {
  const num = (s) => (s === undefined ? undefined : Number(s))
  const hex = (c) => (c === undefined ? undefined : c.startsWith('#') ? c : '#' + c)
  const style = {}
  if (v.dots || v.gradient) style.dots = { type: v.dots }
  if (v.gradient) {
    const radial = v.gradient.startsWith('radial:')
    const colours = v.gradient.replace(/^(radial|linear):/, '').split(',')
    style.dots.gradient = {
      type: radial ? 'radial' : 'linear',
      colorStops: colours.map((color, i) => ({ offset: colours.length > 1 ? i / (colours.length - 1) : 0, color: hex(color.trim()) }))
    }
  }
  if (v.corners) style.cornersSquare = { type: v.corners }
  if (v['corner-dots']) style.cornersDot = { type: v['corner-dots'] }
  if (v.logo) style.logo = { image: require('node:fs').readFileSync(v.logo), size: num(v['logo-size']) }
  const options = {
    type: v.type || typeFromName(v.output) || 'png',
    errorCorrectionLevel: v.error,
    version: num(v.qversion),
    maskPattern: num(v.mask),
    margin: num(v.qzone),
    width: num(v.width),
    scale: num(v.scale),
    quality: num(v.quality),
    color: { light: hex(v.lightcolor), dark: hex(v.darkcolor) },
    style
  }
  for (const k of Object.keys(options)) if (options[k] === undefined) delete options[k]
  for (const k of Object.keys(options.color)) if (options.color[k] === undefined) delete options.color[k]
  return options
}

async function runStyled (text, v) {
  try {
    const out = await require('..').generate(text, styleOptions(v))
    await require('node:fs').promises.writeFile(v.output, out)
  } catch (e) {
    console.error('Error:', e.message)
    process.exit(1)
  }
  console.log('saved qrcode to: ' + v.output + '\n')
}

function run (text, v) {
  if (!text.length) fail('')
  if (styled(v)) return runStyled(text, v)
  const opts = options(v)
  if (v.output) {
    qr.toFile(v.output, text, opts, (err) => {
      if (err) {
        console.error('Error:', err.message)
        process.exit(1)
      }
      console.log('saved qrcode to: ' + v.output + '\n')
    })
  } else {
    opts.type = 'terminal'
    qr.toString(text, opts, (err, out) => {
      if (err) {
        console.error('Error:', err.message)
        process.exit(1)
      }
      console.log(out)
    })
  }
}

/** `--decode FILE`: reads the file (or stdin for `-`) and prints what `decode` finds. */
async function read (file, v) {
  const fs = require('node:fs')
  let image
  try {
    image = file === '-' ? fs.readFileSync(0) : await fs.promises.readFile(file)
  } catch (e) {
    console.error(`Error: cannot read ${file}: ${e.message}`)
    process.exit(1)
  }
  let codes
  try {
    codes = await require('..').decode(image, { tryHarder: !!v['try-harder'] })
  } catch (e) {
    console.error(`Error: ${e.message}`)
    process.exit(1)
  }
  if (v.json) {
    const hex = (b) => Buffer.from(b).toString('hex')
    console.log(JSON.stringify(codes.map((c) => ({ ...c, bytes: hex(c.bytes) })), null, 2))
  } else {
    for (const c of codes) console.log(c.text ?? `(binary) ${Buffer.from(c.bytes).toString('hex')}`)
  }
  if (!codes.length) {
    console.error(`no QR code found in ${file}`)
    process.exit(1)
  }
}

const { values, positionals } = parse(process.argv.slice(2))
if (values.decode !== undefined) {
  read(values.decode, values)
} else if (values.help) {
  process.stdout.write(USAGE)
} else if (values.version) {
  console.log(require('../package.json').version)
} else if (process.stdin.isTTY) {
  run(positionals.join(' '), values)
} else {
  let text = ''
  process.stdin.setEncoding('utf8')
  process.stdin.on('data', (chunk) => { text += chunk })
  process.stdin.on('end', () => run(text.length ? text : positionals.join(' '), values))
}
