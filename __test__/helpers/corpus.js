'use strict'
// A deterministic corpus of QR inputs and options: every mode, mixed text, lengths up to
// capacity, every level, forced versions and masks. The same seed gives the same corpus.

function rng (seed) {
  let s = seed >>> 0
  return () => { s = (s * 1664525 + 1013904223) >>> 0; return s / 2 ** 32 }
}

const ALPHABETS = {
  numeric: '0123456789',
  alphanumeric: 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 $%*+-./:',
  lower: 'abcdefghijklmnopqrstuvwxyz',
  mixed: 'abcXYZ0123456789 ./:-?=&_',
  url: 'abcdefghijklmnopqrstuvwxyz0123456789/:.?=&-',
  unicode: 'aé✓😀日本語Ωж 12AB',
  ascii: Array.from({ length: 95 }, (_, i) => String.fromCharCode(32 + i)).join('')
}
const LEVELS = ['L', 'M', 'Q', 'H']
// Characters each level holds at version 40, by alphabet's best mode.
const CAPACITY = { numeric: [7089, 5596, 3993, 3057], alphanumeric: [4296, 3391, 2420, 1852], byte: [2953, 2331, 1663, 1273] }

function pick (rand, s) {
  const chars = [...s]
  return chars[Math.floor(rand() * chars.length)]
}

function text (rand, alphabet, length) {
  let out = ''
  for (let i = 0; i < length; i++) out += pick(rand, ALPHABETS[alphabet])
  return out
}

/** `count` cases of { input, options } for create/toString/toBuffer. */
function corpus (count, seed = 1) {
  const rand = rng(seed)
  const names = Object.keys(ALPHABETS)
  const cases = []
  for (let i = 0; i < count; i++) {
    const alphabet = names[i % names.length]
    const level = LEVELS[Math.floor(rand() * 4)]
    const cap = CAPACITY[alphabet === 'numeric' ? 'numeric' : alphabet === 'alphanumeric' ? 'alphanumeric' : 'byte'][LEVELS.indexOf(level)]
    const roll = rand()
    // Mostly short, some long, some right at or just under capacity.
    const length = roll < 0.6 ? 1 + Math.floor(rand() * 60)
      : roll < 0.9 ? 1 + Math.floor(rand() * 600)
        : Math.max(1, Math.floor(cap / (alphabet === 'unicode' ? 4 : 1)) - Math.floor(rand() * 3))
    let input = text(rand, alphabet, length)
    if (i % 11 === 0) {
      input = text(rand, 'lower', 5) + text(rand, 'numeric', 10 + Math.floor(rand() * 30)) + text(rand, 'alphanumeric', 12) + text(rand, 'unicode', 3)
    }
    const options = { errorCorrectionLevel: i % 13 === 0 ? ['low', 'medium', 'quartile', 'high'][i % 4] : level }
    if (i % 5 === 0) options.maskPattern = Math.floor(rand() * 8)
    if (i % 7 === 0) options.version = 1 + Math.floor(rand() * 40)
    cases.push({ input, options })
  }
  return cases
}

/** Segment-list inputs `[{ data, mode }]`, valid and not. */
function segmentCases (count, seed = 2) {
  const rand = rng(seed)
  const cases = []
  for (let i = 0; i < count; i++) {
    const segments = []
    const n = 1 + Math.floor(rand() * 4)
    for (let j = 0; j < n; j++) {
      const kind = Math.floor(rand() * 6)
      if (kind === 0) segments.push({ data: text(rand, 'numeric', 1 + Math.floor(rand() * 40)), mode: 'numeric' })
      else if (kind === 1) segments.push({ data: text(rand, 'alphanumeric', 1 + Math.floor(rand() * 30)).replace(/[0-9]/g, 'X'), mode: 'alphanumeric' })
      else if (kind === 2) segments.push({ data: text(rand, 'unicode', 1 + Math.floor(rand() * 20)), mode: 'byte' })
      else if (kind === 3) segments.push({ data: Buffer.from(text(rand, 'ascii', 1 + Math.floor(rand() * 20))), mode: 'byte' })
      else if (kind === 4) segments.push(text(rand, 'mixed', 1 + Math.floor(rand() * 20)))
      else segments.push({ data: text(rand, 'numeric', 5) })
    }
    cases.push({ input: segments, options: { errorCorrectionLevel: LEVELS[i % 4] } })
  }
  return cases
}

module.exports = { rng, corpus, segmentCases, text, LEVELS }
