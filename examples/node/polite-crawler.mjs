// A polite crawler in 30 lines: robots.txt fetched once per site (RobotsCache),
// one request in flight per host, starts spaced by its Crawl-delay, 1 s at
// least (Pacer), and only the URLs the rules allow. Node's fetch does the I/O.
//
//   node polite-crawler.mjs ExampleBot https://example.com/ https://example.com/about

import { Pacer, RobotsCache, httpFetcher, retryAfterMs } from 'robotstxt-engine'

const [token, ...urls] = process.argv.slice(2)
const robots = new RobotsCache({ fetch: httpFetcher({ userAgent: token }) })
const pacer = new Pacer() // floorMs: 1000; a site's Crawl-delay may ask for more

/** @param {string} url */
async function visit (url) {
  const rules = await robots.rulesFor(url, token) // one fetch per origin, however many ask
  if (!rules.isAllowed(url)) return console.log(`skip ${url} (disallowed)`)
  const host = new URL(url).host
  pacer.setRules(host, rules) // its Crawl-delay and Request-rate
  await pacer.wait(host) // sleeps until this request may go: it is then in flight
  const outcome = {} // no status: a network error (dropped, timed out), unless an answer comes
  try {
    const res = await fetch(url, { headers: { 'user-agent': token }, signal: AbortSignal.timeout(30_000) })
    Object.assign(outcome, { status: res.status, retryAfterMs: retryAfterMs(res.headers.get('retry-after')) })
    console.log(`${res.status} ${url} (${(await res.text()).length} bytes)`)
  } finally {
    pacer.record(host, outcome) // frees its place; 429 and 5xx slow the host down
  }
}

await Promise.all(urls.map((url) => visit(url).catch((err) => console.log(`fail ${url} (${err.message})`))))
