// The loader for browsers, Web Workers and Deno: the module beside this file,
// fetched and compiled off the main thread's critical path (top-level
// await), then instantiated. Bundlers copy the .wasm next to their output
// when they resolve `new URL(..., import.meta.url)`.
import { instantiate } from './binding.mjs'

const url = new URL('./robotstxt.wasm32-wasip1.wasm', import.meta.url)
const response = await fetch(url)
if (!response.ok) throw new Error(`robotstxt-engine-wasm32-wasi: fetching ${url} failed: HTTP ${response.status}`)
const bytes = new Uint8Array(await response.arrayBuffer())

export default instantiate(await WebAssembly.compile(bytes), bytes)
