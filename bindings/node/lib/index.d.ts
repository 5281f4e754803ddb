/// <reference lib="esnext.disposable" />
// The package entry: every export of the generated binding, plus the
// promise-based layer (RobotsCache, Pacer with `wait`, httpFetcher,
// retryAfterMs), and `backend`. The Pacer exported here extends the native
// one. Every native class also gets `[Symbol.dispose]`, its `close()`, for
// `using`.

export * from '../index.js'

/**
 * Which build answers: `'native'`, the prebuilt addon, or `'wasm'`, the
 * WebAssembly build (robotstxt-engine-wasm32-wasi), which Node.js loads
 * where no native addon does (or when `ROBOTSTXT_BACKEND=wasm` asks for
 * it) and browsers, bundlers and Deno always load. The answers are the
 * same; the native addon is faster.
 */
export declare const backend: 'native' | 'wasm'

export { Pacer, RobotsCache, httpFetcher, retryAfterMs } from './polite.js'
export { SharedCache, SharedPacer, SharedRobotsCache } from './fleet.js'
export type {
  RedisClient, SharedCacheLookup, SharedCacheOptions, SharedCacheStats, SharedLease, SharedOptions,
  SharedPacerOptions, SharedRobotsCacheOptions, SharedTicket
} from './fleet.js'
export type {
  FetchErrorContext, HttpFetcherOptions, PacerClockOptions, RobotsCacheOptions,
  RobotsFetch, RobotsFetchOutcome, RobotsFetchRequest, WaitOptions
} from './polite.js'

declare module '../index.js' {
  interface Robots {
    /** `close()`, for `using`. */
    [Symbol.dispose](): void
  }
  interface Rules {
    /** `close()`, for `using`. */
    [Symbol.dispose](): void
  }
  interface Cache {
    /** `close()`, for `using`. */
    [Symbol.dispose](): void
  }
  interface Lease {
    /** `close()`, for `using`: abandons the lease unless it was stored. */
    [Symbol.dispose](): void
  }
  interface CachedAnswer {
    /** `close()`, for `using`. */
    [Symbol.dispose](): void
  }
  interface Pacer {
    /** `close()`, for `using`. */
    [Symbol.dispose](): void
  }
  interface Ticket {
    /** `close()`, for `using`. */
    [Symbol.dispose](): void
  }
  interface Entry {
    /** `close()`, for `using`. */
    [Symbol.dispose](): void
  }
}
