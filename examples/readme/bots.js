const express = require('express')
const { Matcher } = require('qr-native')

const bots = new Matcher(require('crawler-user-agents').map((c) => c.pattern))   // compile once
const app = express()
app.use((req, res, next) => {
  req.isBot = bots.test(req.get('user-agent') ?? '')   // a request may have no User-Agent
  next()
})
app.get('/', (req, res) => res.json({ bot: req.isBot }))

module.exports = app
