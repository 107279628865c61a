const B = require('./binding.js')
const m = new B.Matcher(['bot'], { kind: 'contains' })
const s = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)'
const b = Buffer.from(s)
function run(name, f) { let x = 0; const N = 3e6; for (let i = 0; i < 2e5; i++) x += f(); const t = process.hrtime.bigint(); for (let i = 0; i < N; i++) x += f(); console.log(name, (Number(process.hrtime.bigint() - t) / N).toFixed(1)) }
for (let k = 0; k < 3; k++) { run('size', () => m.size); run('test str', () => m.test(s)); run('test buf', () => m.test(b)); run('test short', () => m.test('a')) }
