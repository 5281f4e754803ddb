'use strict'

// The package entry: every export of the generated binding (../index.js,
// written by `napi build`, never by hand) plus the promise-based layer of
// ./polite.js, whose Pacer (the native one with `wait` and a clock) takes
// the place of the native Pacer, and `backend`. `require('robotstxt-engine')`
// and `import ... from 'robotstxt-engine'` both load this file in Node.js;
// browsers, bundlers and Deno get ./browser.mjs. ./wrap.js gives the
// binding's classes what this entry adds to them.
//
// The binding is the native addon, or the WebAssembly build
// (robotstxt-engine-wasm32-wasi) where no native addon loads: the
// generated loader falls back to it. ROBOTSTXT_BACKEND=wasm asks for the
// WebAssembly build, ROBOTSTXT_BACKEND=native for the native addon alone.

const BACKENDS = ['native', 'wasm']

/** The binding, loaded as ROBOTSTXT_BACKEND asks. */
function load () {
  const wanted = process.env.ROBOTSTXT_BACKEND || undefined
  if (wanted !== undefined && !BACKENDS.includes(wanted)) {
    const error = new RangeError(`ROBOTSTXT_BACKEND must be ${BACKENDS.join(' or ')}, not ${JSON.stringify(wanted)}`)
    error.code = 'ERR_ROBOTSTXT_INVALID_OPTION'
    throw error
  }
  // The generated loader's own switch, for this one require(): 'error'
  // loads the WebAssembly build or fails; unset, it tries native first.
  const saved = process.env.NAPI_RS_FORCE_WASI
  if (wanted === 'wasm') process.env.NAPI_RS_FORCE_WASI = 'error'
  if (wanted === 'native') delete process.env.NAPI_RS_FORCE_WASI
  let binding
  try {
    binding = require('../index.js')
  } catch (error) {
    // napi-rs's message blames npm; ours names the machine and the way out.
    throw require('./missing-binary.js')(error, wanted)
  } finally {
    if (saved === undefined) delete process.env.NAPI_RS_FORCE_WASI
    else process.env.NAPI_RS_FORCE_WASI = saved
  }
  const loaded = backendOf(binding)
  if (wanted !== undefined && loaded !== wanted) {
    throw require('./missing-binary.js')(new Error(`the ${loaded} binding loaded instead`), wanted)
  }
  return binding
}

/** Which build `binding` is: the generated loader marks what it loaded. */
function backendOf (binding) {
  return /^wasm/.test(binding.__napiBindingTarget ?? '') || binding._wasm !== undefined ? 'wasm' : 'native'
}

const binding = load()
require('./wrap.js')(binding)

/** Which build answers: `'native'` (the addon) or `'wasm'` (WebAssembly). */
const backend = backendOf(binding)

// `...require(...)` spelled out: Node's CommonJS named-export detection
// reads only that form (../index.js is the binding loaded above).
module.exports = {
  ...require('../index.js'),
  ...require('./polite.js'),
  ...require('./fleet.js'),
  backend
}
// The binding's own helpers (`_`) stay here: a handle passed in from
// outside could outlive its Rules and name others.
for (const name of Object.keys(module.exports)) if (/^_[^_]/.test(name)) delete module.exports[name]
