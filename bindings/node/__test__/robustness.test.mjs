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
    (a, b) => api.classifyFetch(a, b), (a, b, c) => api.classifyFetch(200, a, b ?? c),
    (a, b) => api.accessFromOutcome(a, b), (a) => new Entry(a),
    (a) => entry.isDue(a), (a) => entry.answer(a), (a, b) => entry.record(a, b),
    (a) => new Cache(a), (a, b, c) => cache.lookup(a, b, c), (a, b) => cache.store(a, b), (a) => cache.abandon(a),
    (a) => cache.remove(a), (a) => new Pacer(a), (a, b) => pacer.reserve(a, b), (a, b) => pacer.setRules(a, b),
    (a, b) => pacer.setDelay(a, b), (a, b, c) => pacer.record(a, b, c), (a, b) => pacer.setEnabled(a, b),
    (a) => pacer.gapMs(a)
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
