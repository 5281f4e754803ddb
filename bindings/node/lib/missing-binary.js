'use strict'

// The error thrown when no native addon loads. The generated ../index.js
// blames an npm bug whatever went wrong; this says what this machine is,
// which package holds its prebuilt binary, if any, and how to build one.

const PACKAGE = 'robotstxt-engine'
// The targets published as ${PACKAGE}-<target> (bindings/node/npm/).
const PREBUILT = ['linux-x64-gnu']
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
  if (c === null) return `${platform}-${arch}`
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

/** The Error for `cause`, what the generated loader threw. */
module.exports = function missingBinary (cause) {
  const { platform, arch } = process
  const c = libc()
  const here = target(platform, arch, c)
  const machine = `platform ${platform}, arch ${arch}${c === null ? '' : `, libc ${c}`}`
  const pkg = `${PACKAGE}-${here}`
  let why
  if (!PREBUILT.includes(here)) {
    why = `no prebuilt binary exists for ${here} (${machine}); prebuilt: ${PREBUILT.join(', ')}.`
  } else if (installed(pkg)) {
    why = `${pkg}, the prebuilt binary for ${here} (${machine}), is installed but did not load (see error.cause).`
  } else {
    why = `${pkg}, the prebuilt binary for ${here} (${machine}), is not installed. ` +
      'npm installs it as an optional dependency: reinstall without --omit=optional or --no-optional.'
  }
  const error = new Error(`${PACKAGE}: no native addon loaded: ${why} ` +
    'Or build from source, which needs a Rust toolchain (https://rustup.rs) and Node.js 20.17 or later: ' +
    `git clone ${REPOSITORY}, then \`make node-build\` at its root ` +
    '(or `npm ci && npm run build` in bindings/node), ' +
    'then `npm install /path/to/robotstxt/bindings/node` in your project.')
  error.code = 'ERR_ROBOTSTXT_NO_BINARY'
  error.cause = cause
  return error
}
