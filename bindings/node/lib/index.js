'use strict'

// The package entry: every export of the generated binding (../index.js,
// written by `napi build`, never by hand) plus the promise-based layer of
// ./polite.js, whose Pacer (the native one with `wait` and a clock) takes
// the place of the native Pacer. `require('robotstxt-engine')` and
// `import ... from 'robotstxt-engine'` both load this file.
//
// It also gives every native class `[Symbol.dispose]` (its `close()`, for
// `using`), turns a method called on a wrong `this` into a TypeError, and
// routes Rules' hot calls through module functions on a handle: a method
// call on a native object costs an unwrap and a type-tag check, most of a
// single check's time from JavaScript; a module function given the rules'
// handle (a number naming a slot of a native table) does not.

let binding
try {
  binding = require('../index.js')
} catch (error) {
  // napi-rs's message blames npm; ours names the machine and the way out.
  throw require('./missing-binary.js')(error)
}

// The native getter, called on `rules` itself: it throws, as a native
// method does, when `rules` is not a Rules (a plain read of `_handle`
// would give undefined instead).
const handleGetter = Object.getOwnPropertyDescriptor(binding.Rules.prototype, '_handle').get

const CLASSES = ['Robots', 'Rules', 'Cache', 'Lease', 'CachedAnswer', 'Pacer', 'Ticket', 'Entry']

function describe (value) {
  if (value === undefined) return 'undefined'
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'an array'
  const type = typeof value
  let name
  try {
    // A class instance by its class's name; reading may throw (a Proxy).
    if (type === 'object' && value.constructor !== Object) name = value.constructor?.name
  } catch {}
  if (typeof name !== 'string' || name === '') return type === 'object' ? 'an object' : `a ${type}`
  return /^[AEIOU]/.test(name) ? `an ${name}` : `a ${name}`
}

// What napi-rs throws (a plain Error, code 'InvalidArg') when a method's
// `this` is not an object of its class, or V8 when the receiver fails the
// method's signature: turned into the TypeError Node throws for a wrong
// `this`, naming the method. Only these exact errors: any other passes.
function isWrongThis (error, className) {
  if (error instanceof TypeError) return error.message === 'Illegal invocation'
  return error instanceof Error && error.code === 'InvalidArg' &&
    (error.message === `Failed to unwrap exclusive reference of \`${className}\` type from napi value` ||
      error.message === `Value is not an instance of class \`${className}\``)
}

/** The error for `member` of `className` called on `self`, not a live one. */
function thisError (className, member, self) {
  // Closed by `close()` below: a `className` object no longer wrapped.
  if (binding._isDetached(className, self)) {
    const error = new Error(`${className} used after close()`)
    error.code = 'ERR_ROBOTSTXT_CLOSED'
    return error
  }
  const error = new TypeError(`${className}.prototype.${member} must be called on a ${className}, not ${describe(self)}`)
  error.code = 'ERR_INVALID_THIS'
  return error
}

/** `native` (a method or getter of `className`), with a wrong `this` a TypeError. */
function guarded (className, member, native, label = member) {
  return {
    [label] (...args) {
      try {
        return Reflect.apply(native, this, args)
      } catch (error) {
        throw isWrongThis(error, className) ? thisError(className, member, this) : error
      }
    }
  }[label]
}

/** What napi-rs throws for a `&mut self` call on an object a native call is using. */
function isBusy (error) {
  return error instanceof Error && error.code === 'InvalidArg' &&
    error.message === 'The same native value cannot be borrowed mutably while another borrow is active'
}

/**
 * `close()`: the native `close` empties the object; then nothing uses it,
 * and it is unwrapped and freed at once, so that no finalizer waits for the
 * event loop to turn (Node runs them only then: a loop that never yields
 * would keep some 400 bytes per object until it does). Every later call
 * throws `ERR_ROBOTSTXT_CLOSED`.
 */
function closer (className, empty) {
  return {
    close () {
      if (binding._isDetached(className, this)) return // closing twice does nothing
      if (className === 'Rules') HandleField.forget(this) // before its slot goes back
      try {
        empty.call(this) // a wrong `this` throws here
      } catch (error) {
        if (!isBusy(error)) throw error
        // Closed by JavaScript that one of its own native calls runs (an
        // option getter): closed once that call has returned.
        queueMicrotask(() => this.close())
        return
      }
      binding._detach(className, this)
    }
  }.close
}

for (const className of CLASSES) {
  const proto = binding[className].prototype
  for (const member of Object.getOwnPropertyNames(proto)) {
    if (member === 'constructor') continue
    const d = Object.getOwnPropertyDescriptor(proto, member)
    if (typeof d.value === 'function') {
      Object.defineProperty(proto, member, { ...d, value: guarded(className, member, d.value) })
    } else if (typeof d.get === 'function') {
      Object.defineProperty(proto, member, { ...d, get: guarded(className, member, d.get, `get ${member}`) })
    }
  }
  const close = closer(className, proto.close)
  Object.defineProperty(proto, 'close', { value: close, writable: true, configurable: true })
  // `using x = ...` closes it at the end of the block.
  Object.defineProperty(proto, Symbol.dispose, { value: close, writable: true, configurable: true })
}

// Each Rules keeps its handle in a private field, put on the Rules itself
// by a constructor that returns it (a base class constructor that returns
// an object makes a subclass add its fields to that object). Reading it
// is a field read, where a WeakMap lookup on rules not used lately cost a
// cache miss or two per call; no reflection sees it, no other object
// inherits or forges it, and a frozen Rules takes it too. A handle is
// null when the thread's table is full, or once the rules are closed: the
// methods then stay native (and throw the closed error).
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

  /** The handle of `rules`, for its method `member`. */
  static of (rules, member) {
    if (typeof rules === 'object' && rules !== null && #handle in rules) return rules.#handle
    // Not a Rules: the getter throws, as a native method does. Closed
    // rules have a handle that names no rules (the module functions then
    // throw the closed error), or none (the methods do).
    let handle
    try {
      handle = handleGetter.call(rules)
    } catch (error) {
      throw isWrongThis(error, 'Rules') ? thisError('Rules', member, rules) : error
    }
    try {
      new HandleField(rules, handle) // eslint-disable-line no-new
    } catch {
      // An engine that refuses fields on a non-extensible object: this
      // Rules asks the getter each time.
    }
    return handle
  }

  /** Forgets the handle of `rules`: it is being closed. */
  static forget (rules) {
    if (typeof rules === 'object' && rules !== null && #handle in rules) rules.#handle = null
  }
}
const handleOf = HandleField.of

function define (name, value) {
  Object.defineProperty(binding.Rules.prototype, name, { value, writable: true, configurable: true })
}

const isAllowedNative = binding.Rules.prototype.isAllowed
define('isAllowed', function isAllowed (url) {
  const handle = handleOf(this, 'isAllowed')
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
    const handle = handleOf(this, 'filterAllowed')
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
