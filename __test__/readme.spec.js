'use strict'
// The README's examples as written: each `<!-- example: file -->` block must be that file,
// word for word, and each file is an app served over real HTTP on 127.0.0.1 here, with the
// requests real clients send (no User-Agent, no text, text too long).
const { test, describe, before, after } = require('node:test')
const assert = require('node:assert/strict')
const fs = require('node:fs')
const path = require('node:path')
const { QrDecoder } = require('../support/decoder')

const ROOT = path.join(__dirname, '..')
const README = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8')

test('every example block in the README is its file, word for word', () => {
  const blocks = [...README.matchAll(/<!-- example: (\S+) -->\n```js\n([\s\S]*?)```/g)]
  assert.ok(blocks.length >= 2, 'the README shows its examples from files')
  for (const [, file, code] of blocks) assert.equal(code, fs.readFileSync(path.join(ROOT, file), 'utf8'), file)
})

/** Serves `app` on 127.0.0.1 for the tests in the enclosing describe; resolves to its base URL. */
function serve (app) {
  const state = {}
  before(async () => {
    state.server = app.listen(0, '127.0.0.1')
    await new Promise((resolve) => state.server.once('listening', resolve))
    state.base = `http://127.0.0.1:${state.server.address().port}`
  })
  after(() => state.server.close())
  return state
}

describe('examples/readme/qrcode.js', () => {
  const http = serve(require('../examples/readme/qrcode.js'))
  const decoder = new QrDecoder()

  test('a text gets a PNG that decodes to it', async () => {
    const res = await fetch(`${http.base}/qrcode?text=${encodeURIComponent('héllo wörld')}`)
    assert.equal(res.status, 200)
    assert.equal(res.headers.get('content-type'), 'image/png')
    assert.deepEqual(await decoder.decode(Buffer.from(await res.arrayBuffer())), Buffer.from('héllo wörld'))
  })

  test('no text, a repeated text parameter and a text too long are 400, not 500', async () => {
    for (const query of ['', '?text=', '?text=a&text=b', `?text=${'9'.repeat(7090)}`]) {
      const res = await fetch(`${http.base}/qrcode${query}`)
      assert.equal(res.status, 400, query.slice(0, 20))
    }
  })
})

describe('examples/readme/styled.js', () => {
  const http = serve(require('../examples/readme/styled.js'))
  const decoder = new QrDecoder()

  test('a text gets a styled PNG that zxing-wasm decodes to it', async () => {
    const res = await fetch(`${http.base}/qrcode/styled?text=${encodeURIComponent('styled wörld')}`)
    assert.equal(res.status, 200)
    assert.equal(res.headers.get('content-type'), 'image/png')
    assert.deepEqual(await decoder.decode(Buffer.from(await res.arrayBuffer())), Buffer.from('styled wörld'))
  })

  test('no text and a text too long are 400', async () => {
    for (const query of ['', '?text=', `?text=${'9'.repeat(7090)}`]) {
      const res = await fetch(`${http.base}/qrcode/styled${query}`)
      assert.equal(res.status, 400, query.slice(0, 20))
    }
  })
})

describe('examples/readme/isbot.js', () => {
  const http = serve(require('../examples/readme/isbot.js'))
  const ask = (headers) => fetch(`${http.base}/`, { headers }).then((res) => res.json())

  test('the Matcher of isbot\'s list answers as isbot() does, over HTTP', async () => {
    const agents = [
      'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36',
      'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Mobile Safari/537.36 GoogleApp',
      'curl/8.4.0', 'java/17', 'Apache-HttpClient/4.5', 'libhttp/1.0 (X11)', 'Java; Mozilla/5.0', ''
    ]
    for (const ua of agents) {
      const body = await ask({ 'user-agent': ua })
      assert.equal(body.bot, body.isbot, ua)
    }
  })
})

describe('examples/readme/globs.js', () => {
  const http = serve(require('../examples/readme/globs.js'))
  const picomatch = require('picomatch/posix')
  const GLOBS = ['**/.env', '**/.git/**', '**/*.map', '**/*.{pem,key}', '!(public|assets)/**']

  test('the deny-list answers as picomatch does, over HTTP', async () => {
    const each = GLOBS.map((g) => picomatch(g, { dot: true }))
    const paths = ['public/index.html', 'public/.env', '.env', 'assets/app.js.map', 'assets/a/b/logo.png', 'src/index.js',
      'public/.git/config', 'assets/server.key', 'public/a.pem.txt', 'publicity/x', 'assets/.well-known/x', 'public/ü 😀.png']
    let denied = 0
    for (const p of paths) {
      const res = await fetch(`${http.base}/${encodeURI(p)}`)
      const first = each.findIndex((f) => f(p))
      assert.equal(res.status, first === -1 ? 200 : 404, p)
      if (first !== -1) {
        assert.deepEqual(await res.json(), { denied: first }, p)
        denied++
      } else {
        assert.deepEqual(await res.json(), { served: '/' + encodeURI(p) }, p)
      }
    }
    assert.ok(denied >= 5 && denied < paths.length, `${denied} denied`)
  })
})

describe('examples/readme/bots.js', () => {
  const http = serve(require('../examples/readme/bots.js'))
  const ask = (headers) => fetch(`${http.base}/`, { headers }).then(async (res) => ({ status: res.status, body: await res.json() }))

  test('a crawler is a bot, a browser is not, and a request with no User-Agent is served', async () => {
    assert.deepEqual(await ask({ 'user-agent': 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)' }), { status: 200, body: { bot: true } })
    assert.deepEqual(await ask({ 'user-agent': 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36' }), { status: 200, body: { bot: false } })
    // fetch always sends a User-Agent: a raw request sends none.
    const net = require('node:net')
    const raw = await new Promise((resolve, reject) => {
      const socket = net.connect(Number(new URL(http.base).port), '127.0.0.1', () => socket.end('GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'))
      let data = ''
      socket.on('data', (d) => { data += d }).on('end', () => resolve(data)).on('error', reject)
    })
    assert.match(raw, /^HTTP\/1\.1 200/)
    assert.match(raw, /\{"bot":false\}/)
  })
})

describe('examples/readme/decode.js', () => {
  const http = serve(require('../examples/readme/decode.js'))
  const { generateSync } = require('..')
  const post = (body, type = 'image/png') => fetch(`${http.base}/scan`, { method: 'POST', headers: { 'content-type': type }, body })
    .then(async (res) => ({ status: res.status, body: await res.json() }))

  test('an uploaded photo gives its text; an image without a code gives []', async () => {
    const dir = path.join(__dirname, 'fixtures', 'zxing-cpp-qrcode', 'qrcode-2')
    const photo = fs.readFileSync(path.join(dir, '#1086.png'))
    const text = fs.readFileSync(path.join(dir, '#1086.txt'), 'utf8')
    assert.deepEqual(await post(photo), { status: 200, body: [text] })
    const { PNG } = require('pngjs')
    const white = new PNG({ width: 64, height: 64 })
    white.data.fill(255)
    assert.deepEqual(await post(PNG.sync.write(white)), { status: 200, body: [] })
  })

  test('a body that is not an image is 400, and the server still answers', async () => {
    const bad = await post(Buffer.from('not an image at all'))
    assert.equal(bad.status, 400)
    assert.match(bad.body.error, /PNG, JPEG, WebP, GIF or BMP/)
    assert.equal((await post(generateSync('after'))).body[0], 'after')
  })
})
