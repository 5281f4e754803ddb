//! Node.js binding of robotstxt, built with napi-rs.
//!
//! An adapter, never a second implementation: every export converts its
//! arguments, calls the core crate once and converts the answer back. The
//! conversions, the errors the API throws and all of the crate's `unsafe`
//! live in [`js`]; each other module mirrors one module of the core:
//!
//! - [`robots`]: `Robots.parse`, selection, sitemaps, host, diagnostics,
//!   other records;
//! - [`rules`]: `isAllowed`, `decide`, the batch calls, crawl delay, rates,
//!   usage preferences;
//! - [`preferences`]: the answers about usage preferences and the records
//!   the library does not read (behaviour §10);
//! - [`access`]: the fetch outcome → access policy (behaviour §6);
//! - [`freshness`]: `Entry`, one copy's freshness as a function of `now`
//!   (behaviour §7), in epoch milliseconds;
//! - [`cache`]: `Cache`, copies keyed by origin with single-flight fetches;
//! - [`pacer`]: `Pacer` and its `Ticket`s, request start slots per host
//!   (behaviour §8);
//! - [`user_agent`]: `productToken`, a crawler's token from its header;
//! - [`http`]: `_httpRead`, the HTTP facts of a response for
//!   `lib/polite.js` (behaviour §11);
//! - [`fleet`], `fleet_cache`, `fleet_pacer`: the fleet's scripts and keys,
//!   and the core's `FleetCache` and `FleetPacer` as `lib/fleet.js` drives
//!   them (not in the WebAssembly build).
//!
//! Every class has `close()`, which frees its native memory at once; each
//! keeps what it holds in an `Option` that `close()` empties, and every
//! other method throws the closed error (`js::closed`) on an empty one.
//!
//! [`handles`] is the binding's own: the numbers that name live `Rules` for
//! the package entry's fast paths. The WebAssembly build adds `wasm`: the
//! fastest of those paths as plain wasm exports, past emnapi.
//!
//! `napi build` turns the `///` comments below into the JSDoc of the
//! generated `index.d.ts`, so they are written for JavaScript readers.

#![deny(clippy::undocumented_unsafe_blocks)]
// napi-rs registers exports only outside `cfg(test)`.
#![cfg_attr(test, allow(dead_code))]

mod access;
mod cache;
mod fleet;
// The fleet protocol's steps. The WebAssembly build leaves them out: with
// them its module is 378 KB gzipped, over its 350 KB budget (lib/fleet.js
// says so when a shared class is made there).
#[cfg(not(target_family = "wasm"))]
mod fleet_cache;
#[cfg(not(target_family = "wasm"))]
mod fleet_pacer;
mod freshness;
mod handles;
mod http;
mod js;
mod pacer;
mod preferences;
mod robots;
mod rules;
mod user_agent;
#[cfg(target_family = "wasm")]
mod wasm;

/// `close()` of the package entry, when no native call is under way: frees
/// and unwraps the `class` object `object` (see `js::detach`). `false` when
/// it is not one.
#[napi_derive::napi(skip_typescript, catch_unwind, js_name = "_detach")]
pub fn detach(
    env: &napi::Env,
    class: String,
    object: napi::bindgen_prelude::Unknown,
) -> napi::Result<bool> {
    match class.as_str() {
        "Robots" => js::detach::<robots::Robots>(env, &object),
        "Rules" => js::detach::<rules::Rules>(env, &object),
        "Cache" => js::detach::<cache::Cache>(env, &object),
        "Lease" => js::detach::<cache::Lease>(env, &object),
        "CachedAnswer" => js::detach::<cache::CachedAnswer>(env, &object),
        "Pacer" => js::detach::<pacer::Pacer>(env, &object),
        "Ticket" => js::detach::<pacer::Ticket>(env, &object),
        "Entry" => js::detach::<freshness::Entry>(env, &object),
        _ => Ok(false),
    }
}

/// Whether `object` is a `class` object that `_detach` freed: the package
/// entry tells a closed object from a wrong `this` so.
#[napi_derive::napi(skip_typescript, catch_unwind, js_name = "_isDetached")]
pub fn is_detached(env: &napi::Env, class: String, object: napi::bindgen_prelude::Unknown) -> bool {
    match class.as_str() {
        "Robots" => js::is_detached::<robots::Robots>(env, &object),
        "Rules" => js::is_detached::<rules::Rules>(env, &object),
        "Cache" => js::is_detached::<cache::Cache>(env, &object),
        "Lease" => js::is_detached::<cache::Lease>(env, &object),
        "CachedAnswer" => js::is_detached::<cache::CachedAnswer>(env, &object),
        "Pacer" => js::is_detached::<pacer::Pacer>(env, &object),
        "Ticket" => js::is_detached::<pacer::Ticket>(env, &object),
        "Entry" => js::is_detached::<freshness::Entry>(env, &object),
        _ => false,
    }
}

/// The version of the robotstxt core this addon was built from.
#[napi_derive::napi(catch_unwind)]
pub fn version() -> &'static str {
    robotstxt::VERSION
}
