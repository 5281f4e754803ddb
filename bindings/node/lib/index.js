'use strict'

// The package entry: every export of the generated binding (../index.js,
// written by `napi build`, never by hand) plus the promise-based layer of
// ./polite.js, whose Pacer (the native one with `wait` and a clock) takes
// the place of the native Pacer. `require('robotstxt')` and
// `import ... from 'robotstxt'` both load this file; the spread reexports
// below are what Node's CommonJS named-export detection reads.

const binding = require('../index.js')

// filterAllowed, batched: an array of strings crosses into native code as
// one joined string (one N-API string copy instead of one per URL, plus
// one array read and write each), and the answers come back as one
// string of "0"/"1". Anything else — Buffers, wrong types, a URL with a line
// break — takes the native one-at-a-time path, with its errors.
const filterOneByOne = binding.Rules.prototype.filterAllowed
// Every element a string (a hole is not: `every` would skip it).
function allStrings (urls) {
  for (let i = 0; i < urls.length; i++) if (typeof urls[i] !== 'string') return false
  return true
}
Object.defineProperty(binding.Rules.prototype, 'filterAllowed', {
  value: function filterAllowed (urls) {
    if (Array.isArray(urls) && urls.length > 1 && allStrings(urls)) {
      const flags = this.allowedFlags(urls.join('\n'), urls.length)
      if (flags !== null) return urls.filter((_, i) => flags.charCodeAt(i) === 49) // '1'
    }
    return filterOneByOne.call(this, urls)
  },
  writable: true,
  configurable: true
})

// `...require(...)` spelled out (not `...binding`): Node's CommonJS
// named-export detection reads only that form.
module.exports = {
  ...require('../index.js'),
  ...require('./polite.js')
}
