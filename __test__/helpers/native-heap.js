'use strict'
// What our memory tests judge: the addon's own heap (`stats().nativeBytes`), read after a
// collection has run the finalizers of what is no longer reachable.
require('node:v8').setFlagsFromString('--expose-gc')
const gc = require('node:vm').runInNewContext('gc')

async function nativeBytesAfterGc (qr) {
  for (let i = 0; i < 3; i++) {
    gc()
    await new Promise(setImmediate)
  }
  return qr.stats().nativeBytes
}

module.exports = { nativeBytesAfterGc }
