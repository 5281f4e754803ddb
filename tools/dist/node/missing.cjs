'use strict'

// missing.cjs [ARCH]: require('robotstxt-engine') must throw, naming this
// machine and how to build from source. test-node.sh runs it once the
// platform package is gone, and with ARCH, an architecture Node is made to
// report, for one that has no prebuilt binary at all.

const arch = process.argv[2]
if (arch) Object.defineProperty(process, 'arch', { value: arch })

let error
try {
  require('robotstxt-engine')
} catch (err) {
  error = err
}
if (!error) {
  console.error('missing: require(\'robotstxt-engine\') loaded; it should have thrown')
  process.exit(1)
}
console.log(`  ${error.message}`)

const libc = process.report.getReport().header.glibcVersionRuntime ? 'glibc' : 'musl'
const want = [
  `platform ${process.platform}`, `arch ${process.arch}`, `libc ${libc}`,
  arch ? 'no prebuilt binary exists' : 'robotstxt-engine-linux-x64-gnu',
  'build from source', 'Rust toolchain', 'git clone', 'make node-build', 'npm run build'
]
const absent = want.filter((text) => !error.message.includes(text))
if (absent.length > 0 || error.code !== 'ERR_ROBOTSTXT_NO_BINARY' || !error.cause ||
    /npm has a bug/.test(error.message)) {
  console.error(`missing: wrong error (code ${error.code}); its message lacks: ${absent.join(', ') || 'nothing'}`)
  process.exit(1)
}
console.log(`missing${arch ? ` (arch ${arch})` : ''}: the error names the machine and says how to build from source`)
