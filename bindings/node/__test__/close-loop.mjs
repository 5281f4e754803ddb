// Run by close.test.mjs as `node __test__/close-loop.mjs [count] [--keep]`:
// parses a small body, selects rules, asks and closes every handle,
// `count` times, in a loop that never yields (no await: no finalizer of a
// collected handle runs meanwhile), and prints the process's resident
// memory at checkpoints as JSON. `--keep` leaves the handles to the
// garbage collector instead, to compare by hand.

import { Robots } from '../lib/index.js'

const count = Number(process.argv[2] ?? 200000)
const keep = process.argv.includes('--keep')
const every = count / 10

let allowed = 0
const checkpoints = []
for (let i = 1; i <= count; i++) {
  const body = `User-agent: *\nDisallow: /private/${i}/\nAllow: /private/${i}/open\nCrawl-delay: ${i % 7}\n`
  const robots = Robots.parse(body)
  const rules = robots.rulesFor('ExampleBot')
  if (rules.isAllowed(`/private/${i}/open`)) allowed += 1
  if (!rules.decide(`/private/${i}/x`).allowed) allowed += 1
  if (!keep) {
    rules.close()
    robots.close()
  }
  if (i % every === 0) checkpoints.push({ i, rss: process.memoryUsage().rss })
}
console.log(JSON.stringify({ count, allowed, checkpoints }))
