'use strict'
// The limits lib/ checks before a call reaches native code (`maxPatterns`, `maxFindAll`,
// `maxLineBytes`), read once from the binding, where they are defined: never typed again here.
module.exports = Object.freeze(require('./load.js').__limits())
