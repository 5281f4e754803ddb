'use strict'

// check-addon.cjs PLATFORM: robotstxt-engine, as installed, answers a few
// questions (parse, isAllowed, crawlDelay), and the addon that answered is
// robotstxt.PLATFORM.node from robotstxt-engine-PLATFORM, loaded by a Node
// that runs as the package's os and cpu say. test-node-cross.sh runs it
// with the platform's own Node (under qemu-user or wine).

const { basename, dirname } = require('node:path')

const platform = process.argv[2]
const name = `robotstxt-engine-${platform}`
const problems = []
const expect = (what, got, want) => {
  if (got !== want) problems.push(`${what}: got ${JSON.stringify(got)}, want ${JSON.stringify(want)}`)
}

const pkg = require(`${name}/package.json`)
expect('process.platform', process.platform, pkg.os[0])
expect('process.arch', process.arch, pkg.cpu[0])

const { Robots } = require('robotstxt-engine')
const robots = Robots.parse('User-agent: NimbuBot\nDisallow: /private\nCrawl-delay: 2.5\n\nUser-agent: *\nDisallow: /\n')
const rules = robots.rulesFor('NimbuBot')
expect('NimbuBot /public', rules.isAllowed('/public'), true)
expect('NimbuBot /private/x', rules.isAllowed('/private/x'), false)
expect('NimbuBot crawlDelay', rules.crawlDelay, 2.5)
expect('OtherBot /public', robots.rulesFor('OtherBot').isAllowed('/public'), false)
expect('OtherBot crawlDelay', robots.rulesFor('OtherBot').crawlDelay, null)

// Node keeps every addon it loaded in require.cache, under its full path.
const addons = Object.keys(require.cache).filter((file) => file.endsWith('.node'))
expect('addons loaded', addons.length, 1)
const addon = addons[0] ?? ''
expect('addon file', basename(addon), `robotstxt.${platform}.node`)
expect('addon package', basename(dirname(addon)), name)

if (problems.length > 0) {
  console.error(`check-addon: ${platform}: FAILED:\n  ${problems.join('\n  ')}`)
  process.exit(1)
}
console.log(`check-addon: ${platform}: Node ${process.version} (${process.platform}, ${process.arch}) loaded ` +
  `${name}/${basename(addon)}; parse, isAllowed and crawlDelay answered right`)
