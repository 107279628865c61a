const express = require('express')
const { Matcher } = require('qr-native')

// Paths a static file server must never serve, as globs mean them in picomatch: `**/.env`
// at any depth, every `.git` folder, source maps, keys, and anything outside the public
// folders. With `dot`, `**` and `*` also cross names that start with a dot.
const denied = new Matcher([
  '**/.env', '**/.git/**', '**/*.map', '**/*.{pem,key}', '!(public|assets)/**'
], { kind: 'glob', dot: true })
const app = express()
app.use((req, res, next) => {
  const path = decodeURIComponent(req.path).replace(/^\/+/, '')
  if (denied.test(path)) return res.status(404).json({ denied: denied.first(path) })
  next()
})
app.get('/{*rest}', (req, res) => res.json({ served: req.path }))

module.exports = app
