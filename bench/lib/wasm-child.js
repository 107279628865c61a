'use strict'
// One round of bench/wasm.js in this process: qr-native as `require` loads it here (natively,
// or the WebAssembly build when the parent sets NAPI_RS_FORCE_WASI=error), each case run for
// `ms` milliseconds. Prints { loaded, ops: { case: operations per second } }.
const fs = require('node:fs')
const path = require('node:path')
const { opsPerSecSync, opsPerSecAsync } = require('./measure')

const ROOT = path.join(__dirname, '..', '..')
const ms = Number(process.argv[2]) || 500
const qr = require(ROOT)
const loaded = require(path.join(ROOT, 'binding.js')).__napiBindingTarget || 'native'

const URL = 'https://example.com/orders/2026/12/07/qr-native?ref=bench'
// A phone photo from zxing-cpp's samples (nobody here made it).
const PHOTO = fs.readFileSync(path.join(ROOT, '__test__', 'fixtures', 'zxing-cpp-qrcode', 'qrcode-2', 'high-res-1.jpg'))
// isbot's own list against real user agents (crawler-user-agents' instances, user-agents').
const { list } = require('isbot')
const bots = require('crawler-user-agents').flatMap((c) => c.instances || []).slice(0, 500)
const UserAgent = require('user-agents')
const agents = bots.concat(Array.from({ length: 500 }, () => new UserAgent().toString()))
const isbot = new qr.Matcher(list, { caseInsensitive: true })
const log = Buffer.from(Array.from({ length: 4000 }, (_, i) => `127.0.0.1 - - [07/Dec/2026:10:00:${String(i % 60).padStart(2, '0')}] "GET /item/${i} HTTP/1.1" 200 512 "-" "${agents[i % agents.length]}"`).join('\n'))

async function main () {
  const cases = {
    'QR: generateSync, PNG of a 61-character URL': () => opsPerSecSync(() => qr.generateSync(URL), ms),
    'QR: generateSync, SVG': () => opsPerSecSync(() => qr.generateSync(URL, { type: 'svg' }), ms),
    'QR: generate (async), 8 in flight': () => opsPerSecAsync(() => qr.generate(URL), ms, 8),
    'decode: decodeSync, a 350 × 375 phone photo (JPEG)': () => opsPerSecSync(() => qr.decodeSync(PHOTO), ms),
    'match: isbot\'s 206 patterns, testMany of 1,000 agents': () => opsPerSecSync(() => isbot.testMany(agents), ms),
    'match: isbot\'s patterns, scanLines of a 4,000-line access log (async)': () => opsPerSecAsync(() => isbot.scanLines(log), ms, 1)
  }
  const ops = {}
  for (const [name, run] of Object.entries(cases)) ops[name] = await run()
  process.stdout.write(JSON.stringify({ loaded, ops }))
}

main()
