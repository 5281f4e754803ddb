//! Per-line diagnostics of a parse, for linting, and their names.

use std::ffi::{c_char, CStr};

use super::robots::robotstxt_robots;
use super::status::{robotstxt_status, Failure};
use super::{guard, guard_value, handle, Out};
use engine::{Diagnostic, LineKind};

/// What a line is, from its key.
pub type robotstxt_line_kind = u32;

/// `user-agent` (also the typos `useragent`, `user agent`).
pub const ROBOTSTXT_LINE_USER_AGENT: robotstxt_line_kind = 0;
/// `allow`.
pub const ROBOTSTXT_LINE_ALLOW: robotstxt_line_kind = 1;
/// `disallow` (also its accepted typos).
pub const ROBOTSTXT_LINE_DISALLOW: robotstxt_line_kind = 2;
/// `sitemap` (also `site-map`).
pub const ROBOTSTXT_LINE_SITEMAP: robotstxt_line_kind = 3;
/// `crawl-delay` (extension).
pub const ROBOTSTXT_LINE_CRAWL_DELAY: robotstxt_line_kind = 4;
/// `request-rate` (extension).
pub const ROBOTSTXT_LINE_REQUEST_RATE: robotstxt_line_kind = 5;
/// `host` (Yandex extension).
pub const ROBOTSTXT_LINE_HOST: robotstxt_line_kind = 6;
/// A key the library does not know; the line is ignored.
pub const ROBOTSTXT_LINE_UNKNOWN: robotstxt_line_kind = 7;
/// Neither blank nor a comment, yet no key; the line is ignored.
pub const ROBOTSTXT_LINE_INVALID: robotstxt_line_kind = 8;
/// `content-usage` (usage preferences, behaviour §10).
pub const ROBOTSTXT_LINE_CONTENT_USAGE: robotstxt_line_kind = 9;
/// `content-signal` (also `content-signals`; behaviour §10.5).
pub const ROBOTSTXT_LINE_CONTENT_SIGNAL: robotstxt_line_kind = 10;

/// A set of `ROBOTSTXT_FLAG_*` bits.
pub type robotstxt_diagnostic_flags = u32;

/// Flag bit: the key is one of Google's accepted typos (`dissallow`…).
pub const ROBOTSTXT_FLAG_TYPO: robotstxt_diagnostic_flags = 1 << 0;
/// Flag bit: `key value` without a colon, accepted as Google does.
pub const ROBOTSTXT_FLAG_MISSING_COLON: robotstxt_diagnostic_flags = 1 << 1;
/// Flag bit: Google profile, the line was cut to 16,663 bytes.
pub const ROBOTSTXT_FLAG_TOO_LONG: robotstxt_diagnostic_flags = 1 << 2;
/// Flag bit: a group record before any `user-agent` line; ignored.
pub const ROBOTSTXT_FLAG_OUTSIDE_GROUP: robotstxt_diagnostic_flags = 1 << 3;
/// Flag bit: a `crawl-delay` or `request-rate` that does not parse
/// (ignored), or an `allow`/`disallow` value that starts with neither `/`
/// nor `*` (still applied).
pub const ROBOTSTXT_FLAG_INVALID_VALUE: robotstxt_diagnostic_flags = 1 << 4;
/// Flag bit: the key is none the library knows; the line is ignored.
pub const ROBOTSTXT_FLAG_UNKNOWN_KEY: robotstxt_diagnostic_flags = 1 << 5;
/// Flag bit: a `content-usage` statement that is no RFC 9651 Dictionary;
/// the rule is kept and states nothing.
pub const ROBOTSTXT_FLAG_INVALID_STATEMENT: robotstxt_diagnostic_flags = 1 << 6;
/// Flag bit: a `content-usage` path with no statement; the rule is kept
/// and states nothing.
pub const ROBOTSTXT_FLAG_EMPTY_STATEMENT: robotstxt_diagnostic_flags = 1 << 7;
/// Flag bit: a `content-usage` label whose value is not the token `y` or
/// `n` (unknown), or a `content-signal` member not `key=yes|no` (ignored).
pub const ROBOTSTXT_FLAG_UNKNOWN_PREFERENCE: robotstxt_diagnostic_flags = 1 << 8;

/// What one line has to report.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct robotstxt_diagnostic {
    /// The 1-based line number.
    pub line: u32,
    /// A `ROBOTSTXT_LINE_*` value.
    pub kind: robotstxt_line_kind,
    /// `ROBOTSTXT_FLAG_*` bits; `robotstxt_diagnostic_flag_name` names each.
    pub flags: robotstxt_diagnostic_flags,
}

fn kind_code(kind: LineKind) -> robotstxt_line_kind {
    match kind {
        LineKind::UserAgent => ROBOTSTXT_LINE_USER_AGENT,
        LineKind::Allow => ROBOTSTXT_LINE_ALLOW,
        LineKind::Disallow => ROBOTSTXT_LINE_DISALLOW,
        LineKind::Sitemap => ROBOTSTXT_LINE_SITEMAP,
        LineKind::CrawlDelay => ROBOTSTXT_LINE_CRAWL_DELAY,
        LineKind::RequestRate => ROBOTSTXT_LINE_REQUEST_RATE,
        LineKind::Host => ROBOTSTXT_LINE_HOST,
        LineKind::Unknown => ROBOTSTXT_LINE_UNKNOWN,
        LineKind::Invalid => ROBOTSTXT_LINE_INVALID,
        LineKind::ContentUsage => ROBOTSTXT_LINE_CONTENT_USAGE,
        LineKind::ContentSignal => ROBOTSTXT_LINE_CONTENT_SIGNAL,
        // A kind newer than this header.
        _ => ROBOTSTXT_LINE_UNKNOWN,
    }
}

fn flags(d: &Diagnostic) -> robotstxt_diagnostic_flags {
    [
        (d.typo, ROBOTSTXT_FLAG_TYPO),
        (d.missing_colon, ROBOTSTXT_FLAG_MISSING_COLON),
        (d.too_long, ROBOTSTXT_FLAG_TOO_LONG),
        (d.outside_group, ROBOTSTXT_FLAG_OUTSIDE_GROUP),
        (d.invalid_value, ROBOTSTXT_FLAG_INVALID_VALUE),
        (d.unknown_key, ROBOTSTXT_FLAG_UNKNOWN_KEY),
        (d.invalid_statement, ROBOTSTXT_FLAG_INVALID_STATEMENT),
        (d.empty_statement, ROBOTSTXT_FLAG_EMPTY_STATEMENT),
        (d.unknown_preference, ROBOTSTXT_FLAG_UNKNOWN_PREFERENCE),
    ]
    .into_iter()
    .filter(|&(set, _)| set)
    .fold(0, |bits, (_, bit)| bits | bit)
}

/// Writes how many lines have something to report to `*count_out`: unknown
/// and invalid lines, and lines with a flag. Blank and comment lines never
/// count.
///
/// # Safety
/// `robots` must be a live handle; `count_out` writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn robotstxt_robots_diagnostic_count(
    robots: *const robotstxt_robots,
    count_out: *mut usize,
) -> robotstxt_status {
    guard("robotstxt_robots_diagnostic_count", || {
        // SAFETY: per the contract above.
        let robots = unsafe { handle(robots, "robots")? };
        let out = Out::new(count_out, "count_out")?;
        // SAFETY: writable per the contract.
        unsafe { out.put(robots.robots.diagnostics().len()) };
        Ok(())
    })
}

/// Writes the `index`-th diagnostic (from 0, in line order) to
/// `*diagnostic_out`. An index at or past the count gives
/// `ROBOTSTXT_STATUS_INDEX_OUT_OF_RANGE`.
///
/// # Safety
/// `robots` must be a live handle; `diagnostic_out` writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn robotstxt_robots_diagnostic(
    robots: *const robotstxt_robots,
    index: usize,
    diagnostic_out: *mut robotstxt_diagnostic,
) -> robotstxt_status {
    guard("robotstxt_robots_diagnostic", || {
        // SAFETY: per the contract above.
        let robots = unsafe { handle(robots, "robots")? };
        let out = Out::new(diagnostic_out, "diagnostic_out")?;
        let all = robots.robots.diagnostics();
        let d = all
            .get(index)
            .ok_or_else(|| Failure::index("diagnostic", index, all.len()))?;
        let value = robotstxt_diagnostic {
            line: d.line,
            kind: kind_code(d.kind),
            flags: flags(d),
        };
        // SAFETY: writable per the contract.
        unsafe { out.put(value) };
        Ok(())
    })
}

/// The name of a `ROBOTSTXT_LINE_*` kind as diagnostics print it:
/// `"user-agent"`, `"allow"`, `"disallow"`, `"sitemap"`, `"crawl-delay"`,
/// `"request-rate"`, `"host"`, `"unknown"`, `"invalid"`, `"content-usage"`
/// or `"content-signal"`. A static,
/// NUL-terminated string; NULL for an unknown value.
#[unsafe(no_mangle)]
pub extern "C" fn robotstxt_line_kind_name(kind: robotstxt_line_kind) -> *const c_char {
    guard_value("robotstxt_line_kind_name", std::ptr::null(), || {
        line_kind_name(kind).map_or(std::ptr::null(), CStr::as_ptr)
    })
}

fn line_kind_name(kind: robotstxt_line_kind) -> Option<&'static CStr> {
    Some(match kind {
        ROBOTSTXT_LINE_USER_AGENT => c"user-agent",
        ROBOTSTXT_LINE_ALLOW => c"allow",
        ROBOTSTXT_LINE_DISALLOW => c"disallow",
        ROBOTSTXT_LINE_SITEMAP => c"sitemap",
        ROBOTSTXT_LINE_CRAWL_DELAY => c"crawl-delay",
        ROBOTSTXT_LINE_REQUEST_RATE => c"request-rate",
        ROBOTSTXT_LINE_HOST => c"host",
        ROBOTSTXT_LINE_UNKNOWN => c"unknown",
        ROBOTSTXT_LINE_INVALID => c"invalid",
        ROBOTSTXT_LINE_CONTENT_USAGE => c"content-usage",
        ROBOTSTXT_LINE_CONTENT_SIGNAL => c"content-signal",
        _ => return None,
    })
}

/// The name of one `ROBOTSTXT_FLAG_*` bit: `"typo"`, `"missing-colon"`,
/// `"too-long"`, `"outside-group"`, `"invalid-value"`, `"unknown-key"`,
/// `"invalid-statement"`, `"empty-statement"` or `"unknown-preference"`.
/// A static, NUL-terminated string; NULL for anything but a single known
/// bit. Bits in increasing order give the names in the order the lint
/// output and the test vectors use.
#[unsafe(no_mangle)]
pub extern "C" fn robotstxt_diagnostic_flag_name(
    flag: robotstxt_diagnostic_flags,
) -> *const c_char {
    guard_value("robotstxt_diagnostic_flag_name", std::ptr::null(), || {
        flag_name(flag).map_or(std::ptr::null(), CStr::as_ptr)
    })
}

fn flag_name(flag: robotstxt_diagnostic_flags) -> Option<&'static CStr> {
    Some(match flag {
        ROBOTSTXT_FLAG_TYPO => c"typo",
        ROBOTSTXT_FLAG_MISSING_COLON => c"missing-colon",
        ROBOTSTXT_FLAG_TOO_LONG => c"too-long",
        ROBOTSTXT_FLAG_OUTSIDE_GROUP => c"outside-group",
        ROBOTSTXT_FLAG_INVALID_VALUE => c"invalid-value",
        ROBOTSTXT_FLAG_UNKNOWN_KEY => c"unknown-key",
        ROBOTSTXT_FLAG_INVALID_STATEMENT => c"invalid-statement",
        ROBOTSTXT_FLAG_EMPTY_STATEMENT => c"empty-statement",
        ROBOTSTXT_FLAG_UNKNOWN_PREFERENCE => c"unknown-preference",
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// C strings cannot borrow the core's names, so they are copies: keep
    /// them equal.
    #[test]
    fn names_match_the_core() {
        use LineKind::*;
        for kind in [
            UserAgent,
            Allow,
            Disallow,
            Sitemap,
            CrawlDelay,
            RequestRate,
            Host,
            Unknown,
            Invalid,
            ContentUsage,
            ContentSignal,
        ] {
            let name = line_kind_name(kind_code(kind)).unwrap().to_str().unwrap();
            assert_eq!(name, kind.name());
        }
        let mut every = Diagnostic::new(1, LineKind::Unknown);
        every.typo = true;
        every.missing_colon = true;
        every.too_long = true;
        every.outside_group = true;
        every.invalid_value = true;
        every.invalid_statement = true;
        every.empty_statement = true;
        every.unknown_preference = true;
        let bits = flags(&every);
        let ours: Vec<_> = (0..32)
            .map(|i| 1u32 << i)
            .filter(|bit| bits & bit != 0)
            .map(|bit| flag_name(bit).unwrap().to_str().unwrap())
            .collect();
        assert_eq!(ours, every.flag_names().collect::<Vec<_>>());
        assert_eq!(flag_name(3), None);
    }
}
