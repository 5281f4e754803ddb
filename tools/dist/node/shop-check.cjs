'use strict'

// The practice shop (behaviour §9) asked of an installed robotstxt-engine:
// shop.cjs passes what require gave it, shop.mjs what import gave it. Prints
// each answer; exits non-zero on a wrong one, or when a loaded file lies
// outside the test project (the repository's build must not be reachable).

const { readFileSync } = require('node:fs')
const { join, sep } = require('node:path')

// token, path, the answer §9 gives.
const SHOP = [
  ['NimbuBot', '/prices/today', 'allowed'],
  ['NimbuBot', '/prices/history', 'disallowed'],
  ['NimbuBot', '/guides/size-chart.pdf', 'disallowed'],
  ['NimbuBot', '/guides/size-chart.pdf?print=1', 'allowed'],
  ['NimbuBot', '/offers/weekend', 'allowed'],
  ['NimbuBot', '/drafts/new-range', 'disallowed'],
  ['NimbuBot', '/account/orders', 'allowed'],
  ['OtherBot', '/account/orders', 'disallowed'],
  ['OtherBot', '/products/?sort=price', 'disallowed'],
  ['ArchiveBot', '/robots.txt', 'allowed'],
  ['nimbubot', '/%70rices/history', 'disallowed'],
  ['Mozilla/5.0 (compatible; NimbuBot/1.0)', '/prices/history', 'error']
]

module.exports = function check ({ Robots }, how, project) {
  let wrong = 0
  const expect = (what, got, want) => {
    const ok = got === want
    if (!ok) wrong++
    console.log(`  ${ok ? 'ok  ' : 'FAIL'} ${what}: ${got}${ok ? '' : ` (want ${want})`}`)
  }

  const robots = Robots.parse(readFileSync(join(project, 'robots.txt')))
  for (const [token, path, want] of SHOP) {
    let got
    try {
      got = robots.rulesFor(token).isAllowed(`https://bazaar.nimbu.test${path}`) ? 'allowed' : 'disallowed'
    } catch (err) {
      got = err instanceof RangeError && err.code === 'ERR_ROBOTSTXT_INVALID_TOKEN' ? 'error' : String(err)
    }
    expect(`${token} ${path}`, got, want)
  }
  expect('crawl delay NimbuBot', robots.rulesFor('NimbuBot').crawlDelay, 2.5)
  expect('crawl delay OtherBot', robots.rulesFor('OtherBot').crawlDelay, 2)
  expect('sitemaps', robots.sitemaps.join(' '), 'https://bazaar.nimbu.test/sitemap.xml')

  // What Node loaded: all from the project, the addon from the platform package.
  const loaded = Object.keys(require.cache)
  const addons = loaded.filter((f) => f.endsWith('.node'))
  const platformDir = join(project, 'node_modules', 'robotstxt-engine-linux-x64-gnu') + sep
  expect('addon loaded', addons.length === 1 && addons[0].startsWith(platformDir) ? 'from the platform package' : addons.join(' '),
    'from the platform package')
  const outside = loaded.filter((f) => !f.startsWith(project + sep))
  expect('files loaded from outside the project', outside.join(' ') || 'none', 'none')

  const answers = SHOP.length + 5
  console.log(`${how}: ${answers - wrong} of ${answers} answers right`)
  if (wrong > 0) process.exit(1)
  return answers
}
