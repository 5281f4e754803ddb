// A fleet's shared state through a real Redis server (see
// redis-server.mjs): stored copies round-trip; workers fetch each
// robots.txt once and pace each host as one crawler; the cache and pacing
// vectors hold through Redis as they do locally, but for the differences
// named below; Redis down fails safe; and the faults the protocol survives
// (fleet-faults.mjs).

import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { after, before, describe, test } from 'node:test'
import { fileURLToPath } from 'node:url'

import Redis from 'ioredis'

import {
  Entry, Robots, SharedCache, SharedPacer, SharedRobotsCache, backend, fleetScript, paceMs, pacerHost, robotsOrigin
} from 'robotstxt-engine'
import { cacheOptions, runCacheSteps } from './cache-vectors.mjs'
import { faults, noFleet } from './fleet-faults.mjs'
import { startRedis } from './redis-server.mjs'

const here = dirname(fileURLToPath(import.meta.url))
const H = 3_600_000

let server
const clients = []
let prefixes = 0

function client (port = server.port) {
  const redis = new Redis(port, '127.0.0.1', { maxRetriesPerRequest: 0, retryStrategy: () => null })
  redis.on('error', () => {}) // refused connections surface as rejected calls
  clients.push(redis)
  return redis
}

/** A key prefix no other test uses. */
function prefix () {
  prefixes += 1
  return `test${prefixes}:`
}

before(async () => {
  server = await startRedis()
})

after(async () => {
  for (const redis of clients) redis.disconnect()
  await server.stop()
})

function throwsWith (fn, Kind, code, message) {
  assert.throws(fn, (error) => {
    assert.ok(error instanceof Kind, `${error}`)
    assert.equal(error.code, code)
    if (message !== undefined) assert.match(error.message, message)
    return true
  })
}

describe('a copy as bytes (Entry.encode, Entry.decode)', () => {
  const body = 'User-agent: *\nDisallow: /private/\nCrawl-delay: 2\n'

  test('decodes to an entry that answers as the one encoded', () => {
    const entry = new Entry()
    entry.record({ status: 200, body, etag: '"v1"' }, 1000)
    const bytes = entry.encode(body)
    assert.ok(Buffer.isBuffer(bytes))
    const copy = Entry.decode(bytes)
    assert.deepEqual([copy.dueAt, copy.fetchedAt, copy.failures, copy.validators],
      [entry.dueAt, entry.fetchedAt, entry.failures, entry.validators])
    const rules = copy.cachedAnswer(2000).rulesFor('ExampleBot')
    assert.deepEqual([rules.isAllowed('/private/x'), rules.isAllowed('/x'), rules.crawlDelay], [false, true, 2])
    assert.equal(Entry.storedBody(bytes).toString(), body)
    // A failed refresh recorded into the copy: encoded with the kept body.
    copy.record({ status: 503 }, 25 * H)
    const again = Entry.decode(copy.encode(Entry.storedBody(bytes)))
    assert.equal(again.cachedAnswer(25 * H).kind, 'rules')
    assert.equal(again.failures, 1)
    // A blanket answer needs no body.
    const gone = new Entry()
    gone.record({ status: 404 }, 0)
    assert.equal(Entry.decode(gone.encode()).cachedAnswer(1).kind, 'allow-all')
  })

  test('another body, damaged bytes and wrong types are refused', () => {
    const entry = new Entry()
    entry.record({ status: 200, body }, 0)
    throwsWith(() => entry.encode('User-agent: *\nDisallow: /\n'), RangeError, 'ERR_ROBOTSTXT_BODY_MISMATCH', /Entry::stored_body/)
    throwsWith(() => entry.encode(), RangeError, 'ERR_ROBOTSTXT_BODY_MISMATCH')
    const bytes = entry.encode(body)
    for (const at of [0, 4, 9, bytes.length - 1]) {
      const damaged = Buffer.from(bytes)
      damaged[at] ^= 0x10
      assert.throws(() => Entry.decode(damaged), (error) => ['ERR_ROBOTSTXT_INVALID_COPY', 'ERR_ROBOTSTXT_COPY_VERSION'].includes(error.code))
    }
    throwsWith(() => Entry.decode(bytes.subarray(0, 20)), Error, 'ERR_ROBOTSTXT_INVALID_COPY', /cut short/)
    throwsWith(() => Entry.decode(bytes.toString('latin1')), TypeError, 'ERR_INVALID_ARG_TYPE', /^bytes must be a Buffer or a Uint8Array/)
    throwsWith(() => Entry.storedBody(null), TypeError, 'ERR_INVALID_ARG_TYPE')
    throwsWith(() => entry.encode(7), TypeError, 'ERR_INVALID_ARG_TYPE')
  })
})

describe('what a store needs', () => {
  test('fleetScript, robotsOrigin, pacerHost, paceMs', () => {
    assert.match(fleetScript('reserve'), /HostPace::reserve/)
    assert.match(fleetScript('lookup'), /local function clock/) // the prelude comes first
    throwsWith(() => fleetScript('nope'), RangeError, 'ERR_OUT_OF_RANGE', /pass one of lookup, store/)
    assert.equal(robotsOrigin('HTTPS://Shop.Test:443/a?b'), 'https://shop.test')
    throwsWith(() => robotsOrigin('ftp://x'), RangeError, 'ERR_ROBOTSTXT_INVALID_URL')
    assert.equal(pacerHost('Shop.TEST'), 'shop.test')
    throwsWith(() => pacerHost(''), RangeError, 'ERR_ROBOTSTXT_INVALID_HOST')
    assert.equal(paceMs({ crawlDelay: 0.1 }), 100)
    assert.equal(paceMs({ crawlDelay: 0.0001, requestRate: null }), 1)
    assert.equal(paceMs({ crawlDelay: 1, requestRate: { requests: 1, seconds: 3 } }), 3000)
    throwsWith(() => paceMs({ crawlDelay: -1 }), RangeError, 'ERR_OUT_OF_RANGE')
  })
})

/** A fetch function over fixed bodies that counts its calls. */
function counting (answers, delayMs = 30) {
  const fetch = async (robotsUrl) => {
    fetch.calls.push(robotsUrl)
    await new Promise((resolve) => setTimeout(resolve, delayMs))
    const answer = answers[robotsUrl]
    return typeof answer === 'function' ? answer() : answer
  }
  fetch.calls = []
  return fetch
}

describe('SharedRobotsCache', { skip: noFleet }, () => {
  const SHOP = 'User-agent: *\nDisallow: /private/\nCrawl-delay: 0.5\n'

  test('two workers, forty questions at once: one fetch per origin', async () => {
    const p = prefix()
    const fetch = counting({
      'https://a.test/robots.txt': { status: 200, body: SHOP },
      'https://b.test/robots.txt': { status: 404 }
    })
    const workers = [1, 2].map(() => new SharedRobotsCache({ redis: client(), prefix: p, fetch }))
    const asks = []
    for (let i = 0; i < 10; i++) {
      for (const worker of workers) {
        asks.push(worker.rulesFor(`https://a.test/private/${i}`, 'ExampleBot'))
        asks.push(worker.rulesFor(`https://b.test/private/${i}`, 'ExampleBot'))
      }
    }
    const rules = await Promise.all(asks)
    assert.deepEqual(fetch.calls.sort(), ['https://a.test/robots.txt', 'https://b.test/robots.txt'])
    for (let i = 0; i < rules.length; i += 2) {
      assert.equal(rules[i].isAllowed('/private/x'), false)
      assert.equal(rules[i].crawlDelay, 0.5)
      assert.equal(rules[i + 1].isAllowed('/private/x'), true) // 404: allow all
    }
    // Later questions need no Redis call and no fetch.
    assert.equal((await workers[1].answerFor('https://a.test/')).kind, 'rules')
    assert.equal(fetch.calls.length, 2)
    assert.equal(workers[0].size, 2)
    for (const worker of workers) worker.close()
    await assert.rejects(workers[0].answerFor('https://a.test/'), { code: 'ERR_ROBOTSTXT_CLOSED' })
  })

  test('a due copy is fetched again by one worker; a 503 keeps the old copy for all', async () => {
    const p = prefix()
    let t = Date.now()
    const now = () => t
    let status = 200
    const fetch = counting({ 'https://a.test/robots.txt': () => status === 200 ? { status, body: SHOP } : { status } })
    const [one, two] = [1, 2].map(() => new SharedRobotsCache({ redis: client(), prefix: p, fetch, now }))
    assert.equal((await one.rulesFor('https://a.test/x', 'ExampleBot')).isAllowed('/private/'), false)
    assert.equal((await two.rulesFor('https://a.test/x', 'ExampleBot')).isAllowed('/private/'), false)
    assert.equal(fetch.calls.length, 1)
    t += 25 * H
    status = 503
    const answers = await Promise.all([one.answerFor('https://a.test/'), two.answerFor('https://a.test/')])
    assert.equal(fetch.calls.length, 2)
    for (const answer of answers) {
      assert.equal(answer.kind, 'rules') // the old copy, kept
      assert.equal(answer.rulesFor('ExampleBot').isAllowed('/private/'), false)
    }
    // The retry is due in an hour, for the fleet.
    t += H - 1
    await two.answerFor('https://a.test/')
    assert.equal(fetch.calls.length, 2)
    t += 1
    status = 200
    await two.answerFor('https://a.test/')
    await one.answerFor('https://a.test/')
    assert.equal(fetch.calls.length, 3)
  })

  test('what the fetch function gives that is no outcome is thrown, and the lease given back', async () => {
    const p = prefix()
    const fetch = counting({ 'https://a.test/robots.txt': { status: 'two hundred' } })
    const cache = new SharedRobotsCache({ redis: client(), prefix: p, fetch })
    await assert.rejects(cache.answerFor('https://a.test/'), TypeError)
    // The lease went back: the next question fetches at once.
    await assert.rejects(cache.answerFor('https://a.test/'), TypeError)
    assert.equal(fetch.calls.length, 2)
  })

  test('bad arguments', async () => {
    assert.throws(() => new SharedRobotsCache({ redis: {}, fetch: () => {} }), { code: 'ERR_INVALID_ARG_TYPE', message: /callBuffer/ })
    assert.throws(() => new SharedRobotsCache({ redis: client(), fetch: 5 }), { code: 'ERR_INVALID_ARG_TYPE' })
    assert.throws(() => new SharedRobotsCache({ redis: client(), fetch: () => {}, freshForMs: -1 }), RangeError)
    assert.throws(() => new SharedRobotsCache({ redis: client(), fetch: () => {}, whenFetching: 'later' }), RangeError)
    const cache = new SharedRobotsCache({ redis: client(), prefix: prefix(), fetch: () => ({ status: 404 }) })
    await assert.rejects(cache.answerFor('ftp://a.test/'), { code: 'ERR_ROBOTSTXT_INVALID_URL' })
    await assert.rejects(cache.rulesFor('https://a.test/', 5), { code: 'ERR_INVALID_ARG_TYPE' })
  })
})

/** `redis`, counting the scripts run through it by name. */
function counted (redis) {
  const runs = []
  return {
    runs,
    callBuffer (command, ...args) {
      runs.push(command)
      return redis.callBuffer(command, ...args)
    }
  }
}

describe('SharedCache', { skip: noFleet }, () => {
  const BODY = 'User-agent: *\nDisallow: /private/\n'

  test('one worker fetches; another waits, or is disallowed until the lease runs out, then reads the copy', async () => {
    const p = prefix()
    const [one, two] = [1, 2].map(() => new SharedCache({ redis: client(), prefix: p, leaseMs: 30_000 }))
    const t = 1_700_000_000_000
    const got = await one.lookup('https://a.test/x', t)
    assert.equal(got.kind, 'fetch')
    assert.deepEqual({ ...got.lease }, { origin: 'https://a.test', robotsUrl: 'https://a.test/robots.txt', etag: null, lastModified: null })
    assert.ok(Object.isFrozen(got.lease))
    assert.deepEqual(await two.lookup('https://a.test/y', t + 1000),
      { kind: 'wait', answer: null, stale: null, retryAt: null, lease: null, until: t + 30_000 })
    const blanket = await two.lookup('https://a.test/y', t + 1000, 'disallow-all')
    assert.deepEqual([blanket.kind, blanket.stale, blanket.retryAt, blanket.answer.kind, blanket.answer.retryAt],
      ['ready', false, t + 30_000, 'disallow-all', t + 30_000])
    assert.deepEqual(blanket.answer.blanket, { allowed: false, cause: { kind: 'not-fetched' } })
    assert.equal(await one.store(got.lease, { status: 200, body: BODY, etag: '"v1"' }, t + 2000), 'follow-rules')
    const read = await two.lookup('https://a.test/y', t + 3000)
    assert.equal(read.kind, 'ready')
    assert.equal(read.answer.rulesFor('ExampleBot').isAllowed('/private/z'), false)
    assert.deepEqual(two.stats, { hits: 1, misses: 2, fetches: 0, stale: 0, evictions: 0, unreadable: 0, redisErrors: 0, entries: 1 })
    // Due a day later: the validators of the fleet's copy come with the lease.
    const again = await two.lookup('https://a.test/', t + 86_402_000)
    assert.equal(again.kind, 'fetch')
    assert.equal(again.lease.etag, '"v1"')
    assert.equal(await two.store(again.lease, { status: 304 }, t + 86_403_000), 'not-modified')
    const renewed = await one.lookup('https://a.test/private/', t + 86_404_000)
    assert.deepEqual([renewed.kind, renewed.stale, renewed.answer.kind], ['ready', false, 'rules'])
    one.close()
    two.close()
  })

  test('a lease ends once: stored or abandoned, it is refused again without a call to Redis', async () => {
    const redis = counted(client())
    const cache = new SharedCache({ redis, prefix: prefix() })
    const other = new SharedCache({ redis: client(), prefix: prefix() })
    const stored = (await cache.lookup('https://a.test/')).lease
    const abandoned = (await cache.lookup('https://b.test/')).lease
    await assert.rejects(other.store(stored, { status: 404 }), { code: 'ERR_ROBOTSTXT_INVALID_LEASE', message: /another cache/ })
    // An outcome that is none leaves the lease open.
    await assert.rejects(cache.store(stored, { status: 'two hundred' }), TypeError)
    assert.equal(await cache.store(stored, { status: 404 }), 'allow-all')
    await cache.abandon(abandoned)
    const runs = redis.runs.length
    for (const lease of [stored, abandoned]) {
      await assert.rejects(cache.store(lease, { status: 404 }), { code: 'ERR_ROBOTSTXT_INVALID_LEASE', message: /already stored or abandoned/ })
      await assert.rejects(cache.abandon(lease), { code: 'ERR_ROBOTSTXT_INVALID_LEASE' })
    }
    assert.equal(redis.runs.length, runs)
    // The abandoned fetch is handed out again at once.
    assert.equal((await other.lookup('https://b.test/')).kind, 'fetch')
    await assert.rejects(cache.store({ ...stored }, { status: 404 }), { code: 'ERR_INVALID_ARG_TYPE' })
    cache.close()
    await assert.rejects(cache.lookup('https://a.test/'), { code: 'ERR_ROBOTSTXT_CLOSED' })
  })

  test('bad arguments, and Redis down', async () => {
    const cache = new SharedCache({ redis: client(), prefix: prefix() })
    await assert.rejects(cache.lookup('ftp://a.test/'), { code: 'ERR_ROBOTSTXT_INVALID_URL' })
    await assert.rejects(cache.lookup('https://a.test/', -1), { code: 'ERR_OUT_OF_RANGE' })
    await assert.rejects(cache.lookup('https://a.test/', 'now'), { code: 'ERR_INVALID_ARG_TYPE' })
    await assert.rejects(cache.lookup('https://a.test/', null, 'later'), { code: 'ERR_ROBOTSTXT_INVALID_OPTION' })
    await assert.rejects(cache.abandon(null), { code: 'ERR_INVALID_ARG_TYPE' })
    assert.throws(() => new SharedCache({ redis: client(), fetch: () => {} }), RangeError) // an unknown option
    const own = await startRedis()
    const down = new SharedCache({ redis: client(own.port), prefix: prefix() })
    const lease = (await down.lookup('https://a.test/')).lease
    await own.stop()
    await assert.rejects(down.lookup('https://b.test/'), { code: 'ERR_ROBOTSTXT_REDIS' })
    await assert.rejects(down.store(lease, { status: 404 }), { code: 'ERR_ROBOTSTXT_REDIS' })
    assert.equal(down.stats.redisErrors, 2)
    // What the worker fetched answers it while Redis is down.
    assert.equal((await down.lookup('https://a.test/')).answer.kind, 'allow-all')
  })
})

/** `steps` with step `index`, which must still hold `was`, replaced by `now`. */
function replaced (steps, index, was, now) {
  for (const [key, value] of Object.entries(was)) {
    assert.deepEqual(steps[index]?.[key], value, `step ${index} changed: review the difference`)
  }
  return steps.with(index, now)
}

// Where a fleet answers otherwise by design: case → [why, its steps].
const FLEET_DIFFERENCES = new Map([
  ['an expired lease goes to the next caller; the late store still counts', [
    'a copy is stored only under the current lease (a stale worker never overwrites the ' +
      "fleet's copy): the late store of L1 is refused, and at 62 s L2 is still held",
    (steps) => replaced(replaced(steps, 3, { at_s: 61, store: 'L1' }, { ...steps[3], error: 'invalid_lease' }),
      4, { at_s: 62, expect: 'ready' }, { at_s: 62, lookup: steps[4].lookup, expect: 'wait', until_s: 120 })
  ]],
  ['capacity: the least recently used origin is evicted', [
    "capacity bounds the copies a worker holds parsed, not the fleet's copies in Redis: an origin " +
      'dropped from the worker is read back from Redis, not fetched again',
    (steps) => replaced(steps, 8, { at_s: 5, lookup: 'https://b.test/', expect: 'fetch' },
      { at_s: 5, lookup: 'https://b.test/', expect: 'ready', stale: false, answer: 'allow_all' })
  ]],
  ['origins are normalised: case, default port, userinfo', [
    'the entries a worker counts are the copies it holds: the two origins it was handed to fetch have none yet',
    (steps) => replaced(steps, 5, { stats: { entries: 3 } }, { stats: { entries: 1 } })
  ]]
])

// The cache vectors (tests/vectors/cache.json) through SharedCache, each
// case under its own prefix, on an injected clock. Their stats steps are
// asserted too: a worker's counters match the local cache's, but for the
// entries named above.
describe('the cache vectors, shared', { skip: noFleet }, () => {
  const doc = JSON.parse(readFileSync(join(here, '..', '..', '..', 'tests', 'vectors', 'cache.json'), 'utf8'))
  const EPOCH = 1_700_000_000_000
  test('every named difference is a case', () => {
    const names = doc.cases.map((c) => c.name)
    for (const name of FLEET_DIFFERENCES.keys()) assert.ok(names.includes(name), `no case ${name}`)
  })
  for (const kase of doc.cases) {
    const difference = FLEET_DIFFERENCES.get(kase.name)
    test(difference === undefined ? kase.name : `${kase.name} (a fleet differs: ${difference[0]})`, async () => {
      const cache = new SharedCache({ redis: client(), prefix: prefix(), ...cacheOptions(kase, kase.name) })
      try {
        await runCacheSteps(kase, kase.name, cache, { epoch: EPOCH, steps: difference?.[1](kase.steps) })
      } finally {
        cache.close()
      }
    })
  }
})

describe('Redis unreachable', { skip: noFleet }, () => {
  test('the cache fails safe: the copy held answers, an origin without one is disallowed', async () => {
    const own = await startRedis()
    const fetch = counting({
      'https://a.test/robots.txt': { status: 200, body: 'User-agent: *\nDisallow: /x\n' },
      'https://b.test/robots.txt': { status: 404 }
    })
    let t = Date.now()
    const errors = []
    const cache = new SharedRobotsCache({
      redis: client(own.port), prefix: prefix(), fetch, now: () => t, onRedisError: (e) => errors.push(e)
    })
    await cache.answerFor('https://a.test/')
    await own.stop()
    t += 25 * H // due: Redis is asked, and does not answer
    const held = await cache.answerFor('https://a.test/')
    assert.equal(held.rulesFor('ExampleBot').isAllowed('/x'), false)
    const none = await cache.answerFor('https://b.test/')
    assert.equal(none.kind, 'disallow-all')
    assert.equal(none.rulesFor('ExampleBot').isAllowed('/anything'), false)
    assert.equal(fetch.calls.length, 1)
    assert.ok(errors.length >= 2 && errors.every((e) => e.code === 'ERR_ROBOTSTXT_REDIS'), `${errors}`)
    assert.equal(cache.stats.redisErrors, errors.length)
  })

  test('with localFallback the worker fetches for itself, and warns', async () => {
    const own = await startRedis()
    await own.stop()
    const fetch = counting({ 'https://b.test/robots.txt': { status: 404 } })
    const warnings = []
    const onWarning = (w) => warnings.push(w)
    process.on('warning', onWarning)
    try {
      const cache = new SharedRobotsCache({ redis: client(own.port), prefix: prefix(), fetch, localFallback: true })
      const answer = await cache.answerFor('https://b.test/')
      assert.equal(answer.kind, 'allow-all')
      assert.equal(fetch.calls.length, 1)
      await new Promise((resolve) => setImmediate(resolve))
      assert.ok(warnings.some((w) => w.code === 'ROBOTSTXT_REDIS_FALLBACK'), `${warnings}`)
    } finally {
      process.off('warning', onWarning)
    }
  })

  test('with localFallback the pacer paces by the worker\'s own pacer', async () => {
    const own = await startRedis()
    await own.stop()
    const pacer = new SharedPacer({ redis: client(own.port), prefix: prefix(), floorMs: 100, localFallback: true })
    const first = await pacer.wait('a.test')
    await pacer.record('a.test', { status: 200 })
    const second = await pacer.wait('a.test')
    assert.ok(second - first >= 100, `${second - first}`)
  })

  test('the pacer hands out no slot', async () => {
    const own = await startRedis()
    await own.stop()
    const pacer = new SharedPacer({ redis: client(own.port), prefix: prefix() })
    await assert.rejects(pacer.wait('a.test'), { code: 'ERR_ROBOTSTXT_REDIS' })
    await assert.rejects(pacer.reserve('a.test'), { code: 'ERR_ROBOTSTXT_REDIS' })
  })
})

describe('SharedPacer', { skip: noFleet }, () => {
  test('two workers take turns one crawl delay apart; a 429 holds back both', async () => {
    const p = prefix()
    const [one, two] = [1, 2].map(() => new SharedPacer({ redis: client(), prefix: p, floorMs: 0 }))
    await one.setRules('a.test', Robots.parse('User-agent: *\nCrawl-delay: 0.2\n').rulesFor('ExampleBot'))
    assert.equal(await two.gapMs('A.test'), 200)
    const tickets = []
    for (let i = 0; i < 4; i++) tickets.push(await (i % 2 ? two : one).reserve('a.test'))
    for (let i = 1; i < 4; i++) assert.equal(tickets[i].start - tickets[i - 1].start, 200)
    await two.record('a.test', { status: 429, retryAfterMs: 5000 })
    const later = await one.reserve('a.test')
    assert.ok(later.start - tickets[0].start >= 5000, `${later.start - tickets[0].start}`)
    assert.equal(await one.gapMs('a.test'), 400)
    await two.setEnabled('a.test', false)
    assert.equal(await one.reserve('a.test'), null)
    await assert.rejects(one.wait('a.test'), { code: 'ERR_ROBOTSTXT_HOST_DISABLED' })
    await two.setEnabled('a.test', true)
  })

  test('wait: requests from two workers start a gap apart, one in flight at a time', async () => {
    const p = prefix()
    const [one, two] = [1, 2].map(() => new SharedPacer({ redis: client(), prefix: p, floorMs: 100 }))
    const starts = []
    await Promise.all([one, two, one, two].map(async (pacer) => {
      const start = await pacer.wait('b.test')
      starts.push(start)
      assert.equal(await pacer.inFlight('b.test'), 1)
      await pacer.record('b.test', { status: 200 })
    }))
    starts.sort((a, b) => a - b)
    for (let i = 1; i < starts.length; i++) assert.ok(starts[i] - starts[i - 1] >= 100, `${starts}`)
    assert.equal(await one.inFlight('b.test'), 0)
  })

  test('a crawl delay outlives the pace Redis lost: a worker that knew it gives it back', async () => {
    const p = prefix()
    const admin = client()
    const [one, two, three] = [1, 2, 3].map(() => new SharedPacer({ redis: client(), prefix: p, floorMs: 0 }))
    await one.setDelay('d.test', { crawlDelay: 0.25 })
    const keys = await admin.keys(`${p}*`)
    assert.ok(keys.length > 0)
    await admin.del(...keys) // as a restart with empty memory would
    const first = await one.reserve('d.test')
    const second = await two.reserve('d.test')
    assert.equal(second.start - first.start, 250)
    assert.equal(await two.gapMs('d.test'), 250)
    // two knows it now, from Redis's answer, and gives it back in turn.
    await admin.del(...(await admin.keys(`${p}*`)))
    const a = await two.reserve('d.test')
    const b = await two.reserve('d.test')
    assert.equal(b.start - a.start, 250)
    // A worker that never paced the host has nothing to give: the floor.
    await admin.del(...(await admin.keys(`${p}*`)))
    const c = await three.reserve('d.test')
    const d = await three.reserve('d.test')
    assert.ok(d.start - c.start < 250, `${d.start - c.start}`)
  })

  test('bad arguments', async () => {
    const pacer = new SharedPacer({ redis: client(), prefix: prefix() })
    assert.throws(() => new SharedPacer({ redis: client(), floorMs: -1 }), RangeError)
    await assert.rejects(pacer.reserve(''), { code: 'ERR_ROBOTSTXT_INVALID_HOST' })
    await assert.rejects(pacer.confirm({}), { code: 'ERR_INVALID_ARG_TYPE' })
    await assert.rejects(pacer.record('a.test', { status: 7 }), { code: 'ERR_INVALID_ARG_TYPE' })
    await assert.rejects(pacer.setRules('a.test', {}), { code: 'ERR_INVALID_ARG_TYPE' })
    await assert.rejects(pacer.setEnabled('a.test', 'no'), { code: 'ERR_INVALID_ARG_TYPE' })
    const ticket = await pacer.reserve('c.test')
    assert.equal((await pacer.confirm(ticket)).kind, 'go')
    await assert.rejects(pacer.confirm(ticket), { code: 'ERR_ROBOTSTXT_INVALID_TICKET' })
    pacer.close()
    await assert.rejects(pacer.reserve('a.test'), { code: 'ERR_ROBOTSTXT_CLOSED' })
  })
})

// The pacing vectors (tests/vectors/pacing.json) through Redis, times
// shifted to now (Redis expires keys by its clock). The capacity cases
// have no counterpart: Redis holds every host.
const LOCAL_ONLY = new Set([
  'a full pacer never forgets a switched-off or backing-off host',
  'a full pacer forgets the least recently used idle host, never one inside its gap'
])

describe('the pacing vectors, shared', { skip: noFleet }, () => {
  const doc = JSON.parse(readFileSync(join(here, '..', '..', '..', 'tests', 'vectors', 'pacing.json'), 'utf8'))
  test('every case but the capacity ones runs', () => {
    const names = doc.cases.map((c) => c.name)
    for (const name of LOCAL_ONLY) assert.ok(names.includes(name), `no case ${name}`)
    assert.ok(names.length - LOCAL_ONLY.size >= 15)
  })
  for (const kase of doc.cases) {
    if (LOCAL_ONLY.has(kase.name)) continue
    test(kase.name, async () => {
      const base = Date.now()
      let t = base
      const ms = (s) => Math.round(s * 1000)
      const o = kase.options ?? {}
      const pacer = new SharedPacer({
        redis: client(),
        prefix: prefix(),
        now: () => t,
        floorMs: o.floor_s === undefined ? undefined : ms(o.floor_s),
        backoffCapMs: o.backoff_cap_s === undefined ? undefined : ms(o.backoff_cap_s),
        maxInFlight: o.max_in_flight,
        inFlightTimeoutMs: o.in_flight_timeout_s === undefined ? undefined : ms(o.in_flight_timeout_s)
      })
      const tickets = new Map()
      for (const [i, step] of kase.steps.entries()) {
        const where = `step ${i}`
        t = base + ms(step.at_s)
        if (step.reserve !== undefined) {
          if (step.error !== undefined) {
            await assert.rejects(pacer.reserve(step.reserve), { code: 'ERR_ROBOTSTXT_INVALID_HOST' }, where)
            continue
          }
          const ticket = await pacer.reserve(step.reserve)
          assert.equal(ticket === null ? null : ticket.start - base, step.start_s === null ? null : ms(step.start_s), where)
          if (step.ticket !== undefined && ticket !== null) tickets.set(step.ticket, ticket)
        } else if (step.confirm !== undefined) {
          const ticket = tickets.get(step.confirm)
          if (step.error !== undefined) {
            await assert.rejects(pacer.confirm(ticket), { code: 'ERR_ROBOTSTXT_INVALID_TICKET' }, where)
            continue
          }
          const got = await pacer.confirm(ticket)
          assert.equal(got.kind, step.expect, where)
          if (step.until_s !== undefined) assert.equal(got.until - base, ms(step.until_s), where)
          if (step.busy !== undefined) assert.equal(got.busy, step.busy, where)
        } else if (step.cancel !== undefined) {
          await pacer.cancel(tickets.get(step.cancel))
        } else if (step.in_flight !== undefined) {
          assert.equal(await pacer.inFlight(step.in_flight.host), step.in_flight.count, where)
        } else if (step.set_rules !== undefined) {
          const set = step.set_rules
          await pacer.setRules(set.host, Robots.parse(set.body).rulesFor(set.token))
        } else if (step.set_delay !== undefined) {
          const set = step.set_delay
          await pacer.setDelay(set.host, { crawlDelay: set.crawl_delay_s ?? null, requestRate: set.request_rate ?? null })
        } else if (step.record !== undefined) {
          const r = step.record
          await pacer.record(r.host, { status: r.status ?? null, retryAfterMs: r.retry_after_s === undefined ? null : ms(r.retry_after_s) })
        } else if (step.enabled !== undefined) {
          await pacer.setEnabled(step.enabled.host, step.enabled.on)
        } else if (step.gap_s !== undefined) {
          assert.equal(await pacer.gapMs(step.gap_s.host), ms(step.gap_s.gap), where)
        } else {
          assert.fail(`${where}: a step with nothing to do`)
        }
      }
    })
  }
})

faults()

test('the WebAssembly build says fleet mode needs the native addon', { skip: backend !== 'wasm' && 'the native addon has fleet mode' }, () => {
  const redis = { callBuffer: async () => null }
  for (const make of [() => new SharedCache({ redis }), () => new SharedPacer({ redis }),
    () => new SharedRobotsCache({ redis, fetch: async () => ({ status: 404 }) })]) {
    assert.throws(make, { code: 'ERR_ROBOTSTXT_UNSUPPORTED', message: /needs the native addon/ })
  }
})
