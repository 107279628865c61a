// ES module entry: the same native binding as `index.js`, with named exports.
import { createRequire } from 'node:module'

const binding = createRequire(import.meta.url)('./index.js')

export const {
  encode, generate, generateMany, generateSync, toDataURL, toString, decode, decodeSync, Matcher, isMatch,
  setConcurrency, concurrency, setMaxQueue, stats, unicodeVersion
} = binding
export default binding
