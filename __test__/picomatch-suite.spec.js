'use strict'
// picomatch's own test suite (its repository at tag 4.0.5, 36 files, in
// fixtures/picomatch-tests/ with its licence), run with qr-native standing in for picomatch through the adapter in
// support/picomatch-suite.js, beside picomatch itself as the control. A drop-in answers every
// assertion picomatch's authors wrote as picomatch does, or refuses the glob for a reason of a
// documented class, never silently otherwise.
const { test } = require('node:test')
const assert = require('node:assert')
const { run, summary } = require('../support/picomatch-suite')

// The classes of refusal docs/matcher.md documents ("Options" and "Refused"): features of the
// regex picomatch itself writes that have no linear-time meaning, the compile budget, and an
// option that is not picomatch's (picomatch ignores it; here it is an error).
const REFUSAL_CLASSES = [
  ['\\b in picomatch\'s regex', /ERR_INVALID_PATTERN: .*\\b and \\B are not supported/],
  ['a backreference', /ERR_INVALID_PATTERN: .*a backreference \(\\\d\) has no linear-time meaning/],
  ['look-behind', /ERR_INVALID_PATTERN: .*look-behind is not supported/],
  ['the compile budget', /ERR_INVALID_PATTERN: .*(MiB budget|too large to compile)/],
  ['not an option of picomatch', /ERR_INVALID_ARG_VALUE: The "options\.\w+" property is not an option of a glob/]
]

test('the control: picomatch itself passes every assertion of its suite under this harness', (t) => {
  const r = run('picomatch')
  t.diagnostic(summary(r))
  assert.equal(r.differences.length + r.refused.length + r.errors.length + r.notApplicable.length, 0, JSON.stringify(r.differences.slice(0, 3)))
  assert.ok(r.passed > 9000, summary(r))
})

test('qr-native answers every assertion of picomatch\'s suite as picomatch does, or refuses for a documented reason', (t) => {
  const control = run('picomatch')
  const r = run('qr-native')
  t.diagnostic(summary(r))
  const classes = new Map(REFUSAL_CLASSES.map(([name]) => [name, 0]))
  const undocumented = []
  for (const x of r.refused) {
    const found = REFUSAL_CLASSES.find(([, re]) => re.test(x.error))
    if (found) classes.set(found[0], classes.get(found[0]) + 1)
    else undocumented.push(x)
  }
  t.diagnostic(`refused, by class: ${[...classes].map(([k, n]) => `${k} ${n}`).join('; ')}`)
  // What is not matching (makeRe, parse, scan, utils module, .state) is not stood in for: its
  // assertions, and those after it in the same test, are not counted.
  t.diagnostic(`not applicable: ${control.assertions - r.assertions + r.notApplicable.length} of the control's ${control.assertions}`)
  assert.deepEqual(r.differences, [], `${r.differences.length} answers differ from picomatch's`)
  assert.deepEqual(undocumented, [], 'refusals of no documented class')
  assert.deepEqual(r.errors, [])
})

test('the harness can fail: with `dot` dropped before qr-native reads it, answers differ', (t) => {
  const r = run('qr-native-without-dot')
  t.diagnostic(summary(r))
  assert.ok(r.differences.length >= 30, summary(r))
  assert.ok(r.differences.every((d) => /dot/i.test(JSON.stringify(d)) || d.at), 'each difference names where it is')
})
