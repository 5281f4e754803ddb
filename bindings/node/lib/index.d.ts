// The package entry: every export of the generated binding, plus the
// promise-based layer (RobotsCache, Pacer with `wait`, httpFetcher,
// retryAfterMs). The Pacer exported here extends the native one.

export * from '../index.js'
export { Pacer, RobotsCache, httpFetcher, retryAfterMs } from './polite.js'
export type {
  FetchErrorContext, HttpFetcherOptions, PacerClockOptions, RobotsCacheOptions,
  RobotsFetch, RobotsFetchOutcome, RobotsFetchRequest, WaitOptions
} from './polite.js'
