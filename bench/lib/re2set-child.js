'use strict'
// re2's RE2.Set next to Matcher.test, side by side in one process of the Node re2 was built
// for (bench/matcher.js starts it): `node re2set-child.js <texts.json> <re2 folder> <ms>
// <rounds>`. The texts file holds { patterns, mixes: { name: [text, …] } }. Prints { perText:
// { mix: { case: summary } }, differ }: ns per text, and the texts where RE2.Set.test and
// Matcher.test answer differently.
const fs = require('node:fs')
const { Matcher } = require(process.env.QR_NATIVE_ROOT || '../..')
const { interleave, opsPerSecSync } = require('./measure')

async function main () {
  const [file, re2Dir, ms, rounds] = process.argv.slice(2)
  const { patterns, mixes } = JSON.parse(fs.readFileSync(file, 'utf8'))
  const RE2 = require(re2Dir)
  const set = new RE2.Set(patterns)
  const m = new Matcher(patterns)
  const nsPerText = (list, fn) => () => {
    let i = 0
    return 1e9 / opsPerSecSync(() => fn(list[i++ % list.length]), Number(ms))
  }
  const perText = {}
  for (const [mix, list] of Object.entries(mixes)) {
    perText[mix] = await interleave([
      { name: 'Matcher.test', run: nsPerText(list, (s) => m.test(s)) },
      { name: 're2 RE2.Set.test', run: nsPerText(list, (s) => set.test(s)) }
    ], Number(rounds))
  }
  const differ = Object.values(mixes).flat().filter((s) => set.test(s) !== m.test(s)).length
  process.stdout.write(JSON.stringify({ perText, differ, re2: require(`${re2Dir}/package.json`).version, node: process.version }))
}

main()
