'use strict'

// The package entry: every export of the generated binding (../index.js,
// written by `napi build`, never by hand) plus the promise-based layer of
// ./polite.js, whose Pacer (the native one with `wait` and a clock) takes
// the place of the native Pacer. `require('robotstxt')` and
// `import ... from 'robotstxt'` both load this file; the spread reexports
// below are what Node's CommonJS named-export detection reads.

module.exports = {
  ...require('../index.js'),
  ...require('./polite.js')
}
