// run.mjs PROJECT VECTORS: the package entry in headless Chromium, as a
// web page gets it. Bundles page.mjs and worker.mjs with esbuild,
// resolving `robotstxt-engine` from PROJECT/node_modules as a bundler
// resolves it for browsers (the `browser` condition: the
// WebAssembly build), serves them from Node's http on 127.0.0.1 with NO
// cross-origin isolation headers (no COOP/COEP: no SharedArrayBuffer), and
// has Chromium (Debian's /usr/bin/chromium, driven by puppeteer-core) run
// the shared vectors of VECTORS in the page and in a module Web Worker.
// esbuild and puppeteer-core come from bindings/node's devDependencies.
// Prints what ran; exits non-zero on any wrong answer.

import { copyFileSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs'
import { createServer } from 'node:http'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const here = dirname(fileURLToPath(import.meta.url))
const [project, vectors] = process.argv.slice(2).map((p) => resolve(p))
if (!project || !vectors) {
  console.error('usage: run.mjs PROJECT VECTORS')
  process.exit(2)
}
const tools = createRequire(join(here, '..', '..', '..', 'bindings', 'node', 'package.json'))
const esbuild = tools('esbuild')
const puppeteer = tools('puppeteer-core')
const CHROMIUM = '/usr/bin/chromium'

function fail (message) {
  console.error(`browser: FAILED: ${message}`)
  process.exit(1)
}

// What the page must export: the Node.js entry's names but the
// promise-based layer and the Redis classes (Node.js only) and the
// loader's marker.
const NODE_ONLY = ['RobotsCache', 'httpFetcher', 'retryAfterMs', 'SharedCache', 'SharedPacer', 'SharedRobotsCache',
  '__napiBindingTarget']
const fromModules = createRequire(join(project, 'noop.js'))
const expected = Object.keys(fromModules('robotstxt-engine')).filter((n) => !NODE_ONLY.includes(n)).sort()
const wasmDir = dirname(fromModules.resolve('robotstxt-engine-wasm32-wasi/package.json'))

const site = mkdtempSync(join(tmpdir(), 'robotstxt-browser-'))
try {
  await esbuild.build({
    entryPoints: { page: join(here, 'page.mjs'), worker: join(here, 'worker.mjs') },
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    nodePaths: [join(project, 'node_modules')],
    outdir: site,
    logLevel: 'warning'
  })
  // The loader fetches the module beside the script that holds it.
  copyFileSync(join(wasmDir, 'robotstxt.wasm32-wasip1.wasm'), join(site, 'robotstxt.wasm32-wasip1.wasm'))

  const names = readdirSync(vectors).filter((f) => f.endsWith('.json')).sort()
  const TYPES = { '.js': 'text/javascript', '.wasm': 'application/wasm', '.html': 'text/html' }
  const server = createServer((req, res) => {
    const path = new URL(req.url, 'http://x').pathname
    let body
    let type = 'application/json'
    if (path === '/favicon.ico') {
      body = ''
      type = 'image/x-icon'
    } else if (path === '/') {
      body = '<!doctype html><meta charset="utf-8"><title>robotstxt</title><script type="module" src="./page.js"></script>'
      type = TYPES['.html']
    } else if (path === '/vectors/') {
      body = JSON.stringify(names)
    } else if (path.startsWith('/vectors/') && names.includes(path.slice(9))) {
      body = readFileSync(join(vectors, path.slice(9)))
    } else if (/^\/[\w.-]+\.(js|wasm)$/.test(path)) {
      try {
        body = readFileSync(join(site, path.slice(1)))
        type = TYPES[path.slice(path.lastIndexOf('.'))]
      } catch {}
    }
    // Deliberately no Cross-Origin-Opener-Policy/-Embedder-Policy.
    if (body === undefined) res.writeHead(404).end()
    else res.writeHead(200, { 'content-type': type }).end(body)
  })
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
  const url = `http://127.0.0.1:${server.address().port}/`

  const browser = await puppeteer.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage']
  })
  let result
  const errors = []
  try {
    const page = await browser.newPage()
    page.on('pageerror', (error) => errors.push(String(error)))
    const logged = []
    page.on('console', (message) => {
      logged.push(`${message.type()}: ${message.text()}`)
      if (message.type() === 'error') errors.push(message.text())
    })
    page.on('response', (response) => {
      if (response.status() >= 400) errors.push(`${response.url()}: HTTP ${response.status()}`)
    })
    page.on('requestfailed', (request) => errors.push(`${request.url()}: ${request.failure()?.errorText}`))
    await page.goto(url)
    await page.waitForFunction('window.robotstxtResult !== undefined', { timeout: 180_000 })
      .catch((error) => fail(`${error.message}\n${[...errors, ...logged].join('\n')}`))
    result = await page.evaluate('window.robotstxtResult')
    result.chromium = await browser.version()
  } finally {
    await browser.close()
    server.close()
  }
  if (result.error) fail(`${result.error}\n${errors.join('\n')}`)
  for (const [where, r] of Object.entries({ page: result.page, worker: result.worker })) {
    if (r.error) fail(`${where}: ${r.error}`)
    if (r.failures.length > 0) fail(`${where}: ${r.failures.length} wrong answers:\n${r.failures.slice(0, 20).join('\n')}`)
    if (r.cases < 400 || r.checks < 3000) fail(`${where}: only ${r.cases} cases, ${r.checks} checks ran`)
    if (r.facts.backend !== 'wasm') fail(`${where}: backend is ${r.facts.backend}`)
    if (JSON.stringify(r.facts.exports) !== JSON.stringify(expected)) {
      fail(`${where}: exports ${r.facts.exports.join(', ')}; want ${expected.join(', ')}`)
    }
    if (r.facts.loneSurrogate.some(Boolean)) fail(`${where}: a lone surrogate answered allowed: ${r.facts.loneSurrogate}`)
  }
  if (result.page.facts.crossOriginIsolated) fail('the page was cross-origin isolated')
  if (errors.length > 0) fail(`the page logged errors:\n${errors.join('\n')}`)
  const { page, worker } = result
  console.log(`browser: ${result.chromium}, a page that is not cross-origin isolated, robotstxt ${page.facts.version} ` +
    `(backend ${page.facts.backend}): ${page.cases} vector cases, ${page.checks} checks passed in the page ` +
    `and ${worker.checks} in a module Web Worker; a single check ${page.timing.checkNs} ns, ` +
    `filterAllowed ${page.timing.batchNsPerUrl} ns per URL (20-URL batches; worker: ${worker.timing.checkNs} ns, ` +
    `${worker.timing.batchNsPerUrl} ns)`)
} finally {
  rmSync(site, { recursive: true, force: true })
}
