//! `Retry-After` (RFC 9110 §10.2.3): delta-seconds or an HTTP-date.

use super::date::{self, NotADate};
use super::{delta_ms, trim_ows, HeaderError, MAX_DELTA_MS};

const HEADER: &str = "Retry-After";

/// How long a `Retry-After` value says to wait, in milliseconds from
/// `now_epoch_ms` (milliseconds since the Unix epoch).
///
/// The value is delta-seconds (digits only, such as `120`) or an HTTP-date
/// in any of its three forms, always GMT (RFC 9110 §5.6.7): IMF-fixdate
/// `Sun, 06 Nov 1994 08:49:37 GMT`, RFC 850 `Sunday, 06-Nov-94 08:49:37
/// GMT` and asctime `Sun Nov  6 08:49:37 1994`. Whitespace around it is
/// ignored, and so are the case of a date's words and runs of whitespace
/// inside it. A date in the past gives 0. Waits longer than
/// [`MAX_DELTA_SECONDS`](crate::MAX_DELTA_SECONDS) (about 68 years) are
/// read as that: huge numbers never overflow.
///
/// ```
/// use robotstxt::retry_after_ms;
/// let now = 784_111_777_000; // Sun, 06 Nov 1994 08:49:37 GMT
/// assert_eq!(retry_after_ms(b" 120 ", now), Ok(120_000));
/// assert_eq!(retry_after_ms(b"Sun, 06 Nov 1994 08:50:37 GMT", now), Ok(60_000));
/// assert_eq!(retry_after_ms(b"Sunday, 06-Nov-94 08:49:00 GMT", now), Ok(0));
/// assert!(retry_after_ms(b"soon", now).is_err());
/// ```
///
/// # Errors
///
/// A [`HeaderError`] saying why the value is neither: empty, a negative or
/// fractional number, another zone than GMT, a weekday that is not the
/// date's, or anything else.
pub fn retry_after_ms(value: &[u8], now_epoch_ms: u64) -> Result<u64, HeaderError> {
    let text = trim_ows(value);
    if text.is_empty() {
        return Err(HeaderError::new(HEADER, "empty", value));
    }
    if let Some(ms) = delta_ms(text) {
        return Ok(ms);
    }
    match date::epoch_ms(text) {
        Ok(at) => Ok(at.saturating_sub(now_epoch_ms).min(MAX_DELTA_MS)),
        Err(NotADate::Zone(zone)) => Err(HeaderError::new(
            HEADER,
            format!("an HTTP-date is in GMT, not {zone}"),
            value,
        )),
        Err(NotADate::Weekday) => Err(HeaderError::new(
            HEADER,
            "the weekday is not the date's",
            value,
        )),
        Err(NotADate::Shape) => Err(HeaderError::new(
            HEADER,
            "not delta-seconds nor an HTTP-date",
            value,
        )),
    }
}
