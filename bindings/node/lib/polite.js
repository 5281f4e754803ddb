'use strict'

// The promise-based layer of the Node.js binding, written by hand over the
// generated ../index.js (which stays exactly as `napi build` writes it).
// The core does no I/O and reads no clock; this module adds the waiting:
//
// - RobotsCache: `await cache.rulesFor(url, token)`, with the robots.txt of
//   each origin fetched by your own async fetch function, once per origin
//   however many callers ask at the same moment (they share one promise);
// - Pacer: the core's pacer plus `await pacer.wait(host)`, which reserves a
//   ticket, sleeps until its slot and confirms it, as often as the pacer
//   says to wait;
// - httpFetcher and retryAfterMs: a fetch function for RobotsCache built on
//   Node's own fetch, and the Retry-After reading a crawler needs.
//
// Types and the full JSDoc are in polite.d.ts.

const native = require('../index.js')
const {
  withCode, wrongType, isObject, optionsOf, signalOf, textOf, closedError, abortable, hostDisabled
} = require('./args.js')

const ERR_INVALID_ARG_TYPE = 'ERR_INVALID_ARG_TYPE'
const ERR_INVALID_OPTION = 'ERR_ROBOTSTXT_INVALID_OPTION'
const ERR_OUT_OF_RANGE = 'ERR_OUT_OF_RANGE'
const ERR_INVALID_LEASE = 'ERR_ROBOTSTXT_INVALID_LEASE'

/** The core cache's default lease: how long a fetch may take. */
const DEFAULT_LEASE_MS = 60_000
/** setTimeout's largest delay; longer sleeps are taken in turns. */
const MAX_TIMER_MS = 2 ** 31 - 1
/** A caller with nobody's promise to share looks again this often. */
const POLL_MS = 1000

// ---------------------------------------------------------------------------
// Arguments (the rest: ./args.js).

function clockOf (now, what) {
  if (now === undefined) return Date.now
  if (typeof now !== 'function') throw wrongType(what, 'a function returning epoch milliseconds', now)
  return now
}

function isBytes (value) {
  return value instanceof Uint8Array
}

/** The key the core gives a host: ASCII-only lower case. */
function hostKey (host) {
  return textOf(host).replace(/[A-Z]+/g, (s) => s.toLowerCase())
}

/**
 * The origin the core keys `url` by, or undefined: the core reads origins
 * as a WHATWG URL parser does, so `new URL(url).origin` for every URL it
 * accepts. It only lets a caller find the promise of a fetch under way:
 * for a URL it cannot read, the caller polls instead.
 */
function originKey (url) {
  try {
    return new URL(textOf(url)).origin
  } catch {
    return undefined
  }
}

// ---------------------------------------------------------------------------
// RobotsCache

/**
 * A cache of robots.txt copies keyed by origin that fetches with your own
 * async function, once per origin at a time. See polite.d.ts.
 */
class RobotsCache {
  /** The core cache: its leases are handed out to this object only. */
  #cache
  #fetch
  #now
  #whenFetching
  #onFetchError
  #leaseMs
  /** Fetches under way: normalised origin → { promise } of its answer. */
  #rounds = new Map()
  /** Callers with no promise to share, woken when any fetch ends. */
  #pollers = new Set()
  #closed = false

  constructor (options) {
    if (!isObject(options)) throw wrongType('options', 'an object with a fetch function', options)
    const { fetch, now, whenFetching, onFetchError, ...cacheOptions } = options
    if (typeof fetch !== 'function') {
      throw wrongType('options.fetch', 'an async function (robotsUrl, { origin, etag, lastModified, signal }) => FetchOutcome', fetch)
    }
    if (onFetchError !== undefined && typeof onFetchError !== 'function') {
      throw wrongType('options.onFetchError', 'a function', onFetchError)
    }
    if (whenFetching !== undefined) {
      if (typeof whenFetching !== 'string') throw wrongType('options.whenFetching', 'a string', whenFetching)
      if (whenFetching !== 'wait' && whenFetching !== 'disallow-all') {
        throw withCode(new RangeError(`options.whenFetching must be one of "wait", "disallow-all", not ${JSON.stringify(whenFetching)}`),
          ERR_INVALID_OPTION)
      }
    }
    this.#now = clockOf(now, 'options.now')
    this.#cache = new native.Cache(cacheOptions) // checks the rest, names and values
    this.#fetch = fetch
    this.#whenFetching = whenFetching ?? 'wait'
    this.#onFetchError = onFetchError
    this.#leaseMs = Math.min(Math.floor(cacheOptions.leaseMs ?? DEFAULT_LEASE_MS), MAX_TIMER_MS)
  }

  async rulesFor (url, token, options) {
    if (typeof token !== 'string' && !isBytes(token)) {
      throw wrongType('token', 'a string or a Uint8Array', token)
    }
    const answer = await this.answerFor(url, options)
    return answer.rulesFor(token)
  }

  async answerFor (url, options) {
    const signal = signalOf(options)
    if (signal?.aborted) throw signal.reason
    for (;;) {
      this.#open()
      const now = this.#now()
      const got = this.#cache.lookup(url, now, this.#whenFetching)
      if (got.kind === 'ready') return got.answer
      let round
      if (got.kind === 'fetch') {
        round = this.#rounds.get(got.lease.origin)
        if (round === undefined) {
          round = this.#startFetch(got.lease, url)
        } else {
          // The core's lease ran out by its clock while ours still runs:
          // keep the one fetch under way.
          this.#cache.abandon(got.lease)
        }
      } else {
        round = this.#rounds.get(originKey(url))
      }
      const answer = round === undefined
        ? await this.#nextFetchEnd(got.until - now, signal)
        : await abortable(round.promise, signal)
      if (answer !== null) return answer
    }
  }

  remove (url) {
    this.#open()
    return this.#cache.remove(url)
  }

  get stats () {
    this.#open()
    return this.#cache.stats
  }

  get size () {
    this.#open()
    return this.#cache.size
  }

  get fetching () {
    return this.#rounds.size
  }

  close () {
    if (this.#closed) return
    this.#closed = true
    this.#cache.close()
    for (const round of [...this.#rounds.values()]) round.close()
    this.#wakePollers()
  }

  [Symbol.dispose] () {
    RobotsCache.prototype.close.call(this)
  }

  #open () {
    if (this.#closed) throw closedError('RobotsCache')
  }

  /**
   * Calls the fetch function for `lease` and returns the round every caller
   * for the origin awaits: its promise resolves to the stored answer, or
   * rejects when the fetch function resolved to something that is not a
   * FetchOutcome (a bug to fix; the lease is then given back).
   */
  #startFetch (lease, url) {
    const origin = lease.origin
    let resolve, reject
    const promise = new Promise((res, rej) => {
      resolve = res
      reject = rej
    })
    promise.catch(() => {}) // whoever still waits gets the rejection
    const round = {
      promise,
      close: () => {
        if (ended) return
        ended = true
        clearTimeout(timer)
        this.#rounds.delete(origin)
        const error = closedError('RobotsCache')
        controller.abort(error)
        reject(error)
      }
    }
    this.#rounds.set(origin, round)
    const controller = new AbortController()
    let ended = false
    const end = (outcome) => {
      if (ended) return false // an answer after the lease ran out is dropped
      ended = true
      clearTimeout(timer)
      this.#rounds.delete(origin)
      try {
        resolve(this.#store(lease, url, outcome))
      } catch (error) {
        reject(error)
      }
      this.#wakePollers()
      return true
    }
    const timer = setTimeout(() => {
      const reason = new DOMException(
        `the fetch of ${lease.robotsUrl} took longer than leaseMs (${this.#leaseMs} ms)`, 'TimeoutError')
      if (end({ status: null })) { // a timeout (behaviour §6)
        controller.abort(reason)
        this.#report(reason, lease)
      }
    }, this.#leaseMs)
    let pending
    try {
      pending = Promise.resolve(this.#fetch(lease.robotsUrl, {
        origin,
        etag: lease.etag,
        lastModified: lease.lastModified,
        signal: controller.signal
      }))
    } catch (error) {
      pending = Promise.reject(error)
    }
    pending.then(end, (error) => {
      if (end({ status: null })) this.#report(error, lease) // a network error (behaviour §6)
    })
    return round
  }

  /** Stores `outcome` and returns what now answers for `url`'s origin. */
  #store (lease, url, outcome) {
    let now
    try {
      now = this.#now()
      if (typeof now !== 'number' || !(now >= 0) || now === Infinity) {
        throw withCode(new RangeError(`options.now must return epoch milliseconds (a finite number ≥ 0), not ${String(now)}`),
          ERR_OUT_OF_RANGE)
      }
    } catch (error) {
      this.#cache.abandon(lease)
      throw error
    }
    try {
      this.#cache.store(lease, outcome, now)
    } catch (error) {
      // Refused as stale: a newer copy of the origin was stored meanwhile,
      // and answers (the lease is spent).
      if (error.code === ERR_INVALID_LEASE) return this.#answerAfterStore(url, now)
      this.#cache.abandon(lease)
      const Kind = error instanceof RangeError ? RangeError : TypeError
      throw withCode(new Kind(
        `the fetch function must resolve to a FetchOutcome ({ status, body, ... }): ${error.message}`, { cause: error }),
      error.code ?? ERR_INVALID_ARG_TYPE)
    }
    return this.#answerAfterStore(url, now)
  }

  /** What answers for `url` once a fetch of its origin was stored. */
  #answerAfterStore (url, now) {
    const got = this.#cache.lookup(url, now, this.#whenFetching)
    if (got.kind === 'ready') return got.answer
    if (got.kind === 'fetch') {
      // The copy was fresh for no time at all (max-age 0, or freshForMs or
      // retryMs 0): the callers of this fetch still get what it stored, as
      // of the millisecond before it went stale. The next call fetches.
      this.#cache.abandon(got.lease)
      if (now >= 1) {
        const before = this.#cache.lookup(url, now - 1, this.#whenFetching)
        if (before.kind === 'ready') return before.answer
      }
    }
    return null
  }

  /** Resolves null when any fetch ends, or after `ms` (at most POLL_MS). */
  #nextFetchEnd (ms, signal) {
    return new Promise((resolve, reject) => {
      const done = () => {
        clearTimeout(timer)
        this.#pollers.delete(done)
        signal?.removeEventListener('abort', onAbort)
        resolve(null)
      }
      const onAbort = () => {
        clearTimeout(timer)
        this.#pollers.delete(done)
        reject(signal.reason)
      }
      const timer = setTimeout(done, Math.min(Math.max(Number.isFinite(ms) ? ms : POLL_MS, 1), POLL_MS))
      this.#pollers.add(done)
      signal?.addEventListener('abort', onAbort, { once: true })
    })
  }

  #wakePollers () {
    const pollers = [...this.#pollers]
    this.#pollers.clear()
    for (const done of pollers) done()
  }

  #report (error, lease) {
    if (this.#onFetchError === undefined) return
    try {
      this.#onFetchError(error, { robotsUrl: lease.robotsUrl, origin: lease.origin })
    } catch {
      // A hook that throws must not turn a network error into a crash.
    }
  }
}

// ---------------------------------------------------------------------------
// Pacer

/**
 * The core's pacer, with an injectable clock and `wait`, which reserves a
 * ticket, sleeps until its slot and confirms it. See polite.d.ts.
 */
class Pacer extends native.Pacer {
  #now
  /** Host key → the wake functions of the waits asleep for that host. */
  #sleepers = new Map()

  constructor (options) {
    let rest = options
    let now
    if (isObject(options)) ({ now, ...rest } = options)
    const clock = clockOf(now, 'options.now')
    super(rest)
    this.#now = clock
  }

  reserve (host, now) {
    return super.reserve(host, now ?? this.#now())
  }

  confirm (ticket, now) {
    return super.confirm(ticket, now ?? this.#now())
  }

  inFlight (host, now) {
    return super.inFlight(host, now ?? this.#now())
  }

  // Whatever may let a waiting request go sooner, or must stop it, wakes
  // the waits for the host: they confirm again at once.

  record (host, outcome, now) {
    super.record(host, outcome, now ?? this.#now())
    this.#wake(host)
  }

  setEnabled (host, enabled) {
    super.setEnabled(host, enabled)
    this.#wake(host)
  }

  setDelay (host, pace) {
    super.setDelay(host, pace)
    this.#wake(host)
  }

  setRules (host, rules) {
    super.setRules(host, rules)
    this.#wake(host)
  }

  close () {
    super.close()
    // The waits under way confirm, and reject with the closed error.
    for (const key of [...this.#sleepers.keys()]) this.#wake(key)
  }

  [Symbol.dispose] () {
    Pacer.prototype.close.call(this)
  }

  async wait (host, options) {
    const signal = signalOf(options)
    if (signal?.aborted) throw signal.reason
    const ticket = this.reserve(host)
    if (ticket === null) throw hostDisabled(host)
    const key = hostKey(host)
    try {
      let until = ticket.start
      for (;;) {
        const left = until - this.#now()
        if (left > 0) await this.#sleep(key, left, signal)
        const now = this.#now()
        const got = super.confirm(ticket, now)
        // The start as the pacer took it: whole milliseconds.
        if (got.kind === 'go') return Math.floor(now)
        if (got.kind === 'disabled') throw hostDisabled(host)
        until = got.until
      }
    } catch (error) {
      try {
        super.cancel(ticket) // not sent: its slot goes back if it is the last
      } catch {
        // A closed pacer: nothing to give back.
      }
      throw error
    } finally {
      ticket.close()
    }
  }

  /**
   * Resolves after `ms` (timers may fire early by the pacer's clock: the
   * caller confirms, and sleeps again if told to), or when `#wake` is
   * called for `key`; rejects with `signal.reason` when it aborts.
   */
  #sleep (key, ms, signal) {
    return new Promise((resolve, reject) => {
      let sleepers = this.#sleepers.get(key)
      if (sleepers === undefined) this.#sleepers.set(key, (sleepers = new Set()))
      const settle = (error) => {
        clearTimeout(timer)
        signal?.removeEventListener('abort', onAbort)
        sleepers.delete(wake)
        if (sleepers.size === 0 && this.#sleepers.get(key) === sleepers) this.#sleepers.delete(key)
        if (error === undefined) resolve()
        else reject(error)
      }
      const wake = () => settle()
      const onAbort = () => settle(signal.reason)
      const timer = setTimeout(wake, Math.min(Math.ceil(ms), MAX_TIMER_MS))
      sleepers.add(wake)
      signal?.addEventListener('abort', onAbort, { once: true })
    })
  }

  #wake (host) {
    const sleepers = this.#sleepers.get(hostKey(host))
    if (sleepers === undefined) return
    for (const wake of [...sleepers]) wake()
  }
}

// ---------------------------------------------------------------------------
// Node's fetch as a RobotsCache fetch function.

const REDIRECTS = new Set([301, 302, 303, 307, 308])

/**
 * A `Retry-After` header in ms from `now`, as the core reads it (behaviour
 * §11): delta-seconds or an HTTP-date, always GMT.
 */
function retryAfterMs (value, now) {
  if (value === undefined || value === null) return undefined
  if (typeof value !== 'string') throw wrongType('value', 'a string, null or undefined', value)
  return native._httpRead({ retryAfter: value }, now ?? Date.now(), 0).retryAfterMs ?? undefined
}

async function readBody (response, maxBytes) {
  if (response.body === null) return new Uint8Array(0)
  const reader = response.body.getReader()
  const chunks = []
  let size = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    const room = maxBytes - size
    chunks.push(value.byteLength > room ? value.subarray(0, room) : value)
    size += Math.min(value.byteLength, room)
    if (size >= maxBytes) {
      await reader.cancel().catch(() => {})
      break
    }
  }
  return Buffer.concat(chunks, size)
}

function checkCount (value, what, min) {
  if (typeof value !== 'number') throw wrongType(what, 'a number', value)
  if (!Number.isInteger(value) || value < min) {
    throw withCode(new RangeError(`${what} must be a whole number ≥ ${min}, not ${value}`), ERR_OUT_OF_RANGE)
  }
  return value
}

function httpFetcher (options) {
  const known = ['userAgent', 'fetch', 'headers', 'maxBytes', 'maxRedirects', 'minMaxAgeMs']
  const opts = optionsOf(options, 'options')
  for (const key of Object.keys(opts)) {
    if (!known.includes(key)) {
      throw withCode(new RangeError(`unknown option ${JSON.stringify(key)} (known: ${known.join(', ')})`), ERR_INVALID_OPTION)
    }
  }
  const {
    userAgent, fetch = globalThis.fetch, headers = {},
    maxBytes = 4 * 1024 * 1024, maxRedirects = 20, minMaxAgeMs = 60_000
  } = opts
  if (userAgent !== undefined && typeof userAgent !== 'string') throw wrongType('options.userAgent', 'a string', userAgent)
  if (typeof fetch !== 'function') throw wrongType('options.fetch', 'a fetch function', fetch)
  if (!isObject(headers)) throw wrongType('options.headers', 'an object of header names and values', headers)
  checkCount(maxBytes, 'options.maxBytes', 1)
  checkCount(maxRedirects, 'options.maxRedirects', 0)
  checkCount(minMaxAgeMs, 'options.minMaxAgeMs', 0)

  return async function fetchRobotsTxt (robotsUrl, request) {
    const { etag, lastModified, signal } = request ?? {}
    const sent = { ...headers }
    if (userAgent !== undefined) sent['user-agent'] = userAgent
    if (etag) sent['if-none-match'] = etag
    if (lastModified) sent['if-modified-since'] = lastModified
    let url = robotsUrl
    for (let redirects = 0; ; redirects++) {
      const response = await fetch(url, { headers: sent, redirect: 'manual', signal })
      const location = response.headers.get('location')
      if (REDIRECTS.has(response.status) && location !== null && redirects < maxRedirects) {
        let next
        try {
          next = new URL(location, url).href
        } catch {
          next = undefined // a Location that is no URL: the 3xx is the answer
        }
        if (next !== undefined) {
          await response.body?.cancel().catch(() => {})
          url = next
          continue
        }
      }
      const { status } = response
      const outcome = { status, redirects }
      if (status >= 200 && status < 300) {
        outcome.body = await readBody(response, maxBytes)
      } else {
        await response.body?.cancel().catch(() => {})
      }
      // The header values as they came: the core reads them (behaviour §11).
      const facts = native._httpRead({
        retryAfter: response.headers.get('retry-after'),
        cacheControl: response.headers.get('cache-control'),
        etag: response.headers.get('etag'),
        lastModified: response.headers.get('last-modified')
      }, Date.now(), minMaxAgeMs)
      for (const key of ['maxAgeMs', 'retryAfterMs', 'etag', 'lastModified']) {
        if (facts[key] !== null) outcome[key] = facts[key]
      }
      return outcome
    }
  }
}

module.exports = { RobotsCache, Pacer, httpFetcher, retryAfterMs }
