//! `robotstxt_cache` and `robotstxt_lease`: a thread-safe, bounded cache of
//! robots.txt copies keyed by origin, with single-flight fetching
//! (behaviour §6–§7). The library does no I/O: a lookup tells one caller per origin to
//! fetch, and that caller stores what it got.

use std::sync::{Arc, Mutex};

use super::access::{disposition_code, robotstxt_disposition, robotstxt_fetch};
use super::entry::{
    robotstxt_answer, robotstxt_freshness_policy, robotstxt_validators, ROBOTSTXT_ANSWER_ALLOW_ALL,
    ROBOTSTXT_ANSWER_DISALLOW_ALL, ROBOTSTXT_ANSWER_RULES,
};
use super::rules::robotstxt_blanket;
use super::rules::robotstxt_rules;
use super::status::{robotstxt_status, Failure};
use super::{
    bytes, free_handle, guard, guard_value, handle, into_handle, robotstxt_str, Out, Outcome,
};
use engine::{Cache, CacheOptions, CacheStats, Cached, Error, Lease, Lookup, WhenFetching};

/// What a lookup answers while another caller fetches the origin and no
/// copy exists yet.
pub type robotstxt_when_fetching = u32;

/// `ROBOTSTXT_LOOKUP_WAIT`: ask again when the fetch is stored (the default).
pub const ROBOTSTXT_WHEN_FETCHING_WAIT: robotstxt_when_fetching = 0;
/// A disallow-all answer now (RFC 9309 §2.3.1.4: nothing is known yet).
pub const ROBOTSTXT_WHEN_FETCHING_DISALLOW_ALL: robotstxt_when_fetching = 1;

/// The kind of a `robotstxt_lookup`.
pub type robotstxt_lookup_kind = u32;

/// Answer with `rules` (`answer` says where they come from; `stale` whether
/// the copy is past its freshness).
pub const ROBOTSTXT_LOOKUP_READY: robotstxt_lookup_kind = 0;
/// Fetch the origin's `/robots.txt` now, then pass `lease` to
/// `robotstxt_cache_store` or `robotstxt_cache_abandon`.
pub const ROBOTSTXT_LOOKUP_FETCH: robotstxt_lookup_kind = 1;
/// Another caller is fetching and there is no copy yet: ask again once it
/// is stored, or at `until_ms` when its lease runs out.
pub const ROBOTSTXT_LOOKUP_WAIT: robotstxt_lookup_kind = 2;

/// How big a cache is, how long a fetch may take, and how copies age.
/// Start from `robotstxt_cache_options_default()`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct robotstxt_cache_options {
    /// At most this many origins are kept; the least recently used goes
    /// first. Default 10,000; 0 is taken as 1.
    pub capacity: usize,
    /// A fetch handed out and neither stored nor abandoned within this many
    /// milliseconds is handed to the next caller. Default 60,000.
    pub lease_ms: u64,
    /// Freshness, status reading and parsing.
    pub policy: robotstxt_freshness_policy,
}

/// The answer of `robotstxt_cache_lookup`. Only the fields of its `kind`
/// are set; the others are 0, false or NULL. Of `rules` and `lease`, at most
/// one is non-NULL and it is yours: freeing both with `robotstxt_rules_free`
/// and `robotstxt_lease_free` is always right (freeing NULL does nothing).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct robotstxt_lookup {
    /// A `ROBOTSTXT_LOOKUP_*` value.
    pub kind: robotstxt_lookup_kind,
    /// READY: a `ROBOTSTXT_ANSWER_*` value: a parsed copy, or a blanket
    /// allow-all or disallow-all.
    pub answer: robotstxt_answer,
    /// READY: the copy is past its freshness (kept while the file is being
    /// fetched or is unreachable).
    pub stale: bool,
    /// READY: the rules for the token passed to the lookup (blanket answers
    /// as allow-all or disallow-all rules). Free with `robotstxt_rules_free`.
    pub rules: *mut robotstxt_rules,
    /// FETCH: the right, and duty, to fetch. Store or abandon it, then free
    /// it with `robotstxt_lease_free`.
    pub lease: *mut robotstxt_lease,
    /// WAIT: when the other caller's lease runs out, in ms.
    pub until_ms: u64,
    /// READY: whether `answer` is a blanket answer, and the fetch outcome
    /// that caused it (as `robotstxt_rules_blanket` on `rules` says too).
    pub blanket: robotstxt_blanket,
    /// READY: whether a retry is pending: the last fetch failed, and the
    /// answer is an old copy kept meanwhile or a disallow-all.
    pub has_retry_at: bool,
    /// READY, with `has_retry_at`: when the cache will fetch again (ms):
    /// ask again then. With `ROBOTSTXT_WHEN_FETCHING_DISALLOW_ALL` while
    /// another caller fetches, when its lease runs out.
    pub retry_at_ms: u64,
}

/// Counters since the cache was made.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct robotstxt_cache_counters {
    /// Answers from a fresh copy.
    pub hits: u64,
    /// Lookups with no usable copy (a fetch handed out, a wait, or a
    /// disallow-all while another caller fetches).
    pub misses: u64,
    /// Fetches handed out.
    pub fetches: u64,
    /// Answers from a copy past its freshness.
    pub stale: u64,
    /// Origins dropped to stay within capacity.
    pub evictions: u64,
    /// Origins held now.
    pub entries: u64,
}

/// A cache of robots.txt copies keyed by origin (`scheme://host[:port]`).
/// Synchronised: any number of threads may call any function on one handle
/// at the same time; only `robotstxt_cache_free` must not overlap with other
/// uses. Free it with `robotstxt_cache_free`.
pub struct robotstxt_cache {
    cache: Arc<Cache>,
}

/// The right, and duty, to fetch one origin's robots.txt, handed out by
/// `robotstxt_cache_lookup`. Pass it once to `robotstxt_cache_store` or
/// `robotstxt_cache_abandon` of the same cache, then free it with
/// `robotstxt_lease_free`. It may move between threads, and calls on it may
/// overlap; only `robotstxt_lease_free` must not overlap with other uses.
pub struct robotstxt_lease {
    /// Taken by the store or abandon that ends it.
    lease: Mutex<Option<Lease>>,
    origin: Box<str>,
    robots_url: String,
    etag: Option<Box<[u8]>>,
    last_modified: Option<Box<[u8]>>,
}

impl robotstxt_lease {
    /// Takes the lease out for `cache`, once; a lease of another cache
    /// stays as it is.
    fn take(&self, cache: &robotstxt_cache) -> Outcome<Lease> {
        let mut held = self.lease.lock().unwrap_or_else(|p| p.into_inner());
        match held.as_ref() {
            None => Err(Failure::from(Error::InvalidLease {
                reason: "was already stored or abandoned",
            })),
            Some(lease) if !cache.cache.issued(lease) => Err(Failure::from(Error::InvalidLease {
                reason: "belongs to another cache",
            })),
            Some(_) => Ok(held.take().expect("checked above")),
        }
    }
}

// For the wasm module's own exports (src/wasm.rs).
#[cfg(any(target_family = "wasm", test))]
impl robotstxt_cache {
    pub(super) fn core(&self) -> &Cache {
        &self.cache
    }
}

#[cfg(any(target_family = "wasm", test))]
impl robotstxt_lease {
    /// A handle for a lease the cache handed out, as the lookup makes it.
    pub(super) fn wrap(lease: Lease) -> robotstxt_lease {
        robotstxt_lease {
            origin: lease.origin().into(),
            robots_url: lease.robots_url(),
            etag: lease.etag().map(Box::from),
            last_modified: lease.last_modified().map(Box::from),
            lease: Mutex::new(Some(lease)),
        }
    }

    /// Whether `cache` handed this lease out and it has not ended.
    pub(super) fn issued_by(&self, cache: &robotstxt_cache) -> bool {
        let held = self.lease.lock().unwrap_or_else(|p| p.into_inner());
        held.as_ref().is_some_and(|lease| cache.cache.issued(lease))
    }
}

/// The default cache options: 10,000 origins, 60 s leases, the default
/// freshness policy.
#[unsafe(no_mangle)]
pub extern "C" fn robotstxt_cache_options_default() -> robotstxt_cache_options {
    let policy = super::entry::robotstxt_freshness_policy_default();
    let fallback = robotstxt_cache_options {
        capacity: 10_000,
        lease_ms: 60_000,
        policy,
    };
    guard_value("robotstxt_cache_options_default", fallback, || {
        let core = CacheOptions::default();
        robotstxt_cache_options {
            capacity: core.capacity,
            lease_ms: core.lease_ms,
            policy,
        }
    })
}

fn when_fetching(code: robotstxt_when_fetching) -> Outcome<WhenFetching> {
    match code {
        ROBOTSTXT_WHEN_FETCHING_WAIT => Ok(WhenFetching::Wait),
        ROBOTSTXT_WHEN_FETCHING_DISALLOW_ALL => Ok(WhenFetching::DisallowAll),
        _ => Err(Failure::option(
            "when_fetching",
            "ROBOTSTXT_WHEN_FETCHING_WAIT (0) or ROBOTSTXT_WHEN_FETCHING_DISALLOW_ALL (1)",
        )),
    }
}

/// Creates an empty cache with `*options`, copied. On success the caller
/// owns `*cache_out` and frees it with `robotstxt_cache_free`. An unknown
/// enumeration value gives `ROBOTSTXT_STATUS_INVALID_OPTION`, a parse limit
/// out of range `ROBOTSTXT_STATUS_PARSE_LIMIT`.
///
/// # Safety
/// `options` must point to a `robotstxt_cache_options`; `cache_out` must be
/// writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn robotstxt_cache_new(
    options: *const robotstxt_cache_options,
    cache_out: *mut *mut robotstxt_cache,
) -> robotstxt_status {
    guard("robotstxt_cache_new", || {
        // SAFETY: per the contract above.
        let options = unsafe { handle(options, "options")? };
        let out = Out::new(cache_out, "cache_out")?;
        let cache = Cache::new(CacheOptions {
            capacity: options.capacity,
            lease_ms: options.lease_ms,
            policy: options.policy.to_core()?,
        });
        let cache = Arc::new(cache);
        // SAFETY: writable per the contract.
        unsafe { out.put(into_handle(robotstxt_cache { cache })) };
        Ok(())
    })
}

/// Frees a cache. NULL does nothing. Rules handed out stay valid; leases
/// still out may be freed later (storing them gives
/// `ROBOTSTXT_STATUS_INVALID_LEASE`).
///
/// # Safety
/// `cache` must be NULL or a live handle, not used again after this.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn robotstxt_cache_free(cache: *mut robotstxt_cache) {
    // SAFETY: forwarded to the caller.
    unsafe { free_handle("robotstxt_cache_free", cache) }
}

/// Looks up the robots.txt for `url` (an absolute `http`/`https` URL) at
/// `now_ms` and writes the answer to `*lookup_out`:
///
/// - `ROBOTSTXT_LOOKUP_READY`: `rules` holds new rules for the crawler whose
///   product token is `token` (checked as in `robotstxt_robots_rules_for`),
///   from a fresh copy, from an old copy kept while it is refreshed or
///   unreachable (`stale`), or, for blanket answers, rules that allow or
///   disallow everything.
/// - `ROBOTSTXT_LOOKUP_FETCH`: this caller must fetch `/robots.txt` now
///   (only one caller per origin gets this at a time). The `lease` names
///   the URL and the validators for a conditional request; pass it to
///   `robotstxt_cache_store` (or `robotstxt_cache_abandon`), then free it.
/// - `ROBOTSTXT_LOOKUP_WAIT`: another caller is fetching and there is no
///   copy yet. With `ROBOTSTXT_WHEN_FETCHING_DISALLOW_ALL` you get a READY
///   disallow-all answer instead.
///
/// `ROBOTSTXT_STATUS_INVALID_URL` for a URL the cache cannot key,
/// `ROBOTSTXT_STATUS_INVALID_TOKEN` for a token that is not a product token;
/// either way the cache is left as it was.
///
/// Cost: one origin parse and one hash lookup under a lock, plus compiling
/// the rules for `token`.
///
/// # Safety
/// `cache` must be a live handle; `url` and `token` readable for their
/// lengths (or NULL when 0); `lookup_out` writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn robotstxt_cache_lookup(
    cache: *const robotstxt_cache,
    url: *const u8,
    url_len: usize,
    token: *const u8,
    token_len: usize,
    now_ms: u64,
    when_fetching: robotstxt_when_fetching,
    lookup_out: *mut robotstxt_lookup,
) -> robotstxt_status {
    guard("robotstxt_cache_lookup", || {
        // SAFETY: per the contract above.
        let (cache, url, token) = unsafe {
            (
                handle(cache, "cache")?,
                bytes(url, url_len, "url")?,
                bytes(token, token_len, "token")?,
            )
        };
        let out = Out::new(lookup_out, "lookup_out")?;
        let when = self::when_fetching(when_fetching)?;
        // Check the token before the lookup, so a bad one hands out nothing.
        let profile = cache.cache.options().policy.parse.profile();
        engine::check_crawler(profile, token)?;
        let mut lookup = robotstxt_lookup {
            kind: ROBOTSTXT_LOOKUP_READY,
            answer: ROBOTSTXT_ANSWER_RULES,
            stale: false,
            rules: std::ptr::null_mut(),
            lease: std::ptr::null_mut(),
            until_ms: 0,
            blanket: robotstxt_blanket::of(None),
            has_retry_at: false,
            retry_at_ms: 0,
        };
        match cache.cache.lookup(url, now_ms, when)? {
            Lookup::Ready {
                answer,
                stale,
                retry_at,
            } => {
                let rules = cache.cache.select(&answer, token)?.with_retry_at(retry_at);
                lookup.answer = match answer {
                    Cached::Rules(_) => ROBOTSTXT_ANSWER_RULES,
                    Cached::AllowAll(_) => ROBOTSTXT_ANSWER_ALLOW_ALL,
                    Cached::DisallowAll(_) => ROBOTSTXT_ANSWER_DISALLOW_ALL,
                };
                lookup.stale = stale;
                lookup.blanket = robotstxt_blanket::of(answer.blanket());
                lookup.has_retry_at = retry_at.is_some();
                lookup.retry_at_ms = retry_at.unwrap_or(0);
                lookup.rules = into_handle(robotstxt_rules { rules });
            }
            Lookup::Fetch(lease) => {
                lookup.kind = ROBOTSTXT_LOOKUP_FETCH;
                lookup.answer = 0;
                lookup.lease = into_handle(robotstxt_lease {
                    origin: lease.origin().into(),
                    robots_url: lease.robots_url(),
                    etag: lease.etag().map(Box::from),
                    last_modified: lease.last_modified().map(Box::from),
                    lease: Mutex::new(Some(lease)),
                });
            }
            Lookup::Wait { until } => {
                lookup.kind = ROBOTSTXT_LOOKUP_WAIT;
                lookup.answer = 0;
                lookup.until_ms = until;
            }
        }
        // SAFETY: writable per the contract.
        unsafe { out.put(lookup) };
        Ok(())
    })
}

/// Stores what the fetch of `lease` returned at `now_ms` and ends the
/// lease: a 2xx body is parsed and becomes the copy, a 304 renews the copy,
/// a failure keeps the old copy and sets the next try (behaviour §6–§7). Writes
/// what the outcome meant to `*disposition_out` unless it is NULL. The cache
/// keeps no pointer into `*fetch`. The lease must still be freed.
///
/// A lease that ran out is still stored, unless a newer lease of its origin
/// has stored a copy since: a late answer never replaces a newer one.
///
/// `ROBOTSTXT_STATUS_INVALID_LEASE` if the lease was already stored or
/// abandoned, came from another cache, or ran out and a newer copy was
/// stored since; nothing is stored then (a lease of another cache stays
/// usable with its own).
///
/// # Safety
/// `cache` and `lease` must be live handles; `fetch` must point to a valid
/// struct whose set text fields are valid text; `disposition_out` must be
/// NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn robotstxt_cache_store(
    cache: *const robotstxt_cache,
    lease: *mut robotstxt_lease,
    now_ms: u64,
    fetch: *const robotstxt_fetch,
    disposition_out: *mut robotstxt_disposition,
) -> robotstxt_status {
    guard("robotstxt_cache_store", || {
        // SAFETY: per the contract above.
        let (cache, lease, fetch) = unsafe {
            (
                handle(cache, "cache")?,
                handle(lease.cast_const(), "lease")?,
                handle(fetch, "fetch")?,
            )
        };
        // SAFETY: per the contract above.
        let fetch = unsafe { fetch.to_core()? };
        let d = cache.cache.store(lease.take(cache)?, now_ms, &fetch)?;
        if let Some(out) = Out::optional(disposition_out) {
            // SAFETY: writable per the contract.
            unsafe { out.put(disposition_code(d)) };
        }
        Ok(())
    })
}

/// Gives the fetch of `lease` back without an outcome (the caller gave up):
/// the next lookup of the origin hands it to someone else. The lease must
/// still be freed. `ROBOTSTXT_STATUS_INVALID_LEASE` as for
/// `robotstxt_cache_store`.
///
/// # Safety
/// `cache` and `lease` must be live handles.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn robotstxt_cache_abandon(
    cache: *const robotstxt_cache,
    lease: *mut robotstxt_lease,
) -> robotstxt_status {
    guard("robotstxt_cache_abandon", || {
        // SAFETY: per the contract above.
        let (cache, lease) = unsafe {
            (
                handle(cache, "cache")?,
                handle(lease.cast_const(), "lease")?,
            )
        };
        cache.cache.abandon(lease.take(cache)?)?;
        Ok(())
    })
}

/// Forgets the origin of `url`. Writes whether it was held to
/// `*removed_out` unless it is NULL. `ROBOTSTXT_STATUS_INVALID_URL` as for
/// `robotstxt_cache_lookup`.
///
/// # Safety
/// `cache` must be a live handle; `url` readable for `url_len` bytes (or
/// NULL when 0); `removed_out` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn robotstxt_cache_remove(
    cache: *const robotstxt_cache,
    url: *const u8,
    url_len: usize,
    removed_out: *mut bool,
) -> robotstxt_status {
    guard("robotstxt_cache_remove", || {
        // SAFETY: per the contract above.
        let (cache, url) = unsafe { (handle(cache, "cache")?, bytes(url, url_len, "url")?) };
        let removed = cache.cache.remove(url)?;
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
pub unsafe extern "C" fn robotstxt_cache_stats(
    cache: *const robotstxt_cache,
    stats_out: *mut robotstxt_cache_counters,
) -> robotstxt_status {
    guard("robotstxt_cache_stats", || {
        // SAFETY: per the contract above.
        let cache = unsafe { handle(cache, "cache")? };
        let out = Out::new(stats_out, "stats_out")?;
        let CacheStats {
            hits,
            misses,
            fetches,
            stale,
            evictions,
            entries,
        } = cache.cache.stats();
        let stats = robotstxt_cache_counters {
            hits,
            misses,
            fetches,
            stale,
            evictions,
            entries,
        };
        // SAFETY: writable per the contract.
        unsafe { out.put(stats) };
        Ok(())
    })
}

/// Writes how many origins the cache holds to `*len_out`.
///
/// # Safety
/// `cache` must be a live handle; `len_out` writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn robotstxt_cache_len(
    cache: *const robotstxt_cache,
    len_out: *mut usize,
) -> robotstxt_status {
    guard("robotstxt_cache_len", || {
        // SAFETY: per the contract above.
        let cache = unsafe { handle(cache, "cache")? };
        let out = Out::new(len_out, "len_out")?;
        // SAFETY: writable per the contract.
        unsafe { out.put(cache.cache.len()) };
        Ok(())
    })
}

/// Frees a lease. NULL does nothing. A lease neither stored nor abandoned
/// is abandoned first, so another caller may fetch at once.
///
/// # Safety
/// `lease` must be NULL or a live handle, not used again after this.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn robotstxt_lease_free(lease: *mut robotstxt_lease) {
    // SAFETY: forwarded to the caller.
    unsafe { free_handle("robotstxt_lease_free", lease) }
}

/// Writes a lease's text to its two outputs.
///
/// # Safety
/// Both outputs must be writable (they were checked non-NULL).
unsafe fn put_text(text: &[u8], ptr: Out<*const u8>, len: Out<usize>) {
    let text = robotstxt_str::borrow(text);
    // SAFETY: forwarded to the caller.
    unsafe {
        ptr.put(text.ptr);
        len.put(text.len);
    }
}

/// Writes the normalised origin, such as `https://example.com:8443`, to
/// `*origin_out` and `*origin_len_out`. The text borrows from `lease` and
/// stays valid until it is freed.
///
/// # Safety
/// `lease` must be a live handle; both outputs writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn robotstxt_lease_origin(
    lease: *const robotstxt_lease,
    origin_out: *mut *const u8,
    origin_len_out: *mut usize,
) -> robotstxt_status {
    guard("robotstxt_lease_origin", || {
        // SAFETY: per the contract above.
        let lease = unsafe { handle(lease, "lease")? };
        let ptr = Out::new(origin_out, "origin_out")?;
        let len = Out::new(origin_len_out, "origin_len_out")?;
        // SAFETY: writable per the contract.
        unsafe { put_text(lease.origin.as_bytes(), ptr, len) };
        Ok(())
    })
}

/// Writes the URL to fetch, the origin's `/robots.txt` (such as
/// `https://example.com:8443/robots.txt`), to `*url_out` and
/// `*url_len_out`. The text borrows from `lease` and stays valid until it
/// is freed.
///
/// # Safety
/// `lease` must be a live handle; both outputs writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn robotstxt_lease_robots_url(
    lease: *const robotstxt_lease,
    url_out: *mut *const u8,
    url_len_out: *mut usize,
) -> robotstxt_status {
    guard("robotstxt_lease_robots_url", || {
        // SAFETY: per the contract above.
        let lease = unsafe { handle(lease, "lease")? };
        let ptr = Out::new(url_out, "url_out")?;
        let len = Out::new(url_len_out, "url_len_out")?;
        // SAFETY: writable per the contract.
        unsafe { put_text(lease.robots_url.as_bytes(), ptr, len) };
        Ok(())
    })
}

/// Writes the validators of the cached copy to `*validators_out`, to send
/// as `If-None-Match` and `If-Modified-Since`; a 304 stored with the lease
/// then renews the copy. Without a copy, or for an allow-all copy, there
/// are none. The text borrows from `lease` and stays valid until it is
/// freed.
///
/// # Safety
/// `lease` must be a live handle; `validators_out` writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn robotstxt_lease_validators(
    lease: *const robotstxt_lease,
    validators_out: *mut robotstxt_validators,
) -> robotstxt_status {
    guard("robotstxt_lease_validators", || {
        // SAFETY: per the contract above.
        let lease = unsafe { handle(lease, "lease")? };
        let out = Out::new(validators_out, "validators_out")?;
        let (etag, last_modified) = (lease.etag.as_deref(), lease.last_modified.as_deref());
        let value = robotstxt_validators {
            has_etag: etag.is_some(),
            etag: etag.map_or(robotstxt_str::EMPTY, robotstxt_str::borrow),
            has_last_modified: last_modified.is_some(),
            last_modified: last_modified.map_or(robotstxt_str::EMPTY, robotstxt_str::borrow),
        };
        // SAFETY: writable per the contract.
        unsafe { out.put(value) };
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn handles_are_send_and_sync() {
        fn shared<T: Send + Sync>() {}
        shared::<robotstxt_cache>();
        shared::<robotstxt_lease>();
    }
}
