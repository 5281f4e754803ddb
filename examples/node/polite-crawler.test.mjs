// Runs polite-crawler.mjs against two local sites (node:http on 127.0.0.1,
// ephemeral ports, so two origins): one whose robots.txt disallows /private/
// and asks for Crawl-delay: 1.5, one with no robots.txt (404: allow all)
// whose first page drops the connection without an answer. The crawler must
// fetch each robots.txt once, never ask for /private/, start its requests to
// the first site at least 1.5 s apart and to the second at least 1 s apart
// (the pacer's floor), go on after the dropped page (that URL fails; the
// pacer hears of it, else the next request would wait two minutes for the
// in-flight timeout), and say what it did. Every part is bounded in time,
// and the servers stop themselves.
//
//   node --test polite-crawler.test.mjs        (part of make node-test)

import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { createServer } from 'node:http'
import { dirname, join } from 'node:path'
import { test } from 'node:test'
import { fileURLToPath } from 'node:url'

const here = dirname(fileURLToPath(import.meta.url))
const TOKEN = 'ExampleBot'
const ROBOTS = 'User-agent: *\nDisallow: /private/\nCrawl-delay: 1.5\n'

/**
 * A site that logs every request; it closes itself after `lifeMs`. With
 * `dropFirst`, its first page request gets no answer: the connection closes.
 */
async function site (robots, lifeMs, { dropFirst = false } = {}) {
  const log = []
  let dropped = null
  const server = createServer((req, res) => {
    log.push({ path: req.url, at: performance.now(), agent: req.headers['user-agent'] })
    if (req.url === '/robots.txt') {
      if (robots === null) return res.writeHead(404).end('no robots.txt here')
      return res.writeHead(200, { 'content-type': 'text/plain' }).end(robots)
    }
    if (dropFirst && dropped === null) {
      dropped = req.url
      return req.socket.destroy()
    }
    res.writeHead(200, { 'content-type': 'text/html' }).end(`<p>the page ${req.url}</p>`)
  })
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
  const stop = () => new Promise((resolve) => {
    server.closeAllConnections()
    server.close(() => resolve())
  })
  setTimeout(stop, lifeMs).unref() // never outlives the test
  return { origin: `http://127.0.0.1:${server.address().port}`, log, stop, dropped: () => dropped }
}

function crawl (args, timeoutMs) {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [join(here, 'polite-crawler.mjs'), ...args], { cwd: here, timeout: timeoutMs },
      (err, stdout, stderr) => err ? reject(new Error(`${err.message}\n${stderr}`)) : resolve(stdout))
  })
}

test('the polite crawler against two local sites', { timeout: 40_000 }, async () => {
  const shop = await site(ROBOTS, 35_000)
  const open = await site(null, 35_000, { dropFirst: true })
  try {
    const urls = [
      `${shop.origin}/page/1`, `${shop.origin}/private/1`, `${shop.origin}/page/2`,
      `${shop.origin}/private/2`, `${shop.origin}/page/3`,
      `${open.origin}/a`, `${open.origin}/private/b`, `${open.origin}/c`
    ]
    const started = performance.now()
    const stdout = await crawl([TOKEN, ...urls], 30_000)
    const took = performance.now() - started

    const bytes = (path) => `<p>the page ${path}</p>`.length
    const dropped = open.dropped()
    assert.ok(['/a', '/private/b', '/c'].includes(dropped), `dropped: ${dropped}`)
    const answer = (origin, path) => origin === open.origin && path === dropped
      ? `fail ${origin}${path} (fetch failed)`
      : `200 ${origin}${path} (${bytes(path)} bytes)`
    assert.deepEqual(stdout.trim().split('\n').sort(), [
      answer(shop.origin, '/page/1'),
      answer(shop.origin, '/page/2'),
      answer(shop.origin, '/page/3'),
      answer(open.origin, '/a'),
      answer(open.origin, '/private/b'),
      answer(open.origin, '/c'),
      `skip ${shop.origin}/private/1 (disallowed)`,
      `skip ${shop.origin}/private/2 (disallowed)`
    ].sort())

    for (const [name, s, pages, gapMs] of [['shop', shop, 3, 1500], ['open', open, 3, 1000]]) {
      const robots = s.log.filter((r) => r.path === '/robots.txt')
      assert.equal(robots.length, 1, `${name}: robots.txt fetched ${robots.length} times`)
      assert.ok(s.log.every((r) => r.agent === TOKEN), `${name}: a request without the user agent`)
      const visits = s.log.filter((r) => r.path !== '/robots.txt')
      assert.equal(visits.length, pages, `${name}: ${visits.map((r) => r.path)}`)
      assert.ok(robots[0].at <= visits[0].at, `${name}: a page before robots.txt`)
      for (let i = 1; i < visits.length; i++) {
        // The server sees each request a little after its slot: allow for
        // that jitter, not for a shorter pace.
        const gap = visits[i].at - visits[i - 1].at
        assert.ok(gap >= gapMs - 50, `${name}: requests ${i - 1} and ${i} arrived ${gap.toFixed(0)} ms apart`)
        // A request the pacer did not hear end holds the next one back for
        // the in-flight timeout (two minutes).
        assert.ok(gap < gapMs + 1500, `${name}: requests ${i - 1} and ${i} arrived ${gap.toFixed(0)} ms apart`)
      }
    }
    assert.ok(!shop.log.some((r) => r.path.startsWith('/private/')), 'a disallowed page was fetched')
    assert.ok(took < 15_000, `the crawl took ${took} ms`)
  } finally {
    await Promise.all([shop.stop(), open.stop()])
  }
})

test('the README shows the crawler as it is', () => {
  const code = readFileSync(join(here, 'polite-crawler.mjs'), 'utf8')
  const body = code.slice(code.indexOf('import '))
  const readme = readFileSync(join(here, '..', '..', 'README.md'), 'utf8')
  const node = readme.slice(readme.indexOf('\n## Node.js'))
  const section = node.slice(node.indexOf('### Polite crawler'))
  const shown = /```js\n([\s\S]*?)```/.exec(section)[1]
  assert.equal(shown, body)
  assert.ok(code.trimEnd().split('\n').length <= 30, 'more than 30 lines')
})
