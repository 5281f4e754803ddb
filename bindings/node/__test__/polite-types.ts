// Compiled with `tsc --noEmit --strict` by `npm run typecheck`: the types of
// lib/index.d.ts (the package entry) describe the promise-based layer as the
// tests and the polite crawler use it.

import {
  type CachedAnswer, type CacheStats, type Confirmation, type FetchErrorContext, type RobotsFetch,
  type RobotsFetchOutcome, type Ticket, Cache, Pacer, Robots, RobotsCache, Rules, httpFetcher,
  productToken, retryAfterMs
} from '../lib/index.js'

const fetchRobots: RobotsFetch = async (robotsUrl, { origin, etag, lastModified, signal }) => {
  const headers: Record<string, string> = {}
  if (etag !== null) headers['if-none-match'] = etag
  if (lastModified !== null) headers['if-modified-since'] = lastModified
  const res = await fetch(robotsUrl, { headers, signal })
  const outcome: RobotsFetchOutcome = {
    status: res.status,
    body: new Uint8Array(await res.arrayBuffer()),
    etag: res.headers.get('etag'),
    lastModified: res.headers.get('last-modified'),
    retryAfterMs: retryAfterMs(res.headers.get('retry-after')) ?? null
  }
  return origin === '' ? { status: null } : outcome
}

async function crawl (signal: AbortSignal): Promise<void> {
  const robots = new RobotsCache({
    fetch: fetchRobots,
    now: () => Date.now(),
    whenFetching: 'disallow-all',
    capacity: 100,
    leaseMs: 10_000,
    onFetchError: (error: unknown, where: FetchErrorContext) => { console.error(where.robotsUrl, error) }
  })
  const sync = new RobotsCache({ fetch: () => ({ status: 404 }) })
  const viaNode = new RobotsCache({ fetch: httpFetcher({ userAgent: 'ExampleBot/1.0', maxBytes: 500_000, minMaxAgeMs: 0 }) })
  const rules: Rules = await robots.rulesFor('https://a.test/x', 'ExampleBot', { signal })
  const answer: CachedAnswer = await sync.answerFor(new Uint8Array([0x68]))
  const sitemaps: string[] = answer.robots?.sitemaps ?? []
  const stats: CacheStats = viaNode.stats
  const counts: number[] = [robots.size, robots.fetching, stats.fetches, sitemaps.length]
  const removed: boolean = robots.remove('https://a.test/')

  const pacer = new Pacer({ floorMs: 0, now: () => performance.timeOrigin + performance.now() })
  pacer.setRules('a.test', rules)
  const slot: number = await pacer.wait('a.test', { signal })
  pacer.record('a.test', { status: 429, retryAfterMs: retryAfterMs('5') })
  const next: Ticket | null = pacer.reserve('a.test')
  const confirmed: Confirmation | null = next === null ? null : pacer.confirm(next)
  pacer.setEnabled('a.test', false)
  const inFlight: number = pacer.inFlight('a.test')
  const native: Cache = new Cache()
  const isNative: boolean = pacer instanceof Pacer
  const token: string = productToken('Mozilla/5.0 (compatible; ExampleBot/2.1)')
  // `using` closes at the end of the block.
  {
    using parsed = Robots.parse('User-agent: *\nDisallow: /\n')
    using selected = parsed.rulesFor(token)
    void selected.isAllowed('/')
  }
  rules[Symbol.dispose]()
  native[Symbol.dispose]()
  pacer[Symbol.dispose]()
  robots.close()
  void [counts, removed, slot, confirmed, inFlight, isNative]
}

void crawl
