// Instantiates the binding's WebAssembly module (wasm32-wasip1, no threads,
// so no SharedArrayBuffer: it runs in a page that is not cross-origin
// isolated) through emnapi, and returns its exports: the same classes and
// functions as the native addon's. Bundled by `make node-wasm` into the
// package's loaders, which then need no other package.
import {
  emnapiAsyncWorkPlugin,
  emnapiTSFNPlugin,
  instantiateNapiModuleSync,
  WASI
} from '@napi-rs/wasm-runtime'
import { createContext } from '@emnapi/runtime'

/**
 * The binding of `wasm`, a compiled module whose bytes are `bytes`. Its raw
 * exports and memory, for the package entry's direct path (see
 * src/wasm.rs), are the non-enumerable `_wasm`.
 */
export function instantiate (wasm, bytes) {
  const context = createContext()
  // As much as the module imports at least (its 64 MiB stack and its
  // data): pages cost memory only once touched.
  const memory = new WebAssembly.Memory({ initial: minimumPages(bytes), maximum: 65536 })
  const { instance, napiModule } = instantiateNapiModuleSync(wasm, {
    context,
    asyncWorkPoolSize: 0,
    plugins: [emnapiAsyncWorkPlugin, emnapiTSFNPlugin],
    wasi: new WASI({ version: 'preview1' }),
    overwriteImports (imports) {
      imports.env = { ...imports.env, ...imports.napi, ...imports.emnapi, memory }
      imports.env.napi_get_value_string_utf8 = stringUtf8(context, memory, imports.env.napi_get_value_string_utf8)
      return imports
    },
    beforeInit ({ instance }) {
      // napi-rs registers each class and function through its own export.
      for (const name of Object.keys(instance.exports)) {
        if (name.startsWith('__napi_register__')) instance.exports[name]()
      }
    }
  })
  Object.defineProperty(napiModule.exports, '_wasm', { value: { exports: instance.exports, memory } })
  return napiModule.exports
}

const encoder = new TextEncoder()

/**
 * `napi_get_value_string_utf8` as Node has it. emnapi's own reads a lone
 * surrogate and the unit after it as one pair (`'/\uD800'` became
 * `'/\u{10000}'`, a different URL); Node, like `TextEncoder`, writes U+FFFD
 * for it. Strings are written here; anything else (the error) is emnapi's.
 */
function stringUtf8 (context, memory, emnapis) {
  return function napi_get_value_string_utf8 (env, value, buf, size, result) { // eslint-disable-line camelcase
    const text = env && value ? context.jsValueFromNapiValue(value) : undefined
    if (typeof text !== 'string') return emnapis(env, value, buf, size, result)
    buf >>>= 0
    size >>>= 0
    result >>>= 0
    let written = 0
    if (buf === 0) {
      if (result === 0) return emnapis(env, value, buf, size, result)
      written = utf8Length(text)
    } else if (size > 0) {
      // Whole characters only, and a NUL after them, as Node writes.
      written = encoder.encodeInto(text, new Uint8Array(memory.buffer, buf, size - 1)).written
      new Uint8Array(memory.buffer)[buf + written] = 0
    }
    if (result !== 0) new DataView(memory.buffer).setUint32(result, written, true)
    return 0 // napi_ok
  }
}

/** The length of `text` in UTF-8, a lone surrogate as U+FFFD (3 bytes). */
function utf8Length (text) {
  let bytes = 0
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i)
    if (unit < 0x80) bytes += 1
    else if (unit < 0x800) bytes += 2
    else if (unit >= 0xd800 && unit < 0xdc00 && i + 1 < text.length &&
      (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      bytes += 4
      i++
    } else bytes += 3
  }
  return bytes
}

/**
 * The least memory the module imports, in 64 KiB pages, read from the
 * import section of its bytes (a compiled module does not tell).
 */
function minimumPages (wasm) {
  const bytes = wasm instanceof Uint8Array ? wasm : new Uint8Array(wasm)
  let at = 8
  const leb = () => {
    let value = 0
    let shift = 0
    let byte
    do {
      byte = bytes[at++]
      value += (byte & 0x7f) * 2 ** shift
      shift += 7
    } while (byte & 0x80)
    return value
  }
  // Flags, minimum, and a maximum when flag 1 says so.
  const limits = () => {
    const flags = leb()
    const min = leb()
    if (flags & 1) leb()
    return min
  }
  const name = () => {
    const length = leb()
    at += length
    return String.fromCharCode(...bytes.subarray(at - length, at))
  }
  while (at < bytes.length) {
    const id = bytes[at++]
    const size = leb()
    const end = at + size
    if (id === 2) {
      for (let n = leb(); n > 0; n--) {
        name()
        name()
        const kind = bytes[at++]
        if (kind === 0) leb() // function: type index
        else if (kind === 1) { at++; limits() } // table: type, limits
        else if (kind === 2) return limits() // memory
        else if (kind === 3) at += 2 // global: type, mutability
        else break
      }
      break
    }
    at = end
  }
  throw new Error('the module imports no memory')
}
