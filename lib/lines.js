'use strict'
// `matcher.lines(options?)`: grep as a Node Transform. Bytes in (a file, a socket, a gunzip
// stream); out, in object mode, `{ line, number }` for each line a pattern matches (`invert`:
// each it does not), or with `replace`, every line with its matches replaced. Lines split as
// `scanLines` splits them ('\n', '\r\n'; numbers from 0).
//
// Each chunk goes to the threadpool through the package's queue (`__matcherLines`): the
// native side copies it, splits it into lines, tests each and answers with the picked lines'
// bounds. The line a chunk ends in the middle of is carried into the next, up to
// `maxLineBytes`: past it the stream errors (ERR_OUT_OF_RANGE) after every line before it
// has been pushed. Two chunks are in flight at once (IN_FLIGHT), their lines pushed in order;
// past that, backpressure is the Transform's own: the next chunk is taken only once the
// oldest one's lines are pushed and the reader wants more.
const { Transform } = require('node:stream')
const binding = require('./load.js')
const { codeError } = require('./errors.js')

const matcherLines = binding.__matcherLines
const DEFAULT_MAX_LINE = 1 << 20
const MAX_LINE = require('./limits.js').maxLineBytes
// A chunk goes to native in pieces of at most this many bytes (its offsets are 32-bit).
const MAX_PIECE = 1 << 30
const NONE = 0xffffffff
const EMPTY = Buffer.alloc(0)
// Chunks read at once: the next one is copied and sent while the last is matched, so reading
// the source and matching overlap.
const IN_FLIGHT = 2


function readOptions(options) {
  if (options === undefined || options === null) return { invert: false, maxLineBytes: DEFAULT_MAX_LINE }
  if (typeof options !== 'object') {
    throw codeError(TypeError, 'ERR_INVALID_ARG_TYPE', `The "options" argument must be of type object. Received type ${typeof options}`)
  }
  const { invert, replace, maxLineBytes, signal } = options
  if (invert !== undefined && typeof invert !== 'boolean') {
    throw codeError(TypeError, 'ERR_INVALID_ARG_TYPE', `The "options.invert" property must be of type boolean. Received type ${typeof invert}`)
  }
  if (maxLineBytes !== undefined && (typeof maxLineBytes !== 'number')) {
    throw codeError(TypeError, 'ERR_INVALID_ARG_TYPE', `The "options.maxLineBytes" property must be of type number. Received type ${typeof maxLineBytes}`)
  }
  if (maxLineBytes !== undefined && !(Number.isInteger(maxLineBytes) && maxLineBytes >= 1 && maxLineBytes <= MAX_LINE)) {
    throw codeError(RangeError, 'ERR_OUT_OF_RANGE', `The value of "options.maxLineBytes" is out of range. It must be an integer >= 1 and <= ${MAX_LINE}. Received ${maxLineBytes}`)
  }
  if (replace !== undefined && invert) {
    throw codeError(TypeError, 'ERR_INVALID_ARG_VALUE', 'The options "replace" and "invert" cannot be used together: with replace, every line comes out')
  }
  if (signal !== undefined && (signal === null || typeof signal !== 'object' || typeof signal.aborted !== 'boolean')) {
    throw codeError(TypeError, 'ERR_INVALID_ARG_TYPE', 'The "options.signal" property must be an instance of AbortSignal')
  }
  return { invert: invert === true, replace, maxLineBytes: maxLineBytes ?? DEFAULT_MAX_LINE, signal }
}

class MatcherLines extends Transform {
  // The matcher's native object, asked at each chunk (a dispose midway is seen).
  #native
  #pick
  #replace
  #maxLine
  #signal
  // The start of the line the last chunk ended in (our own copy), and the number of the
  // next line to be read.
  #pending = [EMPTY]
  #pendingBytes = 0
  #number = 0
  // The chunks sent to native and not yet pushed (each a promise settled once it is), the
  // promise of the last one's pushes, the first error met, and whether one is coming (then
  // nothing more is sent).
  #flight = []
  #chain = Promise.resolve()
  #failed = null
  #doomed = false

  constructor(native, options, replaceWith) {
    const o = readOptions(options)
    super({ readableObjectMode: true, signal: o.signal })
    this.#native = native
    this.#replace = o.replace === undefined ? undefined : replaceWith(o.replace)
    this.#pick = this.#replace ? 2 : o.invert ? 1 : 0
    this.#maxLine = o.maxLineBytes
    this.#signal = o.signal
  }

  // A chunk written while another is being read waits in the stream's buffer, where the
  // caller could still transfer, detach or rewrite it: it is copied first. One read at once
  // (nothing waiting) is copied by the read itself, before `write` returns.
  write(chunk, encoding, callback) {
    if (chunk instanceof Uint8Array && (this.writableLength > 0 || this.writableCorked)) chunk = Buffer.from(chunk)
    return super.write(chunk, encoding, callback)
  }

  _transform(chunk, encoding, callback) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk, encoding) : chunk
    if (!(bytes instanceof Uint8Array)) {
      callback(codeError(TypeError, 'ERR_INVALID_ARG_TYPE', 'lines() reads bytes: each chunk must be a Buffer, a Uint8Array or a string'))
      return
    }
    this.#write(bytes, false, callback)
  }

  _flush(callback) {
    this.#write(EMPTY, true, callback)
  }

  // Sends `bytes` after the carried line to be read, in pieces of at most MAX_PIECE (`last`:
  // the stream has ended), and calls back once few enough chunks are in flight: at once while
  // fewer than IN_FLIGHT are (so the next chunk is read from its source while this one is
  // matched), after all of them at the end.
  #write(bytes, last, callback) {
    for (let at = 0; !this.#doomed && (at < bytes.length || (last && at === 0)); at += MAX_PIECE) {
      this.#send(bytes.subarray(at, at + MAX_PIECE), last && at + MAX_PIECE >= bytes.length)
      if (bytes.length === 0) break
    }
    this.#settle(last ? 0 : IN_FLIGHT - 1, callback)
  }

  // Calls back once at most `most` chunks are in flight, with the first error met.
  #settle(most, callback) {
    if (this.#failed || this.#flight.length <= most) {
      callback(this.#failed)
      return
    }
    this.#flight[0].then(() => this.#settle(most, callback))
  }

  // The complete lines of the carried line and `bytes` go to native (which copies them, now);
  // the line `bytes` ends in is copied here, now, to carry on: the caller may rewrite `bytes`
  // the moment its write returns. What native answers is pushed in the order chunks came,
  // after the lines of every chunk before (`#chain`); an error, thrown here or met there,
  // stops the chain after them, and nothing more is sent.
  #send(bytes, last) {
    const cut = last ? bytes.length : Buffer.prototype.lastIndexOf.call(bytes, 10) + 1
    const tail = cut < bytes.length ? Buffer.from(bytes.subarray(cut)) : EMPTY
    let answer = null
    if (cut === 0 && !last) {
      // No line ends here: carry all of it, within the limit (kept in pieces, joined once
      // the line ends: a long line in small chunks costs no copy a chunk).
      this.#pending.push(tail)
      this.#pendingBytes += tail.length
    } else {
      try {
        const pending = this.#pending.length === 1 ? this.#pending[0] : Buffer.concat(this.#pending)
        answer = matcherLines.call(this.#native(), pending, bytes.subarray(0, cut), this.#pick, this.#maxLine, last, this.#signal)
      } catch (error) {
        answer = Promise.reject(error)
        this.#doomed = true
      }
      // Handled where the chain reaches it; until then, not an unhandled rejection.
      answer.catch(() => {})
      this.#pending = [tail]
      this.#pendingBytes = tail.length
    }
    const tooLong = this.#pendingBytes > this.#maxLine
    if (tooLong) this.#doomed = true
    const done = this.#chain.then(() => answer).then((result) => {
      if (result) {
        const [out, data] = result
        this.#push(data, out)
        if (out[2] !== NONE) throw this.#tooLong()
      }
      if (tooLong) throw this.#tooLong()
    })
    this.#chain = done
    this.#flight.push(done.then(() => { this.#flight.shift() }, (error) => {
      this.#flight.shift()
      this.#failed ??= error
      this.#doomed = true
      // No callback may be waiting to carry it (the writer is idle): error the stream now.
      this.destroy(error)
    }))
  }

  #tooLong() {
    return codeError(RangeError, 'ERR_OUT_OF_RANGE', `Line ${this.#number} is longer than options.maxLineBytes (${this.#maxLine} bytes): lines() stops there; every line before it was read`)
  }

  // The lines picked, as views of `data` (native's copy of this chunk: nothing else holds it).
  #push(data, out) {
    const base = this.#number
    for (let j = 3; j < out.length; j += 4) {
      const line = data.subarray(out[j + 1], out[j + 2])
      if (this.#replace && out[j + 3]) {
        this.push({ line: Buffer.from(this.#replace(line.toString('utf8'))), number: base + out[j] })
      } else {
        this.push({ line, number: base + out[j] })
      }
    }
    this.#number = base + out[1]
  }
}

module.exports = { MatcherLines }
