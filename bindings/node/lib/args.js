'use strict'

// Arguments and errors of the package's JavaScript layers (polite.js,
// fleet.js), worded as the native binding words them.

const ERR_INVALID_ARG_TYPE = 'ERR_INVALID_ARG_TYPE'
const ERR_HOST_DISABLED = 'ERR_ROBOTSTXT_HOST_DISABLED'
const ERR_CLOSED = 'ERR_ROBOTSTXT_CLOSED'

function describe (value) {
  if (value === undefined) return 'undefined'
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'an array'
  const type = typeof value
  return type === 'object' ? 'an object' : `a ${type}`
}

function withCode (error, code) {
  error.code = code
  return error
}

function wrongType (what, expected, value) {
  return withCode(new TypeError(`${what} must be ${expected}, not ${describe(value)}`), ERR_INVALID_ARG_TYPE)
}

function isObject (value) {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
}

/** `options` as an object (`undefined`/`null` read as `{}`), or a TypeError. */
function optionsOf (options, what) {
  if (options === undefined || options === null) return {}
  if (!isObject(options)) throw wrongType(what, 'an object', options)
  return options
}

/** The AbortSignal of `options.signal`, or undefined. */
function signalOf (options) {
  const { signal } = optionsOf(options, 'options')
  if (signal === undefined || signal === null) return undefined
  if (!isObject(signal) || typeof signal.aborted !== 'boolean' || typeof signal.addEventListener !== 'function') {
    throw wrongType('options.signal', 'an AbortSignal', signal)
  }
  return signal
}

function textOf (value) {
  return typeof value === 'string'
    ? value
    : Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('utf8')
}

function closedError (className) {
  return withCode(new Error(`${className} used after close()`), ERR_CLOSED)
}

/** `promise`, or `signal.reason` as soon as `signal` aborts. */
function abortable (promise, signal) {
  if (signal === undefined) return promise
  if (signal.aborted) return Promise.reject(signal.reason)
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(signal.reason)
    signal.addEventListener('abort', onAbort, { once: true })
    promise.then((value) => {
      signal.removeEventListener('abort', onAbort)
      resolve(value)
    }, (error) => {
      signal.removeEventListener('abort', onAbort)
      reject(error)
    })
  })
}

function hostDisabled (host) {
  const error = withCode(new Error(
    `host ${JSON.stringify(textOf(host))} is switched off: pacer.setEnabled(host, true) switches it back on`),
  ERR_HOST_DISABLED)
  error.host = textOf(host)
  return error
}

module.exports = {
  describe, withCode, wrongType, isObject, optionsOf, signalOf, textOf, closedError, abortable, hostDisabled
}
