// Parsed files and rules are garbage-collected: a loop that creates
// 100,000 of each stays within a fixed memory bound.

import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { dirname, join } from 'node:path'
import { test } from 'node:test'
import { fileURLToPath } from 'node:url'

import { cannot } from './limits.mjs'

const here = dirname(fileURLToPath(import.meta.url))
const MiB = 1024 * 1024

test('100,000 parsed files and rules stay within a fixed memory bound', { timeout: 300000, skip: cannot('spawn') || cannot('wasm-memory') }, () => {
  const out = execFileSync(process.execPath, ['--expose-gc', join(here, 'gc-loop.mjs'), '100000'],
    { encoding: 'utf8' })
  const { count, allowed, maxHandle, registered, finalized, checkpoints } = JSON.parse(out)
  assert.equal(count, 100000)
  assert.equal(allowed, count * 2) // every answer was right, not skipped
  assert.equal(checkpoints.length, 10)
  // The first tenth warms up (code, pools, allocator arenas); after that
  // memory must stay flat: 90,000 leaked files of 2 KiB would add 180 MiB.
  const base = checkpoints[0]
  for (const c of checkpoints) {
    assert.ok(c.rss - base.rss < 32 * MiB, `rss grew ${((c.rss - base.rss) / MiB).toFixed(1)} MiB by ${c.i}`)
    assert.ok(c.heapUsed - base.heapUsed < 4 * MiB, `heap grew ${((c.heapUsed - base.heapUsed) / MiB).toFixed(1)} MiB by ${c.i}`)
  }
  // And the objects really were collected, not merely small.
  assert.ok(finalized >= registered * 0.9, `only ${finalized} of ${registered} sampled objects were collected`)
  // Collected Rules gave their handles back, to be taken again: the
  // package entry's Rules give theirs back through a FinalizationRegistry,
  // after the full collections at each checkpoint if not before, so the
  // handles stay within two checkpoints' worth however long the loop.
  assert.ok(maxHandle < count / 5, `handles reached ${maxHandle}: collected Rules kept theirs`)
})

test('a lease dropped unfinished is given back when the garbage collector takes it', { skip: cannot('spawn') }, () => {
  // In a child with --expose-gc: the lease is dropped without store or
  // abandon; once collected, the next lookup fetches at once (no 'wait'
  // for the lease to run out). A lease still held keeps its fetch.
  const script = `
    import { setImmediate as tick } from 'node:timers/promises'
    import { Cache } from 'robotstxt-engine'
    const cache = new Cache({ leaseMs: 3_600_000 })
    let got = cache.lookup('https://dropped.test/', 0)
    const kept = cache.lookup('https://kept.test/', 0)
    const before = [got.kind, kept.kind, cache.lookup('https://dropped.test/', 1).kind]
    got = null
    for (let i = 0; i < 3; i++) { globalThis.gc(); await tick() }
    const after = [cache.lookup('https://dropped.test/', 2).kind, cache.lookup('https://kept.test/', 2).kind]
    console.log(JSON.stringify({ before, after, kept: kept.lease.origin }))
  `
  const out = execFileSync(process.execPath, ['--expose-gc', '--input-type=module', '-e', script],
    { encoding: 'utf8', cwd: here })
  assert.deepEqual(JSON.parse(out), {
    before: ['fetch', 'fetch', 'wait'],
    after: ['fetch', 'wait'],
    kept: 'https://kept.test'
  })
})
