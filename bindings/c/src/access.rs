//! The outcome of fetching `/robots.txt` → what to do (RFC 9309 §2.3.1).
//! The library does no I/O: the caller fetches and reports.

use super::options::robotstxt_options;
use super::robots::robotstxt_robots;
use super::status::{robotstxt_status, Failure};
use super::{guard, guard_value, handle, into_handle, robotstxt_str, text, Out, Outcome};
use engine::access::{self, Access, AccessPolicy, Disposition};
use engine::FetchResult;

/// How to read the statuses where RFC 9309 leaves a choice.
pub type robotstxt_access_policy = u32;

/// The default: 401, 403 and 429 disallow everything until a retry.
pub const ROBOTSTXT_ACCESS_CAREFUL: robotstxt_access_policy = 0;
/// RFC 9309 to the letter: 401, 403 and 429 allow everything.
pub const ROBOTSTXT_ACCESS_STRICT_RFC: robotstxt_access_policy = 1;

/// What a fetch outcome means.
pub type robotstxt_disposition = u32;

/// 2xx in at most 5 redirects: parse the body and follow its rules.
pub const ROBOTSTXT_DISPOSITION_FOLLOW_RULES: robotstxt_disposition = 0;
/// Unavailable (404, 410, other 4xx, more than 5 redirects): crawl
/// everything.
pub const ROBOTSTXT_DISPOSITION_ALLOW_ALL: robotstxt_disposition = 1;
/// Unreachable or refused (5xx, no response, 401/403/429 when careful, an
/// unfollowed 3xx, 1xx, 6xx…): crawl nothing and fetch again later.
pub const ROBOTSTXT_DISPOSITION_DISALLOW_ALL: robotstxt_disposition = 2;
/// 304 to a conditional request: keep the cached copy, renewed.
pub const ROBOTSTXT_DISPOSITION_NOT_MODIFIED: robotstxt_disposition = 3;

/// What a fetch of `/robots.txt` returned. Zero-initialise it
/// (`robotstxt_fetch f = {0};`) and set what you have: every optional field
/// is then absent.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct robotstxt_fetch {
    /// The final HTTP status, or 0 for a network error or timeout (no
    /// response, as libcurl reports it).
    pub http_status: u16,
    /// How many redirects were followed to reach it.
    pub redirects: u32,
    /// The body, for a 2xx.
    pub body: robotstxt_str,
    /// Whether `max_age_ms` is set.
    pub has_max_age: bool,
    /// `Cache-Control: max-age`, in milliseconds: may shorten freshness.
    pub max_age_ms: u64,
    /// Whether `retry_after_ms` is set.
    pub has_retry_after: bool,
    /// `Retry-After`, in milliseconds: when to try again after a failure.
    pub retry_after_ms: u64,
    /// Whether `etag` is set.
    pub has_etag: bool,
    /// The `ETag` header.
    pub etag: robotstxt_str,
    /// Whether `last_modified` is set.
    pub has_last_modified: bool,
    /// The `Last-Modified` header.
    pub last_modified: robotstxt_str,
}

pub(super) fn access_policy(code: robotstxt_access_policy) -> Outcome<AccessPolicy> {
    match code {
        ROBOTSTXT_ACCESS_CAREFUL => Ok(AccessPolicy::Careful),
        ROBOTSTXT_ACCESS_STRICT_RFC => Ok(AccessPolicy::StrictRfc),
        _ => Err(Failure::option(
            "access policy",
            "ROBOTSTXT_ACCESS_CAREFUL (0) or ROBOTSTXT_ACCESS_STRICT_RFC (1)",
        )),
    }
}

pub(super) fn disposition_code(d: Disposition) -> robotstxt_disposition {
    match d {
        Disposition::FollowRules => ROBOTSTXT_DISPOSITION_FOLLOW_RULES,
        Disposition::AllowAll => ROBOTSTXT_DISPOSITION_ALLOW_ALL,
        Disposition::DisallowAll => ROBOTSTXT_DISPOSITION_DISALLOW_ALL,
        Disposition::NotModified => ROBOTSTXT_DISPOSITION_NOT_MODIFIED,
    }
}

/// 0 is "no response", never an HTTP status.
fn http_status(code: u16) -> Option<u16> {
    (code != 0).then_some(code)
}

impl robotstxt_fetch {
    /// The core's view, borrowing the C buffers.
    ///
    /// # Safety
    /// Every set text field must be valid text for `'a`.
    pub(super) unsafe fn to_core<'a>(self) -> Outcome<FetchResult<'a>> {
        // SAFETY: forwarded to the caller.
        let optional = |set: bool, s: robotstxt_str, name| -> Outcome<Option<&'a [u8]>> {
            set.then(|| unsafe { text(s, name) }).transpose()
        };
        Ok(FetchResult {
            status: http_status(self.http_status),
            redirects: self.redirects,
            // SAFETY: forwarded to the caller.
            body: unsafe { text(self.body, "fetch->body")? },
            max_age_ms: self.has_max_age.then_some(self.max_age_ms),
            retry_after_ms: self.has_retry_after.then_some(self.retry_after_ms),
            etag: optional(self.has_etag, self.etag, "fetch->etag")?,
            last_modified: optional(
                self.has_last_modified,
                self.last_modified,
                "fetch->last_modified",
            )?,
        })
    }
}

/// Classifies a fetch of `/robots.txt` (behaviour §6) and writes the
/// `ROBOTSTXT_DISPOSITION_*` value to `*disposition_out`. `http_status` is
/// the final status, or 0 for a network error or timeout; `redirects` how
/// many redirects were followed. An unknown `policy` gives
/// `ROBOTSTXT_STATUS_INVALID_OPTION`.
///
/// # Safety
/// `disposition_out` must be writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn robotstxt_access_classify(
    http_status: u16,
    redirects: u32,
    policy: robotstxt_access_policy,
    disposition_out: *mut robotstxt_disposition,
) -> robotstxt_status {
    guard("robotstxt_access_classify", || {
        let out = Out::new(disposition_out, "disposition_out")?;
        let d = access::classify(
            self::http_status(http_status),
            redirects,
            access_policy(policy)?,
        );
        // SAFETY: writable per the contract.
        unsafe { out.put(disposition_code(d)) };
        Ok(())
    })
}

/// Classifies `*fetch` as `robotstxt_access_classify` does and, for
/// `ROBOTSTXT_DISPOSITION_FOLLOW_RULES`, parses its body with `*options`
/// into a new handle at `*robots_out` (which the caller then owns and
/// frees). For every other disposition `*robots_out` is set to NULL. Only
/// the status, redirects and body of `*fetch` are read.
///
/// # Safety
/// `fetch` and `options` must point to valid structs, with `fetch->body`
/// valid text; `disposition_out` and `robots_out` must be writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn robotstxt_access_from_outcome(
    fetch: *const robotstxt_fetch,
    policy: robotstxt_access_policy,
    options: *const robotstxt_options,
    disposition_out: *mut robotstxt_disposition,
    robots_out: *mut *mut robotstxt_robots,
) -> robotstxt_status {
    guard("robotstxt_access_from_outcome", || {
        // SAFETY: per the contract above.
        let (fetch, options) = unsafe { (handle(fetch, "fetch")?, handle(options, "options")?) };
        // Only the status, redirects and body, as documented: validators
        // this call ignores must not make it fail.
        // SAFETY: per the contract above.
        let body = unsafe { text(fetch.body, "fetch->body")? };
        let (policy, options) = (access_policy(policy)?, options.to_core()?);
        let disposition = Out::new(disposition_out, "disposition_out")?;
        let robots = Out::new(robots_out, "robots_out")?;
        let access = access::from_outcome(
            http_status(fetch.http_status),
            fetch.redirects,
            body,
            policy,
            &options,
        );
        let (code, handle) = match access {
            Access::FollowRules(robots) => (
                ROBOTSTXT_DISPOSITION_FOLLOW_RULES,
                into_handle(robotstxt_robots { robots }),
            ),
            Access::AllowAll => (ROBOTSTXT_DISPOSITION_ALLOW_ALL, std::ptr::null_mut()),
            Access::DisallowAll => (ROBOTSTXT_DISPOSITION_DISALLOW_ALL, std::ptr::null_mut()),
            Access::NotModified => (ROBOTSTXT_DISPOSITION_NOT_MODIFIED, std::ptr::null_mut()),
        };
        // SAFETY: writable per the contract.
        unsafe {
            disposition.put(code);
            robots.put(handle);
        }
        Ok(())
    })
}

/// Whether `disposition` is a failure to retry later
/// (`ROBOTSTXT_DISPOSITION_DISALLOW_ALL`). False for unknown values.
#[unsafe(no_mangle)]
pub extern "C" fn robotstxt_disposition_retry_later(disposition: robotstxt_disposition) -> bool {
    guard_value("robotstxt_disposition_retry_later", false, || {
        let d = match disposition {
            ROBOTSTXT_DISPOSITION_FOLLOW_RULES => Disposition::FollowRules,
            ROBOTSTXT_DISPOSITION_ALLOW_ALL => Disposition::AllowAll,
            ROBOTSTXT_DISPOSITION_DISALLOW_ALL => Disposition::DisallowAll,
            ROBOTSTXT_DISPOSITION_NOT_MODIFIED => Disposition::NotModified,
            _ => return false,
        };
        d.retry_later()
    })
}
