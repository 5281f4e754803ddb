// Types of lib/fleet.js: a robots.txt cache and a pacer shared by a fleet
// of worker processes through Redis.

import type {
  Access, CachedAnswer, CacheOptions, Confirmation, FetchOutcome, LookupKind, Pace, PacerOptions, RequestOutcome,
  Rules
} from '../index.js'
import type { FetchErrorContext, RobotsFetch, WaitOptions } from './polite.js'

/**
 * The Redis client the shared classes talk through: ioredis, or anything
 * with its `callBuffer(command, ...args)` (bulk replies as Buffers,
 * integers as numbers).
 */
export interface RedisClient {
  callBuffer(command: string, ...args: Array<string | number | Uint8Array>): Promise<unknown>
}

/** What the shared classes' options have in common. */
export interface SharedOptions {
  /** The Redis client (ioredis). */
  redis: RedisClient
  /** The prefix of every key: `'robotstxt:'` by default. */
  prefix?: string
  /**
   * The clock, in epoch milliseconds, passed to every script. By default
   * each script reads Redis's own (`TIME`), the same for every worker.
   */
  now?: () => number
  /**
   * When Redis cannot be reached, fall back to a cache (or pacer) of this
   * worker's own, with a warning (`ROBOTSTXT_REDIS_FALLBACK`): politeness
   * then holds per worker, not per fleet. Off by default: the shared
   * classes fail safe instead (see each class).
   */
  localFallback?: boolean
  /** Told of every Redis failure (`code` `'ERR_ROBOTSTXT_REDIS'`). */
  onRedisError?: (error: Error) => void
}

export interface SharedCacheOptions extends CacheOptions, Pick<SharedOptions, 'redis' | 'prefix' | 'now'> {
  /** How long Redis keeps a copy: 2,678,400,000 (31 days). */
  keepMs?: number
}

/**
 * The right, and duty, to fetch one origin's robots.txt for the fleet
 * (a frozen object): fetch `robotsUrl` (conditionally, with `etag` and
 * `lastModified` when set), then `sharedCache.store(lease, outcome)`, or
 * `sharedCache.abandon(lease)`, once, with the cache that handed it out.
 */
export interface SharedLease {
  readonly origin: string
  readonly robotsUrl: string
  readonly etag: string | null
  readonly lastModified: string | null
}

/** What `sharedCache.lookup` gives: as `CacheLookup`, with a `SharedLease`. */
export interface SharedCacheLookup {
  kind: LookupKind
  /** `'ready'`: what answers. */
  answer: CachedAnswer | null
  /** `'ready'`: whether the copy is past its freshness. */
  stale: boolean | null
  /**
   * `'ready'`: when the next fetch is due after a failed one, or, with
   * `'disallow-all'` while another worker fetches, when its lease runs out.
   */
  retryAt: number | null
  /** `'fetch'`: the lease to fetch with. */
  lease: SharedLease | null
  /** `'wait'`: when the other worker's lease runs out (epoch ms). */
  until: number | null
}

/**
 * The local `Cache`'s low-level surface, async, over one copy per origin
 * kept in Redis for a whole fleet: `lookup` says *fetch now* (a lease) to
 * one worker of the fleet per origin, `ready` (a copy) or `wait`; the
 * worker stores what it fetched, or abandons the lease. A copy is stored
 * only under the origin's current lease: a lease that ran out (by the
 * clock that took it), was stored or abandoned is refused with
 * `ERR_ROBOTSTXT_INVALID_LEASE`, as the local cache refuses it, and a
 * worker whose lease ran out never overwrites the fleet's copy. Each
 * worker keeps the copies it uses parsed, by version (at most `capacity`):
 * while one is fresh, `lookup` makes no Redis call. `now` defaults to the
 * `now` option, else to Redis's clock. A Redis failure rejects with
 * `ERR_ROBOTSTXT_REDIS`; a copy fetched but not stored for it answers this
 * worker until Redis is back. `SharedRobotsCache` is built on it.
 */
export declare class SharedCache {
  constructor(options: SharedCacheOptions)
  /** As `cache.lookup`. */
  lookup(url: string | Uint8Array, now?: number | null, whenFetching?: 'wait' | 'disallow-all'): Promise<SharedCacheLookup>
  /** As `cache.store`: stores the copy for the fleet and ends the lease. */
  store(lease: SharedLease, outcome: FetchOutcome, now?: number | null): Promise<Access>
  /** As `cache.abandon`: the next lookup in the fleet hands the fetch out again. */
  abandon(lease: SharedLease): Promise<void>
  /** Forgets this worker's copy of `url`'s origin (the fleet's stays). */
  remove(url: string | Uint8Array): boolean
  /** This worker's counters. */
  get stats(): SharedCacheStats
  /** The copies this worker holds. */
  get size(): number
  /** Frees this worker's copies; later calls throw `ERR_ROBOTSTXT_CLOSED`. */
  close(): void
  [Symbol.dispose](): void
}

export interface SharedRobotsCacheOptions extends CacheOptions, SharedOptions {
  /** Fetches robots.txt, as for `RobotsCache`. */
  fetch: RobotsFetch
  /** As for `RobotsCache`. */
  whenFetching?: 'wait' | 'disallow-all'
  /** As for `RobotsCache`. */
  onFetchError?: (error: unknown, context: FetchErrorContext) => void
  /** How long Redis keeps a copy: 2,678,400,000 (31 days). */
  keepMs?: number
}

/** What `sharedRobotsCache.stats` counts, in this worker. */
export interface SharedCacheStats {
  hits: number
  misses: number
  fetches: number
  stale: number
  evictions: number
  redisErrors: number
  entries: number
}

/**
 * `RobotsCache`'s surface over a `SharedCache`, one copy per origin kept
 * in Redis for a whole fleet: when a copy is due, one worker in the fleet
 * fetches it (under a lease fenced by a token, so that a worker whose
 * lease ran out cannot overwrite a newer copy) and the others wait for
 * it, or answer with the copy they hold. Each worker keeps the copies it uses parsed,
 * by version: between refreshes a question costs no Redis call, and a
 * check is a local call.
 *
 * Redis unreachable: the copy this worker holds keeps answering (as an
 * unreachable robots.txt keeps the old copy); an origin it holds none of
 * is disallowed until Redis answers again. With `localFallback`, this
 * worker fetches for itself instead.
 */
export declare class SharedRobotsCache {
  constructor(options: SharedRobotsCacheOptions)
  /** As `robotsCache.rulesFor`. */
  rulesFor(url: string | Uint8Array, token: string | Uint8Array, options?: WaitOptions): Promise<Rules>
  /** As `robotsCache.answerFor`. */
  answerFor(url: string | Uint8Array, options?: WaitOptions): Promise<CachedAnswer>
  /** Forgets this worker's copy of `url`'s origin (the fleet's stays). */
  remove(url: string | Uint8Array): boolean
  /** This worker's counters. */
  get stats(): SharedCacheStats
  /** The copies this worker holds. */
  get size(): number
  /** Frees this worker's copies; later calls throw `ERR_ROBOTSTXT_CLOSED`. */
  close(): void
  [Symbol.dispose](): void
}

export interface SharedPacerOptions extends PacerOptions, SharedOptions {
  /**
   * How long Redis keeps a host's pace once nothing holds it back:
   * 86,400,000 (24 h), so that a crawl delay outlives a pause.
   */
  retainMs?: number
}

/** A reserved start slot, from `sharedPacer.reserve`. */
export interface SharedTicket {
  /** The host, as the pacer keys it. */
  host: string
  /** When the request may start (epoch ms, the fleet's clock). */
  start: number
  /** The host's generation the slot belongs to. */
  generation: number
}

/**
 * The pacer's surface over each host's pace kept in Redis for a whole
 * fleet: slots are handed out in order across every worker, and a backoff,
 * `Retry-After` or kill switch recorded by one worker holds back all. A
 * worker that dies with a request in flight frees its place after
 * `inFlightTimeoutMs`. Each worker remembers the delays it set: a host
 * whose pace Redis lost (a restart with empty memory, or expiry) starts
 * again from the delay of the first worker to ask.
 *
 * Redis unreachable: every call rejects (`ERR_ROBOTSTXT_REDIS`): no slot,
 * no request. With `localFallback`, `wait` paces by this worker's own
 * pacer instead, and `record` reports to it.
 */
export declare class SharedPacer {
  constructor(options: SharedPacerOptions)
  reserve(host: string | Uint8Array): Promise<SharedTicket | null>
  confirm(ticket: SharedTicket): Promise<Confirmation>
  cancel(ticket: SharedTicket): Promise<void>
  record(host: string | Uint8Array, outcome: RequestOutcome): Promise<void>
  setRules(host: string | Uint8Array, rules: Rules): Promise<void>
  setDelay(host: string | Uint8Array, pace: Pace): Promise<void>
  setEnabled(host: string | Uint8Array, enabled: boolean): Promise<void>
  gapMs(host: string | Uint8Array): Promise<number>
  inFlight(host: string | Uint8Array): Promise<number>
  /** Resolves when a request to `host` may be sent (epoch ms). */
  wait(host: string | Uint8Array, options?: WaitOptions): Promise<number>
  close(): void
  [Symbol.dispose](): void
}
