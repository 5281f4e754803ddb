// The promise-based layer (lib/polite.js): RobotsCache with a user fetch
// function, single flight per origin, failures and lease expiry,
// revalidation; Pacer.wait spacing, cancellation and the kill switch;
// httpFetcher against a local server.

import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { createServer } from 'node:http'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { describe, test } from 'node:test'
import { fileURLToPath } from 'node:url'

import * as esm from 'robotstxt-engine'
import { Pacer, Robots, Rules, RobotsCache, httpFetcher, retryAfterMs } from 'robotstxt-engine'
import { Pacer as NativePacer } from '../index.js'

const here = dirname(fileURLToPath(import.meta.url))
const require = createRequire(import.meta.url)

const HOUR = 3_600_000
const DAY = 24 * HOUR

function deferred () {
  let resolve, reject
  const promise = new Promise((res, rej) => {
    resolve = res
    reject = rej
  })
  return { promise, resolve, reject }
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))

/** A clock the test moves by hand. */
function fakeClock (start = 1_000_000) {
  const clock = () => clock.t
  clock.t = start
  return clock
}

/** A fetch function that serves `files` (origin → outcome) and logs calls. */
function fakeFetch (answer) {
  const calls = []
  const fetch = async (robotsUrl, request) => {
    calls.push({ robotsUrl, ...request })
    return answer(robotsUrl, request, calls.length)
  }
  return { fetch, calls }
}

async function rejectsWith (promise, Kind, code, message) {
  await assert.rejects(promise, (err) => {
    assert.ok(err instanceof Kind, `${err} is not a ${Kind.name}`)
    if (code !== undefined) assert.equal(err.code, code)
    if (message !== undefined) assert.match(err.message, message)
    return true
  })
}

const PRIVATE = 'User-agent: *\nDisallow: /private/\n'

describe('the package entry', () => {
  test('require and import give the native exports and the promise-based layer', () => {
    const cjs = require('robotstxt-engine')
    for (const name of ['RobotsCache', 'Pacer', 'httpFetcher', 'retryAfterMs', 'Robots', 'Cache', 'classifyFetch']) {
      assert.equal(typeof cjs[name], 'function', name)
      assert.equal(esm[name], cjs[name], name)
    }
    assert.equal(cjs.Robots, require('../index.js').Robots)
    assert.ok(new Pacer() instanceof NativePacer)
    assert.equal(typeof Pacer.prototype.wait, 'function')
  })

  test('every declaration of lib/polite.d.ts has JSDoc', () => {
    const lines = readFileSync(join(here, '..', 'lib', 'polite.d.ts'), 'utf8').split('\n')
    const undocumented = []
    let depth = 0
    lines.forEach((line, i) => {
      const declares = depth === 0
        ? /^export /.test(line)
        : depth === 1 && /^ {2}(get )?[A-Za-z]\w*\??[(:<]/.test(line)
      if (declares && !/\*\/\s*$/.test(lines[i - 1] ?? '')) undocumented.push(`${i + 1}: ${line.trim()}`)
      if (!line.trim().startsWith('*') && !line.trim().startsWith('//')) {
        depth += (line.match(/{/g) ?? []).length - (line.match(/}/g) ?? []).length
      }
    })
    assert.deepEqual(undocumented, [])
  })
})

describe('RobotsCache', () => {
  test('1,000 concurrent rulesFor calls for 10 origins call the fetch function exactly 10 times', async () => {
    const { fetch, calls } = fakeFetch(async (robotsUrl) => {
      await sleep(5 + Math.floor(Math.random() * 25))
      const host = new URL(robotsUrl).hostname
      return { status: 200, body: `User-agent: *\nDisallow: /${host}/private/\n` }
    })
    const cache = new RobotsCache({ fetch })
    const asks = []
    for (let i = 0; i < 1000; i++) {
      const host = `site${i % 10}.test`
      // Spellings of one origin: the core keys them all as https://siteN.test.
      const base = [`https://${host}`, `HTTPS://${host.toUpperCase()}:443`, `https://user@${host}:0443`][i % 3]
      const path = i % 2 === 0 ? `/${host}/private/page` : `/${host}/public/page`
      asks.push(cache.rulesFor(base + path, 'ExampleBot').then((rules) => [path, rules]))
    }
    assert.equal(cache.fetching, 10)
    const answers = await Promise.all(asks)
    assert.equal(calls.length, 10)
    assert.deepEqual(calls.map((c) => c.robotsUrl).sort(),
      Array.from({ length: 10 }, (_, i) => `https://site${i}.test/robots.txt`))
    for (const [path, rules] of answers) {
      assert.ok(rules instanceof Rules)
      assert.equal(rules.isAllowed(path), path.includes('/public/'), path)
    }
    assert.equal(cache.stats.fetches, 10)
    assert.equal(cache.size, 10)
    assert.equal(cache.fetching, 0)
    // A second wave: all from the copies.
    await Promise.all(Array.from({ length: 100 }, (_, i) => cache.rulesFor(`https://site${i % 10}.test/`, 'ExampleBot')))
    assert.equal(calls.length, 10)
  })

  test('the fetch function gets the robots.txt URL, the origin and a signal', async () => {
    const { fetch, calls } = fakeFetch(() => ({ status: 200, body: PRIVATE })) // a plain value will do
    const cache = new RobotsCache({ fetch })
    const rules = await cache.rulesFor('http://Shop.Test:8080/private/x?y#z', 'ExampleBot')
    assert.equal(rules.isAllowed('/private/x'), false)
    assert.equal(calls.length, 1)
    const [call] = calls
    assert.equal(call.robotsUrl, 'http://shop.test:8080/robots.txt')
    assert.equal(call.origin, 'http://shop.test:8080')
    assert.deepEqual([call.etag, call.lastModified], [null, null])
    assert.equal(call.signal.aborted, false)
    const answer = await cache.answerFor('http://shop.test:8080/')
    assert.equal(answer.kind, 'rules')
    assert.ok(answer.robots instanceof Robots)
  })

  test('blanket outcomes come back as rules', async () => {
    const outcomes = {
      'https://gone.test': { status: 404 },
      'https://down.test': { status: 503 },
      'https://locked.test': { status: 401 },
      'https://far.test': { status: 200, redirects: 6, body: 'User-agent: *\nDisallow: /\n' },
      'https://loop.test': { status: 301, redirects: 20 }
    }
    const cache = new RobotsCache({ fetch: async (robotsUrl, { origin }) => outcomes[origin] })
    const expect = {
      'https://gone.test': ['allow-all', true],
      'https://down.test': ['disallow-all', false],
      'https://locked.test': ['disallow-all', false],
      'https://far.test': ['allow-all', true],
      'https://loop.test': ['disallow-all', false]
    }
    for (const [origin, [kind, allowed]] of Object.entries(expect)) {
      const answer = await cache.answerFor(`${origin}/a`)
      assert.equal(answer.kind, kind, origin)
      const rules = await cache.rulesFor(`${origin}/a`, 'ExampleBot')
      assert.ok(rules instanceof Rules)
      assert.equal(rules.isAllowed('/a'), allowed, origin)
    }
    const strict = new RobotsCache({ fetch: async () => ({ status: 401 }), policy: 'strict' })
    assert.equal((await strict.rulesFor('https://locked.test/a', 'ExampleBot')).isAllowed('/a'), true)
  })

  test('a fetch that throws or rejects is a network error: disallow-all, the lease released, retried later', async () => {
    const now = fakeClock()
    const errors = []
    let mode = 'throw'
    const { fetch, calls } = fakeFetch(() => {
      if (mode === 'throw') throw new Error('ECONNRESET')
      if (mode === 'reject') return Promise.reject(new TypeError('fetch failed'))
      return { status: 200, body: PRIVATE }
    })
    const cache = new RobotsCache({
      fetch,
      now,
      onFetchError: (error, where) => {
        errors.push([error.message, where.robotsUrl, where.origin])
        throw new Error('a hook that throws changes nothing')
      }
    })
    // A synchronous throw inside a plain (non-async) function.
    const syncThrow = new RobotsCache({ fetch: () => { throw new Error('boom') } })
    assert.equal((await syncThrow.rulesFor('https://a.test/x', 'ExampleBot')).isAllowed('/x'), false)

    const first = await Promise.all([1, 2, 3].map(() => cache.rulesFor('https://a.test/public', 'ExampleBot')))
    assert.deepEqual(first.map((r) => r.isAllowed('/public')), [false, false, false])
    assert.equal(calls.length, 1)
    assert.deepEqual(errors, [['ECONNRESET', 'https://a.test/robots.txt', 'https://a.test']])
    assert.equal(cache.fetching, 0)
    // Within the retry hour: the disallow-all answer, no fetch.
    now.t += HOUR - 1
    assert.equal((await cache.rulesFor('https://a.test/public', 'ExampleBot')).isAllowed('/public'), false)
    assert.equal(calls.length, 1)
    // Then the lease is handed out again: the failure did not keep it.
    mode = 'reject'
    now.t += 1
    assert.equal((await cache.rulesFor('https://a.test/public', 'ExampleBot')).isAllowed('/public'), false)
    assert.equal(calls.length, 2)
    assert.equal(errors[1][0], 'fetch failed')
    mode = 'ok'
    now.t += HOUR
    const rules = await cache.rulesFor('https://a.test/public', 'ExampleBot')
    assert.deepEqual([rules.isAllowed('/public'), rules.isAllowed('/private/x')], [true, false])
    assert.equal(calls.length, 3)
    // A failed refresh keeps the old copy answering (behaviour §7).
    mode = 'reject'
    now.t += DAY
    const kept = await cache.rulesFor('https://a.test/public', 'ExampleBot')
    assert.deepEqual([kept.isAllowed('/public'), kept.isAllowed('/private/x')], [true, false])
    assert.equal(calls.length, 4)
    const stale = cache.stats.stale
    assert.equal((await cache.rulesFor('https://a.test/public', 'ExampleBot')).isAllowed('/public'), true)
    assert.equal(cache.stats.stale, stale + 1) // the old copy, past its freshness
    assert.equal(calls.length, 4)
  })

  test('a slow fetch: its signal aborts when the lease runs out, and it counts as a timeout', async () => {
    const errors = []
    const late = deferred()
    const { fetch, calls } = fakeFetch(() => {
      // Ignores its signal, the worst case: answers long after the lease.
      setTimeout(() => late.resolve({ status: 200, body: 'User-agent: *\nAllow: /\n' }), 800)
      return late.promise
    })
    const cache = new RobotsCache({ fetch, leaseMs: 100, onFetchError: (error) => errors.push(error) })
    const started = performance.now()
    const answers = await Promise.all(Array.from({ length: 5 }, () => cache.rulesFor('https://slow.test/a', 'ExampleBot')))
    const took = performance.now() - started
    assert.ok(took >= 95 && took < 700, `answered after ${took} ms`)
    assert.deepEqual(answers.map((r) => r.isAllowed('/a')), [false, false, false, false, false])
    assert.equal(calls.length, 1)
    assert.equal(calls[0].signal.aborted, true)
    assert.equal(calls[0].signal.reason.name, 'TimeoutError')
    assert.match(calls[0].signal.reason.message, /longer than leaseMs \(100 ms\)/)
    assert.equal(errors.length, 1)
    assert.equal(errors[0], calls[0].signal.reason)
    // The late answer is dropped: the timeout stands until the retry.
    await late.promise
    await sleep(10)
    assert.equal((await cache.rulesFor('https://slow.test/a', 'ExampleBot')).isAllowed('/a'), false)
    assert.equal(calls.length, 1)

    // A fetch that honours its signal rejects at once; still one timeout.
    const polite = new RobotsCache({
      leaseMs: 50,
      fetch: (url, { signal }) => new Promise((resolve, reject) => {
        signal.addEventListener('abort', () => reject(signal.reason))
      })
    })
    assert.equal((await polite.rulesFor('https://slow.test/a', 'ExampleBot')).isAllowed('/a'), false)
    assert.equal(polite.stats.fetches, 1)
  })

  test('the core lease running out by the injected clock does not start a second fetch', async () => {
    const now = fakeClock()
    const gate = deferred()
    const { fetch, calls } = fakeFetch(() => gate.promise)
    const cache = new RobotsCache({ fetch, now, leaseMs: 60_000 })
    const first = cache.rulesFor('https://a.test/private/x', 'ExampleBot')
    now.t += 61_000 // past the core's lease, not past our real-time timer
    const second = cache.rulesFor('https://a.test/private/x', 'ExampleBot')
    await sleep(5)
    assert.equal(calls.length, 1)
    gate.resolve({ status: 200, body: PRIVATE })
    assert.deepEqual((await Promise.all([first, second])).map((r) => r.isAllowed('/private/x')), [false, false])
    assert.equal(calls.length, 1)
  })

  test('revalidation: the fetch function gets the validators, and a 304 keeps the old rules', async () => {
    const now = fakeClock()
    const { fetch, calls } = fakeFetch((url, request, n) => {
      if (n === 1) {
        return { status: 200, body: PRIVATE, etag: '"v1"', lastModified: 'Sat, 01 Nov 2025 10:00:00 GMT' }
      }
      if (n === 2) return { status: 304 }
      return { status: 200, body: 'User-agent: *\nDisallow: /drafts/\n', etag: '"v2"' }
    })
    const cache = new RobotsCache({ fetch, now })
    const first = await cache.rulesFor('https://shop.test/private/a', 'ExampleBot')
    assert.equal(first.isAllowed('/private/a'), false)
    assert.deepEqual([calls[0].etag, calls[0].lastModified], [null, null])

    now.t += DAY
    const renewed = await cache.rulesFor('https://shop.test/private/a', 'ExampleBot')
    assert.equal(calls.length, 2)
    assert.equal(calls[1].etag, '"v1"')
    assert.equal(calls[1].lastModified, 'Sat, 01 Nov 2025 10:00:00 GMT')
    assert.deepEqual([renewed.isAllowed('/private/a'), renewed.isAllowed('/drafts/a')], [false, true])
    assert.equal(cache.stats.stale, 0)
    // Renewed for another day: no fetch before it runs out.
    now.t += DAY - 1
    await cache.rulesFor('https://shop.test/', 'ExampleBot')
    assert.equal(calls.length, 2)
    now.t += 1
    const changed = await cache.rulesFor('https://shop.test/private/a', 'ExampleBot')
    assert.equal(calls.length, 3)
    assert.equal(calls[2].etag, '"v1"')
    assert.deepEqual([changed.isAllowed('/private/a'), changed.isAllowed('/drafts/a')], [true, false])
  })

  test('while a copy is refreshed, the other callers answer from it at once', async () => {
    const now = fakeClock()
    let gate = null
    const { fetch, calls } = fakeFetch(() => gate === null ? { status: 200, body: PRIVATE } : gate.promise)
    const cache = new RobotsCache({ fetch, now })
    await cache.rulesFor('https://a.test/', 'ExampleBot')
    now.t += DAY
    gate = deferred()
    const refreshing = cache.rulesFor('https://a.test/', 'ExampleBot')
    const meanwhile = await cache.rulesFor('https://a.test/private/x', 'ExampleBot') // does not wait
    assert.equal(meanwhile.isAllowed('/private/x'), false)
    assert.equal(cache.fetching, 1)
    gate.resolve({ status: 200, body: 'User-agent: *\nAllow: /\n' })
    assert.equal((await refreshing).isAllowed('/private/x'), true)
    assert.equal(calls.length, 2)
  })

  test('a copy fresh for no time at all answers its own callers without another fetch', async () => {
    const { fetch, calls } = fakeFetch(() => ({ status: 200, body: PRIVATE, maxAgeMs: 0 }))
    const cache = new RobotsCache({ fetch })
    const rules = await Promise.all([1, 2, 3].map(() => cache.rulesFor('https://a.test/private/', 'ExampleBot')))
    assert.deepEqual(rules.map((r) => r.isAllowed('/private/')), [false, false, false])
    assert.equal(calls.length, 1)
    await cache.rulesFor('https://a.test/private/', 'ExampleBot') // max-age 0: fetched again
    assert.equal(calls.length, 2)

    const zero = new RobotsCache({ fetch: async () => ({ status: 503 }), retryMs: 0, now: fakeClock(5) })
    assert.equal((await zero.rulesFor('https://a.test/x', 'ExampleBot')).isAllowed('/x'), false)
  })

  test('whenFetching: disallow-all answers at once while the first fetch is under way', async () => {
    const gate = deferred()
    const cache = new RobotsCache({ fetch: () => gate.promise, whenFetching: 'disallow-all' })
    const first = cache.rulesFor('https://a.test/x', 'ExampleBot')
    const meanwhile = await cache.rulesFor('https://a.test/x', 'ExampleBot')
    assert.equal(meanwhile.isAllowed('/x'), false)
    gate.resolve({ status: 404 })
    assert.equal((await first).isAllowed('/x'), true)
  })

  test('an AbortSignal cancels one caller, not the fetch the others await', async () => {
    const gate = deferred()
    const { fetch, calls } = fakeFetch(() => gate.promise)
    const cache = new RobotsCache({ fetch })
    const controller = new AbortController()
    const cancelled = cache.rulesFor('https://a.test/private/x', 'ExampleBot', { signal: controller.signal })
    const other = cache.rulesFor('https://a.test/private/x', 'ExampleBot')
    const started = performance.now()
    setTimeout(() => controller.abort(), 20)
    await assert.rejects(cancelled, { name: 'AbortError' })
    assert.ok(performance.now() - started < 1000)
    // Already aborted: rejects with the reason, and asks nothing.
    const alreadyAborted = new AbortController()
    alreadyAborted.abort(new Error('stop'))
    await assert.rejects(cache.rulesFor('https://b.test/', 'ExampleBot', { signal: alreadyAborted.signal }), /stop/)
    assert.equal(calls.length, 1)
    gate.resolve({ status: 200, body: PRIVATE })
    assert.equal((await other).isAllowed('/private/x'), false)
    assert.equal(calls.length, 1)
    // The caller that started the fetch may give up too: the fetch goes on.
    const slow = deferred()
    const second = new RobotsCache({ fetch: () => slow.promise })
    const gaveUp = new AbortController()
    const starter = second.rulesFor('https://c.test/private/x', 'ExampleBot', { signal: gaveUp.signal })
    const follower = second.rulesFor('https://c.test/private/x', 'ExampleBot')
    gaveUp.abort()
    await assert.rejects(starter, { name: 'AbortError' })
    slow.resolve({ status: 200, body: PRIVATE })
    assert.equal((await follower).isAllowed('/private/x'), false)
    assert.equal(second.stats.fetches, 1)
  })

  test('a fetch function that resolves to no FetchOutcome rejects its callers and gives the lease back', async () => {
    let answer
    const { fetch, calls } = fakeFetch(() => answer)
    const cache = new RobotsCache({ fetch })
    answer = undefined
    const callers = [1, 2].map(() => cache.rulesFor('https://a.test/', 'ExampleBot'))
    for (const caller of callers) {
      await rejectsWith(caller, TypeError, 'ERR_INVALID_ARG_TYPE', /^the fetch function must resolve to a FetchOutcome/)
    }
    assert.equal(calls.length, 1)
    answer = { status: 1000 }
    await rejectsWith(cache.rulesFor('https://a.test/', 'ExampleBot'), RangeError, 'ERR_OUT_OF_RANGE', /outcome.status/)
    assert.equal(calls.length, 2)
    answer = { status: 200, body: PRIVATE, expires: 5 }
    await rejectsWith(cache.rulesFor('https://a.test/', 'ExampleBot'), RangeError, 'ERR_ROBOTSTXT_INVALID_OPTION', /expires/)
    answer = { status: 200, body: PRIVATE }
    assert.equal((await cache.rulesFor('https://a.test/private/', 'ExampleBot')).isAllowed('/private/'), false)
    assert.equal(calls.length, 4)
  })

  test('argument errors', async () => {
    const fetch = async () => ({ status: 404 })
    assert.throws(() => new RobotsCache(), { name: 'TypeError', code: 'ERR_INVALID_ARG_TYPE', message: /^options must be an object/ })
    assert.throws(() => new RobotsCache({}), { name: 'TypeError', message: /^options.fetch must be an async function/ })
    assert.throws(() => new RobotsCache({ fetch, now: 5 }), { name: 'TypeError', message: /^options.now must be a function/ })
    assert.throws(() => new RobotsCache({ fetch, whenFetching: 'never' }),
      { name: 'RangeError', code: 'ERR_ROBOTSTXT_INVALID_OPTION', message: /"wait", "disallow-all"/ })
    assert.throws(() => new RobotsCache({ fetch, whenFetching: 1 }), { name: 'TypeError' })
    assert.throws(() => new RobotsCache({ fetch, onFetchError: 'log' }), { name: 'TypeError' })
    assert.throws(() => new RobotsCache({ fetch, size: 5 }), { name: 'RangeError', code: 'ERR_ROBOTSTXT_INVALID_OPTION' })
    assert.throws(() => new RobotsCache({ fetch, leaseMs: -1 }), { name: 'RangeError', code: 'ERR_OUT_OF_RANGE' })
    const cache = new RobotsCache({ fetch })
    await rejectsWith(cache.rulesFor('/relative', 'ExampleBot'), RangeError, 'ERR_ROBOTSTXT_INVALID_URL')
    await rejectsWith(cache.rulesFor(42, 'ExampleBot'), TypeError, 'ERR_INVALID_ARG_TYPE', /^url must be/)
    await rejectsWith(cache.rulesFor('https://a.test/', 7), TypeError, 'ERR_INVALID_ARG_TYPE', /^token must be/)
    await rejectsWith(cache.rulesFor('https://a.test/', 'My Bot/1.0'), RangeError, 'ERR_ROBOTSTXT_INVALID_TOKEN')
    await rejectsWith(cache.rulesFor('https://a.test/', 'ExampleBot', { signal: {} }), TypeError, 'ERR_INVALID_ARG_TYPE',
      /^options.signal must be an AbortSignal/)
    await rejectsWith(cache.answerFor('https://a.test/', 'fast'), TypeError, 'ERR_INVALID_ARG_TYPE', /^options must be an object/)
    await rejectsWith(new RobotsCache({ fetch, now: () => -1 }).rulesFor('https://a.test/', 'ExampleBot'), RangeError, 'ERR_OUT_OF_RANGE')
    assert.equal(cache.remove('https://a.test/x'), true)
    assert.throws(() => cache.remove('nope'), { name: 'RangeError' })
  })
})

describe('Pacer.wait', () => {
  const clock = () => performance.timeOrigin + performance.now()

  test('Crawl-delay: 0.25: requests start at least 250 ms apart by the pacer\'s clock, whatever the number of workers', async () => {
    const pacer = new Pacer({ floorMs: 100, now: clock })
    const rules = Robots.parse('User-agent: *\nCrawl-delay: 0.25\n').rulesFor('ExampleBot')
    const requests = 8
    const runs = [1, 3, 16].map(async (workers) => {
      const host = `w${workers}.test`
      pacer.setRules(host, rules)
      assert.equal(pacer.gapMs(host), 250)
      const starts = []
      let left = requests
      await Promise.all(Array.from({ length: workers }, async () => {
        while (left > 0) {
          left--
          const slot = await pacer.wait(host)
          starts.push({ slot, at: clock() }) // the request would start here
          assert.equal(pacer.inFlight(host), 1)
          await sleep(5) // and take a little while
          pacer.record(host, { status: 200 }) // it ended: its place is free
        }
      }))
      return starts.sort((a, b) => a.slot - b.slot)
    })
    for (const starts of await Promise.all(runs)) {
      assert.equal(starts.length, requests)
      for (let i = 0; i < starts.length; i++) {
        assert.ok(starts[i].at >= starts[i].slot, 'no request starts before its slot')
        if (i === 0) continue
        assert.ok(starts[i].slot - starts[i - 1].slot >= 250, `slots ${starts[i - 1].slot} and ${starts[i].slot}`)
        // The actual starts: 250 ms apart, less only what the earlier one
        // ran late after its slot.
        const late = starts[i - 1].at - starts[i - 1].slot
        assert.ok(starts[i].at - starts[i - 1].at >= 250 - late, `starts ${starts[i - 1].at} and ${starts[i].at}`)
      }
      const span = starts.at(-1).slot - starts[0].slot
      assert.ok(span >= 7 * 250 && span < 7 * 250 + 1000, `8 requests over ${span} ms`)
    }
  })

  test('one request in flight per host: the next waits for record, and a record wakes it at once', async () => {
    const pacer = new Pacer({ floorMs: 0, now: clock })
    const first = await pacer.wait('a.test')
    let second = null
    const waiting = pacer.wait('a.test').then((at) => { second = at })
    await sleep(100)
    assert.equal(second, null, 'the second went while the first was in flight')
    assert.equal(pacer.inFlight('a.test'), 1)
    const ended = clock()
    pacer.record('a.test', { status: 200 })
    await waiting
    // Timers may fire a millisecond early by the pacer's clock: the second
    // starts after the record, not 100 ms to the dot after the first.
    assert.ok(second >= first + 95 && second - ended < 50, `the second went ${(second - ended).toFixed(0)} ms after the record, ${(second - first).toFixed(0)} ms after the first`)
    // More places, more at once.
    const wide = new Pacer({ floorMs: 0, maxInFlight: 3, now: clock })
    const starts = await Promise.all([1, 2, 3].map(() => wide.wait('b.test')))
    assert.equal(wide.inFlight('b.test'), 3)
    assert.ok(starts[2] - starts[0] < 50)
  })

  test('a 429 recorded while others wait holds them all back for its Retry-After', async () => {
    const pacer = new Pacer({ floorMs: 0, now: clock })
    pacer.setDelay('a.test', { crawlDelay: 0.05 })
    await pacer.wait('a.test')
    const waits = [1, 2, 3].map(() => pacer.wait('a.test'))
    await sleep(20)
    const answered = clock()
    pacer.record('a.test', { status: 429, retryAfterMs: 300 })
    const starts = []
    for (const wait of waits) {
      starts.push(await wait)
      pacer.record('a.test', { status: 200 })
    }
    assert.ok(starts[0] >= Math.floor(answered) + 300, `a wait went ${(starts[0] - answered).toFixed(0)} ms after the 429`)
    for (let i = 1; i < starts.length; i++) assert.ok(starts[i] - starts[i - 1] >= 50)
  })

  test('an AbortSignal cancels a wait at once; its ticket is cancelled, its slot given back', async () => {
    const pacer = new Pacer({ floorMs: 0, now: clock })
    pacer.setDelay('a.test', { crawlDelay: 0.3 })
    const first = await pacer.wait('a.test')
    pacer.record('a.test', { status: 200 })
    const controller = new AbortController()
    const started = clock()
    const cancelled = pacer.wait('a.test', { signal: controller.signal })
    setTimeout(() => controller.abort(), 30)
    await assert.rejects(cancelled, { name: 'AbortError' })
    assert.ok(clock() - started < 250, 'rejected before the slot')
    // The cancelled slot was the last one handed out: the next takes it.
    const third = await pacer.wait('a.test')
    assert.ok(third >= first + 300 && third < first + 600, `the next went ${third - first} ms after the first`)
    pacer.record('a.test', { status: 200 })

    // Already aborted: rejects with its reason and reserves nothing.
    const aborted = AbortSignal.abort(new Error('shutting down'))
    pacer.setDelay('b.test', { crawlDelay: 10 })
    await assert.rejects(pacer.wait('b.test', { signal: aborted }), /shutting down/)
    const now = clock()
    assert.ok((await pacer.wait('b.test')) <= now + 5, 'no slot was taken')
    // AbortSignal.timeout works as well.
    await assert.rejects(pacer.wait('b.test', { signal: AbortSignal.timeout(20) }), { name: 'TimeoutError' })
  })

  test('a switched-off host rejects, at once and while waiting', async () => {
    const pacer = new Pacer({ floorMs: 0, now: clock })
    pacer.setDelay('shop.test', { crawlDelay: 5 })
    await pacer.wait('shop.test')
    pacer.record('shop.test', { status: 200 })
    const waiting = pacer.wait('shop.test') // five seconds off
    const elsewhere = pacer.wait('other.test')
    const off = clock()
    pacer.setEnabled('SHOP.test', false)
    await assert.rejects(waiting, (err) => {
      assert.equal(err.code, 'ERR_ROBOTSTXT_HOST_DISABLED')
      assert.equal(err.host, 'shop.test')
      assert.match(err.message, /is switched off: pacer.setEnabled\(host, true\) switches it back on/)
      return true
    })
    assert.ok(clock() - off < 100, 'the wait under way rejected at once')
    await assert.rejects(pacer.wait('shop.test'), { code: 'ERR_ROBOTSTXT_HOST_DISABLED' })
    await assert.rejects(pacer.wait(Buffer.from('shop.test')), { code: 'ERR_ROBOTSTXT_HOST_DISABLED' })
    assert.equal(typeof await elsewhere, 'number')
    pacer.setEnabled('shop.test', true)
    assert.equal(typeof pacer.reserve('shop.test').start, 'number') // its turn comes again
  })

  test('a slower pace set while requests wait applies to them at once', async () => {
    const pacer = new Pacer({ floorMs: 0, now: clock })
    await pacer.wait('a.test')
    const next = pacer.wait('a.test')
    pacer.setDelay('a.test', { crawlDelay: 0.2 }) // before the first ends
    const ended = clock()
    pacer.record('a.test', { status: 200 })
    assert.ok((await next) - ended >= 150, 'the new pace held the waiting request back')
  })

  test('closing the pacer rejects the waits under way', async () => {
    const pacer = new Pacer({ floorMs: 0, now: clock })
    await pacer.wait('a.test')
    const waiting = pacer.wait('a.test')
    pacer.close()
    await assert.rejects(waiting, { code: 'ERR_ROBOTSTXT_CLOSED', message: 'Pacer used after close()' })
    await assert.rejects(pacer.wait('a.test'), { code: 'ERR_ROBOTSTXT_CLOSED' })
    pacer.close()
    const disposed = new Pacer()
    disposed[Symbol.dispose]()
    assert.throws(() => disposed.reserve('a.test'), { code: 'ERR_ROBOTSTXT_CLOSED' })
  })

  test('reserve, confirm, inFlight and record use the injected clock', async () => {
    const now = fakeClock(10_000)
    const pacer = new Pacer({ floorMs: 0, now })
    pacer.setDelay('a.test', { crawlDelay: 0.25 })
    const first = pacer.reserve('a.test')
    assert.equal(first.start, 10_000)
    assert.equal(pacer.reserve('a.test').start, 10_250)
    assert.equal(pacer.reserve('a.test', 20_000).start, 20_000)
    assert.equal(pacer.confirm(first).kind, 'go')
    assert.equal(pacer.inFlight('a.test'), 1)
    pacer.record('a.test', { status: 429, retryAfterMs: 60_000 })
    assert.equal(pacer.inFlight('a.test'), 0)
    assert.equal(pacer.reserve('a.test', 10_000).start, 70_000)
    assert.equal(pacer.gapMs('a.test'), 500)
    // A slot already reached resolves at once.
    assert.equal(await pacer.wait('fresh.test'), 10_000)
  })

  test('argument errors', async () => {
    assert.throws(() => new Pacer({ now: 'Date.now' }), { name: 'TypeError', message: /^options.now must be a function/ })
    assert.throws(() => new Pacer({ floorMs: 0, speed: 2 }), { name: 'RangeError', code: 'ERR_ROBOTSTXT_INVALID_OPTION' })
    assert.throws(() => new Pacer(5), { name: 'TypeError' })
    const pacer = new Pacer()
    await rejectsWith(pacer.wait(''), RangeError, 'ERR_ROBOTSTXT_INVALID_HOST')
    await rejectsWith(pacer.wait(7), TypeError, 'ERR_INVALID_ARG_TYPE', /^host must be/)
    await rejectsWith(pacer.wait('a.test', { signal: 'stop' }), TypeError, 'ERR_INVALID_ARG_TYPE', /^options.signal/)
    await rejectsWith(pacer.wait('a.test', 5), TypeError, 'ERR_INVALID_ARG_TYPE', /^options must be an object/)
    assert.throws(() => pacer.setEnabled('a.test', 'off'), { name: 'TypeError' })
  })
})

test('odd arguments answer, throw or reject with an Error, and never crash', async () => {
  const throwing = { get signal () { throw new Error('getter') }, get fetch () { throw new Error('getter') } }
  const proxy = new Proxy({}, { get () { throw new Error('proxy') }, ownKeys () { throw new Error('keys') } })
  const odd = [
    undefined, null, true, 0, -1, 1.5, NaN, 10n, Symbol('s'), '', 'x', '\uD800', 'https://a.test/x',
    Buffer.from([0xff, 0x2f]), new Uint8Array(0), [], ['a'], {}, { signal: null }, { signal: 5 }, throwing, proxy,
    () => {}, new Date(0), Object.create(null), AbortSignal.abort()
  ]
  const cache = new RobotsCache({ fetch: async () => ({ status: 404 }) })
  // No gap and room for every request in flight: no wait here waits.
  const pacer = new Pacer({ floorMs: 0, maxInFlight: 100_000 })
  const calls = [
    (a) => new RobotsCache(a),
    (a) => new RobotsCache({ fetch: a }),
    (a) => new RobotsCache({ fetch: () => a }).rulesFor('https://a.test/', 'ExampleBot'),
    (a, b) => cache.rulesFor(a, 'ExampleBot', b),
    (a, b) => cache.rulesFor('https://a.test/x', a, b),
    (a) => cache.answerFor('https://a.test/x', a),
    (a) => cache.remove(a),
    (a) => new Pacer(a),
    (a, b) => pacer.wait(a, b),
    (a) => pacer.wait('a.test', a),
    (a, b) => pacer.setEnabled(a, b),
    (a, b) => pacer.reserve(a, b),
    (a, b) => pacer.confirm(a, b),
    (a) => pacer.cancel(a),
    (a, b) => pacer.inFlight(a, b),
    (a, b) => pacer.record('a.test', a, b),
    (a) => cache.close.call(a),
    (a) => httpFetcher(a),
    (a, b) => retryAfterMs(a, b)
  ]
  for (const call of calls) {
    for (const a of odd) {
      for (const b of [undefined, odd[Math.floor(Math.random() * odd.length)]]) {
        try {
          await call(a, b)
        } catch (err) {
          assert.ok(err instanceof Error, `threw a non-Error: ${String(err)}`)
        }
      }
    }
  }
})

describe('httpFetcher and retryAfterMs', () => {
  /** A local server: `routes` maps a path to (req, res) => void. */
  async function serve (routes) {
    const seen = []
    const server = createServer((req, res) => {
      seen.push({ url: req.url, headers: req.headers })
      const route = routes[req.url.split('?')[0]]
      if (route === undefined) {
        res.writeHead(404).end('not here')
      } else {
        route(req, res)
      }
    })
    await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
    const origin = `http://127.0.0.1:${server.address().port}`
    return {
      origin,
      seen,
      close: () => new Promise((resolve) => {
        server.closeAllConnections()
        server.close(resolve)
      })
    }
  }

  test('a 200 with validators, max-age and the user agent; then a conditional 304', async () => {
    const site = await serve({
      '/robots.txt': (req, res) => {
        if (req.headers['if-none-match'] === '"v1"') return res.writeHead(304).end()
        res.writeHead(200, {
          'content-type': 'text/plain',
          etag: '"v1"',
          'last-modified': 'Sat, 01 Nov 2025 10:00:00 GMT',
          'cache-control': 'public, max-age=3600'
        }).end(PRIVATE)
      }
    })
    try {
      const fetchRobots = httpFetcher({ userAgent: 'ExampleBot/1.0', headers: { from: 'bot@example.test' } })
      const first = await fetchRobots(`${site.origin}/robots.txt`, { etag: null, lastModified: null })
      assert.equal(first.status, 200)
      assert.equal(first.redirects, 0)
      assert.equal(Buffer.from(first.body).toString(), PRIVATE)
      assert.equal(first.etag, '"v1"')
      assert.equal(first.lastModified, 'Sat, 01 Nov 2025 10:00:00 GMT')
      assert.equal(first.maxAgeMs, 3_600_000)
      assert.equal(site.seen[0].headers['user-agent'], 'ExampleBot/1.0')
      assert.equal(site.seen[0].headers.from, 'bot@example.test')
      assert.equal(site.seen[0].headers['if-none-match'], undefined)
      const again = await fetchRobots(`${site.origin}/robots.txt`, { etag: '"v1"', lastModified: first.lastModified })
      assert.equal(again.status, 304)
      assert.equal(site.seen[1].headers['if-none-match'], '"v1"')
      assert.equal(site.seen[1].headers['if-modified-since'], 'Sat, 01 Nov 2025 10:00:00 GMT')

      // Through a RobotsCache, with its clock a day on: revalidated.
      const now = fakeClock(Date.now())
      const cache = new RobotsCache({ fetch: fetchRobots, now })
      assert.equal((await cache.rulesFor(`${site.origin}/private/x`, 'ExampleBot')).isAllowed('/private/x'), false)
      now.t += 2 * HOUR // max-age=3600
      assert.equal((await cache.rulesFor(`${site.origin}/private/x`, 'ExampleBot')).isAllowed('/private/x'), false)
      assert.equal(site.seen.length, 4)
      assert.equal(site.seen[3].headers['if-none-match'], '"v1"')
    } finally {
      await site.close()
    }
  })

  test('redirects are followed and counted; too many is as RFC 9309 says', async () => {
    const routes = {}
    for (let i = 0; i < 7; i++) {
      routes[`/r${i}`] = (req, res) => res.writeHead(i % 2 ? 301 : 307, { location: i === 6 ? '/final' : `/r${i + 1}` }).end()
    }
    routes['/final'] = (req, res) => res.writeHead(200).end('User-agent: *\nDisallow: /\n')
    routes['/loop'] = (req, res) => res.writeHead(302, { location: '/loop' }).end()
    routes['/nowhere'] = (req, res) => res.writeHead(302).end()
    const site = await serve(routes)
    try {
      const fetchRobots = httpFetcher()
      const two = await fetchRobots(`${site.origin}/r5`, {})
      assert.deepEqual([two.status, two.redirects], [200, 2])
      const seven = await fetchRobots(`${site.origin}/r0`, {})
      assert.deepEqual([seven.status, seven.redirects], [200, 7])
      const loop = await fetchRobots(`${site.origin}/loop`, {})
      assert.deepEqual([loop.status, loop.redirects], [302, 20])
      const bounded = await httpFetcher({ maxRedirects: 0 })(`${site.origin}/r5`, {})
      assert.deepEqual([bounded.status, bounded.redirects], [301, 0])
      const noLocation = await fetchRobots(`${site.origin}/nowhere`, {})
      assert.deepEqual([noLocation.status, noLocation.redirects], [302, 0])
      // Through the cache: six redirects to a 200 allow everything.
      const cache = new RobotsCache({ fetch: (url, request) => fetchRobots(`${site.origin}/r0`, request) })
      assert.equal((await cache.answerFor(`${site.origin}/x`)).kind, 'allow-all')
    } finally {
      await site.close()
    }
  })

  test('bodies are cut at maxBytes; max-age and Retry-After; network errors reject', async () => {
    const site = await serve({
      '/big': (req, res) => res.writeHead(200, { 'cache-control': 'max-age=0' }).end('x'.repeat(100_000)),
      '/busy': (req, res) => res.writeHead(503, { 'retry-after': '120' }).end('busy')
    })
    try {
      const big = await httpFetcher({ maxBytes: 1000 })(`${site.origin}/big`, {})
      assert.equal(big.body.length, 1000)
      assert.equal(big.maxAgeMs, 60_000) // max-age=0, raised to minMaxAgeMs
      assert.equal((await httpFetcher({ minMaxAgeMs: 0 })(`${site.origin}/big`, {})).maxAgeMs, 0)
      const busy = await httpFetcher()(`${site.origin}/busy`, {})
      assert.deepEqual([busy.status, busy.retryAfterMs, busy.body], [503, 120_000, undefined])
    } finally {
      await site.close()
    }
    // The server is gone: connection refused.
    await assert.rejects(httpFetcher()(`${site.origin}/robots.txt`, {}), TypeError)
    const cache = new RobotsCache({ fetch: httpFetcher() })
    assert.equal((await cache.rulesFor(`${site.origin}/x`, 'ExampleBot')).isAllowed('/x'), false)
    // A fetch of your own, as fetch itself.
    const seen = []
    const own = httpFetcher({ fetch: async (url, init) => { seen.push(init); return new Response('User-agent: *\n') } })
    const signal = AbortSignal.timeout(1000)
    assert.equal((await own('https://a.test/robots.txt', { signal })).status, 200)
    assert.equal(seen[0].signal, signal)
    assert.equal(seen[0].redirect, 'manual')
  })

  test('retryAfterMs', () => {
    assert.equal(retryAfterMs('120'), 120_000)
    assert.equal(retryAfterMs(' 0 '), 0)
    const now = Date.parse('Sat, 01 Nov 2025 10:00:00 GMT')
    assert.equal(retryAfterMs('Sat, 01 Nov 2025 10:01:30 GMT', now), 90_000)
    assert.equal(retryAfterMs('Sat, 01 Nov 2025 09:00:00 GMT', now), 0)
    assert.equal(retryAfterMs('soon'), undefined)
    assert.equal(retryAfterMs('-5'), undefined)
    assert.equal(retryAfterMs(null), undefined)
    assert.equal(retryAfterMs(undefined), undefined)
    assert.throws(() => retryAfterMs(120), { name: 'TypeError', code: 'ERR_INVALID_ARG_TYPE' })
  })

  test('option errors', () => {
    assert.throws(() => httpFetcher({ useragent: 'x' }), { name: 'RangeError', code: 'ERR_ROBOTSTXT_INVALID_OPTION', message: /useragent/ })
    assert.throws(() => httpFetcher({ userAgent: 5 }), { name: 'TypeError' })
    assert.throws(() => httpFetcher({ fetch: 'curl' }), { name: 'TypeError' })
    assert.throws(() => httpFetcher({ maxBytes: 0 }), { name: 'RangeError', code: 'ERR_OUT_OF_RANGE' })
    assert.throws(() => httpFetcher({ maxRedirects: 1.5 }), { name: 'RangeError' })
    assert.throws(() => httpFetcher({ headers: 'a: b' }), { name: 'TypeError' })
    assert.throws(() => httpFetcher(7), { name: 'TypeError' })
  })
})
