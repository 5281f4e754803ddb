//! HTTP facts of a robots.txt response (behaviour §11): the header values a
//! binding passes through by name, read once here for every binding.
//!
//! - [`retry_after_ms`]: how long a `Retry-After` says to wait;
//! - [`max_age_ms`]: `Cache-Control`'s `max-age`;
//! - [`HttpResponse::read`]: a whole response → the [`FetchResult`](crate::FetchResult)
//!   the cache takes, with the reason for each value it ignored.
//!
//! Nothing here reads a clock: `now_epoch_ms` is milliseconds since the Unix
//! epoch, as an HTTP-date is. Reading allocates only for a value it ignores
//! (the reason's text).

mod cache_control;
mod date;
mod response;
mod retry_after;

use std::fmt;

pub use cache_control::max_age_ms;
pub use response::{HttpRead, HttpResponse};
pub use retry_after::retry_after_ms;

/// The largest delta-seconds read, 2^31 s (about 68 years): larger values,
/// and dates further off, are read as this (RFC 9111 §1.2.2). In
/// milliseconds it stays below 2^53, exact in a JavaScript number.
pub const MAX_DELTA_SECONDS: u64 = 1 << 31;

/// [`MAX_DELTA_SECONDS`] in milliseconds.
const MAX_DELTA_MS: u64 = MAX_DELTA_SECONDS * 1000;

/// At most this many bytes of an ignored value are quoted in its reason.
const SHOWN_BYTES: usize = 64;

/// A header value the library ignores, and why. It is not a caller's
/// mistake: the server sent it, and the fetch goes on without it.
///
/// Its text names the header, the reason and the value (its first 64
/// bytes, with any byte outside printable ASCII escaped):
/// `Retry-After ignored: not delta-seconds nor an HTTP-date: "soon"`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HeaderError {
    header: &'static str,
    reason: String,
    value: String,
}

impl HeaderError {
    fn new(header: &'static str, reason: impl Into<String>, value: &[u8]) -> HeaderError {
        HeaderError {
            header,
            reason: reason.into(),
            value: shown(value),
        }
    }

    /// The header's name, such as `"Retry-After"` or `"Cache-Control"`.
    pub fn header(&self) -> &'static str {
        self.header
    }

    /// Why the value was ignored, such as `"not delta-seconds nor an
    /// HTTP-date"`.
    pub fn reason(&self) -> &str {
        &self.reason
    }
}

impl fmt::Display for HeaderError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} ignored: {}: {}",
            self.header, self.reason, self.value
        )
    }
}

impl std::error::Error for HeaderError {}

/// `value` quoted for a message: printable ASCII as it is, other bytes as
/// `\xNN` (a header may hold any byte), cut at [`SHOWN_BYTES`].
fn shown(value: &[u8]) -> String {
    let cut = value.len() > SHOWN_BYTES;
    let head = &value[..value.len().min(SHOWN_BYTES)];
    let mut out = String::with_capacity(head.len() + 8);
    out.push('"');
    for &b in head {
        match b {
            b'"' | b'\\' => {
                out.push('\\');
                out.push(b as char);
            }
            b' '..=b'~' => out.push(b as char),
            _ => {
                // Hand-written: shown in every binding, where formatting
                // machinery costs module size.
                const HEX: &[u8; 16] = b"0123456789abcdef";
                out.push_str("\\x");
                out.push(HEX[usize::from(b >> 4)] as char);
                out.push(HEX[usize::from(b & 15)] as char);
            }
        }
    }
    out.push('"');
    if cut {
        out.push_str(" (cut)");
    }
    out
}

/// `value` without the optional whitespace around it (OWS: SP and HTAB,
/// RFC 9110 §5.6.3).
fn trim_ows(value: &[u8]) -> &[u8] {
    let is_ows = |b: &u8| *b == b' ' || *b == b'\t';
    let start = value.iter().position(|b| !is_ows(b)).unwrap_or(value.len());
    let end = value
        .iter()
        .rposition(|b| !is_ows(b))
        .map_or(start, |i| i + 1);
    &value[start..end]
}

/// Delta-seconds (one or more digits) in milliseconds, saturating at
/// [`MAX_DELTA_SECONDS`]; `None` for anything else.
fn delta_ms(digits: &[u8]) -> Option<u64> {
    if digits.is_empty() || !digits.iter().all(u8::is_ascii_digit) {
        return None;
    }
    let seconds = digits.iter().fold(0u64, |n, d| {
        n.saturating_mul(10)
            .saturating_add(u64::from(d - b'0'))
            .min(MAX_DELTA_SECONDS)
    });
    Some(seconds * 1000)
}

#[cfg(test)]
mod tests;
