'use strict'
// Servers bundled with esbuild (what AWS CDK's NodejsFunction, SAM, Netlify, Vite SSR and
// most serverless tooling run) and with webpack: bundling qr-native into the output fails,
// because a `.node` file is not JavaScript; marked external, as docs/deploy.md says, the
// bundle runs, loads the binary from node_modules and answers. The Express example is
// bundled by each (express inside the bundle, qr-native outside, logo.png copied beside
// it) and serves its QR codes over HTTP on 127.0.0.1. The apps live in a temporary project
// whose node_modules/qr-native is this repository.
const { test, before, after } = require('node:test')
const assert = require('node:assert/strict')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { execFileSync, spawn } = require('node:child_process')
const esbuild = require('esbuild')
const webpack = require('webpack')
const { QrDecoder } = require('../support/decoder')

const ROOT = path.join(__dirname, '..')
const APP = `
const { generate, Matcher } = require('qr-native')
const bots = new Matcher(['Googlebot', '*bot*'].map((pattern, i) => i ? { pattern, kind: 'wildcard' } : pattern))
generate('bundled').then((png) => {
  process.stdout.write(JSON.stringify({ png: png.toString('base64'), bot: bots.test('Mozilla/5.0 (compatible; Googlebot/2.1)'), human: bots.test('Mozilla/5.0') }))
})
`

const EXAMPLE = path.join(ROOT, 'examples', 'express')
const START = `
const { createApp } = require('./server.js')
const server = createApp().listen(0, '127.0.0.1', () => console.log('listening on ' + server.address().port))
`

let work
let decoder

before(() => {
  decoder = new QrDecoder()
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'qr-native-bundle-'))
  fs.mkdirSync(path.join(work, 'node_modules'))
  fs.symlinkSync(ROOT, path.join(work, 'node_modules', 'qr-native'), 'dir')
  fs.symlinkSync(path.dirname(require.resolve('express/package.json')), path.join(work, 'node_modules', 'express'), 'dir')
  fs.writeFileSync(path.join(work, 'app.js'), APP)
  // The Express example as a project of its own: its server, and an entry that starts it on
  // any free port (a bundle is not \`require.main\` under every bundler).
  fs.copyFileSync(path.join(EXAMPLE, 'server.js'), path.join(work, 'server.js'))
  fs.writeFileSync(path.join(work, 'start.js'), START)
})

after(() => {
  decoder.close()
  fs.rmSync(work, { recursive: true, force: true })
})

const bundle = (options) => esbuild.build({
  entryPoints: [path.join(work, 'app.js')],
  bundle: true,
  platform: 'node',
  format: 'cjs',
  outfile: path.join(work, 'dist', 'app.js'),
  absWorkingDir: work,
  logLevel: 'silent',
  ...options
})

test('esbuild cannot bundle the binary itself: the build fails on the .node file', async () => {
  await assert.rejects(bundle({ outfile: path.join(work, 'dist', 'inlined.js') }), (err) => {
    assert.ok(err.errors.some((e) => /\.node/.test(e.text)), err.errors.map((e) => e.text).join('\n'))
    return true
  })
})

test('esbuild with qr-native external (docs/deploy.md): the bundle runs and answers from node_modules', async () => {
  await bundle({ external: ['qr-native'] })
  const source = fs.readFileSync(path.join(work, 'dist', 'app.js'), 'utf8')
  assert.match(source, /require\("qr-native"\)/)
  assert.ok(!source.includes('Cannot find native binding'), 'the loader was not bundled')
  const out = JSON.parse(execFileSync(process.execPath, [path.join('dist', 'app.js')], { cwd: work, encoding: 'utf8' }))
  assert.deepEqual([out.bot, out.human], [true, false])
  assert.deepEqual(await decoder.decode(Buffer.from(out.png, 'base64')), Buffer.from('bundled'))
})

test('esbuild with packages: external (every dependency left to node_modules) works the same', async () => {
  await bundle({ packages: 'external', outfile: path.join(work, 'dist', 'all-external.js') })
  const out = JSON.parse(execFileSync(process.execPath, [path.join('dist', 'all-external.js')], { cwd: work, encoding: 'utf8' }))
  assert.deepEqual(await decoder.decode(Buffer.from(out.png, 'base64')), Buffer.from('bundled'))
})

/** Starts `bundle` (with logo.png beside it), asks it for a plain and a styled code over HTTP, stops it. */
async function serveFromBundle (bundle) {
  fs.copyFileSync(path.join(EXAMPLE, 'logo.png'), path.join(path.dirname(bundle), 'logo.png'))
  const server = spawn(process.execPath, [bundle], { cwd: work, stdio: ['ignore', 'pipe', 'inherit'] })
  try {
    const port = await new Promise((resolve, reject) => {
      let out = ''
      server.stdout.on('data', (d) => { out += d; const m = /listening on (\d+)/.exec(out); if (m) resolve(Number(m[1])) })
      server.once('exit', (code) => reject(new Error(`the bundle exited with ${code} before listening: ${out}`)))
    })
    const get = async (query) => {
      const res = await fetch(`http://127.0.0.1:${port}${query}`)
      assert.equal(res.status, 200, await res.clone().text())
      return { type: res.headers.get('content-type'), body: Buffer.from(await res.arrayBuffer()) }
    }
    const plain = await get('/qrcode?text=' + encodeURIComponent('bundled express'))
    assert.equal(plain.type, 'image/png')
    assert.deepEqual(await decoder.decode(plain.body), Buffer.from('bundled express'))
    const styled = await get('/qrcode/styled?text=styled&dots=classy&format=png')
    assert.deepEqual(await decoder.decode(styled.body), Buffer.from('styled'))
  } finally {
    server.kill()
  }
}

test('the Express example bundled by esbuild (express inside, qr-native external) serves its codes over HTTP', async () => {
  const outfile = path.join(work, 'dist-esbuild', 'start.js')
  await bundle({ entryPoints: [path.join(work, 'start.js')], outfile, external: ['qr-native'] })
  assert.ok(!/require\("express"\)/.test(fs.readFileSync(outfile, 'utf8')), 'express is inside the bundle')
  await serveFromBundle(outfile)
})

const pack = (options) => new Promise((resolve, reject) => {
  webpack({
    mode: 'production',
    target: 'node',
    context: work,
    entry: path.join(work, 'start.js'),
    output: { path: path.join(work, 'dist-webpack'), filename: 'start.js' },
    // Minifying costs most of the build and changes nothing here.
    optimization: { minimize: false },
    // webpack's default turns __dirname into '/': the example reads logo.png beside itself.
    node: { __dirname: false },
    ...options
  }, (err, stats) => (err ? reject(err) : resolve(stats)))
})

test('webpack cannot bundle the binary itself: the build fails on the .node file', async () => {
  const stats = await pack({ output: { path: path.join(work, 'dist-webpack-inlined'), filename: 'start.js' } })
  assert.ok(stats.hasErrors(), 'webpack bundled qr-native without an error')
  const errors = stats.toJson({ all: false, errors: true }).errors
  // "Module parse failed: Unexpected character '\x7F'": the ELF header of the .node file.
  assert.ok(errors.some((e) => (e.moduleName || '').endsWith('.node') && /Module parse failed/.test(e.message)), JSON.stringify(errors, null, 1))
})

test('the Express example bundled by webpack (externals: qr-native) serves its codes over HTTP', async () => {
  const stats = await pack({ externals: { 'qr-native': 'commonjs qr-native' } })
  assert.ok(!stats.hasErrors(), stats.toString({ all: false, errors: true }))
  await serveFromBundle(path.join(work, 'dist-webpack', 'start.js'))
})
