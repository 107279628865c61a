const fs = require('fs'), path = require('path')
const { Matcher } = require('/work/main')
const AC = require('/work/main/node_modules/modern-ahocorasick')
// 100 KB of READMEs from node_modules
const root = '/work/main/node_modules'
let text = ''
for (const name of fs.readdirSync(root).sort()) {
  const f = path.join(root, name, 'README.md')
  if (fs.existsSync(f)) text += fs.readFileSync(f, 'utf8') + '\n'
  if (text.length > 100 * 1024) break
}
text = text.slice(0, 100 * 1024)
const freq = new Map()
for (const w of text.match(/[A-Za-z]{5,}/g)) freq.set(w, (freq.get(w) || 0) + 1)
const words = [...freq.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(e => e[0])
console.log('text', text.length, 'distinct words', words.length)
const esc = (s) => s.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&')
for (const n of [2, 10, 100, 1000]) {
  const step = Math.floor(words.length / n)
  const lits = Array.from({ length: n }, (_, i) => words[i * step])
  const m = new Matcher(lits, { kind: 'contains' })
  const re = new RegExp(lits.map(esc).join('|'), 'g')
  const ac = new AC(lits)
  const a = m.replace(text, '[x]'), b = text.replace(re, '[x]'), c = ac.replace(text, '[x]', { strategy: 'leftmost-first' })
  const t = (f) => { f(); const N = n >= 1000 ? 20 : 50; const s = process.hrtime.bigint(); for (let i = 0; i < N; i++) f(); return Number(process.hrtime.bigint() - s) / N / 1e6 }
  console.log(n, 'same', a === b, a === c, 'matches', m.findAll(text).length, 'ours ms', t(() => m.replace(text, '[x]')).toFixed(3), 'v8', t(() => text.replace(re, '[x]')).toFixed(3), 'ac', t(() => ac.replace(text, '[x]', { strategy: 'leftmost-first' })).toFixed(3))
}
