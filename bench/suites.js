'use strict'
// The bench's suites by name, in report order: `npm run bench` runs them (bench/index.js);
// support/docs.js renders their reports into README.md and docs/.
const SUITES = {
  qr: './qr',
  compat: './compat',
  styled: './styled',
  match: './matcher',
  queue: './queue',
  http: './http',
  decode: './decode',
  system: './system',
  replace: './replace',
  wasm: './wasm'
}

/** The suite module named `name`. */
const suite = (name) => require(SUITES[name])

module.exports = { SUITES, suite }
