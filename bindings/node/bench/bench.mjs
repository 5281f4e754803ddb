// `npm run bench`: this binding side by side with robots-parser, in one
// process, on the shared workload (../shared/bench/README.md):
//
//   1. parse: the first `capped_bytes` of all 19,999 corpus files;
//   2. checks: 2,000 sample files × 20 URLs × 2 agents, one call per URL,
//      and (this binding) one `filterAllowed` call per file and agent;
//   3. first answers: per corpus file, parse, select for ExampleBot and ask
//      1, 5 or 20 URLs, as benches/compare.rs does, beside its Rust figures.
//
// Parse and checks also run on the WebAssembly build
// (robotstxt-engine-wasm32-wasi, which `make node-wasm` stages in
// build/node-wasm/package, or ROBOTSTXT_WASM_PACKAGE), in the same process
// and passes, given the package entry's behaviour by lib/wrap.js as
// browsers get it; without it, those rows are left out and say so.
//
// Inputs are read and decoded before any timing; each figure is the best of
// several timed passes after a warm-up pass. Set ROBOTSTXT_SHARED to the
// shared directory (default: ../../../shared from this package);
// BENCH_PASSES sets the number of timed passes (default 5). With
// `--markdown FILE` (`npm run bench -- --markdown FILE`), the figures are
// also written to FILE as a Markdown section of BENCHMARKS.md (`make bench`).
// `--rust FILE` names the Rust section the first answers are set beside
// (default: build/bench/rust.md, which `make bench` writes before this).

import { readFileSync, statSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

import robotsParser from 'robots-parser'

import { Robots, version } from '../lib/index.js'

const here = dirname(fileURLToPath(import.meta.url))
const shared = resolve(process.env.ROBOTSTXT_SHARED ?? join(here, '..', '..', '..', '..', 'shared'))
const passes = Number(process.env.BENCH_PASSES ?? 5)
const markdownAt = process.argv.indexOf('--markdown')
const markdownFile = markdownAt > 0 ? process.argv[markdownAt + 1] : undefined
if (markdownAt > 0 && !markdownFile) throw new Error('--markdown needs a file name')
const rustAt = process.argv.indexOf('--rust')
if (rustAt > 0 && !process.argv[rustAt + 1]) throw new Error('--rust needs a file name')
const repo = resolve(here, '..', '..', '..')
const rustFile = rustAt > 0 ? resolve(process.argv[rustAt + 1]) : join(repo, 'build', 'bench', 'rust.md')
const wasmPackage = resolve(process.env.ROBOTSTXT_WASM_PACKAGE ?? join(repo, 'build', 'node-wasm', 'package'))
const wasm = (() => {
  const require = createRequire(import.meta.url)
  try {
    const binding = require(join(wasmPackage, 'robotstxt.wasi.cjs'))
    require('../lib/wrap.js')(binding)
    return binding
  } catch (error) {
    console.log(`No WebAssembly rows: ${wasmPackage} did not load (${error.message.split('\n')[0]}); make node-wasm builds it.`)
    return null
  }
})()
const workload = JSON.parse(readFileSync(join(shared, 'bench', 'workload.json'), 'utf8'))
const AGENTS = workload.agents // ExampleBot, Googlebot
const ORIGIN = workload.origin
const ROBOTS_URL = `${ORIGIN}/robots.txt`

function tsv (name) {
  const [header, ...rows] = readFileSync(join(shared, 'bench', name), 'utf8').trimEnd().split('\n')
  const columns = header.split('\t')
  return rows.map((row) => Object.fromEntries(row.split('\t').map((v, i) => [columns[i], v])))
}

/**
 * The best time, in ns, of each function of `fns` over `passes` timed runs
 * after one warm-up. The runs take turns, so that a busy machine slows all
 * of them alike and the ratios hold.
 */
function best (fns) {
  for (const fn of Object.values(fns)) fn()
  const min = Object.fromEntries(Object.keys(fns).map((k) => [k, Infinity]))
  for (let i = 0; i < passes; i++) {
    for (const [name, fn] of Object.entries(fns)) {
      const start = process.hrtime.bigint()
      fn()
      min[name] = Math.min(min[name], Number(process.hrtime.bigint() - start))
    }
  }
  return min
}

const fmt = (n, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits })

// --- inputs -----------------------------------------------------------------

const parseRows = tsv('parse_files.tsv')
const buffers = parseRows.map((r) => readFileSync(join(shared, 'corpus', r.file)).subarray(0, Number(r.capped_bytes)))
const strings = buffers.map((b) => b.toString('utf8'))
const totalBytes = buffers.reduce((n, b) => n + b.length, 0)

const urlRows = tsv('check_urls.tsv')
const byFile = new Map()
for (const row of urlRows) {
  if (!byFile.has(row.file)) byFile.set(row.file, [])
  byFile.get(row.file).push(row.url)
}
const strata = new Map(tsv('check_sample.tsv').map((r) => [r.file, r.stratum]))
const sample = [...byFile].map(([file, urls]) => {
  const body = readFileSync(join(shared, 'corpus', file))
  const capped = body.subarray(0, 512000)
  return { file, urls, stratum: strata.get(file), buffer: capped, text: capped.toString('utf8') }
})
const checksPerPass = sample.reduce((n, s) => n + s.urls.length, 0) * AGENTS.length

console.log(`robotstxt ${version()} (Node ${process.version}) vs robots-parser ${robotsParserVersion()}`)
console.log(`shared: ${shared}; best of ${passes} passes after a warm-up`)
console.log()

function robotsParserVersion () {
  try {
    return JSON.parse(readFileSync(join(here, '..', 'node_modules', 'robots-parser', 'package.json'), 'utf8')).version
  } catch {
    return '?'
  }
}

// --- 1. parse throughput ----------------------------------------------------

let sink = 0
const {
  ourBuffer: parseOurBuffer, ourString: parseOurString, theirs: parseTheirs, wasmBuffer: parseWasmBuffer,
  wasmString: parseWasmString
} = best({
  ourBuffer: () => { for (const b of buffers) sink += Robots.parse(b).ruleCount },
  ourString: () => { for (const s of strings) sink += Robots.parse(s).ruleCount },
  theirs: () => { for (const s of strings) sink += robotsParser(ROBOTS_URL, s) ? 1 : 0 },
  // Closed at once: WebAssembly memory, once grown, stays grown, and the
  // passes run without yielding to the finalizers.
  ...(wasm && {
    wasmBuffer: () => {
      for (const b of buffers) {
        const robots = wasm.Robots.parse(b)
        sink += robots.ruleCount
        robots.close()
      }
    },
    wasmString: () => {
      for (const s of strings) {
        const robots = wasm.Robots.parse(s)
        sink += robots.ruleCount
        robots.close()
      }
    }
  })
})

const mbps = (ns) => totalBytes / 1e6 / (ns / 1e9)
console.log(`1. parse: ${fmt(buffers.length)} files, ${fmt(totalBytes / 1e6, 1)} MB (capped)`)
console.log(`   robotstxt, Buffer input   ${fmt(mbps(parseOurBuffer), 1).padStart(8)} MB/s  ${fmt(parseOurBuffer / 1e6, 1).padStart(8)} ms`)
console.log(`   robotstxt, string input   ${fmt(mbps(parseOurString), 1).padStart(8)} MB/s  ${fmt(parseOurString / 1e6, 1).padStart(8)} ms`)
console.log(`   robots-parser (string)    ${fmt(mbps(parseTheirs), 1).padStart(8)} MB/s  ${fmt(parseTheirs / 1e6, 1).padStart(8)} ms`)
if (wasm) {
  console.log(`   WebAssembly, Buffer input ${fmt(mbps(parseWasmBuffer), 1).padStart(8)} MB/s  ${fmt(parseWasmBuffer / 1e6, 1).padStart(8)} ms`)
  console.log(`   WebAssembly, string input ${fmt(mbps(parseWasmString), 1).padStart(8)} MB/s  ${fmt(parseWasmString / 1e6, 1).padStart(8)} ms`)
}
console.log()

// --- 2. checks ----------------------------------------------------------------

// Parsed once, outside the timing: a crawler keeps the rules per host.
const ours = sample.map((s) => {
  const robots = Robots.parse(s.buffer)
  return { urls: s.urls, rules: AGENTS.map((a) => robots.rulesFor(a)) }
})
const theirs = sample.map((s) => ({ urls: s.urls, robots: robotsParser(ROBOTS_URL, s.text) }))
const oursWasm = wasm && sample.map((s) => {
  const robots = wasm.Robots.parse(s.buffer)
  return { urls: s.urls, rules: AGENTS.map((a) => robots.rulesFor(a)) }
})

const parsed = sample.map((s) => Robots.parse(s.buffer))
const { select: selectNs } = best({
  select: () => { for (const robots of parsed) for (const a of AGENTS) sink += robots.rulesFor(a).ruleCount }
})

const { oneOurs, batchOurs, decideOurs, oneTheirs, oneWasm, batchWasm } = best({
  oneOurs: () => {
    let n = 0
    for (const f of ours) {
      for (const rules of f.rules) {
        for (const url of f.urls) if (rules.isAllowed(url)) n++
      }
    }
    sink += n
  },
  batchOurs: () => {
    let n = 0
    for (const f of ours) {
      for (const rules of f.rules) n += rules.filterAllowed(f.urls).length
    }
    sink += n
  },
  decideOurs: () => {
    let n = 0
    for (const f of ours) {
      for (const rules of f.rules) for (const d of rules.decideMany(f.urls)) if (d.allowed) n++
    }
    sink += n
  },
  oneTheirs: () => {
    let n = 0
    for (const f of theirs) {
      for (const agent of AGENTS) {
        for (const url of f.urls) if (f.robots.isAllowed(url, agent) !== false) n++
      }
    }
    sink += n
  },
  ...(wasm && {
    oneWasm: () => {
      let n = 0
      for (const f of oursWasm) {
        for (const rules of f.rules) {
          for (const url of f.urls) if (rules.isAllowed(url)) n++
        }
      }
      sink += n
    },
    batchWasm: () => {
      let n = 0
      for (const f of oursWasm) {
        for (const rules of f.rules) n += rules.filterAllowed(f.urls).length
      }
      sink += n
    }
  })
})

// The WebAssembly build answers as the native addon does.
if (wasm) {
  ours.forEach((f, i) => f.rules.forEach((rules, a) => {
    const other = oursWasm[i].rules[a]
    const want = f.urls.filter((url) => rules.isAllowed(url))
    const one = f.urls.filter((url) => other.isAllowed(url))
    if (one.join('\n') !== want.join('\n') || other.filterAllowed(f.urls).join('\n') !== want.join('\n')) {
      throw new Error(`the WebAssembly build answers otherwise for ${sample[i].file}, ${AGENTS[a]}`)
    }
  }))
}

// How often the two libraries agree (they read robots.txt differently).
let agree = 0
ours.forEach((f, i) => {
  f.rules.forEach((rules, a) => {
    f.urls.forEach((url) => {
      if (rules.isAllowed(url) === (theirs[i].robots.isAllowed(url, AGENTS[a]) !== false)) agree++
    })
  })
})

const byStratum = []
for (const name of [...new Set(sample.map((s) => s.stratum))]) {
  const picked = sample.map((s, i) => i).filter((i) => sample[i].stratum === name)
  const checks = picked.reduce((n, i) => n + sample[i].urls.length, 0) * AGENTS.length
  const times = best({
    mine: () => {
      let n = 0
      for (const i of picked) for (const rules of ours[i].rules) for (const url of ours[i].urls) if (rules.isAllowed(url)) n++
      sink += n
    },
    batch: () => {
      let n = 0
      for (const i of picked) for (const rules of ours[i].rules) n += rules.filterAllowed(ours[i].urls).length
      sink += n
    },
    other: () => {
      let n = 0
      for (const i of picked) for (const agent of AGENTS) for (const url of theirs[i].urls) if (theirs[i].robots.isAllowed(url, agent) !== false) n++
      sink += n
    }
  })
  byStratum.push({ name, files: picked.length, mine: times.mine / checks, batch: times.batch / checks, other: times.other / checks })
}

const perSec = (ns) => checksPerPass / (ns / 1e9)
const nsPer = (ns) => ns / checksPerPass
const row = (name, ns) => `   ${name.padEnd(34)}${fmt(perSec(ns)).padStart(12)} checks/s ${fmt(nsPer(ns), 0).padStart(7)} ns/check`
console.log(`2. checks: ${fmt(sample.length)} files × 20 URLs × ${AGENTS.length} agents = ${fmt(checksPerPass)} checks per pass`)
console.log(row('robotstxt isAllowed (one by one)', oneOurs))
console.log(row('robotstxt filterAllowed (batch 20)', batchOurs))
console.log(row('robotstxt decideMany (batch 20)', decideOurs))
console.log(row('robots-parser isAllowed', oneTheirs))
if (wasm) {
  console.log(row('WebAssembly isAllowed (one by one)', oneWasm))
  console.log(row('WebAssembly filterAllowed (batch 20)', batchWasm))
}
console.log(`   (robotstxt rulesFor, once per file and agent: ${fmt(selectNs / (sample.length * AGENTS.length), 0)} ns)`)
console.log(`   answers agree on ${fmt(100 * agree / checksPerPass, 1)}% of checks`)
console.log()
console.log('   by file size (capped)   files   robotstxt ns/check   (batch)   robots-parser ns/check   ratio')
for (const s of byStratum) {
  console.log(`   ${s.name.padEnd(20)}${fmt(s.files).padStart(8)}${fmt(s.mine).padStart(21)}${fmt(s.batch).padStart(10)}` +
    `${fmt(s.other).padStart(25)}${(fmt(s.other / s.mine, 1) + '×').padStart(8)}`)
}
console.log()

// --- 3. first answers -----------------------------------------------------------

// The questions of benches/compare.rs (`first_answer_urls`): a file's own
// workload URLs, else `/` and then paths of the other files' URLs in turn.
const FIRST_ANSWER_CHECKS = [1, 5, 20]
const FIRST_AGENT = 'ExampleBot'
const pathOf = (url) => {
  const at = url.indexOf('://')
  const rest = at < 0 ? url : url.slice(at + 3)
  const slash = rest.indexOf('/')
  return slash < 0 ? '/' : rest.slice(slash).split('#')[0]
}
const allPaths = urlRows.map((r) => pathOf(r.url))
const questions = parseRows.map((r, i) => {
  const own = byFile.get(r.file)
  if (own) return own.slice(0, 20)
  const urls = ['https://www.example.com/']
  for (let k = 1; k < 20; k++) urls.push(`https://www.example.com${allPaths[(i * 19 + k) % allPaths.length]}`)
  return urls
})

const firstAnswers = FIRST_ANSWER_CHECKS.map((n) => {
  const times = best({
    ours: () => {
      let allowed = 0
      for (let i = 0; i < buffers.length; i++) {
        const rules = Robots.parse(buffers[i]).rulesFor(FIRST_AGENT)
        const urls = questions[i]
        for (let j = 0; j < n; j++) if (rules.isAllowed(urls[j])) allowed++
      }
      sink += allowed
    },
    theirs: () => {
      let allowed = 0
      for (let i = 0; i < strings.length; i++) {
        const robots = robotsParser(ROBOTS_URL, strings[i])
        const urls = questions[i]
        for (let j = 0; j < n; j++) if (robots.isAllowed(urls[j], FIRST_AGENT) !== false) allowed++
      }
      sink += allowed
    }
  })
  return { n, ...times }
})

// The Rust rows of the same tables, from the Rust section's Markdown.
const RUST_ROWS = [
  ['robotstxt (rfc)', (name) => name === 'robotstxt (rfc)'],
  ['texting_robots', (name) => name.startsWith('texting_robots')],
  ['Google port', (name) => name.includes('(Google port)')],
  ['fast-robots', (name) => name.startsWith('fast-robots')]
]
const UNITS = { ns: 1, µs: 1e3, ms: 1e6, s: 1e9 }
function readRust (path) {
  let text
  try {
    text = readFileSync(path, 'utf8')
  } catch {
    return null
  }
  const tables = new Map() // n → [{ name, ns }]
  let n = null
  for (const line of text.split('\n')) {
    if (line.startsWith('###')) {
      const m = /^### First answer: parse, select and (\d+) checks? per file, whole corpus/.exec(line)
      n = m ? Number(m[1]) : null
      if (n !== null) tables.set(n, [])
      continue
    }
    if (n === null || !line.startsWith('| ')) continue
    const [name, cell] = line.split('|').slice(1, 3).map((c) => c.trim())
    const m = /^([\d.]+) (ns|µs|ms|s)$/.exec(cell ?? '')
    if (!m || !RUST_ROWS.some(([, is]) => is(name))) continue
    tables.get(n).push({ name, ns: Number(m[1]) * UNITS[m[2]] })
  }
  return { tables, when: statSync(path).mtime }
}
const rust = readRust(rustFile)
const rustShown = relative(repo, rustFile).startsWith('..') ? rustFile : relative(repo, rustFile)
const rustWhen = rust && rust.when.toISOString().slice(0, 16).replace('T', ' ') + ' UTC'
// Per n: robotstxt through Node first, then its peers, each with its time.
const firstRows = firstAnswers.map(({ n, ours, theirs }) => ({
  n,
  ours,
  rows: [
    ['robotstxt through Node', ours, true],
    [`robots-parser ${robotsParserVersion()}`, theirs, false],
    ...RUST_ROWS.flatMap(([, is]) => (rust?.tables.get(n) ?? [])
      .filter((r) => is(r.name))
      .map((r) => [`${r.name}, in Rust`, r.ns, false]))
  ]
}))
const rustMissing = rust && RUST_ROWS
  .filter(([, is]) => !FIRST_ANSWER_CHECKS.every((n) => (rust.tables.get(n) ?? []).some((r) => is(r.name))))
  .map(([label]) => label)
const rustNote = !rust
  ? `No Rust figures: ${rustShown} is missing (\`make bench\` writes it before this step).`
  : `The Rust figures come from ${rustShown} (modified ${rustWhen}), written by benches/compare.rs ` +
    '(median of its rounds, where these are the best of this run\'s passes; the Google port parses on every ' +
    'check and leaves out the files it panics on)' +
    (rustMissing.length ? `; it has no first-answer rows for ${rustMissing.join(', ')}.` : '.')

const ms = (ns) => `${fmt(ns / 1e6, 2)} ms`
// Rust's rows come out below 1×: two digits keep them apart.
const overNode = (ns, ours) => `${fmt(ns / ours, ns < ours ? 2 : 1)}×`
console.log(`3. first answers: ${fmt(buffers.length)} files, each parsed, ExampleBot's rules selected, its first N URLs asked; time per pass`)
for (const { n, ours, rows } of firstRows) {
  console.log(`   N = ${n}`)
  for (const [name, ns, mine] of rows) {
    console.log(`   ${name.padEnd(38)}${ms(ns).padStart(15)}${mine ? '' : overNode(ns, ours).padStart(9)}`)
  }
}
console.log(`   (ratios: peer time ÷ robotstxt-through-Node time) ${rustNote}`)
console.log()

const ratio = (a, b) => `${fmt(b / a, 1)}×`
console.log('ratios (robotstxt ÷ robots-parser, higher is faster):')
console.log(`   parse throughput            ${ratio(parseOurString, parseTheirs)} (string input), ${ratio(parseOurBuffer, parseTheirs)} (Buffer input)`)
console.log(`   checks, one at a time       ${ratio(oneOurs, oneTheirs)}`)
console.log(`   checks, batched             ${ratio(batchOurs, oneTheirs)} (filterAllowed), ${ratio(decideOurs, oneTheirs)} (decideMany)`)
if (wasm) {
  console.log(`   WebAssembly build           ${ratio(parseWasmBuffer, parseTheirs)} (parse, Buffer), ${ratio(parseWasmString, parseTheirs)} (parse, string), ` +
    `${ratio(oneWasm, oneTheirs)} (checks one at a time), ${ratio(batchWasm, oneTheirs)} (filterAllowed)`)
}
if (sink === 0.5) console.log('') // keep the results alive

// --- Markdown, for BENCHMARKS.md ----------------------------------------------

if (markdownFile) {
  const rpVersion = robotsParserVersion()
  const rp = `robots-parser ${rpVersion}`
  const x = (ours, theirs) => `${fmt(theirs / ours, 1)}×`
  const md = [
    '## Node: the binding against robots-parser',
    '',
    `robotstxt ${version()} through its napi-rs binding (Node ${process.version}) against ${rp}, in one process on the ` +
      `shared workload: parse the first \`capped_bytes\` of all ${fmt(buffers.length)} corpus files ` +
      `(${fmt(totalBytes)} bytes); check ${fmt(sample.length)} files × 20 URLs × ${AGENTS.length} agents ` +
      `(${AGENTS.join(', ')}), rules parsed and selected beforehand. Each figure is the best of ${passes} timed pass${passes === 1 ? '' : 'es'} ` +
      'after a warm-up, the libraries taking turns within each pass; ratios are the time of robots-parser ÷ ' +
      'the time of robotstxt (above 1: robotstxt is faster). Command: `npm run bench` in bindings/node ' +
      '(`make node-bench`).',
    '',
    '### Parse throughput over the corpus',
    '',
    `| library | MB/s | time per corpus | vs ${rp} |`,
    '|---|---:|---:|---:|',
    `| robotstxt, \`Robots.parse(Buffer)\` | ${fmt(mbps(parseOurBuffer), 1)} | ${fmt(parseOurBuffer / 1e6, 1)} ms | ${x(parseOurBuffer, parseTheirs)} |`,
    `| robotstxt, \`Robots.parse(string)\` | ${fmt(mbps(parseOurString), 1)} | ${fmt(parseOurString / 1e6, 1)} ms | ${x(parseOurString, parseTheirs)} |`,
    `| ${rp} (string) | ${fmt(mbps(parseTheirs), 1)} | ${fmt(parseTheirs / 1e6, 1)} ms | |`,
    ...(wasm
      ? [`| robotstxt WebAssembly build, \`Robots.parse(Buffer)\` and \`close()\` | ${fmt(mbps(parseWasmBuffer), 1)} | ${fmt(parseWasmBuffer / 1e6, 1)} ms | ${x(parseWasmBuffer, parseTheirs)} |`,
          `| robotstxt WebAssembly build, \`Robots.parse(string)\` and \`close()\` | ${fmt(mbps(parseWasmString), 1)} | ${fmt(parseWasmString / 1e6, 1)} ms | ${x(parseWasmString, parseTheirs)} |`]
      : []),
    '',
    `### Checks over the whole workload (${fmt(checksPerPass)} per pass)`,
    '',
    `| call | ns per check | checks per second | vs ${rp} \`isAllowed\` |`,
    '|---|---:|---:|---:|',
    ...[
      ['robotstxt `isAllowed` (one call per URL)', oneOurs, true],
      ['robotstxt `filterAllowed` (one call per 20 URLs)', batchOurs, true],
      ['robotstxt `decideMany` (one call per 20 URLs)', decideOurs, true],
      ...(wasm
        ? [['robotstxt WebAssembly build `isAllowed` (one call per URL)', oneWasm, true],
            ['robotstxt WebAssembly build `filterAllowed` (one call per 20 URLs)', batchWasm, true]]
        : []),
      [`${rp} \`isAllowed\``, oneTheirs, false]
    ].map(([name, ns, ours]) => `| ${name} | ${fmt(nsPer(ns))} | ${fmt(perSec(ns))} | ${ours ? x(ns, oneTheirs) : ''} |`),
    '',
    `Selecting the rules (\`rulesFor\`, once per file and agent) takes ${fmt(selectNs / (sample.length * AGENTS.length))} ns; ` +
      `the two libraries' answers agree on ${fmt(100 * agree / checksPerPass, 1)}% of the checks (they read robots.txt differently).`,
    '',
    wasm
      ? 'The WebAssembly rows: robotstxt-engine-wasm32-wasi (wasm32-wasip1 without threads, through emnapi), loaded ' +
        'beside the native addon in the same process and passes, through the package entry (its `isAllowed` and ' +
        '`filterAllowed` call the module\'s own exports with the URLs written into its memory, past emnapi); ' +
        'its answers were checked against the native ones on the whole workload.'
      : 'No WebAssembly rows: the WebAssembly build was not built (`make node-wasm`).',
    '',
    '### Checks by file size (ns per check)',
    '',
    `| stratum (capped size) | files | robotstxt \`isAllowed\` | robotstxt \`filterAllowed\` | ${rp} | vs ${rp} (one by one) | vs ${rp} (batched) |`,
    '|---|---:|---:|---:|---:|---:|---:|',
    ...byStratum.map((s) => `| ${s.name} | ${fmt(s.files)} | ${fmt(s.mine)} | ${fmt(s.batch)} | ${fmt(s.other)} | ${x(s.mine, s.other)} | ${x(s.batch, s.other)} |`),
    '',
    '### First answer: parse, select and N checks per file, whole corpus',
    '',
    `For each of the ${fmt(buffers.length)} corpus files: \`Robots.parse(Buffer)\`, \`rulesFor('ExampleBot')\` and ` +
      '`isAllowed` of its first N URLs (robots-parser: `robotsParser(url, text)` and `isAllowed`), the questions of ' +
      'benches/compare.rs: the file\'s own workload URLs, else `/` and then paths of the workload\'s other URLs. ' +
      'Time per pass over the whole corpus; the ratio is the peer\'s time ÷ the time of robotstxt through Node ' +
      `(above 1: robotstxt through Node is faster). ${rustNote}`,
    '',
    '| checks per file | library | time per pass | peer ÷ robotstxt through Node |',
    '|---:|---|---:|---:|',
    ...firstRows.flatMap(({ n, ours, rows }) =>
      rows.map(([name, ns, mine]) => `| ${n} | ${name} | ${ms(ns)} | ${mine ? '' : overNode(ns, ours)} |`)),
    ''
  ]
  writeFileSync(markdownFile, md.join('\n'))
  console.error(`wrote ${markdownFile}`)
}
