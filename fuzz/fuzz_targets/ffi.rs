//! The C ABI (`include/robotstxt.h`) under random call sequences, through
//! the `extern "C"` functions themselves: parse, select, ask and free;
//! entries; caches, leases, pacers and tickets; product tokens; with NULL
//! handles, NULL out-pointers, `(NULL, 0)` and `(NULL, n)` text,
//! enumeration values out of range, NaN and infinite delays, leases stored
//! twice or into another cache, tickets confirmed twice or with another
//! pacer, and handles freed in any order (rules outlive their robots,
//! leases their cache, tickets their pacer). It never frees a handle twice
//! or uses one after its free: that is undefined behaviour the ABI cannot
//! detect (SECURITY.md).
//!
//! Checked: no call panics (`ROBOTSTXT_STATUS_PANIC`) or crashes, each NULL
//! where a pointer is required gives `ROBOTSTXT_STATUS_NULL_ARGUMENT`,
//! outputs are untouched on failure, `can_fetch` agrees with `decide`, a
//! decision's kind agrees with `robotstxt_rules_blanket`, a lookup's
//! blanket and retry time agree with its rules', a switched-off host gets
//! no ticket and its tickets never confirm `GO`, a spent ticket or one of
//! another pacer is refused, and under ASan every handle is freed (no
//! leak).

#![no_main]
#![allow(non_camel_case_types)]

use std::collections::{HashMap, HashSet};
use std::ptr::{null, null_mut};

use libfuzzer_sys::arbitrary::{Result, Unstructured};
use libfuzzer_sys::fuzz_target;

// --- the header's types, mirrored field for field ---

#[repr(C)]
struct robotstxt_robots([u8; 0]);
#[repr(C)]
struct robotstxt_rules([u8; 0]);
#[repr(C)]
struct robotstxt_entry([u8; 0]);
#[repr(C)]
struct robotstxt_cache([u8; 0]);
#[repr(C)]
struct robotstxt_lease([u8; 0]);
#[repr(C)]
struct robotstxt_pacer([u8; 0]);
#[repr(C)]
struct robotstxt_ticket([u8; 0]);

type Status = u32;
const OK: Status = 0;
const NULL_ARGUMENT: Status = 1;
const INVALID_TOKEN: Status = 3;
const NO_TOKENS: Status = 4;
const INDEX_OUT_OF_RANGE: Status = 7;
const INVALID_HOST: Status = 9;
const INVALID_LEASE: Status = 10;
const INVALID_TICKET: Status = 11;
const PACER_FULL: Status = 12;
const PANIC: Status = 100;

const DECISION_NONE: u32 = 0;
const DECISION_ALLOW_ALL: u32 = 3;
const DECISION_DISALLOW_ALL: u32 = 4;
const CAUSE_STATUS: u32 = 1;
const CAUSE_CALLER: u32 = 5;
const CONFIRM_GO: u32 = 0;
const CONFIRM_WAIT: u32 = 1;
const CONFIRM_DISABLED: u32 = 2;

#[repr(C)]
#[derive(Clone, Copy)]
struct robotstxt_options {
    profile: u32,
    parse_limit: usize,
    typos: bool,
}

#[repr(C)]
#[derive(Clone, Copy)]
struct robotstxt_str {
    ptr: *const u8,
    len: usize,
}

#[repr(C)]
#[derive(Clone, Copy)]
struct robotstxt_decision {
    allowed: bool,
    line: u32,
    kind: u32,
    pattern: robotstxt_str,
}

#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
struct robotstxt_blanket {
    is_blanket: bool,
    allowed: bool,
    cause: u32,
    http_status: u16,
    redirects: u32,
}

#[repr(C)]
#[derive(Clone, Copy)]
struct robotstxt_diagnostic {
    line: u32,
    kind: u32,
    flags: u32,
}

#[repr(C)]
#[derive(Clone, Copy)]
struct robotstxt_fetch {
    http_status: u16,
    redirects: u32,
    body: robotstxt_str,
    has_max_age: bool,
    max_age_ms: u64,
    has_retry_after: bool,
    retry_after_ms: u64,
    has_etag: bool,
    etag: robotstxt_str,
    has_last_modified: bool,
    last_modified: robotstxt_str,
}

#[repr(C)]
#[derive(Clone, Copy)]
struct robotstxt_freshness_policy {
    fresh_for_ms: u64,
    retry_ms: u64,
    unreachable_limit_ms: u64,
    after_limit: u32,
    access: u32,
    options: robotstxt_options,
}

#[repr(C)]
#[derive(Clone, Copy)]
struct robotstxt_validators {
    has_etag: bool,
    etag: robotstxt_str,
    has_last_modified: bool,
    last_modified: robotstxt_str,
}

#[repr(C)]
#[derive(Clone, Copy)]
struct robotstxt_cache_options {
    capacity: usize,
    lease_ms: u64,
    policy: robotstxt_freshness_policy,
}

#[repr(C)]
#[derive(Clone, Copy)]
struct robotstxt_lookup {
    kind: u32,
    answer: u32,
    stale: bool,
    rules: *mut robotstxt_rules,
    lease: *mut robotstxt_lease,
    until_ms: u64,
    blanket: robotstxt_blanket,
    has_retry_at: bool,
    retry_at_ms: u64,
}

#[repr(C)]
#[derive(Clone, Copy, Default)]
struct robotstxt_cache_counters {
    hits: u64,
    misses: u64,
    fetches: u64,
    stale: u64,
    evictions: u64,
    entries: u64,
}

#[repr(C)]
#[derive(Clone, Copy)]
struct robotstxt_pacer_options {
    floor_ms: u64,
    backoff_cap_ms: u64,
    capacity: usize,
    max_in_flight: u32,
    in_flight_timeout_ms: u64,
}

#[repr(C)]
#[derive(Clone, Copy)]
struct robotstxt_confirm {
    kind: u32,
    until_ms: u64,
    busy: bool,
}

// The library is linked into this binary, so its `#[no_mangle]` exports
// resolve here; nothing else of the crate is used.
use robotstxt_c as _;

extern "C" {
    fn robotstxt_version() -> *const std::ffi::c_char;
    fn robotstxt_status_message(status: Status) -> *const std::ffi::c_char;
    fn robotstxt_last_error(message_out: *mut *const u8, len_out: *mut usize) -> Status;
    fn robotstxt_options_default() -> robotstxt_options;
    fn robotstxt_robots_parse(
        body: *const u8,
        len: usize,
        out: *mut *mut robotstxt_robots,
    ) -> Status;
    fn robotstxt_robots_parse_with(
        body: *const u8,
        len: usize,
        options: *const robotstxt_options,
        out: *mut *mut robotstxt_robots,
    ) -> Status;
    fn robotstxt_robots_free(robots: *mut robotstxt_robots);
    fn robotstxt_robots_profile(robots: *const robotstxt_robots, out: *mut u32) -> Status;
    fn robotstxt_robots_rules_for(
        robots: *const robotstxt_robots,
        token: *const u8,
        len: usize,
        out: *mut *mut robotstxt_rules,
    ) -> Status;
    fn robotstxt_robots_rules_for_any(
        robots: *const robotstxt_robots,
        tokens: *const robotstxt_str,
        count: usize,
        out: *mut *mut robotstxt_rules,
    ) -> Status;
    fn robotstxt_robots_rules_for_strictest(
        robots: *const robotstxt_robots,
        tokens: *const robotstxt_str,
        count: usize,
        out: *mut *mut robotstxt_rules,
    ) -> Status;
    fn robotstxt_robots_sitemap_count(robots: *const robotstxt_robots, out: *mut usize) -> Status;
    fn robotstxt_robots_sitemap(
        robots: *const robotstxt_robots,
        index: usize,
        url_out: *mut *const u8,
        len_out: *mut usize,
    ) -> Status;
    fn robotstxt_robots_host(
        robots: *const robotstxt_robots,
        host_out: *mut *const u8,
        len_out: *mut usize,
        found_out: *mut bool,
    ) -> Status;
    fn robotstxt_rules_free(rules: *mut robotstxt_rules);
    fn robotstxt_rules_can_fetch(
        rules: *const robotstxt_rules,
        url: *const u8,
        len: usize,
        out: *mut bool,
    ) -> Status;
    fn robotstxt_rules_decide(
        rules: *const robotstxt_rules,
        url: *const u8,
        len: usize,
        out: *mut robotstxt_decision,
    ) -> Status;
    fn robotstxt_rules_blanket(
        rules: *const robotstxt_rules,
        out: *mut robotstxt_blanket,
    ) -> Status;
    fn robotstxt_rules_retry_at(
        rules: *const robotstxt_rules,
        at_out: *mut u64,
        has_out: *mut bool,
    ) -> Status;
    fn robotstxt_product_token(
        user_agent: *const u8,
        len: usize,
        token_out: *mut *const u8,
        token_len_out: *mut usize,
    ) -> Status;
    fn robotstxt_rules_crawl_delay(
        rules: *const robotstxt_rules,
        seconds_out: *mut f64,
        has_out: *mut bool,
    ) -> Status;
    fn robotstxt_rules_request_rate(
        rules: *const robotstxt_rules,
        requests_out: *mut u32,
        seconds_out: *mut u32,
        has_out: *mut bool,
    ) -> Status;
    fn robotstxt_decision_kind_name(kind: u32) -> *const std::ffi::c_char;
    fn robotstxt_cause_name(cause: u32) -> *const std::ffi::c_char;
    fn robotstxt_robots_diagnostic_count(
        robots: *const robotstxt_robots,
        out: *mut usize,
    ) -> Status;
    fn robotstxt_robots_diagnostic(
        robots: *const robotstxt_robots,
        index: usize,
        out: *mut robotstxt_diagnostic,
    ) -> Status;
    fn robotstxt_line_kind_name(kind: u32) -> *const std::ffi::c_char;
    fn robotstxt_diagnostic_flag_name(flag: u32) -> *const std::ffi::c_char;
    fn robotstxt_access_classify(status: u16, redirects: u32, policy: u32, out: *mut u32)
        -> Status;
    fn robotstxt_access_from_outcome(
        fetch: *const robotstxt_fetch,
        policy: u32,
        options: *const robotstxt_options,
        disposition_out: *mut u32,
        robots_out: *mut *mut robotstxt_robots,
    ) -> Status;
    fn robotstxt_disposition_retry_later(disposition: u32) -> bool;
    fn robotstxt_freshness_policy_default() -> robotstxt_freshness_policy;
    fn robotstxt_entry_new(
        policy: *const robotstxt_freshness_policy,
        out: *mut *mut robotstxt_entry,
    ) -> Status;
    fn robotstxt_entry_free(entry: *mut robotstxt_entry);
    fn robotstxt_entry_record(
        entry: *mut robotstxt_entry,
        now: u64,
        fetch: *const robotstxt_fetch,
        out: *mut u32,
    ) -> Status;
    fn robotstxt_entry_is_due(entry: *const robotstxt_entry, now: u64, out: *mut bool) -> Status;
    fn robotstxt_entry_due_at(entry: *const robotstxt_entry, out: *mut u64) -> Status;
    fn robotstxt_entry_fetched_at(
        entry: *const robotstxt_entry,
        out: *mut u64,
        has: *mut bool,
    ) -> Status;
    fn robotstxt_entry_failures(entry: *const robotstxt_entry, out: *mut u32) -> Status;
    fn robotstxt_entry_has_copy(entry: *const robotstxt_entry, out: *mut bool) -> Status;
    fn robotstxt_entry_validators(
        entry: *const robotstxt_entry,
        out: *mut robotstxt_validators,
    ) -> Status;
    fn robotstxt_entry_answer(
        entry: *const robotstxt_entry,
        now: u64,
        answer_out: *mut u32,
        robots_out: *mut *mut robotstxt_robots,
    ) -> Status;
    fn robotstxt_cache_options_default() -> robotstxt_cache_options;
    fn robotstxt_cache_new(
        options: *const robotstxt_cache_options,
        out: *mut *mut robotstxt_cache,
    ) -> Status;
    fn robotstxt_cache_free(cache: *mut robotstxt_cache);
    fn robotstxt_cache_lookup(
        cache: *const robotstxt_cache,
        url: *const u8,
        url_len: usize,
        token: *const u8,
        token_len: usize,
        now: u64,
        when_fetching: u32,
        out: *mut robotstxt_lookup,
    ) -> Status;
    fn robotstxt_cache_store(
        cache: *const robotstxt_cache,
        lease: *mut robotstxt_lease,
        now: u64,
        fetch: *const robotstxt_fetch,
        out: *mut u32,
    ) -> Status;
    fn robotstxt_cache_abandon(
        cache: *const robotstxt_cache,
        lease: *mut robotstxt_lease,
    ) -> Status;
    fn robotstxt_cache_remove(
        cache: *const robotstxt_cache,
        url: *const u8,
        len: usize,
        removed_out: *mut bool,
    ) -> Status;
    fn robotstxt_cache_stats(
        cache: *const robotstxt_cache,
        out: *mut robotstxt_cache_counters,
    ) -> Status;
    fn robotstxt_cache_len(cache: *const robotstxt_cache, out: *mut usize) -> Status;
    fn robotstxt_lease_free(lease: *mut robotstxt_lease);
    fn robotstxt_lease_origin(
        lease: *const robotstxt_lease,
        out: *mut *const u8,
        len: *mut usize,
    ) -> Status;
    fn robotstxt_lease_robots_url(
        lease: *const robotstxt_lease,
        out: *mut *const u8,
        len: *mut usize,
    ) -> Status;
    fn robotstxt_lease_validators(
        lease: *const robotstxt_lease,
        out: *mut robotstxt_validators,
    ) -> Status;
    fn robotstxt_pacer_options_default() -> robotstxt_pacer_options;
    fn robotstxt_pacer_new(
        options: *const robotstxt_pacer_options,
        out: *mut *mut robotstxt_pacer,
    ) -> Status;
    fn robotstxt_pacer_free(pacer: *mut robotstxt_pacer);
    fn robotstxt_pacer_reserve(
        pacer: *const robotstxt_pacer,
        host: *const u8,
        len: usize,
        now: u64,
        ticket_out: *mut *mut robotstxt_ticket,
    ) -> Status;
    fn robotstxt_ticket_start(ticket: *const robotstxt_ticket) -> u64;
    fn robotstxt_ticket_free(ticket: *mut robotstxt_ticket);
    fn robotstxt_pacer_confirm(
        pacer: *const robotstxt_pacer,
        ticket: *const robotstxt_ticket,
        now: u64,
        out: *mut robotstxt_confirm,
    ) -> Status;
    fn robotstxt_pacer_cancel(
        pacer: *const robotstxt_pacer,
        ticket: *const robotstxt_ticket,
    ) -> Status;
    fn robotstxt_pacer_in_flight(
        pacer: *const robotstxt_pacer,
        host: *const u8,
        len: usize,
        now: u64,
        out: *mut usize,
    ) -> Status;
    fn robotstxt_pacer_set_delay(
        pacer: *const robotstxt_pacer,
        host: *const u8,
        len: usize,
        has_crawl_delay: bool,
        crawl_delay_s: f64,
        has_request_rate: bool,
        requests: u32,
        seconds: u32,
    ) -> Status;
    fn robotstxt_pacer_set_rules(
        pacer: *const robotstxt_pacer,
        host: *const u8,
        len: usize,
        rules: *const robotstxt_rules,
    ) -> Status;
    fn robotstxt_pacer_record(
        pacer: *const robotstxt_pacer,
        host: *const u8,
        len: usize,
        now: u64,
        status: u16,
        has_retry_after: bool,
        retry_after_ms: u64,
    ) -> Status;
    fn robotstxt_pacer_set_enabled(
        pacer: *const robotstxt_pacer,
        host: *const u8,
        len: usize,
        enabled: bool,
    ) -> Status;
    fn robotstxt_pacer_gap_ms(
        pacer: *const robotstxt_pacer,
        host: *const u8,
        len: usize,
        out: *mut u64,
    ) -> Status;
}

/// Text for a call: its bytes live in `Text::bytes`; `ptr` may be NULL.
struct Text {
    bytes: Vec<u8>,
    null: bool,
}

impl Text {
    fn ptr(&self) -> *const u8 {
        if self.null {
            null()
        } else {
            self.bytes.as_ptr()
        }
    }
    fn len(&self) -> usize {
        self.bytes.len()
    }
    /// `(NULL, n > 0)`: the call must refuse it.
    fn bad(&self) -> bool {
        self.null && !self.bytes.is_empty()
    }
    fn as_str(&self) -> robotstxt_str {
        robotstxt_str {
            ptr: self.ptr(),
            len: self.len(),
        }
    }
}

const TOKENS: &[&[u8]] = &[
    b"ExampleBot",
    b"googlebot",
    b"Bad/1.0",
    b"",
    b"*",
    b"\xff\xfe",
    b"a b",
];
const URLS: &[&[u8]] = &[
    b"https://site.test/private/x",
    b"http://site.test/",
    b"https://other.test:8443/a?b#c",
    b"/private",
    b"not a url",
    b"",
    b"//x/y",
    b"\xff/\x00",
];
const HOSTS: &[&[u8]] = &[b"site.test", b"SITE.test", b"", b"other.test:8443"];
const USER_AGENTS: &[&[u8]] = &[
    b"ExampleBot/1.0 (+https://example.com/bot)",
    b"Mozilla/5.0 (compatible; ExampleBot/2.1; +https://example.com/bot)",
    b"Mozilla/5.0 (X11; Linux x86_64)",
    b"(compatible; )",
    b"Bad Bot/1",
    b"",
];

fn text(u: &mut Unstructured, pool: &[&[u8]]) -> Result<Text> {
    let bytes = match u.int_in_range(0..=3u8)? {
        0 => {
            let n = u.int_in_range(0..=64usize)?;
            u.bytes(n)?
        }
        .to_vec(),
        _ => u.choose(pool)?.to_vec(),
    };
    // One in eight is NULL: (NULL, 0) is the empty text, (NULL, n) an error.
    let null = u.ratio(1, 8)?;
    Ok(Text { bytes, null })
}

fn body(u: &mut Unstructured) -> Result<Text> {
    const BODIES: &[&[u8]] = &[
        b"User-agent: *\nDisallow: /private\nCrawl-delay: 2\nRequest-rate: 1/5s\nSitemap: https://s/x.xml\nHost: h\n",
        b"User-agent: ExampleBot\nAllow: /\nuseragent: googlebot\ndisallow /x\n",
        b"\xef\xbb\xbfUser-agent: *\r\nDisallow: /a*b$\r\n\x00junk\n",
        b"",
    ];
    let bytes = if u.arbitrary()? {
        u.choose(BODIES)?.to_vec()
    } else {
        {
            let n = u.int_in_range(0..=256usize)?;
            u.bytes(n)?
        }
        .to_vec()
    };
    Ok(Text {
        bytes,
        null: u.ratio(1, 16)?,
    })
}

fn options(u: &mut Unstructured) -> Result<robotstxt_options> {
    // SAFETY: no arguments.
    let mut o = unsafe { robotstxt_options_default() };
    if u.ratio(1, 4)? {
        o.profile = u.arbitrary()?;
    } else {
        o.profile = u.int_in_range(0..=1)?;
    }
    o.parse_limit = *u.choose(&[
        0,
        511_999,
        512_000,
        1 << 20,
        536_870_912,
        536_870_913,
        usize::MAX,
    ])?;
    o.typos = u.arbitrary()?;
    Ok(o)
}

fn fetch<'a>(u: &mut Unstructured, body: &'a Text, etag: &'a Text) -> Result<robotstxt_fetch> {
    Ok(robotstxt_fetch {
        http_status: *u.choose(&[
            0,
            200,
            204,
            304,
            301,
            401,
            403,
            404,
            429,
            500,
            503,
            99,
            600,
            u16::MAX,
        ])?,
        redirects: u.int_in_range(0..=7)?,
        body: body.as_str(),
        has_max_age: u.arbitrary()?,
        max_age_ms: u.arbitrary()?,
        has_retry_after: u.arbitrary()?,
        retry_after_ms: u.arbitrary()?,
        has_etag: u.arbitrary()?,
        etag: etag.as_str(),
        has_last_modified: u.arbitrary()?,
        last_modified: robotstxt_str {
            ptr: null(),
            len: 0,
        },
    })
}

fn freshness(u: &mut Unstructured) -> Result<robotstxt_freshness_policy> {
    // SAFETY: no arguments.
    let mut p = unsafe { robotstxt_freshness_policy_default() };
    p.fresh_for_ms = u.arbitrary()?;
    p.retry_ms = u.arbitrary()?;
    p.unreachable_limit_ms = u.arbitrary()?;
    p.after_limit = if u.ratio(1, 8)? {
        u.arbitrary()?
    } else {
        u.int_in_range(0..=1)?
    };
    p.access = if u.ratio(1, 8)? {
        u.arbitrary()?
    } else {
        u.int_in_range(0..=1)?
    };
    p.options = options(u)?;
    Ok(p)
}

/// Every handle alive, so each can be freed exactly once at the end; and
/// what the pacers were told.
#[derive(Default)]
struct Handles {
    robots: Vec<*mut robotstxt_robots>,
    rules: Vec<*mut robotstxt_rules>,
    entries: Vec<*mut robotstxt_entry>,
    caches: Vec<*mut robotstxt_cache>,
    leases: Vec<*mut robotstxt_lease>,
    pacers: Vec<*mut robotstxt_pacer>,
    tickets: Vec<*mut robotstxt_ticket>,
    /// Per ticket: its pacer (NULL once that is freed), its host as the
    /// pacer keys it, and whether it is spent.
    ticket_info: HashMap<usize, (usize, Vec<u8>, bool)>,
    /// (pacer, host key) switched off. A switched-off host is never
    /// forgotten, so this is exact.
    switched_off: HashSet<(usize, Vec<u8>)>,
}

/// The pacer's key for a host: ASCII lower case.
fn host_key(host: &Text) -> Vec<u8> {
    host.bytes.to_ascii_lowercase()
}

/// A live handle, or NULL one time in eight (or when there is none). The
/// bool says whether it is NULL.
fn pick<T>(u: &mut Unstructured, live: &[*mut T]) -> Result<(*mut T, bool)> {
    if live.is_empty() || u.ratio(1, 8)? {
        return Ok((null_mut(), true));
    }
    Ok((*u.choose(live)?, false))
}

/// Takes a live handle out of `live` to free it.
fn take<T>(u: &mut Unstructured, live: &mut Vec<*mut T>) -> Result<*mut T> {
    if live.is_empty() {
        return Ok(null_mut());
    }
    let i = u.choose_index(live.len())?;
    Ok(live.swap_remove(i))
}

/// Checks a status: never a panic; a NULL argument gives NULL_ARGUMENT.
fn status(got: Status, null_given: bool, call: &str) {
    assert_ne!(got, PANIC, "{call} panicked: {}", last_error());
    assert!(got <= PACER_FULL, "{call}: unknown status {got}");
    if null_given {
        assert_eq!(
            got,
            NULL_ARGUMENT,
            "{call} with a NULL argument: {}",
            last_error()
        );
    }
    if got != OK {
        // Every failure has a message, and a static description.
        assert!(
            !last_error().is_empty(),
            "{call}: status {got} without a message"
        );
        // SAFETY: any value is allowed.
        assert!(!unsafe { robotstxt_status_message(got) }.is_null());
    }
}

/// A blanket from `robotstxt_rules_blanket` or a lookup: consistent fields.
fn check_blanket(b: &robotstxt_blanket) {
    assert_eq!(b.is_blanket, b.cause != 0, "{b:?}");
    assert!(b.cause <= CAUSE_CALLER, "{b:?}");
    assert!(b.is_blanket || !b.allowed, "{b:?}");
    assert!(
        b.cause == CAUSE_STATUS || (b.http_status, b.redirects) == (0, 0),
        "{b:?}"
    );
}

fn last_error() -> String {
    let (mut ptr, mut len) = (null(), 0usize);
    // SAFETY: both outputs are writable.
    let got = unsafe { robotstxt_last_error(&mut ptr, &mut len) };
    assert_eq!(got, OK);
    if len == 0 {
        return String::new();
    }
    // SAFETY: the message lives until the thread's next failing call.
    String::from_utf8_lossy(unsafe { std::slice::from_raw_parts(ptr, len) }).into_owned()
}

/// An out-pointer or NULL (one time in sixteen), for calls that require it.
macro_rules! out {
    ($u:expr, $var:expr) => {
        if $u.ratio(1, 16)? {
            (null_mut(), true)
        } else {
            (std::ptr::addr_of_mut!($var), false)
        }
    };
}

const SENTINEL: usize = 0x5e17;

fn run(u: &mut Unstructured, h: &mut Handles) -> Result<()> {
    for _ in 0..u.int_in_range(1..=48u32)? {
        if u.is_empty() {
            break;
        }
        // SAFETY (whole match): every pointer passed is NULL, a live handle
        // from `h`, or points to a local of the right type; text points to
        // `len` readable bytes or is NULL.
        unsafe {
            match u.int_in_range(0..=31u8)? {
                0 | 1 => {
                    let b = body(u)?;
                    let mut out: *mut robotstxt_robots = SENTINEL as *mut _;
                    let (p, out_null) = out!(u, out);
                    let got = if u.arbitrary()? {
                        robotstxt_robots_parse(b.ptr(), b.len(), p)
                    } else {
                        // NULL options are the defaults.
                        let o = options(u)?;
                        let op: *const robotstxt_options =
                            if u.ratio(1, 16)? { null() } else { &o };
                        robotstxt_robots_parse_with(b.ptr(), b.len(), op, p)
                    };
                    status(got, b.bad() || out_null, "parse");
                    if got == OK {
                        assert!(!out.is_null() && out as usize != SENTINEL);
                        h.robots.push(out);
                    } else {
                        assert_eq!(out as usize, SENTINEL, "parse wrote its output on failure");
                    }
                }
                2 => robotstxt_robots_free(take(u, &mut h.robots)?),
                3 | 4 => {
                    let (robots, null_robots) = pick(u, &h.robots)?;
                    let mut out: *mut robotstxt_rules = SENTINEL as *mut _;
                    let (p, out_null) = out!(u, out);
                    let got;
                    let mut bad;
                    match u.int_in_range(0..=2u8)? {
                        0 => {
                            let t = text(u, TOKENS)?;
                            got = robotstxt_robots_rules_for(robots, t.ptr(), t.len(), p);
                            bad = t.bad();
                        }
                        mode => {
                            let texts = (0..u.int_in_range(0..=3usize)?)
                                .map(|_| text(u, TOKENS))
                                .collect::<Result<Vec<_>>>()?;
                            let list: Vec<robotstxt_str> = texts.iter().map(Text::as_str).collect();
                            let list_null = list.is_empty() && u.arbitrary()?;
                            let lp = if list_null { null() } else { list.as_ptr() };
                            got = if mode == 1 {
                                robotstxt_robots_rules_for_any(robots, lp, list.len(), p)
                            } else {
                                robotstxt_robots_rules_for_strictest(robots, lp, list.len(), p)
                            };
                            bad = texts.iter().any(Text::bad);
                            if list.is_empty() && !null_robots && !out_null {
                                assert_eq!(got, NO_TOKENS);
                            }
                        }
                    }
                    bad |= null_robots || out_null;
                    status(got, bad, "rules_for");
                    if got == OK {
                        h.rules.push(out);
                    } else {
                        assert_eq!(out as usize, SENTINEL);
                        assert!(
                            got == NULL_ARGUMENT || got == INVALID_TOKEN || got == NO_TOKENS,
                            "{got}"
                        );
                    }
                }
                5 => robotstxt_rules_free(take(u, &mut h.rules)?),
                6 | 7 => {
                    let (rules, null_rules) = pick(u, &h.rules)?;
                    let url = text(u, URLS)?;
                    let mut allowed = false;
                    let mut d = robotstxt_decision {
                        allowed: false,
                        line: 7,
                        kind: 7,
                        pattern: robotstxt_str {
                            ptr: null(),
                            len: 0,
                        },
                    };
                    let (pa, a_null) = out!(u, allowed);
                    let (pd, d_null) = out!(u, d);
                    let g1 = robotstxt_rules_can_fetch(rules, url.ptr(), url.len(), pa);
                    status(g1, null_rules || url.bad() || a_null, "can_fetch");
                    let g2 = robotstxt_rules_decide(rules, url.ptr(), url.len(), pd);
                    status(g2, null_rules || url.bad() || d_null, "decide");
                    if g1 == OK && g2 == OK {
                        assert_eq!(allowed, d.allowed);
                        // A rule's decision has its line and pattern; no
                        // match has neither; a blanket answer (from a cache)
                        // is kind ALLOW_ALL or DISALLOW_ALL with neither.
                        assert!(d.kind <= 4 && (d.line == 0) == (d.pattern.len == 0));
                        assert!(d.kind != DECISION_NONE || (d.line == 0 && d.allowed));
                        assert!(d.kind == DECISION_NONE || d.allowed == (d.kind % 2 == 1));
                        assert!(d.kind < DECISION_ALLOW_ALL || d.line == 0);
                        assert!(d.pattern.len == 0 || !d.pattern.ptr.is_null());
                        // The kind says whether a blanket answer decided.
                        let mut b = std::mem::zeroed::<robotstxt_blanket>();
                        assert_eq!(robotstxt_rules_blanket(rules, &mut b), OK);
                        check_blanket(&b);
                        if b.is_blanket {
                            assert!(
                                d.kind >= DECISION_ALLOW_ALL
                                    || (d.kind == DECISION_NONE && !b.allowed),
                                "kind {} for a blanket answer",
                                d.kind
                            );
                            assert!(d.kind != DECISION_ALLOW_ALL || b.allowed);
                            assert!(d.kind != DECISION_DISALLOW_ALL || !b.allowed);
                        } else {
                            assert!(d.kind < DECISION_ALLOW_ALL, "kind {} for a file", d.kind);
                        }
                        // The borrowed pattern is readable (ASan checks).
                        if d.pattern.len > 0 {
                            let p = std::slice::from_raw_parts(d.pattern.ptr, d.pattern.len);
                            assert!(p.is_ascii());
                        }
                    } else if g2 != OK {
                        assert_eq!(
                            (d.line, d.kind),
                            (7, 7),
                            "decide wrote its output on failure"
                        );
                    }
                }
                8 => {
                    let (rules, null_rules) = pick(u, &h.rules)?;
                    let (mut secs, mut has) = (-1.0f64, false);
                    let (ps, s_null) = out!(u, secs);
                    let (ph, h_null) = out!(u, has);
                    let got = robotstxt_rules_crawl_delay(rules, ps, ph);
                    status(got, null_rules || s_null || h_null, "crawl_delay");
                    if got == OK && has {
                        assert!(secs.is_finite() && secs >= 0.0);
                    }
                    let (mut n, mut s) = (0u32, 0u32);
                    let got = robotstxt_rules_request_rate(rules, &mut n, &mut s, &mut has);
                    status(got, null_rules, "request_rate");
                    if got == OK && has {
                        assert!(n >= 1 && s >= 1);
                    }
                    let (mut at, mut has_at) = (7u64, true);
                    let (pa, a_null) = out!(u, at);
                    let got = robotstxt_rules_retry_at(rules, pa, &mut has_at);
                    status(got, null_rules || a_null, "retry_at");
                    if got == OK {
                        assert!(has_at || at == 0);
                    } else {
                        assert_eq!((at, has_at), (7, true), "retry_at wrote on failure");
                    }
                    let mut b = std::mem::zeroed::<robotstxt_blanket>();
                    b.cause = 77;
                    let (pb, b_null) = out!(u, b);
                    let got = robotstxt_rules_blanket(rules, pb);
                    status(got, null_rules || b_null, "rules_blanket");
                    if got == OK {
                        check_blanket(&b);
                    } else {
                        assert_eq!(b.cause, 77, "rules_blanket wrote on failure");
                    }
                }
                9 => {
                    let (robots, null_robots) = pick(u, &h.robots)?;
                    let mut count = 0usize;
                    let got = robotstxt_robots_sitemap_count(robots, &mut count);
                    status(got, null_robots, "sitemap_count");
                    let index = if u.arbitrary()? {
                        u.int_in_range(0..=count)?
                    } else {
                        u.arbitrary()?
                    };
                    let (mut p, mut len) = (SENTINEL as *const u8, 0usize);
                    let (pp, p_null) = out!(u, p);
                    let got = robotstxt_robots_sitemap(robots, index, pp, &mut len);
                    if !null_robots && !p_null && index >= count {
                        assert_eq!(got, INDEX_OUT_OF_RANGE);
                    }
                    status(got, null_robots || p_null, "sitemap");
                    if got == OK && len > 0 {
                        let _ = std::slice::from_raw_parts(p, len)
                            .iter()
                            .fold(0u8, |a, &b| a ^ b);
                    }
                    let mut found = false;
                    let got = robotstxt_robots_host(robots, &mut p, &mut len, &mut found);
                    status(got, null_robots, "host");
                    let mut profile = 9u32;
                    let got = robotstxt_robots_profile(robots, &mut profile);
                    status(got, null_robots, "profile");
                    assert!(got != OK || profile <= 1);
                }
                10 => {
                    let (robots, null_robots) = pick(u, &h.robots)?;
                    let mut count = 0usize;
                    let got = robotstxt_robots_diagnostic_count(robots, &mut count);
                    status(got, null_robots, "diagnostic_count");
                    let index = if u.arbitrary()? {
                        u.int_in_range(0..=count)?
                    } else {
                        u.arbitrary()?
                    };
                    let mut d = robotstxt_diagnostic {
                        line: 0,
                        kind: 0,
                        flags: 0,
                    };
                    let got = robotstxt_robots_diagnostic(robots, index, &mut d);
                    status(got, null_robots, "diagnostic");
                    if got == OK {
                        assert!(d.line >= 1 && d.kind <= 8 && d.flags < 64);
                        assert!(!robotstxt_line_kind_name(d.kind).is_null());
                    }
                }
                11 => {
                    // Names and messages for any value: static strings or NULL,
                    // never a crash.
                    let v: u32 = u.arbitrary()?;
                    let _ = robotstxt_status_message(v);
                    assert_eq!(robotstxt_decision_kind_name(v).is_null(), v > 4);
                    assert_eq!(robotstxt_cause_name(v).is_null(), v > CAUSE_CALLER);
                    let _ = robotstxt_line_kind_name(v);
                    let _ = robotstxt_diagnostic_flag_name(v);
                    let _ = robotstxt_disposition_retry_later(v);
                    assert!(!robotstxt_version().is_null());
                    let mut d = 77u32;
                    let policy = if u.ratio(1, 4)? {
                        u.arbitrary()?
                    } else {
                        u.int_in_range(0..=1)?
                    };
                    let got =
                        robotstxt_access_classify(u.arbitrary()?, u.arbitrary()?, policy, &mut d);
                    status(got, false, "classify");
                    assert!(if got == OK { d <= 3 } else { d == 77 });
                    // A product token borrows from the header it is found in.
                    let ua = text(u, USER_AGENTS)?;
                    let (mut tp, mut tl) = (SENTINEL as *const u8, 77usize);
                    let (ptp, tp_null) = out!(u, tp);
                    let got = robotstxt_product_token(ua.ptr(), ua.len(), ptp, &mut tl);
                    status(got, ua.bad() || tp_null, "product_token");
                    if got == OK {
                        assert!(tl >= 1 && tl <= ua.len());
                        let start = tp as usize - ua.ptr() as usize;
                        assert!(start + tl <= ua.len(), "the token is not inside the header");
                        let token = &ua.bytes[start..start + tl];
                        assert!(token
                            .iter()
                            .all(|b| b.is_ascii_alphabetic() || *b == b'_' || *b == b'-'));
                    } else {
                        assert!(got == NULL_ARGUMENT || got == INVALID_TOKEN, "{got}");
                        assert_eq!((tp as usize, tl), (SENTINEL, 77));
                    }
                }
                12 => {
                    let b = body(u)?;
                    let etag = text(u, &[b"\"e\""])?;
                    let f = fetch(u, &b, &etag)?;
                    let o = options(u)?;
                    let policy = if u.ratio(1, 4)? {
                        u.arbitrary()?
                    } else {
                        u.int_in_range(0..=1)?
                    };
                    let (mut d, mut robots) = (77u32, SENTINEL as *mut robotstxt_robots);
                    let (pf, f_null): (*const robotstxt_fetch, bool) = if u.ratio(1, 16)? {
                        (null(), true)
                    } else {
                        (&f, false)
                    };
                    let got = robotstxt_access_from_outcome(pf, policy, &o, &mut d, &mut robots);
                    // Only the status, redirects and body are read: a bad
                    // etag does not matter here.
                    status(got, f_null || b.bad(), "from_outcome");
                    if got == OK {
                        if d == 0 {
                            assert!(!robots.is_null());
                            h.robots.push(robots);
                        } else {
                            assert!(robots.is_null());
                        }
                    } else {
                        assert_eq!((d, robots as usize), (77, SENTINEL));
                    }
                }
                13 => {
                    let p = freshness(u)?;
                    let mut out: *mut robotstxt_entry = SENTINEL as *mut _;
                    let pp: *const robotstxt_freshness_policy =
                        if u.ratio(1, 16)? { null() } else { &p };
                    let got = robotstxt_entry_new(pp, &mut out);
                    status(got, pp.is_null(), "entry_new");
                    if got == OK {
                        h.entries.push(out);
                    } else {
                        assert_eq!(out as usize, SENTINEL);
                    }
                }
                14 => robotstxt_entry_free(take(u, &mut h.entries)?),
                15 | 16 => {
                    let (entry, null_entry) = pick(u, &h.entries)?;
                    let now: u64 = u.arbitrary()?;
                    let b = body(u)?;
                    let etag = text(u, &[b"\"e\""])?;
                    let f = fetch(u, &b, &etag)?;
                    let mut d = 77u32;
                    let got = robotstxt_entry_record(entry, now, &f, &mut d);
                    status(
                        got,
                        null_entry || b.bad() || (f.has_etag && etag.bad()),
                        "entry_record",
                    );
                    let (mut due, mut at, mut has, mut n, mut copy) =
                        (false, 0u64, false, 0u32, false);
                    status(
                        robotstxt_entry_is_due(entry, now, &mut due),
                        null_entry,
                        "is_due",
                    );
                    status(robotstxt_entry_due_at(entry, &mut at), null_entry, "due_at");
                    status(
                        robotstxt_entry_fetched_at(entry, &mut at, &mut has),
                        null_entry,
                        "fetched_at",
                    );
                    status(
                        robotstxt_entry_failures(entry, &mut n),
                        null_entry,
                        "failures",
                    );
                    status(
                        robotstxt_entry_has_copy(entry, &mut copy),
                        null_entry,
                        "has_copy",
                    );
                    let mut v = std::mem::zeroed::<robotstxt_validators>();
                    status(
                        robotstxt_entry_validators(entry, &mut v),
                        null_entry,
                        "validators",
                    );
                    let mut answer = 9u32;
                    let mut robots: *mut robotstxt_robots = SENTINEL as *mut _;
                    let want_robots = u.arbitrary()?;
                    let rp = if want_robots {
                        std::ptr::addr_of_mut!(robots)
                    } else {
                        null_mut()
                    };
                    let got = robotstxt_entry_answer(entry, now, &mut answer, rp);
                    status(got, null_entry, "entry_answer");
                    if got == OK {
                        assert!(answer <= 2);
                        // §2.3.1.4: no copy, nothing allowed (unless the
                        // policy allows all past the unreachable limit).
                        if !copy {
                            assert_ne!(answer, 0);
                        }
                        if want_robots {
                            assert_eq!(robots.is_null(), answer != 0);
                            if !robots.is_null() {
                                h.robots.push(robots);
                            }
                        }
                    }
                }
                17 => {
                    let mut o = robotstxt_cache_options_default();
                    o.capacity = *u.choose(&[0, 1, 2, 3, 10_000, usize::MAX])?;
                    o.lease_ms = u.arbitrary()?;
                    o.policy = freshness(u)?;
                    let mut out: *mut robotstxt_cache = SENTINEL as *mut _;
                    let op: *const robotstxt_cache_options =
                        if u.ratio(1, 16)? { null() } else { &o };
                    let got = robotstxt_cache_new(op, &mut out);
                    status(got, op.is_null(), "cache_new");
                    if got == OK {
                        h.caches.push(out);
                    } else {
                        assert_eq!(out as usize, SENTINEL);
                    }
                }
                18 if u.arbitrary()? => robotstxt_cache_free(take(u, &mut h.caches)?),
                18 => {
                    let (cache, null_cache) = pick(u, &h.caches)?;
                    let url = text(u, URLS)?;
                    let mut removed = false;
                    let rp = if u.arbitrary()? {
                        std::ptr::addr_of_mut!(removed)
                    } else {
                        null_mut()
                    };
                    let got = robotstxt_cache_remove(cache, url.ptr(), url.len(), rp);
                    status(got, null_cache || url.bad(), "cache_remove");
                    let mut c = robotstxt_cache_counters::default();
                    let (pc, c_null) = out!(u, c);
                    status(
                        robotstxt_cache_stats(cache, pc),
                        null_cache || c_null,
                        "cache_stats",
                    );
                    let mut len = usize::MAX;
                    let got = robotstxt_cache_len(cache, &mut len);
                    status(got, null_cache, "cache_len");
                    if got == OK && !c_null {
                        assert_eq!(c.entries, len as u64);
                    }
                }
                19 | 20 => {
                    let (cache, null_cache) = pick(u, &h.caches)?;
                    let url = text(u, URLS)?;
                    let token = text(u, TOKENS)?;
                    let when = if u.ratio(1, 8)? {
                        u.arbitrary()?
                    } else {
                        u.int_in_range(0..=1)?
                    };
                    let mut l = std::mem::zeroed::<robotstxt_lookup>();
                    l.kind = 77;
                    let (pl, l_null) = out!(u, l);
                    let got = robotstxt_cache_lookup(
                        cache,
                        url.ptr(),
                        url.len(),
                        token.ptr(),
                        token.len(),
                        u.arbitrary()?,
                        when,
                        pl,
                    );
                    status(
                        got,
                        null_cache || url.bad() || token.bad() || l_null,
                        "cache_lookup",
                    );
                    if got == OK {
                        match l.kind {
                            0 => {
                                assert!(!l.rules.is_null() && l.lease.is_null());
                                // The lookup and its rules say the same.
                                let mut b = std::mem::zeroed::<robotstxt_blanket>();
                                assert_eq!(robotstxt_rules_blanket(l.rules, &mut b), OK);
                                check_blanket(&b);
                                assert_eq!(b, l.blanket);
                                assert_eq!(b.is_blanket, l.answer != 0, "answer {}", l.answer);
                                assert!(!b.is_blanket || b.allowed == (l.answer == 1));
                                assert!(b.cause != CAUSE_CALLER, "a cache's cause is no caller");
                                let (mut at, mut has_at) = (0u64, false);
                                assert_eq!(
                                    robotstxt_rules_retry_at(l.rules, &mut at, &mut has_at),
                                    OK
                                );
                                assert_eq!((has_at, at), (l.has_retry_at, l.retry_at_ms));
                                assert!(l.has_retry_at || l.retry_at_ms == 0);
                                h.rules.push(l.rules);
                            }
                            1 => {
                                assert!(!l.lease.is_null() && l.rules.is_null());
                                h.leases.push(l.lease);
                            }
                            2 => assert!(l.rules.is_null() && l.lease.is_null()),
                            k => panic!("lookup kind {k}"),
                        }
                    } else {
                        assert_eq!(l.kind, 77);
                    }
                }
                21 => {
                    // Store or abandon a lease, maybe into another cache,
                    // maybe a second time: INVALID_LEASE, never a crash.
                    let (cache, null_cache) = pick(u, &h.caches)?;
                    let (lease, null_lease) = pick(u, &h.leases)?;
                    let got = if u.arbitrary()? {
                        robotstxt_cache_abandon(cache, lease)
                    } else {
                        let b = body(u)?;
                        let etag = text(u, &[b"\"e\""])?;
                        let f = fetch(u, &b, &etag)?;
                        let mut d = 77u32;
                        let got = robotstxt_cache_store(cache, lease, u.arbitrary()?, &f, &mut d);
                        if b.bad() || (f.has_etag && etag.bad()) {
                            assert!(got == NULL_ARGUMENT, "{got}");
                        }
                        got
                    };
                    status(got, null_cache || null_lease, "store/abandon");
                    assert!(
                        got == OK || got == NULL_ARGUMENT || got == INVALID_LEASE,
                        "{got}: {}",
                        last_error()
                    );
                }
                22 => {
                    let (lease, null_lease) = pick(u, &h.leases)?;
                    let (mut p, mut len) = (null::<u8>(), 0usize);
                    status(
                        robotstxt_lease_origin(lease, &mut p, &mut len),
                        null_lease,
                        "lease_origin",
                    );
                    status(
                        robotstxt_lease_robots_url(lease, &mut p, &mut len),
                        null_lease,
                        "lease_url",
                    );
                    if !null_lease {
                        let url = std::slice::from_raw_parts(p, len);
                        assert!(url.ends_with(b"/robots.txt"));
                    }
                    let mut v = std::mem::zeroed::<robotstxt_validators>();
                    status(
                        robotstxt_lease_validators(lease, &mut v),
                        null_lease,
                        "lease_validators",
                    );
                }
                23 => robotstxt_lease_free(take(u, &mut h.leases)?),
                24 => {
                    let mut o = robotstxt_pacer_options_default();
                    o.floor_ms = u.arbitrary()?;
                    o.backoff_cap_ms = u.arbitrary()?;
                    o.capacity = *u.choose(&[0, 1, 2, 100_000, usize::MAX])?;
                    o.max_in_flight = *u.choose(&[0, 1, 2, u32::MAX])?;
                    o.in_flight_timeout_ms = u.arbitrary()?;
                    let mut out: *mut robotstxt_pacer = SENTINEL as *mut _;
                    let op: *const robotstxt_pacer_options =
                        if u.ratio(1, 16)? { null() } else { &o };
                    let got = robotstxt_pacer_new(op, &mut out);
                    status(got, op.is_null(), "pacer_new");
                    if got == OK {
                        h.pacers.push(out);
                    } else {
                        assert_eq!(out as usize, SENTINEL);
                    }
                }
                25 => {
                    let pacer = take(u, &mut h.pacers)?;
                    robotstxt_pacer_free(pacer);
                    // Its tickets live on, but no pacer (not even a new one
                    // at the same address) takes them.
                    h.switched_off.retain(|(p, _)| *p != pacer as usize);
                    for info in h.ticket_info.values_mut() {
                        if info.0 == pacer as usize {
                            info.0 = 0;
                        }
                    }
                }
                26 | 27 => {
                    let (pacer, null_pacer) = pick(u, &h.pacers)?;
                    let host = text(u, HOSTS)?;
                    let bad = null_pacer || host.bad();
                    let now: u64 = u.arbitrary()?;
                    let got = match u.int_in_range(0..=6u8)? {
                        0 => {
                            let mut ticket: *mut robotstxt_ticket = SENTINEL as *mut _;
                            let (pt, t_null) = out!(u, ticket);
                            let got =
                                robotstxt_pacer_reserve(pacer, host.ptr(), host.len(), now, pt);
                            status(got, bad || t_null, "pacer_reserve");
                            if got == OK {
                                let off =
                                    h.switched_off.contains(&(pacer as usize, host_key(&host)));
                                // No ticket while the host is switched off.
                                assert_eq!(ticket.is_null(), off, "ticket {ticket:?}, off {off}");
                                if !ticket.is_null() {
                                    assert!(robotstxt_ticket_start(ticket) >= now);
                                    h.tickets.push(ticket);
                                    h.ticket_info.insert(
                                        ticket as usize,
                                        (pacer as usize, host_key(&host), false),
                                    );
                                }
                            } else {
                                assert_eq!(ticket as usize, SENTINEL);
                                assert!(
                                    got == NULL_ARGUMENT
                                        || got == INVALID_HOST
                                        || got == PACER_FULL,
                                    "{got}"
                                );
                            }
                            got
                        }
                        1 => {
                            let delay = *u.choose(&[
                                0.0,
                                0.5,
                                2.5,
                                -1.0,
                                f64::NAN,
                                f64::INFINITY,
                                1e300,
                                f64::MIN_POSITIVE,
                            ])?;
                            robotstxt_pacer_set_delay(
                                pacer,
                                host.ptr(),
                                host.len(),
                                u.arbitrary()?,
                                delay,
                                u.arbitrary()?,
                                u.arbitrary()?,
                                u.arbitrary()?,
                            )
                        }
                        2 => {
                            let (rules, null_rules) = pick(u, &h.rules)?;
                            let got =
                                robotstxt_pacer_set_rules(pacer, host.ptr(), host.len(), rules);
                            status(got, bad || null_rules, "pacer_set_rules");
                            got
                        }
                        3 => robotstxt_pacer_record(
                            pacer,
                            host.ptr(),
                            host.len(),
                            now,
                            u.arbitrary()?,
                            u.arbitrary()?,
                            u.arbitrary()?,
                        ),
                        4 => {
                            let on: bool = u.arbitrary()?;
                            let got =
                                robotstxt_pacer_set_enabled(pacer, host.ptr(), host.len(), on);
                            if got == OK {
                                let key = (pacer as usize, host_key(&host));
                                if on {
                                    h.switched_off.remove(&key);
                                } else {
                                    h.switched_off.insert(key);
                                }
                            }
                            got
                        }
                        5 => {
                            let mut count = 77usize;
                            let got = robotstxt_pacer_in_flight(
                                pacer,
                                host.ptr(),
                                host.len(),
                                now,
                                &mut count,
                            );
                            if got != OK {
                                assert_eq!(count, 77);
                            }
                            got
                        }
                        _ => {
                            let mut gap = 0u64;
                            robotstxt_pacer_gap_ms(pacer, host.ptr(), host.len(), &mut gap)
                        }
                    };
                    status(got, bad, "pacer");
                }
                28 | 29 => {
                    // Confirm a ticket, maybe with another pacer, maybe
                    // spent: a switched-off host's tickets never go.
                    let (pacer, null_pacer) = pick(u, &h.pacers)?;
                    let (ticket, null_ticket) = pick(u, &h.tickets)?;
                    let mut c = robotstxt_confirm {
                        kind: 77,
                        until_ms: 7,
                        busy: true,
                    };
                    let (pc, c_null) = out!(u, c);
                    let now: u64 = u.arbitrary()?;
                    let got = robotstxt_pacer_confirm(pacer, ticket, now, pc);
                    status(got, null_pacer || null_ticket || c_null, "pacer_confirm");
                    if null_pacer || null_ticket || c_null {
                        assert_eq!((c.kind, c.until_ms, c.busy), (77, 7, true));
                    } else {
                        let info = h
                            .ticket_info
                            .get_mut(&(ticket as usize))
                            .expect("a live ticket");
                        let own = info.0 == pacer as usize;
                        let off = h.switched_off.contains(&(pacer as usize, info.1.clone()));
                        if !own || info.2 {
                            assert_eq!(got, INVALID_TICKET, "{}", last_error());
                        }
                        if got == OK {
                            match c.kind {
                                CONFIRM_GO => assert!(!off, "a switched-off host's ticket went"),
                                CONFIRM_WAIT => assert!(!off && c.until_ms > now),
                                CONFIRM_DISABLED => assert!(off, "voided, but not switched off"),
                                k => panic!("confirm kind {k}"),
                            }
                            info.2 = c.kind != CONFIRM_WAIT;
                        } else {
                            assert!(got == INVALID_TICKET || got == PACER_FULL, "{got}");
                            assert_eq!((c.kind, c.until_ms, c.busy), (77, 7, true));
                        }
                    }
                }
                30 => {
                    let (pacer, null_pacer) = pick(u, &h.pacers)?;
                    let (ticket, null_ticket) = pick(u, &h.tickets)?;
                    let got = robotstxt_pacer_cancel(pacer, ticket);
                    status(got, null_pacer || null_ticket, "pacer_cancel");
                    if got == OK {
                        let info = h.ticket_info.get_mut(&(ticket as usize)).expect("live");
                        if info.0 == pacer as usize {
                            info.2 = true;
                        }
                    }
                    let _ = robotstxt_ticket_start(ticket);
                }
                31 => {
                    let ticket = take(u, &mut h.tickets)?;
                    h.ticket_info.remove(&(ticket as usize));
                    robotstxt_ticket_free(ticket);
                }
                _ => unreachable!(),
            }
        }
    }
    Ok(())
}

fuzz_target!(|data: &[u8]| {
    let mut h = Handles::default();
    let _ = run(&mut Unstructured::new(data), &mut h);
    // Free everything, in an order the input does not control: rules
    // outlive their robots, leases their cache.
    // SAFETY: each handle is live and freed once.
    unsafe {
        h.robots.drain(..).for_each(|p| robotstxt_robots_free(p));
        h.caches.drain(..).for_each(|p| robotstxt_cache_free(p));
        h.leases.drain(..).for_each(|p| robotstxt_lease_free(p));
        h.rules.drain(..).for_each(|p| robotstxt_rules_free(p));
        h.entries.drain(..).for_each(|p| robotstxt_entry_free(p));
        h.pacers.drain(..).for_each(|p| robotstxt_pacer_free(p));
        h.tickets.drain(..).for_each(|p| robotstxt_ticket_free(p));
    }
});
