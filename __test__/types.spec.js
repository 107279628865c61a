'use strict'
// The types tell the truth: tsc --strict on a consumer that uses the API rightly and, under
// `@ts-expect-error`, wrongly (each misuse must be an error); index.d.ts exports exactly the
// names index.js exports; and an app written against `@types/qrcode` compiles against
// `qr-native/compat` with only its import changed.
const { test } = require('node:test')
const assert = require('node:assert/strict')
const fs = require('node:fs')
const path = require('node:path')
const ts = require('typescript')

const ROOT = path.join(__dirname, '..')
const OPTIONS = {
  strict: true, noEmit: true, target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext, types: ['node'], typeRoots: [path.join(ROOT, 'node_modules', '@types')], skipLibCheck: false
}

/** tsc's diagnostics for `files`, one line each. */
function compile (files, options = OPTIONS) {
  const program = ts.createProgram(files, options)
  return ts.getPreEmitDiagnostics(program).map((d) => {
    const where = d.file ? `${path.basename(d.file.fileName)}:${d.file.getLineAndCharacterOfPosition(d.start).line + 1}: ` : ''
    return where + ts.flattenDiagnosticMessageText(d.messageText, ' ')
  })
}

test('the consumer compiles under --strict, and every misuse in it is an error', () => {
  assert.deepEqual(compile([path.join(__dirname, 'types', 'consumer.ts')]), [])
})

test('index.d.ts exports the values index.js exports, no more, no fewer', () => {
  const program = ts.createProgram([path.join(ROOT, 'index.d.ts')], OPTIONS)
  const checker = program.getTypeChecker()
  const symbol = checker.getSymbolAtLocation(program.getSourceFile(path.join(ROOT, 'index.d.ts')))
  const values = checker.getExportsOfModule(symbol)
    // A re-export is an alias of the binding's declaration; `unicodeVersion` is declared here.
    .filter((s) => ((s.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(s) : s).flags & ts.SymbolFlags.Value) !== 0)
    .map((s) => s.name).sort()
  assert.deepEqual(values, Object.keys(require('..')).sort())
})

test('an app written against @types/qrcode compiles against qr-native/compat, unchanged but for the import', () => {
  const source = fs.readFileSync(path.join(__dirname, 'types', 'qrcode-app.ts'), 'utf8')
  assert.deepEqual(compile([path.join(__dirname, 'types', 'qrcode-app.ts')]), [], 'as written, against @types/qrcode')
  // Beside the repository's package.json, so `qr-native/compat` resolves to this package.
  const swapped = path.join(__dirname, 'types', `.qrcode-app-swapped-${process.pid}.ts`)
  const changed = source.replace(/from 'qrcode'/g, "from 'qr-native/compat'")
  assert.notEqual(changed, source)
  fs.writeFileSync(swapped, changed)
  try {
    assert.deepEqual(compile([swapped]), [], 'with the import changed to qr-native/compat')
  } finally {
    fs.rmSync(swapped, { force: true })
  }
})
