//! # robotstxt
//!
//! A robots.txt engine for crawlers: RFC 9309 exactly, or bit-for-bit what
//! Google's parser answers, with checks that allocate nothing.
//!
//! Parse a body once into [`Robots`], select the [`Rules`] for your
//! crawler's product token, then ask as often as you like:
//!
//! ```
//! use robotstxt::{Robots, DecisionKind};
//!
//! let body = b"User-agent: *\nDisallow: /account/\n\nUser-agent: NimbuBot\nDisallow: /prices/\nAllow: /prices/today\nCrawl-delay: 2.5\n";
//! let robots = Robots::parse(body);
//! let rules = robots.rules_for("NimbuBot")?;
//!
//! assert!(rules.can_fetch("https://bazaar.test/prices/today"));
//! assert!(!rules.can_fetch("https://bazaar.test/prices/history"));
//! assert!(rules.can_fetch("/account/orders")); // a named group replaces `*`
//!
//! let why = rules.decide("/prices/history");
//! assert_eq!((why.line, why.kind, why.pattern), (5, DecisionKind::Disallow, "/prices/"));
//! assert_eq!(rules.crawl_delay(), Some(std::time::Duration::from_millis(2500)));
//!
//! // RFC 9309 wants a product token, not a User-Agent header.
//! assert!(robots.rules_for("NimbuBot/1.0").is_err());
//! # Ok::<(), robotstxt::Error>(())
//! ```
//!
//! The library does no I/O and reads no clock. The caller fetches
//! `/robots.txt` and reports what happened: [`access`] turns the outcome
//! into rules, allow-all or disallow-all (RFC 9309 §2.3.1), and
//! [`Entry`] keeps one copy fresh as a pure function of `now` (§2.4).
//!
//! [`Profile`] chooses between RFC 9309 and Google's reading where they
//! differ; see `docs/behaviour.md` for every rule.

#![deny(unsafe_code)]
#![warn(missing_docs)]

// The layers, bottom up: reading a file, matching URLs against one
// crawler's rules, the crawl policy around them, and a fleet's shared steps
// over Redis, sans I/O. The C ABI is its own
// crate (bindings/c).
mod crawl;
#[cfg(test)]
mod draw;
mod error;
mod fleet;
mod http;
mod matching;
mod parse;
#[cfg(feature = "work-count")]
#[doc(hidden)]
pub mod work;
#[cfg(not(feature = "work-count"))]
mod work;

// Each module by its own name, for the paths inside the crate.
use crawl::{cache, checksum, freshness, origin, pace, pacer, scripts, stored, user_agent};
use matching::{
    index, keys, packed, pattern, percent, preferences, prefetch, rules, selection, url,
    usage_index,
};
use parse::{agent, append, diagnostics, lex, options, rate, record, robots, scan, usage};

pub use crawl::access;

pub use access::{Access, AccessPolicy, Cause, Disposition};
pub use agent::check_crawler;
pub use cache::{Cache, CacheOptions, CacheStats, Cached, Lease, Lookup, WhenFetching};
pub use diagnostics::Diagnostic;
pub use error::Error;
pub use fleet::cache::{
    FleetCache, FleetCacheOptions, FleetCacheStats, FleetLease, FleetLookup, LookupStep, StoreStep,
    Stored,
};
pub use fleet::call::{At, ScriptCall};
pub use fleet::pacer::{
    FleetConfirm, FleetPaceState, FleetPacer, FleetPacerOptions, FleetTicket, KnownPace, PaceStep,
};
pub use fleet::reply::Reply;
pub use freshness::{AfterLimit, Answer, Entry, FetchResult, FreshnessPolicy, Validators};
pub use http::{
    max_age_ms, retry_after_ms, HeaderError, HttpRead, HttpResponse, MAX_DELTA_SECONDS,
};
pub use options::{Options, Profile, MAX_PARSE_LIMIT, MIN_PARSE_LIMIT};
pub use origin::robots_origin;
pub use pace::{delay_ms, HostPace, Slot, MAX_FACTOR, MAX_RETRY_AFTER_MS};
pub use pacer::{pacer_host, Confirm, Pacer, PacerOptions, Ticket};
pub use preferences::{ContentSignal, LabelPreference, Lines, Preferences, UsageStatement};
pub use rate::{RequestRate, MAX_DELAY};
pub use record::LineKind;
pub use robots::Robots;
pub use rules::{Blanket, Decision, DecisionKind, Rules};
pub use scripts::{fleet_script, FLEET_SCRIPTS};
pub use stored::STORED_COPY_VERSION;
pub use usage::{Member, OtherRecord, StatementError, Usage};
pub use user_agent::product_token;

/// The library's version, from `Cargo.toml`.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");
