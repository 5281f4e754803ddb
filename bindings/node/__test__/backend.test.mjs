// Which build answers (`backend`: the native addon or the WebAssembly
// build, ROBOTSTXT_BACKEND to choose), and the package entry's fast paths
// on either: the shared vectors through `isAllowed` and `filterAllowed` of
// the entry's Rules, and the inputs where the WebAssembly build's direct
// path (src/wasm.rs) could part from the native answer: lone surrogates,
// URLs longer than its scratch buffer, bytes, a memory that grew, closed
// rules, wrong types.

import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { readFileSync, readdirSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { describe, test } from 'node:test'
import { fileURLToPath } from 'node:url'

import * as esm from 'robotstxt-engine'
import { runEntryVectors } from './entry-vectors.mjs'
import { cannot } from './limits.mjs'

const { Robots, backend } = esm
const here = dirname(fileURLToPath(import.meta.url))
const require = createRequire(import.meta.url)
const vectorsDir = join(here, '..', '..', '..', 'tests', 'vectors')

describe('backend', () => {
  test('says which build loaded, the one ROBOTSTXT_BACKEND asks for', () => {
    assert.ok(['native', 'wasm'].includes(backend), backend)
    assert.equal(require('robotstxt-engine').backend, backend)
    const wanted = process.env.ROBOTSTXT_BACKEND
    if (wanted) assert.equal(backend, wanted)
    // The WebAssembly build's raw exports stay inside the entry.
    assert.equal(Object.keys(esm).filter((name) => /^_[^_]/.test(name)).length, 0)
  })

  test('an unknown ROBOTSTXT_BACKEND is refused, naming the choices', { skip: cannot('spawn') }, () => {
    const run = () => execFileSync(process.execPath, ['-e', "require('robotstxt-engine')"], {
      cwd: here, env: { ...process.env, ROBOTSTXT_BACKEND: 'gpu' }, stdio: 'pipe', encoding: 'utf8'
    })
    assert.throws(run, (error) => {
      assert.match(error.stderr, /RangeError: ROBOTSTXT_BACKEND must be native or wasm, not "gpu"/)
      return true
    })
  })
})

test('the shared vectors through the package entry', () => {
  const files = {}
  for (const file of readdirSync(vectorsDir).filter((f) => f.endsWith('.json')).sort()) {
    files[file] = JSON.parse(readFileSync(join(vectorsDir, file), 'utf8'))
  }
  const { cases, checks, failures } = runEntryVectors(esm, files)
  assert.deepEqual(failures, [])
  assert.ok(cases > 400 && checks > 3000, `${cases} cases, ${checks} checks`)
})

describe('the fast paths answer as decide() does', () => {
  const body = 'User-agent: *\nDisallow: /\uFFFD\nDisallow: /private\nAllow: /private/open\nDisallow: /*.pdf$\n' +
    `Disallow: /long/${'x'.repeat(5000)}\n`
  const urls = [
    '/', '/private', '/private/open/a', '/a.pdf', '/a.pdf?x', '/\uFFFD', '/%EF%BF%BD',
    // Lone surrogates read as U+FFFD, as N-API writes them natively;
    // a pair is one character.
    '/\uD800', '/\uDC00', '/\uD800x', '/a\uDBFF', '/\uD83D\uDE00', '/\uDE00\uD83D',
    `/long/${'x'.repeat(5000)}`, `/long/${'x'.repeat(4999)}`, `/${'é'.repeat(40000)}`,
    'https://example.com/private?q#f', '//example.com/a.pdf', ''
  ]

  test('isAllowed and filterAllowed, as strings and bytes', () => {
    const rules = Robots.parse(body).rulesFor('ExampleBot')
    const want = urls.map((url) => rules.decide(url).allowed)
    assert.deepEqual(want.slice(5, 13), [false, false, false, false, false, true, true, false])
    assert.deepEqual(urls.map((url) => rules.isAllowed(url)), want)
    assert.deepEqual(urls.map((url) => rules.isAllowed(Buffer.from(url))), want)
    assert.deepEqual(urls.map((url) => rules.isAllowed(new Uint8Array(Buffer.from(url)))), want)
    assert.deepEqual(rules.filterAllowed(urls), urls.filter((_, i) => want[i]))
    assert.deepEqual(rules.filterAllowed([...urls].reverse()), urls.filter((_, i) => want[i]).reverse())
    // A URL with a line break: one at a time, the same answers.
    const broken = ['/private\n/x', ...urls]
    assert.deepEqual(rules.filterAllowed(broken), broken.filter((url) => rules.decide(url).allowed))
  })

  test('the same rules after other work grew the memory', () => {
    const rules = Robots.parse(body).rulesFor('ExampleBot')
    assert.equal(rules.isAllowed('/private/x'), false)
    // Tens of MB of rules (the parse limit keeps 500 KiB of them, once per
    // profile and selection): the WebAssembly build's memory grows under
    // the scratch buffer's view.
    const big = Array.from({ length: 40000 }, (_, i) => `Disallow: /d${i}/*/x$`).join('\n')
    const kept = []
    for (let i = 0; i < 20; i++) kept.push(Robots.parse(`User-agent: *\n${big}\n`).rulesFor('ExampleBot'))
    const other = kept.pop()
    for (const k of kept) k.close()
    assert.equal(other.isAllowed('/d1/a/x'), false)
    assert.equal(other.isAllowed('/d1/a/y'), true)
    assert.equal(rules.isAllowed('/private/x'), false)
    assert.equal(rules.isAllowed('/private/open'), true)
    assert.deepEqual(rules.filterAllowed(['/private/x', '/ok', '/a.pdf']), ['/ok'])
  })

  test('closed rules and wrong types throw what the native build throws', () => {
    const rules = Robots.parse(body).rulesFor('ExampleBot')
    assert.throws(() => rules.isAllowed(42), { name: 'TypeError', code: 'ERR_INVALID_ARG_TYPE' })
    assert.throws(() => rules.isAllowed(new Uint16Array(2)), { name: 'TypeError', code: 'ERR_INVALID_ARG_TYPE' })
    assert.throws(() => rules.filterAllowed(['/a', 7]), { name: 'TypeError', code: 'ERR_INVALID_ARG_TYPE' })
    rules.close()
    assert.throws(() => rules.isAllowed('/a'), { code: 'ERR_ROBOTSTXT_CLOSED' })
    assert.throws(() => rules.filterAllowed(['/a', '/b']), { code: 'ERR_ROBOTSTXT_CLOSED' })
  })

  test('lone surrogates elsewhere read as U+FFFD too', () => {
    // Through the binding's own string reads (the body, decide).
    const rules = Robots.parse('User-agent: *\nDisallow: /\uDC00\n').rulesFor('ExampleBot')
    assert.equal(rules.decide('/\uD800').pattern, rules.decide('/\uFFFD').pattern)
    assert.equal(rules.decide('/\uD800x').allowed, false)
    assert.equal(rules.decide('/\u{10000}').allowed, true)
    assert.equal(rules.isAllowed('/\uD800'), false)
  })
})
