// Compiled with `tsc --noEmit --strict` by `npm run typecheck`: the types of
// the shared classes (lib/fleet.d.ts) as a fleet worker uses them.

import {
  type Access, type CachedAnswer, type Confirmation, type RedisClient, type RobotsFetch, type SharedCacheLookup,
  type SharedCacheStats, type SharedLease, type SharedTicket, Entry, Rules, SharedCache, SharedPacer,
  SharedRobotsCache, fleetScript, paceMs, pacerHost, robotsOrigin
} from '../lib/index.js'

declare const redis: RedisClient
declare const fetchRobots: RobotsFetch

export async function worker (url: string): Promise<boolean> {
  const cache = new SharedRobotsCache({
    redis, fetch: fetchRobots, prefix: 'crawl:', leaseMs: 30_000, keepMs: 86_400_000, fetchTimeoutMs: 10_000
  })
  const pacer = new SharedPacer({ redis, floorMs: 500, retainMs: 3_600_000, localFallback: false })
  const answer: CachedAnswer = await cache.answerFor(url)
  const rules: Rules = answer.rulesFor('ExampleBot')
  const host = new URL(url).host
  await pacer.setRules(host, rules)
  const start: number = await pacer.wait(host)
  await pacer.record(host, { status: 200 })
  const ticket: SharedTicket | null = await pacer.reserve(host)
  if (ticket !== null) {
    const got: Confirmation = await pacer.confirm(ticket)
    if (got.kind !== 'go') await pacer.cancel(ticket)
  }
  const stats: SharedCacheStats = cache.stats
  const unreadable: number = stats.unreadable
  const bytes: Uint8Array = new Entry().encode()
  const copy: Entry = Entry.decode(bytes, { freshForMs: 1000 })
  const body: Uint8Array = Entry.storedBody(bytes)
  const names: string[] = [fleetScript('reserve'), robotsOrigin(url), pacerHost(host)]
  const gap: number = paceMs({ crawlDelay: 1.5 })
  cache.close()
  pacer.close()
  const low = new SharedCache({ redis, prefix: 'crawl:', now: Date.now, capacity: 100, keepMs: 86_400_000 })
  const got: SharedCacheLookup = await low.lookup(url, null, 'disallow-all')
  let access: Access | null = null
  if (got.kind === 'fetch' && got.lease !== null) {
    const lease: SharedLease = got.lease
    const etag: string | null = lease.etag
    const held: boolean = await low.renew(lease)
    if (etag === null && held) {
      access = await low.store(lease, { status: 404 }, Date.now())
    } else {
      await low.abandon(lease)
    }
  }
  const until: number | null = got.until ?? got.retryAt
  low.close()
  copy.close()
  return access !== 'disallow-all' && until !== 0 && start > 0 && unreadable >= 0 && stats.hits >= 0 && body.length >= 0 && names.length === 3 && gap === 1500 && rules.isAllowed(url)
}
