'use strict'

// missing-cross.cjs PLATFORM: with robotstxt-engine-PLATFORM removed,
// require('robotstxt-engine') must throw ERR_ROBOTSTXT_NO_BINARY, naming
// this machine as the platform's own Node reports it and saying how to
// build from source. test-node-cross.sh runs it with that Node.

const platform = process.argv[2]
let error
try {
  require('robotstxt-engine')
} catch (err) {
  error = err
}
if (!error) {
  console.error(`missing-cross: ${platform}: require('robotstxt-engine') loaded; it should have thrown`)
  process.exit(1)
}
const want = [`platform ${process.platform}`, `arch ${process.arch}`, platform, 'build from source']
const absent = want.filter((text) => !error.message.includes(text))
if (absent.length > 0 || error.code !== 'ERR_ROBOTSTXT_NO_BINARY' || !error.cause) {
  console.error(`missing-cross: ${platform}: wrong error (code ${error.code}): ${error.message}\n` +
    `  it lacks: ${absent.join(', ') || 'nothing'}`)
  process.exit(1)
}
console.log(`missing-cross: ${platform}: without its platform package, the error names the machine and says how to build from source`)
