// The practice shop of behaviour §9 through the Node.js binding: parse the file
// once, select the rules for each crawler, ask, and explain each answer.
//
//   cd examples/node && npm ci && node shop.mjs      (or: make demo-node)

import { readFileSync } from 'node:fs'

import { Entry, Robots } from 'robotstxt-engine'

const body = readFileSync(new URL('../shop/robots.txt', import.meta.url))
const robots = Robots.parse(body) // RFC 9309 profile; { profile: 'google' } for Google's reading

const questions = [
  ['NimbuBot', '/prices/today'],
  ['NimbuBot', '/prices/history'],
  ['NimbuBot', '/guides/size-chart.pdf'],
  ['NimbuBot', '/guides/size-chart.pdf?print=1'],
  ['NimbuBot', '/offers/weekend'],
  ['NimbuBot', '/drafts/new-range'],
  ['NimbuBot', '/account/orders'],
  ['OtherBot', '/account/orders'],
  ['OtherBot', '/products/?sort=price'],
  ['ArchiveBot', '/robots.txt'],
  ['nimbubot', '/%70rices/history'],
  ['Mozilla/5.0 (compatible; NimbuBot/1.0)', '/prices/history']
]

console.log('robotstxt (Node): the practice shop, RFC 9309 profile\n')
for (const [token, path] of questions) {
  let answer
  try {
    const { allowed, line, kind, pattern } = robots.rulesFor(token).decide(`https://bazaar.nimbu.test${path}`)
    const why = kind === 'none' ? 'no rule applies' : `line ${line}: ${kind} ${pattern}`
    answer = `${allowed ? 'allowed' : 'disallowed'} (${why})`
  } catch (err) {
    if (!(err instanceof RangeError)) throw err
    answer = `error ${err.code}: not a product token`
  }
  console.log(`${token.padEnd(40)} ${path.padEnd(32)} ${answer}`)
}

const nimbu = robots.rulesFor('NimbuBot')
console.log(`\ncrawl delay: NimbuBot ${nimbu.crawlDelay} s, OtherBot ${robots.rulesFor('OtherBot').crawlDelay} s`)
console.log(`sitemaps: ${robots.sitemaps.join(', ')}`)

// A batch crosses into native code once.
const links = ['/prices/today', '/prices/history', '/offers/weekend', '/drafts/new-range']
console.log(`NimbuBot may fetch ${JSON.stringify(nimbu.filterAllowed(links))}`)

// Keeping the copy fresh (behaviour §7): record each fetch's outcome, then ask.
// Times are epoch milliseconds; here an explicit clock at hours 0 and 24.5.
const HOUR = 3600 * 1000
const entry = new Entry()
entry.record({ status: 200, body }, 0)
entry.record({ status: 503 }, 24.5 * HOUR) // the refresh fails...
const { kind, robots: copy } = entry.answer(24.5 * HOUR)
console.log(`after a 503 at 24.5 h: answering from ${kind === 'rules' ? 'the old copy' : kind}` +
  ` (NimbuBot /prices/today: ${copy.rulesFor('NimbuBot').isAllowed('/prices/today') ? 'allowed' : 'disallowed'}),` +
  ` next try at ${entry.dueAt / HOUR} h`)
