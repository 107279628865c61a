'use strict'
// A zxing-cpp decoder in a Python child process, fed PNGs one JSON line at a time.
const { spawn } = require('node:child_process')
const path = require('node:path')
const readline = require('node:readline')

class QrDecoder {
  constructor () {
    this.child = spawn(process.env.PYTHON || 'python3', [path.join(__dirname, 'zxing_decode.py')], {
      stdio: ['pipe', 'pipe', 'inherit']
    })
    this.pending = new Map()
    this.nextId = 0
    readline.createInterface({ input: this.child.stdout }).on('line', (line) => {
      const answer = JSON.parse(line)
      const resolve = this.pending.get(answer.id)
      this.pending.delete(answer.id)
      resolve(answer)
    })
  }

  /** Decodes a PNG; resolves with the payload bytes, or null when no QR code is found. */
  async decode (png) {
    const id = this.nextId++
    const answer = await new Promise((resolve) => {
      this.pending.set(id, resolve)
      this.child.stdin.write(JSON.stringify({ id, png: Buffer.from(png).toString('base64') }) + '\n')
    })
    return answer.found ? Buffer.from(answer.bytes, 'base64') : null
  }

  close () {
    this.child.stdin.end()
  }
}

module.exports = { QrDecoder }
