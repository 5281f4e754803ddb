// The binding's own surface: the practice shop (behaviour §9), strings vs
// Buffers, non-UTF-8 bodies, every error path, access and freshness.

import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { describe, test } from 'node:test'
import { fileURLToPath } from 'node:url'

import * as esm from 'robotstxt-engine'
import {
  Cache, Entry, Lease, Pacer, Robots, Rules, Ticket, accessFromOutcome, classifyFetch, productToken, version
} from '../index.js'

const here = dirname(fileURLToPath(import.meta.url))
// The practice shop of behaviour §9, as examples/shop/robots.txt ships it.
const SHOP = readFileSync(join(here, '..', '..', '..', 'examples', 'shop', 'robots.txt'))
const require = createRequire(import.meta.url)

describe('loading', () => {
  test('worker threads load the addon too', async () => {
    const { Worker } = await import('node:worker_threads')
    const code = `const { parentPort, workerData } = require('node:worker_threads')
      const { Robots } = require(workerData)
      parentPort.postMessage(Robots.parse('User-agent: *\\nDisallow: /x\\n').rulesFor('a').isAllowed('/x/y'))`
    const answers = await Promise.all([1, 2, 3].map(() => new Promise((resolve, reject) => {
      const worker = new Worker(code, { eval: true, workerData: require.resolve('robotstxt-engine') })
      worker.once('message', resolve)
      worker.once('error', reject)
    })))
    assert.deepEqual(answers, [false, false, false])
  })

  test('require and import give the same addon', () => {
    const cjs = require('robotstxt-engine')
    assert.equal(cjs.Robots, Robots)
    assert.equal(esm.Robots, Robots)
    assert.equal(typeof esm.classifyFetch, 'function')
    assert.match(version(), /^\d+\.\d+\.\d+/)
  })
})

describe('the practice shop (behaviour §9, RFC profile)', () => {
  const robots = Robots.parse(SHOP)
  const table = [
    ['NimbuBot', '/prices/today', true, 10, 'allow', '/prices/today'],
    ['NimbuBot', '/prices/history', false, 9, 'disallow', '/prices/'],
    ['NimbuBot', '/guides/size-chart.pdf', false, 11, 'disallow', '/*.pdf$'],
    ['NimbuBot', '/guides/size-chart.pdf?print=1', true, 0, 'none', ''],
    ['NimbuBot', '/offers/weekend', true, 13, 'allow', '/offers/'],
    ['NimbuBot', '/drafts/new-range', false, 17, 'disallow', '/drafts/'],
    ['NimbuBot', '/account/orders', true, 0, 'none', ''],
    ['OtherBot', '/account/orders', false, 2, 'disallow', '/account/'],
    ['OtherBot', '/products/?sort=price', false, 4, 'disallow', '/products/*?sort='],
    ['ArchiveBot', '/robots.txt', true, 0, 'none', ''],
    ['nimbubot', '/%70rices/history', false, 9, 'disallow', '/prices/']
  ]
  for (const [token, path, allowed, line, kind, pattern] of table) {
    test(`${token} ${path}`, () => {
      const rules = robots.rulesFor(token)
      assert.deepEqual(rules.decide(path), { allowed, line, kind, pattern })
      assert.equal(rules.isAllowed(`https://bazaar.nimbu.test${path}`), allowed)
    })
  }

  test('a whole User-Agent header is not a product token', () => {
    const header = 'Mozilla/5.0 (compatible; NimbuBot/1.0)'
    assert.throws(() => robots.rulesFor(header), (err) => {
      assert.ok(err instanceof RangeError)
      assert.equal(err.code, 'ERR_ROBOTSTXT_INVALID_TOKEN')
      assert.ok(err.message.includes(JSON.stringify(header)), err.message)
      assert.match(err.message, /product token/)
      return true
    })
  })

  test('crawl delays, sitemaps, host, diagnostics', () => {
    assert.equal(robots.rulesFor('NimbuBot').crawlDelay, 2.5)
    assert.equal(robots.rulesFor('OtherBot').crawlDelay, 2)
    assert.equal(robots.rulesFor('ArchiveBot').crawlDelay, null)
    assert.deepEqual(robots.sitemaps, ['https://bazaar.nimbu.test/sitemap.xml'])
    assert.equal(robots.host, null)
    assert.deepEqual(robots.diagnostics, [])
    assert.equal(robots.groupCount, 4)
    assert.equal(robots.ruleCount, 11)
    assert.equal(robots.profile, 'rfc')
  })

  test('several tokens: merged, and strictest-of', () => {
    const any = robots.rulesForAny(['ArchiveBot', 'NimbuBot'])
    assert.equal(any.isAllowed('/prices/today'), true) // the longest rule of both groups
    const strictest = robots.rulesForStrictest(['NimbuBot', 'ArchiveBot'])
    assert.equal(strictest.isAllowed('/prices/today'), false)
    assert.equal(strictest.crawlDelay, 2.5)
    assert.equal(strictest.decide('/x').kind, 'disallow')
  })

  test('compile builds the index up front and changes no answer', () => {
    let body = 'User-agent: *\n'
    for (let i = 0; i < 80; i++) body += `Disallow: /*p${i}q\nAllow: /a${i % 7}/*.css$\n`
    const many = Robots.parse(body)
    const compiled = many.rulesFor('ExampleBot')
    assert.equal(compiled.compile(), undefined)
    for (let i = 0; i < 40; i++) {
      const path = `/a${i % 9}/x/p${i}q.css`
      // A fresh selection scans its rules for its first checks.
      assert.deepEqual(many.rulesFor('ExampleBot').decide(path), compiled.decide(path), path)
    }
  })
})

describe('strings and Buffers', () => {
  test('a body as string, Buffer and Uint8Array parses alike', () => {
    const text = SHOP.toString('utf8')
    const bytes = new Uint8Array(SHOP.buffer.slice(SHOP.byteOffset, SHOP.byteOffset + SHOP.length))
    for (const body of [text, SHOP, bytes]) {
      const rules = Robots.parse(body).rulesFor('NimbuBot')
      assert.equal(rules.isAllowed('/prices/history'), false)
      assert.equal(rules.decide('/prices/today').line, 10)
    }
  })

  test('a Uint8Array view honours its offset and length', () => {
    const padded = Buffer.concat([Buffer.from('Disallow: /x\n'), SHOP, Buffer.from('Disallow: /y\n')])
    const view = padded.subarray(13, 13 + SHOP.length)
    const rules = Robots.parse(view).rulesFor('OtherBot')
    assert.equal(rules.isAllowed('/y'), true)
    assert.equal(rules.decide('/account/').line, 2)
  })

  test('URLs and tokens as Buffers answer as strings do', () => {
    const robots = Robots.parse(SHOP)
    const rules = robots.rulesFor(Buffer.from('NimbuBot'))
    assert.deepEqual(rules.decide(Buffer.from('/prices/today')), rules.decide('/prices/today'))
    assert.deepEqual(robots.rulesForAny([Buffer.from('nimbubot')]).decide('/drafts/x'),
      robots.rulesFor('NimbuBot').decide('/drafts/x'))
  })

  test('non-ASCII strings are matched as UTF-8', () => {
    const robots = Robots.parse('User-agent: *\nDisallow: /ツ\n')
    const rfc = robots.rulesFor('ExampleBot')
    assert.equal(rfc.isAllowed('/ツ/x'), false)
    assert.equal(rfc.isAllowed('/%E3%83%84/x'), false)
    assert.equal(rfc.decide('/ツ').pattern, '/%E3%83%84')
    const google = Robots.parse('User-agent: *\nDisallow: /ツ\n', { profile: 'google' }).rulesFor('x')
    assert.equal(google.isAllowed('/ツ'), true) // Google compares paths as given
    assert.equal(google.isAllowed('/%E3%83%84'), false)
  })

  test('long URLs (beyond the stack buffer) answer the same', () => {
    const rules = Robots.parse('User-agent: *\nDisallow: /*zz$\n').rulesFor('ExampleBot')
    for (const n of [1000, 1023, 1024, 1025, 5000, 100000]) {
      const url = '/' + 'ツ'.repeat(n) + 'zz'
      assert.equal(rules.isAllowed(url), false, `${n}`)
      assert.equal(rules.isAllowed(Buffer.from(url)), false, `${n} bytes`)
      assert.equal(rules.isAllowed(url + 'a'), true, `${n}+a`)
    }
  })

  test('lone surrogates in a string become U+FFFD, not a crash', () => {
    const rules = Robots.parse('User-agent: *\nDisallow: /%EF%BF%BD\n').rulesFor('ExampleBot')
    assert.equal(rules.isAllowed('/\uD800'), false)
  })
})

describe('bodies that are not UTF-8', () => {
  test('invalid UTF-8, NUL bytes and binary junk parse', () => {
    const body = Buffer.concat([
      Buffer.from([0xff, 0xfe, 0x00, 0x80]), Buffer.from('\nUser-agent: *\nDisallow: /a'),
      Buffer.from([0xc3, 0x28]), Buffer.from('\nDisallow: /b\x00c\n'), Buffer.from([0xe2, 0x82])
    ])
    const rfc = Robots.parse(body).rulesFor('ExampleBot')
    assert.equal(rfc.decide('/a%C3(').allowed, false)
    assert.equal(rfc.decide('/a%C3(').pattern, '/a%C3(')
    assert.equal(rfc.isAllowed(Buffer.from([0x2f, 0x61, 0xc3, 0x28])), false)
    const google = Robots.parse(body, { profile: 'google' }).rulesFor('ExampleBot')
    assert.equal(google.isAllowed('/b'), false) // NUL ends the line's content
    assert.equal(google.decide('/b').pattern, '/b')
    for (let seed = 0; seed < 200; seed++) {
      const junk = Buffer.alloc(seed * 37)
      for (let i = 0; i < junk.length; i++) junk[i] = (i * 131 + seed * 17) & 0xff
      const r = Robots.parse(junk)
      assert.equal(typeof r.rulesFor('x').isAllowed(junk), 'boolean')
      assert.ok(Array.isArray(r.diagnostics))
    }
  })

  test('sitemaps and host that are not UTF-8 read lossily', () => {
    const body = Buffer.concat([Buffer.from('Sitemap: https://a.test/'), Buffer.from([0xff]),
      Buffer.from('\nHost: h'), Buffer.from([0xe9, 0x0a])])
    const robots = Robots.parse(body)
    assert.deepEqual(robots.sitemaps, ['https://a.test/\uFFFD'])
    assert.equal(robots.host, 'h\uFFFD')
  })

  test('an HTML page is no rules', () => {
    const rules = Robots.parse('<!doctype html><html><body>Not found</body></html>').rulesFor('x')
    assert.equal(rules.ruleCount, 0)
    assert.equal(rules.isAllowed('/anything'), true)
  })
})

describe('options', () => {
  test('profile, parseLimit, typos', () => {
    const long = 'User-agent: *\n' + '#'.repeat(600000) + '\nDisallow: /x\n'
    assert.equal(Robots.parse(long).rulesFor('a').isAllowed('/x'), true)
    assert.equal(Robots.parse(long, { parseLimit: 700000 }).rulesFor('a').isAllowed('/x'), false)
    const typo = 'User-agent: *\nDissallow: /x\n'
    assert.equal(Robots.parse(typo).rulesFor('a').isAllowed('/x'), false)
    assert.equal(Robots.parse(typo, { typos: false }).rulesFor('a').isAllowed('/x'), true)
    assert.deepEqual(Robots.parse(typo).diagnostics, [{ line: 2, kind: 'disallow', flags: ['typo'] }])
    assert.equal(Robots.parse(typo, { profile: 'google' }).profile, 'google')
    assert.equal(Robots.parse(typo, null).profile, 'rfc')
    assert.equal(Robots.parse(typo, undefined).profile, 'rfc')
  })

  test('the Google profile accepts any crawler name', () => {
    const robots = Robots.parse(SHOP, { profile: 'google' })
    assert.equal(robots.rulesFor('Mozilla/5.0 (compatible; NimbuBot/1.0)').isAllowed('/account/x'), false)
    assert.equal(robots.rulesFor('').isAllowed('/x'), true)
  })

  test('request-rate', () => {
    const rules = Robots.parse('User-agent: *\nRequest-rate: 1/10s\nRequest-rate: 3/1m\n').rulesFor('a')
    assert.deepEqual(rules.requestRate, { requests: 3, seconds: 60, interval: 20 }) // the slowest
    assert.equal(Robots.parse('').rulesFor('a').requestRate, null)
  })
})

/** Asserts that `fn` throws an instance of `type` with `code`. */
function throwsWith (fn, type, code, message) {
  assert.throws(fn, (err) => {
    assert.ok(err instanceof type, `expected a ${type.name}, got ${err?.constructor?.name}: ${err?.message}`)
    assert.equal(err.code, code)
    if (message) assert.match(err.message, message)
    return true
  })
}

describe('errors', () => {
  const robots = Robots.parse(SHOP)
  const rules = robots.rulesFor('NimbuBot')
  const notBytes = [undefined, null, 42, true, {}, [], Symbol('s'), () => {}, new Uint16Array(2), new ArrayBuffer(2), 10n]

  test('wrong types throw TypeError', () => {
    for (const value of notBytes) {
      throwsWith(() => Robots.parse(value), TypeError, 'ERR_INVALID_ARG_TYPE', /^body must be a string, a Buffer or a Uint8Array/)
      throwsWith(() => robots.rulesFor(value), TypeError, 'ERR_INVALID_ARG_TYPE', /^token must be/)
      throwsWith(() => rules.isAllowed(value), TypeError, 'ERR_INVALID_ARG_TYPE', /^url must be/)
      throwsWith(() => rules.decide(value), TypeError, 'ERR_INVALID_ARG_TYPE', /^url must be/)
      throwsWith(() => rules.filterAllowed(['/a', value]), TypeError, 'ERR_INVALID_ARG_TYPE', /^urls\[1\] must be/)
      throwsWith(() => rules.decideMany([value]), TypeError, 'ERR_INVALID_ARG_TYPE', /^urls\[0\] must be/)
      throwsWith(() => robots.rulesForAny(['a', value]), TypeError, 'ERR_INVALID_ARG_TYPE', /^tokens\[1\] must be/)
      throwsWith(() => robots.rulesForStrictest([value]), TypeError, 'ERR_INVALID_ARG_TYPE', /^tokens\[0\] must be/)
    }
    for (const value of ['/a', 42, { length: 1, 0: '/a' }, new Set(['/a'])]) {
      throwsWith(() => rules.filterAllowed(value), TypeError, 'ERR_INVALID_ARG_TYPE', /^urls must be an array/)
      throwsWith(() => rules.decideMany(value), TypeError, 'ERR_INVALID_ARG_TYPE', /^urls must be an array/)
      throwsWith(() => robots.rulesForAny(value), TypeError, 'ERR_INVALID_ARG_TYPE', /^tokens must be an array/)
    }
    throwsWith(() => Robots.parse('', 'google'), TypeError, 'ERR_INVALID_ARG_TYPE', /^options must be an object/)
    throwsWith(() => Robots.parse('', { profile: 1 }), TypeError, 'ERR_INVALID_ARG_TYPE', /^options.profile must be a string/)
    throwsWith(() => Robots.parse('', { parseLimit: '600000' }), TypeError, 'ERR_INVALID_ARG_TYPE', /parseLimit must be a number/)
    throwsWith(() => Robots.parse('', { typos: 'no' }), TypeError, 'ERR_INVALID_ARG_TYPE', /typos must be a boolean/)
  })

  test('invalid tokens and options throw RangeError with the core message', () => {
    for (const token of ['', 'MyBot/1.0', 'My Bot', 'Bot42', 'ExampleBot\n']) {
      throwsWith(() => robots.rulesFor(token), RangeError, 'ERR_ROBOTSTXT_INVALID_TOKEN', /invalid product token .*RFC 9309/)
      throwsWith(() => robots.rulesForAny(['NimbuBot', token]), RangeError, 'ERR_ROBOTSTXT_INVALID_TOKEN')
      throwsWith(() => robots.rulesForStrictest([token]), RangeError, 'ERR_ROBOTSTXT_INVALID_TOKEN')
    }
    throwsWith(() => robots.rulesForAny([]), RangeError, 'ERR_ROBOTSTXT_NO_TOKENS', /no product tokens/)
    throwsWith(() => robots.rulesForStrictest([]), RangeError, 'ERR_ROBOTSTXT_NO_TOKENS')
    for (const limit of [0, 511999, 2 ** 29 + 1, 2 ** 32 - 1]) {
      throwsWith(() => Robots.parse('', { parseLimit: limit }), RangeError, 'ERR_ROBOTSTXT_PARSE_LIMIT',
        new RegExp(`^parse limit ${limit} is out of range`))
    }
    for (const limit of [-1, 600000.5, NaN, Infinity, 2 ** 40]) {
      throwsWith(() => Robots.parse('', { parseLimit: limit }), RangeError, 'ERR_ROBOTSTXT_PARSE_LIMIT', /parseLimit/)
    }
    throwsWith(() => Robots.parse('', { profile: 'Google' }), RangeError, 'ERR_ROBOTSTXT_INVALID_OPTION', /"rfc", "google"/)
    throwsWith(() => Robots.parse('', { profil: 'google' }), RangeError, 'ERR_ROBOTSTXT_INVALID_OPTION', /unknown option "profil"/)
  })

  test('classes cannot be built by hand, methods need their object', () => {
    assert.throws(() => new Robots())
    assert.throws(() => new Rules())
    assert.throws(() => Robots.prototype.rulesFor.call({}, 'a'))
    assert.throws(() => Rules.prototype.isAllowed.call(robots, '/a'))
    assert.throws(() => Object.getOwnPropertyDescriptor(Rules.prototype, 'crawlDelay').get.call({}))
  })

  test('access and freshness arguments', () => {
    throwsWith(() => classifyFetch('200'), TypeError, 'ERR_INVALID_ARG_TYPE', /^status must be a number/)
    throwsWith(() => classifyFetch(200.5), RangeError, 'ERR_OUT_OF_RANGE', /^status must be a whole number/)
    throwsWith(() => classifyFetch(1000), RangeError, 'ERR_OUT_OF_RANGE')
    throwsWith(() => classifyFetch(200, -1), RangeError, 'ERR_OUT_OF_RANGE', /^redirects/)
    throwsWith(() => classifyFetch(200, 0, 'lenient'), RangeError, 'ERR_ROBOTSTXT_INVALID_OPTION', /"careful", "strict"/)
    throwsWith(() => accessFromOutcome(200), TypeError, 'ERR_INVALID_ARG_TYPE', /^outcome must be an object/)
    throwsWith(() => accessFromOutcome({}), TypeError, 'ERR_INVALID_ARG_TYPE', /^outcome.status must be a number or null .*not undefined$/)
    throwsWith(() => accessFromOutcome({ status: 200, bdy: '' }), RangeError, 'ERR_ROBOTSTXT_INVALID_OPTION', /unknown option "bdy"/)
    throwsWith(() => accessFromOutcome({ status: 200, body: 5 }), TypeError, 'ERR_INVALID_ARG_TYPE', /^outcome.body must be/)
    throwsWith(() => accessFromOutcome({ status: 200 }, { policy: 'x' }), RangeError, 'ERR_ROBOTSTXT_INVALID_OPTION')
    throwsWith(() => accessFromOutcome({ status: 200 }, { parseLimit: 1 }), RangeError, 'ERR_ROBOTSTXT_PARSE_LIMIT')
    throwsWith(() => new Entry({ freshForMs: -1 }), RangeError, 'ERR_OUT_OF_RANGE', /freshForMs/)
    throwsWith(() => new Entry({ afterLimit: 'drop' }), RangeError, 'ERR_ROBOTSTXT_INVALID_OPTION', /"keep", "allow"/)
    throwsWith(() => new Entry({ fresh: 1 }), RangeError, 'ERR_ROBOTSTXT_INVALID_OPTION')
    throwsWith(() => new Entry(7), TypeError, 'ERR_INVALID_ARG_TYPE')
    const entry = new Entry()
    throwsWith(() => entry.isDue('now'), TypeError, 'ERR_INVALID_ARG_TYPE', /^now must be a number/)
    throwsWith(() => entry.isDue(-5), RangeError, 'ERR_OUT_OF_RANGE')
    throwsWith(() => entry.answer(NaN), RangeError, 'ERR_OUT_OF_RANGE')
    throwsWith(() => entry.record({ status: 200, maxAgeMs: -1 }, 0), RangeError, 'ERR_OUT_OF_RANGE', /maxAgeMs/)
    throwsWith(() => entry.record({ status: 200, etag: 1 }, 0), TypeError, 'ERR_INVALID_ARG_TYPE', /etag/)
    assert.equal(entry.hasCopy, false) // nothing was recorded by the failed calls
  })

  test('an exception from an option getter propagates', () => {
    const options = { get profile () { throw new Error('boom') } }
    assert.throws(() => Robots.parse('', options), /boom/)
  })
})

describe('batches', () => {
  const native = require('../index.js') // the handle functions the package entry keeps to itself
  const rules = Robots.parse(SHOP).rulesFor('NimbuBot')
  const urls = ['/prices/today', '/prices/history', Buffer.from('/offers/x'), '/x.pdf', '', 'https://a.test']

  test('filterAllowed keeps the allowed values themselves, in order', () => {
    const kept = rules.filterAllowed(urls)
    assert.deepEqual(kept, urls.filter((u) => rules.isAllowed(u)))
    assert.equal(kept[1], urls[2]) // the same Buffer object
    assert.deepEqual(rules.filterAllowed([]), [])
  })

  test('filterAllowed of strings (the batched path) answers as isAllowed', () => {
    const strings = ['/prices/today', '/prices/history', '/offers/x', '/x.pdf', '', 'https://a.test', '/ツ%E3']
    assert.deepEqual(rules.filterAllowed(strings), strings.filter((u) => rules.isAllowed(u)))
    // A URL with a line break cannot be joined: one at a time, same answer.
    const broken = ['/prices/a\nb', '/x', '/prices/\n']
    assert.deepEqual(rules.filterAllowed(broken), broken.filter((u) => rules.isAllowed(u)))
    const handle = rules._handle
    assert.equal(native._rulesAllowedFlags(handle, broken.join('\n'), broken.length), null)
    assert.equal(native._rulesAllowedFlags(handle, '/x', 2), null)
    assert.equal(native._rulesAllowedFlags(handle, '/prices/a\n/x', 2), '01')
    assert.equal(native._rulesAllowedFlags(handle, '\n/prices/a\n', 3), '101') // empty URLs first and last
    throwsWith(() => native._rulesAllowedFlags(handle, 7, 1), TypeError, 'ERR_INVALID_ARG_TYPE', /^joined must be/)
    throwsWith(() => rules.filterAllowed(['/a', 7]), TypeError, 'ERR_INVALID_ARG_TYPE', /^urls\[1\] must be/)
    assert.throws(() => rules.filterAllowed(['/a', , '/b']), TypeError) // eslint-disable-line no-sparse-arrays
  })

  test('isAllowed through the package entry: a handle, the same answers and errors', () => {
    for (const url of ['/prices/x', '/offers/a', Buffer.from('/prices/y'), '', 'https://a.test/prices']) {
      assert.equal(rules.isAllowed(url), rules.decide(url).allowed)
    }
    throwsWith(() => rules.isAllowed(7), TypeError, 'ERR_INVALID_ARG_TYPE', /^url must be/)
    throwsWith(() => Rules.prototype.isAllowed.call({}, '/'), TypeError, 'ERR_INVALID_THIS',
      /^Rules.prototype.isAllowed must be called on a Rules, not an object$/)
    throwsWith(() => Rules.prototype.isAllowed.call(Robots.parse(''), '/'), TypeError, 'ERR_INVALID_THIS',
      /not a Robots$/)
    throwsWith(() => Rules.prototype.filterAllowed.call({}, ['/a', '/b']), TypeError, 'ERR_INVALID_THIS',
      /^Rules.prototype.filterAllowed must be called on a Rules/)
    assert.equal(native._rulesIsAllowed(rules._handle, '/offers/a'), rules.isAllowed('/offers/a'))
    assert.throws(() => native._rulesIsAllowed({}, '/'), Error)
    assert.throws(() => native._rulesIsAllowed(undefined, '/'), Error)
    // A number no live Rules holds, or not a whole number in range: no
    // rounding or wrapping round onto a live one.
    for (const handle of [rules._handle + 1e6, rules._handle + 0.5, -1, NaN, Infinity, 2 ** 32, 2 ** 32 + rules._handle]) {
      throwsWith(() => native._rulesIsAllowed(handle, '/'), TypeError, 'ERR_INVALID_ARG_TYPE', /^handle \S+ names no live Rules/)
    }
    throwsWith(() => native._rulesAllowedFlags(Infinity, '/a\n/b', 2), TypeError, 'ERR_INVALID_ARG_TYPE', /^handle Infinity names/)
  })

  test('a handle is a number kept for the life of its Rules, out of sight', () => {
    const own = Robots.parse('User-agent: *\nDisallow: /x\n').rulesFor('a')
    assert.equal(own.isAllowed('/x'), false)
    const handle = own._handle
    assert.equal(typeof handle, 'number')
    assert.equal(own._handle, handle)
    assert.notEqual(handle, rules._handle)
    assert.equal(native._rulesAllowedFlags(handle, '/x\n/y', 2), '01')
    // The package entry keeps it where no reflection sees it.
    assert.deepEqual(Reflect.ownKeys(own), [])
    assert.equal(JSON.stringify(own), '{}')
    // A frozen Rules answers all the same.
    const frozen = Object.freeze(Robots.parse('User-agent: *\nDisallow: /x\n').rulesFor('a'))
    assert.deepEqual([frozen.isAllowed('/x'), frozen.isAllowed('/y')], [false, true])
    assert.deepEqual(frozen.filterAllowed(['/x', '/y', '/x/z']), ['/y'])
    // What is not a Rules, itself, throws as a native method does.
    for (const notRules of [undefined, null, 5, {}, Object.create(own), new Proxy(own, {})]) {
      throwsWith(() => Rules.prototype.isAllowed.call(notRules, '/'), TypeError, 'ERR_INVALID_THIS')
      throwsWith(() => Rules.prototype.filterAllowed.call(notRules, ['/a', '/b']), TypeError, 'ERR_INVALID_THIS')
    }
  })

  test('decideMany answers as decide, in order', () => {
    assert.deepEqual(rules.decideMany(urls), urls.map((u) => rules.decide(u)))
    const sparse = ['/a', , '/b'] // eslint-disable-line no-sparse-arrays
    assert.throws(() => rules.decideMany(sparse), TypeError)
  })
})

describe('Rules made by the package entry around a handle', () => {
  const native = require('../index.js')
  const robots = Robots.parse(SHOP)

  test('every selection gives one, a Rules like any other', () => {
    const cache = new Cache()
    cache.store(cache.lookup('https://shop.test/', 0).lease, { status: 200, body: SHOP }, 0)
    const { answer } = cache.lookup('https://shop.test/', 1)
    for (const rules of [
      robots.rulesFor('NimbuBot'), robots.rulesForAny(['NimbuBot', 'OtherBot']),
      robots.rulesForStrictest(['NimbuBot']), answer.rulesFor('NimbuBot')
    ]) {
      assert.ok(rules instanceof Rules)
      assert.equal(rules.constructor, Rules)
      assert.equal(typeof rules._handle, 'number')
      assert.deepEqual(Reflect.ownKeys(rules), [])
      assert.equal(rules.crawlDelay, 2.5)
      assert.equal(rules.isAllowed('/prices/x'), rules.decide('/prices/x').allowed)
      assert.equal(rules.ruleCount, robots.rulesFor('NimbuBot').ruleCount)
    }
  })

  test('what it reads through the handle matches what its native twin reads', () => {
    const rules = Robots.parse('User-agent: *\nCrawl-delay: 0.5\nRequest-rate: 1/4\nDisallow: /x\n').rulesFor('a')
    const before = [rules.crawlDelay, rules.requestRate, rules.ruleCount]
    assert.deepEqual(before, [0.5, { requests: 1, seconds: 4, interval: 4 }, 1])
    assert.equal(rules.profile, 'rfc') // a getter with no handle path makes the twin
    assert.deepEqual([rules.crawlDelay, rules.requestRate, rules.ruleCount], before)
    const pacer = new Pacer({ floorMs: 0 })
    pacer.setRules('a.test', rules)
    assert.equal(pacer.gapMs('a.test'), 4000)
    const fresh = Robots.parse('User-agent: *\nCrawl-delay: 3\n').rulesFor('a') // no twin: by handle
    pacer.setRules('b.test', fresh)
    assert.equal(pacer.gapMs('b.test'), 3000)
    throwsWith(() => pacer.setRules('c.test', {}), TypeError, 'ERR_INVALID_ARG_TYPE', /^rules must be a Rules/)
    throwsWith(() => Pacer.prototype.setRules.call({}, 'c.test', fresh), TypeError, 'ERR_INVALID_THIS',
      /^Pacer.prototype.setRules must be called on a Pacer/)
  })

  test('close() gives the slot back at once, and every later use throws', () => {
    for (const twin of [false, true]) {
      const rules = robots.rulesFor('NimbuBot')
      if (twin) rules.decide('/prices/x')
      const handle = rules._handle
      rules.close()
      rules.close() // twice does nothing
      assert.equal(robots.rulesFor('NimbuBot')._handle, handle) // taken again at once
      for (const use of [
        (r) => r.isAllowed('/'), (r) => r.filterAllowed(['/a', '/b']), (r) => r.decide('/'),
        (r) => r.crawlDelay, (r) => r.requestRate, (r) => r.ruleCount, (r) => r.profile,
        (r) => new Pacer().setRules('a.test', r)
      ]) {
        throwsWith(() => use(rules), Error, 'ERR_ROBOTSTXT_CLOSED', /^Rules used after close\(\)$/)
      }
      assert.equal(rules._handle, null)
    }
  })

  test('the package exports none of the binding\'s handle functions', () => {
    const pkg = require('robotstxt-engine')
    assert.deepEqual(Object.keys(pkg).filter((name) => /^_[^_]/.test(name)), [])
    assert.equal(typeof native._rulesIsAllowed, 'function') // the binding itself has them
    // Nor do the prototypes show the native selections that give handles.
    assert.equal(Robots.prototype._rulesForHandle, undefined)
    assert.equal(Pacer.prototype._setRulesHandle, undefined)
  })

  test('filterAllowed reads the handle after the URLs: a Proxy that closes the rules does not steer it', () => {
    const rules = Robots.parse('User-agent: *\nDisallow: /\n').rulesFor('a')
    let other
    const urls = new Proxy(['/a', '/b'], {
      get (target, key, receiver) {
        if (key === 'join' && other === undefined) {
          rules.close()
          other = Robots.parse('').rulesFor('a') // takes the slot just given back
        }
        return Reflect.get(target, key, receiver)
      }
    })
    throwsWith(() => rules.filterAllowed(urls), Error, 'ERR_ROBOTSTXT_CLOSED')
    assert.equal(other.isAllowed('/a'), true)
  })
})

describe('access (behaviour §6)', () => {
  test('classifyFetch', () => {
    const table = [
      [200, 0, 'careful', 'follow-rules', false], [200, 6, 'careful', 'allow-all', false],
      [304, 0, 'careful', 'not-modified', false], [302, 0, 'careful', 'disallow-all', true],
      [401, 0, 'careful', 'disallow-all', true], [403, 0, 'strict', 'allow-all', false],
      [404, 0, 'careful', 'allow-all', false], [429, 0, 'careful', 'disallow-all', true],
      [503, 0, 'careful', 'disallow-all', true], [null, 0, 'careful', 'disallow-all', true],
      [100, 0, 'careful', 'disallow-all', true]
    ]
    for (const [status, redirects, policy, access, retryLater] of table) {
      assert.deepEqual(classifyFetch(status, redirects, policy), { access, retryLater }, `${status}`)
    }
    assert.deepEqual(classifyFetch(undefined), { access: 'disallow-all', retryLater: true })
  })

  test('accessFromOutcome parses a 2xx body', () => {
    const got = accessFromOutcome({ status: 200, body: SHOP }, { profile: 'google', policy: 'strict' })
    assert.equal(got.access, 'follow-rules')
    assert.equal(got.retryLater, false)
    assert.ok(got.robots instanceof Robots)
    assert.equal(got.robots.profile, 'google')
    assert.equal(got.robots.rulesFor('OtherBot').isAllowed('/account/'), false)
    assert.deepEqual(accessFromOutcome({ status: 403 }, { policy: 'strict' }),
      { access: 'allow-all', retryLater: false, robots: null })
    assert.deepEqual(accessFromOutcome({ status: null }),
      { access: 'disallow-all', retryLater: true, robots: null })
  })
})

describe('freshness (behaviour §7)', () => {
  const H = 3600 * 1000

  test('the worked example, in epoch milliseconds', () => {
    const t0 = Date.UTC(2025, 0, 1)
    const entry = new Entry()
    assert.equal(entry.isDue(t0), true)
    assert.equal(entry.record({ status: 200, body: SHOP, etag: '"v1"' }, t0), 'follow-rules')
    assert.equal(entry.fetchedAt, t0)
    assert.equal(entry.dueAt, t0 + 24 * H)
    assert.equal(entry.isDue(t0 + 2 * H), false)
    assert.equal(entry.isDue(t0 + 23.5 * H), false)
    assert.equal(entry.isDue(t0 + 24.5 * H), true)
    assert.deepEqual(entry.validators, { etag: '"v1"', lastModified: null })
    assert.equal(entry.record({ status: 503 }, t0 + 24.5 * H), 'disallow-all')
    assert.equal(entry.failures, 1)
    const answer = entry.answer(t0 + 24.5 * H)
    assert.equal(answer.kind, 'rules')
    assert.equal(answer.robots.rulesFor('NimbuBot').isAllowed('/prices/history'), false)
    assert.equal(entry.dueAt, t0 + 25.5 * H)
    entry.record({ status: 200, body: 'User-agent: *\nDisallow: /\n' }, t0 + 25.5 * H)
    assert.equal(entry.answer(t0 + 25.5 * H).robots.rulesFor('NimbuBot').isAllowed('/prices/today'), false)
    assert.deepEqual(entry.validators, { etag: null, lastModified: null })
  })

  test('no copy: disallow everything; now defaults to Date.now()', () => {
    const entry = new Entry({ retryMs: 60000, policy: 'careful' })
    assert.deepEqual(entry.answer(), { kind: 'disallow-all', robots: null })
    assert.equal(entry.isDue(), true)
    const before = Date.now()
    entry.record({ status: 500 })
    assert.ok(entry.dueAt >= before + 60000 && entry.dueAt <= Date.now() + 60000)
    assert.equal(entry.isDue(), false)
    entry.record({ status: 404 }, 0)
    assert.deepEqual(entry.answer(0), { kind: 'allow-all', robots: null })
    assert.equal(entry.hasCopy, true)
  })
})

describe('cache (single flight)', () => {
  test('one caller fetches, the others wait or get disallow-all, then everyone reads the copy', () => {
    const cache = new Cache({ capacity: 10, leaseMs: 30000 })
    const first = cache.lookup('https://bazaar.nimbu.test/prices/today', 0)
    assert.equal(first.kind, 'fetch')
    assert.ok(first.lease instanceof Lease)
    assert.equal(first.lease.origin, 'https://bazaar.nimbu.test')
    assert.equal(first.lease.robotsUrl, 'https://bazaar.nimbu.test/robots.txt')
    assert.deepEqual([first.lease.etag, first.lease.lastModified], [null, null])
    assert.deepEqual(cache.lookup('https://bazaar.nimbu.test/x', 1),
      { kind: 'wait', answer: null, stale: null, retryAt: null, lease: null, until: 30000 })
    const blanket = cache.lookup(Buffer.from('https://bazaar.nimbu.test/x'), 1, 'disallow-all')
    assert.equal(blanket.answer.kind, 'disallow-all')
    assert.equal(blanket.answer.rulesFor('NimbuBot').isAllowed('/anything'), false)
    assert.equal(cache.store(first.lease, { status: 200, body: SHOP, etag: '"v1"' }, 2), 'follow-rules')
    const ready = cache.lookup('https://bazaar.nimbu.test/', 3)
    assert.equal(ready.kind, 'ready')
    assert.equal(ready.stale, false)
    assert.ok(ready.answer.robots instanceof Robots)
    assert.equal(ready.answer.rulesFor('NimbuBot').isAllowed('/prices/history'), false)
    assert.equal(cache.size, 1)
    assert.equal(cache.stats.fetches, 1)
    // A day later the refresh is a conditional request.
    const again = cache.lookup('https://bazaar.nimbu.test/', 2 + 86400000)
    assert.equal(again.lease.etag, '"v1"')
    cache.abandon(again.lease)
    assert.equal(cache.remove('https://bazaar.nimbu.test/a'), true)
    assert.equal(cache.remove('https://bazaar.nimbu.test/a'), false)
  })

  test('errors', () => {
    const cache = new Cache()
    throwsWith(() => cache.lookup('/relative', 0), RangeError, 'ERR_ROBOTSTXT_INVALID_URL', /no scheme/)
    throwsWith(() => cache.lookup('ftp://a.test/', 0), RangeError, 'ERR_ROBOTSTXT_INVALID_URL')
    throwsWith(() => cache.lookup(42, 0), TypeError, 'ERR_INVALID_ARG_TYPE', /^url must be/)
    throwsWith(() => cache.lookup('https://a.test/', 0, 'sleep'), RangeError, 'ERR_ROBOTSTXT_INVALID_OPTION', /"wait", "disallow-all"/)
    throwsWith(() => cache.store({ origin: 'https://a.test' }, { status: 200 }, 0), TypeError, 'ERR_INVALID_ARG_TYPE', /^lease must be a Lease/)
    throwsWith(() => cache.abandon(null), TypeError, 'ERR_INVALID_ARG_TYPE', /^lease must be a Lease/)
    const { lease } = cache.lookup('https://a.test/', 0)
    throwsWith(() => cache.store(lease, { status: '200' }, 0), TypeError, 'ERR_INVALID_ARG_TYPE', /outcome.status/)
    throwsWith(() => new Cache({ capacity: 0 }), RangeError, 'ERR_OUT_OF_RANGE', /capacity/)
    throwsWith(() => new Cache({ size: 5 }), RangeError, 'ERR_ROBOTSTXT_INVALID_OPTION', /unknown option "size"/)
    const ready = cache.lookup('https://b.test/', 0, 'disallow-all')
    assert.equal(ready.kind, 'fetch')
    throwsWith(() => cache.lookup('https://b.test/', 0, 'disallow-all').answer.rulesFor('My Bot'),
      RangeError, 'ERR_ROBOTSTXT_INVALID_TOKEN')
    assert.throws(() => new Lease())
  })
})

describe('pacer (behaviour §8)', () => {
  test('starts one gap apart, backoff, kill switch', () => {
    const pacer = new Pacer({ floorMs: 0 })
    pacer.setRules('shop.test', Robots.parse(SHOP).rulesFor('NimbuBot')) // crawl-delay 2.5
    assert.equal(pacer.gapMs('shop.test'), 2500)
    assert.equal(pacer.reserve('shop.test', 1000).start, 1000)
    assert.equal(pacer.reserve('SHOP.test', 1000).start, 3500)
    pacer.record('shop.test', { status: 429, retryAfterMs: 60000 }, 1100)
    assert.equal(pacer.reserve('shop.test', 1200).start, 61100)
    assert.equal(pacer.gapMs('shop.test'), 5000)
    pacer.setEnabled('shop.test', false)
    assert.equal(pacer.reserve('shop.test', 2000), null)
    pacer.setEnabled('shop.test', true)
    pacer.setDelay('other.test', { crawlDelay: null, requestRate: { requests: 1, seconds: 10 } })
    assert.equal(pacer.gapMs('other.test'), 10000)
    pacer.setDelay('other.test', { crawlDelay: 0.25 })
    assert.equal(pacer.gapMs(Buffer.from('other.test')), 250)
    assert.ok(pacer.reserve('third.test').start >= Date.now() - 1000)
  })

  test('tickets: confirmed just before sending, one request in flight, a 429 moves the waiting ones', () => {
    const pacer = new Pacer({ floorMs: 0 })
    pacer.setDelay('shop.test', { crawlDelay: 0.25 })
    const first = pacer.reserve('shop.test', 1000)
    const second = pacer.reserve('shop.test', 1000)
    assert.ok(first instanceof Ticket)
    assert.deepEqual([first.start, second.start], [1000, 1250])
    assert.deepEqual(pacer.confirm(first, 1000), { kind: 'go', until: null, busy: false })
    assert.equal(pacer.inFlight('shop.test', 1000), 1)
    // Its slot has come, but the first request is still in flight.
    assert.deepEqual(pacer.confirm(second, 1250), { kind: 'wait', until: 121000, busy: true })
    // The first answers 429 with Retry-After: 60 s: the second gets a new slot.
    pacer.record('shop.test', { status: 429, retryAfterMs: 60000 }, 1300)
    assert.equal(pacer.inFlight('shop.test', 1300), 0)
    assert.deepEqual(pacer.confirm(second, 1300), { kind: 'wait', until: 61300, busy: false })
    assert.equal(second.start, 61300)
    assert.equal(pacer.confirm(second, 61300).kind, 'go')
    throwsWith(() => pacer.confirm(second, 61300), Error, 'ERR_ROBOTSTXT_INVALID_TICKET', /already confirmed/)
    throwsWith(() => new Pacer().confirm(first, 0), Error, 'ERR_ROBOTSTXT_INVALID_TICKET', /another pacer/)
    // A cancelled ticket gives its slot back when it is the last.
    pacer.record('shop.test', { status: 200 }, 61400)
    const third = pacer.reserve('shop.test', 70000)
    pacer.cancel(third)
    assert.equal(pacer.reserve('shop.test', 70000).start, third.start)
    throwsWith(() => pacer.confirm(third, 70000), Error, 'ERR_ROBOTSTXT_INVALID_TICKET', /cancelled/)
    // Switched off: the tickets out are voided.
    const fourth = pacer.reserve('shop.test', 80000)
    pacer.setEnabled('shop.test', false)
    assert.deepEqual(pacer.confirm(fourth, 80000), { kind: 'disabled', until: null, busy: false })
    // More in flight at once, and a place that frees itself.
    const wide = new Pacer({ floorMs: 0, maxInFlight: 2, inFlightTimeoutMs: 5000 })
    const [a, b, c] = [0, 1, 2].map(() => wide.reserve('a.test', 0))
    assert.equal(wide.confirm(a, 0).kind, 'go')
    assert.equal(wide.confirm(b, 0).kind, 'go')
    assert.deepEqual(wide.confirm(c, 0), { kind: 'wait', until: 5000, busy: true })
    assert.equal(wide.inFlight('a.test', 4999), 2)
    assert.equal(wide.inFlight('a.test', 5000), 0)
    assert.equal(wide.confirm(c, 5000).kind, 'go')
    throwsWith(() => new Pacer({ maxInFlight: 0 }), RangeError, 'ERR_OUT_OF_RANGE', /maxInFlight/)
    throwsWith(() => new Pacer({ inFlightTimeoutMs: -1 }), RangeError, 'ERR_OUT_OF_RANGE', /inFlightTimeoutMs/)
    throwsWith(() => pacer.confirm({ start: 0 }), TypeError, 'ERR_INVALID_ARG_TYPE', /^ticket must be a Ticket/)
    throwsWith(() => pacer.cancel(Object.create(Ticket.prototype)), TypeError, 'ERR_INVALID_ARG_TYPE', /^ticket must be/)
    assert.throws(() => new Ticket())
  })

  test('a full pacer refuses a new host rather than forget one backing off', () => {
    const pacer = new Pacer({ floorMs: 0, capacity: 1 })
    pacer.record('a.test', { status: 503 }, 0)
    throwsWith(() => pacer.reserve('b.test', 0), Error, 'ERR_ROBOTSTXT_PACER_FULL', /already tracks 1 hosts/)
  })

  test('errors', () => {
    const pacer = new Pacer()
    throwsWith(() => pacer.reserve('', 0), RangeError, 'ERR_ROBOTSTXT_INVALID_HOST', /empty/)
    throwsWith(() => pacer.reserve(7, 0), TypeError, 'ERR_INVALID_ARG_TYPE', /^host must be/)
    throwsWith(() => pacer.setRules('a.test', {}), TypeError, 'ERR_INVALID_ARG_TYPE', /^rules must be a Rules/)
    throwsWith(() => pacer.setDelay('a.test', { crawlDelay: -1 }), RangeError, 'ERR_OUT_OF_RANGE', /crawlDelay/)
    throwsWith(() => pacer.setDelay('a.test', { requestRate: { requests: 0, seconds: 1 } }), RangeError, 'ERR_OUT_OF_RANGE')
    throwsWith(() => pacer.setDelay('a.test', 5), TypeError, 'ERR_INVALID_ARG_TYPE', /^pace must be an object/)
    throwsWith(() => pacer.setDelay('a.test', { requestRate: { requests: 1 } }), TypeError, 'ERR_INVALID_ARG_TYPE',
      /^pace.requestRate.seconds must be a number, not undefined$/)
    throwsWith(() => pacer.record('a.test', { status: 200, retry: 1 }), RangeError, 'ERR_ROBOTSTXT_INVALID_OPTION')
    throwsWith(() => pacer.setEnabled('a.test', 'yes'), TypeError, 'ERR_INVALID_ARG_TYPE', /^enabled must be a boolean/)
    throwsWith(() => new Pacer({ floorMs: -1 }), RangeError, 'ERR_OUT_OF_RANGE')
  })
})

describe('leases', () => {
  const PRIVATE = 'User-agent: *\nDisallow: /private\n'
  const invalidLease = (reason) => (err) => {
    assert.ok(err instanceof Error && !(err instanceof TypeError) && !(err instanceof RangeError), `${err}`)
    assert.equal(err.code, 'ERR_ROBOTSTXT_INVALID_LEASE')
    assert.match(err.message, reason)
    return true
  }

  test('a second store of a lease is refused and changes nothing', () => {
    const cache = new Cache()
    const { lease } = cache.lookup('https://a.test/', 0)
    assert.equal(cache.store(lease, { status: 200, body: PRIVATE }, 1), 'follow-rules')
    assert.throws(() => cache.store(lease, { status: 404 }, 2), invalidLease(/already stored or abandoned/))
    assert.throws(() => cache.abandon(lease), invalidLease(/already stored or abandoned/))
    const got = cache.lookup('https://a.test/', 3)
    assert.equal(got.answer.kind, 'rules')
    assert.equal(got.answer.rulesFor('ExampleBot').isAllowed('/private'), false) // still in force
    assert.equal(lease.origin, 'https://a.test') // a stored lease still reads
  })

  test('a lease of another cache is refused and stays usable with its own', () => {
    const mine = new Cache()
    const other = new Cache()
    const { lease } = mine.lookup('https://a.test/', 0)
    assert.throws(() => other.store(lease, { status: 404 }, 1), invalidLease(/belongs to another cache/))
    assert.throws(() => other.abandon(lease), invalidLease(/belongs to another cache/))
    assert.equal(other.size, 0)
    assert.equal(mine.store(lease, { status: 200, body: PRIVATE }, 1), 'follow-rules')
    assert.equal(mine.lookup('https://a.test/', 2).answer.rulesFor('a').isAllowed('/private'), false)
  })

  test('a lease that ran out never overwrites a newer copy', () => {
    const cache = new Cache({ leaseMs: 10 })
    const late = cache.lookup('https://a.test/', 0).lease
    const fresh = cache.lookup('https://a.test/', 20).lease // the first ran out
    cache.store(fresh, { status: 200, body: PRIVATE }, 21)
    assert.throws(() => cache.store(late, { status: 404 }, 22), invalidLease(/ran out, and a newer copy/))
    assert.equal(cache.lookup('https://a.test/', 23).answer.rulesFor('a').isAllowed('/private'), false)
  })

  test('close() abandons an unfinished lease at once', () => {
    const cache = new Cache()
    const { lease } = cache.lookup('https://a.test/', 0)
    assert.equal(cache.lookup('https://a.test/', 1).kind, 'wait')
    lease.close()
    assert.equal(cache.lookup('https://a.test/', 2).kind, 'fetch')
    assert.throws(() => lease.origin, { code: 'ERR_ROBOTSTXT_CLOSED', message: 'Lease used after close()' })
    assert.throws(() => cache.store(lease, { status: 200 }, 3), { code: 'ERR_ROBOTSTXT_CLOSED' })
    // [Symbol.dispose] too, and a stored lease closes without giving anything back.
    const next = cache.lookup('https://b.test/', 0).lease
    next[Symbol.dispose]()
    assert.equal(cache.lookup('https://b.test/', 1).kind, 'fetch')
  })
})

describe('answers say why', () => {
  const H = 3_600_000
  const ready = (cache, url, now) => {
    const got = cache.lookup(url, now)
    assert.equal(got.kind, 'ready')
    return got
  }

  test('a file\'s rules: no blanket, no retry', () => {
    const rules = Robots.parse('User-agent: *\nDisallow: /x\n').rulesFor('a')
    assert.equal(rules.blanket, null)
    assert.equal(rules.retryAt, null)
    assert.equal(rules.decide('/x').kind, 'disallow')
  })

  test('404: allow-all, and why', () => {
    const cache = new Cache()
    cache.store(cache.lookup('https://a.test/', 0).lease, { status: 404, redirects: 1 }, 0)
    const got = ready(cache, 'https://a.test/', 1)
    const blanket = { allowed: true, cause: { kind: 'status', status: 404, redirects: 1 } }
    assert.deepEqual(got.answer.blanket, blanket)
    assert.deepEqual([got.retryAt, got.answer.retryAt], [null, null])
    const rules = got.answer.rulesFor('ExampleBot')
    assert.deepEqual(rules.blanket, blanket)
    assert.equal(rules.retryAt, null)
    assert.deepEqual(rules.decide('/x'), { allowed: true, line: 0, kind: 'allow-all', pattern: '' })
    assert.deepEqual(rules.decideMany(['/a', '/b']).map((d) => d.kind), ['allow-all', 'allow-all'])
  })

  test('503 and network errors: disallow-all, why, and when the retry comes', () => {
    const cache = new Cache()
    cache.store(cache.lookup('https://a.test/', 0).lease, { status: 503 }, 0)
    const got = ready(cache, 'https://a.test/', 1)
    const blanket = { allowed: false, cause: { kind: 'status', status: 503, redirects: 0 } }
    assert.deepEqual(got.answer.blanket, blanket)
    assert.equal(got.retryAt, H) // retryMs: 1 hour
    assert.equal(got.answer.retryAt, H)
    const rules = got.answer.rulesFor('ExampleBot')
    assert.deepEqual([rules.blanket, rules.retryAt], [blanket, H])
    assert.deepEqual(rules.decide('/x'), { allowed: false, line: 0, kind: 'disallow-all', pattern: '' })
    assert.equal(rules.decide('/robots.txt').kind, 'none') // RFC: always allowed
    cache.store(cache.lookup('https://b.test/', 0).lease, { status: null }, 0)
    assert.deepEqual(ready(cache, 'https://b.test/', 1).answer.blanket, { allowed: false, cause: { kind: 'no-response' } })
  })

  test('a Retry-After for robots.txt is kept between 1 minute and 24 hours', () => {
    const cache = new Cache()
    const retry = (url, ms) => {
      cache.store(cache.lookup(url, 0).lease, { status: 503, retryAfterMs: ms }, 0)
      return ready(cache, url, 1).retryAt
    }
    assert.equal(retry('https://a.test/', 5_000), 60_000)
    assert.equal(retry('https://b.test/', 2 * H), 2 * H)
    assert.equal(retry('https://c.test/', 48 * H), 24 * H)
  })

  test('an old copy kept after a failed refresh says when the next try is', () => {
    const cache = new Cache()
    cache.store(cache.lookup('https://a.test/', 0).lease, { status: 200, body: 'User-agent: *\nDisallow: /x\n' }, 0)
    cache.store(cache.lookup('https://a.test/', 24 * H).lease, { status: 500 }, 24 * H)
    const got = ready(cache, 'https://a.test/', 24 * H + 1)
    assert.deepEqual([got.stale, got.answer.kind, got.answer.blanket, got.retryAt], [true, 'rules', null, 25 * H])
    const rules = got.answer.rulesFor('a')
    assert.deepEqual([rules.blanket, rules.retryAt, rules.isAllowed('/x')], [null, 25 * H, false])
  })

  test('nothing fetched yet, and past the unreachable limit', () => {
    const cache = new Cache({ leaseMs: 30_000, unreachableLimitMs: H, afterLimit: 'allow' })
    cache.lookup('https://a.test/', 0)
    const waiting = cache.lookup('https://a.test/', 1, 'disallow-all')
    assert.deepEqual(waiting.answer.blanket, { allowed: false, cause: { kind: 'not-fetched' } })
    assert.equal(waiting.retryAt, 30_000) // when the fetch under way runs out
    cache.store(cache.lookup('https://b.test/', 0).lease, { status: 503 }, 0)
    cache.store(cache.lookup('https://b.test/', H).lease, { status: 503 }, H)
    assert.deepEqual(ready(cache, 'https://b.test/', H + 1).answer.blanket,
      { allowed: true, cause: { kind: 'unreachable-limit' } })
  })
})

describe('productToken', () => {
  test('the two forms of User-Agent header', () => {
    assert.equal(productToken('PoliteBot/1.0 (+https://example.com/bot)'), 'PoliteBot')
    assert.equal(productToken('Mozilla/5.0 (compatible; PoliteBot/2.1; +https://example.com/bot)'), 'PoliteBot')
    assert.equal(productToken(Buffer.from('ExampleBot')), 'ExampleBot')
    const robots = Robots.parse('User-agent: politebot\nDisallow: /\n')
    assert.equal(robots.rulesFor(productToken('PoliteBot/1.0')).isAllowed('/x'), false)
  })

  test('a header with no product token is a RangeError', () => {
    for (const header of ['', '   ', 'Mozilla/5.0 (X11; Linux x86_64) Firefox/120.0', 'Bot2/1.0']) {
      throwsWith(() => productToken(header), RangeError, 'ERR_ROBOTSTXT_INVALID_TOKEN',
        /^cannot find a crawler's product token in the User-Agent/)
    }
    throwsWith(() => productToken(42), TypeError, 'ERR_INVALID_ARG_TYPE', /^userAgent must be/)
  })
})

describe('usage preferences (behaviour §10)', () => {
  const BODY = [
    'Clean-param: ref /articles/', // 1: before any group
    'User-agent: *',
    'Content-Signal: search=yes, ai-input=no, ai-train=no',
    'Content-Usage: train-ai=n',
    'Content-Usage: /blog/ train-ai=y, bots=n;v=2', // 5
    'Disallow: /private',
    '',
    'User-agent: NimbuBot', // 8: a named group replaces `*`, preferences too
    'Allow: /',
    'LLM-Policy: https://a.test/llm.txt' // 10
  ].join('\n')
  const robots = Robots.parse(BODY)
  const rules = robots.rulesFor('ExampleBot')
  const none = { value: null, lines: [] }

  test('the longest matching path decides; each answer names its lines', () => {
    assert.deepEqual(rules.preferences('https://a.test/blog/post'), {
      crawlable: true,
      decision: { allowed: true, line: 0, kind: 'none', pattern: '' },
      labels: { 'train-ai': { value: 'y', lines: [5] }, search: none, bots: { value: 'n', lines: [5] } },
      statements: [{
        line: 5,
        path: '/blog/',
        members: [{ key: 'train-ai', value: 'y' }, { key: 'bots', value: 'n;v=2' }]
      }]
    })
    const shop = rules.preferences(Buffer.from('/shop'))
    assert.deepEqual(shop.labels, { 'train-ai': { value: 'n', lines: [4] }, search: none })
    assert.deepEqual(shop.statements, [{ line: 4, path: '/', members: [{ key: 'train-ai', value: 'n' }] }])
    // train-ai and search first, then labels in the order met.
    assert.deepEqual(Object.keys(rules.preferences('/blog/').labels), ['train-ai', 'search', 'bots'])
  })

  test('a URL the rules disallow states nothing', () => {
    assert.deepEqual(rules.preferences('/private/x'), {
      crawlable: false,
      decision: { allowed: false, line: 6, kind: 'disallow', pattern: '/private' },
      labels: { 'train-ai': none, search: none },
      statements: []
    })
    assert.equal(rules.isAllowed('/private/x'), false)
  })

  test('a named group replaces `*`: no preferences, no signal', () => {
    const nimbu = robots.rulesFor('NimbuBot')
    assert.deepEqual(nimbu.preferences('/blog/post').labels, { 'train-ai': none, search: none })
    assert.deepEqual(nimbu.preferences('/blog/post').statements, [])
    assert.equal(nimbu.contentSignal(), null)
  })

  test('the HTTP field combines per label, n first; null or left out is none', () => {
    const page = rules.preferences('/blog/post', { header: 'train-ai=n, search=y' })
    assert.deepEqual(page.labels, {
      'train-ai': { value: 'n', lines: [] }, // the field decided, not line 5
      search: { value: 'y', lines: [] },
      bots: { value: 'n', lines: [5] }
    })
    assert.deepEqual(page.statements, rules.preferences('/blog/post').statements)
    assert.deepEqual(rules.preferences('/blog/post', { header: Buffer.from('search=y') }).labels.search,
      { value: 'y', lines: [] })
    for (const options of [undefined, null, {}, { header: null }, { header: undefined }]) {
      assert.deepEqual(rules.preferences('/blog/post', options), rules.preferences('/blog/post'))
    }
    // Nothing was fetched from a URL that is not crawlable.
    assert.deepEqual(rules.preferences('/private', { header: 'search=y' }), rules.preferences('/private'))
  })

  test('a field that states nothing throws ERR_ROBOTSTXT_INVALID_FIELD with the reason', () => {
    for (const [field, reason] of [['Train-AI=n', 'syntax'], ['train-ai=n,', 'syntax'], ['a=b c', 'syntax'],
      ['', 'empty'], [Buffer.alloc(0), 'empty'], [Buffer.from([0xff]), 'syntax']]) {
      assert.throws(() => rules.preferences('/blog/post', { header: field }), (err) => {
        assert.ok(err instanceof RangeError, `${err}`)
        assert.equal(err.code, 'ERR_ROBOTSTXT_INVALID_FIELD')
        assert.equal(err.reason, reason, JSON.stringify(String(field)))
        assert.match(err.message, reason === 'empty' ? /statement is empty/ : /not an RFC 9651 Dictionary/)
        return true
      })
    }
  })

  test('content-signal: per crawler, any no wins; null without a line', () => {
    assert.deepEqual(rules.contentSignal(), {
      signals: { search: 'yes', 'ai-input': 'no', 'ai-train': 'no' },
      lines: [3]
    })
    const repeated = Robots.parse('User-agent: *\nContent-Signal: Search=YES, x-new=yes\nContent-Signal: search=no\n')
    assert.deepEqual(repeated.rulesFor('a').contentSignal(), {
      signals: { search: 'no', 'ai-input': null, 'ai-train': null, 'x-new': 'yes' },
      lines: [2, 3]
    })
    assert.equal(Robots.parse('User-agent: *\nDisallow: /\n').rulesFor('a').contentSignal(), null)
  })

  test('labels and signal keys are plain own keys, whatever their name', () => {
    const odd = Robots.parse('User-agent: *\nContent-Signal: __proto__=no, constructor=yes\nContent-Usage: constructor=y\n')
      .rulesFor('a')
    const { signals } = odd.contentSignal()
    assert.equal(Object.getPrototypeOf(signals), Object.prototype)
    assert.deepEqual(Object.keys(signals), ['search', 'ai-input', 'ai-train', '__proto__', 'constructor'])
    assert.equal(Object.getOwnPropertyDescriptor(signals, '__proto__').value, 'no')
    assert.deepEqual(odd.preferences('/').labels.constructor, { value: 'y', lines: [3] })
  })

  test('other records: of the file, and of the selected rules', () => {
    const clean = { key: 'Clean-param', keyLower: 'clean-param', value: 'ref /articles/', line: 1, group: null }
    const llm = { key: 'LLM-Policy', keyLower: 'llm-policy', value: 'https://a.test/llm.txt', line: 10, group: 1 }
    assert.deepEqual(robots.otherRecords(), [clean, llm])
    assert.deepEqual(rules.otherRecords(), [clean])
    assert.deepEqual(robots.rulesFor('NimbuBot').otherRecords(), [clean, llm])
    assert.deepEqual(Robots.parse('').otherRecords(), [])
  })

  test('bad statements are reported, kept, and state nothing', () => {
    const bad = Robots.parse([
      'User-agent: *', 'Content-Usage: Train-AI=n', 'Content-Usage: /x', 'Content-Usage: a=yes',
      'Content-Signal: search=maybe, ai-train=no'
    ].join('\n'))
    assert.deepEqual(bad.diagnostics, [
      { line: 2, kind: 'content-usage', flags: ['invalid-statement'] },
      { line: 3, kind: 'content-usage', flags: ['empty-statement'] },
      { line: 4, kind: 'content-usage', flags: ['unknown-preference'] },
      { line: 5, kind: 'content-signal', flags: ['unknown-preference'] }
    ])
    const badRules = bad.rulesFor('a')
    assert.deepEqual(badRules.preferences('/x/1').statements, [{ line: 3, path: '/x', members: [] }])
    assert.deepEqual(badRules.preferences('/y').labels, { 'train-ai': none, search: none })
    assert.deepEqual(badRules.preferences('/y').statements.map((s) => s.line), [2, 4])
    assert.equal(badRules.contentSignal().signals['ai-train'], 'no') // the rest of the line counts
  })

  test('bad arguments throw as everywhere else', () => {
    for (const value of [undefined, null, 42, {}, [], Symbol('s'), new Uint16Array(2)]) {
      throwsWith(() => rules.preferences(value), TypeError, 'ERR_INVALID_ARG_TYPE', /^url must be a string, a Buffer or a Uint8Array/)
    }
    for (const header of [42, true, {}, ['train-ai=n'], new ArrayBuffer(2)]) {
      throwsWith(() => rules.preferences('/', { header }), TypeError, 'ERR_INVALID_ARG_TYPE', /^options\.header must be a string, a Buffer or a Uint8Array/)
    }
    throwsWith(() => rules.preferences('/', 'train-ai=n'), TypeError, 'ERR_INVALID_ARG_TYPE', /^options must be an object/)
    throwsWith(() => rules.preferences('/', { headers: 'train-ai=n' }), RangeError, 'ERR_ROBOTSTXT_INVALID_OPTION', /unknown option "headers"/)
    assert.throws(() => rules.preferences('/', { get header () { throw new Error('boom') } }), /boom/)
    assert.throws(() => rules.contentSignal.call({}), { code: 'ERR_INVALID_THIS' })
    assert.throws(() => robots.otherRecords.call(rules), { code: 'ERR_INVALID_THIS' })
  })

  test('rules closed by the header getter answer this call, then throw', async () => {
    const doomed = Robots.parse(BODY).rulesFor('ExampleBot')
    const options = { get header () { doomed.close(); return 'search=y' } }
    assert.equal(doomed.preferences('/blog/post', options).labels.search.value, 'y')
    await Promise.resolve()
    assert.throws(() => doomed.preferences('/blog/post'), { code: 'ERR_ROBOTSTXT_CLOSED' })
  })

  test('preferences change no access answer', () => {
    const plain = Robots.parse(BODY.replace(/^Content-.*$/gm, '')).rulesFor('ExampleBot')
    for (const url of ['/', '/blog/post', '/private/x', '/shop']) {
      assert.deepEqual(rules.decide(url), plain.decide(url), url)
    }
  })
})
