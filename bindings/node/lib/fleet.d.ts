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
 * integers as numbers, an error reply as a rejection with a `ReplyError`).
 * Set it to fail a call within about a second while Redis is down or hung
 * (ioredis: `connectTimeout: 1000, commandTimeout: 1000,
 * maxRetriesPerRequest: 1`): the shared classes then fail safe at once.
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
   * The clock, in epoch milliseconds, passed to every script (tests,
   * replays). By default the fleet's clock is Redis's own (`TIME`), the
   * same for every worker, which each worker follows between calls by its
   * monotonic clock (`performance.now()`): a step of the worker's wall
   * clock (NTP, a VM resumed) keeps no copy past its due.
   */
  now?: () => number
  /**
   * When Redis cannot be reached, fall back to a cache (or pacer) of this
   * worker's own, with a warning (`ROBOTSTXT_REDIS_FALLBACK`): politeness
   * then holds per worker, not per fleet. Off by default: the shared
   * classes fail safe instead (see each class).
   */
  localFallback?: boolean
  /**
   * Told of every Redis failure (`code` `'ERR_ROBOTSTXT_REDIS'`): a call
   * that failed, or an error reply or a reply the core cannot read.
   */
  onRedisError?: (error: Error) => void
}

/**
 * As the local cache's options, but for `leaseMs`: how long a fetch lease
 * lasts unless renewed, 60,000 (60 s). `SharedRobotsCache` renews it
 * every third of it while its fetch goes on, so a slow robots.txt stays
 * one fetch for the fleet; a worker killed mid-fetch holds it no longer.
 * `capacity` bounds the copies this worker holds parsed, not the fleet's.
 */
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
 * kept in Redis for a whole fleet (the core's fleet protocol decides every
 * answer): `lookup` says *fetch now* (a lease) to one worker of the fleet
 * per origin, `ready` (a copy) or `wait`; the worker stores what it
 * fetched, or abandons the lease. A copy is stored
 * only under the origin's current lease: a lease that ran out (by the
 * clock that took it), was stored or abandoned is refused with
 * `ERR_ROBOTSTXT_INVALID_LEASE`, as the local cache refuses it, and a
 * worker whose lease ran out never overwrites the fleet's copy. Each
 * worker keeps the copies it uses parsed, by version (at most `capacity`):
 * while one is fresh, `lookup` makes no Redis call. A copy in Redis that
 * this worker cannot read (damaged, or written in a newer format by a
 * newer library during a rolling upgrade) is no copy: its reader is handed
 * the fetch, to fetch over it, and `stats.unreadable` counts it. `now`
 * defaults to the `now` option, else to Redis's clock. A Redis failure
 * rejects with `ERR_ROBOTSTXT_REDIS`; a copy fetched but not stored for it
 * answers this worker until Redis is back. `SharedRobotsCache` is built on
 * it; a crawler with its own fetch loop calls `renew(lease)` every third
 * of `leaseMs` while a fetch goes on.
 */
export declare class SharedCache {
  constructor(options: SharedCacheOptions)
  /** As `cache.lookup`. */
  lookup(url: string | Uint8Array, now?: number | null, whenFetching?: 'wait' | 'disallow-all'): Promise<SharedCacheLookup>
  /** As `cache.store`: stores the copy for the fleet and ends the lease. */
  store(lease: SharedLease, outcome: FetchOutcome, now?: number | null): Promise<Access>
  /** As `cache.abandon`: the next lookup in the fleet hands the fetch out again. */
  abandon(lease: SharedLease): Promise<void>
  /**
   * Extends the lease by `leaseMs` while its fetch goes on: `true` while
   * it is still this worker's, `false` once it ran out, was taken by
   * another worker, or was stored or abandoned.
   */
  renew(lease: SharedLease): Promise<boolean>
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
  /**
   * How long a robots.txt fetch may take before it is given up as a
   * network error (its `signal` aborts): 60,000 (60 s). The fetch lease
   * is renewed meanwhile, however long that is.
   */
  fetchTimeoutMs?: number
}

/** What `sharedRobotsCache.stats` counts, in this worker. */
export interface SharedCacheStats {
  /** Answers from a fresh copy. */
  hits: number
  /** Lookups with no usable copy. */
  misses: number
  /** Fetches this worker was handed. */
  fetches: number
  /** Answers from a copy past its freshness. */
  stale: number
  /** Origins this worker dropped to stay within `capacity`. */
  evictions: number
  /**
   * Copies in Redis this worker could not read (damaged, or of a newer
   * format): answered as no copy, and fetched over.
   */
  unreadable: number
  /** Redis calls that failed, or whose reply could not be read. */
  redisErrors: number
  /** Origins this worker holds now. */
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
 * The worker that fetches renews its lease every third of `leaseMs`
 * while the fetch goes on (bounded by `fetchTimeoutMs`), so a robots.txt
 * slower than the lease is still fetched once. A copy in Redis this worker
 * cannot read is fetched over by it (`stats.unreadable`).
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

/**
 * As the local pacer's options, but for `capacity`: how many hosts this
 * worker remembers the pace of (default 10,000), to give back to Redis
 * should it lose them.
 */
export interface SharedPacerOptions extends PacerOptions, SharedOptions {
  /**
   * How long Redis keeps a host's pace once nothing holds it back:
   * 86,400,000 (24 h), so that a crawl delay outlives a pause.
   */
  retainMs?: number
}

/**
 * A reserved start slot, from `sharedPacer.reserve` (only tickets it
 * handed out are confirmed or cancelled).
 */
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
 * `inFlightTimeoutMs`. Each worker remembers what Redis last told it of
 * each host it paces: a host whose pace Redis lost (a restart with empty
 * memory, or expiry) gets back, strictest first, the kill switch, the
 * `Retry-After`, the backoff and the crawl delay any worker knew of. A
 * pace hash with fields no pace can trust (NaN, infinities, negatives,
 * text) paces at the strictest safe pace, never a faster one.
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
