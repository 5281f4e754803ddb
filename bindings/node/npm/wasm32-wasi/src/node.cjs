'use strict'

// The Node.js loader: the module beside this file, compiled and
// instantiated at require() time, as a native addon loads.
const { readFileSync } = require('node:fs')
const { join } = require('node:path')
const { instantiate } = require('./binding.mjs')

const bytes = readFileSync(join(__dirname, 'robotstxt.wasm32-wasip1.wasm'))
module.exports = instantiate(new WebAssembly.Module(bytes), bytes)
