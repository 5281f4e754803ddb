// The faults the fleet protocol survives (docs/fleet.md, "What the
// protocol survives"), through the shared classes on a real Redis server
// (see redis-server.mjs) and real HTTP servers on 127.0.0.1: the scenarios
// and assertions of tests/fleet_protocol.rs where they apply. A copy that
// does not decode, a robots.txt slower than the lease, Redis emptied or
// restarted mid-crawl, a worker's wall clock stepping, corrupt pace fields,
// and Redis down. fleet.test.mjs runs them (a suite that needs Redis, as
// the platform runs know); they run side by side, mostly waiting.

import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { createServer } from 'node:http'
import { dirname, join } from 'node:path'
import { after, before, describe, test } from 'node:test'
import { fileURLToPath } from 'node:url'

import Redis from 'ioredis'

import { Entry, SharedCache, SharedPacer, SharedRobotsCache, backend, retryAfterMs } from 'robotstxt-engine'
import { startRedis } from './redis-server.mjs'

const here = dirname(fileURLToPath(import.meta.url))
const EXAMPLES = join(here, '..', '..', '..', 'examples', 'node')
const H = 3_600_000

/**
 * The client settings docs/fleet.md shows: a call while Redis is down or
 * hung fails within about a second (the shared classes then fail safe),
 * and the client reconnects once Redis is back.
 */
const CLIENT = {
  connectTimeout: 1000,
  commandTimeout: 1000,
  maxRetriesPerRequest: 1,
  retryStrategy: (times) => Math.min(times * 100, 1000)
}

let server
const clients = []
let prefixes = 0

function client (port = server.port) {
  const redis = new Redis(port, '127.0.0.1', CLIENT)
  redis.on('error', () => {}) // calls reject while Redis is down
  clients.push(redis)
  return redis
}

function prefix () {
  prefixes += 1
  return `faults${prefixes}:`
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))

/**
 * A site on 127.0.0.1: `answer(path)` gives `{ status, headers, body,
 * delayMs }`. `log` holds every request: its path, when it arrived and
 * when it was answered (performance.now()), and the status.
 */
async function site (answer) {
  const log = []
  const http = createServer((req, res) => {
    const entry = { path: req.url, arrived: performance.now() }
    log.push(entry)
    const { status = 200, headers = {}, body = 'ok', delayMs = 0 } = answer(req.url)
    setTimeout(() => {
      entry.answered = performance.now()
      entry.status = status
      res.writeHead(status, headers).end(body)
    }, delayMs)
  })
  await new Promise((resolve) => http.listen(0, '127.0.0.1', resolve))
  return {
    origin: `http://127.0.0.1:${http.address().port}`,
    log,
    close () {
      http.closeAllConnections()
      return new Promise((resolve) => http.close(resolve))
    }
  }
}

/** A robots.txt fetch function over Node's fetch. */
async function fetchRobots (robotsUrl, { signal }) {
  const res = await fetch(robotsUrl, { signal, redirect: 'manual' })
  return { status: res.status, body: new Uint8Array(await res.arrayBuffer()) }
}

/** The suite, for fleet.test.mjs to run. */
/** Why the fleet's tests cannot run here, or false. */
export const noFleet = backend === 'wasm' &&
  'fleet mode is not in the WebAssembly build, which leaves it out to stay within its size budget (the native addon has it)'

export function faults () {
  describe('what the fleet protocol survives', { concurrency: true, skip: noFleet }, suite)
}

function suite () {
  before(async () => {
    server = await startRedis()
  })

  after(async () => {
    for (const redis of clients) redis.disconnect()
    await server.stop()
  })

  const BODY = 'User-agent: *\nDisallow: /private\n'
  const PAGE = 'https://shop.test/page'

  /** A copy as the fleet stores it, damaged as a rolling upgrade or a bad write does. */
  function damagedCopies () {
    const entry = new Entry()
    entry.record({ status: 200, body: BODY }, 0)
    const good = entry.encode(BODY)
    const newer = Buffer.from(good)
    newer[4] += 1 // the format version byte
    const flipped = Buffer.from(good)
    flipped[flipped.length >> 1] ^= 0xff
    return [
      ['a newer format', newer],
      ['a flipped byte', flipped],
      ['cut short', good.subarray(0, good.length >> 1)],
      ['not a copy', Buffer.from('garbage')]
    ]
  }

  /** A fresh copy of `origin` stored for the fleet under `p`, its data then replaced by `bytes`. */
  async function damage (admin, p, origin, bytes) {
    const writer = new SharedCache({ redis: admin, prefix: p })
    const got = await writer.lookup(`${origin}/`)
    assert.equal(got.kind, 'fetch')
    await writer.store(got.lease, { status: 200, body: BODY })
    writer.close()
    await admin.hset(`${p}copy:{${origin}}`, 'data', bytes)
  }

  test('a copy that does not decode is no copy: its reader fetches over it, no lease is left', async () => {
    const admin = client()
    for (const [how, bytes] of damagedCopies()) {
      const p = prefix()
      await damage(admin, p, 'https://shop.test', bytes)
      // A worker holding nothing meets the damaged copy, fresh in Redis:
      // it takes the lease and fetches over it.
      const reader = new SharedCache({ redis: client(), prefix: p })
      const got = await reader.lookup(PAGE)
      assert.equal(got.kind, 'fetch', how)
      assert.equal(reader.stats.unreadable, 1, how)
      // Meanwhile the others are held off: they wait, or with
      // disallow-all answer nothing allowed; they take no lease.
      const third = new SharedCache({ redis: client(), prefix: p })
      assert.equal((await third.lookup(PAGE)).kind, 'wait', how)
      const careful = new SharedCache({ redis: client(), prefix: p })
      const blanket = await careful.lookup(PAGE, null, 'disallow-all')
      assert.equal(blanket.kind, 'ready', how)
      assert.equal(blanket.answer.rulesFor('ExampleBot').isAllowed('/'), false, how)
      assert.notEqual(blanket.retryAt, null, how)
      // The reader's store replaces the damaged copy; everyone reads it.
      assert.equal(await reader.store(got.lease, { status: 200, body: BODY }), 'follow-rules', how)
      const read = await third.lookup(PAGE)
      assert.deepEqual([read.kind, read.stale], ['ready', false], how)
      const rules = read.answer.rulesFor('ExampleBot')
      assert.deepEqual([rules.isAllowed('/private'), rules.isAllowed('/public')], [false, true], how)
      assert.equal(await admin.exists(`${p}lease:{https://shop.test}`), 0, `${how}: no lease is left behind`)
    }
  })

  test('a worker that cannot read a copy gives its lease back when it gives up', async () => {
    const admin = client()
    const p = prefix()
    await damage(admin, p, 'https://shop.test', Buffer.from('junk'))
    const reader = new SharedCache({ redis: client(), prefix: p })
    await reader.abandon((await reader.lookup(PAGE)).lease)
    const next = new SharedCache({ redis: client(), prefix: p })
    assert.equal((await next.lookup(PAGE)).kind, 'fetch', 'the next worker is handed the fetch at once')
  })

  test('SharedRobotsCache fetches over a copy it cannot read, and answers from it', async () => {
    const admin = client()
    const robots = await site((path) => ({ body: path === '/robots.txt' ? BODY : 'ok' }))
    try {
      const p = prefix()
      await damage(admin, p, robots.origin, damagedCopies()[0][1])
      const cache = new SharedRobotsCache({ redis: client(), prefix: p, fetch: fetchRobots })
      const rules = await cache.rulesFor(`${robots.origin}/private`, 'ExampleBot')
      assert.deepEqual([rules.isAllowed('/private'), rules.isAllowed('/public')], [false, true])
      assert.equal(robots.log.filter((r) => r.path === '/robots.txt').length, 1)
      assert.deepEqual([cache.stats.unreadable, cache.stats.fetches], [1, 1])
    } finally {
      await robots.close()
    }
  })

  const noWorker = existsSync(join(EXAMPLES, 'node_modules', 'ioredis'))
    ? false
    : `the example's packages are not installed in ${EXAMPLES} (make node-test installs them)`
  test('the example fleet worker meets a copy it cannot read and crawls on', { skip: noWorker }, async () => {
    const admin = client()
    const shop = await site((path) => ({ body: path === '/robots.txt' ? BODY : 'ok' }))
    try {
      const p = prefix()
      await damage(admin, p, shop.origin, damagedCopies()[0][1])
      const queue = `${p}queue`
      await admin.rpush(queue, `${shop.origin}/a`, `${shop.origin}/private/b`)
      await admin.set(`${queue}:done`, '1')
      const worker = spawn(process.execPath, [join(EXAMPLES, 'fleet-worker.mjs'), '--redis-port', String(server.port),
        '--prefix', p, '--queue', queue, '--id', 'w1', '--deadline-ms', '20000', '--floor-ms', '100'],
      { cwd: EXAMPLES, stdio: ['ignore', 'pipe', 'pipe'] })
      let out = ''
      let err = ''
      worker.stdout.on('data', (chunk) => { out += chunk })
      worker.stderr.on('data', (chunk) => { err += chunk })
      const code = await new Promise((resolve) => worker.once('exit', resolve))
      assert.equal(code, 0, `the worker exited with ${code}: ${err}`)
      const events = out.trim().split('\n').map((line) => JSON.parse(line)).map((e) => `${e.event} ${new URL(e.url).pathname}`)
      assert.deepEqual(events.sort(), ['fetch /a', 'skip /private/b'])
      assert.equal(shop.log.filter((r) => r.path === '/robots.txt').length, 1)
    } finally {
      await shop.close()
    }
  })

  test('a robots.txt slower than the lease is fetched once per refresh by three workers', async () => {
    const slow = await site((path) => path === '/robots.txt' ? { body: BODY, delayMs: 3000 } : {})
    try {
      const p = prefix()
      const freshForMs = 4000
      const workers = [1, 2, 3].map(() =>
        new SharedRobotsCache({ redis: client(), prefix: p, leaseMs: 1000, freshForMs, fetch: fetchRobots }))
      const end = performance.now() + 12_000
      await Promise.all(workers.map(async (worker, i) => {
        while (performance.now() < end) {
          const rules = await worker.rulesFor(`${slow.origin}/private/${i}`, 'ExampleBot')
          assert.deepEqual([rules.isAllowed('/private/x'), rules.isAllowed('/x')], [false, true])
          await sleep(50)
        }
      }))
      // Fetched at 0 s, stored at 3 s, due at 7 s, stored again at 10 s.
      const fetches = slow.log.filter((r) => r.path === '/robots.txt')
      assert.ok(fetches.length >= 1 && fetches.length <= 2, `${fetches.length} fetches`)
      for (let i = 1; i < fetches.length; i++) {
        assert.ok(fetches[i].arrived >= fetches[i - 1].answered + freshForMs - 100,
          `fetch ${i} came ${Math.round(fetches[i].arrived - fetches[i - 1].answered)} ms after the last was answered`)
      }
      for (const worker of workers) worker.close()
    } finally {
      await slow.close()
    }
  })

  // Three workers pace four hosts of one site through Redis, which loses
  // everything 1.5 s in: off.test switched off, slow.test's crawl delay of
  // 0.7 s set by one worker, busy.test answering its first request 429
  // with Retry-After: 3, back.test answering 503 for 2.5 s (a backoff).
  // The site's log must show none of them forgotten. Each request carries
  // the time of its go (the fleet's clock): a request may leave late after
  // it on a busy machine, so the gaps between requests are the gaps between
  // their goes; a wait after an answer is read from the arrivals.
  for (const fault of ['FLUSHALL', 'a restart']) {
    test(`Redis emptied by ${fault} mid-crawl forgets no kill switch, Retry-After, backoff or crawl delay`, async () => {
      const own = await startRedis()
      const floorMs = 300
      const start = performance.now()
      let first429 = true
      const shop = await site((path) => {
        const host = path.split('/')[1]
        if (host === 'busy.test' && first429) {
          first429 = false
          return { status: 429, headers: { 'retry-after': '3' } }
        }
        if (host === 'back.test' && performance.now() < start + 2500) return { status: 503 }
        return {}
      })
      let redis = own
      try {
        const pacers = [1, 2, 3].map(() =>
          new SharedPacer({ redis: client(own.port), prefix: 'crawl:', floorMs, backoffCapMs: 5000 }))
        await pacers[0].setEnabled('off.test', false)
        await pacers[0].setDelay('slow.test', { crawlDelay: 0.7 })
        const end = start + 6000
        const crawl = async (pacer, host) => {
          while (performance.now() < end) {
            let go
            try {
              go = await pacer.wait(host)
            } catch (error) {
              if (!['ERR_ROBOTSTXT_HOST_DISABLED', 'ERR_ROBOTSTXT_REDIS'].includes(error.code)) throw error
              await sleep(100)
              continue
            }
            const res = await fetch(`${shop.origin}/${host}/page?go=${go}`)
            await res.arrayBuffer()
            await pacer.record(host, { status: res.status, retryAfterMs: retryAfterMs(res.headers.get('retry-after')) })
              .catch((error) => { if (error.code !== 'ERR_ROBOTSTXT_REDIS') throw error })
          }
        }
        const hosts = ['off.test', 'slow.test', 'busy.test', 'back.test']
        const crawling = Promise.all(pacers.flatMap((pacer) => hosts.map((host) => crawl(pacer, host))))
        await sleep(1500)
        const faultAt = performance.now()
        if (fault === 'FLUSHALL') {
          await client(own.port).flushall()
        } else {
          await own.stop()
          await sleep(300)
          redis = await startRedis(own.port)
        }
        await crawling
        const of = (host) => shop.log.filter((r) => r.path.startsWith(`/${host}/`))
        assert.equal(of('off.test').length, 0, 'a request to a switched-off host')
        const slow = of('slow.test')
        assert.ok(slow.some((r) => r.arrived < faultAt) && slow.some((r) => r.arrived > faultAt + 500), 'slow.test crawled throughout')
        const goes = slow.map((r) => Number(new URL(r.path, shop.origin).searchParams.get('go'))).sort((a, b) => a - b)
        for (let i = 1; i < goes.length; i++) {
          const gap = goes[i] - goes[i - 1]
          assert.ok(gap >= 700, `slow.test: two requests ${gap} ms apart under a 700 ms crawl delay`)
        }
        const busy = of('busy.test')
        assert.equal(busy[0].status, 429)
        assert.ok(busy[0].answered + 3000 > faultAt, 'the fault came inside the Retry-After')
        for (const r of busy.slice(1)) {
          assert.ok(r.arrived >= busy[0].answered + 3000, `busy.test: a request ${Math.round(r.arrived - busy[0].answered)} ms into a 3 s Retry-After`)
        }
        // Each 503 doubles the gap (from the floor, capped): the next
        // request waits that long after it.
        let factor = 1
        const back = of('back.test')
        for (let i = 0; i + 1 < back.length; i++) {
          if (back[i].status !== 503) break
          factor *= 2
          const gap = Math.min(floorMs * factor, 5000)
          const after = back[i + 1].arrived - back[i].answered
          assert.ok(after >= gap - 50, `back.test: a request ${Math.round(after)} ms after its ${i + 1}th 503, under a ${gap} ms backoff`)
        }
        assert.ok(factor >= 4, `back.test backed off ${factor}x`)
        for (const pacer of pacers) pacer.close()
      } finally {
        await shop.close()
        await redis.stop()
      }
    })
  }

  test('a worker\'s wall clock stepping back or forward keeps no copy past its due', async () => {
    for (const step of [-H, H]) {
      let body = 'User-agent: *\nAllow: /\n'
      const shop = await site((path) => ({ body: path === '/robots.txt' ? body : 'ok' }))
      const realNow = Date.now
      try {
        const cache = new SharedRobotsCache({ redis: client(), prefix: prefix(), freshForMs: 2000, fetch: fetchRobots })
        const page = `${shop.origin}/page`
        assert.equal((await cache.rulesFor(page, 'ExampleBot')).isAllowed(page), true)
        // The site disallows the page; the worker's clock steps by an hour.
        body = 'User-agent: *\nDisallow: /page\n'
        Date.now = () => realNow() + step
        await sleep(2500)
        const rules = await cache.rulesFor(page, 'ExampleBot')
        assert.equal(rules.isAllowed(page), false, `a copy used 0.5 s past its due, the clock stepped by ${step} ms`)
        cache.close()
      } finally {
        Date.now = realNow
        await shop.close()
      }
    }
  })

  test('corrupt pace fields: wait returns, never sooner than the pace they replaced', async () => {
    const admin = client()
    const redis = client()
    const p = prefix()
    // The cap no lower than the delay, as the reference test has it: an
    // unreadable delay is repaired to the cap.
    const options = { redis, prefix: p, floorMs: 100, backoffCapMs: 1000 }
    const fields = ['gen', 'next', 'nb', 'delay', 'factor', 'last', 'off']
    const values = ['nan', 'inf', '-inf', '-5', 'a lot']
    await Promise.all(fields.flatMap((field) => values.map(async (value, i) => {
      const host = `${field}${i}.test`
      const what = `${field}=${value}`
      const worker = new SharedPacer(options)
      await worker.setDelay(host, { crawlDelay: 1 })
      const first = await worker.wait(host)
      await worker.record(host, { status: 200 })
      await admin.hset(`${p}pace:{${host}}`, field, value)
      // A worker that knows nothing of the host, to restore from.
      const other = new SharedPacer(options)
      const got = await Promise.race([
        other.wait(host).then((start) => ({ start }), (error) => ({ error })),
        sleep(5000).then(() => ({ hung: true }))
      ])
      assert.ok(!got.hung, `${what}: wait did not return within 5 s`)
      if (field === 'off') {
        assert.equal(got.error?.code, 'ERR_ROBOTSTXT_HOST_DISABLED', `${what}: a damaged switch switches off`)
      } else {
        assert.equal(got.error, undefined, `${what}: ${got.error}`)
        assert.ok(got.start - first >= 1000, `${what}: the next start came ${got.start - first} ms after the last, under a 1,000 ms delay`)
      }
    })))
  })

  test('Redis down or hung: a call answers fail-safe within about a second, with the settings the docs show', async () => {
    const own = await startRedis()
    const redis = client(own.port)
    const p = prefix()
    const cache = new SharedRobotsCache({ redis, prefix: p, fetch: () => assert.fail('no fetch while Redis is down') })
    const pacer = new SharedPacer({ redis, prefix: p })
    await redis.ping()
    const timed = async (what, call) => {
      const t = performance.now()
      const got = await call()
      const ms = performance.now() - t
      assert.ok(ms < 2000, `${what}: ${Math.round(ms)} ms`)
      return got
    }
    const failSafe = async (how) => {
      const answer = await timed(`${how}: the cache`, () => cache.answerFor('https://a.test/'))
      assert.equal(answer.kind, 'disallow-all', how)
      await timed(`${how}: the pacer`, () => assert.rejects(pacer.wait('a.test'), { code: 'ERR_ROBOTSTXT_REDIS' }))
    }
    process.kill(own.pid, 'SIGSTOP') // hung: connected, never answering
    try {
      await failSafe('hung')
    } finally {
      process.kill(own.pid, 'SIGCONT')
    }
    await own.stop() // gone: connections refused
    await failSafe('down')
    assert.ok(cache.stats.redisErrors >= 2)
  })
}
