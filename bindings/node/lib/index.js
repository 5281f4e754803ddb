'use strict'

// The package entry: every export of the generated binding (../index.js,
// written by `napi build`, never by hand) plus the promise-based layer of
// ./polite.js, whose Pacer (the native one with `wait` and a clock) takes
// the place of the native Pacer. `require('robotstxt')` and
// `import ... from 'robotstxt'` both load this file.
//
// It also routes Rules' hot calls through module functions on a handle:
// a method call on a native object costs an unwrap and a type-tag check,
// most of a single check's time from JavaScript; a module function given
// the rules' handle (a number naming a slot of a native table) does not.

const binding = require('../index.js')

// The native getter, called on `rules` itself: it throws, as a native
// method does, when `rules` is not a Rules (a plain read of `_handle`
// would give undefined instead).
const handleGetter = Object.getOwnPropertyDescriptor(binding.Rules.prototype, '_handle').get
// Each Rules keeps its handle in a private field, put on the Rules itself
// by a constructor that returns it (a base class constructor that returns
// an object makes a subclass add its fields to that object). Reading it
// is a field read, where a WeakMap lookup on rules not used lately cost a
// cache miss or two per call; no reflection sees it, no other object
// inherits or forges it, and a frozen Rules takes it too. A handle is
// null only when the thread's table is full: the methods then stay native.
class Itself {
  constructor (object) {
    return object
  }
}
class HandleField extends Itself {
  #handle
  constructor (rules, handle) {
    super(rules)
    this.#handle = handle
  }

  static of (rules) {
    // Not an object: the getter throws as a native method does.
    if (typeof rules !== 'object' || rules === null) return handleGetter.call(rules)
    if (#handle in rules) return rules.#handle
    const handle = handleGetter.call(rules)
    try {
      new HandleField(rules, handle) // eslint-disable-line no-new
    } catch {
      // An engine that refuses fields on a non-extensible object: this
      // Rules asks the getter each time.
    }
    return handle
  }
}
const handleOf = HandleField.of

function define (name, value) {
  Object.defineProperty(binding.Rules.prototype, name, { value, writable: true, configurable: true })
}

const isAllowedNative = binding.Rules.prototype.isAllowed
define('isAllowed', function isAllowed (url) {
  const handle = handleOf(this)
  return handle === null ? isAllowedNative.call(this, url) : binding._rulesIsAllowed(handle, url)
})

// filterAllowed, batched: an array of strings crosses into native code as
// one joined string (one N-API string copy instead of one per URL, plus
// one array read and write each), and the answers come back as one string
// of "0"/"1". Anything else — Buffers, wrong types, holes, a URL with a
// line break — takes the native one-at-a-time path, with its errors.
const filterOneByOne = binding.Rules.prototype.filterAllowed
function allStrings (urls) {
  for (let i = 0; i < urls.length; i++) if (typeof urls[i] !== 'string') return false
  return true
}
define('filterAllowed', function filterAllowed (urls) {
  if (Array.isArray(urls) && urls.length > 1 && allStrings(urls)) {
    const handle = handleOf(this)
    const flags = handle === null ? null : binding._rulesAllowedFlags(handle, urls.join('\n'), urls.length)
    if (flags !== null) return urls.filter((_, i) => flags.charCodeAt(i) === 49) // '1'
  }
  return filterOneByOne.call(this, urls)
})

// `...require(...)` spelled out: Node's CommonJS named-export detection
// reads only that form.
module.exports = {
  ...require('../index.js'),
  ...require('./polite.js')
}
