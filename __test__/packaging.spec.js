'use strict'
// What a user's `npm install qr-native` does, minus the registry: `npm pack` the main
// package and this platform's npm/<triple> package (with the freshly built binary in it),
// install both tarballs into an empty project outside the repository, and there require it,
// import it, compile a TypeScript consumer with --strict, and decode what it makes.
const { test, before, after } = require('node:test')
const assert = require('node:assert/strict')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { execFileSync } = require('node:child_process')
const { QrDecoder } = require('./helpers/decoder')

const ROOT = path.join(__dirname, '..')
const npm = (args, cwd) => execFileSync('npm', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] })

function triple () {
  const libc = process.platform === 'linux' ? (process.report.getReport().header.glibcVersionRuntime ? '-gnu' : '-musl') : ''
  const abi = process.platform === 'win32' ? '-msvc' : libc
  return `${process.platform}-${process.arch}${abi}`
}

let work
let project
let decoder
before(() => {
  decoder = new QrDecoder()
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'qr-native-pack-'))
  // The platform package, with the binary `npm run build` just made.
  const platformDir = path.join(work, 'platform')
  fs.cpSync(path.join(ROOT, 'npm', triple()), platformDir, { recursive: true })
  const binary = `qr-native.${triple()}.node`
  fs.copyFileSync(path.join(ROOT, binary), path.join(platformDir, binary))
  const platformTgz = npm(['pack', '--pack-destination', work], platformDir).trim().split('\n').pop()
  const mainTgz = npm(['pack', '--pack-destination', work, '--ignore-scripts'], ROOT).trim().split('\n').pop()
  project = path.join(work, 'app')
  fs.mkdirSync(project)
  fs.writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'app', version: '1.0.0', private: true }))
  npm(['install', '--no-audit', '--no-fund', '--ignore-scripts', path.join(work, mainTgz), path.join(work, platformTgz)], project)
})
after(() => { decoder.close(); fs.rmSync(work, { recursive: true, force: true }) })

const runIn = (dir, file, source) => {
  fs.writeFileSync(path.join(dir, file), source)
  return execFileSync(process.execPath, [file], { cwd: dir, encoding: 'utf8' })
}

test('the main tarball holds the loader, types and compat layer, and no binary', () => {
  const files = JSON.parse(npm(['pack', '--dry-run', '--json', '--ignore-scripts'], ROOT))[0].files.map((f) => f.path)
  for (const f of ['index.js', 'index.mjs', 'index.d.ts', 'binding.js', 'compat.js', 'compat.d.ts', 'bin/qr-native.js']) assert.ok(files.includes(f), f)
  assert.ok(!files.some((f) => f.endsWith('.node')), 'no .node in the main package')
})

test('require(\'qr-native\').generate makes a QR code that decodes', async () => {
  const b64 = runIn(project, 'cjs.js', "require('qr-native').generate('packaged cjs').then((b) => process.stdout.write(b.toString('base64')))")
  assert.deepEqual(await decoder.decode(Buffer.from(b64, 'base64')), Buffer.from('packaged cjs'))
})

test('import { generate } from \'qr-native\' works too, and the compat layer', async () => {
  const b64 = runIn(project, 'esm.mjs', "import { generate, Matcher } from 'qr-native'; import * as compat from 'qr-native/compat';\n" +
    "if (!new Matcher(['x']).test('x')) throw new Error('matcher');\n" +
    "const png = await generate('packaged esm'); await compat.toBuffer('compat');\nprocess.stdout.write(png.toString('base64'))")
  assert.deepEqual(await decoder.decode(Buffer.from(b64, 'base64')), Buffer.from('packaged esm'))
})

test('TypeScript users get complete types (tsc --noEmit --strict)', () => {
  fs.copyFileSync(path.join(__dirname, 'types', 'consumer.ts'), path.join(project, 'consumer.ts'))
  const tsc = path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc')
  execFileSync(process.execPath, [tsc, '--noEmit', '--strict', '--target', 'es2022', '--module', 'nodenext', '--moduleResolution', 'nodenext',
    '--types', 'node', '--typeRoots', path.join(ROOT, 'node_modules', '@types'), 'consumer.ts'], { cwd: project, encoding: 'utf8' })
})

test('without the platform package, the error names the platform and what to do', () => {
  fs.rmSync(path.join(project, 'node_modules', `qr-native-${triple()}`), { recursive: true, force: true })
  const out = runIn(project, 'missing.js', "try { require('qr-native') } catch (e) { process.stdout.write(JSON.stringify({ code: e.code, message: e.message })) }")
  const e = JSON.parse(out)
  assert.equal(e.code, 'ERR_QR_NATIVE_NO_BINARY')
  assert.match(e.message, new RegExp(triple()))
  assert.match(e.message, /build it from source: clone the qr-native repository/)
})
