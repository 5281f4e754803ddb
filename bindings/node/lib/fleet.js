'use strict'

// Fleets: SharedCache (the local Cache's lookup/store/abandon), the
// SharedRobotsCache built on it, and SharedPacer keep robots.txt copies and
// per-host pace in Redis, so that many worker processes (on many machines)
// fetch each robots.txt once and pace each host like one crawler. The core
// decides (its stored-copy encoding, its pace arithmetic); every shared
// step runs in Redis as one of the core's Lua scripts (`fleetScript`),
// atomically and on Redis's clock. Any Redis client with ioredis's
// `callBuffer(command, ...args)` works (ioredis itself, or an adapter).
//
// Keys, under a prefix of your choosing (default 'robotstxt:'), with the
// origin or host in braces so that each step's keys share a cluster slot:
//   <prefix>copy:{<origin>}   hash: data (Entry.encode), version, due, fence
//   <prefix>lease:{<origin>}  the fetch lease's fencing token and end, PX leaseMs
//   <prefix>pace:{<host>}     hash: next, last, nb, delay, factor, off, gen
//   <prefix>flight:{<host>}   sorted set: in-flight places by expiry
//
// Types and the full JSDoc are in fleet.d.ts.

const { createHash } = require('node:crypto')

const native = require('../index.js')
const {
  withCode, wrongType, isObject, signalOf, closedError, abortable, hostDisabled
} = require('./args.js')
const { RobotsCache, Pacer } = require('./polite.js')

const ERR_INVALID_ARG_TYPE = 'ERR_INVALID_ARG_TYPE'
const ERR_INVALID_OPTION = 'ERR_ROBOTSTXT_INVALID_OPTION'
const ERR_HOST_DISABLED = 'ERR_ROBOTSTXT_HOST_DISABLED'
const ERR_REDIS = 'ERR_ROBOTSTXT_REDIS'
const ERR_INVALID_TICKET = 'ERR_ROBOTSTXT_INVALID_TICKET'
const ERR_INVALID_LEASE = 'ERR_ROBOTSTXT_INVALID_LEASE'
const ERR_OUT_OF_RANGE = 'ERR_OUT_OF_RANGE'
const ERR_CLOSED = 'ERR_ROBOTSTXT_CLOSED'

const DAY_MS = 86_400_000
const DEFAULT_LEASE_MS = 60_000
const MAX_TIMER_MS = 2 ** 31 - 1
/** A worker waiting for another's fetch looks again at least this often. */
const POLL_MS = 250

function sleep (ms, signal) {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason)
    const onAbort = () => {
      clearTimeout(timer)
      reject(signal.reason)
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort)
      resolve()
    }, Math.min(Math.max(Math.ceil(ms), 0), MAX_TIMER_MS))
    signal?.addEventListener('abort', onAbort, { once: true })
  })
}

function text (value) {
  return Buffer.isBuffer(value) ? value.toString('utf8') : String(value)
}

/** The error of a Redis call that failed, with the step and the cause. */
function redisError (step, cause) {
  return withCode(new Error(`Redis failed during ${step}: ${cause?.message ?? cause}`, { cause }), ERR_REDIS)
}

/**
 * Runs the core's fleet scripts on one Redis client: EVALSHA, and EVAL
 * once when the server does not have a script yet (or lost it in a
 * restart).
 */
class Scripts {
  #redis
  #sources = new Map()

  constructor (redis, what) {
    if (!isObject(redis) || typeof redis.callBuffer !== 'function') {
      throw wrongType(what, 'a Redis client with callBuffer(command, ...args) (ioredis)', redis)
    }
    this.#redis = redis
  }

  async run (name, keys, args) {
    let script = this.#sources.get(name)
    if (script === undefined) {
      const source = native.fleetScript(name)
      script = { source, sha: createHash('sha1').update(source).digest('hex') }
      this.#sources.set(name, script)
    }
    try {
      return await this.#redis.callBuffer('EVALSHA', script.sha, keys.length, ...keys, ...args)
    } catch (error) {
      if (!/NOSCRIPT/.test(error?.message)) throw error
      return await this.#redis.callBuffer('EVAL', script.source, keys.length, ...keys, ...args)
    }
  }
}

function prefixOf (prefix, what) {
  if (prefix === undefined) return 'robotstxt:'
  if (typeof prefix !== 'string') throw wrongType(what, 'a string', prefix)
  return prefix
}

function clockOf (now, what) {
  if (now === undefined || now === null) return undefined
  if (typeof now !== 'function') throw wrongType(what, 'a function returning epoch milliseconds', now)
  return now
}

function positive (value, what, fallback) {
  if (value === undefined) return fallback
  if (typeof value !== 'number') throw wrongType(what, 'a number', value)
  if (!Number.isInteger(value) || value < 1) {
    throw withCode(new RangeError(`${what} must be a whole number of milliseconds ≥ 1, not ${value}`), ERR_INVALID_OPTION)
  }
  return value
}

let warned = false
function warnFallback (className, error) {
  if (warned) return
  warned = true
  process.emitWarning(`${className}: Redis is unreachable (${error.message}); this worker falls back to its own ` +
    'cache and pacer, which the rest of the fleet does not see', { code: 'ROBOTSTXT_REDIS_FALLBACK' })
}

// ---------------------------------------------------------------------------
// SharedCache: the low-level surface

/** A lease handed out by a SharedCache → what storing it needs. */
const leaseStates = new WeakMap()

// What SharedRobotsCache asks of its SharedCache besides the public
// surface; the symbols stay in this file.
const peek = Symbol('peek')
const storeAnswering = Symbol('storeAnswering')
const failSafe = Symbol('failSafe')
const clock = Symbol('clock')

// The native answer with a given retryAt, for this file alone.
const cachedAnswerUntil = native.Entry.prototype._cachedAnswerUntil
delete native.Entry.prototype._cachedAnswerUntil

/** The error the local cache throws for a lease it will not take. */
function invalidLease (reason) {
  return withCode(new Error(`the lease ${reason}: store or abandon each lease once, with the cache that handed it ` +
    'out, before it runs out (leaseMs)'), ERR_INVALID_LEASE)
}

function whenFetchingOf (value, what) {
  if (value === undefined || value === 'wait' || value === 'disallow-all') return value ?? 'wait'
  if (typeof value !== 'string') throw wrongType(what, 'a string', value)
  throw withCode(new RangeError(`${what} must be one of "wait", "disallow-all", not ${JSON.stringify(value)}`),
    ERR_INVALID_OPTION)
}

/** A `now` argument: epoch ms, or undefined for the cache's clock. */
function nowOf (value) {
  if (value === undefined || value === null) return undefined
  if (typeof value !== 'number') throw wrongType('now', 'a number of epoch milliseconds', value)
  if (!(value >= 0) || value === Infinity) {
    throw withCode(new RangeError(`now must be a finite number of milliseconds ≥ 0, not ${value}`), ERR_OUT_OF_RANGE)
  }
  return value
}

/** A lookup's answer, shaped as the local cache's: what does not apply is null. */
function ready (answer, stale, retryAt = answer.retryAt) {
  return { kind: 'ready', answer, stale, retryAt, lease: null, until: null }
}

/**
 * The local Cache's low-level surface (lookup, store, abandon) over a copy
 * per origin kept in Redis for a whole fleet: a lookup says *fetch now* to
 * one worker of the fleet per origin, under a fenced lease, and that
 * worker stores what it got. Each worker keeps the copies it uses parsed,
 * by version: while a copy is fresh, a lookup is a local call.
 */
class SharedCache {
  #scripts
  #prefix
  #now
  #leaseMs
  #keepMs
  #capacity
  #freshness
  /** Redis's clock minus ours, from the last reply read by Redis's clock. */
  #offset = 0
  /** origin → { version, bytes, entry }: the copies this worker holds, least recently used first. */
  #copies = new Map()
  #stats = { hits: 0, misses: 0, fetches: 0, stale: 0, evictions: 0, redisErrors: 0 }
  #closed = false

  constructor (options) {
    if (!isObject(options)) throw wrongType('options', 'an object with redis', options)
    const { redis, prefix, now, leaseMs, keepMs, capacity, ...freshness } = options
    this.#scripts = new Scripts(redis, 'options.redis')
    new native.Entry(freshness).close() // checks the freshness options, names and values
    this.#prefix = prefixOf(prefix, 'options.prefix')
    this.#now = clockOf(now, 'options.now')
    this.#leaseMs = Math.min(positive(leaseMs, 'options.leaseMs', DEFAULT_LEASE_MS), MAX_TIMER_MS)
    this.#keepMs = positive(keepMs, 'options.keepMs', 31 * DAY_MS)
    this.#capacity = positive(capacity, 'options.capacity', 10_000)
    this.#freshness = freshness
  }

  /** As `cache.lookup`: `{ kind, answer, stale, retryAt, lease, until }`. */
  async lookup (url, now, whenFetching) {
    const given = nowOf(now)
    const when = whenFetchingOf(whenFetching, 'whenFetching')
    this.#open()
    const origin = native.robotsOrigin(url) // throws for a URL with no robots.txt
    return this[peek](origin, given) ?? this.#ask(origin, given, when)
  }

  /** As `cache.store`: what the outcome meant, once Redis took the copy. */
  async store (lease, outcome, now) {
    const done = await this[storeAnswering](lease, outcome, now)
    if (done.error !== undefined) throw done.error
    if (!done.stored) throw invalidLease('ran out, or its origin was handed to another caller since')
    return done.access
  }

  /** As `cache.abandon`: the next lookup of the fleet hands the fetch out again. */
  async abandon (lease) {
    const state = this.#take(lease)
    state.ended = true
    await this.#run('abandon', [state.keys[1]], [state.token])
  }

  /** Forgets this worker's copy of `url`'s origin (the fleet's stays). */
  remove (url) {
    this.#open()
    const origin = native.robotsOrigin(url)
    const copy = this.#copies.get(origin)
    if (copy === undefined) return false
    this.#copies.delete(origin)
    copy.entry.close()
    return true
  }

  get stats () {
    return { ...this.#stats, entries: this.#copies.size }
  }

  get size () {
    return this.#copies.size
  }

  close () {
    if (this.#closed) return
    this.#closed = true
    for (const { entry } of this.#copies.values()) entry.close()
    this.#copies.clear()
  }

  [Symbol.dispose] () {
    SharedCache.prototype.close.call(this)
  }

  /** Now, by the clock given, else by Redis's (as of the last reply). */
  [clock] () {
    return this.#now !== undefined ? this.#now() : Date.now() + this.#offset
  }

  /** The held copy's answer while it is fresh (no Redis call), or undefined. */
  [peek] (origin, now) {
    const copy = this.#copies.get(origin)
    if (copy === undefined) return undefined
    const at = now ?? this[clock]()
    if (copy.entry.isDue(at)) return undefined
    this.#copies.delete(origin) // now the most recently used
    this.#copies.set(origin, copy)
    const stale = copy.entry.failures > 0
    this.#stats[stale ? 'stale' : 'hits'] += 1
    return ready(copy.entry.cachedAnswer(at), stale)
  }

  /**
   * Redis failed: the copy held answers, due or not (as an unreachable
   * robots.txt keeps the old copy); with none, nothing is allowed.
   */
  [failSafe] (url) {
    const now = this[clock]()
    const copy = this.#copies.get(native.robotsOrigin(url))
    if (copy !== undefined) return copy.entry.cachedAnswer(now)
    const entry = new native.Entry(this.#freshness)
    try {
      return entry.cachedAnswer(now)
    } finally {
      entry.close()
    }
  }

  /**
   * Stores as `store` does, and says what answers from the outcome:
   * `{ access, answer, stored, error }`; `stored` false when Redis refused
   * the lease, `error` the Redis failure. An outcome that is no
   * FetchOutcome throws and leaves the lease open.
   */
  async [storeAnswering] (lease, outcome, now) {
    const state = this.#take(lease)
    const given = nowOf(now)
    const at = given ?? this[clock]()
    const entry = state.base === undefined
      ? new native.Entry(this.#freshness)
      : native.Entry.decode(state.base, this.#freshness)
    let access
    try {
      access = entry.record(outcome, at)
    } catch (error) {
      entry.close()
      throw error
    }
    state.ended = true
    // The body the copy now comes from: this one, or the one kept.
    const body = access === 'follow-rules'
      ? outcome.body
      : state.base === undefined ? null : native.Entry.storedBody(state.base)
    const bytes = entry.encode(body)
    const answer = entry.cachedAnswer(at)
    const nowArg = given !== undefined || this.#now !== undefined ? String(Math.floor(at)) : ''
    let version
    try {
      version = text(await this.#run('store', state.keys, [state.token, bytes, entry.dueAt, this.#keepMs, nowArg]))
    } catch (error) {
      // Redis down: this worker answers from what it fetched meanwhile.
      this.#put(lease.origin, { version: '', bytes, entry })
      return { access, answer, stored: false, error }
    }
    if (version === '') {
      // A worker whose lease ran out never overwrites the fleet's copy,
      // nor holds its own: the next lookup reads the fleet's.
      entry.close()
      return { access, answer, stored: false }
    }
    this.#put(lease.origin, { version, bytes, entry })
    return { access, answer, stored: true }
  }

  #open () {
    if (this.#closed) throw closedError('SharedCache')
  }

  #keys (origin) {
    return [`${this.#prefix}copy:{${origin}}`, `${this.#prefix}lease:{${origin}}`]
  }

  /** Runs script `name`, counting a failure and naming it (`ERR_ROBOTSTXT_REDIS`). */
  async #run (name, keys, args) {
    try {
      return await this.#scripts.run(name, keys, args)
    } catch (error) {
      this.#stats.redisErrors += 1
      throw redisError(name, error)
    }
  }

  /** The state of `lease`, checked to be this cache's and open. */
  #take (lease) {
    const state = isObject(lease) ? leaseStates.get(lease) : undefined
    if (state === undefined) throw wrongType('lease', 'a lease from sharedCache.lookup', lease)
    this.#open()
    if (state.cache !== this) throw invalidLease('belongs to another cache')
    if (state.ended) throw invalidLease('was already stored or abandoned')
    return state
  }

  /** One look at Redis for `origin`, whose held copy (if any) is due. */
  async #ask (origin, given, whenFetching) {
    const keys = this.#keys(origin)
    const held = this.#copies.get(origin)
    const nowArg = given !== undefined ? String(Math.floor(given)) : this.#now !== undefined ? String(Math.floor(this.#now())) : ''
    const reply = await this.#run('lookup', keys, [this.#leaseMs, nowArg, held?.version ?? ''])
    const [kindRaw, redisNow, versionRaw, , tokenOrLeft, data] = reply
    const kind = text(kindRaw)
    const now = Number(redisNow)
    if (nowArg === '') this.#offset = now - Date.now()
    if (this.#closed) {
      if (kind === 'fetch') this.#scripts.run('abandon', [keys[1]], [text(tokenOrLeft)]).catch(() => {})
      throw closedError('SharedCache')
    }
    let copy = held
    if (data.length > 0) {
      copy = this.#adopt(origin, text(versionRaw), data)
    } else if (held !== undefined && this.#copies.get(origin) !== held) {
      // Dropped or replaced while Redis answered: read back from its bytes.
      copy = this.#adopt(origin, held.version, held.bytes)
    }
    if (kind === 'fresh') {
      const stale = copy.entry.failures > 0
      this.#stats[stale ? 'stale' : 'hits'] += 1
      return ready(copy.entry.cachedAnswer(now), stale)
    }
    if (kind === 'wait') {
      if (copy?.entry.hasCopy) {
        this.#stats.stale += 1
        return ready(copy.entry.cachedAnswer(now), true)
      }
      this.#stats.misses += 1
      const until = now + Number(text(tokenOrLeft))
      if (whenFetching === 'wait') return { kind: 'wait', answer: null, stale: null, retryAt: null, lease: null, until }
      // Disallow-all (behaviour §6) until the other worker's lease runs out.
      const entry = copy?.entry ?? new native.Entry(this.#freshness)
      try {
        return ready(cachedAnswerUntil.call(entry, now, until), false)
      } finally {
        if (copy === undefined) entry.close()
      }
    }
    this.#stats.fetches += 1
    if (!copy?.entry.hasCopy) this.#stats.misses += 1
    const validators = copy?.entry.validators ?? { etag: null, lastModified: null }
    const lease = Object.freeze({
      origin, robotsUrl: `${origin}/robots.txt`, etag: validators.etag, lastModified: validators.lastModified
    })
    leaseStates.set(lease, { cache: this, keys, token: text(tokenOrLeft), base: copy?.bytes, ended: false })
    return { kind: 'fetch', answer: null, stale: null, retryAt: null, lease, until: null }
  }

  #adopt (origin, version, data) {
    const copy = { version, bytes: data, entry: native.Entry.decode(data, this.#freshness) }
    this.#put(origin, copy)
    return copy
  }

  #put (origin, copy) {
    if (this.#closed) {
      copy.entry.close()
      return
    }
    const old = this.#copies.get(origin)
    if (old !== undefined && old.entry !== copy.entry) old.entry.close()
    this.#copies.delete(origin)
    this.#copies.set(origin, copy)
    if (this.#copies.size > this.#capacity) {
      const [oldest, { entry }] = this.#copies.entries().next().value
      entry.close()
      this.#copies.delete(oldest)
      this.#stats.evictions += 1
    }
  }
}

// ---------------------------------------------------------------------------
// SharedRobotsCache

/**
 * RobotsCache's surface over a SharedCache: one worker of the fleet
 * fetches when a copy is due; the others wait for it, or answer with the
 * copy they hold.
 */
class SharedRobotsCache {
  #cache
  #fetch
  #whenFetching
  #onFetchError
  #onRedisError
  #leaseMs
  #fallback
  /** origin → promise of its answer (or null: ask again), one per origin. */
  #rounds = new Map()
  #closed = false

  constructor (options) {
    if (!isObject(options)) throw wrongType('options', 'an object with redis and fetch', options)
    const {
      redis, fetch, prefix, now, whenFetching, onFetchError, onRedisError, localFallback,
      leaseMs, keepMs, capacity, ...freshness
    } = options
    if (typeof fetch !== 'function') {
      throw wrongType('options.fetch', 'an async function (robotsUrl, { origin, etag, lastModified, signal }) => FetchOutcome', fetch)
    }
    for (const [name, hook] of [['onFetchError', onFetchError], ['onRedisError', onRedisError]]) {
      if (hook !== undefined && typeof hook !== 'function') throw wrongType(`options.${name}`, 'a function', hook)
    }
    this.#whenFetching = whenFetchingOf(whenFetching, 'options.whenFetching')
    if (localFallback !== undefined && typeof localFallback !== 'boolean') {
      throw wrongType('options.localFallback', 'a boolean', localFallback)
    }
    this.#cache = new SharedCache({ redis, prefix, now, leaseMs, keepMs, capacity, ...freshness })
    this.#fetch = fetch
    this.#onFetchError = onFetchError
    this.#onRedisError = onRedisError
    this.#leaseMs = Math.min(leaseMs ?? DEFAULT_LEASE_MS, MAX_TIMER_MS)
    if (localFallback) {
      this.#fallback = new RobotsCache({ fetch, now, whenFetching, onFetchError, capacity, leaseMs, ...freshness })
    }
  }

  async rulesFor (url, token, options) {
    if (typeof token !== 'string' && !(token instanceof Uint8Array)) {
      throw wrongType('token', 'a string or a Uint8Array', token)
    }
    const answer = await this.answerFor(url, options)
    return answer.rulesFor(token)
  }

  async answerFor (url, options) {
    const signal = signalOf(options)
    this.#open()
    const origin = native.robotsOrigin(url) // throws for a URL with no robots.txt
    for (;;) {
      if (signal?.aborted) throw signal.reason
      this.#open()
      const held = this.#cache[peek](origin)
      if (held !== undefined) return held.answer
      let round = this.#rounds.get(origin)
      if (round === undefined) {
        round = this.#round(url).finally(() => this.#rounds.delete(origin))
        this.#rounds.set(origin, round)
      }
      const answer = await abortable(round, signal)
      if (answer !== null) return answer
    }
  }

  /** Forgets this worker's copy of `url`'s origin (the fleet's stays). */
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

  /** One lookup for `url`'s origin: the answer, or null to look again. */
  async #round (url) {
    let got
    try {
      got = await this.#cache.lookup(url, undefined, this.#whenFetching)
    } catch (error) {
      if (error.code !== ERR_REDIS) throw error
      return this.#redisDown(error, url)
    }
    if (got.kind === 'ready') return got.answer
    if (got.kind === 'wait') {
      await sleep(Math.min(got.until - this.#cache[clock](), POLL_MS))
      return null
    }
    return this.#fetchAndStore(got.lease)
  }

  /** Fetches under the fleet's lease, stores, and answers. */
  async #fetchAndStore (lease) {
    const { origin, robotsUrl } = lease
    const controller = new AbortController()
    const timer = setTimeout(() => controller.abort(new DOMException(
      `the fetch of ${robotsUrl} took longer than leaseMs (${this.#leaseMs} ms)`, 'TimeoutError')), this.#leaseMs)
    let outcome
    try {
      outcome = await this.#fetch(robotsUrl, {
        origin, etag: lease.etag, lastModified: lease.lastModified, signal: controller.signal
      })
    } catch (error) {
      outcome = { status: null } // a network error or a timeout (behaviour §6)
      this.#report(error, robotsUrl, origin)
    } finally {
      clearTimeout(timer)
    }
    let done
    try {
      done = await this.#cache[storeAnswering](lease, outcome)
    } catch (error) {
      if (error.code === ERR_CLOSED) throw error
      await this.#cache.abandon(lease).catch((e) => this.#redisFailed(e))
      const Kind = error instanceof RangeError ? RangeError : TypeError
      throw withCode(new Kind(`the fetch function must resolve to a FetchOutcome ({ status, body, ... }): ${error.message}`,
        { cause: error }), error.code ?? ERR_INVALID_ARG_TYPE)
    }
    if (done.error !== undefined) this.#redisFailed(done.error)
    // Stored, refused (the lease ran out: the next lookup reads the
    // fleet's copy) or Redis down: it answers this round's callers.
    return done.answer
  }

  /**
   * Redis failed: fail safe (SharedCache's failSafe). With
   * `localFallback`, this worker fetches for itself.
   */
  async #redisDown (error, url) {
    this.#redisFailed(error)
    if (this.#fallback !== undefined) {
      warnFallback('SharedRobotsCache', error.cause ?? error)
      return this.#fallback.answerFor(url)
    }
    return this.#cache[failSafe](url)
  }

  #redisFailed (error) {
    if (error?.code !== ERR_REDIS) return
    try {
      this.#onRedisError?.(error)
    } catch {}
  }

  #report (error, robotsUrl, origin) {
    if (this.#onFetchError === undefined) return
    try {
      this.#onFetchError(error, { robotsUrl, origin })
    } catch {}
  }
}

let places = 0
/** Tickets confirmed 'go' or voided: confirmed again, they throw. */
const spent = new WeakSet()

/**
 * The pacer's surface over per-host pace kept in Redis for a whole fleet:
 * slots are handed out in order across every worker, and a backoff,
 * Retry-After or kill switch recorded by one holds back all.
 */
class SharedPacer {
  #scripts
  #prefix
  #now
  #options
  #fallback
  #onRedisError
  /**
   * Host → the delay (ms) this worker last set: a host whose state Redis
   * lost (a restart, or expiry) starts from it again (load_pace).
   */
  #delays = new Map()
  /** Names this worker's in-flight places in Redis. */
  #worker = `${process.pid}-${Math.random().toString(36).slice(2, 10)}`
  #closed = false

  constructor (options) {
    if (!isObject(options)) throw wrongType('options', 'an object with redis', options)
    const { redis, prefix, now, localFallback, onRedisError, retainMs, ...pacerOptions } = options
    this.#scripts = new Scripts(redis, 'options.redis')
    this.#prefix = prefixOf(prefix, 'options.prefix')
    this.#now = clockOf(now, 'options.now')
    if (onRedisError !== undefined && typeof onRedisError !== 'function') {
      throw wrongType('options.onRedisError', 'a function', onRedisError)
    }
    this.#onRedisError = onRedisError
    if (localFallback !== undefined && typeof localFallback !== 'boolean') {
      throw wrongType('options.localFallback', 'a boolean', localFallback)
    }
    // The native pacer checks the options, names and values, and says
    // what they come to.
    const checked = new native.Pacer(pacerOptions)
    checked.close()
    this.#options = [
      pacerOptions.floorMs ?? 1000, pacerOptions.backoffCapMs ?? 600_000, pacerOptions.maxInFlight ?? 1,
      pacerOptions.inFlightTimeoutMs ?? 120_000, positive(retainMs, 'options.retainMs', DAY_MS)
    ]
    if (localFallback) this.#fallback = new Pacer({ now, ...pacerOptions })
  }

  /** The next start slot for `host`: `{ host, start, generation }`, or null while switched off. */
  async reserve (host) {
    const key = native.pacerHost(host)
    const [start, generation] = await this.#run('reserve', key, [this.#known(key)])
    if (start === -1) return null
    return { host: key, start, generation }
  }

  /** Whether `ticket`'s request may go now: as `pacer.confirm`. */
  async confirm (ticket) {
    if (!isObject(ticket) || typeof ticket.host !== 'string' || !Number.isSafeInteger(ticket.start) ||
      !Number.isSafeInteger(ticket.generation)) {
      throw wrongType('ticket', 'a ticket from sharedPacer.reserve', ticket)
    }
    if (spent.has(ticket)) {
      throw withCode(new Error('the ticket was already confirmed or voided: confirm each ticket until it says ' +
        'go, or cancel it'), ERR_INVALID_TICKET)
    }
    const { answer } = await this.#confirm(ticket)
    return answer
  }

  /** Confirms `ticket`: the answer and Redis's time when it was given. */
  async #confirm (ticket) {
    places += 1
    const [code, start, generation, until, now] = await this.#run('confirm', ticket.host,
      [ticket.start, ticket.generation, `${this.#worker}-${places}`, this.#known(ticket.host)])
    ticket.start = start
    ticket.generation = generation
    if (code === 1 || code === 2) return { answer: { kind: 'wait', until, busy: code === 2 }, now }
    spent.add(ticket)
    return { answer: { kind: code === 0 ? 'go' : 'disabled', until: null, busy: false }, now }
  }

  /** Gives an unsent ticket's slot back, if it is the last one handed out. */
  async cancel (ticket) {
    if (!isObject(ticket) || typeof ticket.host !== 'string') {
      throw wrongType('ticket', 'a ticket from sharedPacer.reserve', ticket)
    }
    await this.#run('cancel', ticket.host, [ticket.start, ticket.generation])
  }

  /** How a request ended: `{ status, retryAfterMs }` (status null: no response). */
  async record (host, outcome) {
    if (!isObject(outcome)) throw wrongType('outcome', 'an object { status, retryAfterMs }', outcome)
    const { status, retryAfterMs } = outcome
    if (status !== null && !(Number.isInteger(status) && status >= 100 && status <= 999)) {
      throw wrongType('outcome.status', 'an HTTP status (100-999) or null', status)
    }
    if (retryAfterMs !== undefined && retryAfterMs !== null && !(Number.isFinite(retryAfterMs) && retryAfterMs >= 0)) {
      throw wrongType('outcome.retryAfterMs', 'a number of milliseconds ≥ 0, null or undefined', retryAfterMs)
    }
    const retry = retryAfterMs === undefined || retryAfterMs === null ? -1 : Math.floor(retryAfterMs)
    const key = native.pacerHost(host)
    try {
      await this.#run('record', key, [status ?? -1, retry, this.#known(key)])
    } catch (error) {
      // A request the fallback let go is reported to the fallback.
      if (this.#fallback === undefined || error.code !== ERR_REDIS) throw error
      this.#fallback.record(host, { status: status ?? null, retryAfterMs: retry === -1 ? undefined : retry })
    }
  }

  /** Sets `host`'s own pace from a crawler's rules. */
  async setRules (host, rules) {
    if (!(rules instanceof native.Rules)) throw wrongType('rules', 'a Rules from robots.rulesFor', rules)
    await this.setDelay(host, { crawlDelay: rules.crawlDelay, requestRate: rules.requestRate })
  }

  /** Sets `host`'s own pace: `{ crawlDelay, requestRate }`. */
  async setDelay (host, pace) {
    const ms = native.paceMs(pace)
    const key = native.pacerHost(host)
    await this.#run('set_delay', key, [ms])
    this.#delays.set(key, ms)
  }

  /** Switches `host` off, or back on. */
  async setEnabled (host, enabled) {
    if (typeof enabled !== 'boolean') throw wrongType('enabled', 'a boolean', enabled)
    const key = native.pacerHost(host)
    await this.#run('set_enabled', key, [enabled ? 1 : 0, this.#known(key)])
  }

  /** The gap (ms) now applied to `host`. */
  async gapMs (host) {
    return (await this.#run('pace_state', native.pacerHost(host), []))[0]
  }

  /** How many requests to `host` are in flight across the fleet. */
  async inFlight (host) {
    return (await this.#run('pace_state', native.pacerHost(host), []))[1]
  }

  /**
   * Reserves a slot for `host`, sleeps until it and confirms it, as often
   * as the fleet's pace says to wait; resolves with the start (epoch ms,
   * Redis's clock) when the request may be sent. Then send it and
   * `record` how it went.
   */
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
      let until = ticket.start
      for (;;) {
        await sleep(until - this.#clock(), signal)
        const { answer: got, now } = await this.#confirm(ticket)
        // The time the fleet's clock gave the go, not this worker's
        // estimate of it: starts from two workers compare exactly.
        if (got.kind === 'go') return now
        if (got.kind === 'disabled') throw hostDisabled(host)
        until = got.busy ? Math.min(got.until, this.#clock() + POLL_MS) : got.until
      }
    } catch (error) {
      if (error.code !== ERR_HOST_DISABLED) await this.cancel(ticket).catch(() => {})
      throw error
    }
  }

  close () {
    if (this.#closed) return
    this.#closed = true
    this.#fallback?.close()
  }

  [Symbol.dispose] () {
    SharedPacer.prototype.close.call(this)
  }

  /** The last Redis failure, until a call succeeds again. */
  #down = null
  #offset = 0

  #clock () {
    return this.#now !== undefined ? this.#now() : Date.now() + this.#offset
  }

  async #fallbackWait (host, signal) {
    warnFallback('SharedPacer', this.#down ?? new Error('no answer'))
    return this.#fallback.wait(host, { signal })
  }

  /** Runs pace script `name` for host key `key`; integers back. */
  async #run (name, key, args) {
    if (this.#closed) throw closedError('SharedPacer')
    const keys = [`${this.#prefix}pace:{${key}}`, `${this.#prefix}flight:{${key}}`]
    let reply
    try {
      reply = await this.#scripts.run(name, keys, [...this.#options, this.#nowArg(), ...args])
    } catch (error) {
      this.#down = error
      const wrapped = redisError(name, error)
      try {
        this.#onRedisError?.(wrapped)
      } catch {}
      throw wrapped
    }
    this.#down = null
    const values = Array.isArray(reply) ? reply.map(Number) : [Number(reply)]
    // reserve and confirm end with Redis's now: keep our clock on it.
    if (this.#now === undefined && (name === 'reserve' || name === 'confirm')) this.#offset = values.at(-1) - Date.now()
    return values
  }

  #nowArg () {
    return this.#now === undefined ? '' : String(Math.floor(this.#now()))
  }

  #known (key) {
    return this.#delays.get(key) ?? ''
  }
}

module.exports = { SharedCache, SharedRobotsCache, SharedPacer }
