// Behaviour §11, the HTTP facts, through the Node binding: every case of
// tests/vectors/http.json (format: tests/vectors/README.md), and an asctime
// Retry-After read as GMT (as every HTTP-date is) in another time zone.

import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join, resolve } from 'node:path'
import { test } from 'node:test'
import { fileURLToPath } from 'node:url'

import { retryAfterMs } from 'robotstxt-engine'
import { cannot } from './limits.mjs'

const require = createRequire(import.meta.url)
const native = require('../index.js') // `_httpRead`, which the package entry keeps to itself

const here = dirname(fileURLToPath(import.meta.url))
const vectors = JSON.parse(readFileSync(join(here, '..', '..', '..', 'tests', 'vectors', 'http.json'), 'utf8'))

const ms = (seconds) => Math.round(seconds * 1000)
const msOrNull = (seconds) => (seconds === null ? null : ms(seconds))

function checkFields (object, known, at) {
  for (const key of Object.keys(object)) assert.ok(known.includes(key), `${at}: unknown field ${key}`)
}

/** A value: a string, or parts `{ text }` / `{ hex }` (as bytes). */
function valueOf (value) {
  if (typeof value === 'string' || value === null) return value
  return Buffer.concat(value.map((part) => (part.hex !== undefined ? Buffer.from(part.hex, 'hex') : Buffer.from(part.text))))
}

/** The header names of the reasons `_httpRead` gives, in order. */
const ignoredHeaders = (facts) => facts.ignored.map((reason) => reason.split(' ignored: ')[0])

function runHeaderCase (kase, at) {
  const value = valueOf(kase.value)
  if (kase.header === 'retry-after') {
    checkFields(kase, ['name', 'note', 'header', 'value', 'now_s', 'wait_s', 'error'], at)
    const now = ms(kase.now_s)
    const facts = native._httpRead({ retryAfter: value }, now, 0)
    if (kase.error !== undefined) {
      assert.equal(facts.retryAfterMs, null, `${at}: read`)
      assert.equal(facts.ignored.length, 1, `${at}: ignored`)
      assert.ok(facts.ignored[0].startsWith(`Retry-After ignored: ${kase.error}: `), `${at}: ${facts.ignored[0]}`)
    } else {
      assert.equal(facts.retryAfterMs, ms(kase.wait_s), at)
      assert.deepEqual(facts.ignored, [], at)
    }
    // The public reading, for the values a string holds.
    if (typeof value === 'string') {
      assert.equal(retryAfterMs(value, now), kase.error === undefined ? ms(kase.wait_s) : undefined, `${at}: retryAfterMs`)
    }
  } else if (kase.header === 'cache-control') {
    checkFields(kase, ['name', 'note', 'header', 'value', 'max_age_s', 'error'], at)
    const facts = native._httpRead({ cacheControl: value }, 0, 0)
    if (kase.error !== undefined) {
      assert.equal(facts.maxAgeMs, null, `${at}: read`)
      assert.ok(facts.ignored[0]?.startsWith(`Cache-Control ignored: ${kase.error}: `), `${at}: ${facts.ignored}`)
    } else {
      assert.equal(facts.maxAgeMs, msOrNull(kase.max_age_s), at)
      assert.deepEqual(facts.ignored, [], at)
    }
  } else {
    assert.fail(`${at}: unknown header ${kase.header}`)
  }
}

function runResponseCase (kase, at) {
  checkFields(kase, ['name', 'note', 'response', 'now_s', 'min_max_age_s', 'expect'], at)
  const r = kase.response
  const e = kase.expect
  checkFields(r, ['status', 'redirects', 'retry_after', 'cache_control', 'etag', 'last_modified'], at)
  checkFields(e, ['max_age_s', 'retry_after_s', 'etag', 'last_modified', 'ignored'], at)
  const facts = native._httpRead({
    retryAfter: valueOf(r.retry_after),
    cacheControl: valueOf(r.cache_control),
    etag: valueOf(r.etag),
    lastModified: valueOf(r.last_modified)
  }, ms(kase.now_s), ms(kase.min_max_age_s))
  assert.equal(facts.maxAgeMs, msOrNull(e.max_age_s), `${at}: maxAgeMs`)
  assert.equal(facts.retryAfterMs, msOrNull(e.retry_after_s), `${at}: retryAfterMs`)
  assert.equal(facts.etag, e.etag, `${at}: etag`)
  assert.equal(facts.lastModified, e.last_modified, `${at}: lastModified`)
  assert.deepEqual(ignoredHeaders(facts), e.ignored, `${at}: ignored`)
}

test('vectors: http.json', async (t) => {
  checkFields(vectors, ['spec', 'note', 'cases'], 'http.json')
  assert.ok(vectors.cases.length >= 80, `only ${vectors.cases.length} cases`)
  const seen = new Set()
  for (const kase of vectors.cases) {
    const at = `http.json: ${kase.name}`
    assert.ok(!seen.has(kase.name), `${at}: duplicate name`)
    seen.add(kase.name)
    await t.test(kase.name, () => (kase.response !== undefined ? runResponseCase(kase, at) : runHeaderCase(kase, at)))
  }
})

test('_httpRead checks its arguments', () => {
  assert.throws(() => native._httpRead({ retryAfter: 120 }, 0, 0), { name: 'TypeError', message: /retryAfter/ })
  assert.throws(() => native._httpRead({ retryAfte: '120' }, 0, 0), { name: 'RangeError', message: /retryAfte/ })
  assert.throws(() => native._httpRead({}, -1, 0), { name: 'RangeError', code: 'ERR_OUT_OF_RANGE', message: /now/ })
  assert.throws(() => native._httpRead({}, 0, 'x'), { name: 'TypeError', message: /minMaxAgeMs/ })
  assert.deepEqual(native._httpRead(null, 0, 0),
    { maxAgeMs: null, retryAfterMs: null, etag: null, lastModified: null, ignored: [] })
  assert.throws(() => retryAfterMs('120', 'now'), { name: 'TypeError' })
})

// The child reads an asctime Retry-After (which names no zone: GMT, RFC
// 9110 §5.6.7) through retryAfterMs and through httpFetcher from a local
// server, with its clock's zone New York's; it prints what it got.
const CHILD = `
const { createServer } = require('node:http')
const { httpFetcher, retryAfterMs } = require('robotstxt-engine')
const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat']
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec']
const two = (n) => String(n).padStart(2, '0')
const asctime = (d) => DAYS[d.getUTCDay()] + ' ' + MONTHS[d.getUTCMonth()] + ' ' + String(d.getUTCDate()).padStart(2, ' ') +
  ' ' + two(d.getUTCHours()) + ':' + two(d.getUTCMinutes()) + ':' + two(d.getUTCSeconds()) + ' ' + d.getUTCFullYear()
const fixed = retryAfterMs('Sun Nov  6 08:51:37 1994', Date.UTC(1994, 10, 6, 8, 49, 37))
const server = createServer((req, res) => {
  res.writeHead(503, { 'retry-after': asctime(new Date(Date.now() + 120000)) }).end('busy')
})
server.listen(0, '127.0.0.1', async () => {
  try {
    const got = await httpFetcher()('http://127.0.0.1:' + server.address().port + '/robots.txt', {})
    console.log(JSON.stringify({ offset: new Date(Date.UTC(1994, 10, 6)).getTimezoneOffset(), fixed, fetched: got.retryAfterMs ?? null }))
  } finally {
    server.close()
  }
})
`

/**
 * The modules this process preloads (`--require`, `--import`), for a
 * child: a runtime's shims go with it (under wine, the keep-alive fix its
 * fetch needs). Relative paths are this process's.
 */
function preloads () {
  const out = []
  const args = process.execArgv
  for (let i = 0; i < args.length; i++) {
    const [flag, inline] = args[i].split(/=(.*)/s)
    if (!['--require', '-r', '--import'].includes(flag)) continue
    const value = inline ?? args[++i]
    out.push(flag, value.startsWith('.') ? resolve(value) : value)
  }
  return out
}

test('an asctime Retry-After is GMT in New York too', { skip: cannot('spawn') }, (t) => {
  const out = execFileSync(process.execPath, [...preloads(), '-e', CHILD], {
    cwd: join(here, '..'),
    env: { ...process.env, TZ: 'America/New_York' },
    encoding: 'utf8'
  })
  const got = JSON.parse(out)
  // The child must run on New York time (EST in November: 300 minutes
  // behind), or it proves nothing: a Node without the zone's data runs on
  // GMT, and Windows reads TZ as its own "EST5EDT" form, not a zone name.
  if (got.offset !== 300) {
    t.skip(`this runtime did not take TZ=America/New_York (its offset: ${got.offset} minutes): the child proves nothing`)
    return
  }
  assert.equal(got.fixed, 120_000, 'retryAfterMs: 2 minutes, not 5 hours more')
  assert.ok(got.fetched !== null && got.fetched > 115_000 && got.fetched <= 120_000,
    `httpFetcher's retryAfterMs: ${got.fetched} ms, about 2 minutes`)
})
