//! A response to a fetch of `/robots.txt` → the [`FetchResult`] that
//! [`Entry::record`](crate::Entry::record) and the cache take.

use super::{max_age_ms, retry_after_ms, trim_ows, HeaderError};
use crate::FetchResult;

/// What a fetch of `/robots.txt` got, as the HTTP client hands it over:
/// the header values raw, by name, `None` when the response had none. The
/// caller parses nothing; [`read`](HttpResponse::read) does.
///
/// A header sent several times is passed as the client joins it (`, `
/// between the values), or as its first value.
#[derive(Clone, Copy, Debug, Default)]
pub struct HttpResponse<'a> {
    /// The final HTTP status, or `None` for a network error or timeout.
    pub status: Option<u16>,
    /// Redirects followed to reach it.
    pub redirects: u32,
    /// The body (read for a 2xx).
    pub body: &'a [u8],
    /// The `Retry-After` value.
    pub retry_after: Option<&'a [u8]>,
    /// The `Cache-Control` value.
    pub cache_control: Option<&'a [u8]>,
    /// The `ETag` value.
    pub etag: Option<&'a [u8]>,
    /// The `Last-Modified` value.
    pub last_modified: Option<&'a [u8]>,
}

/// A response read: the fetch result, and each header value ignored with
/// its reason.
#[derive(Clone, Debug)]
pub struct HttpRead<'a> {
    /// The fetch result, for [`Entry::record`](crate::Entry::record) or
    /// [`Cache::store`](crate::Cache::store).
    pub result: FetchResult<'a>,
    /// Why the `Retry-After` value was ignored, when it was.
    pub retry_after_error: Option<HeaderError>,
    /// Why the `Cache-Control` value's `max-age` was ignored, when it was.
    pub cache_control_error: Option<HeaderError>,
}

impl HttpRead<'_> {
    /// The header values ignored, with their reasons: none when every one
    /// was read.
    pub fn ignored(&self) -> impl Iterator<Item = &HeaderError> {
        self.retry_after_error
            .iter()
            .chain(self.cache_control_error.iter())
    }
}

impl<'a> HttpResponse<'a> {
    /// Reads the header values at `now_epoch_ms` (ms since the Unix epoch,
    /// the clock an HTTP-date is on).
    ///
    /// `max_age_ms` is `Cache-Control`'s `max-age` ([`max_age_ms`]), raised
    /// to at least `min_max_age_ms`, so that a `max-age=0` need not turn a
    /// crawl into a robots.txt fetch per page (0 takes any max-age as
    /// sent). `retry_after_ms` is `Retry-After` ([`retry_after_ms`]) counted
    /// from `now_epoch_ms`. `etag` and `last_modified` are the values as
    /// sent, less the whitespace around them; an empty one is absent.
    /// Status, redirects and body pass through.
    ///
    /// ```
    /// use robotstxt::HttpResponse;
    /// let read = HttpResponse {
    ///     status: Some(200),
    ///     body: b"User-agent: *\nDisallow: /private\n",
    ///     cache_control: Some(b"public, max-age=0"),
    ///     etag: Some(b"\"v1\""),
    ///     ..HttpResponse::default()
    /// }
    /// .read(0, 60_000);
    /// assert_eq!(read.result.max_age_ms, Some(60_000));
    /// assert_eq!(read.result.etag, Some(&b"\"v1\""[..]));
    /// assert_eq!(read.ignored().count(), 0);
    /// ```
    pub fn read(&self, now_epoch_ms: u64, min_max_age_ms: u64) -> HttpRead<'a> {
        let (max_age, cache_control_error) = match self.cache_control.map(max_age_ms) {
            None => (None, None),
            Some(Ok(ms)) => (ms.map(|ms| ms.max(min_max_age_ms)), None),
            Some(Err(error)) => (None, Some(error)),
        };
        let (retry_after, retry_after_error) = match self
            .retry_after
            .map(|value| retry_after_ms(value, now_epoch_ms))
        {
            None => (None, None),
            Some(Ok(ms)) => (Some(ms), None),
            Some(Err(error)) => (None, Some(error)),
        };
        let validator = |value: Option<&'a [u8]>| value.map(trim_ows).filter(|v| !v.is_empty());
        HttpRead {
            result: FetchResult {
                status: self.status,
                redirects: self.redirects,
                body: self.body,
                max_age_ms: max_age,
                retry_after_ms: retry_after,
                etag: validator(self.etag),
                last_modified: validator(self.last_modified),
            },
            retry_after_error,
            cache_control_error,
        }
    }
}
