//! `robotstxt_rules`: the compiled matcher for one crawler; can_fetch,
//! decide, crawl delay and request rate.

use std::ffi::{c_char, CStr};

use super::status::robotstxt_status;
use super::{bytes, free_handle, guard, guard_value, handle, into_handle, robotstxt_str, Out};
use engine::{Cause, DecisionKind, Rules};

/// The rules that apply to one crawler. Immutable: any number of threads
/// may use one handle at the same time. Independent of the
/// `robotstxt_robots` it came from (freeing that first is fine). Free it
/// with `robotstxt_rules_free`.
pub struct robotstxt_rules {
    pub(super) rules: Rules,
}

/// Which kind of rule decided, or that none matched.
pub type robotstxt_decision_kind = u32;

/// No rule matched (or the RFC `/robots.txt` exemption applied): allowed.
pub const ROBOTSTXT_DECISION_NONE: robotstxt_decision_kind = 0;
/// An `allow` rule decided.
pub const ROBOTSTXT_DECISION_ALLOW: robotstxt_decision_kind = 1;
/// A `disallow` rule decided.
pub const ROBOTSTXT_DECISION_DISALLOW: robotstxt_decision_kind = 2;
/// No file's rules: the robots.txt is unavailable (a 404, say) and
/// everything is allowed. `robotstxt_rules_blanket` says why.
pub const ROBOTSTXT_DECISION_ALLOW_ALL: robotstxt_decision_kind = 3;
/// No file's rules: the robots.txt is unreachable (a 5xx, a network error,
/// not fetched yet) and everything is disallowed until the next try.
/// `robotstxt_rules_blanket` says why, `robotstxt_rules_retry_at` when.
pub const ROBOTSTXT_DECISION_DISALLOW_ALL: robotstxt_decision_kind = 4;

/// Why a blanket answer stands where a file's rules would.
pub type robotstxt_cause = u32;

/// Not a blanket answer: a file's rules.
pub const ROBOTSTXT_CAUSE_NONE: robotstxt_cause = 0;
/// The fetch ended with `http_status` after `redirects` redirects.
pub const ROBOTSTXT_CAUSE_STATUS: robotstxt_cause = 1;
/// The fetch got no response: a network error or a timeout.
pub const ROBOTSTXT_CAUSE_NO_RESPONSE: robotstxt_cause = 2;
/// No fetch has been stored for the origin yet.
pub const ROBOTSTXT_CAUSE_NOT_FETCHED: robotstxt_cause = 3;
/// The file stayed unreachable past the policy's limit, which then allows
/// all.
pub const ROBOTSTXT_CAUSE_UNREACHABLE_LIMIT: robotstxt_cause = 4;
/// Made by the caller.
pub const ROBOTSTXT_CAUSE_CALLER: robotstxt_cause = 5;

/// A blanket answer and its cause.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct robotstxt_blanket {
    /// Whether these rules answer for every URL at once.
    pub is_blanket: bool,
    /// For a blanket answer: everything allowed, else everything
    /// disallowed.
    pub allowed: bool,
    /// A `ROBOTSTXT_CAUSE_*` value.
    pub cause: robotstxt_cause,
    /// `ROBOTSTXT_CAUSE_STATUS`: the final HTTP status; else 0.
    pub http_status: u16,
    /// `ROBOTSTXT_CAUSE_STATUS`: the redirects followed; else 0.
    pub redirects: u32,
}

impl robotstxt_blanket {
    pub(super) fn of(blanket: Option<engine::Blanket>) -> robotstxt_blanket {
        let mut out = robotstxt_blanket {
            is_blanket: blanket.is_some(),
            allowed: blanket.is_some_and(|b| b.allowed),
            cause: ROBOTSTXT_CAUSE_NONE,
            http_status: 0,
            redirects: 0,
        };
        if let Some(b) = blanket {
            out.cause = match b.cause {
                Cause::Status { status, redirects } => {
                    out.http_status = status;
                    out.redirects = redirects;
                    ROBOTSTXT_CAUSE_STATUS
                }
                Cause::NoResponse => ROBOTSTXT_CAUSE_NO_RESPONSE,
                Cause::NotFetched => ROBOTSTXT_CAUSE_NOT_FETCHED,
                Cause::UnreachableLimit => ROBOTSTXT_CAUSE_UNREACHABLE_LIMIT,
                Cause::Caller => ROBOTSTXT_CAUSE_CALLER,
            };
        }
        out
    }
}

/// The answer for one URL and the line that gave it.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct robotstxt_decision {
    /// May the crawler fetch the URL.
    pub allowed: bool,
    /// The deciding rule's 1-based line, or 0 when no rule matched or a
    /// blanket answer decided.
    pub line: u32,
    /// A `ROBOTSTXT_DECISION_*` value.
    pub kind: robotstxt_decision_kind,
    /// The deciding pattern as compared (percent-normalised for the
    /// profile; `/dir/$` for Google's index.html rule), or `(NULL, 0)`.
    /// Borrows from the rules handle: valid until it is freed.
    pub pattern: robotstxt_str,
}

/// A core decision as C sees it; the pattern borrows from `d`'s owner.
pub(super) fn decision_of(d: &engine::Decision<'_>) -> robotstxt_decision {
    robotstxt_decision {
        allowed: d.allowed,
        line: d.line,
        kind: match d.kind {
            DecisionKind::NoMatch => ROBOTSTXT_DECISION_NONE,
            DecisionKind::Allow => ROBOTSTXT_DECISION_ALLOW,
            DecisionKind::Disallow => ROBOTSTXT_DECISION_DISALLOW,
            DecisionKind::AllowAll => ROBOTSTXT_DECISION_ALLOW_ALL,
            DecisionKind::DisallowAll => ROBOTSTXT_DECISION_DISALLOW_ALL,
        },
        pattern: robotstxt_str::borrow(d.pattern.as_bytes()),
    }
}

/// Frees a handle from `robotstxt_robots_rules_for*`. NULL does nothing.
///
/// # Safety
/// `rules` must be NULL or a live handle, not used again after this.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn robotstxt_rules_free(rules: *mut robotstxt_rules) {
    // SAFETY: forwarded to the caller.
    unsafe { free_handle("robotstxt_rules_free", rules) }
}

/// Writes to `*allowed_out` whether the crawler may fetch the `url_len`
/// bytes at `url`: absolute (`https://host/a?b`), scheme-relative or a
/// path. Only path, params and query are matched. Allocates nothing but
/// the index the rules build once, after their first few checks (see
/// `robotstxt_rules_compile`).
///
/// # Safety
/// `rules` must be a live handle; `url` readable for `url_len` bytes (or
/// NULL when 0); `allowed_out` writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn robotstxt_rules_can_fetch(
    rules: *const robotstxt_rules,
    url: *const u8,
    url_len: usize,
    allowed_out: *mut bool,
) -> robotstxt_status {
    guard("robotstxt_rules_can_fetch", || {
        // SAFETY: per the contract above.
        let (rules, url) = unsafe { (handle(rules, "rules")?, bytes(url, url_len, "url")?) };
        let out = Out::new(allowed_out, "allowed_out")?;
        let allowed = rules.rules.can_fetch(url);
        // SAFETY: writable per the contract.
        unsafe { out.put(allowed) };
        Ok(())
    })
}

/// Writes the answer for `url` and the rule that decided it to
/// `*decision_out` (see `robotstxt_rules_can_fetch` for `url`). The
/// pattern borrows from `rules`.
///
/// # Safety
/// As for `robotstxt_rules_can_fetch`; `decision_out` writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn robotstxt_rules_decide(
    rules: *const robotstxt_rules,
    url: *const u8,
    url_len: usize,
    decision_out: *mut robotstxt_decision,
) -> robotstxt_status {
    guard("robotstxt_rules_decide", || {
        // SAFETY: per the contract above.
        let (rules, url) = unsafe { (handle(rules, "rules")?, bytes(url, url_len, "url")?) };
        let out = Out::new(decision_out, "decision_out")?;
        let decision = decision_of(&rules.rules.decide(url));
        // SAFETY: writable per the contract.
        unsafe { out.put(decision) };
        Ok(())
    })
}

/// Writes to `*blanket_out` whether these rules are a blanket answer (from
/// a cache, for a robots.txt it could not use, or made by the caller) and
/// the fetch outcome that caused it.
///
/// # Safety
/// `rules` must be a live handle; `blanket_out` writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn robotstxt_rules_blanket(
    rules: *const robotstxt_rules,
    blanket_out: *mut robotstxt_blanket,
) -> robotstxt_status {
    guard("robotstxt_rules_blanket", || {
        // SAFETY: per the contract above.
        let rules = unsafe { handle(rules, "rules")? };
        let out = Out::new(blanket_out, "blanket_out")?;
        // SAFETY: writable per the contract.
        unsafe { out.put(robotstxt_blanket::of(rules.rules.blanket())) };
        Ok(())
    })
}

/// Writes when the cache that handed these rules out will fetch the
/// robots.txt again (ms, the clock of the lookup) to `*retry_at_ms_out`,
/// and true to `*has_retry_at_out`, when its last fetch failed: the rules
/// are then an old copy kept meanwhile, or a disallow-all. Otherwise 0 and
/// false.
///
/// # Safety
/// `rules` must be a live handle; both outputs writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn robotstxt_rules_retry_at(
    rules: *const robotstxt_rules,
    retry_at_ms_out: *mut u64,
    has_retry_at_out: *mut bool,
) -> robotstxt_status {
    guard("robotstxt_rules_retry_at", || {
        // SAFETY: per the contract above.
        let rules = unsafe { handle(rules, "rules")? };
        let at = Out::new(retry_at_ms_out, "retry_at_ms_out")?;
        let has = Out::new(has_retry_at_out, "has_retry_at_out")?;
        let retry_at = rules.rules.retry_at();
        // SAFETY: writable per the contract.
        unsafe {
            at.put(retry_at.unwrap_or(0));
            has.put(retry_at.is_some());
        }
        Ok(())
    })
}

/// Writes to `*rules_out` a copy of `rules` that says to ask again at
/// `retry_at_ms` (`robotstxt_rules_retry_at`): what a fleet answers while
/// another worker fetches, the rules of an entry that knows no copy yet,
/// until that worker's lease runs out. The caller owns `*rules_out` and
/// frees it with `robotstxt_rules_free`.
///
/// # Safety
/// `rules` must be a live handle; `rules_out` writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn robotstxt_rules_with_retry_at(
    rules: *const robotstxt_rules,
    retry_at_ms: u64,
    rules_out: *mut *mut robotstxt_rules,
) -> robotstxt_status {
    guard("robotstxt_rules_with_retry_at", || {
        // SAFETY: per the contract above.
        let rules = unsafe { handle(rules, "rules")? };
        let out = Out::new(rules_out, "rules_out")?;
        let copy = rules.rules.clone().with_retry_at(Some(retry_at_ms));
        // SAFETY: writable per the contract.
        unsafe { out.put(into_handle(robotstxt_rules { rules: copy })) };
        Ok(())
    })
}

/// Builds the rules' index now, where the check after their first few
/// would: the first checks of a selection scan its rules, which costs less
/// when a copy of robots.txt gets a handful of questions, and the next one
/// builds the index every later check uses (once per handle, whichever
/// thread gets there). Call this to have no check allocate at all. Changes
/// no answer.
///
/// # Safety
/// `rules` must be a live handle.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn robotstxt_rules_compile(
    rules: *const robotstxt_rules,
) -> robotstxt_status {
    guard("robotstxt_rules_compile", || {
        // SAFETY: per the contract above.
        let rules = unsafe { handle(rules, "rules")? };
        rules.rules.compile();
        Ok(())
    })
}

/// Writes the crawl delay in seconds to `*seconds_out` (such as 2.5) and
/// whether the selected groups set one to `*has_value_out`: the largest
/// valid `crawl-delay` among them. Without one, `*seconds_out` is 0 and
/// your own floor applies.
///
/// # Safety
/// `rules` must be a live handle; both outputs writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn robotstxt_rules_crawl_delay(
    rules: *const robotstxt_rules,
    seconds_out: *mut f64,
    has_value_out: *mut bool,
) -> robotstxt_status {
    guard("robotstxt_rules_crawl_delay", || {
        // SAFETY: per the contract above.
        let rules = unsafe { handle(rules, "rules")? };
        let seconds = Out::new(seconds_out, "seconds_out")?;
        let has_value = Out::new(has_value_out, "has_value_out")?;
        let delay = rules.rules.crawl_delay();
        // SAFETY: writable per the contract.
        unsafe {
            seconds.put(delay.map_or(0.0, |d| d.as_secs_f64()));
            has_value.put(delay.is_some());
        }
        Ok(())
    })
}

/// Writes the slowest valid `request-rate` of the selected groups:
/// `*requests_out` requests per `*seconds_out` seconds (an interval of
/// seconds / requests), and whether there is one to `*has_value_out`.
/// Without one, both numbers are 0.
///
/// # Safety
/// `rules` must be a live handle; the three outputs writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn robotstxt_rules_request_rate(
    rules: *const robotstxt_rules,
    requests_out: *mut u32,
    seconds_out: *mut u32,
    has_value_out: *mut bool,
) -> robotstxt_status {
    guard("robotstxt_rules_request_rate", || {
        // SAFETY: per the contract above.
        let rules = unsafe { handle(rules, "rules")? };
        let requests = Out::new(requests_out, "requests_out")?;
        let seconds = Out::new(seconds_out, "seconds_out")?;
        let has_value = Out::new(has_value_out, "has_value_out")?;
        let rate = rules.rules.request_rate();
        // SAFETY: writable per the contract.
        unsafe {
            requests.put(rate.map_or(0, |r| r.requests));
            seconds.put(rate.map_or(0, |r| r.seconds));
            has_value.put(rate.is_some());
        }
        Ok(())
    })
}

/// The name of a `ROBOTSTXT_DECISION_*` kind: `"none"`, `"allow"` or
/// `"disallow"`. A static, NUL-terminated string; NULL for an unknown value.
#[unsafe(no_mangle)]
pub extern "C" fn robotstxt_decision_kind_name(kind: robotstxt_decision_kind) -> *const c_char {
    guard_value("robotstxt_decision_kind_name", std::ptr::null(), || {
        decision_kind_name(kind).map_or(std::ptr::null(), CStr::as_ptr)
    })
}

fn decision_kind_name(kind: robotstxt_decision_kind) -> Option<&'static CStr> {
    Some(match kind {
        ROBOTSTXT_DECISION_NONE => c"none",
        ROBOTSTXT_DECISION_ALLOW => c"allow",
        ROBOTSTXT_DECISION_DISALLOW => c"disallow",
        ROBOTSTXT_DECISION_ALLOW_ALL => c"allow-all",
        ROBOTSTXT_DECISION_DISALLOW_ALL => c"disallow-all",
        _ => return None,
    })
}

/// The name of a `ROBOTSTXT_CAUSE_*` value, as the other bindings spell
/// it: `"none"`, `"status"`, `"no-response"`, `"not-fetched"`,
/// `"unreachable-limit"` or `"caller"`; a static, NUL-terminated string.
/// NULL for an unknown value.
#[unsafe(no_mangle)]
pub extern "C" fn robotstxt_cause_name(cause: robotstxt_cause) -> *const c_char {
    guard_value("robotstxt_cause_name", std::ptr::null(), || {
        cause_name(cause).map_or(std::ptr::null(), CStr::as_ptr)
    })
}

fn cause_name(cause: robotstxt_cause) -> Option<&'static CStr> {
    Some(match cause {
        ROBOTSTXT_CAUSE_NONE => c"none",
        ROBOTSTXT_CAUSE_STATUS => c"status",
        ROBOTSTXT_CAUSE_NO_RESPONSE => c"no-response",
        ROBOTSTXT_CAUSE_NOT_FETCHED => c"not-fetched",
        ROBOTSTXT_CAUSE_UNREACHABLE_LIMIT => c"unreachable-limit",
        ROBOTSTXT_CAUSE_CALLER => c"caller",
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_match_the_core() {
        for (code, kind) in [
            (ROBOTSTXT_DECISION_NONE, DecisionKind::NoMatch),
            (ROBOTSTXT_DECISION_ALLOW, DecisionKind::Allow),
            (ROBOTSTXT_DECISION_DISALLOW, DecisionKind::Disallow),
            (ROBOTSTXT_DECISION_ALLOW_ALL, DecisionKind::AllowAll),
            (ROBOTSTXT_DECISION_DISALLOW_ALL, DecisionKind::DisallowAll),
        ] {
            let name = decision_kind_name(code).unwrap().to_str().unwrap();
            assert_eq!(name, kind.name());
        }
        assert_eq!(decision_kind_name(5), None);
    }

    #[test]
    fn cause_names_match_the_core() {
        let status = Cause::Status {
            status: 503,
            redirects: 0,
        };
        for cause in [
            status,
            Cause::NoResponse,
            Cause::NotFetched,
            Cause::UnreachableLimit,
            Cause::Caller,
        ] {
            let blanket = robotstxt_blanket::of(Some(engine::Blanket {
                allowed: false,
                cause,
            }));
            let name = cause_name(blanket.cause).unwrap().to_str().unwrap();
            assert_eq!(name, cause.name());
        }
        assert_eq!(cause_name(ROBOTSTXT_CAUSE_NONE).unwrap(), c"none");
        assert_eq!(cause_name(6), None);
    }
}
