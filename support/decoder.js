'use strict'
// A real QR decoder we did not write: zxing-cpp compiled to WebAssembly (`zxing-wasm` from
// npm), given the `.wasm` from its own package so it never fetches anything. Node only: no
// Python, no network. A missing or failing decoder fails the test that uses it at once,
// saying what to install, instead of leaving a promise that never settles.
const fs = require('node:fs')

let ready
function reader () {
  if (!ready) {
    ready = (async () => {
      let zxing, wasmBinary
      try {
        zxing = require('zxing-wasm/reader')
        wasmBinary = fs.readFileSync(require.resolve('zxing-wasm/reader/zxing_reader.wasm'))
      } catch (e) {
        throw new Error(`the QR decoder the tests use is missing: run \`npm ci\` (devDependency zxing-wasm). ${e.message}`)
      }
      await zxing.prepareZXingModule({ overrides: { wasmBinary }, fireImmediately: true })
      return zxing
    })()
  }
  return ready
}

class QrDecoder {
  /** Decodes a PNG; resolves with the payload bytes, or null when no QR code is found. */
  async decode (png) {
    const zxing = await reader()
    const found = await zxing.readBarcodes(new Blob([png]), { formats: ['QRCode'], tryHarder: true, maxNumberOfSymbols: 1 })
    const code = found.find((r) => r.isValid)
    return code ? Buffer.from(code.bytes) : null
  }

  /** Nothing to release: the module stays loaded for the process. */
  close () {}
}

module.exports = { QrDecoder }

// `node support/decoder.js --check` (first in `npm test`): decodes one code or
// fails in seconds with what to install, before any test runs.
if (require.main === module && process.argv.includes('--check')) {
  const text = 'decoder check'
  new QrDecoder().decode(require('..').generateSync(text)).then((bytes) => {
    if (!bytes || bytes.toString() !== text) throw new Error(`the QR decoder the tests use decoded ${bytes ? `'${bytes}'` : 'nothing'} instead of '${text}'`)
    console.log('decoder check: zxing-wasm decodes our codes')
  }).catch((e) => {
    console.error(`decoder check failed: ${e.message}\nThe tests decode every code with zxing-wasm: run \`npm ci\` to install it.`)
    process.exit(1)
  })
}
