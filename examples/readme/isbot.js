const express = require('express')
const { Matcher } = require('qr-native')
const { isbot, list } = require('isbot')

// isbot's own patterns, as they are (look-around included), read as isbot reads them: /i.
const bots = new Matcher(list, { caseInsensitive: true })
const app = express()
app.use((req, res, next) => {
  const ua = req.get('user-agent') ?? ''
  req.isBot = ua !== '' && bots.test(ua)   // isbot() says false for an empty agent
  next()
})
app.get('/', (req, res) => res.json({ bot: req.isBot, isbot: isbot(req.get('user-agent')) }))

module.exports = app
