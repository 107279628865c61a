'use strict'
// qr-native/compat next to the `qrcode` package it replaces: the same calls, one after the
// other (as a handler awaits them), PNG 200 px and SVG text.
const QRCode = require('qrcode')
const compat = require('../compat')
const { interleave, opsPerSecAsync } = require('./lib/measure')

const TEXT = 'https://example.com/products/12345?ref=qr-1'

async function run ({ quick, progress }) {
  const ms = quick ? 150 : 400
  const rounds = quick ? 3 : 7
  const png = { width: 200 }
  const svg = { type: 'svg' }
  const results = {
    toBuffer: await interleave([
      { name: 'qrcode', run: () => opsPerSecAsync(() => QRCode.toBuffer(TEXT, png), ms) },
      { name: 'qr-native/compat', run: () => opsPerSecAsync(() => compat.toBuffer(TEXT, png), ms) }
    ], rounds, (p) => progress(`compat toBuffer ${p}`)),
    toStringSvg: await interleave([
      { name: 'qrcode', run: () => opsPerSecAsync(() => QRCode.toString(TEXT, svg), ms) },
      { name: 'qr-native/compat', run: () => opsPerSecAsync(() => compat.toString(TEXT, svg), ms) }
    ], rounds, (p) => progress(`compat toString ${p}`)),
    bytes: { qrcode: (await QRCode.toBuffer(TEXT, png)).length, 'qr-native/compat': (await compat.toBuffer(TEXT, png)).length }
  }
  return results
}

const ratio = (r) => r['qr-native/compat'].median / r.qrcode.median

function goals (results) {
  return [{ goal: 'compat toBuffer vs qrcode (same call, awaited one by one)', value: ratio(results.toBuffer), target: 'faster', met: ratio(results.toBuffer) > 1 }]
}

function report (results) {
  const cell = (s) => `${s.median.toFixed(0)} (${s.min.toFixed(0)}–${s.max.toFixed(0)})`
  return ['### Drop-in: `qr-native/compat` vs `qrcode`, 44-char URL, awaited one by one (ops/s)', '',
    '| call | qrcode | qr-native/compat | ratio |', '|---|---|---|---|',
    `| toBuffer, width 200 (default PNG settings) | ${cell(results.toBuffer.qrcode)} | ${cell(results.toBuffer['qr-native/compat'])} | ${ratio(results.toBuffer).toFixed(1)}× |`,
    `| toString, type svg | ${cell(results.toStringSvg.qrcode)} | ${cell(results.toStringSvg['qr-native/compat'])} | ${ratio(results.toStringSvg).toFixed(1)}× |`,
    `| PNG bytes | ${results.bytes.qrcode} | ${results.bytes['qr-native/compat']} | |`].join('\n')
}

module.exports = { name: 'compat', run, goals, report }
