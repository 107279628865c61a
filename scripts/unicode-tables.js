'use strict'
// Writes src/matcher/js_regex/unicode_tables.rs: the names and sets of ECMAScript's Unicode
// property escapes (`\p{…}`), exactly as the specification lists them, from npm's
// regenerate-unicode-properties (ECMAScript's sets, for one Unicode version) and
// unicode-property-aliases-ecmascript / unicode-property-value-aliases-ecmascript (its names
// and aliases). `node scripts/unicode-tables.js --check` fails when the file is not what this
// writes (npm run lint runs it).
const fs = require('node:fs')
const path = require('node:path')

const OUT = path.join(__dirname, '..', 'src', 'matcher', 'js_regex', 'unicode_tables.rs')
const SETS = 'regenerate-unicode-properties'

function generate () {
  const index = require(SETS)
  const version = require(`${SETS}/unicode-version.js`)
  const propertyAliases = require('unicode-property-aliases-ecmascript')
  const valueAliases = require('unicode-property-value-aliases-ecmascript')
  const binary = index.get('Binary_Property')
  const nonBinary = ['General_Category', 'Script', 'Script_Extensions']
  // Every name a property may be written as: its canonical name and its aliases.
  const names = new Map([...binary, ...nonBinary].map((n) => [n, n]))
  for (const [alias, name] of propertyAliases) {
    if (!names.has(name)) throw new Error(`${alias}: ${name} has no set`)
    names.set(alias, name)
  }
  // Every value of a non-binary property (Script_Extensions takes Script's) that has a set:
  // Katakana_Or_Hiragana (Hrkt), which no code point has, ECMAScript does not take (V8
  // refuses it).
  const values = []
  for (const property of nonBinary) {
    const aliases = valueAliases.get(property === 'Script_Extensions' ? 'Script' : property)
    const canonical = new Set(index.get(property))
    for (const v of canonical) values.push([property, v, v])
    for (const [alias, v] of aliases) if (alias !== v && canonical.has(v)) values.push([property, alias, v])
  }
  // The sets, as [start, end] ranges flat in one array: (kind/name, first, count).
  // A set equal to one already written (most Script_Extensions values are their Script's)
  // points at the same ranges.
  const ranges = []
  const sets = []
  const written = new Map()
  for (const [kind, list] of index) {
    if (kind === 'Property_of_Strings') continue
    for (const name of list) {
      const data = require(`${SETS}/${kind}/${name}.js`).characters.data
      const key = data.join(',')
      if (!written.has(key)) {
        written.set(key, ranges.length / 2)
        for (let i = 0; i < data.length; i += 2) ranges.push(data[i], data[i + 1] - 1)
      }
      sets.push([`${kind}/${name}`, written.get(key), data.length / 2])
    }
  }
  sets.sort((a, b) => (a[0] < b[0] ? -1 : 1))
  const str = (s) => JSON.stringify(s)
  const pairs = [...names].sort((a, b) => (a[0] < b[0] ? -1 : 1))
  values.sort((a, b) => (a[0] + '/' + a[1] < b[0] + '/' + b[1] ? -1 : 1))
  const lines = [
    '//! ECMAScript\'s Unicode property escapes: every name and value `\\p{…}` accepts (exactly, as',
    '//! the specification lists them: no loose matching) and the code points of each, for one Unicode',
    `//! version. Written by scripts/unicode-tables.js from ${SETS} ${require(`${SETS}/package.json`).version}; do not edit.`,
    '',
    `/// The Unicode version of these sets.`,
    `pub const VERSION: &str = ${str(version)};`,
    '',
    '/// The binary properties, and the property names `Name=Value` takes, with their aliases:',
    '/// (name as written, canonical name), sorted by the name as written.',
    `pub const NAMES: &[(&str, &str)] = &[`,
    ...pairs.map(([a, n]) => `    (${str(a)}, ${str(n)}),`),
    '];',
    '',
    '/// The binary properties (canonical names).',
    `pub const BINARY: &[&str] = &[${binary.map(str).join(', ')}];`,
    '',
    '/// (property, value as written, canonical value) of the non-binary properties, sorted by',
    '/// property and value as written.',
    `pub const VALUES: &[(&str, &str, &str)] = &[`,
    ...values.map(([p, a, v]) => `    (${str(p)}, ${str(a)}, ${str(v)}),`),
    '];',
    '',
    '/// ("Kind/Name", first range, ranges) of each set in `RANGES`, sorted by key.',
    `pub const SETS: &[(&str, u32, u32)] = &[`,
    ...sets.map(([k, first, n]) => `    (${str(k)}, ${first}, ${n}),`),
    '];',
    '',
    '/// Inclusive (start, end) code point ranges, flat.',
    `#[rustfmt::skip]`,
    `pub static RANGES: [u32; ${ranges.length}] = [`
  ]
  for (let i = 0; i < ranges.length; i += 16) lines.push('    ' + ranges.slice(i, i + 16).join(', ') + ',')
  lines.push('];', '')
  return lines.join('\n')
}

const text = generate()
if (process.argv.includes('--check')) {
  if (!fs.existsSync(OUT) || fs.readFileSync(OUT, 'utf8') !== text) {
    console.error(`unicode-tables: ${path.relative(process.cwd(), OUT)} is stale: run node scripts/unicode-tables.js`)
    process.exit(1)
  }
  console.log('unicode-tables: up to date')
} else {
  fs.writeFileSync(OUT, text)
  console.log(`unicode-tables: wrote ${path.relative(process.cwd(), OUT)}`)
}
