// What the runtime running the suite cannot do, and why: a test that needs
// one of these passes `{ skip: cannot('spawn') }`, so node:test reports it
// as skipped with the reason, never as passed. The runner that knows the
// runtime names its limits in ROBOTSTXT_TEST_LIMITS (comma-separated), e.g.
// the arm64 suite under qemu-user or the suite under wine.

const why = {
  // qemu-user runs one process; without binfmt_misc its child, started
  // from process.execPath, is an arm64 binary the kernel cannot execute.
  spawn: 'cannot start a child Node here (an emulated architecture without binfmt_misc)',
  // wine maps its own libraries and heaps into every Windows process: an
  // idle node.exe is some 100 MB resident under wine 8, 40 MB on Linux.
  rss: 'resident memory here counts the libraries and heaps of wine itself, so bounds measured on Linux do not apply',
  // emnapi, the WebAssembly build's N-API, holds each native object
  // through a WeakRef, which keeps it alive to the end of the running job,
  // and frees its bookkeeping from FinalizationRegistry callbacks: bounds
  // measured on the native addon's memory do not apply.
  'wasm-memory': 'the WebAssembly build frees a closed object only once the event loop turns (emnapi holds objects through WeakRefs)'
}

const limits = new Set((process.env.ROBOTSTXT_TEST_LIMITS ?? '').split(',').filter(Boolean))
for (const name of limits) {
  if (!(name in why)) throw new Error(`ROBOTSTXT_TEST_LIMITS names '${name}', which __test__/limits.mjs does not know`)
}

/** The reason the runtime cannot do `name`, or false when it can. */
export function cannot (name) {
  if (!(name in why)) throw new Error(`__test__/limits.mjs knows no limit '${name}'`)
  return limits.has(name) ? `${why[name]} (ROBOTSTXT_TEST_LIMITS)` : false
}
