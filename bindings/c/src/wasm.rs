//! WebAssembly only: what a wasm host needs beyond the C ABI. A host
//! (Pyodide, a Go runtime such as wazero, a browser) reaches the C ABI
//! through the module's exports and its linear memory: it needs room in
//! that memory for the bytes it passes in and the outputs it reads back
//! (`robotstxt_wasm_alloc`, `robotstxt_wasm_free`), and a few answers the
//! header does not give yet, which the bindings' own APIs have (counts, a
//! cache answer for any token, caller-made blanket rules, a pace's gap).
//! None of this is in `include/robotstxt.h` (lib.rs marks the module
//! `cbindgen:ignore`): native callers have their own allocator, and the
//! header is theirs. The conventions are the header's. The natives here
//! that a C caller could use too (counts, answers, caller-made blanket
//! rules, a pace's gap) are candidates for the header proper.

use std::alloc::{alloc, dealloc, Layout};

/// The alignment of every block: enough for any output the C ABI writes
/// (`uint64_t`, pointers, its structs).
const ALIGN: usize = 8;

fn layout(len: usize) -> Option<Layout> {
    Layout::from_size_align(len, ALIGN).ok()
}

/// Allocates `len` bytes in the module's memory, aligned to 8, and returns
/// their address; release them with `robotstxt_wasm_free(ptr, len)`.
/// Returns NULL when `len` is 0 or the memory cannot grow (nothing is
/// allocated then).
#[unsafe(no_mangle)]
pub extern "C" fn robotstxt_wasm_alloc(len: usize) -> *mut u8 {
    match layout(len) {
        // SAFETY: the layout has a non-zero size.
        Some(layout) if len > 0 => unsafe { alloc(layout) },
        _ => std::ptr::null_mut(),
    }
}

/// Releases a block from `robotstxt_wasm_alloc`; `len` must be the length
/// it was asked for. NULL does nothing.
///
/// # Safety
/// Unless NULL, `ptr` must come from `robotstxt_wasm_alloc(len)` and not
/// have been freed.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn robotstxt_wasm_free(ptr: *mut u8, len: usize) {
    if ptr.is_null() {
        return;
    }
    if let Some(layout) = layout(len) {
        // SAFETY: per the contract, `ptr` came from `alloc` with this layout.
        unsafe { dealloc(ptr, layout) }
    }
}

use super::cache::{robotstxt_cache, robotstxt_lease};
use super::entry::{
    robotstxt_answer, robotstxt_entry, ROBOTSTXT_ANSWER_ALLOW_ALL, ROBOTSTXT_ANSWER_DISALLOW_ALL,
    ROBOTSTXT_ANSWER_RULES,
};
use super::options::{profile_code, robotstxt_options, robotstxt_profile};
use super::pacer::robotstxt_pacer;
use super::robots::robotstxt_robots;
use super::rules::{robotstxt_blanket, robotstxt_rules};
use super::status::{robotstxt_status, Failure};
use super::{bytes, free_handle, guard, handle, into_handle, Out, Outcome};
use engine::{Cached, Lookup, Profile, RequestRate, Rules, WhenFetching};

/// The profile a `ROBOTSTXT_PROFILE_*` value names, read as the options
/// read it.
fn profile(code: robotstxt_profile) -> Outcome<Profile> {
    let options = robotstxt_options {
        profile: code,
        parse_limit: engine::MIN_PARSE_LIMIT,
        typos: true,
    };
    Ok(options.to_core()?.profile())
}

/// Writes how many groups and how many rules the file has.
///
/// # Safety
/// `robots` must be a live handle; both outputs writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn robotstxt_wasm_robots_counts(
    robots: *const robotstxt_robots,
    group_count_out: *mut usize,
    rule_count_out: *mut usize,
) -> robotstxt_status {
    guard("robotstxt_wasm_robots_counts", || {
        // SAFETY: per the contract above.
        let robots = unsafe { handle(robots, "robots")? };
        let groups = Out::new(group_count_out, "group_count_out")?;
        let rules = Out::new(rule_count_out, "rule_count_out")?;
        // SAFETY: writable per the contract.
        unsafe {
            groups.put(robots.robots.group_count());
            rules.put(robots.robots.rule_count());
        }
        Ok(())
    })
}

/// Writes how many rules apply (over all tokens in strictest-of mode) and
/// the profile of the file the rules came from.
///
/// # Safety
/// `rules` must be a live handle; both outputs writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn robotstxt_wasm_rules_info(
    rules: *const robotstxt_rules,
    rule_count_out: *mut usize,
    profile_out: *mut robotstxt_profile,
) -> robotstxt_status {
    guard("robotstxt_wasm_rules_info", || {
        // SAFETY: per the contract above.
        let rules = unsafe { handle(rules, "rules")? };
        let count = Out::new(rule_count_out, "rule_count_out")?;
        let profile = Out::new(profile_out, "profile_out")?;
        // SAFETY: writable per the contract.
        unsafe {
            count.put(rules.rules.len());
            profile.put(profile_code(rules.rules.profile()));
        }
        Ok(())
    })
}

/// Writes new rules that allow (`allowed`) or disallow everything, made by
/// the caller (their blanket's cause is `ROBOTSTXT_CAUSE_CALLER`).
///
/// # Safety
/// `rules_out` must be writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn robotstxt_wasm_rules_blanket(
    allowed: bool,
    profile: robotstxt_profile,
    rules_out: *mut *mut robotstxt_rules,
) -> robotstxt_status {
    guard("robotstxt_wasm_rules_blanket", || {
        let out = Out::new(rules_out, "rules_out")?;
        let profile = self::profile(profile)?;
        let rules = if allowed {
            Rules::allow_all(profile)
        } else {
            Rules::disallow_all(profile)
        };
        // SAFETY: writable per the contract.
        unsafe { out.put(into_handle(robotstxt_rules { rules })) };
        Ok(())
    })
}

/// Writes the gap (ms) a pace asks of a pacer: the larger of the crawl
/// delay (seconds; when `has_crawl_delay`) and the request-rate interval
/// (when `has_request_rate`), rounded up to the ms, as
/// `robotstxt_pacer_set_delay` sets it. A negative or non-finite delay, or
/// a rate with 0 requests or 0 seconds, gives
/// `ROBOTSTXT_STATUS_INVALID_ARGUMENT`.
///
/// # Safety
/// `delay_ms_out` must be writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn robotstxt_wasm_delay_ms(
    has_crawl_delay: bool,
    crawl_delay_s: f64,
    has_request_rate: bool,
    rate_requests: u32,
    rate_seconds: u32,
    delay_ms_out: *mut u64,
) -> robotstxt_status {
    guard("robotstxt_wasm_delay_ms", || {
        let out = Out::new(delay_ms_out, "delay_ms_out")?;
        let delay = match has_crawl_delay {
            true => Some(
                std::time::Duration::try_from_secs_f64(crawl_delay_s).map_err(|_| {
                    Failure::out_of_range("crawl_delay_s", "a finite number of seconds >= 0")
                })?,
            ),
            false => None,
        };
        let rate = match has_request_rate {
            true if rate_requests == 0 || rate_seconds == 0 => {
                return Err(Failure::out_of_range(
                    "rate_requests, rate_seconds",
                    "a request rate of at least 1 request per second or more",
                ))
            }
            true => Some(RequestRate {
                requests: rate_requests,
                seconds: rate_seconds,
            }),
            false => None,
        };
        // SAFETY: writable per the contract.
        unsafe { out.put(engine::delay_ms(delay, rate)) };
        Ok(())
    })
}

/// Writes how many hosts the pacer tracks.
///
/// # Safety
/// `pacer` must be a live handle; `len_out` writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn robotstxt_wasm_pacer_len(
    pacer: *const robotstxt_pacer,
    len_out: *mut usize,
) -> robotstxt_status {
    guard("robotstxt_wasm_pacer_len", || {
        // SAFETY: per the contract above.
        let pacer = unsafe { handle(pacer, "pacer")? };
        let out = Out::new(len_out, "len_out")?;
        // SAFETY: writable per the contract.
        unsafe { out.put(pacer.core().len()) };
        Ok(())
    })
}

/// Writes whether `cache` handed `lease` out and it has not ended.
///
/// # Safety
/// `cache` and `lease` must be live handles; `issued_out` writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn robotstxt_wasm_cache_issued(
    cache: *const robotstxt_cache,
    lease: *const robotstxt_lease,
    issued_out: *mut bool,
) -> robotstxt_status {
    guard("robotstxt_wasm_cache_issued", || {
        // SAFETY: per the contract above.
        let (cache, lease) = unsafe { (handle(cache, "cache")?, handle(lease, "lease")?) };
        let out = Out::new(issued_out, "issued_out")?;
        // SAFETY: writable per the contract.
        unsafe { out.put(lease.issued_by(cache)) };
        Ok(())
    })
}

/// What answers for an origin (a parsed file, or a blanket answer), when
/// the file will be fetched again, and the profile tokens are read with:
/// rules for any crawler come from it. Immutable; free it with
/// `robotstxt_wasm_answer_free`.
pub struct robotstxt_wasm_answer {
    cached: Cached,
    profile: Profile,
    retry_at: Option<u64>,
}

/// What `robotstxt_wasm_answer_info` writes.
#[repr(C)]
pub struct robotstxt_wasm_answer_info {
    /// A `ROBOTSTXT_ANSWER_*` value.
    pub kind: robotstxt_answer,
    /// Whether a retry is pending.
    pub has_retry_at: bool,
    /// When the file will be fetched again (ms), with `has_retry_at`.
    pub retry_at_ms: u64,
    /// The blanket answer and its cause, for the blanket kinds.
    pub blanket: robotstxt_blanket,
}

/// `robotstxt_lookup` with an answer in place of one crawler's rules.
#[repr(C)]
pub struct robotstxt_wasm_lookup {
    /// A `ROBOTSTXT_LOOKUP_*` value.
    pub kind: u32,
    /// READY: the copy is past its freshness.
    pub stale: bool,
    /// READY: what answers (yours: free it).
    pub answer: *mut robotstxt_wasm_answer,
    /// FETCH: the lease (yours: store or abandon it, then free it).
    pub lease: *mut robotstxt_lease,
    /// WAIT: when the other caller's lease runs out, in ms.
    pub until_ms: u64,
}

/// Looks up `url` as `robotstxt_cache_lookup` does, without a token: a
/// READY lookup gives an answer handle, from which rules for any crawler
/// come (`robotstxt_wasm_answer_rules_for`).
///
/// # Safety
/// `cache` must be a live handle; `url` readable for `url_len` bytes (or
/// NULL when 0); `lookup_out` writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn robotstxt_wasm_cache_lookup(
    cache: *const robotstxt_cache,
    url: *const u8,
    url_len: usize,
    now_ms: u64,
    when_fetching: u32,
    lookup_out: *mut robotstxt_wasm_lookup,
) -> robotstxt_status {
    guard("robotstxt_wasm_cache_lookup", || {
        // SAFETY: per the contract above.
        let (cache, url) = unsafe { (handle(cache, "cache")?, bytes(url, url_len, "url")?) };
        let out = Out::new(lookup_out, "lookup_out")?;
        let when =
            match when_fetching {
                0 => WhenFetching::Wait,
                1 => WhenFetching::DisallowAll,
                _ => return Err(Failure::option(
                    "when_fetching",
                    "ROBOTSTXT_WHEN_FETCHING_WAIT (0) or ROBOTSTXT_WHEN_FETCHING_DISALLOW_ALL (1)",
                )),
            };
        let core = cache.core();
        let mut lookup = robotstxt_wasm_lookup {
            kind: super::cache::ROBOTSTXT_LOOKUP_READY,
            stale: false,
            answer: std::ptr::null_mut(),
            lease: std::ptr::null_mut(),
            until_ms: 0,
        };
        match core.lookup(url, now_ms, when)? {
            Lookup::Ready {
                answer,
                stale,
                retry_at,
            } => {
                lookup.stale = stale;
                lookup.answer = into_handle(robotstxt_wasm_answer {
                    cached: answer,
                    profile: core.options().policy.parse.profile(),
                    retry_at,
                });
            }
            Lookup::Fetch(lease) => {
                lookup.kind = super::cache::ROBOTSTXT_LOOKUP_FETCH;
                lookup.lease = into_handle(robotstxt_lease::wrap(lease));
            }
            Lookup::Wait { until } => {
                lookup.kind = super::cache::ROBOTSTXT_LOOKUP_WAIT;
                lookup.until_ms = until;
            }
        }
        // SAFETY: writable per the contract.
        unsafe { out.put(lookup) };
        Ok(())
    })
}

/// Writes what answers for `entry` at `now_ms` as an answer handle (as
/// `robotstxt_entry_answer`, with the entry's retry time).
///
/// # Safety
/// `entry` must be a live handle; `answer_out` writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn robotstxt_wasm_entry_answer(
    entry: *const robotstxt_entry,
    now_ms: u64,
    answer_out: *mut *mut robotstxt_wasm_answer,
) -> robotstxt_status {
    guard("robotstxt_wasm_entry_answer", || {
        // SAFETY: per the contract above.
        let entry = unsafe { handle(entry, "entry")? };
        let out = Out::new(answer_out, "answer_out")?;
        let answer = robotstxt_wasm_answer {
            cached: entry.entry.cached(now_ms, &entry.policy),
            profile: entry.policy.parse.profile(),
            retry_at: entry.entry.retry_at(),
        };
        // SAFETY: writable per the contract.
        unsafe { out.put(into_handle(answer)) };
        Ok(())
    })
}

/// Frees an answer. NULL does nothing.
///
/// # Safety
/// `answer` must be NULL or a live handle, not used again after this.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn robotstxt_wasm_answer_free(answer: *mut robotstxt_wasm_answer) {
    // SAFETY: forwarded to the caller.
    unsafe { free_handle("robotstxt_wasm_answer_free", answer) }
}

/// Writes the answer's kind, retry time and blanket cause.
///
/// # Safety
/// `answer` must be a live handle; `info_out` writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn robotstxt_wasm_answer_info(
    answer: *const robotstxt_wasm_answer,
    info_out: *mut robotstxt_wasm_answer_info,
) -> robotstxt_status {
    guard("robotstxt_wasm_answer_info", || {
        // SAFETY: per the contract above.
        let answer = unsafe { handle(answer, "answer")? };
        let out = Out::new(info_out, "info_out")?;
        let kind = match answer.cached {
            Cached::Rules(_) => ROBOTSTXT_ANSWER_RULES,
            Cached::AllowAll(_) => ROBOTSTXT_ANSWER_ALLOW_ALL,
            Cached::DisallowAll(_) => ROBOTSTXT_ANSWER_DISALLOW_ALL,
        };
        let info = robotstxt_wasm_answer_info {
            kind,
            has_retry_at: answer.retry_at.is_some(),
            retry_at_ms: answer.retry_at.unwrap_or(0),
            blanket: robotstxt_blanket::of(answer.cached.blanket()),
        };
        // SAFETY: writable per the contract.
        unsafe { out.put(info) };
        Ok(())
    })
}

/// Writes the rules for the crawler whose product token is `(token,
/// token_len)` under the answer: the file's, or rules that allow or
/// disallow everything and say why; they carry the answer's retry time.
/// The token is checked as `robotstxt_robots_rules_for` checks it,
/// whatever the answer.
///
/// # Safety
/// `answer` must be a live handle; `token` readable for `token_len` bytes
/// (or NULL when 0); `rules_out` writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn robotstxt_wasm_answer_rules_for(
    answer: *const robotstxt_wasm_answer,
    token: *const u8,
    token_len: usize,
    rules_out: *mut *mut robotstxt_rules,
) -> robotstxt_status {
    guard("robotstxt_wasm_answer_rules_for", || {
        // SAFETY: per the contract above.
        let (answer, token) =
            unsafe { (handle(answer, "answer")?, bytes(token, token_len, "token")?) };
        let out = Out::new(rules_out, "rules_out")?;
        let rules = answer
            .cached
            .rules_for(answer.profile, token)?
            .with_retry_at(answer.retry_at);
        // SAFETY: writable per the contract.
        unsafe { out.put(into_handle(robotstxt_rules { rules })) };
        Ok(())
    })
}

/// Writes a new handle on the parsed file of a `ROBOTSTXT_ANSWER_RULES`
/// answer (it shares the file: cheap), or NULL for a blanket answer.
///
/// # Safety
/// `answer` must be a live handle; `robots_out` writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn robotstxt_wasm_answer_robots(
    answer: *const robotstxt_wasm_answer,
    robots_out: *mut *mut robotstxt_robots,
) -> robotstxt_status {
    guard("robotstxt_wasm_answer_robots", || {
        // SAFETY: per the contract above.
        let answer = unsafe { handle(answer, "answer")? };
        let out = Out::new(robots_out, "robots_out")?;
        let robots = match &answer.cached {
            Cached::Rules(robots) => into_handle(robotstxt_robots {
                robots: robots.clone(),
            }),
            _ => std::ptr::null_mut(),
        };
        // SAFETY: writable per the contract.
        unsafe { out.put(robots) };
        Ok(())
    })
}

/// Writes a new answer: `answer`, saying the file will be fetched at
/// `retry_at_ms` (when `has_retry_at`; else no retry is pending).
///
/// # Safety
/// `answer` must be a live handle; `answer_out` writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn robotstxt_wasm_answer_with_retry_at(
    answer: *const robotstxt_wasm_answer,
    has_retry_at: bool,
    retry_at_ms: u64,
    answer_out: *mut *mut robotstxt_wasm_answer,
) -> robotstxt_status {
    guard("robotstxt_wasm_answer_with_retry_at", || {
        // SAFETY: per the contract above.
        let answer = unsafe { handle(answer, "answer")? };
        let out = Out::new(answer_out, "answer_out")?;
        let made = robotstxt_wasm_answer {
            cached: answer.cached.clone(),
            profile: answer.profile,
            retry_at: has_retry_at.then_some(retry_at_ms),
        };
        // SAFETY: writable per the contract.
        unsafe { out.put(into_handle(made)) };
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_are_aligned_writable_and_freed() {
        for len in [1, 7, 8, 4096] {
            let p = robotstxt_wasm_alloc(len);
            assert!(!p.is_null() && (p as usize).is_multiple_of(ALIGN), "{len}");
            // SAFETY: `len` bytes were just allocated at `p`.
            unsafe {
                p.write_bytes(0xAB, len);
                robotstxt_wasm_free(p, len);
            }
        }
    }

    #[test]
    fn nothing_for_zero_or_an_impossible_length() {
        assert!(robotstxt_wasm_alloc(0).is_null());
        assert!(robotstxt_wasm_alloc(usize::MAX).is_null());
        // SAFETY: NULL is never read.
        unsafe { robotstxt_wasm_free(std::ptr::null_mut(), 3) };
    }

    use super::super::access::robotstxt_fetch;
    use super::super::cache::{
        robotstxt_cache_new, robotstxt_cache_options_default, robotstxt_cache_store,
        robotstxt_lease_free, ROBOTSTXT_LOOKUP_FETCH, ROBOTSTXT_LOOKUP_READY,
    };
    use super::super::robotstxt_str;
    use super::super::rules::{robotstxt_rules_can_fetch, robotstxt_rules_free};
    use super::super::status::{
        ROBOTSTXT_STATUS_INVALID_ARGUMENT, ROBOTSTXT_STATUS_INVALID_TOKEN, ROBOTSTXT_STATUS_OK,
    };

    fn can_fetch(rules: *const robotstxt_rules, url: &str) -> bool {
        let mut ok = false;
        // SAFETY: a live handle and readable text.
        let got = unsafe { robotstxt_rules_can_fetch(rules, url.as_ptr(), url.len(), &mut ok) };
        assert_eq!(got, ROBOTSTXT_STATUS_OK);
        ok
    }

    #[test]
    fn a_cache_answer_gives_rules_for_any_token() {
        const BODY: &[u8] = b"User-agent: a\nDisallow: /a\n\nUser-agent: *\nDisallow: /b\n";
        const URL: &str = "https://example.com/x";
        // SAFETY: every handle is live where used and freed once.
        unsafe {
            let mut cache = std::ptr::null_mut();
            assert_eq!(
                robotstxt_cache_new(&robotstxt_cache_options_default(), &mut cache),
                0
            );
            let mut lookup = std::mem::zeroed::<robotstxt_wasm_lookup>();
            assert_eq!(
                robotstxt_wasm_cache_lookup(cache, URL.as_ptr(), URL.len(), 0, 0, &mut lookup),
                0
            );
            assert_eq!(lookup.kind, ROBOTSTXT_LOOKUP_FETCH);
            let mut issued = false;
            assert_eq!(
                robotstxt_wasm_cache_issued(cache, lookup.lease, &mut issued),
                0
            );
            assert!(issued);
            let fetch = robotstxt_fetch {
                http_status: 200,
                redirects: 0,
                body: robotstxt_str {
                    ptr: BODY.as_ptr(),
                    len: BODY.len(),
                },
                has_max_age: false,
                max_age_ms: 0,
                has_retry_after: false,
                retry_after_ms: 0,
                has_etag: false,
                etag: robotstxt_str::EMPTY,
                has_last_modified: false,
                last_modified: robotstxt_str::EMPTY,
            };
            assert_eq!(
                robotstxt_cache_store(cache, lookup.lease, 1, &fetch, std::ptr::null_mut()),
                0
            );
            assert_eq!(
                robotstxt_wasm_cache_issued(cache, lookup.lease, &mut issued),
                0
            );
            assert!(!issued, "a stored lease has ended");
            robotstxt_lease_free(lookup.lease);

            assert_eq!(
                robotstxt_wasm_cache_lookup(cache, URL.as_ptr(), URL.len(), 2, 0, &mut lookup),
                0
            );
            assert_eq!(lookup.kind, ROBOTSTXT_LOOKUP_READY);
            let answer = lookup.answer;
            let mut info = std::mem::zeroed::<robotstxt_wasm_answer_info>();
            assert_eq!(robotstxt_wasm_answer_info(answer, &mut info), 0);
            assert_eq!(info.kind, ROBOTSTXT_ANSWER_RULES);
            assert!(!info.has_retry_at && !info.blanket.is_blanket);
            for (token, path, want) in [("a", "/a", false), ("a", "/b", true), ("z", "/b", false)] {
                let mut rules = std::ptr::null_mut();
                assert_eq!(
                    robotstxt_wasm_answer_rules_for(answer, token.as_ptr(), 1, &mut rules),
                    0
                );
                assert_eq!(can_fetch(rules, path), want, "{token} {path}");
                robotstxt_rules_free(rules);
            }
            let mut rules = std::ptr::null_mut();
            let bad = "a/1";
            assert_eq!(
                robotstxt_wasm_answer_rules_for(answer, bad.as_ptr(), bad.len(), &mut rules),
                ROBOTSTXT_STATUS_INVALID_TOKEN
            );
            let mut robots = std::ptr::null_mut();
            assert_eq!(robotstxt_wasm_answer_robots(answer, &mut robots), 0);
            let (mut groups, mut count) = (0, 0);
            assert_eq!(
                robotstxt_wasm_robots_counts(robots, &mut groups, &mut count),
                0
            );
            assert_eq!((groups, count), (2, 2));
            super::super::robots::robotstxt_robots_free(robots);

            let mut later = std::ptr::null_mut();
            assert_eq!(
                robotstxt_wasm_answer_with_retry_at(answer, true, 99, &mut later),
                0
            );
            assert_eq!(robotstxt_wasm_answer_info(later, &mut info), 0);
            assert!(info.has_retry_at && info.retry_at_ms == 99);
            robotstxt_wasm_answer_free(later);
            robotstxt_wasm_answer_free(answer);
            super::super::cache::robotstxt_cache_free(cache);
        }
    }

    #[test]
    fn blanket_rules_counts_and_gaps() {
        // SAFETY: every handle is live where used and freed once.
        unsafe {
            let mut rules = std::ptr::null_mut();
            assert_eq!(robotstxt_wasm_rules_blanket(false, 1, &mut rules), 0);
            assert!(!can_fetch(rules, "/x"));
            let (mut count, mut profile) = (9, 9);
            assert_eq!(
                robotstxt_wasm_rules_info(rules, &mut count, &mut profile),
                0
            );
            assert_eq!((count, profile), (0, 1));
            robotstxt_rules_free(rules);
            assert_ne!(robotstxt_wasm_rules_blanket(true, 7, &mut rules), 0);

            let mut gap = 0;
            assert_eq!(robotstxt_wasm_delay_ms(true, 2.5, false, 0, 0, &mut gap), 0);
            assert_eq!(gap, 2500);
            assert_eq!(robotstxt_wasm_delay_ms(true, 1.0, true, 3, 1, &mut gap), 0);
            assert_eq!(gap, 1000);
            assert_eq!(robotstxt_wasm_delay_ms(false, 0.0, true, 3, 1, &mut gap), 0);
            assert_eq!(gap, 334, "fractions of a ms round up");
            assert_eq!(
                robotstxt_wasm_delay_ms(true, -1.0, false, 0, 0, &mut gap),
                ROBOTSTXT_STATUS_INVALID_ARGUMENT
            );
            assert_eq!(
                robotstxt_wasm_delay_ms(false, 0.0, true, 0, 1, &mut gap),
                ROBOTSTXT_STATUS_INVALID_ARGUMENT
            );
        }
    }
}
