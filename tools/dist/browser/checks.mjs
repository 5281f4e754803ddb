// What the page and its Web Worker run (bundled by run.mjs with esbuild,
// `robotstxt-engine` resolved as a bundler resolves it for browsers): the
// shared vectors through the package entry, what the entry says of
// itself, and the time of single checks and batches. Returns plain data.
import * as api from 'robotstxt-engine'

import { runEntryVectors } from '../../../bindings/node/__test__/entry-vectors.mjs'

/** Runs everything against the vector files `files` ({ name: JSON }). */
export function runChecks (files) {
  const { cases, checks, failures } = runEntryVectors(api, files)
  const rules = api.Robots.parse('User-agent: *\nDisallow: /\uFFFD\nDisallow: /private\n').rulesFor('ExampleBot')
  const facts = {
    backend: api.backend,
    exports: Object.keys(api).sort(),
    crossOriginIsolated: globalThis.crossOriginIsolated === true,
    version: api.version(),
    // A lone surrogate reads as U+FFFD, as in Node.
    loneSurrogate: [rules.isAllowed('/\uD800'), rules.decide('/\uD800').allowed, rules.isAllowed('/\uDC00ok')]
  }
  return { cases, checks, failures, facts, timing: timing(rules) }
}

/** ns per single check and per URL of a 20-URL batch, best of 5. */
function timing (rules) {
  const urls = Array.from({ length: 20 }, (_, i) => i % 3 ? `/public/page-${i}.html` : `/private/${i}`)
  let best = Infinity
  let bestBatch = Infinity
  let n = 0
  for (let pass = 0; pass < 5; pass++) {
    let t = performance.now()
    for (let i = 0; i < 100000; i++) if (rules.isAllowed(urls[i % 20])) n++
    best = Math.min(best, (performance.now() - t) * 1e6 / 100000)
    t = performance.now()
    for (let i = 0; i < 5000; i++) n += rules.filterAllowed(urls).length
    bestBatch = Math.min(bestBatch, (performance.now() - t) * 1e6 / 100000)
  }
  return { checkNs: Math.round(best), batchNsPerUrl: Math.round(bestBatch), answered: n }
}
