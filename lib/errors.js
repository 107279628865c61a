'use strict'
// Errors made in JavaScript take the shape native ones take: the class says what went wrong
// (TypeError, RangeError, …) and `code` which error it is (`ERR_OUT_OF_RANGE`, …).

/** An error of class `Type` with `code` and `message`. */
function codeError(Type, code, message) {
  const error = new Type(message)
  error.code = code
  return error
}

module.exports = { codeError }
