'use strict'
// The WebAssembly build's exceptions: scripts/targets.js runs the suite against it with
// QR_NATIVE_WASI=1, and a test of something WebAssembly cannot do skips there, saying why.
// Natively `unlessWasi` is false and every test runs.
const WASI = process.env.QR_NATIVE_WASI === '1'

/** A `skip` option: false natively; under WebAssembly, the reason. */
const unlessWasi = (why) => (WASI ? `not under WebAssembly: ${why}` : false)

module.exports = { WASI, unlessWasi }
