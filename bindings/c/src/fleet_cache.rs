//! `robotstxt_fleet_cache` and `robotstxt_fleet_lease`: one worker's side
//! of a fleet's shared robots.txt cache, sans I/O (docs/fleet.md). A lookup
//! answers from the copy this worker holds while it is fresh; otherwise it
//! gives a step to run on Redis, whose reply says: answer, fetch under the
//! fleet's lease (renewed while the fetch goes on, then stored or
//! abandoned), wait, or run one more step.

use std::sync::Mutex;

use super::access::{disposition_code, robotstxt_disposition, robotstxt_fetch};
use super::cache::{
    robotstxt_lookup_kind, robotstxt_when_fetching, ROBOTSTXT_LOOKUP_FETCH, ROBOTSTXT_LOOKUP_READY,
    ROBOTSTXT_LOOKUP_WAIT, ROBOTSTXT_WHEN_FETCHING_DISALLOW_ALL, ROBOTSTXT_WHEN_FETCHING_WAIT,
};
use super::entry::{
    robotstxt_answer, robotstxt_freshness_policy, robotstxt_validators, ROBOTSTXT_ANSWER_ALLOW_ALL,
    ROBOTSTXT_ANSWER_DISALLOW_ALL, ROBOTSTXT_ANSWER_RULES,
};
use super::fleet::{
    at, fleet_failure, lock, put_ms_until, put_now, reply_args, robotstxt_fleet_at,
    robotstxt_fleet_reply_item, robotstxt_fleet_step, Pending,
};
use super::rules::{robotstxt_blanket, robotstxt_rules};
use super::status::{robotstxt_status, Failure};
use super::{
    bytes, free_handle, guard, guard_value, handle, into_handle, robotstxt_str, text, Out, Outcome,
};
use engine::{
    Cached, Error, FleetCache, FleetCacheOptions, FleetCacheStats, FleetLease, FleetLookup,
    Profile, Stored, WhenFetching,
};

/// `robotstxt_fleet_cache_lookup` and `_lookup_reply`: run `step` on Redis
/// and pass its reply to `robotstxt_fleet_cache_lookup_reply`.
pub const ROBOTSTXT_LOOKUP_RUN: robotstxt_lookup_kind = 3;

/// A fleet cache's options. Start from
/// `robotstxt_fleet_cache_options_default()`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct robotstxt_fleet_cache_options {
    /// Put before every key; read during `robotstxt_fleet_cache_new` only.
    /// Empty: `robotstxt:`. Workers of one fleet use the same.
    pub prefix: robotstxt_str,
    /// How long a fetch lease lasts unless renewed: 60,000. Its holder
    /// renews it every `robotstxt_fleet_cache_renew_every_ms` while the
    /// fetch goes on.
    pub lease_ms: u64,
    /// How long Redis keeps a copy after its last store: 31 days.
    pub keep_ms: u64,
    /// How many origins this worker keeps decoded: 10,000.
    pub capacity: usize,
    /// How copies age and how fetch outcomes read. Workers of one fleet use
    /// the same.
    pub policy: robotstxt_freshness_policy,
}

/// What a fleet lookup comes to. Only the fields of its `kind` are set;
/// the others are 0, false or NULL. Of `rules`, `lease` and `step`, at most
/// one is non-NULL and it is yours to free.
///
/// - `ROBOTSTXT_LOOKUP_READY`: answer with `rules` (as `robotstxt_lookup`).
/// - `ROBOTSTXT_LOOKUP_RUN`: run `step`, then pass its reply to
///   `robotstxt_fleet_cache_lookup_reply`.
/// - `ROBOTSTXT_LOOKUP_FETCH`: fetch `/robots.txt` under `lease`, renewing
///   it meanwhile, then store or abandon it.
/// - `ROBOTSTXT_LOOKUP_WAIT`: another worker fetches and no copy is held:
///   look up again at `until_ms` (fleet time;
///   `robotstxt_fleet_cache_ms_until`) or sooner.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct robotstxt_fleet_lookup {
    /// A `ROBOTSTXT_LOOKUP_*` value.
    pub kind: robotstxt_lookup_kind,
    /// READY: a `ROBOTSTXT_ANSWER_*` value.
    pub answer: robotstxt_answer,
    /// READY: the copy is past its freshness (kept while another worker
    /// refreshes it, or while the file is unreachable).
    pub stale: bool,
    /// READY: the rules for the token looked up. Free with
    /// `robotstxt_rules_free`.
    pub rules: *mut robotstxt_rules,
    /// FETCH: the fleet's lease. Free with `robotstxt_fleet_lease_free`.
    pub lease: *mut robotstxt_fleet_lease,
    /// RUN: the step to run. Free with `robotstxt_fleet_step_free`.
    pub step: *mut robotstxt_fleet_step,
    /// WAIT: when the other worker's lease runs out (fleet time, ms).
    pub until_ms: u64,
    /// READY: whether `answer` is a blanket answer, and why.
    pub blanket: robotstxt_blanket,
    /// READY: whether `retry_at_ms` is set: the last fetch failed, or
    /// another worker fetches (with `ROBOTSTXT_WHEN_FETCHING_DISALLOW_ALL`).
    pub has_retry_at: bool,
    /// READY, with `has_retry_at`: when to ask again (fleet time, ms).
    pub retry_at_ms: u64,
}

/// What a store came to.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct robotstxt_fleet_stored {
    /// What the fetch's outcome meant: a `ROBOTSTXT_DISPOSITION_*` value.
    pub disposition: robotstxt_disposition,
    /// Whether the fleet took the copy: false when the lease had run out
    /// and another is current (the next lookup reads the fleet's copy), or
    /// Redis failed.
    pub stored: bool,
    /// Whether Redis failed to take it (an error reply, or
    /// `robotstxt_fleet_cache_store_failed`): this worker holds the copy
    /// alone, and the failure is counted.
    pub failed: bool,
    /// A `ROBOTSTXT_ANSWER_*` value for `rules`.
    pub answer: robotstxt_answer,
    /// The rules for the token stored with, from the fetch. Free with
    /// `robotstxt_rules_free`.
    pub rules: *mut robotstxt_rules,
    /// Whether `answer` is a blanket answer, and why.
    pub blanket: robotstxt_blanket,
}

/// A lease's origin, URL to fetch and validators; the text borrows from
/// the lease and stays valid until it is freed.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct robotstxt_fleet_lease_info {
    /// The normalised origin, such as `https://example.com:8443`.
    pub origin: robotstxt_str,
    /// The URL to fetch: the origin's `/robots.txt`.
    pub robots_url: robotstxt_str,
    /// The validators of the copy the fetch refreshes, for a conditional
    /// request (none without a copy this worker could read).
    pub validators: robotstxt_validators,
}

/// A fleet cache's counters since it was made, in this worker.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct robotstxt_fleet_cache_counters {
    /// Answers from a fresh copy.
    pub hits: u64,
    /// Lookups with no usable copy.
    pub misses: u64,
    /// Fetches this worker was handed.
    pub fetches: u64,
    /// Answers from a copy past its freshness.
    pub stale: u64,
    /// Origins dropped to stay within capacity.
    pub evictions: u64,
    /// Copies in Redis this worker could not read (damaged, or of a newer
    /// format): answered as no copy, and fetched over.
    pub unreadable: u64,
    /// Calls that failed in Redis (`robotstxt_fleet_cache_redis_failed`,
    /// `robotstxt_fleet_cache_store_failed`).
    pub redis_errors: u64,
    /// Origins held now.
    pub entries: u64,
}

/// One worker's side of a fleet's shared robots.txt cache. Synchronised:
/// share one per worker between any number of threads. Only
/// `robotstxt_fleet_cache_free` must not overlap with other uses. Free it
/// with `robotstxt_fleet_cache_free`.
pub struct robotstxt_fleet_cache {
    cache: Mutex<FleetCache>,
    profile: Profile,
}

impl robotstxt_fleet_cache {
    /// Names this cache in the steps and leases it hands out.
    fn id(&self) -> usize {
        self as *const robotstxt_fleet_cache as usize
    }
}

/// The right, and duty, to fetch one origin's robots.txt for the fleet,
/// from a FETCH lookup. Renew it while the fetch goes on
/// (`robotstxt_fleet_cache_renew`), then pass it once to
/// `robotstxt_fleet_cache_store` or `_abandon` of the cache that handed it
/// out, and free it with `robotstxt_fleet_lease_free`. It may move between
/// threads; only its `_free` must not overlap with other uses.
pub struct robotstxt_fleet_lease {
    /// Taken by the store or abandon that ends it.
    lease: Mutex<Option<FleetLease>>,
    cache: usize,
    origin: Box<str>,
    robots_url: String,
    etag: Option<Box<[u8]>>,
    last_modified: Option<Box<[u8]>>,
}

impl robotstxt_fleet_lease {
    fn wrap(lease: FleetLease, cache: usize) -> *mut robotstxt_fleet_lease {
        into_handle(robotstxt_fleet_lease {
            origin: lease.origin().into(),
            robots_url: lease.robots_url(),
            etag: lease.etag().map(Box::from),
            last_modified: lease.last_modified().map(Box::from),
            lease: Mutex::new(Some(lease)),
            cache,
        })
    }

    /// Reads the lease, unended and of `cache`.
    fn check<'a>(
        &self,
        held: &'a Option<FleetLease>,
        cache: &robotstxt_fleet_cache,
    ) -> Outcome<&'a FleetLease> {
        let reason = if self.cache != cache.id() {
            "belongs to another cache"
        } else if held.is_none() {
            "was already stored or abandoned"
        } else {
            return Ok(held.as_ref().expect("checked above"));
        };
        Err(Failure::from(Error::InvalidLease { reason }))
    }

    /// Takes the lease out for `cache`, once; a lease of another cache
    /// stays as it is.
    fn take(&self, cache: &robotstxt_fleet_cache) -> Outcome<FleetLease> {
        let mut held = lock(&self.lease);
        self.check(&held, cache)?;
        Ok(held.take().expect("checked above"))
    }
}

fn when_of(code: robotstxt_when_fetching) -> Outcome<WhenFetching> {
    match code {
        ROBOTSTXT_WHEN_FETCHING_WAIT => Ok(WhenFetching::Wait),
        ROBOTSTXT_WHEN_FETCHING_DISALLOW_ALL => Ok(WhenFetching::DisallowAll),
        _ => Err(Failure::option(
            "when_fetching",
            "ROBOTSTXT_WHEN_FETCHING_WAIT (0) or ROBOTSTXT_WHEN_FETCHING_DISALLOW_ALL (1)",
        )),
    }
}

fn answer_code(answer: &Cached) -> robotstxt_answer {
    match answer {
        Cached::Rules(_) => ROBOTSTXT_ANSWER_RULES,
        Cached::AllowAll(_) => ROBOTSTXT_ANSWER_ALLOW_ALL,
        Cached::DisallowAll(_) => ROBOTSTXT_ANSWER_DISALLOW_ALL,
    }
}

/// A lookup of `kind` with nothing set.
fn lookup_of(kind: robotstxt_lookup_kind) -> robotstxt_fleet_lookup {
    robotstxt_fleet_lookup {
        kind,
        answer: ROBOTSTXT_ANSWER_RULES,
        stale: false,
        rules: std::ptr::null_mut(),
        lease: std::ptr::null_mut(),
        step: std::ptr::null_mut(),
        until_ms: 0,
        blanket: robotstxt_blanket::of(None),
        has_retry_at: false,
        retry_at_ms: 0,
    }
}

/// A READY lookup with the rules for `token` under `answer`.
fn ready(
    profile: Profile,
    token: &[u8],
    answer: &Cached,
    stale: bool,
    retry_at: Option<u64>,
) -> Outcome<robotstxt_fleet_lookup> {
    let rules = answer.rules_for(profile, token)?.with_retry_at(retry_at);
    Ok(robotstxt_fleet_lookup {
        answer: answer_code(answer),
        stale,
        rules: into_handle(robotstxt_rules { rules }),
        blanket: robotstxt_blanket::of(answer.blanket()),
        has_retry_at: retry_at.is_some(),
        retry_at_ms: retry_at.unwrap_or(0),
        ..lookup_of(ROBOTSTXT_LOOKUP_READY)
    })
}

/// What a lookup came to, as C reads it; a step remembers `token`.
fn lookup_answer(
    cache: &robotstxt_fleet_cache,
    token: &[u8],
    found: FleetLookup,
) -> Outcome<robotstxt_fleet_lookup> {
    Ok(match found {
        FleetLookup::Ready {
            answer,
            stale,
            retry_at,
        } => ready(cache.profile, token, &answer, stale, retry_at)?,
        FleetLookup::Run(step) => robotstxt_fleet_lookup {
            step: robotstxt_fleet_step::new(
                step.call().clone(),
                cache.id(),
                Pending::Lookup(Box::new(step), token.into()),
            ),
            ..lookup_of(ROBOTSTXT_LOOKUP_RUN)
        },
        FleetLookup::Fetch(lease) => robotstxt_fleet_lookup {
            lease: robotstxt_fleet_lease::wrap(lease, cache.id()),
            ..lookup_of(ROBOTSTXT_LOOKUP_FETCH)
        },
        FleetLookup::Wait { until } => robotstxt_fleet_lookup {
            until_ms: until,
            ..lookup_of(ROBOTSTXT_LOOKUP_WAIT)
        },
    })
}

/// The default fleet cache options: the default prefix (`robotstxt:`),
/// 60 s leases, copies kept 31 days in Redis and 10,000 in the worker, the
/// default freshness policy.
#[unsafe(no_mangle)]
pub extern "C" fn robotstxt_fleet_cache_options_default() -> robotstxt_fleet_cache_options {
    let policy = super::entry::robotstxt_freshness_policy_default();
    let fallback = robotstxt_fleet_cache_options {
        prefix: robotstxt_str::EMPTY,
        lease_ms: 60_000,
        keep_ms: 31 * 24 * 3600 * 1000,
        capacity: 10_000,
        policy,
    };
    guard_value("robotstxt_fleet_cache_options_default", fallback, || {
        let core = FleetCacheOptions::default();
        robotstxt_fleet_cache_options {
            lease_ms: core.lease_ms,
            keep_ms: core.keep_ms,
            capacity: core.capacity,
            ..fallback
        }
    })
}

/// An option's text, UTF-8 (`name` in the message); empty is `default`'s.
///
/// # Safety
/// `value` must be valid text.
pub(super) unsafe fn option_text(
    value: robotstxt_str,
    name: &'static str,
    default: impl FnOnce() -> String,
) -> Outcome<String> {
    // SAFETY: forwarded to the caller.
    let given = unsafe { text(value, name)? };
    if given.is_empty() {
        return Ok(default());
    }
    String::from_utf8(given.to_vec())
        .map_err(|_| Failure::option(name, "UTF-8 text (empty for the default)"))
}

/// The default key prefix.
pub(super) fn default_prefix() -> String {
    FleetCacheOptions::default().prefix
}

/// Creates a fleet cache with `*options`, copied. On success the caller owns
/// `*cache_out` and frees it with `robotstxt_fleet_cache_free`. A lease or
/// keep of 0 ms, a capacity of 0, a prefix that is not UTF-8 or an unknown
/// enumeration value give `ROBOTSTXT_STATUS_INVALID_OPTION`, a parse limit
/// out of range `ROBOTSTXT_STATUS_PARSE_LIMIT`.
///
/// # Safety
/// `options` must point to a `robotstxt_fleet_cache_options` whose prefix is
/// valid text; `cache_out` must be writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn robotstxt_fleet_cache_new(
    options: *const robotstxt_fleet_cache_options,
    cache_out: *mut *mut robotstxt_fleet_cache,
) -> robotstxt_status {
    guard("robotstxt_fleet_cache_new", || {
        // SAFETY: per the contract above.
        let options = unsafe { handle(options, "options")? };
        let out = Out::new(cache_out, "cache_out")?;
        let policy = options.policy.to_core()?;
        let profile = policy.parse.profile();
        let cache = FleetCache::new(FleetCacheOptions {
            // SAFETY: per the contract above.
            prefix: unsafe { option_text(options.prefix, "prefix", default_prefix)? },
            lease_ms: options.lease_ms,
            keep_ms: options.keep_ms,
            capacity: options.capacity,
            policy,
        })?;
        let cache = robotstxt_fleet_cache {
            cache: Mutex::new(cache),
            profile,
        };
        // SAFETY: writable per the contract.
        unsafe { out.put(into_handle(cache)) };
        Ok(())
    })
}

/// Frees a fleet cache. NULL does nothing. Rules handed out stay valid;
/// steps and leases still out may be freed later (reading or storing them
/// then is the caller's bug).
///
/// # Safety
/// `cache` must be NULL or a live handle, not used again after this.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn robotstxt_fleet_cache_free(cache: *mut robotstxt_fleet_cache) {
    // SAFETY: forwarded to the caller.
    unsafe { free_handle("robotstxt_fleet_cache_free", cache) }
}

/// Looks up the robots.txt for `url` (an absolute `http`/`https` URL) at
/// `*at` for the crawler whose product token is `token`, and writes what it
/// comes to to `*lookup_out`: READY from the copy this worker holds while
/// it is fresh (no Redis call), else RUN with the step to run.
/// `when_fetching` says what answers while another worker fetches an
/// origin this worker holds no copy of. `ROBOTSTXT_STATUS_INVALID_URL`,
/// `ROBOTSTXT_STATUS_INVALID_TOKEN` and `ROBOTSTXT_STATUS_INVALID_OPTION` as
/// for `robotstxt_cache_lookup`; the cache is left as it was then.
///
/// # Safety
/// `cache` must be a live handle; `url` and `token` readable for their
/// lengths (or NULL when 0); `at` must point to a `robotstxt_fleet_at`;
/// `lookup_out` writable.
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn robotstxt_fleet_cache_lookup(
    cache: *const robotstxt_fleet_cache,
    url: *const u8,
    url_len: usize,
    token: *const u8,
    token_len: usize,
    at: *const robotstxt_fleet_at,
    when_fetching: robotstxt_when_fetching,
    lookup_out: *mut robotstxt_fleet_lookup,
) -> robotstxt_status {
    guard("robotstxt_fleet_cache_lookup", || {
        // SAFETY: per the contract above.
        let (cache, url, token, at) = unsafe {
            (
                handle(cache, "cache")?,
                bytes(url, url_len, "url")?,
                bytes(token, token_len, "token")?,
                self::at(at)?,
            )
        };
        let out = Out::new(lookup_out, "lookup_out")?;
        let when = when_of(when_fetching)?;
        // Check the token first, so a bad one hands out nothing.
        engine::check_crawler(cache.profile, token)?;
        let found = lock(&cache.cache).lookup(url, at, when)?;
        let lookup = lookup_answer(cache, token, found)?;
        // SAFETY: writable per the contract.
        unsafe { out.put(lookup) };
        Ok(())
    })
}

/// Reads the reply to a lookup's step (the `count` items at `items`) and
/// writes what it comes to to `*lookup_out`: READY, FETCH, WAIT, or RUN
/// once more (the fleet's copy could not be read: the next step takes the
/// lease to fetch over it). `ROBOTSTXT_STATUS_BAD_REPLY` for a reply that is
/// not the script's answer, `ROBOTSTXT_STATUS_INVALID_STEP` for a step that
/// is not this cache's lookup step or was read already.
///
/// # Safety
/// `cache` and `step` must be live handles; `items` readable for `count`
/// items (NULL when 0), each item's text for its length; `lookup_out`
/// writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn robotstxt_fleet_cache_lookup_reply(
    cache: *const robotstxt_fleet_cache,
    step: *const robotstxt_fleet_step,
    items: *const robotstxt_fleet_reply_item,
    count: usize,
    lookup_out: *mut robotstxt_fleet_lookup,
) -> robotstxt_status {
    guard("robotstxt_fleet_cache_lookup_reply", || {
        // SAFETY: per the contract above.
        let (cache, step, reply) = unsafe { reply_args(cache, "cache", step, items, count)? };
        let out = Out::new(lookup_out, "lookup_out")?;
        let (pending, token) = step.take(cache.id(), |p| match p {
            Pending::Lookup(step, token) => Ok((step, token)),
            other => Err(other),
        })?;
        let found = lock(&cache.cache)
            .lookup_reply(*pending, &reply)
            .map_err(fleet_failure)?;
        let lookup = lookup_answer(cache, &token, found)?;
        // SAFETY: writable per the contract.
        unsafe { out.put(lookup) };
        Ok(())
    })
}

/// Writes the lease's origin, URL to fetch and validators to `*info_out`.
///
/// # Safety
/// `lease` must be a live handle; `info_out` writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn robotstxt_fleet_lease_read(
    lease: *const robotstxt_fleet_lease,
    info_out: *mut robotstxt_fleet_lease_info,
) -> robotstxt_status {
    guard("robotstxt_fleet_lease_read", || {
        // SAFETY: per the contract above.
        let lease = unsafe { handle(lease, "lease")? };
        let out = Out::new(info_out, "info_out")?;
        let (etag, last_modified) = (lease.etag.as_deref(), lease.last_modified.as_deref());
        let info = robotstxt_fleet_lease_info {
            origin: robotstxt_str::borrow(lease.origin.as_bytes()),
            robots_url: robotstxt_str::borrow(lease.robots_url.as_bytes()),
            validators: robotstxt_validators {
                has_etag: etag.is_some(),
                etag: etag.map_or(robotstxt_str::EMPTY, robotstxt_str::borrow),
                has_last_modified: last_modified.is_some(),
                last_modified: last_modified.map_or(robotstxt_str::EMPTY, robotstxt_str::borrow),
            },
        };
        // SAFETY: writable per the contract.
        unsafe { out.put(info) };
        Ok(())
    })
}

/// Frees a lease. NULL does nothing. One neither stored nor abandoned is
/// given back to nobody: it runs out in Redis after `lease_ms`.
///
/// # Safety
/// `lease` must be NULL or a live handle, not used again after this.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn robotstxt_fleet_lease_free(lease: *mut robotstxt_fleet_lease) {
    // SAFETY: forwarded to the caller.
    unsafe { free_handle("robotstxt_fleet_lease_free", lease) }
}

/// Writes to `*step_out` the step that renews `lease` (a step whose reply
/// `robotstxt_fleet_cache_renew_reply` reads): run it every
/// `robotstxt_fleet_cache_renew_every_ms` while the fetch goes on, so that a
/// robots.txt slower than the lease stays one fetch for the fleet.
/// `ROBOTSTXT_STATUS_INVALID_LEASE` for a lease stored, abandoned, or of
/// another cache.
///
/// # Safety
/// `cache` and `lease` must be live handles; `at` must point to a
/// `robotstxt_fleet_at`; `step_out` writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn robotstxt_fleet_cache_renew(
    cache: *const robotstxt_fleet_cache,
    lease: *const robotstxt_fleet_lease,
    at: *const robotstxt_fleet_at,
    step_out: *mut *mut robotstxt_fleet_step,
) -> robotstxt_status {
    guard("robotstxt_fleet_cache_renew", || {
        // SAFETY: per the contract above.
        let (cache, lease, at) = unsafe {
            (
                handle(cache, "cache")?,
                handle(lease, "lease")?,
                self::at(at)?,
            )
        };
        let out = Out::new(step_out, "step_out")?;
        let held = lock(&lease.lease);
        let call = lock(&cache.cache).renew(lease.check(&held, cache)?, at);
        // SAFETY: writable per the contract.
        unsafe { out.put(robotstxt_fleet_step::new(call, cache.id(), Pending::Renew)) };
        Ok(())
    })
}

/// Reads the reply to a renewal and writes whether the lease is still this
/// worker's to `*held_out` (false: it ran out, and the store will be
/// refused). `ROBOTSTXT_STATUS_BAD_REPLY` and `ROBOTSTXT_STATUS_INVALID_STEP`
/// as for `robotstxt_fleet_cache_lookup_reply`.
///
/// # Safety
/// As for `robotstxt_fleet_cache_lookup_reply`; `held_out` writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn robotstxt_fleet_cache_renew_reply(
    cache: *const robotstxt_fleet_cache,
    step: *const robotstxt_fleet_step,
    items: *const robotstxt_fleet_reply_item,
    count: usize,
    held_out: *mut bool,
) -> robotstxt_status {
    guard("robotstxt_fleet_cache_renew_reply", || {
        // SAFETY: per the contract above.
        let (cache, step, reply) = unsafe { reply_args(cache, "cache", step, items, count)? };
        let out = Out::new(held_out, "held_out")?;
        step.take(cache.id(), |p| match p {
            Pending::Renew => Ok(()),
            other => Err(other),
        })?;
        let held = lock(&cache.cache)
            .renew_reply(&reply)
            .map_err(fleet_failure)?;
        // SAFETY: writable per the contract.
        unsafe { out.put(held) };
        Ok(())
    })
}

/// Records what the fetch of `lease` returned (`*fetch`, as for
/// `robotstxt_cache_store`) at `*at`, ends the lease, and writes to
/// `*step_out` the step that stores the copy for the fleet, fenced by the
/// lease: pass its reply to `robotstxt_fleet_cache_store_reply`, or, when
/// Redis fails, the step to `robotstxt_fleet_cache_store_failed`. The answer
/// is for the crawler whose product token is `token`. The lease must still
/// be freed. `ROBOTSTXT_STATUS_INVALID_LEASE` for a lease stored, abandoned
/// or of another cache, `ROBOTSTXT_STATUS_INVALID_TOKEN` for a bad token;
/// the lease is left as it was then.
///
/// # Safety
/// `cache` and `lease` must be live handles; `fetch` must point to a valid
/// struct whose set text fields are valid text; `token` readable for
/// `token_len` bytes (or NULL when 0); `at` must point to a
/// `robotstxt_fleet_at`; `step_out` writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn robotstxt_fleet_cache_store(
    cache: *const robotstxt_fleet_cache,
    lease: *const robotstxt_fleet_lease,
    fetch: *const robotstxt_fetch,
    token: *const u8,
    token_len: usize,
    at: *const robotstxt_fleet_at,
    step_out: *mut *mut robotstxt_fleet_step,
) -> robotstxt_status {
    guard("robotstxt_fleet_cache_store", || {
        // SAFETY: per the contract above.
        let (cache, lease, fetch, token, at) = unsafe {
            (
                handle(cache, "cache")?,
                handle(lease, "lease")?,
                handle(fetch, "fetch")?.to_core()?,
                bytes(token, token_len, "token")?,
                self::at(at)?,
            )
        };
        let out = Out::new(step_out, "step_out")?;
        engine::check_crawler(cache.profile, token)?;
        let step = lock(&cache.cache).store(lease.take(cache)?, &fetch, at)?;
        let call = step.call().clone();
        let pending = Pending::Store(Box::new(step), token.into());
        // SAFETY: writable per the contract.
        unsafe { out.put(robotstxt_fleet_step::new(call, cache.id(), pending)) };
        Ok(())
    })
}

/// What a store came to, as C reads it.
fn store_answer(
    cache: &robotstxt_fleet_cache,
    token: &[u8],
    stored: Stored,
    failed: bool,
) -> Outcome<robotstxt_fleet_stored> {
    let answer = ready(cache.profile, token, &stored.answer, false, None)?;
    Ok(robotstxt_fleet_stored {
        disposition: disposition_code(stored.disposition),
        stored: stored.stored,
        failed,
        answer: answer.answer,
        rules: answer.rules,
        blanket: answer.blanket,
    })
}

/// Reads the reply to a store's step and writes what the store came to to
/// `*stored_out`: the fleet took the copy (this worker holds it), refused it
/// (the lease had run out and another is current: the copy is not held, and
/// the next lookup reads the fleet's), or Redis answered an error (`failed`:
/// as `robotstxt_fleet_cache_store_failed`). Either way `rules` answer from
/// the fetch. `ROBOTSTXT_STATUS_BAD_REPLY` for a reply of another shape (the
/// copy is held then, as when Redis fails), `ROBOTSTXT_STATUS_INVALID_STEP`
/// as for `robotstxt_fleet_cache_lookup_reply`.
///
/// # Safety
/// As for `robotstxt_fleet_cache_lookup_reply`; `stored_out` writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn robotstxt_fleet_cache_store_reply(
    cache: *const robotstxt_fleet_cache,
    step: *const robotstxt_fleet_step,
    items: *const robotstxt_fleet_reply_item,
    count: usize,
    stored_out: *mut robotstxt_fleet_stored,
) -> robotstxt_status {
    guard("robotstxt_fleet_cache_store_reply", || {
        // SAFETY: per the contract above.
        let (cache, step, reply) = unsafe { reply_args(cache, "cache", step, items, count)? };
        let out = Out::new(stored_out, "stored_out")?;
        let (pending, token) = take_store(cache, step)?;
        let (stored, failed) = {
            // The core counts a store Redis failed to take: so it says.
            let mut core = lock(&cache.cache);
            let errors = core.stats().redis_errors;
            let stored = core.store_reply(*pending, &reply).map_err(fleet_failure)?;
            (stored, core.stats().redis_errors > errors)
        };
        let stored = store_answer(cache, &token, stored, failed)?;
        // SAFETY: writable per the contract.
        unsafe { out.put(stored) };
        Ok(())
    })
}

fn take_store(
    cache: &robotstxt_fleet_cache,
    step: &robotstxt_fleet_step,
) -> Outcome<(Box<engine::StoreStep>, Box<[u8]>)> {
    step.take(cache.id(), |p| match p {
        Pending::Store(step, token) => Ok((step, token)),
        other => Err(other),
    })
}

/// Redis failed to take a store (its step's call failed): this worker
/// holds the copy alone, under no version (its next lookup past the copy's
/// due reads the fleet's), counted as a Redis error. Writes what the store
/// came to to `*stored_out` (`stored` false). `ROBOTSTXT_STATUS_INVALID_STEP`
/// for a step that is not this cache's store step, or was read already.
///
/// # Safety
/// `cache` and `step` must be live handles; `stored_out` writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn robotstxt_fleet_cache_store_failed(
    cache: *const robotstxt_fleet_cache,
    step: *const robotstxt_fleet_step,
    stored_out: *mut robotstxt_fleet_stored,
) -> robotstxt_status {
    guard("robotstxt_fleet_cache_store_failed", || {
        // SAFETY: per the contract above.
        let (cache, step) = unsafe { (handle(cache, "cache")?, handle(step, "step")?) };
        let out = Out::new(stored_out, "stored_out")?;
        let (pending, token) = take_store(cache, step)?;
        let stored = lock(&cache.cache).store_failed(*pending);
        let stored = store_answer(cache, &token, stored, true)?;
        // SAFETY: writable per the contract.
        unsafe { out.put(stored) };
        Ok(())
    })
}

/// Ends `lease` unstored and writes to `*step_out` the step that gives it
/// back to the fleet (run it; its reply needs no reading: free the step).
/// The lease must still be freed. `ROBOTSTXT_STATUS_INVALID_LEASE` as for
/// `robotstxt_fleet_cache_store`.
///
/// # Safety
/// `cache` and `lease` must be live handles; `step_out` writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn robotstxt_fleet_cache_abandon(
    cache: *const robotstxt_fleet_cache,
    lease: *const robotstxt_fleet_lease,
    step_out: *mut *mut robotstxt_fleet_step,
) -> robotstxt_status {
    guard("robotstxt_fleet_cache_abandon", || {
        // SAFETY: per the contract above.
        let (cache, lease) = unsafe { (handle(cache, "cache")?, handle(lease, "lease")?) };
        let out = Out::new(step_out, "step_out")?;
        let call = lock(&cache.cache).abandon(lease.take(cache)?)?;
        // SAFETY: writable per the contract.
        unsafe {
            out.put(robotstxt_fleet_step::new(
                call,
                cache.id(),
                Pending::Abandon,
            ))
        };
        Ok(())
    })
}

/// Counts a step whose call failed in Redis (unreachable, timed out), or
/// whose reply did not read (`ROBOTSTXT_STATUS_BAD_REPLY`). Then answer
/// with `robotstxt_fleet_cache_fail_safe`.
///
/// # Safety
/// `cache` must be a live handle.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn robotstxt_fleet_cache_redis_failed(
    cache: *const robotstxt_fleet_cache,
) -> robotstxt_status {
    guard("robotstxt_fleet_cache_redis_failed", || {
        // SAFETY: per the contract above.
        let cache = unsafe { handle(cache, "cache")? };
        lock(&cache.cache).redis_failed();
        Ok(())
    })
}

/// Writes to `*lookup_out` (READY) what answers for `url` while Redis does
/// not: the copy this worker holds, due or not (as an unreachable robots.txt
/// keeps the old copy), else nothing allowed. Errors as for
/// `robotstxt_fleet_cache_lookup`.
///
/// # Safety
/// As for `robotstxt_fleet_cache_lookup`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn robotstxt_fleet_cache_fail_safe(
    cache: *const robotstxt_fleet_cache,
    url: *const u8,
    url_len: usize,
    token: *const u8,
    token_len: usize,
    at: *const robotstxt_fleet_at,
    lookup_out: *mut robotstxt_fleet_lookup,
) -> robotstxt_status {
    guard("robotstxt_fleet_cache_fail_safe", || {
        // SAFETY: per the contract above.
        let (cache, url, token, at) = unsafe {
            (
                handle(cache, "cache")?,
                bytes(url, url_len, "url")?,
                bytes(token, token_len, "token")?,
                self::at(at)?,
            )
        };
        let out = Out::new(lookup_out, "lookup_out")?;
        engine::check_crawler(cache.profile, token)?;
        let answer = lock(&cache.cache).fail_safe(url, at)?;
        let lookup = ready(cache.profile, token, &answer, false, None)?;
        // SAFETY: writable per the contract.
        unsafe { out.put(lookup) };
        Ok(())
    })
}

/// Forgets this worker's copy of `url`'s origin (the fleet's stays), and
/// writes whether it held one to `*removed_out` unless it is NULL.
/// `ROBOTSTXT_STATUS_INVALID_URL` as for `robotstxt_fleet_cache_lookup`.
///
/// # Safety
/// `cache` must be a live handle; `url` readable for `url_len` bytes (or
/// NULL when 0); `removed_out` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn robotstxt_fleet_cache_remove(
    cache: *const robotstxt_fleet_cache,
    url: *const u8,
    url_len: usize,
    removed_out: *mut bool,
) -> robotstxt_status {
    guard("robotstxt_fleet_cache_remove", || {
        // SAFETY: per the contract above.
        let (cache, url) = unsafe { (handle(cache, "cache")?, bytes(url, url_len, "url")?) };
        let removed = lock(&cache.cache).remove(url)?;
        if let Some(out) = Out::optional(removed_out) {
            // SAFETY: writable per the contract.
            unsafe { out.put(removed) };
        }
        Ok(())
    })
}

/// Writes the counters to `*stats_out`.
///
/// # Safety
/// `cache` must be a live handle; `stats_out` writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn robotstxt_fleet_cache_stats(
    cache: *const robotstxt_fleet_cache,
    stats_out: *mut robotstxt_fleet_cache_counters,
) -> robotstxt_status {
    guard("robotstxt_fleet_cache_stats", || {
        // SAFETY: per the contract above.
        let cache = unsafe { handle(cache, "cache")? };
        let out = Out::new(stats_out, "stats_out")?;
        let FleetCacheStats {
            hits,
            misses,
            fetches,
            stale,
            evictions,
            unreadable,
            redis_errors,
            entries,
        } = lock(&cache.cache).stats();
        let stats = robotstxt_fleet_cache_counters {
            hits,
            misses,
            fetches,
            stale,
            evictions,
            unreadable,
            redis_errors,
            entries,
        };
        // SAFETY: writable per the contract.
        unsafe { out.put(stats) };
        Ok(())
    })
}

/// Writes how many origins this worker holds to `*len_out`.
///
/// # Safety
/// `cache` must be a live handle; `len_out` writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn robotstxt_fleet_cache_len(
    cache: *const robotstxt_fleet_cache,
    len_out: *mut usize,
) -> robotstxt_status {
    guard("robotstxt_fleet_cache_len", || {
        // SAFETY: per the contract above.
        let cache = unsafe { handle(cache, "cache")? };
        let out = Out::new(len_out, "len_out")?;
        // SAFETY: writable per the contract.
        unsafe { out.put(lock(&cache.cache).len()) };
        Ok(())
    })
}

/// Writes the fleet's time at `*at` as this worker estimates it to
/// `*now_out`, and whether it knows it to `*known_out` (false before Redis
/// first answered a step read by this cache, with a monotonic `*at`).
///
/// # Safety
/// `cache` must be a live handle; `at` must point to a `robotstxt_fleet_at`;
/// both outputs writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn robotstxt_fleet_cache_now(
    cache: *const robotstxt_fleet_cache,
    at: *const robotstxt_fleet_at,
    known_out: *mut bool,
    now_out: *mut u64,
) -> robotstxt_status {
    // SAFETY: forwarded to the caller.
    unsafe {
        put_now("robotstxt_fleet_cache_now", at, known_out, now_out, |at| {
            Ok(lock(&handle(cache, "cache")?.cache).now(at))
        })
    }
}

/// Writes the ms from `*at` until `until_ms` (fleet time, such as a WAIT's
/// `until_ms`) to `*ms_out`: 0 when past, or before Redis first answered.
///
/// # Safety
/// `cache` must be a live handle; `at` must point to a `robotstxt_fleet_at`;
/// `ms_out` writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn robotstxt_fleet_cache_ms_until(
    cache: *const robotstxt_fleet_cache,
    until_ms: u64,
    at: *const robotstxt_fleet_at,
    ms_out: *mut u64,
) -> robotstxt_status {
    // SAFETY: forwarded to the caller.
    unsafe {
        put_ms_until("robotstxt_fleet_cache_ms_until", at, ms_out, |at| {
            Ok(lock(&handle(cache, "cache")?.cache).ms_until(until_ms, at))
        })
    }
}

/// Writes how often (ms) the holder of a lease renews it while its fetch
/// goes on to `*ms_out`: a third of the lease.
///
/// # Safety
/// `cache` must be a live handle; `ms_out` writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn robotstxt_fleet_cache_renew_every_ms(
    cache: *const robotstxt_fleet_cache,
    ms_out: *mut u64,
) -> robotstxt_status {
    guard("robotstxt_fleet_cache_renew_every_ms", || {
        // SAFETY: per the contract above.
        let cache = unsafe { handle(cache, "cache")? };
        let out = Out::new(ms_out, "ms_out")?;
        // SAFETY: writable per the contract.
        unsafe { out.put(lock(&cache.cache).renew_every_ms()) };
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn handles_are_send_and_sync() {
        fn shared<T: Send + Sync>() {}
        shared::<robotstxt_fleet_cache>();
        shared::<robotstxt_fleet_lease>();
    }
}
