// What the vector runners share (format: tests/vectors/README.md): field
// checks, bodies, fetch outcomes, and the runner of a cache timeline
// (cache.json), which vectors.test.mjs runs through the local Cache and
// fleet.test.mjs through the SharedCache over Redis.

import assert from 'node:assert/strict'

/** Fails on a field the runner does not know, so a typo cannot hide a case. */
export function checkFields (object, known, at) {
  assert.equal(typeof object, 'object', `${at}: not an object`)
  for (const key of Object.keys(object)) {
    assert.ok(known.includes(key) || key === 'note', `${at}: unknown field ${JSON.stringify(key)}`)
  }
}

/** `body`/`url_parts`: a string, or parts of text, hex and repeats. */
export function bytesOf (value, at) {
  if (typeof value === 'string') return Buffer.from(value, 'utf8')
  assert.ok(Array.isArray(value), `${at}: bytes must be a string or parts`)
  const parts = value.map((part) => {
    if ('text' in part) {
      checkFields(part, ['text'], at)
      return Buffer.from(part.text, 'utf8')
    }
    if ('hex' in part) {
      checkFields(part, ['hex'], at)
      assert.match(part.hex, /^([0-9a-fA-F]{2})*$/, `${at}: hex`)
      return Buffer.from(part.hex, 'hex')
    }
    if ('repeat' in part) {
      checkFields(part, ['repeat', 'times'], at)
      return Buffer.from(part.repeat.repeat(part.times), 'utf8')
    }
    assert.fail(`${at}: unknown body part ${JSON.stringify(part)}`)
  })
  return Buffer.concat(parts)
}

/** The body as the binding gets it: a JSON string stays a string. */
export function bodyArg (value, at) {
  return typeof value === 'string' ? value : bytesOf(value, at)
}

export const ms = (seconds) => Math.round(seconds * 1000)

/** A timeline's `policy`, as Entry/Cache options. */
export function freshnessOptions (p, at) {
  const options = {}
  if (p === undefined) return options
  checkFields(p, ['fresh_for_s', 'retry_s', 'unreachable_limit_s', 'after_limit', 'access'], `${at} policy`)
  if (p.fresh_for_s !== undefined) options.freshForMs = ms(p.fresh_for_s)
  if (p.retry_s !== undefined) options.retryMs = ms(p.retry_s)
  if (p.unreachable_limit_s !== undefined) options.unreachableLimitMs = ms(p.unreachable_limit_s)
  if (p.after_limit !== undefined) options.afterLimit = p.after_limit
  if (p.access !== undefined) options.policy = p.access
  return options
}

/** A timeline's `fetch`, as a FetchOutcome. */
export function fetchOutcome (f, at) {
  checkFields(f, ['status', 'redirects', 'body', 'max_age_s', 'retry_after_s', 'etag', 'last_modified'], at)
  const outcome = { status: f.status ?? null }
  if (f.redirects !== undefined) outcome.redirects = f.redirects
  if (f.body !== undefined) outcome.body = bodyArg(f.body, at)
  if (f.max_age_s !== undefined) outcome.maxAgeMs = ms(f.max_age_s)
  if (f.retry_after_s !== undefined) outcome.retryAfterMs = ms(f.retry_after_s)
  if (f.etag !== undefined) outcome.etag = f.etag
  if (f.last_modified !== undefined) outcome.lastModified = f.last_modified
  return outcome
}

export function checkValidators (want, got, at) {
  checkFields(want, ['etag', 'last_modified'], `${at}: validators`)
  assert.deepEqual({ etag: got.etag, lastModified: got.lastModified },
    { etag: want.etag, lastModified: want.last_modified }, `${at}: validators`)
}

/** A lookup's `cause` (null, or `{kind, status?}`) against an answer's `blanket`. */
function checkCause (want, blanket, at) {
  if (want === null) {
    assert.equal(blanket, null, `${at}: cause`)
    return
  }
  checkFields(want, ['kind', 'status'], `${at}: cause`)
  assert.notEqual(blanket, null, `${at}: cause`)
  assert.equal(blanket.cause.kind, want.kind, `${at}: cause.kind`)
  if (want.status !== undefined) assert.equal(blanket.cause.status, want.status, `${at}: cause.status`)
  if (want.kind !== 'status') {
    assert.deepEqual(Object.keys(blanket.cause), ['kind'], `${at}: cause fields`)
  }
}

/** `call` throws or rejects with a `Kind` whose code is `code`. */
async function expectFailure (call, Kind, code, at) {
  await assert.rejects(async () => call(), (err) => {
    assert.ok(err instanceof Kind, `${at}: ${err}`)
    assert.equal(err.code, code, `${at}: code`)
    return true
  }, `${at}: expected ${code}`)
}

/** A cache timeline's `options`, as Cache options. */
export function cacheOptions (kase, at) {
  const options = {}
  if (kase.options !== undefined) {
    checkFields(kase.options, ['capacity', 'lease_s', 'policy'], `${at} options`)
    if (kase.options.capacity !== undefined) options.capacity = kase.options.capacity
    if (kase.options.lease_s !== undefined) options.leaseMs = ms(kase.options.lease_s)
    Object.assign(options, freshnessOptions(kase.options.policy, at))
  }
  return options
}

/**
 * Runs a cache timeline through `cache` (lookup, store, abandon and stats
 * as the local Cache has them; each call may return a promise), every time
 * `epoch` ms later. `steps` replaces the case's own (a runner's named
 * differences).
 */
export async function runCacheSteps (kase, at, cache, { epoch = 0, steps = kase.steps } = {}) {
  checkFields(kase, ['name', 'options', 'steps'], at)
  const leases = new Map()
  for (const [i, step] of steps.entries()) {
    const where = `${at} step ${i}`
    if (step.stats !== undefined) {
      checkFields(step, ['stats'], where)
      const got = cache.stats
      for (const [key, want] of Object.entries(step.stats)) {
        assert.ok(key in got, `${where}: unknown stat ${key}`)
        assert.equal(got[key], want, `${where}: stats.${key}`)
      }
      continue
    }
    const now = epoch + ms(step.at_s)
    if (step.store !== undefined) {
      checkFields(step, ['at_s', 'store', 'fetch', 'error'], where)
      assert.ok(leases.has(step.store), `${where}: no lease ${step.store}`)
      // The lease is kept after a store or abandon: the binding itself must
      // refuse it a second time.
      const store = () => cache.store(leases.get(step.store), fetchOutcome(step.fetch, where), now)
      if (step.error === undefined) {
        await store()
      } else {
        assert.equal(step.error, 'invalid_lease', `${where}: unknown error kind`)
        await expectFailure(store, Error, 'ERR_ROBOTSTXT_INVALID_LEASE', where)
      }
      continue
    }
    if (step.abandon !== undefined) {
      checkFields(step, ['at_s', 'abandon'], where)
      await cache.abandon(leases.get(step.abandon))
      continue
    }
    checkFields(step, ['at_s', 'lookup', 'when_fetching', 'expect', 'stale', 'answer', 'checks', 'token',
      'validators', 'lease', 'origin', 'until_s', 'error', 'cause', 'retry_at_s'], where)
    const when = (step.when_fetching ?? 'wait').replace('_', '-')
    if (step.error !== undefined) {
      assert.equal(step.error, 'invalid_url', `${where}: unknown error kind`)
      await expectFailure(() => cache.lookup(step.lookup, now, when), RangeError, 'ERR_ROBOTSTXT_INVALID_URL', where)
      continue
    }
    const got = await cache.lookup(step.lookup, now, when)
    assert.equal(got.kind, step.expect, `${where}: expect`)
    if (got.kind === 'ready') {
      if (step.stale !== undefined) assert.equal(got.stale, step.stale, `${where}: stale`)
      if (step.answer !== undefined) assert.equal(got.answer.kind.replace('-', '_'), step.answer, `${where}: answer`)
      assert.equal(got.answer.robots !== null, got.answer.kind === 'rules', `${where}: robots with rules only`)
      assert.equal(got.answer.blanket === null, got.answer.kind === 'rules', `${where}: blanket`)
      if (step.cause !== undefined) checkCause(step.cause, got.answer.blanket, where)
      const retryAt = step.retry_at_s === undefined || step.retry_at_s === null
        ? step.retry_at_s
        : epoch + ms(step.retry_at_s)
      if (retryAt !== undefined) assert.equal(got.retryAt, retryAt, `${where}: retry_at`)
      assert.equal(got.answer.retryAt, got.retryAt, `${where}: answer.retryAt`)
      const rules = got.answer.rulesFor(step.token ?? 'ExampleBot')
      // The rules say what the answer said.
      assert.deepEqual(rules.blanket, got.answer.blanket, `${where}: rules.blanket`)
      assert.equal(rules.retryAt, got.retryAt, `${where}: rules.retryAt`)
      if (got.answer.blanket !== null) {
        const d = rules.decide('/some/page')
        assert.deepEqual([d.allowed, d.line, d.kind], [got.answer.blanket.allowed, 0,
          got.answer.blanket.allowed ? 'allow-all' : 'disallow-all'], `${where}: a blanket decision`)
      }
      for (const check of step.checks ?? []) {
        checkFields(check, ['url', 'allowed'], where)
        assert.equal(rules.isAllowed(check.url), check.allowed, `${where}: ${check.url}`)
      }
    } else if (got.kind === 'fetch') {
      if (step.validators !== undefined) checkValidators(step.validators, got.lease, where)
      if (step.origin !== undefined) assert.equal(got.lease.origin, step.origin, `${where}: origin`)
      assert.equal(got.lease.robotsUrl, `${got.lease.origin}/robots.txt`, `${where}: robotsUrl`)
      assert.equal(typeof step.lease, 'string', `${where}: a fetch step names its lease`)
      leases.set(step.lease, got.lease)
    } else if (step.until_s !== undefined) {
      assert.equal(got.until, epoch + ms(step.until_s), `${where}: until`)
    }
  }
}
