'use strict'
// qr-native/styling: the `qr-code-styling` package's QRCodeStyling for servers (lib/styling.js).
module.exports = require('./lib/styling.js')
