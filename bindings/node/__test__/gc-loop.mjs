// Run by gc.test.mjs as `node --expose-gc __test__/gc-loop.mjs [count]`:
// creates `count` parsed files and rules, asks each a few questions through
// the package entry (whose fast paths give each Rules a handle), drops
// them, and prints the process's memory at checkpoints as JSON.

import { setImmediate as tick } from 'node:timers/promises'

import { Robots } from '../lib/index.js'

if (typeof globalThis.gc !== 'function') throw new Error('run with --expose-gc')

const count = Number(process.argv[2] ?? 100000)
const every = count / 10

async function settle () {
  // Finalizers of native objects may run after the collection that found
  // them dead; give them a turn, then collect again.
  for (let i = 0; i < 3; i++) {
    globalThis.gc()
    await tick()
  }
}

let finalized = 0
const registry = new FinalizationRegistry(() => { finalized += 1 })
const checkpoints = []
let allowed = 0
// The largest handle given out: collected Rules give theirs back.
let maxHandle = 0
// About 2 KiB of rules per file, so a leak of the files would be plain.
const filler = Array.from({ length: 40 }, (_, k) => `Disallow: /section-${k}/*.php$\n`).join('')

await settle()
for (let i = 1; i <= count; i++) {
  const body = `User-agent: *\nDisallow: /private/${i}/\nAllow: /private/${i}/open\nCrawl-delay: ${i % 7}\n${filler}` +
    `User-agent: Bot${String.fromCharCode(97 + (i % 26))}\nDisallow: /${'x'.repeat(i % 200)}\n` +
    `Sitemap: https://a.test/sitemap-${i}.xml\n`
  const robots = Robots.parse(i % 2 ? body : Buffer.from(body))
  const rules = robots.rulesFor('ExampleBot')
  if (rules.isAllowed(`/private/${i}/x`)) allowed += 1
  if (rules.decide(`/private/${i}/open`).allowed) allowed += 1
  allowed += rules.filterAllowed(['/a', `/private/${i}/`]).length
  maxHandle = Math.max(maxHandle, rules._handle)
  if (robots.sitemaps.length !== 1 || rules.crawlDelay !== i % 7) throw new Error(`wrong answer at ${i}`)
  if (i % 1000 === 0) {
    registry.register(robots, i)
    registry.register(rules, -i)
  }
  // Native finalizers run once the loop yields, as in a crawler that
  // awaits its fetches.
  if (i % 1000 === 0) await tick()
  if (i % every === 0) {
    await settle()
    const m = process.memoryUsage()
    checkpoints.push({ i, rss: m.rss, heapUsed: m.heapUsed, external: m.external })
  }
}
await settle()
console.log(JSON.stringify({ count, allowed, maxHandle, registered: 2 * Math.floor(count / 1000), finalized, checkpoints }))
