'use strict'
// Runs __test__/memcheck/buffers.js under valgrind's memcheck and counts the errors that have
// a frame in our addon. V8 and Node are run with --jitless, which keeps their own reports
// near zero; any they still make are counted apart and do not fail the run.
// Usage: node scripts/memcheck.js   (QR_NATIVE_ROOT=<dir> to check another build)
const { spawnSync } = require('node:child_process')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')

const log = path.join(os.tmpdir(), `qr-native-memcheck-${process.pid}.log`)
const r = spawnSync('valgrind', [
  '--tool=memcheck', '--error-limit=no', '--num-callers=40', `--log-file=${log}`,
  process.execPath, '--jitless', '--expose-gc', path.join(__dirname, '..', '__test__', 'memcheck', 'buffers.js')
], { stdio: ['ignore', 'inherit', 'inherit'], env: process.env })
if (r.error) {
  console.error(`memcheck: could not run valgrind (${r.error.message}); install it: apt-get install valgrind`)
  process.exit(2)
}
const text = fs.readFileSync(log, 'utf8')
// One error: a block that starts with a message line and ends at the next blank line.
const errors = text.split(/\n==\d+== \n/).filter((block) => /==\d+== (Invalid|Conditional|Use of uninit|Syscall param|Mismatched|Source and destination)/.test(block))
const ours = errors.filter((block) => /qr[-_]native/.test(block))
for (const block of ours.slice(0, 5)) console.error(block)
console.log(`memcheck: ${ours.length} errors in qr_native frames, ${errors.length - ours.length} elsewhere (V8, Node); workload exit ${r.status ?? r.signal}`)
fs.rmSync(log, { force: true })
process.exit(ours.length === 0 && r.status === 0 ? 0 : 1)
