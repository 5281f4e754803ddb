// A crawler as the README writes it (RobotsCache + httpFetcher, Pacer.wait,
// record), against real node:http servers on 127.0.0.1: URLs whose
// authority HTTP clients read differently never reach a disallowed page,
// and a 429 with Retry-After holds back every request already waiting.

import assert from 'node:assert/strict'
import { createServer } from 'node:http'
import { test } from 'node:test'

import { Cache, Pacer, RobotsCache, httpFetcher, retryAfterMs } from 'robotstxt-engine'

const TOKEN = 'ExampleBot'
const clock = () => performance.timeOrigin + performance.now()

/** A server that logs every request and answers with `answer(req, res)`. */
async function serve (answer) {
  const log = []
  const server = createServer((req, res) => {
    const entry = { path: req.url, at: clock() }
    log.push(entry)
    answer(req, res, entry)
  })
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    port: server.address().port,
    log,
    close: () => new Promise((resolve) => {
      server.closeAllConnections()
      server.close(resolve)
    })
  }
}

/** The README's crawler: robots.txt per origin, paced per host, outcomes recorded. */
function crawler (pacer) {
  const robots = new RobotsCache({ fetch: httpFetcher({ userAgent: TOKEN }) })
  const report = []
  async function visit (url) {
    const rules = await robots.rulesFor(url, TOKEN)
    if (!rules.isAllowed(url)) return report.push(`skip ${url}`)
    const host = new URL(url).host
    await pacer.wait(host)
    const outcome = { status: null }
    try {
      const res = await fetch(url, { headers: { 'user-agent': TOKEN } })
      outcome.status = res.status
      outcome.retryAfterMs = retryAfterMs(res.headers.get('retry-after'))
      await res.text()
      report.push(`${res.status} ${url}`)
    } finally {
      pacer.record(host, outcome)
    }
  }
  const crawl = (urls) => Promise.all(urls.map((url) =>
    visit(url).catch((err) => report.push(`fail ${url} (${err.message})`))))
  return { crawl, report, robots }
}

test('URLs whose authority clients read differently are refused, and no disallowed page is fetched', { timeout: 20_000 }, async () => {
  const site = await serve((req, res) => {
    if (req.url === '/robots.txt') return res.end('User-agent: *\nDisallow: /secret\nDisallow: /x/secret\n')
    res.end(`<p>the page ${req.url}</p>`) // any other path: a page, robots.txt or not
  })
  try {
    const origin = `http://127.0.0.1:${site.port}`
    // Node's URL reads `\` as `/`: the first is /x/secret on 127.0.0.1, the
    // second /@127.0.0.1:port/secret on the host "victim".
    const tricks = [`http://127.0.0.1:${site.port}\\x/secret`, `http://victim\\@127.0.0.1:${site.port}/secret`]
    assert.equal(new URL(tricks[0]).pathname, '/x/secret')
    const { crawl, report } = crawler(new Pacer({ floorMs: 0, now: clock }))
    await crawl([...tricks, `${origin}/page`, `${origin}/secret`])

    assert.deepEqual(site.log.map((r) => r.path).sort(), ['/page', '/robots.txt'])
    const expected = [`200 ${origin}/page`, `skip ${origin}/secret`]
    for (const url of tricks) {
      // The core's message: it quotes the URL and says what to do.
      let message
      assert.throws(() => new Cache().lookup(url), (err) => {
        assert.equal(err.code, 'ERR_ROBOTSTXT_INVALID_URL')
        message = err.message
        return true
      })
      assert.match(message, /its authority holds a backslash.*normalise the URL with your crawler's own URL parser/)
      expected.push(`fail ${url} (${message})`)
    }
    assert.deepEqual(report.sort(), expected.sort())
  } finally {
    await site.close()
  }
})

test('20 concurrent requests, the first answered 429 with Retry-After: 1: none in the second after it, then 200 ms apart', { timeout: 30_000 }, async () => {
  let answered429 = null
  const site = await serve((req, res) => {
    if (req.url === '/robots.txt') return res.end('User-agent: *\nAllow: /\n')
    if (answered429 === null) {
      answered429 = clock()
      return res.writeHead(429, { 'retry-after': '1' }).end('slow down')
    }
    res.end('ok')
  })
  try {
    const origin = `http://127.0.0.1:${site.port}`
    const pacer = new Pacer({ floorMs: 0, now: clock })
    pacer.setDelay(`127.0.0.1:${site.port}`, { crawlDelay: 0.2 })
    const { crawl, report } = crawler(pacer)
    await crawl(Array.from({ length: 20 }, (_, i) => `${origin}/page/${i}`))

    const pages = site.log.filter((r) => r.path !== '/robots.txt')
    assert.equal(pages.length, 20)
    assert.equal(report.filter((line) => line.startsWith('429 ')).length, 1)
    assert.equal(report.filter((line) => line.startsWith('200 ')).length, 19)
    // The server sees each request a little after the pacer let it go: a
    // few ms of timer and socket slack, never a shorter pace.
    const SLACK_MS = 5
    const after = pages.slice(1)
    for (const r of after) {
      assert.ok(r.at >= answered429 + 1000 - SLACK_MS,
        `${r.path} arrived ${(r.at - answered429).toFixed(0)} ms after the 429 was answered`)
    }
    for (let i = 1; i < after.length; i++) {
      const gap = after[i].at - after[i - 1].at
      assert.ok(gap >= 200 - SLACK_MS, `${after[i - 1].path} and ${after[i].path} arrived ${gap.toFixed(0)} ms apart`)
    }
  } finally {
    await site.close()
  }
})
