// Runs every case of tests/vectors/*.json (format: tests/vectors/README.md)
// through the binding: the same answers as the Rust core, or a failure.

import assert from 'node:assert/strict'
import { readFileSync, readdirSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { test } from 'node:test'
import { fileURLToPath } from 'node:url'

import { Cache, Entry, Pacer, Robots, classifyFetch } from '../index.js'
import {
  bodyArg, bytesOf, cacheOptions, checkFields, checkValidators, fetchOutcome, freshnessOptions, ms, runCacheSteps
} from './cache-vectors.mjs'

const here = dirname(fileURLToPath(import.meta.url))
const vectorsDir = join(here, '..', '..', '..', 'tests', 'vectors')

function profiles (kase, at) {
  const profile = kase.profile ?? 'both'
  if (profile === 'both') return ['rfc', 'google']
  assert.ok(['rfc', 'google'].includes(profile), `${at}: unknown profile ${profile}`)
  return [profile]
}

function parseOptions (kase, profile, at) {
  const options = { profile }
  if (kase.options !== undefined) {
    checkFields(kase.options, ['parse_limit', 'typos'], `${at} options`)
    if (kase.options.parse_limit !== undefined) options.parseLimit = kase.options.parse_limit
    if (kase.options.typos !== undefined) options.typos = kase.options.typos
  }
  return options
}

function select (robots, kase, at) {
  if (kase.token !== undefined) return robots.rulesFor(kase.token)
  assert.ok(Array.isArray(kase.tokens), `${at}: a selection needs token or tokens`)
  if (kase.mode === 'any') return robots.rulesForAny(kase.tokens)
  if (kase.mode === 'strictest') return robots.rulesForStrictest(kase.tokens)
  assert.fail(`${at}: unknown mode ${kase.mode}`)
}

function urlOf (check, at) {
  const hasUrl = check.url !== undefined
  const hasParts = check.url_parts !== undefined
  assert.ok(hasUrl !== hasParts, `${at}: a check needs exactly one of url and url_parts`)
  return hasUrl ? check.url : bytesOf(check.url_parts, at)
}

function runChecks (rules, checks, at) {
  const urls = []
  const decisions = []
  for (const check of checks) {
    checkFields(check, ['url', 'url_parts', 'allowed', 'line', 'kind', 'pattern'], at)
    const url = urlOf(check, at)
    const shown = `${at} ${String(url).slice(0, 80)}`
    const d = rules.decide(url)
    assert.equal(rules.isAllowed(url), d.allowed, `${shown}: isAllowed vs decide`)
    assert.equal(d.allowed, check.allowed, `${shown}: allowed`)
    if (check.line !== undefined) assert.equal(d.line, check.line, `${shown}: line`)
    if (check.kind !== undefined) assert.equal(d.kind, check.kind, `${shown}: kind`)
    if (check.pattern !== undefined) assert.equal(d.pattern, check.pattern, `${shown}: pattern`)
    // The same URL as bytes answers the same.
    const bytes = typeof url === 'string' ? Buffer.from(url, 'utf8') : url
    assert.deepEqual(rules.decide(bytes), d, `${shown}: string vs Buffer`)
    urls.push(url)
    decisions.push(d)
  }
  // One crossing per batch gives the answers of one crossing per URL.
  assert.deepEqual(rules.decideMany(urls), decisions, `${at}: decideMany`)
  assert.deepEqual(rules.filterAllowed(urls), urls.filter((_, i) => decisions[i].allowed),
    `${at}: filterAllowed`)
  return checks.length
}

/** A record of `otherRecords()` as the vectors write it. */
function otherRecordJson (r) {
  return { key: r.key, key_lower: r.keyLower, value: r.value, line: r.line, group: r.group }
}

/** The usage-preference fields of a parse case (behaviour §10), as tests/vectors.rs runs them. */
function runPreferenceChecks (rules, kase, at) {
  for (const check of kase.preferences ?? []) {
    checkFields(check, ['url', 'crawlable', 'line', 'labels', 'statements'], at)
    const p = rules.preferences(check.url)
    const got = {
      url: check.url,
      crawlable: p.crawlable,
      line: p.decision.line,
      labels: p.labels,
      statements: p.statements.map((s) => s.line)
    }
    // The whole answer, as the Rust runner compares it (a note is no field of it).
    const { note, ...want } = check
    assert.deepEqual(got, want, `${at} ${check.url}: preferences`)
    assert.deepEqual(p.decision, rules.decide(check.url), `${at} ${check.url}: decision`)
    assert.deepEqual(rules.preferences(Buffer.from(check.url, 'utf8')), p, `${at} ${check.url}: string vs Buffer`)
  }
  if (kase.content_signal !== undefined) {
    assert.deepEqual(rules.contentSignal(), kase.content_signal, `${at}: content_signal`)
  }
  if (kase.other_records_for !== undefined) {
    assert.deepEqual(rules.otherRecords().map((r) => r.line), kase.other_records_for, `${at}: other_records_for`)
  }
  for (const check of kase.header ?? []) {
    checkFields(check, ['url', 'field', 'labels', 'error'], at)
    const ask = () => rules.preferences(check.url, { header: check.field })
    const shown = `${at} ${JSON.stringify(check.field)}`
    if (check.error === undefined) {
      assert.deepEqual(ask().labels, check.labels, shown)
      continue
    }
    assert.ok(['syntax', 'empty'].includes(check.error), `${shown}: unknown error kind ${check.error}`)
    assert.throws(ask, (err) => {
      assert.ok(err instanceof RangeError, `${shown}: ${err}`)
      assert.equal(err.code, 'ERR_ROBOTSTXT_INVALID_FIELD', `${shown}: code`)
      assert.equal(err.reason, check.error, `${shown}: reason`)
      return true
    }, `${shown}: expected an invalid-field error`)
  }
}

const PARSE_FIELDS = ['name', 'profile', 'options', 'body', 'token', 'tokens', 'mode', 'checks',
  'error', 'crawl_delay', 'request_rate', 'sitemaps', 'host', 'diagnostics', 'preferences',
  'content_signal', 'other_records', 'other_records_for', 'header']
// What a case can ask only of selected rules.
const SELECTION_FIELDS = ['checks', 'crawl_delay', 'request_rate', 'preferences', 'content_signal',
  'other_records_for', 'header']

function runParseCase (kase, at) {
  checkFields(kase, PARSE_FIELDS, at)
  let asked = 0
  for (const profile of profiles(kase, at)) {
    const where = `${at} [${profile}]`
    const robots = Robots.parse(bodyArg(kase.body, where), parseOptions(kase, profile, where))
    assert.equal(robots.profile, profile)
    if (kase.sitemaps !== undefined) assert.deepEqual(robots.sitemaps, kase.sitemaps, `${where}: sitemaps`)
    if (kase.host !== undefined) assert.equal(robots.host, kase.host, `${where}: host`)
    if (kase.diagnostics !== undefined) {
      for (const d of kase.diagnostics) checkFields(d, ['line', 'kind', 'flags'], `${where}: diagnostics`)
      assert.deepEqual(robots.diagnostics, kase.diagnostics, `${where}: diagnostics`)
    }
    if (kase.other_records !== undefined) {
      for (const r of kase.other_records) {
        checkFields(r, ['key', 'key_lower', 'value', 'line', 'group'], `${where}: other_records`)
      }
      assert.deepEqual(robots.otherRecords().map(otherRecordJson), kase.other_records, `${where}: other_records`)
    }
    const selects = kase.token !== undefined || kase.tokens !== undefined
    if (kase.error !== undefined) {
      assert.equal(kase.error, 'invalid_token', `${where}: unknown error kind`)
      assert.ok(selects, `${where}: an error case needs a selection`)
      assert.throws(() => select(robots, kase, where), (err) => {
        assert.ok(err instanceof RangeError, `${where}: ${err}`)
        assert.equal(err.code, 'ERR_ROBOTSTXT_INVALID_TOKEN', `${where}: code`)
        if (typeof kase.token === 'string') {
          assert.ok(err.message.includes(kase.token) || err.message.includes(JSON.stringify(kase.token)),
            `${where}: the message names the token: ${err.message}`)
        }
        return true
      }, `${where}: expected an invalid-token error`)
      continue
    }
    if (!selects) {
      for (const key of SELECTION_FIELDS) {
        assert.ok(kase[key] === undefined, `${where}: ${key} needs a token`)
      }
      continue
    }
    const rules = select(robots, kase, where)
    if (kase.checks !== undefined) asked += runChecks(rules, kase.checks, where)
    runPreferenceChecks(rules, kase, where)
    if (kase.crawl_delay !== undefined) assert.equal(rules.crawlDelay, kase.crawl_delay, `${where}: crawl_delay`)
    if (kase.request_rate !== undefined) {
      const got = rules.requestRate
      const want = kase.request_rate
      if (want === null) {
        assert.equal(got, null, `${where}: request_rate`)
      } else {
        checkFields(want, ['requests', 'seconds'], `${where}: request_rate`)
        assert.deepEqual({ requests: got?.requests, seconds: got?.seconds }, want, `${where}: request_rate`)
        assert.equal(got.interval, want.seconds / want.requests, `${where}: interval`)
      }
    }
  }
  return asked
}

const ACCESS_NAMES = {
  'follow-rules': 'follow_rules',
  'allow-all': 'allow_all',
  'disallow-all': 'disallow_all',
  'not-modified': 'not_modified'
}

function runAccessCase (kase, at) {
  checkFields(kase, ['name', 'status', 'redirects', 'policy', 'access', 'retry_later'], at)
  const got = classifyFetch(kase.status, kase.redirects ?? 0, kase.policy ?? 'careful')
  assert.equal(ACCESS_NAMES[got.access], kase.access, `${at}: access`)
  if (kase.retry_later !== undefined) assert.equal(got.retryLater, kase.retry_later, `${at}: retry_later`)
}

function runTimeline (kase, at) {
  checkFields(kase, ['name', 'policy', 'steps', 'fetches'], at)
  const entry = new Entry(freshnessOptions(kase.policy, at))
  let fetches = 0
  kase.steps.forEach((step, i) => {
    const where = `${at} step ${i}`
    const now = ms(step.at_s)
    if (step.fetch !== undefined) {
      checkFields(step, ['at_s', 'fetch'], where)
      entry.record(fetchOutcome(step.fetch, where), now)
      fetches += 1
      return
    }
    checkFields(step, ['at_s', 'due', 'access', 'checks', 'token', 'next_try_s', 'validators'], where)
    if (step.due !== undefined) assert.equal(entry.isDue(now), step.due, `${where}: due`)
    if (step.next_try_s !== undefined) assert.equal(entry.dueAt, ms(step.next_try_s), `${where}: next_try`)
    if (step.validators !== undefined) checkValidators(step.validators, entry.validators, where)
    const answer = entry.answer(now)
    if (step.access !== undefined) {
      assert.equal(answer.kind.replace('-', '_'), step.access, `${where}: access`)
    }
    assert.equal(answer.robots !== null, answer.kind === 'rules', `${where}: robots with rules only`)
    for (const check of step.checks ?? []) {
      checkFields(check, ['url', 'allowed'], where)
      const token = step.token ?? 'ExampleBot'
      const allowed = answer.kind === 'rules'
        ? answer.robots.rulesFor(token).isAllowed(check.url)
        : answer.kind === 'allow-all'
      assert.equal(allowed, check.allowed, `${where}: ${check.url}`)
    }
  })
  if (kase.fetches !== undefined) assert.equal(fetches, kase.fetches, `${at}: fetch steps`)
}

function expectError (fn, Kind, code, at) {
  assert.throws(fn, (err) => {
    assert.ok(err instanceof Kind, `${at}: ${err}`)
    assert.equal(err.code, code, `${at}: code`)
    return true
  }, `${at}: expected ${code}`)
}

function runCacheCase (kase, at) {
  return runCacheSteps(kase, at, new Cache(cacheOptions(kase, at)))
}

const RESERVE_ERRORS = {
  invalid_host: [RangeError, 'ERR_ROBOTSTXT_INVALID_HOST'],
  pacer_full: [Error, 'ERR_ROBOTSTXT_PACER_FULL']
}

function runPacingCase (kase, at) {
  checkFields(kase, ['name', 'options', 'steps'], at)
  const options = {}
  if (kase.options !== undefined) {
    checkFields(kase.options, ['floor_s', 'backoff_cap_s', 'capacity', 'max_in_flight', 'in_flight_timeout_s'],
      `${at} options`)
    if (kase.options.floor_s !== undefined) options.floorMs = ms(kase.options.floor_s)
    if (kase.options.backoff_cap_s !== undefined) options.backoffCapMs = ms(kase.options.backoff_cap_s)
    if (kase.options.capacity !== undefined) options.capacity = kase.options.capacity
    if (kase.options.max_in_flight !== undefined) options.maxInFlight = kase.options.max_in_flight
    if (kase.options.in_flight_timeout_s !== undefined) options.inFlightTimeoutMs = ms(kase.options.in_flight_timeout_s)
  }
  const pacer = new Pacer(options)
  const tickets = new Map()
  kase.steps.forEach((step, i) => {
    const where = `${at} step ${i}`
    checkFields(step, ['at_s', 'reserve', 'ticket', 'start_s', 'error', 'confirm', 'expect', 'until_s', 'busy',
      'cancel', 'in_flight', 'set_rules', 'set_delay', 'record', 'enabled', 'gap_s'], where)
    const now = ms(step.at_s)
    if (step.reserve !== undefined) {
      if (step.error !== undefined) {
        assert.ok(step.error in RESERVE_ERRORS, `${where}: unknown error kind ${step.error}`)
        const [Kind, code] = RESERVE_ERRORS[step.error]
        expectError(() => pacer.reserve(step.reserve, now), Kind, code, where)
        return
      }
      const want = step.start_s === null ? null : ms(step.start_s)
      const ticket = pacer.reserve(step.reserve, now)
      assert.equal(ticket?.start ?? null, want, `${where}: start`)
      if (step.ticket !== undefined && ticket !== null) tickets.set(step.ticket, ticket)
    } else if (step.confirm !== undefined) {
      assert.ok(tickets.has(step.confirm), `${where}: no ticket ${step.confirm}`)
      const ticket = tickets.get(step.confirm)
      if (step.error !== undefined) {
        assert.equal(step.error, 'invalid_ticket', `${where}: unknown error kind`)
        expectError(() => pacer.confirm(ticket, now), Error, 'ERR_ROBOTSTXT_INVALID_TICKET', where)
        return
      }
      const got = pacer.confirm(ticket, now)
      assert.equal(got.kind, step.expect, `${where}: confirm`)
      assert.equal(got.until === null, got.kind !== 'wait', `${where}: until with wait only`)
      if (step.until_s !== undefined) assert.equal(got.until, ms(step.until_s), `${where}: until`)
      if (step.busy !== undefined) assert.equal(got.busy, step.busy, `${where}: busy`)
      if (got.kind === 'wait') assert.equal(ticket.start <= got.until, true, `${where}: start`)
    } else if (step.cancel !== undefined) {
      assert.ok(tickets.has(step.cancel), `${where}: no ticket ${step.cancel}`)
      pacer.cancel(tickets.get(step.cancel))
    } else if (step.in_flight !== undefined) {
      checkFields(step.in_flight, ['host', 'count'], where)
      assert.equal(pacer.inFlight(step.in_flight.host, now), step.in_flight.count, `${where}: in flight`)
    } else if (step.set_rules !== undefined) {
      const set = step.set_rules
      checkFields(set, ['host', 'body', 'token'], where)
      pacer.setRules(set.host, Robots.parse(bodyArg(set.body, where)).rulesFor(set.token))
    } else if (step.set_delay !== undefined) {
      const set = step.set_delay
      checkFields(set, ['host', 'crawl_delay_s', 'request_rate'], where)
      pacer.setDelay(set.host, { crawlDelay: set.crawl_delay_s ?? null, requestRate: set.request_rate ?? null })
    } else if (step.record !== undefined) {
      const record = step.record
      checkFields(record, ['host', 'status', 'retry_after_s'], where)
      const outcome = { status: record.status ?? null }
      if (record.retry_after_s !== undefined) outcome.retryAfterMs = ms(record.retry_after_s)
      pacer.record(record.host, outcome, now)
    } else if (step.enabled !== undefined) {
      checkFields(step.enabled, ['host', 'on'], where)
      pacer.setEnabled(step.enabled.host, step.enabled.on)
    } else if (step.gap_s !== undefined) {
      checkFields(step.gap_s, ['host', 'gap'], where)
      assert.equal(pacer.gapMs(step.gap_s.host), ms(step.gap_s.gap), `${where}: gap`)
    } else {
      assert.fail(`${where}: a step with nothing to do`)
    }
  })
}

function runOriginCase (kase, at) {
  checkFields(kase, ['name', 'url', 'origin', 'error'], at)
  const cache = new Cache()
  if (kase.error !== undefined) {
    assert.equal(kase.error, 'invalid_url', `${at}: unknown error kind`)
    assert.throws(() => cache.lookup(kase.url, 0), (err) => {
      assert.ok(err instanceof RangeError, `${at}: ${err}`)
      assert.equal(err.code, 'ERR_ROBOTSTXT_INVALID_URL', `${at}: code`)
      assert.match(err.message, /^cannot find the robots\.txt of "/, `${at}: the message quotes the URL`)
      return true
    }, `${at}: expected an invalid-URL error`)
    return
  }
  const got = cache.lookup(kase.url, 0)
  assert.equal(got.kind, 'fetch', `${at}: kind`)
  assert.equal(got.lease.origin, kase.origin, `${at}: origin`)
  assert.equal(got.lease.robotsUrl, `${kase.origin}/robots.txt`, `${at}: robotsUrl`)
  // What Node's own URL parser (and so its fetch) makes of the URL.
  assert.equal(new URL(kase.url).origin, kase.origin, `${at}: new URL().origin`)
}

// http.json (behaviour §11) has its own runner: http.test.mjs.
const files = readdirSync(vectorsDir).filter((f) => f.endsWith('.json') && f !== 'http.json').sort()

test('the vector files are there', () => {
  assert.ok(files.length >= 9, `expected the vector files in ${vectorsDir}, found ${files}`)
})

for (const file of files) {
  test(`vectors: ${file}`, async (t) => {
    const doc = JSON.parse(readFileSync(join(vectorsDir, file), 'utf8'))
    checkFields(doc, ['spec', 'cases'], file)
    assert.ok(Array.isArray(doc.cases) && doc.cases.length > 0, `${file}: no cases`)
    const seen = new Set()
    for (const kase of doc.cases) {
      const at = `${file}: ${kase.name}`
      assert.equal(typeof kase.name, 'string', `${file}: a case without a name`)
      assert.ok(!seen.has(kase.name), `${at}: duplicate name`)
      seen.add(kase.name)
      // One subtest per case, so that one failure hides no other.
      await t.test(kase.name, async () => {
        if (file === 'access.json') runAccessCase(kase, at)
        else if (file === 'freshness.json') runTimeline(kase, at)
        else if (file === 'cache.json') await runCacheCase(kase, at)
        else if (file === 'pacing.json') runPacingCase(kase, at)
        else if (file === 'origins.json') runOriginCase(kase, at)
        else runParseCase(kase, at)
      })
    }
  })
}
