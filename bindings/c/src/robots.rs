//! `robotstxt_robots`: a parsed file; selecting rules, sitemaps and host.

use super::options::{profile_code, robotstxt_options, robotstxt_profile};
use super::rules::robotstxt_rules;
use super::status::{robotstxt_status, Failure};
use super::{bytes, free_handle, guard, handle, into_handle, robotstxt_str, text, Out, Outcome};
use engine::{Options, Robots, Rules};

/// A parsed robots.txt. Immutable: any number of threads may use one handle
/// at the same time. Free it with `robotstxt_robots_free`, once, after every
/// other use; rules selected from it stay valid after that.
pub struct robotstxt_robots {
    pub(super) robots: Robots,
}

/// Parses `body_len` bytes at `body` with the default options (RFC profile,
/// 512,000-byte limit, typos accepted) into a new handle at `*robots_out`.
///
/// Parsing never fails on content: any bytes parse, and lines that make no
/// sense are skipped (see the diagnostics). On success the caller owns
/// `*robots_out` and frees it with `robotstxt_robots_free`.
///
/// # Safety
/// `body` must be readable for `body_len` bytes (or NULL when `body_len` is
/// 0); `robots_out` must be writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn robotstxt_robots_parse(
    body: *const u8,
    body_len: usize,
    robots_out: *mut *mut robotstxt_robots,
) -> robotstxt_status {
    guard("robotstxt_robots_parse", || {
        // SAFETY: per the contract above.
        let body = unsafe { bytes(body, body_len, "body")? };
        let out = Out::new(robots_out, "robots_out")?;
        let robots = Robots::parse(body);
        // SAFETY: `robots_out` is writable per the contract.
        unsafe { out.put(into_handle(robotstxt_robots { robots })) };
        Ok(())
    })
}

/// Parses like `robotstxt_robots_parse`, with `*options`; NULL `options`
/// means the defaults. An unknown profile gives
/// `ROBOTSTXT_STATUS_INVALID_OPTION` and a parse limit out of range
/// `ROBOTSTXT_STATUS_PARSE_LIMIT`; nothing is written then.
///
/// # Safety
/// As for `robotstxt_robots_parse`; `options` must be NULL or point to a
/// `robotstxt_options`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn robotstxt_robots_parse_with(
    body: *const u8,
    body_len: usize,
    options: *const robotstxt_options,
    robots_out: *mut *mut robotstxt_robots,
) -> robotstxt_status {
    guard("robotstxt_robots_parse_with", || {
        // SAFETY: per the contract above.
        let (body, options) = unsafe { (bytes(body, body_len, "body")?, options.as_ref()) };
        let out = Out::new(robots_out, "robots_out")?;
        let options = match options {
            Some(options) => options.to_core()?,
            None => Options::default(),
        };
        let robots = Robots::parse_with(body, &options);
        // SAFETY: `robots_out` is writable per the contract.
        unsafe { out.put(into_handle(robotstxt_robots { robots })) };
        Ok(())
    })
}

/// Frees a handle from `robotstxt_robots_parse*`. NULL does nothing.
///
/// # Safety
/// `robots` must be NULL or a live handle, not used again after this.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn robotstxt_robots_free(robots: *mut robotstxt_robots) {
    // SAFETY: forwarded to the caller.
    unsafe { free_handle("robotstxt_robots_free", robots) }
}

/// Writes the profile the file was parsed with to `*profile_out`.
///
/// # Safety
/// `robots` must be a live handle; `profile_out` writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn robotstxt_robots_profile(
    robots: *const robotstxt_robots,
    profile_out: *mut robotstxt_profile,
) -> robotstxt_status {
    guard("robotstxt_robots_profile", || {
        // SAFETY: per the contract above.
        let robots = unsafe { handle(robots, "robots")? };
        let out = Out::new(profile_out, "profile_out")?;
        // SAFETY: writable per the contract.
        unsafe { out.put(profile_code(robots.robots.profile())) };
        Ok(())
    })
}

/// Shared tail of the three selections: hand the rules to C.
///
/// # Safety
/// `rules_out` must be writable (it was checked non-NULL).
unsafe fn give_rules(out: Out<*mut robotstxt_rules>, rules: Rules) {
    // SAFETY: forwarded to the caller.
    unsafe { out.put(into_handle(robotstxt_rules { rules })) }
}

/// Selects the rules for the crawler whose product token is the
/// `token_len` bytes at `token` (RFC 9309 §2.2.1): every group naming it,
/// merged; else every `*` group; else none (everything allowed). Matching
/// is case-insensitive and whole.
///
/// On success the caller owns `*rules_out` and frees it with
/// `robotstxt_rules_free`; it does not depend on `robots` staying alive.
///
/// RFC profile: a token that is not one or more of `A-Z a-z _ -` (empty,
/// `MyBot/1.0`, a whole User-Agent header) gives
/// `ROBOTSTXT_STATUS_INVALID_TOKEN`, and `robotstxt_last_error` says what was
/// passed. The Google profile accepts any name and compares it whole.
///
/// # Safety
/// `robots` must be a live handle; `token` readable for `token_len` bytes
/// (or NULL when 0); `rules_out` writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn robotstxt_robots_rules_for(
    robots: *const robotstxt_robots,
    token: *const u8,
    token_len: usize,
    rules_out: *mut *mut robotstxt_rules,
) -> robotstxt_status {
    guard("robotstxt_robots_rules_for", || {
        // SAFETY: per the contract above.
        let (robots, token) =
            unsafe { (handle(robots, "robots")?, bytes(token, token_len, "token")?) };
        let out = Out::new(rules_out, "rules_out")?;
        let rules = robots.robots.rules_for(token)?;
        // SAFETY: writable per the contract.
        unsafe { give_rules(out, rules) };
        Ok(())
    })
}

/// Reads a C array of tokens.
///
/// # Safety
/// `tokens` must be NULL (when `count` is 0) or readable for `count`
/// entries, each of them valid text.
unsafe fn token_list<'a>(tokens: *const robotstxt_str, count: usize) -> Outcome<Vec<&'a [u8]>> {
    if count == 0 {
        return Ok(Vec::new()); // The core reports the empty list.
    }
    if tokens.is_null() {
        return Err(Failure::null_with_len("tokens", count));
    }
    if count > isize::MAX as usize / std::mem::size_of::<robotstxt_str>() {
        return Err(Failure::too_long("tokens", count));
    }
    // SAFETY: non-NULL and readable for `count` entries per the caller.
    let tokens = unsafe { std::slice::from_raw_parts(tokens, count) };
    tokens
        .iter()
        // SAFETY: each entry is valid text per the caller.
        .map(|&t| unsafe { text(t, "tokens[i]") })
        .collect()
}

/// Selects the rules for a crawler known by several names: every group
/// naming any of the `token_count` tokens, merged (Google's semantics); else
/// every `*` group. An empty list gives `ROBOTSTXT_STATUS_NO_TOKENS`; each
/// token is checked as in `robotstxt_robots_rules_for`.
///
/// # Safety
/// `robots` must be a live handle; `tokens` readable for `token_count`
/// entries (or NULL when 0), each valid text; `rules_out` writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn robotstxt_robots_rules_for_any(
    robots: *const robotstxt_robots,
    tokens: *const robotstxt_str,
    token_count: usize,
    rules_out: *mut *mut robotstxt_rules,
) -> robotstxt_status {
    guard("robotstxt_robots_rules_for_any", || {
        // SAFETY: per the contract above.
        let (robots, tokens) =
            unsafe { (handle(robots, "robots")?, token_list(tokens, token_count)?) };
        let out = Out::new(rules_out, "rules_out")?;
        let rules = robots.robots.rules_for_any(&tokens)?;
        // SAFETY: writable per the contract.
        unsafe { give_rules(out, rules) };
        Ok(())
    })
}

/// Selects strictest-of rules: a URL is allowed only if each token's own
/// selection allows it, and the crawl delay is the largest of them (for
/// honouring, say, `GPTBot` and `CCBot` groups as well as your own). Errors
/// as for `robotstxt_robots_rules_for_any`.
///
/// # Safety
/// As for `robotstxt_robots_rules_for_any`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn robotstxt_robots_rules_for_strictest(
    robots: *const robotstxt_robots,
    tokens: *const robotstxt_str,
    token_count: usize,
    rules_out: *mut *mut robotstxt_rules,
) -> robotstxt_status {
    guard("robotstxt_robots_rules_for_strictest", || {
        // SAFETY: per the contract above.
        let (robots, tokens) =
            unsafe { (handle(robots, "robots")?, token_list(tokens, token_count)?) };
        let out = Out::new(rules_out, "rules_out")?;
        let rules = robots.robots.rules_for_strictest(&tokens)?;
        // SAFETY: writable per the contract.
        unsafe { give_rules(out, rules) };
        Ok(())
    })
}

/// Writes the number of `sitemap` lines to `*count_out`.
///
/// # Safety
/// `robots` must be a live handle; `count_out` writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn robotstxt_robots_sitemap_count(
    robots: *const robotstxt_robots,
    count_out: *mut usize,
) -> robotstxt_status {
    guard("robotstxt_robots_sitemap_count", || {
        // SAFETY: per the contract above.
        let robots = unsafe { handle(robots, "robots")? };
        let out = Out::new(count_out, "count_out")?;
        // SAFETY: writable per the contract.
        unsafe { out.put(robots.robots.sitemaps().len()) };
        Ok(())
    })
}

/// Writes the `index`-th sitemap URL (from 0, in file order, as written) to
/// `*url_out` and `*url_len_out`. The text borrows from `robots` and stays
/// valid until it is freed. An index at or past the count gives
/// `ROBOTSTXT_STATUS_INDEX_OUT_OF_RANGE`.
///
/// # Safety
/// `robots` must be a live handle; `url_out` and `url_len_out` writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn robotstxt_robots_sitemap(
    robots: *const robotstxt_robots,
    index: usize,
    url_out: *mut *const u8,
    url_len_out: *mut usize,
) -> robotstxt_status {
    guard("robotstxt_robots_sitemap", || {
        // SAFETY: per the contract above.
        let robots = unsafe { handle(robots, "robots")? };
        let (ptr, len) = (
            Out::new(url_out, "url_out")?,
            Out::new(url_len_out, "url_len_out")?,
        );
        let url = robots
            .robots
            .sitemap(index)
            .ok_or_else(|| Failure::index("sitemap", index, robots.robots.sitemaps().len()))?;
        let url = robotstxt_str::borrow(url);
        // SAFETY: writable per the contract.
        unsafe {
            ptr.put(url.ptr);
            len.put(url.len);
        }
        Ok(())
    })
}

/// Writes the first `host` value (Yandex extension), as written, to
/// `*host_out` and `*host_len_out`, and whether there is one to
/// `*found_out`. Without one, the text is `(NULL, 0)` and `*found_out`
/// false. The text borrows from `robots` and stays valid until it is freed.
///
/// # Safety
/// `robots` must be a live handle; the three outputs writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn robotstxt_robots_host(
    robots: *const robotstxt_robots,
    host_out: *mut *const u8,
    host_len_out: *mut usize,
    found_out: *mut bool,
) -> robotstxt_status {
    guard("robotstxt_robots_host", || {
        // SAFETY: per the contract above.
        let robots = unsafe { handle(robots, "robots")? };
        let ptr = Out::new(host_out, "host_out")?;
        let len = Out::new(host_len_out, "host_len_out")?;
        let found = Out::new(found_out, "found_out")?;
        let host = robots.robots.host();
        let s = host.map_or(robotstxt_str::EMPTY, robotstxt_str::borrow);
        // SAFETY: writable per the contract.
        unsafe {
            ptr.put(s.ptr);
            len.put(s.len);
            found.put(host.is_some());
        }
        Ok(())
    })
}
