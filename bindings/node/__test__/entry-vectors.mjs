// The shared vectors (tests/vectors/*.json) through the package entry, in
// Node.js (entry-vectors.test.mjs) or in a browser (tools/dist/browser/):
// the parse-and-ask cases, the fetch outcomes and the origins. Checks ask
// `isAllowed` and `filterAllowed` of Rules made by the entry, which on the
// WebAssembly build take its direct path (src/wasm.rs), and compare them
// with `decide`, the expected answers and the same URL as bytes. No
// node: imports and no Buffer, so that a browser bundle runs it as is.
// vectors.test.mjs holds the binding itself to every field; this holds
// the entry's fast paths to the same answers.

const encoder = new TextEncoder()

/** `body`/`url_parts`: a string, or parts of text, hex and repeats, as bytes. */
function bytesOf (value) {
  if (typeof value === 'string') return encoder.encode(value)
  const parts = value.map((part) => {
    if ('text' in part) return encoder.encode(part.text)
    if ('hex' in part) return Uint8Array.from(part.hex.match(/../g) ?? [], (h) => parseInt(h, 16))
    if ('repeat' in part) return encoder.encode(part.repeat.repeat(part.times))
    throw new Error(`unknown body part ${JSON.stringify(part)}`)
  })
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0))
  let at = 0
  for (const p of parts) {
    out.set(p, at)
    at += p.length
  }
  return out
}

/** JSON-comparable: plain data, keys in order. */
function plain (value) {
  if (value instanceof Uint8Array) return Array.from(value)
  if (Array.isArray(value)) return value.map(plain)
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.keys(value).sort().map((k) => [k, plain(value[k])]))
  }
  return value
}

/**
 * Runs every vector file of `files` ({ name: parsed JSON }) against `api`
 * (the package entry's exports). Returns `{ cases, checks, failures }`;
 * `failures` holds one message per wrong answer.
 */
export function runEntryVectors (api, files) {
  const { Robots, Cache, classifyFetch } = api
  const failures = []
  let cases = 0
  let checks = 0
  const same = (got, want, at) => {
    checks += 1
    const [g, w] = [JSON.stringify(plain(got)), JSON.stringify(plain(want))]
    if (g !== w) failures.push(`${at}: got ${g}, want ${w}`)
  }
  const throwsCode = (fn, code, at) => {
    checks += 1
    try {
      fn()
      failures.push(`${at}: no error, want ${code}`)
    } catch (error) {
      if (error?.code !== code) failures.push(`${at}: ${error?.code} ${error?.message}, want ${code}`)
    }
  }

  function select (robots, kase) {
    if (kase.token !== undefined) return robots.rulesFor(kase.token)
    if (kase.mode === 'any') return robots.rulesForAny(kase.tokens)
    return robots.rulesForStrictest(kase.tokens)
  }

  function parseCase (kase, at) {
    const profiles = (kase.profile ?? 'both') === 'both' ? ['rfc', 'google'] : [kase.profile]
    for (const profile of profiles) {
      const where = `${at} [${profile}]`
      const options = { profile }
      if (kase.options?.parse_limit !== undefined) options.parseLimit = kase.options.parse_limit
      if (kase.options?.typos !== undefined) options.typos = kase.options.typos
      const robots = Robots.parse(typeof kase.body === 'string' ? kase.body : bytesOf(kase.body), options)
      if (kase.sitemaps !== undefined) same(robots.sitemaps, kase.sitemaps, `${where}: sitemaps`)
      if (kase.host !== undefined) same(robots.host, kase.host, `${where}: host`)
      if (kase.token === undefined && kase.tokens === undefined) continue
      if (kase.error !== undefined) {
        throwsCode(() => select(robots, kase), 'ERR_ROBOTSTXT_INVALID_TOKEN', `${where}: error`)
        continue
      }
      const rules = select(robots, kase)
      const urls = []
      const allowed = []
      for (const check of kase.checks ?? []) {
        const url = check.url !== undefined ? check.url : bytesOf(check.url_parts)
        const shown = `${where} ${String(check.url ?? check.url_parts).slice(0, 60)}`
        const d = rules.decide(url)
        same(rules.isAllowed(url), check.allowed, `${shown}: isAllowed`)
        same(d.allowed, check.allowed, `${shown}: decide`)
        if (check.line !== undefined) same(d.line, check.line, `${shown}: line`)
        if (check.kind !== undefined) same(d.kind, check.kind, `${shown}: kind`)
        if (check.pattern !== undefined) same(d.pattern, check.pattern, `${shown}: pattern`)
        const bytes = typeof url === 'string' ? encoder.encode(url) : url
        same(rules.isAllowed(bytes), check.allowed, `${shown}: isAllowed(bytes)`)
        urls.push(url)
        allowed.push(check.allowed)
      }
      if (urls.length > 0) {
        const want = urls.filter((_, i) => allowed[i])
        same(rules.filterAllowed(urls), want, `${where}: filterAllowed`)
        // Strings only: the batch of one joined string.
        const strings = urls.map((u) => typeof u === 'string' ? u : null)
        if (strings.every((u) => u !== null) && strings.length > 1) {
          same(rules.filterAllowed([...strings, ...strings]), [...want, ...want], `${where}: filterAllowed twice`)
        }
      }
      if (kase.crawl_delay !== undefined) same(rules.crawlDelay, kase.crawl_delay, `${where}: crawl_delay`)
      if (kase.request_rate !== undefined) {
        const r = rules.requestRate
        same(r && { requests: r.requests, seconds: r.seconds }, kase.request_rate, `${where}: request_rate`)
      }
      for (const check of kase.preferences ?? []) {
        const p = rules.preferences(check.url)
        const got = {
          url: check.url, crawlable: p.crawlable, line: p.decision.line, labels: p.labels, statements: p.statements.map((s) => s.line)
        }
        const { note, ...want } = check
        same(got, want, `${where} ${check.url}: preferences`)
      }
      rules.close()
      robots.close()
    }
  }

  const ACCESS = { 'follow-rules': 'follow_rules', 'allow-all': 'allow_all', 'disallow-all': 'disallow_all', 'not-modified': 'not_modified' }
  function accessCase (kase, at) {
    const got = classifyFetch(kase.status, kase.redirects ?? 0, kase.policy ?? 'careful')
    same(ACCESS[got.access], kase.access, `${at}: access`)
    if (kase.retry_later !== undefined) same(got.retryLater, kase.retry_later, `${at}: retry_later`)
  }

  function originCase (kase, at) {
    const cache = new Cache()
    if (kase.error !== undefined) {
      throwsCode(() => cache.lookup(kase.url, 0), 'ERR_ROBOTSTXT_INVALID_URL', `${at}: error`)
    } else {
      same(cache.lookup(kase.url, 0).lease.origin, kase.origin, `${at}: origin`)
    }
    cache.close()
  }

  // Timelines, the cache's steps and pacing schedules: vectors.test.mjs;
  // the HTTP facts: http.test.mjs.
  const SKIPPED = ['freshness.json', 'cache.json', 'pacing.json', 'http.json']
  for (const [file, doc] of Object.entries(files)) {
    if (SKIPPED.includes(file)) continue
    for (const kase of doc.cases) {
      const at = `${file}: ${kase.name}`
      cases += 1
      try {
        if (file === 'access.json') accessCase(kase, at)
        else if (file === 'origins.json') originCase(kase, at)
        else parseCase(kase, at)
      } catch (error) {
        failures.push(`${at}: threw ${error?.stack ?? error}`)
      }
    }
  }
  return { cases, checks, failures }
}
