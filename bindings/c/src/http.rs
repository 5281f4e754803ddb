//! HTTP facts of a response to a fetch of `/robots.txt` (behaviour §11):
//! the header values as the client got them → what `robotstxt_fetch`
//! holds. The caller parses no header.

use super::access::robotstxt_fetch;
use super::status::{robotstxt_status, Failure, ROBOTSTXT_STATUS_INVALID_FIELD};
use super::{bytes, guard, handle, robotstxt_str, text, Out, Outcome};
use engine::{HeaderError, HttpResponse};

/// Which header values `robotstxt_http_read` ignored: a bitwise OR of
/// `ROBOTSTXT_HTTP_IGNORED_*`, 0 for none.
pub type robotstxt_http_ignored = u32;

/// `Retry-After` was neither delta-seconds nor an HTTP-date in GMT.
pub const ROBOTSTXT_HTTP_IGNORED_RETRY_AFTER: robotstxt_http_ignored = 1 << 0;
/// `Cache-Control` had `max-age` directives, none with delta-seconds.
pub const ROBOTSTXT_HTTP_IGNORED_CACHE_CONTROL: robotstxt_http_ignored = 1 << 1;

/// A response to a fetch of `/robots.txt`, as the HTTP client hands it
/// over: the header values raw, unparsed. Zero-initialise it
/// (`robotstxt_http_response r = {0};`) and set what you have: every header
/// is then absent. A header sent several times is passed joined by `", "`,
/// as HTTP clients join them, or as its first value.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct robotstxt_http_response {
    /// The final HTTP status, or 0 for a network error or timeout.
    pub http_status: u16,
    /// How many redirects were followed to reach it.
    pub redirects: u32,
    /// The body, for a 2xx.
    pub body: robotstxt_str,
    /// Whether the response had `Retry-After`.
    pub has_retry_after: bool,
    /// The `Retry-After` value.
    pub retry_after: robotstxt_str,
    /// Whether the response had `Cache-Control`.
    pub has_cache_control: bool,
    /// The `Cache-Control` value.
    pub cache_control: robotstxt_str,
    /// Whether the response had `ETag`.
    pub has_etag: bool,
    /// The `ETag` value.
    pub etag: robotstxt_str,
    /// Whether the response had `Last-Modified`.
    pub has_last_modified: bool,
    /// The `Last-Modified` value.
    pub last_modified: robotstxt_str,
}

fn ignored(error: HeaderError) -> Failure {
    Failure::new(ROBOTSTXT_STATUS_INVALID_FIELD, error.to_string())
}

/// Writes how long a `Retry-After` value says to wait to `*ms_out`, in ms
/// from `now_ms` (ms since the Unix epoch: an HTTP-date's clock).
///
/// The value is delta-seconds (`120`) or an HTTP-date in any of its three
/// forms, always GMT: `Sun, 06 Nov 1994 08:49:37 GMT`, `Sunday, 06-Nov-94
/// 08:49:37 GMT`, `Sun Nov  6 08:49:37 1994`. A date in the past gives 0;
/// waits past 2^31 s are read as 2^31 s. Anything else gives
/// `ROBOTSTXT_STATUS_INVALID_FIELD`, with the reason in
/// `robotstxt_last_error` (such as `Retry-After ignored: not delta-seconds
/// nor an HTTP-date: "soon"`).
///
/// # Safety
/// `value` must be readable for `value_len` bytes (or NULL with 0);
/// `ms_out` writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn robotstxt_retry_after_ms(
    value: *const u8,
    value_len: usize,
    now_ms: u64,
    ms_out: *mut u64,
) -> robotstxt_status {
    guard("robotstxt_retry_after_ms", || {
        // SAFETY: per the contract above.
        let value = unsafe { bytes(value, value_len, "value")? };
        let out = Out::new(ms_out, "ms_out")?;
        let ms = engine::retry_after_ms(value, now_ms).map_err(ignored)?;
        // SAFETY: writable per the contract.
        unsafe { out.put(ms) };
        Ok(())
    })
}

/// Writes the `max-age` of a `Cache-Control` value to `*ms_out`, in ms,
/// and true to `*has_max_age_out`; 0 and false when it has none.
///
/// The directive's name is matched in any case, its value may be quoted,
/// and commas inside quoted strings are not separators. The first `max-age`
/// holding delta-seconds wins; one with none of them gives
/// `ROBOTSTXT_STATUS_INVALID_FIELD`, with the reason in
/// `robotstxt_last_error`.
///
/// # Safety
/// `value` must be readable for `value_len` bytes (or NULL with 0); both
/// outputs writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn robotstxt_max_age_ms(
    value: *const u8,
    value_len: usize,
    ms_out: *mut u64,
    has_max_age_out: *mut bool,
) -> robotstxt_status {
    guard("robotstxt_max_age_ms", || {
        // SAFETY: per the contract above.
        let value = unsafe { bytes(value, value_len, "value")? };
        let ms = Out::new(ms_out, "ms_out")?;
        let has = Out::new(has_max_age_out, "has_max_age_out")?;
        let got = engine::max_age_ms(value).map_err(ignored)?;
        // SAFETY: writable per the contract.
        unsafe {
            ms.put(got.unwrap_or(0));
            has.put(got.is_some());
        }
        Ok(())
    })
}

/// Reads `*response` at `now_ms` (ms since the Unix epoch) into
/// `*fetch_out`, ready for `robotstxt_entry_record` or
/// `robotstxt_cache_store`.
///
/// `max_age_ms` is `Cache-Control`'s `max-age` (`robotstxt_max_age_ms`),
/// raised to at least `min_max_age_ms` so that a `max-age=0` need not turn a
/// crawl into a robots.txt fetch per page (pass 0 to take it as sent);
/// `retry_after_ms` is `Retry-After` (`robotstxt_retry_after_ms`); `etag`
/// and `last_modified` are the values less the whitespace around them, an
/// empty one absent. Status, redirects and body pass through. A value that
/// cannot be read is left out, and its `ROBOTSTXT_HTTP_IGNORED_*` bit set in
/// `*ignored_out` (which may be NULL): the call still succeeds. The reason
/// is what `robotstxt_retry_after_ms` or `robotstxt_max_age_ms` says of
/// the value.
///
/// The text of `*fetch_out` points into `*response`'s buffers: keep them
/// while you use it.
///
/// # Safety
/// `response` must point to a valid struct whose set text fields are valid
/// text; `fetch_out` writable; `ignored_out` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn robotstxt_http_read(
    response: *const robotstxt_http_response,
    now_ms: u64,
    min_max_age_ms: u64,
    fetch_out: *mut robotstxt_fetch,
    ignored_out: *mut robotstxt_http_ignored,
) -> robotstxt_status {
    guard("robotstxt_http_read", || {
        // SAFETY: per the contract above.
        let r = unsafe { handle(response, "response")? };
        // SAFETY: per the contract above, for every set field.
        let optional = |set: bool, s: robotstxt_str, name| -> Outcome<Option<&[u8]>> {
            set.then(|| unsafe { text(s, name) }).transpose()
        };
        let response = HttpResponse {
            status: (r.http_status != 0).then_some(r.http_status),
            redirects: r.redirects,
            // SAFETY: per the contract above.
            body: unsafe { text(r.body, "response->body")? },
            retry_after: optional(r.has_retry_after, r.retry_after, "response->retry_after")?,
            cache_control: optional(
                r.has_cache_control,
                r.cache_control,
                "response->cache_control",
            )?,
            etag: optional(r.has_etag, r.etag, "response->etag")?,
            last_modified: optional(
                r.has_last_modified,
                r.last_modified,
                "response->last_modified",
            )?,
        };
        let fetch = Out::new(fetch_out, "fetch_out")?;
        let flags = Out::optional(ignored_out);
        let read = response.read(now_ms, min_max_age_ms);
        let f = read.result;
        let text_of = |v: Option<&[u8]>| v.map_or(robotstxt_str::EMPTY, robotstxt_str::borrow);
        let fields = robotstxt_fetch {
            http_status: f.status.unwrap_or(0),
            redirects: f.redirects,
            body: robotstxt_str::borrow(f.body),
            has_max_age: f.max_age_ms.is_some(),
            max_age_ms: f.max_age_ms.unwrap_or(0),
            has_retry_after: f.retry_after_ms.is_some(),
            retry_after_ms: f.retry_after_ms.unwrap_or(0),
            has_etag: f.etag.is_some(),
            etag: text_of(f.etag),
            has_last_modified: f.last_modified.is_some(),
            last_modified: text_of(f.last_modified),
        };
        let mut bits = 0;
        if read.retry_after_error.is_some() {
            bits |= ROBOTSTXT_HTTP_IGNORED_RETRY_AFTER;
        }
        if read.cache_control_error.is_some() {
            bits |= ROBOTSTXT_HTTP_IGNORED_CACHE_CONTROL;
        }
        // SAFETY: writable per the contract (NULL `ignored_out` skipped).
        unsafe {
            fetch.put(fields);
            if let Some(flags) = flags {
                flags.put(bits);
            }
        }
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::status::{last_error_string, ROBOTSTXT_STATUS_NULL_ARGUMENT, ROBOTSTXT_STATUS_OK};

    fn s(text: &[u8]) -> robotstxt_str {
        robotstxt_str::borrow(text)
    }

    #[test]
    fn retry_after_reads_and_refuses() {
        let mut ms = 7;
        let now = 784_111_777_000;
        let value = b"Sun Nov  6 08:51:37 1994";
        // SAFETY: a live buffer and output.
        let st = unsafe { robotstxt_retry_after_ms(value.as_ptr(), value.len(), now, &mut ms) };
        assert_eq!((st, ms), (ROBOTSTXT_STATUS_OK, 120_000));
        // SAFETY: as above.
        let st = unsafe { robotstxt_retry_after_ms(b"soon".as_ptr(), 4, now, &mut ms) };
        assert_eq!((st, ms), (ROBOTSTXT_STATUS_INVALID_FIELD, 120_000));
        assert_eq!(
            last_error_string(),
            "Retry-After ignored: not delta-seconds nor an HTTP-date: \"soon\""
        );
        // SAFETY: NULL is never read.
        let st = unsafe { robotstxt_retry_after_ms(std::ptr::null(), 3, now, &mut ms) };
        assert_eq!(st, ROBOTSTXT_STATUS_NULL_ARGUMENT);
        // SAFETY: (NULL, 0) is the empty string, which is no value.
        let st = unsafe { robotstxt_retry_after_ms(std::ptr::null(), 0, now, &mut ms) };
        assert_eq!(st, ROBOTSTXT_STATUS_INVALID_FIELD);
        // SAFETY: NULL output refused before any write.
        let st = unsafe { robotstxt_retry_after_ms(b"1".as_ptr(), 1, now, std::ptr::null_mut()) };
        assert_eq!(st, ROBOTSTXT_STATUS_NULL_ARGUMENT);
    }

    #[test]
    fn max_age_with_and_without() {
        let (mut ms, mut has) = (7, true);
        // SAFETY: live buffers and outputs.
        let st = unsafe { robotstxt_max_age_ms(b"no-store".as_ptr(), 8, &mut ms, &mut has) };
        assert_eq!((st, ms, has), (ROBOTSTXT_STATUS_OK, 0, false));
        let v = b"Public, MAX-AGE=\"60\"";
        // SAFETY: as above.
        let st = unsafe { robotstxt_max_age_ms(v.as_ptr(), v.len(), &mut ms, &mut has) };
        assert_eq!((st, ms, has), (ROBOTSTXT_STATUS_OK, 60_000, true));
        // SAFETY: as above.
        let st = unsafe { robotstxt_max_age_ms(b"max-age=x".as_ptr(), 9, &mut ms, &mut has) };
        assert_eq!(
            (st, ms, has),
            (ROBOTSTXT_STATUS_INVALID_FIELD, 60_000, true)
        );
        // SAFETY: NULL output refused before any write.
        let st =
            unsafe { robotstxt_max_age_ms(v.as_ptr(), v.len(), &mut ms, std::ptr::null_mut()) };
        assert_eq!(st, ROBOTSTXT_STATUS_NULL_ARGUMENT);
    }

    #[test]
    fn a_response_read_into_a_fetch() {
        let response = robotstxt_http_response {
            http_status: 503,
            redirects: 1,
            body: s(b"busy"),
            has_retry_after: true,
            retry_after: s(b"120"),
            has_cache_control: true,
            cache_control: s(b"max-age=never"),
            has_etag: true,
            etag: s(b" \"v1\" "),
            has_last_modified: false,
            last_modified: robotstxt_str::EMPTY,
        };
        let mut fetch = std::mem::MaybeUninit::<robotstxt_fetch>::uninit();
        let mut ignored = 0;
        // SAFETY: a valid struct; writable outputs.
        let st =
            unsafe { robotstxt_http_read(&response, 0, 60_000, fetch.as_mut_ptr(), &mut ignored) };
        assert_eq!(st, ROBOTSTXT_STATUS_OK);
        // SAFETY: written on success.
        let f = unsafe { fetch.assume_init() };
        assert_eq!((f.http_status, f.redirects), (503, 1));
        assert_eq!((f.has_retry_after, f.retry_after_ms), (true, 120_000));
        assert!(!f.has_max_age && !f.has_last_modified);
        // SAFETY: borrows from `response`'s buffers, still alive.
        let etag = unsafe { text(f.etag, "etag") }.unwrap();
        assert_eq!((f.has_etag, etag), (true, &b"\"v1\""[..]));
        assert_eq!(ignored, ROBOTSTXT_HTTP_IGNORED_CACHE_CONTROL);
        // A NULL `ignored_out` is allowed; a NULL response is not.
        // SAFETY: as above.
        let st = unsafe {
            robotstxt_http_read(&response, 0, 0, fetch.as_mut_ptr(), std::ptr::null_mut())
        };
        assert_eq!(st, ROBOTSTXT_STATUS_OK);
        // SAFETY: NULL is refused before any read.
        let st = unsafe {
            robotstxt_http_read(std::ptr::null(), 0, 0, fetch.as_mut_ptr(), &mut ignored)
        };
        assert_eq!(st, ROBOTSTXT_STATUS_NULL_ARGUMENT);
        let bad = robotstxt_http_response {
            etag: robotstxt_str {
                ptr: std::ptr::null(),
                len: 2,
            },
            ..response
        };
        // SAFETY: a set field that is NULL with a length is refused.
        let st = unsafe { robotstxt_http_read(&bad, 0, 0, fetch.as_mut_ptr(), &mut ignored) };
        assert_eq!(st, ROBOTSTXT_STATUS_NULL_ARGUMENT);
        assert!(
            last_error_string().contains("response->etag"),
            "{}",
            last_error_string()
        );
    }
}
