'use strict'
// The package entry: the native binding (./lib/load.js throws ERR_QR_NATIVE_NO_BINARY, naming
// the platform and the remedy, where no prebuilt binary fits), and the public API.
const binding = require('./lib/load.js')
const { Matcher } = require('./lib/matcher.js')
const { isMatch } = require('./lib/patterns.js')

// The public API, named one by one: the binding's internal entry points (`__compat*` for
// `qr-native/compat`, `__matcherLiteral` and `__matcherMethods` for the Matcher) stay out of
// reach of `require('qr-native')`.
module.exports = {
  encode: binding.encode,
  generate: binding.generate,
  generateMany: binding.generateMany,
  generateSync: binding.generateSync,
  toDataURL: binding.toDataURL,
  toString: binding.toString,
  decode: binding.decode,
  decodeSync: binding.decodeSync,
  isMatch,
  Matcher,
  setConcurrency: binding.setConcurrency,
  concurrency: binding.concurrency,
  setMaxQueue: binding.setMaxQueue,
  stats: binding.stats,
  unicodeVersion: binding.__unicodeVersion()
}
