'use strict'
// A server bundled with esbuild (what AWS CDK's NodejsFunction, SAM, Netlify, Vite SSR and
// most serverless tooling run): bundling qr-native into the output fails, because a `.node`
// file is not JavaScript; marked external, as docs/deploy.md says, the bundle runs, loads
// the binary from node_modules and answers. The app lives in a temporary project whose
// node_modules/qr-native is this repository.
const { test, before, after } = require('node:test')
const assert = require('node:assert/strict')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { execFileSync } = require('node:child_process')
const esbuild = require('esbuild')
const { QrDecoder } = require('../support/decoder')

const ROOT = path.join(__dirname, '..')
const APP = `
const { generate, Matcher } = require('qr-native')
const bots = new Matcher(['Googlebot', '*bot*'].map((pattern, i) => i ? { pattern, kind: 'wildcard' } : pattern))
generate('bundled').then((png) => {
  process.stdout.write(JSON.stringify({ png: png.toString('base64'), bot: bots.test('Mozilla/5.0 (compatible; Googlebot/2.1)'), human: bots.test('Mozilla/5.0') }))
})
`

let work
let decoder

before(() => {
  decoder = new QrDecoder()
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'qr-native-bundle-'))
  fs.mkdirSync(path.join(work, 'node_modules'))
  fs.symlinkSync(ROOT, path.join(work, 'node_modules', 'qr-native'), 'dir')
  fs.writeFileSync(path.join(work, 'app.js'), APP)
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
