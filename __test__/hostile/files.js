'use strict'
// Hand-made image files for the hostile specs (decode's images, styled codes' logos): each
// format's header claiming any width × height, with little or no data behind it.
const zlib = require('node:zlib')

// PNG's CRC-32, for hand-made chunks (in this process, and in the children as source).
function crc32 (bytes) {
  let c = ~0
  for (const b of bytes) { c ^= b; for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0xEDB88320 : c >>> 1 }
  return ~c >>> 0
}

// Hand-made files, built in the child: a header claiming `w × h`, and little or no data.
const FILES = `
${crc32}
const u32be = (n) => { const b = Buffer.alloc(4); b.writeUInt32BE(n >>> 0); return b }
const png = (w, h) => {
  const file = Buffer.from(qr.generateSync('bomb', { scale: 1 }))
  u32be(w).copy(file, 16); u32be(h).copy(file, 20)
  u32be(crc32(file.subarray(12, 29))).copy(file, 29)
  return file
}
const jpeg = (w, h) => Buffer.from([0xff, 0xd8, 0xff, 0xc0, 0, 17, 8, h >> 8, h & 255, w >> 8, w & 255, 3,
  1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1, 0xff, 0xda, 0, 12, 3, 1, 0, 2, 0x11, 3, 0x11, 0, 63, 0, 1, 2, 3, 0xff, 0xd9])
const gif = (w, h) => Buffer.from([...Buffer.from('GIF89a'), w & 255, w >> 8, h & 255, h >> 8, 0, 0, 0,
  0x2c, 0, 0, 0, 0, w & 255, w >> 8, h & 255, h >> 8, 0, 2, 2, 0x4c, 0x01, 0, 0x3b])
const bmp = (w, h) => {
  const b = Buffer.alloc(58)
  b.write('BM'); b.writeUInt32LE(58, 2); b.writeUInt32LE(54, 10); b.writeUInt32LE(40, 14)
  b.writeInt32LE(w, 18); b.writeInt32LE(h, 22); b.writeUInt16LE(1, 26); b.writeUInt16LE(24, 28)
  return b
}
const webp = (w, h) => {
  const b = Buffer.alloc(30)
  b.write('RIFF'); b.writeUInt32LE(22, 4); b.write('WEBPVP8X', 8); b.writeUInt32LE(10, 16)
  b.writeUIntLE(Math.max(0, w - 1), 24, 3); b.writeUIntLE(Math.max(0, h - 1), 27, 3)
  return b
}
// A plain lossy WebP (one 'VP8 ' chunk), read straight to luma: its key frame header's size.
const vp8 = (w, h) => {
  const b = Buffer.alloc(30)
  b.write('RIFF'); b.writeUInt32LE(22, 4); b.write('WEBPVP8 ', 8); b.writeUInt32LE(10, 16)
  b.set([0x10, 0x02, 0, 0x9d, 0x01, 0x2a], 20); b.writeUInt16LE(w & 0x3fff, 26); b.writeUInt16LE(h & 0x3fff, 28)
  return b
}
const FILES = { png, jpeg, gif, bmp, webp, vp8 }
`

/** A PNG chunk `kind` whose body is `head` and then `compressed` (zlib data that inflates). */
function inflatingChunk (kind, head, compressed) {
  const body = Buffer.concat([Buffer.from(kind, 'latin1'), Buffer.from(head, 'latin1'), compressed])
  const out = Buffer.alloc(body.length + 8)
  out.writeUInt32BE(body.length - 4, 0)
  body.copy(out, 4)
  // The CRC over the whole body is slow in JS; zlib's crc32 where Node has it.
  out.writeUInt32BE(zlib.crc32 ? zlib.crc32(body) : crc32(body), body.length + 4)
  return out
}

module.exports = { crc32, FILES, inflatingChunk }
