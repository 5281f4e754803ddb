'use strict'

// Fleets: SharedCache, SharedRobotsCache and SharedPacer share robots.txt
// copies and per-host pace through Redis. The core holds the protocol (its
// FleetCache and FleetPacer, as the binding's `_fleet*` functions): a step
// names a script call, this file runs it on the Redis client (anything with
// ioredis's `callBuffer`) and hands the reply back, and the core says what
// it means. Kept here: the client calls, the timers, the lease renewal while
// a fetch goes on, the fail-safe. See docs/fleet.md; types in fleet.d.ts.

const { createHash } = require('node:crypto')
const { setTimeout: delay } = require('node:timers/promises')

const native = require('../index.js')
const { withCode, wrongType, isObject, signalOf, closedError, abortable, hostDisabled } = require('./args.js')
const { RobotsCache, Pacer } = require('./polite.js')

const ERR_REDIS = 'ERR_ROBOTSTXT_REDIS'
const ERR_UNSUPPORTED = 'ERR_ROBOTSTXT_UNSUPPORTED'
const ERR_INVALID_OPTION = 'ERR_ROBOTSTXT_INVALID_OPTION'
const MAX_TIMER_MS = 2 ** 31 - 1
/** A worker waiting for another's fetch, or for a place in flight, looks again at least this often. */
const POLL_MS = 250

function sleep (ms, signal) {
  return delay(Math.min(Math.max(ms, 0), MAX_TIMER_MS), undefined, { signal }).catch((error) => {
    throw signal?.aborted ? signal.reason : error
  })
}

/** `value` (undefined for null), or a TypeError unless it is a `type`. */
function optionOf (value, what, type, expected) {
  if (value !== undefined && value !== null && typeof value !== type) throw wrongType(what, expected, value)
  return value ?? undefined
}

function quietly (hook, ...args) {
  try {
    hook?.(...args)
  } catch {}
}

let warned = false
function warnFallback (className, error) {
  if (warned) return
  warned = true
  process.emitWarning(`${className}: Redis is unreachable (${error.message}); this worker falls back to its own ` +
    'cache and pacer, which the rest of the fleet does not see', { code: 'ROBOTSTXT_REDIS_FALLBACK' })
}

/**
 * One worker's native side of the protocol and its Redis client: runs
 * each step's call (EVALSHA; EVAL when Redis lacks the script, as after a
 * restart) and hands the reply to `read` until the core answers. An error
 * reply is handed back as a reply; a call that fails, or a reply the core
 * cannot read, throws ERR_ROBOTSTXT_REDIS after `failed(error)`.
 */
class Fleet {
  #redis
  #now
  #read
  #shas = new Map()

  constructor ({ redis, now }, core, read, failed) {
    if (typeof native._fleetCache !== 'function') {
      throw withCode(new Error('fleet mode needs the native addon: the WebAssembly build (backend \'wasm\') leaves ' +
        'the fleet protocol out to stay small; install on a platform with a native package, or build it from ' +
        'source (see the README, "Supported platforms")'), ERR_UNSUPPORTED)
    }
    if (!isObject(redis) || typeof redis.callBuffer !== 'function') {
      throw wrongType('options.redis', 'a Redis client with callBuffer(command, ...args) (ioredis)', redis)
    }
    this.#now = optionOf(now, 'options.now', 'function', 'a function returning epoch milliseconds')
    this.#redis = redis
    this.core = core()
    this.#read = read
    this.failed = failed
  }

  /** A step's time: the clock given, else a monotonic reading the core follows Redis's clock by. */
  at (given) {
    return [performance.now(), given ?? this.#now?.() ?? null]
  }

  async drive (got) {
    try {
      while (got?.step !== undefined) got = this.#read(this.core, got.step, await this.call(got.call))
      return got
    } catch (error) {
      if (error?.code === ERR_REDIS) this.failed(error)
      throw error
    }
  }

  async call ({ script, keys, args }) {
    let sha = this.#shas.get(script)
    if (sha === undefined) this.#shas.set(script, sha = createHash('sha1').update(native.fleetScript(script)).digest('hex'))
    try {
      return await this.#redis.callBuffer('EVALSHA', sha, keys.length, ...keys, ...args).catch((error) => {
        if (!/NOSCRIPT/.test(error?.message)) throw error
        return this.#redis.callBuffer('EVAL', native.fleetScript(script), keys.length, ...keys, ...args)
      })
    } catch (error) {
      if (error?.name === 'ReplyError') return error
      throw withCode(new Error(`Redis failed during ${script}: ${error?.message ?? error}`, { cause: error }), ERR_REDIS)
    }
  }
}

function whenFetchingOf (value, what) {
  if (value === undefined || value === 'wait' || value === 'disallow-all') return value ?? 'wait'
  if (typeof value !== 'string') throw wrongType(what, 'a string', value)
  throw withCode(new RangeError(`${what} must be one of "wait", "disallow-all", not ${JSON.stringify(value)}`),
    ERR_INVALID_OPTION)
}

/** A lease handed out by a SharedCache → its native handle. */
const leases = new WeakMap()
/** SharedCache → what SharedRobotsCache drives it by. */
const inside = new WeakMap()

function leaseOf (lease) {
  const handle = isObject(lease) ? leases.get(lease) : undefined
  if (handle === undefined) throw wrongType('lease', 'a lease from sharedCache.lookup', lease)
  return handle
}

/**
 * The local Cache's low-level surface (lookup, store, abandon) over one
 * copy per origin kept in Redis for a whole fleet (FleetCache).
 */
class SharedCache {
  #fleet
  #closed = false

  constructor (options) {
    if (!isObject(options)) throw wrongType('options', 'an object with redis', options)
    const { redis, now, ...cacheOptions } = options
    this.#fleet = new Fleet({ redis, now }, () => native._fleetCache(cacheOptions), native._fleetCacheReply,
      () => quietly(native._fleetRedisFailed, this.#fleet.core))
    inside.set(this, {
      begin: (url, when, now) => native._fleetLookup(this.#open(), url, ...this.#fleet.at(now),
        whenFetchingOf(when, 'whenFetching')),
      settle: (got) => this.#settle(got),
      store: (lease, outcome) => this.#store(lease, outcome),
      failSafe: (url) => native._fleetFailSafe(this.#open(), url, ...this.#fleet.at()),
      state: (until) => native._fleetCacheState(this.#open(), until, ...this.#fleet.at())
    })
  }

  async lookup (url, now, whenFetching) {
    return this.#settle(inside.get(this).begin(url, whenFetching, now))
  }

  async store (lease, outcome, now) {
    const done = await this.#store(lease, outcome, now)
    if (done.error !== undefined) throw done.error
    if (!done.stored) {
      throw withCode(new Error('the lease ran out, or its origin was handed to another caller since: store or ' +
        'abandon each lease once, with the cache that handed it out, before it runs out (leaseMs)'),
      'ERR_ROBOTSTXT_INVALID_LEASE')
    }
    return done.access
  }

  async abandon (lease) {
    await this.#fleet.drive(native._fleetAbandon(this.#open(), leaseOf(lease)))
  }

  async renew (lease) {
    const step = native._fleetRenew(this.#open(), leaseOf(lease), ...this.#fleet.at())
    return step !== null && this.#fleet.drive(step)
  }

  remove (url) {
    return native._fleetRemove(this.#open(), url)
  }

  get stats () {
    return inside.get(this).state(null).stats
  }

  get size () {
    return inside.get(this).state(null).size
  }

  close () {
    if (this.#closed) return
    this.#closed = true
    native._fleetCacheClose(this.#fleet.core)
  }

  [Symbol.dispose] () {
    SharedCache.prototype.close.call(this)
  }

  #open () {
    if (this.#closed) throw closedError('SharedCache')
    return this.#fleet.core
  }

  /** A lookup's steps to its answer, its lease a frozen object. */
  async #settle (got) {
    got = await this.#fleet.drive(got)
    if (got.lease !== null) {
      const { handle, ...lease } = got.lease
      leases.set(got.lease = Object.freeze(lease), handle)
    }
    return got
  }

  /**
   * Stores as `store` does: `{ access, answer, stored, error }`, `error`
   * the Redis failure (`answer` then the copy fetched, unless Redis's reply
   * could not be read). An outcome that is no FetchOutcome throws and
   * leaves the lease open.
   */
  async #store (lease, outcome, now) {
    const core = this.#open()
    const { step, call } = native._fleetStore(core, leaseOf(lease), outcome, ...this.#fleet.at(now))
    let reply
    try {
      reply = await this.#fleet.call(call)
    } catch (error) {
      // Redis down: this worker answers from what it fetched (counted).
      return { ...native._fleetStoreFailed(core, step), error }
    }
    try {
      return native._fleetCacheReply(core, step, reply)
    } catch (error) {
      if (error.code !== ERR_REDIS) throw error
      this.#fleet.failed(error)
      return { error }
    }
  }
}

/**
 * RobotsCache's surface over a SharedCache: one worker of the fleet
 * fetches when a copy is due, renewing its lease while the fetch goes on;
 * the others wait for it, or answer with the copy they hold.
 */
class SharedRobotsCache {
  #cache
  #fetch
  #whenFetching
  #onFetchError
  #onRedisError
  #fetchTimeoutMs = 60_000
  #fallback
  /** origin → promise of its answer (or null: ask again), one per origin. */
  #rounds = new Map()
  #closed = false

  constructor (options) {
    if (!isObject(options)) throw wrongType('options', 'an object with redis and fetch', options)
    const { fetch, whenFetching, onFetchError, onRedisError, localFallback, fetchTimeoutMs, ...cacheOptions } = options
    if (typeof fetch !== 'function') {
      throw wrongType('options.fetch', 'an async function (robotsUrl, { origin, etag, lastModified, signal }) => FetchOutcome', fetch)
    }
    this.#fetch = fetch
    this.#onFetchError = optionOf(onFetchError, 'options.onFetchError', 'function', 'a function')
    this.#onRedisError = optionOf(onRedisError, 'options.onRedisError', 'function', 'a function')
    optionOf(localFallback, 'options.localFallback', 'boolean', 'a boolean')
    const timeout = optionOf(fetchTimeoutMs, 'options.fetchTimeoutMs', 'number', 'a number') ?? this.#fetchTimeoutMs
    if (!(timeout >= 1)) {
      throw withCode(new RangeError(`options.fetchTimeoutMs must be a number of milliseconds ≥ 1, not ${timeout}`),
        ERR_INVALID_OPTION)
    }
    this.#fetchTimeoutMs = Math.min(timeout, MAX_TIMER_MS)
    this.#whenFetching = whenFetchingOf(whenFetching, 'options.whenFetching')
    this.#cache = new SharedCache(cacheOptions)
    if (localFallback) {
      const { redis, prefix, keepMs, ...local } = cacheOptions
      this.#fallback = new RobotsCache({ fetch, whenFetching, onFetchError, ...local })
    }
  }

  async rulesFor (url, token, options) {
    if (typeof token !== 'string' && !(token instanceof Uint8Array)) {
      throw wrongType('token', 'a string or a Uint8Array', token)
    }
    return (await this.answerFor(url, options)).rulesFor(token)
  }

  async answerFor (url, options) {
    const signal = signalOf(options)
    this.#open()
    const origin = native.robotsOrigin(url) // throws for a URL with no robots.txt
    for (;;) {
      if (signal?.aborted) throw signal.reason
      this.#open()
      const got = inside.get(this.#cache).begin(url, this.#whenFetching)
      if (got.kind === 'ready') return got.answer // a fresh copy held: no Redis call
      let round = this.#rounds.get(origin)
      if (round === undefined) {
        round = this.#round(url, got).finally(() => this.#rounds.delete(origin))
        this.#rounds.set(origin, round)
      }
      const answer = await abortable(round, signal)
      if (answer !== null) return answer
    }
  }

  remove (url) {
    this.#open()
    return this.#cache.remove(url)
  }

  get stats () {
    return this.#cache.stats
  }

  get size () {
    return this.#cache.size
  }

  close () {
    if (this.#closed) return
    this.#closed = true
    this.#cache.close()
    this.#fallback?.close()
  }

  [Symbol.dispose] () {
    SharedRobotsCache.prototype.close.call(this)
  }

  #open () {
    if (this.#closed) throw closedError('SharedRobotsCache')
  }

  /** One lookup for `url`'s origin from its first step: the answer, or null to look again. */
  async #round (url, first) {
    const cache = inside.get(this.#cache)
    let got
    try {
      got = await cache.settle(first)
    } catch (error) {
      if (error.code !== ERR_REDIS) throw error
      this.#redisFailed(error)
      if (this.#fallback === undefined) return cache.failSafe(url)
      warnFallback('SharedRobotsCache', error.cause ?? error)
      return this.#fallback.answerFor(url)
    }
    if (got.kind === 'ready') return got.answer
    if (got.kind === 'wait') {
      await sleep(Math.min(cache.state(got.until).msUntil, POLL_MS))
      return null
    }
    const { lease } = got
    const controller = new AbortController()
    const timer = setTimeout(() => controller.abort(new DOMException(
      `the fetch of ${lease.robotsUrl} took longer than fetchTimeoutMs (${this.#fetchTimeoutMs} ms)`, 'TimeoutError')),
    this.#fetchTimeoutMs)
    const renewal = setInterval(() => this.#cache.renew(lease).then((held) => held || clearInterval(renewal),
      (error) => error.code === ERR_REDIS ? this.#redisFailed(error) : clearInterval(renewal)),
    Math.min(cache.state(null).renewEveryMs, MAX_TIMER_MS))
    let outcome
    try {
      outcome = await this.#fetch(lease.robotsUrl, {
        origin: lease.origin, etag: lease.etag, lastModified: lease.lastModified, signal: controller.signal
      })
    } catch (error) {
      outcome = { status: null } // a network error or a timeout (behaviour §6)
      quietly(this.#onFetchError, error, { robotsUrl: lease.robotsUrl, origin: lease.origin })
    } finally {
      clearTimeout(timer)
      clearInterval(renewal)
    }
    let done
    try {
      done = await cache.store(lease, outcome)
    } catch (error) {
      if (error.code === 'ERR_ROBOTSTXT_CLOSED') throw error
      await this.#cache.abandon(lease).catch((e) => this.#redisFailed(e))
      const Kind = error instanceof RangeError ? RangeError : TypeError
      throw withCode(new Kind(`the fetch function must resolve to a FetchOutcome ({ status, body, ... }): ${error.message}`,
        { cause: error }), error.code ?? 'ERR_INVALID_ARG_TYPE')
    }
    // Stored, refused (the next lookup reads the fleet's copy) or Redis
    // down: it answers this round's callers; an unreadable reply, fail safe.
    if (done.error !== undefined) this.#redisFailed(done.error)
    return done.answer ?? cache.failSafe(url)
  }

  #redisFailed (error) {
    if (error?.code === ERR_REDIS) quietly(this.#onRedisError, error)
  }
}

/** A ticket handed out by a SharedPacer → its native handle. */
const tickets = new WeakMap()

/**
 * The pacer's surface over per-host pace kept in Redis for a whole fleet
 * (FleetPacer): slots in order across every worker, and a backoff,
 * Retry-After or kill switch recorded by one holds back all.
 */
class SharedPacer {
  #fleet
  #fallback
  /** The last Redis failure, until a call succeeds again. */
  #down = null
  #closed = false

  constructor (options) {
    if (!isObject(options)) throw wrongType('options', 'an object with redis', options)
    const { redis, now, localFallback, onRedisError, prefix, retainMs, ...pacerOptions } = options
    optionOf(onRedisError, 'options.onRedisError', 'function', 'a function')
    optionOf(localFallback, 'options.localFallback', 'boolean', 'a boolean')
    this.#fleet = new Fleet({ redis, now }, () => native._fleetPacer({ prefix, retainMs, ...pacerOptions }),
      native._fleetPacerReply, (error) => {
        this.#down = error
        quietly(onRedisError, error)
      })
    if (localFallback) this.#fallback = new Pacer({ now, ...pacerOptions })
  }

  async reserve (host) {
    const got = await this.#step('reserve', host, null)
    if (got === null) return null
    const { handle, ...ticket } = got
    tickets.set(ticket, handle)
    return ticket
  }

  async confirm (ticket) {
    const { kind, until, busy } = await this.#ticketStep('confirm', ticket)
    return { kind, until, busy }
  }

  async cancel (ticket) {
    await this.#ticketStep('cancel', ticket)
  }

  async record (host, outcome) {
    if (!isObject(outcome)) throw wrongType('outcome', 'an object { status, retryAfterMs }', outcome)
    const { status, retryAfterMs } = outcome
    if (status !== null && !(Number.isInteger(status) && status >= 100 && status <= 999)) {
      throw wrongType('outcome.status', 'an HTTP status (100-999) or null', status)
    }
    if (retryAfterMs !== undefined && retryAfterMs !== null && !(Number.isFinite(retryAfterMs) && retryAfterMs >= 0)) {
      throw wrongType('outcome.retryAfterMs', 'a number of milliseconds ≥ 0, null or undefined', retryAfterMs)
    }
    await this.#step('record', host, [status, retryAfterMs ?? null]).catch((error) => {
      // A request the fallback let go is reported to the fallback.
      if (this.#fallback === undefined || error.code !== ERR_REDIS) throw error
      this.#fallback.record(host, { status, retryAfterMs: retryAfterMs ?? undefined })
    })
  }

  async setRules (host, rules) {
    if (!(rules instanceof native.Rules)) throw wrongType('rules', 'a Rules from robots.rulesFor', rules)
    await this.setDelay(host, { crawlDelay: rules.crawlDelay, requestRate: rules.requestRate })
  }

  async setDelay (host, pace) {
    await this.#step('setDelay', host, native.paceMs(pace))
  }

  async setEnabled (host, enabled) {
    await this.#step('setEnabled', host, enabled)
  }

  async gapMs (host) {
    return (await this.#step('paceState', host, null)).gapMs
  }

  async inFlight (host) {
    return (await this.#step('paceState', host, null)).inFlight
  }

  async wait (host, options) {
    const signal = signalOf(options)
    if (signal?.aborted) throw signal.reason
    if (this.#fallback !== undefined && this.#down !== null) return this.#fallbackWait(host, signal)
    let ticket
    try {
      ticket = await this.reserve(host)
    } catch (error) {
      if (this.#fallback !== undefined && error.code === ERR_REDIS) return this.#fallbackWait(host, signal)
      throw error
    }
    if (ticket === null) throw hostDisabled(host)
    try {
      for (let got = { until: ticket.start, busy: false }; ;) {
        const ms = native._fleetPacerMsUntil(this.#open(), got.until, ...this.#fleet.at())
        await sleep(got.busy ? Math.min(ms, POLL_MS) : ms, signal)
        got = await this.#ticketStep('confirm', ticket)
        // The fleet's time of the go, not this worker's estimate of it:
        // starts from two workers compare exactly.
        if (got.kind === 'go') return got.at
        if (got.kind === 'disabled') throw hostDisabled(host)
      }
    } catch (error) {
      if (error.code !== 'ERR_ROBOTSTXT_HOST_DISABLED') await this.cancel(ticket).catch(() => {})
      throw error
    }
  }

  close () {
    if (this.#closed) return
    this.#closed = true
    native._fleetPacerClose(this.#fleet.core)
    this.#fallback?.close()
  }

  [Symbol.dispose] () {
    SharedPacer.prototype.close.call(this)
  }

  #open () {
    if (this.#closed) throw closedError('SharedPacer')
    return this.#fleet.core
  }

  async #fallbackWait (host, signal) {
    warnFallback('SharedPacer', this.#down ?? new Error('no answer'))
    return this.#fallback.wait(host, { signal })
  }

  async #step (what, host, arg) {
    return this.#settled(native._fleetPaceStep(this.#open(), what, host, arg, ...this.#fleet.at()))
  }

  async #ticketStep (what, ticket) {
    const handle = isObject(ticket) ? tickets.get(ticket) : undefined
    if (handle === undefined) throw wrongType('ticket', 'a ticket from sharedPacer.reserve', ticket)
    const got = await this.#settled(native._fleetTicketStep(this.#open(), what, handle, ...this.#fleet.at()))
    if (what === 'confirm') Object.assign(ticket, { start: got.start, generation: got.generation })
    return got
  }

  async #settled (step) {
    const got = await this.#fleet.drive(step)
    this.#down = null
    return got
  }
}

module.exports = { SharedCache, SharedRobotsCache, SharedPacer }
