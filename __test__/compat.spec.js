'use strict'
// qr-native/compat against the real `qrcode` package, in the same run: same modules, same
// strings, same pixels, same callbacks, same errors.
const { test, describe } = require('node:test')
const assert = require('node:assert/strict')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { PassThrough } = require('node:stream')
const { execFileSync } = require('node:child_process')
const { PNG } = require('pngjs')
const QRCode = require('qrcode')
const compat = require('qr-native/compat')
const { corpus, segmentCases, rng } = require('./helpers/corpus')

const CASES = corpus(3000)

function outcome (fn) {
  try {
    return { value: fn() }
  } catch (e) {
    return { error: `${e.constructor.name}: ${e.message}` }
  }
}

async function settle (promise) {
  try {
    return { value: await promise }
  } catch (e) {
    return { error: `${e.constructor.name}: ${e.message}` }
  }
}

function sameSymbol (ours, theirs, what) {
  assert.equal(ours.version, theirs.version, `version of ${what}`)
  assert.equal(ours.maskPattern, theirs.maskPattern, `mask of ${what}`)
  assert.equal(ours.errorCorrectionLevel.bit, theirs.errorCorrectionLevel.bit, `level of ${what}`)
  assert.equal(ours.modules.size, theirs.modules.size)
  assert.ok(Buffer.from(ours.modules.data).equals(Buffer.from(theirs.modules.data)), `modules of ${what}`)
  assert.ok(Buffer.from(ours.modules.reservedBit).equals(Buffer.from(theirs.modules.reservedBit)), `reserved modules of ${what}`)
  assert.deepEqual(ours.segments.map((s) => [s.mode.id, s.getLength(), s.getBitsLength()]),
    theirs.segments.map((s) => [s.mode.id, s.getLength(), s.getBitsLength()]), `segments of ${what}`)
}

const describeCase = (c) => `${JSON.stringify(String(c.input).slice(0, 40))}… (${String(c.input).length} chars) ${JSON.stringify(c.options)}`

describe('create', () => {
  test(`modules, version, mask and segments equal qrcode's for ${CASES.length} generated inputs`, () => {
    let compared = 0
    let failed = 0
    for (const c of CASES) {
      const theirs = outcome(() => QRCode.create(c.input, c.options))
      const ours = outcome(() => compat.create(c.input, c.options))
      if (theirs.error) {
        assert.equal(ours.error, theirs.error, describeCase(c))
        failed++
        continue
      }
      assert.ok(!ours.error, `${ours.error} for ${describeCase(c)}`)
      sameSymbol(ours.value, theirs.value, describeCase(c))
      compared++
    }
    assert.ok(compared > 2500, `compared ${compared}`)
    assert.ok(failed > 0, 'the corpus includes inputs qrcode refuses')
  })

  test('segment lists [{ data, mode }] give the same symbols and the same refusals', () => {
    for (const c of segmentCases(400)) {
      const theirs = outcome(() => QRCode.create(c.input, c.options))
      const ours = outcome(() => compat.create(c.input, c.options))
      if (theirs.error) assert.equal(ours.error, theirs.error)
      else sameSymbol(ours.value, theirs.value, JSON.stringify(c.input))
    }
  })

  test('mode objects, invalid modes and loose option values are read as qrcode reads them', () => {
    const Mode = require('qrcode/lib/core/mode')
    const inputs = [
      [[{ data: '123', mode: Mode.NUMERIC }, { data: 'ABC', mode: Mode.ALPHANUMERIC }]],
      [[{ data: '123', mode: 'nonsense' }]],
      [[{ data: 'abc', mode: 'numeric' }]],
      [[{ data: 'ABC', mode: 'kanji' }]],
      ['hello', { errorCorrectionLevel: 'bogus', version: '7', maskPattern: '3' }],
      ['hello', { version: 41, maskPattern: 8 }],
      ['hello', { version: 3.7, maskPattern: 2.2 }],
      ['hello', { errorCorrectionLevel: { bit: 2 } }],
      ['hello', { errorCorrectionLevel: require('qrcode/lib/core/error-correction-level').H }]
    ]
    for (const [input, options] of inputs) {
      const theirs = outcome(() => QRCode.create(input, options))
      const ours = outcome(() => compat.create(input, options))
      if (theirs.error) assert.equal(ours.error, theirs.error)
      else sameSymbol(ours.value, theirs.value, JSON.stringify([input, options]))
    }
  })

  test('the level object create returns is accepted back, as qrcode accepts its own', () => {
    const level = compat.create('x', { errorCorrectionLevel: 'Q' }).errorCorrectionLevel
    sameSymbol(compat.create('hello', { errorCorrectionLevel: level }), QRCode.create('hello', { errorCorrectionLevel: 'Q' }), 'Q')
  })

  test('bad input gives qrcode\'s errors', () => {
    const inputs = [[undefined], [''], [42], [null], [{}], ['x'.repeat(8000)], ['x'.repeat(200), { version: 3 }],
      ['lone \uD800 surrogate'], [[null]], ['ok', { toSJISFunc: 'no' }]]
    for (const [input, options] of inputs) {
      assert.equal(outcome(() => compat.create(input, options)).error, outcome(() => QRCode.create(input, options)).error, String(input))
    }
  })
})

describe('error-correction levels are qrcode\'s own objects', () => {
  const ECLevel = require('qrcode/lib/core/error-correction-level')

  test('qrcode\'s "Should set default EC level to M" holds against compat', () => {
    assert.equal(compat.create('a').errorCorrectionLevel, ECLevel.M)
  })

  test('each level compat returns is the one qrcode returns, and qrcode accepts it back', () => {
    for (const name of ['L', 'M', 'Q', 'H', 'low', 'quartile']) {
      const ours = compat.create('level', { errorCorrectionLevel: name }).errorCorrectionLevel
      assert.equal(ours, QRCode.create('level', { errorCorrectionLevel: name }).errorCorrectionLevel, name)
      assert.equal(QRCode.create('back', { errorCorrectionLevel: ours }).errorCorrectionLevel, ours, name)
      assert.equal(compat.create('again', { errorCorrectionLevel: ours }).errorCorrectionLevel, ours, name)
    }
  })
})

describe('toString', () => {
  test('svg, utf8 and terminal strings are byte-identical for 600 inputs and options', async () => {
    const rand = rng(7)
    for (const c of CASES.slice(0, 600)) {
      const opts = { ...c.options }
      opts.type = ['svg', 'utf8', 'terminal', undefined][Math.floor(rand() * 4)]
      if (rand() < 0.5) opts.margin = Math.floor(rand() * 6)
      if (rand() < 0.3) opts.width = 10 + Math.floor(rand() * 400)
      if (rand() < 0.3) opts.color = { dark: ['#f00', '#00ff0080', '#123456', '#ffffff'][Math.floor(rand() * 4)], light: ['#000', '#fff0', '#eeeeee'][Math.floor(rand() * 3)] }
      if (rand() < 0.3) opts.small = true
      const theirs = await settle(QRCode.toString(c.input, opts))
      const ours = await settle(compat.toString(c.input, opts))
      assert.deepEqual(ours, theirs, describeCase({ input: c.input, options: opts }))
    }
  })
})

describe('toBuffer and toDataURL', () => {
  const rgba = (png) => PNG.sync.read(png)

  test('PNGs decode to pixels identical to qrcode\'s for 150 inputs and geometries', async () => {
    const rand = rng(11)
    for (const c of CASES.filter((x) => String(x.input).length < 300).slice(0, 150)) {
      const opts = { ...c.options }
      const g = rand()
      if (g < 0.3) opts.width = 21 + Math.floor(rand() * 500)
      else if (g < 0.6) opts.scale = [1, 2, 3, 5, 2.5, 1.7][Math.floor(rand() * 6)]
      if (rand() < 0.5) opts.margin = Math.floor(rand() * 6)
      if (rand() < 0.3) opts.color = { dark: '#1a2b3c', light: '#ffeeddcc' }
      const theirs = await settle(QRCode.toBuffer(c.input, opts))
      const ours = await settle(compat.toBuffer(c.input, opts))
      if (theirs.error) { assert.equal(ours.error, theirs.error); continue }
      const a = rgba(ours.value)
      const b = rgba(theirs.value)
      assert.equal(a.width, b.width, describeCase({ input: c.input, options: opts }))
      assert.ok(a.data.equals(b.data), `pixels of ${describeCase({ input: c.input, options: opts })}`)
      assert.ok(ours.value.length < theirs.value.length, 'ours is smaller')
    }
  })

  test('toDataURL decodes to the same image as qrcode\'s', async () => {
    for (const text of ['data url', 'https://example.com/x?y=1', '0123456789']) {
      const toPng = (url) => rgba(Buffer.from(url.replace(/^data:image\/png;base64,/, ''), 'base64'))
      const ours = await compat.toDataURL(text, { width: 150 })
      assert.match(ours, /^data:image\/png;base64,/)
      assert.ok(toPng(ours).data.equals(toPng(await QRCode.toDataURL(text, { width: 150 })).data))
    }
  })

  test('types without a buffer renderer fail as in qrcode', async () => {
    for (const type of ['svg', 'utf8', 'txt']) {
      assert.deepEqual(await settle(compat.toBuffer('x', { type })), await settle(QRCode.toBuffer('x', { type })))
      assert.deepEqual(await settle(compat.toDataURL('x', { type })), await settle(QRCode.toDataURL('x', { type })))
    }
  })
})

describe('callbacks and promises', () => {
  const call = (mod, fn, ...args) => new Promise((resolve) => {
    mod[fn](...args, (err, value) => resolve(err ? { error: `${err.constructor.name}: ${err.message}` } : { value }))
  })

  test('the callback form gives what the promise form gives', async () => {
    for (const [fn, args] of [['toString', ['cb', { type: 'svg' }]], ['toString', ['cb']], ['toDataURL', ['cb']], ['toBuffer', ['cb', { scale: 2 }]]]) {
      const viaCallback = await call(compat, fn, ...args)
      const viaPromise = await settle(compat[fn](...args))
      assert.deepEqual(viaCallback, viaPromise, fn)
      if (fn === 'toString') assert.deepEqual(viaCallback, await call(QRCode, fn, ...args))
    }
  })

  test('errors reach the callback instead of being thrown', async () => {
    for (const [fn, args] of [['toString', ['x'.repeat(8000)]], ['toBuffer', ['x', { color: { dark: 'zz' } }]], ['toDataURL', ['']], ['toString', ['x', { type: 'utf8', margin: 1 }]]]) {
      let returned
      const ours = await new Promise((resolve) => { returned = compat[fn](...args, (err) => resolve(`${err.constructor.name}: ${err.message}`)) })
      const theirs = await new Promise((resolve) => QRCode[fn](...args, (err) => resolve(`${err.constructor.name}: ${err.message}`)))
      assert.equal(returned, undefined)
      assert.equal(ours, theirs, fn)
    }
  })

  test('a missing text throws at once, as in qrcode', () => {
    for (const fn of ['toString', 'toBuffer', 'toDataURL']) {
      assert.throws(() => compat[fn](), { message: 'String required as first argument' })
      assert.throws(() => QRCode[fn](), { message: 'String required as first argument' })
    }
  })
})

describe('files and streams', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'qr-native-'))

  test('toFile writes png, svg and txt files like qrcode\'s', async () => {
    for (const ext of ['png', 'svg', 'txt']) {
      const ours = path.join(dir, `ours.${ext}`)
      const theirs = path.join(dir, `theirs.${ext}`)
      await compat.toFile(ours, 'to file', { margin: 2 })
      await QRCode.toFile(theirs, 'to file', { margin: 2 })
      if (ext === 'png') assert.ok(PNG.sync.read(fs.readFileSync(ours)).data.equals(PNG.sync.read(fs.readFileSync(theirs)).data))
      else assert.equal(fs.readFileSync(ours, 'utf8'), fs.readFileSync(theirs, 'utf8'))
    }
    await new Promise((resolve, reject) => compat.toFile(path.join(dir, 'cb.png'), 'callback', (err) => (err ? reject(err) : resolve())))
    assert.ok(fs.statSync(path.join(dir, 'cb.png')).size > 0)
  })

  test('toFileStream ends the stream with the PNG, and emits errors on it', async () => {
    const collect = (stream) => new Promise((resolve, reject) => {
      const chunks = []
      stream.on('data', (c) => chunks.push(c)).on('end', () => resolve(Buffer.concat(chunks))).on('error', reject)
    })
    const ours = new PassThrough()
    const theirs = new PassThrough()
    compat.toFileStream(ours, 'stream me')
    QRCode.toFileStream(theirs, 'stream me')
    assert.ok(PNG.sync.read(await collect(ours)).data.equals(PNG.sync.read(await collect(theirs)).data))
    const failing = new PassThrough()
    compat.toFileStream(failing, 'x'.repeat(8000))
    await assert.rejects(collect(failing), { message: 'The amount of data is too big to be stored in a QR Code' })
  })
})

describe('command line', () => {
  const cli = path.join(__dirname, '..', 'bin', 'qr-native.js')
  const theirsCli = require.resolve('qrcode/bin/qrcode')
  const run = (bin, args) => execFileSync(process.execPath, [bin, ...args], { input: '', encoding: 'utf8' })

  test('terminal output equals the qrcode CLI\'s for the same flags', () => {
    for (const args of [['hello'], ['-e', 'H', 'high level'], ['--small', 'small'], ['--small', '-i', 'inverse'], ['-m', '3', '-v', '5', 'forced']]) {
      assert.equal(run(cli, args), run(theirsCli, args), args.join(' '))
    }
  })

  test('-o writes a file of the type its extension names', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'qr-native-cli-'))
    const out = path.join(dir, 'cli.svg')
    assert.match(run(cli, ['-o', out, '-d', 'F00', 'file text']), /saved qrcode to/)
    assert.match(fs.readFileSync(out, 'utf8'), /stroke="#FF0000"/)
  })

  test('--decode prints each code\'s text, --json the whole result; no code or no image exits 1', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'qr-native-cli-'))
    const file = path.join(dir, 'in.png')
    run(cli, ['-o', file, 'read me back'])
    assert.equal(run(cli, ['--decode', file]), 'read me back\n')
    const [code] = JSON.parse(run(cli, ['--decode', file, '--json']))
    assert.equal(code.bytes, Buffer.from('read me back').toString('hex'))
    assert.equal(code.errorCorrectionLevel, 'M')
    const blank = path.join(dir, 'blank.png')
    fs.writeFileSync(blank, require('..').generateSync('x', { color: { dark: '#fff' } }))
    for (const [target, message] of [[blank, /no QR code found/], [path.join(dir, 'missing.png'), /cannot read/], [cli, /PNG, JPEG, WebP, GIF or BMP/]]) {
      const r = require('node:child_process').spawnSync(process.execPath, [cli, '--decode', target], { encoding: 'utf8' })
      assert.equal(r.status, 1, target)
      assert.match(r.stderr, message)
    }
  })
})
