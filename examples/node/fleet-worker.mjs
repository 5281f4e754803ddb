// One worker of a crawler fleet: takes URLs from a Redis list and fetches
// those the site's robots.txt allows, paced per host with the rest of the
// fleet (SharedRobotsCache, SharedPacer). The Go and Python workers take
// the same arguments and behave alike; tests/fleet runs them together.
//
//   node fleet-worker.mjs --redis-port P --prefix X --queue KEY --id NAME
//     --token ExampleBot --deadline-ms N [--lease-ms N] [--retry-ms N]
//     [--floor-ms N] [--in-flight-timeout-ms N]
//
// Prints one JSON line per URL: {"id", "event": "fetch" | "skip" |
// "later" | "redis-error", "url", "status"}; "later": robots.txt could not
// be read (disallow all for now), and the URL goes back to the queue. An empty queue ends the worker once the
// key `<queue>:done` is set (whoever fills the queue sets it); until then
// it looks again every 100 ms, as URLs may come back (a 429, a 503).

import { parseArgs } from 'node:util'

import Redis from 'ioredis'
import { SharedPacer, SharedRobotsCache, retryAfterMs } from 'robotstxt-engine'

const { values: args } = parseArgs({
  options: {
    'redis-port': { type: 'string' },
    prefix: { type: 'string' },
    queue: { type: 'string' },
    id: { type: 'string' },
    token: { type: 'string', default: 'ExampleBot' },
    'deadline-ms': { type: 'string' },
    'lease-ms': { type: 'string', default: '60000' },
    'retry-ms': { type: 'string', default: '3600000' },
    'floor-ms': { type: 'string', default: '1000' },
    'in-flight-timeout-ms': { type: 'string', default: '120000' }
  }
})
for (const name of ['redis-port', 'prefix', 'queue', 'id', 'deadline-ms']) {
  if (args[name] === undefined) {
    console.error(`fleet-worker: --${name} is required`)
    process.exit(2)
  }
}

const userAgent = `${args.token}/1.0 (worker ${args.id})`
const deadline = Date.now() + Number(args['deadline-ms'])
// Calls fail within about a second while Redis is down or hung (the
// shared classes fail safe, the worker retries), and the client
// reconnects when it is back.
const redis = new Redis(Number(args['redis-port']), '127.0.0.1', {
  connectTimeout: 1000,
  commandTimeout: 1000,
  maxRetriesPerRequest: 1,
  retryStrategy: () => 100
})
redis.on('error', () => {})

const cache = new SharedRobotsCache({
  redis,
  prefix: args.prefix,
  leaseMs: Number(args['lease-ms']),
  retryMs: Number(args['retry-ms']),
  async fetch (robotsUrl, { etag, lastModified, signal }) {
    const headers = { 'user-agent': userAgent }
    if (etag !== null) headers['if-none-match'] = etag
    if (lastModified !== null) headers['if-modified-since'] = lastModified
    const res = await fetch(robotsUrl, { headers, signal, redirect: 'manual' })
    return {
      status: res.status,
      body: new Uint8Array(await res.arrayBuffer()),
      retryAfterMs: retryAfterMs(res.headers.get('retry-after')),
      etag: res.headers.get('etag'),
      lastModified: res.headers.get('last-modified')
    }
  }
})
const pacer = new SharedPacer({
  redis,
  prefix: args.prefix,
  floorMs: Number(args['floor-ms']),
  inFlightTimeoutMs: Number(args['in-flight-timeout-ms'])
})

function say (event, fields) {
  console.log(JSON.stringify({ id: args.id, event, ...fields }))
}

/** The rules each host's pace was last set from: once per copy. */
const paced = new Map()

async function crawl (url) {
  const rules = await cache.rulesFor(url, args.token)
  if (rules.blanket !== null && !rules.blanket.allowed) {
    // robots.txt could not be read (a 5xx, no response): nothing may be
    // fetched now; the URL waits for the retry.
    say('later', { url })
    await redis.rpush(args.queue, url)
    await new Promise((resolve) => setTimeout(resolve, 100))
    return
  }
  if (!rules.isAllowed(url)) {
    say('skip', { url })
    return
  }
  const host = new URL(url).host
  const delay = `${rules.crawlDelay}/${JSON.stringify(rules.requestRate)}`
  if (paced.get(host) !== delay) {
    await pacer.setRules(host, rules)
    paced.set(host, delay)
  }
  await pacer.wait(host)
  let status = null
  let retryAfter
  try {
    const res = await fetch(url, { headers: { 'user-agent': userAgent }, redirect: 'manual' })
    await res.arrayBuffer()
    status = res.status
    retryAfter = retryAfterMs(res.headers.get('retry-after'))
  } finally {
    await pacer.record(host, { status, retryAfterMs: retryAfter })
  }
  say('fetch', { url, status })
  if (status === 429 || status === 503) await redis.rpush(args.queue, url)
}

// Node's fetch loads its HTTP client on first use, some 100 ms on a busy
// machine: paid now, not between the pacer's go and the request.
await (await fetch('data:text/plain,warm')).text()

while (Date.now() < deadline) {
  let url = null
  try {
    url = await redis.lpop(args.queue)
    if (url === null) {
      if (await redis.exists(`${args.queue}:done`)) break
      await new Promise((resolve) => setTimeout(resolve, 100))
      continue
    }
    await crawl(url)
  } catch (error) {
    if (error.code !== 'ERR_ROBOTSTXT_REDIS' && !/Connection|connect|ECONNREFUSED|max retries|closed|timed out/i.test(error.message)) {
      throw error
    }
    say('redis-error', { url, message: error.message })
    if (url !== null) await redis.rpush(args.queue, url).catch(() => {})
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}
cache.close()
pacer.close()
redis.disconnect()
