//! Node.js binding of robotstxt, built with napi-rs.
//!
//! An adapter, never a second implementation: every export converts its
//! arguments, calls the core crate once and converts the answer back. The
//! conversions, the errors the API throws and all of the crate's `unsafe`
//! live in [`js`]; each other module mirrors one module of the core:
//!
//! - [`robots`]: `Robots.parse`, selection, sitemaps, host, diagnostics;
//! - [`rules`]: `isAllowed`, `decide`, the batch calls, crawl delay, rates;
//! - [`access`]: the fetch outcome → access policy (SPEC §6);
//! - [`freshness`]: `Entry`, one copy's freshness as a function of `now`
//!   (SPEC §7), in epoch milliseconds;
//! - [`cache`]: `Cache`, copies keyed by origin with single-flight fetches;
//! - [`pacer`]: `Pacer`, request start times per host (SPEC §8).
//!
//! [`handles`] is the binding's own: the numbers that name live `Rules` for
//! the package entry's fast paths.
//!
//! `napi build` turns the `///` comments below into the JSDoc of the
//! generated `index.d.ts`, so they are written for JavaScript readers.

#![deny(clippy::undocumented_unsafe_blocks)]
// napi-rs registers exports only outside `cfg(test)`.
#![cfg_attr(test, allow(dead_code))]

mod access;
mod cache;
mod freshness;
mod handles;
mod js;
mod pacer;
mod robots;
mod rules;

/// The version of the robotstxt core this addon was built from.
#[napi_derive::napi(catch_unwind)]
pub fn version() -> &'static str {
    robotstxt::VERSION
}
