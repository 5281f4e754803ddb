'use strict'

// The error thrown when no binding loads. The generated ../index.js
// blames an npm bug whatever went wrong; this says what this machine is,
// which package holds its prebuilt binary, if any, why the WebAssembly
// build did not stand in, whether a binary for another machine is what
// got installed, and how to build one.

const PACKAGE = 'robotstxt-engine'
const WASM = `${PACKAGE}-wasm32-wasi`

/**
 * The targets published as ${PACKAGE}-<target>: the optional dependencies
 * the published package names, or in a clone the Rust targets napi builds
 * for (package.json's napi.targets), in napi-rs's names.
 */
function prebuilt () {
  const manifest = require('../package.json')
  const optional = Object.keys(manifest.optionalDependencies ?? {})
    .filter((name) => name.startsWith(`${PACKAGE}-`) && name !== WASM)
  if (optional.length > 0) return optional.map((name) => name.slice(PACKAGE.length + 1))
  const ARCH = { x86_64: 'x64', aarch64: 'arm64', i686: 'ia32', armv7: 'arm' }
  return (manifest.napi?.targets ?? []).map((triple) => {
    const [arch, , os, abi] = triple.split('-')
    const platform = os === 'darwin' ? 'darwin' : os === 'windows' ? 'win32' : os
    return [platform, ARCH[arch] ?? arch, abi].filter(Boolean).join('-')
  })
}
// The targets napi-rs names, for telling a binary for another machine.
const TARGETS = [
  'linux-x64-gnu', 'linux-x64-musl', 'linux-arm64-gnu', 'linux-arm64-musl', 'linux-arm-gnueabihf',
  'darwin-x64', 'darwin-arm64', 'darwin-universal', 'win32-x64-msvc', 'win32-x64-gnu', 'win32-arm64-msvc',
  'win32-ia32-msvc', 'freebsd-x64', 'android-arm64'
]
const REPOSITORY = 'https://github.com/robotstxt-engine/robotstxt'

function libc () {
  if (process.platform !== 'linux') return null
  try {
    // Node's own report names the glibc it runs on; musl has none.
    process.report.excludeNetwork = true
    return process.report.getReport().header.glibcVersionRuntime ? 'glibc' : 'musl'
  } catch {
    return 'unknown libc'
  }
}

/** napi-rs's name for this machine, e.g. linux-x64-gnu. */
function target (platform, arch, c) {
  if (c === null) return platform === 'win32' ? `${platform}-${arch}-msvc` : `${platform}-${arch}`
  return `${platform}-${arch}-${c === 'glibc' ? 'gnu' : c === 'musl' ? 'musl' : 'unknown'}`
}

function installed (name) {
  try {
    require.resolve(`${name}/package.json`)
    return true
  } catch {
    return false
  }
}

/** Every message of `error` and its causes, for telling what failed. */
function messages (error) {
  const seen = []
  for (let e = error; e != null && seen.length < 20; e = e.cause) seen.push(String(e.message ?? e))
  return seen.join('\n')
}

/** Why the WebAssembly build did not stand in. */
function wasmWhy (cause) {
  if (typeof WebAssembly !== 'object') {
    return `This runtime has no WebAssembly (started with --jitless?), so ${WASM}, the WebAssembly build, cannot stand in.`
  }
  if (installed(WASM)) return `${WASM}, the WebAssembly build, is installed but did not load either (see error.cause).`
  return `Nor is ${WASM}, the WebAssembly build that runs anywhere, installed ` +
    `(npm install ${WASM} --cpu=wasm32: its cpu is wasm32, so npm installs it only when asked).`
}

/**
 * The Error for `cause`, what the generated loader threw; `wanted` is the
 * build ROBOTSTXT_BACKEND asked for, if any.
 */
module.exports = function missingBinary (cause, wanted) {
  const { platform, arch } = process
  const c = libc()
  const here = target(platform, arch, c)
  const machine = `platform ${platform}, arch ${arch}${c === null ? '' : `, libc ${c}`}`
  const pkg = `${PACKAGE}-${here}`
  const PREBUILT = prebuilt()
  const why = []
  if (wanted === 'wasm') {
    why.push(`ROBOTSTXT_BACKEND=wasm asks for the WebAssembly build (${machine}).`, wasmWhy(cause))
  } else {
    if (wanted === 'native') why.push('ROBOTSTXT_BACKEND=native asks for the native addon alone.')
    if (!PREBUILT.includes(here)) {
      why.push(`no prebuilt binary exists for ${here} (${machine}); prebuilt: ${PREBUILT.join(', ')}.`)
    } else if (installed(pkg)) {
      why.push(`${pkg}, the prebuilt binary for ${here} (${machine}), is installed but did not load (see error.cause).`)
    } else {
      why.push(`${pkg}, the prebuilt binary for ${here} (${machine}), is not installed. ` +
        'npm installs it as an optional dependency: reinstall without --omit=optional or --no-optional.')
    }
    // node_modules copied from another machine, or a binary of the wrong
    // libc or architecture put in place by hand.
    const others = TARGETS.filter((t) => t !== here && installed(`${PACKAGE}-${t}`))
    if (others.length > 0) {
      why.push(`Installed instead: ${others.map((t) => `${PACKAGE}-${t}`).join(', ')}, for another machine ` +
        `(node_modules copied from elsewhere?): run npm install on this machine.`)
    }
    const text = messages(cause)
    if (/invalid ELF header|wrong ELF class|file too short|ELF file|not a valid Win32|mach-o|incompatible architecture|GLIBC_\d|ld-linux|ld-musl|libc\.musl|Error relocating|symbol not found/i.test(text)) {
      why.push(`The binary found is for another platform, architecture or libc than ${here} (see error.cause).`)
    }
    if (wanted === undefined) why.push(wasmWhy(cause))
  }
  const error = new Error(`${PACKAGE}: no ${wanted === 'wasm' ? 'WebAssembly build' : 'native addon'} loaded: ${why.join(' ')} ` +
    'Or build from source, which needs a Rust toolchain (https://rustup.rs) and Node.js 20.17 or later: ' +
    `git clone ${REPOSITORY}, then \`make node-build\` at its root ` +
    '(or `npm ci && npm run build` in bindings/node), ' +
    'then `npm install /path/to/robotstxt/bindings/node` in your project.')
  error.code = 'ERR_ROBOTSTXT_NO_BINARY'
  error.cause = cause
  return error
}
