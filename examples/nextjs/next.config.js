// qr-native loads a native binary, which Next cannot bundle, and is not on Next's built-in
// list of packages it leaves to Node: say so here.
module.exports = { serverExternalPackages: ['qr-native'] }
