'use strict'
// Next.js (docs/deploy.md): examples/nextjs, a minimal App Router app whose route handler
// returns a PNG from `generate` and answers with a Matcher, built by `next build` (Turbopack, Next's default) and
// served by `next start` over HTTP on 127.0.0.1. qr-native is not on Next's built-in list of
// packages left to Node, so without `serverExternalPackages: ['qr-native']` the build fails
// on the `.node` file; with it, the app answers. The app is installed as npm installs it: the
// published files of qr-native and this platform's binary package in its node_modules (not
// a link: Next bundles what resolves outside node_modules). It lives under target/, so that
// Next finds its own packages in this repository's node_modules.
const { test, before, after } = require('node:test')
const assert = require('node:assert/strict')
const fs = require('node:fs')
const net = require('node:net')
const path = require('node:path')
const { spawn, spawnSync } = require('node:child_process')
const { unlessWasi } = require('./helpers/wasi.js')
const { QrDecoder } = require('../support/decoder')

const ROOT = path.join(__dirname, '..')
const APP = path.join(ROOT, 'target', `next-app-${process.pid}`)
const NEXT = require.resolve('next/dist/bin/next')
const ENV = { ...process.env, NEXT_TELEMETRY_DISABLED: '1' }

// The binary `npm run build` made here, and the platform package it belongs to.
const binary = fs.readdirSync(ROOT).find((f) => /^qr-native\.[\w-]+\.node$/.test(f))
const triple = binary && binary.split('.')[1]
const skip = unlessWasi('Next.js loads the native platform package; the WebAssembly package\'s install is npm-install.spec\'s') ||
  (!binary && 'no native binary built here (npm run build)')

const EXAMPLE = path.join(ROOT, 'examples', 'nextjs')

let decoder

before(() => {
  if (skip) return
  decoder = new QrDecoder()
  fs.rmSync(APP, { recursive: true, force: true })
  fs.cpSync(path.join(EXAMPLE, 'app'), path.join(APP, 'app'), { recursive: true })
  fs.writeFileSync(path.join(APP, 'package.json'), JSON.stringify({ name: 'next-app', private: true }))
  const pkg = require('../package.json')
  const installed = path.join(APP, 'node_modules', 'qr-native')
  for (const f of [...pkg.files, 'package.json']) fs.cpSync(path.join(ROOT, f), path.join(installed, f), { recursive: true })
  const platform = path.join(APP, 'node_modules', `qr-native-${triple}`)
  fs.mkdirSync(platform, { recursive: true })
  fs.copyFileSync(path.join(ROOT, 'npm', triple, 'package.json'), path.join(platform, 'package.json'))
  fs.copyFileSync(path.join(ROOT, binary), path.join(platform, binary))
})

after(() => {
  decoder?.close()
  fs.rmSync(APP, { recursive: true, force: true })
})

const build = () => spawnSync(process.execPath, [NEXT, 'build'], { cwd: APP, env: ENV, encoding: 'utf8', timeout: 300_000 })
const config = (text) => fs.writeFileSync(path.join(APP, 'next.config.js'), text ?? fs.readFileSync(path.join(EXAMPLE, 'next.config.js')))

test('next build without serverExternalPackages fails on the .node file', { skip }, () => {
  config('module.exports = {}\n')
  const r = build()
  assert.notEqual(r.status, 0, 'the build passed')
  assert.match(r.stdout + r.stderr, /\.node/)
})

test('with serverExternalPackages: [\'qr-native\'], next build, then next start serves a PNG over HTTP', { skip }, async () => {
  config()
  fs.rmSync(path.join(APP, '.next'), { recursive: true, force: true })
  const r = build()
  assert.equal(r.status, 0, r.stdout + r.stderr)
  const port = await new Promise((resolve) => {
    const probe = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address()
      probe.close(() => resolve(port))
    })
  })
  const server = spawn(process.execPath, [NEXT, 'start', '-p', String(port), '-H', '127.0.0.1'], { cwd: APP, env: ENV, stdio: ['ignore', 'pipe', 'pipe'] })
  let log = ''
  server.stdout.on('data', (d) => { log += d })
  server.stderr.on('data', (d) => { log += d })
  try {
    await new Promise((resolve, reject) => {
      server.stdout.on('data', () => { if (/Ready/.test(log)) resolve() })
      server.once('exit', (code) => reject(new Error(`next start exited with ${code}: ${log}`)))
    })
    const get = async (ua) => {
      const res = await fetch(`http://127.0.0.1:${port}/qrcode?text=${encodeURIComponent('next start')}`, { headers: { 'user-agent': ua } })
      assert.equal(res.status, 200, log)
      return res
    }
    const res = await get('Mozilla/5.0 (compatible; Googlebot/2.1)')
    assert.equal(res.headers.get('content-type'), 'image/png')
    assert.equal(res.headers.get('x-bot'), 'true')
    assert.deepEqual(await decoder.decode(Buffer.from(await res.arrayBuffer())), Buffer.from('next start'))
    assert.equal((await get('Mozilla/5.0 (X11; Linux x86_64)')).headers.get('x-bot'), 'false')
  } finally {
    server.kill()
  }
})
