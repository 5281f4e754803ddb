// Types of lib/polite.js: the promise-based layer over the generated
// binding. Every time is epoch milliseconds by the clock you choose.

import {
  Pacer as NativePacer,
  type CachedAnswer, type CacheOptions, type CacheStats, type Confirmation,
  type PacerOptions, type Pace, type RequestOutcome, type Rules, type Ticket
} from '../index.js'

/**
 * What the fetch function of a `RobotsCache` is asked to do, besides the
 * URL: the validators of the copy it refreshes, and a signal.
 */
export interface RobotsFetchRequest {
  /** The normalised origin, such as `https://example.com:8443`. */
  origin: string
  /**
   * The cached copy's `ETag`: send it as `If-None-Match`. `null` when there
   * is no copy or it had none.
   */
  etag: string | null
  /**
   * The cached copy's `Last-Modified`: send it as `If-Modified-Since`.
   * `null` when there is no copy or it had none.
   */
  lastModified: string | null
  /**
   * Aborted when the fetch has run longer than the cache's `leaseMs`; the
   * outcome then counts as a timeout and whatever the fetch resolves to
   * later is ignored. Pass it on to your HTTP client.
   */
  signal: AbortSignal
}

/**
 * What a `RobotsFetch` resolves to: the native `FetchOutcome`, where every
 * field but `status` may also be `null` (as `headers.get` answers).
 */
export interface RobotsFetchOutcome {
  /** The final HTTP status, or `null` for a network error or timeout. */
  status: number | null
  /** How many redirects were followed to reach it (default 0). */
  redirects?: number | null
  /** The body (for a 2xx): parsed under the cache's parse limit. */
  body?: string | Uint8Array | null
  /** `Cache-Control: max-age`, in milliseconds: may shorten freshness. */
  maxAgeMs?: number | null
  /** `Retry-After`, in milliseconds: when to try again after a failure. */
  retryAfterMs?: number | null
  /** The `ETag` header: sent back as `If-None-Match` next time. */
  etag?: string | Uint8Array | null
  /** The `Last-Modified` header: sent back as `If-Modified-Since`. */
  lastModified?: string | Uint8Array | null
}

/**
 * Fetches `robotsUrl` (the origin's `/robots.txt`) with your own HTTP
 * client and says what came back: `status` (the final status, or `null`
 * for a network error or timeout), `body` (for a 2xx), `redirects` (how
 * many were followed), `maxAgeMs`, `retryAfterMs`, and the new `etag` and
 * `lastModified`. Answer a 304 with `{ status: 304 }` to keep the copy.
 *
 * A rejection (or a throw) counts as a network error (`status: null`);
 * resolving to something that is not a `RobotsFetchOutcome` is a bug: the callers
 * of that fetch reject with a `TypeError` or `RangeError` and the next call
 * fetches again. `httpFetcher()` makes one from Node's `fetch`.
 *
 * ```js
 * async (robotsUrl, { etag, lastModified, signal }) => {
 *   const headers = { 'user-agent': 'ExampleBot/1.0' }
 *   if (etag) headers['if-none-match'] = etag
 *   if (lastModified) headers['if-modified-since'] = lastModified
 *   const res = await fetch(robotsUrl, { headers, signal })
 *   return {
 *     status: res.status,
 *     body: new Uint8Array(await res.arrayBuffer()),
 *     etag: res.headers.get('etag'),
 *     lastModified: res.headers.get('last-modified')
 *   }
 * }
 * ```
 */
export type RobotsFetch = (robotsUrl: string, request: RobotsFetchRequest) => RobotsFetchOutcome | PromiseLike<RobotsFetchOutcome>

/** Where a failed fetch was going, for `onFetchError`. */
export interface FetchErrorContext {
  /** The URL that was being fetched. */
  robotsUrl: string
  /** Its normalised origin. */
  origin: string
}

/**
 * A `RobotsCache`'s fetch function and clock, with the options of the
 * native `Cache` (capacity, lease, freshness, status reading, parsing).
 */
export interface RobotsCacheOptions extends CacheOptions {
  /** Fetches robots.txt: the cache's only I/O, done by your HTTP client. */
  fetch: RobotsFetch
  /**
   * The clock, in epoch milliseconds: `Date.now` by default. Freshness,
   * retries and leases are reckoned by it; the fetch timeout (`leaseMs`) is
   * real time.
   */
  now?: () => number
  /**
   * What a caller gets while another fetches an origin that has no copy
   * yet: `'wait'` (default: it awaits the same fetch) or `'disallow-all'`
   * (rules that disallow everything, at once).
   */
  whenFetching?: 'wait' | 'disallow-all'
  /**
   * Told of every fetch that rejected or timed out (each is stored as a
   * network error), for your logs. What it throws is ignored.
   */
  onFetchError?: (error: unknown, context: FetchErrorContext) => void
}

/** Options of a call that may wait. */
export interface WaitOptions {
  /**
   * Cancels this call: it rejects with `signal.reason` (an `AbortError`
   * `DOMException` unless you gave another reason).
   */
  signal?: AbortSignal | null
}

/**
 * The robots.txt of every site a crawler visits, one copy per origin
 * (`scheme://host[:port]`), fetched with your own async function and
 * refreshed on time (behaviour §6–§7). Concurrent calls for one origin share a
 * single fetch: while it is under way the other callers await the same
 * promise, or answer at once from the old copy while it is being
 * refreshed. A fetch that rejects or outlives `leaseMs` is stored as a
 * network error (disallow everything, retry later; an old copy keeps
 * answering), never thrown.
 *
 * ```js
 * import { RobotsCache, httpFetcher } from 'robotstxt-engine'
 * const robots = new RobotsCache({ fetch: httpFetcher({ userAgent: 'ExampleBot/1.0' }) })
 * const rules = await robots.rulesFor('https://example.com/a/b', 'ExampleBot')
 * if (rules.isAllowed('https://example.com/a/b')) { ... }
 * ```
 */
export declare class RobotsCache {
  /**
   * An empty cache that fetches with `options.fetch`.
   *
   * @throws {TypeError} no fetch function, or an option of the wrong type
   *   (`code` `'ERR_INVALID_ARG_TYPE'`).
   * @throws {RangeError} an unknown option, or a value out of range
   *   (`'ERR_ROBOTSTXT_INVALID_OPTION'`, `'ERR_OUT_OF_RANGE'`).
   */
  constructor(options: RobotsCacheOptions)
  /**
   * The rules for the crawler `token` at `url`: from a fresh copy of the
   * origin's robots.txt, from the old copy while it is refreshed or
   * unreachable, or blanket rules that allow or disallow everything
   * (404 → allow, 5xx or network error with no copy → disallow). Fetches
   * when the copy is missing or due, once per origin however many callers
   * ask.
   *
   * Rejects with a `TypeError` or `RangeError` for a bad argument
   * (`'ERR_ROBOTSTXT_INVALID_URL'`: not an absolute `http`/`https` URL;
   * `'ERR_ROBOTSTXT_INVALID_TOKEN'`), with `signal.reason` when cancelled
   * (the fetch goes on for the other callers), and never for a failed
   * fetch.
   */
  rulesFor(url: string | Uint8Array, token: string | Uint8Array, options?: WaitOptions): Promise<Rules>
  /**
   * What answers for `url`'s origin, as `rulesFor` finds it: the parsed
   * file (`answer.robots`, with its sitemaps) or a blanket answer; call
   * `answer.rulesFor(token)` for the rules. Rejects as `rulesFor` does.
   * The callers of one fetch share its answer: close it only when no other
   * caller may still be using it.
   */
  answerFor(url: string | Uint8Array, options?: WaitOptions): Promise<CachedAnswer>
  /**
   * Forgets `url`'s origin; returns whether it was held.
   *
   * @throws {RangeError} not an absolute `http`/`https` URL.
   */
  remove(url: string | Uint8Array): boolean
  /** The counters of the native cache since this one was made. */
  get stats(): CacheStats
  /** How many origins are held. */
  get size(): number
  /** How many fetches are under way. */
  get fetching(): number
  /**
   * Closes the native cache and frees its copies at once; the fetches
   * under way are aborted and their callers reject. Any use after this
   * throws (or rejects with) an `Error` with `code`
   * `'ERR_ROBOTSTXT_CLOSED'`. Closing twice does nothing.
   */
  close(): void
  /** `close()`, for `using`. */
  [Symbol.dispose](): void
}

/** The pacer's settings, and its clock. */
export interface PacerClockOptions extends PacerOptions {
  /**
   * The clock, in epoch milliseconds: `Date.now` by default. It must run
   * with real time, as `wait` sleeps with timers until the clock reaches
   * the slot; `() => performance.timeOrigin + performance.now()` is a
   * monotonic one. `reserve` and `record` use it when no `now` is given.
   */
  now?: () => number
}

/**
 * The native pacer (behaviour §8: per host, request starts at least
 * `max(floorMs, crawl-delay, request-rate interval)` apart, widened by 429
 * and 5xx, one request in flight at a time by default), with a clock and
 * `wait`.
 *
 * ```js
 * const pacer = new Pacer()                   // floorMs: 1000, maxInFlight: 1
 * pacer.setRules(host, rules)                 // the site's crawl-delay
 * await pacer.wait(host, { signal })          // sleeps until this request may go
 * const outcome = { status: null }            // a network error unless a response comes
 * try {
 *   const res = await fetch(url)
 *   outcome.status = res.status
 *   outcome.retryAfterMs = retryAfterMs(res.headers.get('retry-after'))
 * } finally {
 *   pacer.record(host, outcome)               // the request ended: frees its place
 * }
 * ```
 */
export declare class Pacer extends NativePacer {
  /**
   * A pacer with no hosts yet.
   *
   * @throws {TypeError} an option of the wrong type.
   * @throws {RangeError} an unknown option, or a value out of range.
   */
  constructor(options?: PacerClockOptions | null)
  /**
   * Reserves the next start slot for `host` (at `now`, by default the
   * pacer's clock): a `Ticket` whose `start` says when the request may
   * start, or `null` while the host is switched off. `wait` does this,
   * the sleep and the `confirm` for you.
   *
   * @throws {TypeError} an argument of the wrong type.
   * @throws {RangeError} an empty or over-long host
   *   (`ERR_ROBOTSTXT_INVALID_HOST`).
   * @throws {Error} `ERR_ROBOTSTXT_PACER_FULL`: a new host, and no host
   *   can be forgotten safely.
   */
  reserve(host: string | Uint8Array, now?: number | null): Ticket | null
  /**
   * The native `confirm`, at `now` by default the pacer's clock.
   *
   * @throws {TypeError} `ticket` is not a `Ticket`, or a bad `now`.
   * @throws {Error} `ERR_ROBOTSTXT_INVALID_TICKET`: a ticket of another
   *   pacer, or one already spent or cancelled.
   */
  confirm(ticket: Ticket, now?: number | null): Confirmation
  /**
   * How many requests to `host` are in flight at `now` (by default the
   * pacer's clock).
   *
   * @throws {TypeError} an argument of the wrong type.
   * @throws {RangeError} an invalid host.
   */
  inFlight(host: string | Uint8Array, now?: number | null): number
  /**
   * Reports how a request to `host` that ended at `now` (by default the
   * pacer's clock) went, and frees its in-flight place: call it when every
   * request that `wait` let go ends, answered or not (`{ status: null }`
   * for a network error), or the next request to the host waits until the
   * place times out (`inFlightTimeoutMs`, 2 minutes). A 429 or 5xx widens
   * the gap, a `retryAfterMs` holds every request back until then; the
   * waits under way see it at once.
   *
   * @throws {TypeError} an argument of the wrong type.
   * @throws {RangeError} an invalid host, or a value out of range.
   */
  record(host: string | Uint8Array, outcome: RequestOutcome, now?: number | null): void
  /**
   * Switches `host` off or back on (a kill switch). Switching it off also
   * rejects the `wait`s under way for it (`'ERR_ROBOTSTXT_HOST_DISABLED'`).
   *
   * @throws {TypeError} an argument of the wrong type.
   * @throws {RangeError} an invalid host.
   */
  setEnabled(host: string | Uint8Array, enabled: boolean): void
  /**
   * The native `setDelay`; the waits under way for `host` see a slower
   * pace at once.
   *
   * @throws {TypeError} an argument of the wrong type.
   * @throws {RangeError} an invalid host, a negative delay, or a rate
   *   that is not whole numbers ≥ 1.
   */
  setDelay(host: string | Uint8Array, pace: Pace): void
  /**
   * The native `setRules`; the waits under way for `host` see a slower
   * pace at once.
   *
   * @throws {TypeError} `rules` is not a `Rules`, or a bad host type.
   * @throws {RangeError} an invalid host.
   */
  setRules(host: string | Uint8Array, rules: Rules): void
  /**
   * Frees the native pacer at once; the waits under way reject with an
   * `Error` whose `code` is `'ERR_ROBOTSTXT_CLOSED'`, as does any use
   * after this. Closing twice does nothing.
   */
  close(): void
  /** `close()`, for `using`. */
  [Symbol.dispose](): void
  /**
   * Waits until a request to `host` may be sent: reserves a ticket,
   * sleeps until its slot, then confirms it, and sleeps and confirms again
   * for as long as the pacer says to wait (a request in flight, a backoff,
   * a `Retry-After`, a slower pace recorded meanwhile). A `record`,
   * `setEnabled`, `setDelay` or `setRules` for the host wakes it at once.
   * Resolves with the time the request was let go (epoch ms by the
   * pacer's clock): it is then in flight, and **you must call
   * `pacer.record(host, { status, retryAfterMs })` when it ends**, which
   * frees its place. Starts are at least the gap apart, however many
   * workers wait.
   *
   * Rejects with an `Error` whose `code` is `'ERR_ROBOTSTXT_HOST_DISABLED'`
   * (and `host` the host) when the host is switched off, now or while
   * waiting; with `signal.reason` when cancelled (the ticket is cancelled:
   * its slot goes back when it is the last one handed out); with a
   * `TypeError` or `RangeError` for a bad host.
   */
  wait(host: string | Uint8Array, options?: WaitOptions): Promise<number>
}

/** How `httpFetcher` fetches. */
export interface HttpFetcherOptions {
  /** The `User-Agent` header to send; none (your `fetch`'s own) by default. */
  userAgent?: string
  /** The fetch to use: `globalThis.fetch` by default. */
  fetch?: typeof globalThis.fetch
  /** More request headers, as header name → value. */
  headers?: Record<string, string>
  /** At most this many bytes of a 2xx body are read: 4 MiB by default. */
  maxBytes?: number
  /**
   * At most this many redirects are followed (20 by default); a redirect
   * beyond is reported as the 3xx it is (disallow everything, retry later).
   */
  maxRedirects?: number
  /**
   * A `Cache-Control: max-age` shorter than this is raised to it, so that
   * `max-age=0` does not turn every page into a robots.txt fetch: 60,000
   * by default (0 honours any max-age).
   */
  minMaxAgeMs?: number
}

/**
 * A `RobotsCache` fetch function over Node's `fetch` (or yours): it sends
 * the validators (`If-None-Match`, `If-Modified-Since`) and the user agent,
 * follows redirects itself so that it can count them (behaviour §6: more than
 * five reaching a 2xx means allow everything), reads at most `maxBytes` of
 * the body, and reports `max-age`, `Retry-After`, `ETag` and
 * `Last-Modified` as the core reads them (behaviour §11; a value it cannot
 * read is left out). A network error rejects (stored as such).
 *
 * @throws {TypeError} an option of the wrong type.
 * @throws {RangeError} an unknown option, or a value out of range.
 */
export declare function httpFetcher(options?: HttpFetcherOptions | null): RobotsFetch

/**
 * A `Retry-After` header in milliseconds from `now` (epoch ms, default
 * `Date.now()`), as the core reads it (behaviour §11): a number of seconds,
 * or an HTTP date in any of its three forms, always GMT whatever the
 * process's time zone (0 once past). Waits past 2^31 seconds are read as
 * that. `undefined` for no header or one that is neither. Fits
 * `pacer.record`'s `retryAfterMs`.
 *
 * ```js
 * retryAfterMs('120')                            // 120000
 * retryAfterMs('Sun Nov  6 08:51:37 1994', Date.UTC(1994, 10, 6, 8, 49, 37)) // 120000
 * retryAfterMs(res.headers.get('retry-after'))   // undefined without the header
 * ```
 *
 * @throws {TypeError} `value` is not a string, `null` or `undefined`, or
 *   `now` is not a number.
 * @throws {RangeError} `now` is negative or not finite.
 */
export declare function retryAfterMs(value: string | null | undefined, now?: number): number | undefined
