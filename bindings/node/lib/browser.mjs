// The package entry for browsers, Web Workers, bundlers and Deno (the
// `browser`, `worker` and `deno` conditions of package.json): the
// WebAssembly build (robotstxt-engine-wasm32-wasi, wasm32-wasip1 without
// threads, so no cross-origin isolation is needed), loaded with a
// top-level await and given what ./wrap.js gives the Node.js entry's
// binding. It exports the binding's classes and functions and `backend`;
// the promise-based layer (RobotsCache, Pacer.wait, httpFetcher) and the
// shared classes for Redis are the Node.js entry's alone.
import binding from 'robotstxt-engine-wasm32-wasi'
import wrap from './wrap.js'

wrap(binding)

/** Which build answers: always the WebAssembly build here. */
export const backend = 'wasm'

export const {
  Access, AccessPolicy, AfterLimit, AnswerKind, Cache, CachedAnswer, CauseKind, ConfirmKind, DecisionKind,
  DiagnosticFlag, Entry, Lease, LineKind, LookupKind, Pacer, Profile, Robots, Rules, SignalValue, Ticket,
  UsageValue, accessFromOutcome, classifyFetch, fleetScript, paceMs, pacerHost, productToken, robotsOrigin,
  version
} = binding
