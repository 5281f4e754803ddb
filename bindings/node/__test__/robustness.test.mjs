// Nothing crashes the process: every export called with odd arguments
// either answers or throws an Error.

import assert from 'node:assert/strict'
import { test } from 'node:test'

import * as api from '../index.js'

const { Cache, Entry, Pacer, Robots } = api

function oddValues () {
  const throwing = { get profile () { throw new Error('getter') }, get status () { throw new Error('getter') } }
  const proxy = new Proxy({}, { get () { throw new Error('proxy') }, ownKeys () { throw new Error('keys') } })
  return [
    undefined, null, true, 0, -1, 1.5, NaN, Infinity, -Infinity, 2 ** 53, -0, 10n, Symbol('s'),
    '', 'x', '\uD800', '\0', 'ツ'.repeat(5000), '/'.repeat(100000), 'https://a.test/x', 'rfc', 'google',
    Buffer.alloc(0), Buffer.from([0xff, 0x00, 0x2f]), new Uint8Array(3), new Uint16Array(2), new ArrayBuffer(4),
    new DataView(new ArrayBuffer(2)), [], [1], ['/a', 2], ['a', 'b'], [[]], {}, { profile: 'google' },
    { status: 200 }, { status: null, body: 'x' }, throwing, proxy, () => {}, new Date(0), /re/,
    Object.create(null), new Map(), new Set(['a'])
  ]
}

function attempt (fn) {
  try {
    fn()
  } catch (err) {
    assert.ok(err instanceof Error, `threw a non-Error: ${String(err)}`)
  }
}

test('every export with odd arguments answers or throws an Error', () => {
  const values = oddValues()
  const robots = Robots.parse('User-agent: *\nDisallow: /x\nCrawl-delay: 1\n')
  const rules = robots.rulesFor('ExampleBot')
  const entry = new Entry()
  const cache = new Cache()
  const pacer = new Pacer()
  const calls = [
    (a, b) => Robots.parse(a, b),
    (a) => robots.rulesFor(a), (a) => robots.rulesForAny(a), (a) => robots.rulesForStrictest(a),
    (a) => rules.isAllowed(a), (a) => rules.decide(a), (a) => rules.filterAllowed(a), (a) => rules.decideMany(a),
    (a, b) => rules.preferences(a, b), (a) => rules.preferences('/', { header: a }),
    (a, b) => api.classifyFetch(a, b), (a, b, c) => api.classifyFetch(200, a, b ?? c),
    (a, b) => api.accessFromOutcome(a, b), (a) => new Entry(a),
    (a) => entry.isDue(a), (a) => entry.answer(a), (a, b) => entry.record(a, b),
    (a) => new Cache(a), (a, b, c) => cache.lookup(a, b, c), (a, b) => cache.store(a, b), (a) => cache.abandon(a),
    (a) => cache.remove(a), (a) => new Pacer(a), (a, b) => pacer.reserve(a, b), (a, b) => pacer.setRules(a, b),
    (a, b) => pacer.setDelay(a, b), (a, b, c) => pacer.record(a, b, c), (a, b) => pacer.setEnabled(a, b),
    (a) => pacer.gapMs(a), (a, b) => pacer.confirm(a, b), (a) => pacer.cancel(a), (a, b) => pacer.inFlight(a, b),
    (a, b) => pacer.confirm(pacer.reserve('a.test', 0), a ?? b), (a) => api.productToken(a)
  ]
  let n = 0
  for (const call of calls) {
    for (const a of values) {
      for (const b of [undefined, values[n % values.length]]) {
        attempt(() => call(a, b, values[(n * 7) % values.length]))
        n++
      }
    }
  }
  // And the objects still answer afterwards.
  assert.equal(rules.isAllowed('/x'), false)
  assert.equal(rules.crawlDelay, 1)
  assert.ok(n > 1000)
})

test('every method and getter of every class called on a wrong this throws a TypeError', async () => {
  const pkg = await import('robotstxt-engine')
  const classes = {
    Robots: pkg.Robots,
    Rules: pkg.Rules,
    Cache: pkg.Cache,
    Lease: pkg.Lease,
    CachedAnswer: pkg.CachedAnswer,
    Pacer: pkg.Pacer, // the package entry's, over the native one
    NativePacer: Pacer,
    Ticket: pkg.Ticket,
    Entry: pkg.Entry,
    RobotsCache: pkg.RobotsCache
  }
  const others = [Robots.parse(''), new Cache(), new Entry()]
  const wrongs = [undefined, null, 5, 'x', {}, [], Object.create(pkg.Rules.prototype), Object.create(Cache.prototype),
    new Proxy({}, {}), new Proxy({}, { get () { throw new Error('proxy') } }), ...others]
  let n = 0
  for (const [name, Class] of Object.entries(classes)) {
    const protos = []
    for (let p = Class.prototype; p !== Object.prototype; p = Object.getPrototypeOf(p)) protos.push(p)
    for (const proto of protos) {
      for (const key of Reflect.ownKeys(proto)) {
        if (key === 'constructor') continue
        const d = Object.getOwnPropertyDescriptor(proto, key)
        const fn = d.get ?? d.value
        if (typeof fn !== 'function') continue
        for (const self of wrongs) {
          if (others.includes(self) && self instanceof Class) continue // a right one
          const at = `${name}.${String(key)} on wrong this #${wrongs.indexOf(self)}`
          let threw
          try {
            const got = fn.call(self, 'https://a.test/x', 0)
            if (got instanceof Promise) await got
          } catch (err) {
            threw = err
          }
          assert.ok(threw instanceof TypeError, `${at}: ${threw}`)
          n++
        }
      }
    }
  }
  assert.ok(n > 500, `${n} calls`)
  // The objects used as wrong receivers still work.
  assert.equal(others[0].rulesFor('a').isAllowed('/'), true)
  assert.equal(others[1].size, 0)
})

test('a wrong this names the method and the class, with code ERR_INVALID_THIS', async () => {
  const { Rules: R, Cache: C } = await import('robotstxt-engine')
  assert.throws(() => R.prototype.isAllowed.call({}, '/x'), {
    name: 'TypeError', code: 'ERR_INVALID_THIS', message: 'Rules.prototype.isAllowed must be called on a Rules, not an object'
  })
  assert.throws(() => C.prototype.lookup.call(null, 'http://a/'), {
    name: 'TypeError', code: 'ERR_INVALID_THIS', message: 'Cache.prototype.lookup must be called on a Cache, not null'
  })
  assert.throws(() => Object.getOwnPropertyDescriptor(R.prototype, 'crawlDelay').get.call(new Cache()), {
    name: 'TypeError', code: 'ERR_INVALID_THIS', message: 'Rules.prototype.crawlDelay must be called on a Rules, not a Cache'
  })
})
