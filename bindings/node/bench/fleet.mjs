// `npm run bench:fleet`: what sharing a fleet's state through Redis costs,
// against a real redis-server on 127.0.0.1 (ROBOTSTXT_REDIS_SERVER, as
// `make redis` unpacks it):
//
//   1. slot reservations per second (SharedPacer.reserve, one Redis script
//      call each) from 1, 4 and 8 worker processes at once, each on its
//      own hosts and all on one host;
//   2. copy round trips: a worker storing a fetched copy (lookup + store,
//      the fetch itself instant) and a worker loading a copy another stored
//      (lookup with the data, decode and parse), per origin;
//   3. a check on rules from the shared cache, warm, beside the same check
//      on rules from the local RobotsCache: the same call, so the same
//      figure.
//
// BENCH_PASSES sets the passes (default 5; the best is kept). With
// `--markdown FILE`, the figures are also written as a Markdown section of
// BENCHMARKS.md (`make bench`).

import { fork } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

import Redis from 'ioredis'

import { RobotsCache, SharedPacer, SharedRobotsCache } from '../lib/index.js'
import { startRedis } from '../__test__/redis-server.mjs'

const here = dirname(fileURLToPath(import.meta.url))
const shared = resolve(process.env.ROBOTSTXT_SHARED ?? join(here, '..', '..', '..', '..', 'shared'))
const passes = Number(process.env.BENCH_PASSES ?? 5)
const markdownAt = process.argv.indexOf('--markdown')
const markdownFile = markdownAt > 0 ? process.argv[markdownAt + 1] : undefined
const RESERVE_MS = 2000

function fmt (n, digits = 0) {
  return n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits })
}

// --- a child: reserves slots for RESERVE_MS and says how many ---------------

if (process.argv[2] === '--child') {
  const [port, prefix, hostMode, id] = process.argv.slice(3)
  const redis = new Redis(Number(port), '127.0.0.1')
  const pacer = new SharedPacer({ redis, prefix, floorMs: 0 })
  await pacer.reserve('warm.test')
  process.send({ ready: true })
  await new Promise((resolve) => process.once('message', resolve))
  let count = 0
  let i = 0
  const end = Date.now() + RESERVE_MS
  while (Date.now() < end) {
    const host = hostMode === 'one' ? 'one.test' : `h${id}-${i++ % 1000}.test`
    await pacer.reserve(host)
    count += 1
  }
  process.send({ count })
  redis.disconnect()
  process.exit(0)
}

const server = await startRedis()
const redis = new Redis(server.port, '127.0.0.1')

async function reservations (workers, hostMode) {
  let best = 0
  for (let pass = 0; pass < passes; pass++) {
    const prefix = `bench${pass}-${workers}-${hostMode}:`
    const children = Array.from({ length: workers }, (_, id) =>
      fork(fileURLToPath(import.meta.url), ['--child', String(server.port), prefix, hostMode, String(id)]))
    await Promise.all(children.map((c) => new Promise((resolve) => c.once('message', resolve))))
    const counts = children.map((c) => new Promise((resolve) => c.once('message', (m) => resolve(m.count))))
    for (const c of children) c.send('go')
    const total = (await Promise.all(counts)).reduce((a, b) => a + b, 0)
    best = Math.max(best, total / (RESERVE_MS / 1000))
  }
  return best
}

// --- 1. reservations --------------------------------------------------------

const slots = []
for (const workers of [1, 4, 8]) {
  for (const hostMode of ['many', 'one']) {
    slots.push({ workers, hostMode, perSecond: await reservations(workers, hostMode) })
  }
}
console.log('1. slot reservations through Redis (SharedPacer.reserve), per second, all workers together')
for (const s of slots) {
  console.log(`   ${String(s.workers).padStart(2)} worker process(es), ${s.hostMode === 'one' ? 'one host   ' : 'own hosts  '} ${fmt(s.perSecond).padStart(8)} /s`)
}

// --- 2. copy round trips ----------------------------------------------------

const files = readFileSync(join(shared, 'bench', 'parse_files.tsv'), 'utf8').trimEnd().split('\n').slice(1)
  .map((row) => row.split('\t')[0]).slice(0, 500)
const bodies = files.map((name) => readFileSync(join(shared, 'corpus', name)))
const origins = bodies.map((_, i) => `https://site${i}.test`)
const bodyOf = new Map(origins.map((o, i) => [`${o}/robots.txt`, bodies[i]]))
const fetch = async (robotsUrl) => ({ status: 200, body: bodyOf.get(robotsUrl) })
const bytes = bodies.reduce((n, b) => n + b.length, 0)

let storeNs = Infinity
let loadNs = Infinity
for (let pass = 0; pass < passes; pass++) {
  const prefix = `copies${pass}:`
  const writer = new SharedRobotsCache({ redis, prefix, fetch })
  let start = process.hrtime.bigint()
  for (const origin of origins) await writer.answerFor(origin + '/')
  storeNs = Math.min(storeNs, Number(process.hrtime.bigint() - start) / origins.length)
  const reader = new SharedRobotsCache({ redis, prefix, fetch: () => { throw new Error('no fetch expected') } })
  start = process.hrtime.bigint()
  for (const origin of origins) await reader.answerFor(origin + '/')
  loadNs = Math.min(loadNs, Number(process.hrtime.bigint() - start) / origins.length)
  writer.close()
  reader.close()
}
console.log(`2. copy round trips over ${origins.length} corpus files (${fmt(bytes / origins.length)} bytes on average)`)
console.log(`   store (lookup, fetch, encode, store)  ${fmt(storeNs / 1000, 1).padStart(8)} µs per copy`)
console.log(`   load (lookup with data, decode)       ${fmt(loadNs / 1000, 1).padStart(8)} µs per copy`)

// --- 3. a check with the shared cache warm -----------------------------------

const checks = readFileSync(join(shared, 'bench', 'check_urls.tsv'), 'utf8').trimEnd().split('\n').slice(1)
  .map((row) => row.split('\t')).slice(0, 20_000)
const byFile = new Map()
for (const [file, , url] of checks) {
  if (!byFile.has(file)) byFile.set(file, [])
  byFile.get(file).push(url)
}
const sample = [...byFile].map(([file, urls], i) => ({ origin: `https://check${i}.test`, body: readFileSync(join(shared, 'corpus', file)), urls }))
const sampleBody = new Map(sample.map((s) => [`${s.origin}/robots.txt`, s.body]))
const sampleFetch = async (robotsUrl) => ({ status: 200, body: sampleBody.get(robotsUrl) })
const sharedCache = new SharedRobotsCache({ redis, prefix: 'checks:', fetch: sampleFetch })
const localCache = new RobotsCache({ fetch: sampleFetch })
const sharedRules = []
const localRules = []
for (const s of sample) {
  sharedRules.push(await sharedCache.rulesFor(s.origin + '/', 'ExampleBot'))
  localRules.push(await localCache.rulesFor(s.origin + '/', 'ExampleBot'))
}
const total = sample.reduce((n, s) => n + s.urls.length, 0)
function checkAll (rules) {
  let n = 0
  for (let i = 0; i < sample.length; i++) {
    for (const url of sample[i].urls) if (rules[i].isAllowed(url)) n++
  }
  return n
}
let sharedNs = Infinity
let localNs = Infinity
checkAll(sharedRules)
checkAll(localRules)
for (let pass = 0; pass < passes * 4; pass++) {
  for (const [rules, set] of [[sharedRules, (t) => { sharedNs = Math.min(sharedNs, t) }], [localRules, (t) => { localNs = Math.min(localNs, t) }]]) {
    const start = process.hrtime.bigint()
    checkAll(rules)
    set(Number(process.hrtime.bigint() - start) / total)
  }
}
console.log(`3. a check (rules.isAllowed) over ${fmt(total)} workload URLs of ${sample.length} files, the cache warm`)
console.log(`   rules from SharedRobotsCache  ${fmt(sharedNs).padStart(5)} ns per check`)
console.log(`   rules from RobotsCache        ${fmt(localNs).padStart(5)} ns per check (ratio ${fmt(sharedNs / localNs, 2)})`)

sharedCache.close()
localCache.close()
redis.disconnect()
await server.stop()

if (markdownFile) {
  const md = [
    '## Fleets: the shared cache and pacer through Redis',
    '',
    `robotstxt's SharedRobotsCache and SharedPacer (Node, ioredis) against a real redis-server (Debian's ${readFileSync(join(here, '..', '..', '..', 'build', 'redis', 'version.txt'), 'utf8').trim()}) on 127.0.0.1 of this machine: every figure includes the round trip to Redis and the Lua script, on the same 2 cores as the workers. Best of ${passes} passes. Command: \`npm run bench:fleet\` in bindings/node (\`make fleet-bench\`).`,
    '',
    '### Slot reservations per second (all worker processes together)',
    '',
    '| worker processes | each on its own hosts | all on one host |',
    '|---:|---:|---:|',
    ...[1, 4, 8].map((w) => {
      const own = slots.find((s) => s.workers === w && s.hostMode === 'many').perSecond
      const one = slots.find((s) => s.workers === w && s.hostMode === 'one').perSecond
      return `| ${w} | ${fmt(own)} | ${fmt(one)} |`
    }),
    '',
    `### Copy round trips (${origins.length} corpus files, ${fmt(bytes / origins.length)} bytes on average)`,
    '',
    '| step | per copy |',
    '|---|---:|',
    `| store: lookup (takes the lease), fetch (instant here), encode, store | ${fmt(storeNs / 1000, 1)} µs |`,
    `| load: lookup returning another worker's copy, decode (parse) | ${fmt(loadNs / 1000, 1)} µs |`,
    '',
    `### A check with the shared cache warm (${fmt(total)} workload URLs, ${sample.length} files)`,
    '',
    '| rules from | ns per check |',
    '|---|---:|',
    `| SharedRobotsCache | ${fmt(sharedNs)} |`,
    `| RobotsCache (local) | ${fmt(localNs)} |`,
    '',
    `The two are the same call on the same kind of rules: ratio ${fmt(sharedNs / localNs, 2)}.`,
    ''
  ]
  writeFileSync(markdownFile, md.join('\n'))
  console.error(`wrote ${markdownFile}`)
}
