//! `http_read`: the HTTP facts of a robots.txt response (behaviour §11),
//! read by the core for `robotstxt._http` (`retry_after_ms`, `max_age_ms`,
//! the fetchers' outcome), which passes the header values through and
//! parses none.

use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyString};

use crate::{args, text};

/// What `http_read` returns: max-age and Retry-After in ms, the
/// validators, and the reasons for what was ignored.
type Facts<'py> = (
    Option<u64>,
    Option<u64>,
    Option<Bound<'py, PyAny>>,
    Option<Bound<'py, PyAny>>,
    Vec<String>,
);

/// Reads a robots.txt response's header values, each a str, bytes or None,
/// as the HTTP client gives them: retry_after counted from now_ms (ms since
/// the Unix epoch; the system clock when left out), cache_control's max-age
/// raised to min_max_age_ms. Returns (max_age_ms, retry_after_ms, etag,
/// last_modified, ignored): None for what is absent or ignored, the
/// validators less the whitespace around them (an empty one None, each of
/// the type given), and why each ignored value was ignored.
///
/// Raises ArgumentTypeError for a wrong type, InvalidArgumentError for a
/// negative time.
#[pyfunction]
#[pyo3(signature = (retry_after = None, cache_control = None, etag = None, last_modified = None, *, now_ms = None, min_max_age_ms = None))]
pub fn http_read<'py>(
    py: Python<'py>,
    retry_after: Option<&Bound<'py, PyAny>>,
    cache_control: Option<&Bound<'py, PyAny>>,
    etag: Option<&Bound<'py, PyAny>>,
    last_modified: Option<&Bound<'py, PyAny>>,
    now_ms: Option<&Bound<'py, PyAny>>,
    min_max_age_ms: Option<&Bound<'py, PyAny>>,
) -> PyResult<Facts<'py>> {
    let now = args::now(now_ms)?;
    let floor = args::given(min_max_age_ms)
        .map(|v| args::millis(v, &"min_max_age_ms"))
        .transpose()?
        .unwrap_or(0);
    let (retry_after_text, cache_control_text) = (
        text_of(retry_after, "retry_after")?,
        text_of(cache_control, "cache_control")?,
    );
    let (etag_text, last_modified_text) = (
        text_of(etag, "etag")?,
        text_of(last_modified, "last_modified")?,
    );
    let facts = robotstxt::HttpResponse {
        retry_after: retry_after_text.as_ref().map(text::Text::as_bytes),
        cache_control: cache_control_text.as_ref().map(text::Text::as_bytes),
        etag: etag_text.as_ref().map(text::Text::as_bytes),
        last_modified: last_modified_text.as_ref().map(text::Text::as_bytes),
        ..robotstxt::HttpResponse::default()
    }
    .read(now, floor);
    let r = facts.result;
    // A validator goes back as the type it came in: a str's bytes are its
    // UTF-8 form, trimmed at ASCII whitespace, so still UTF-8.
    let same_type = |given: Option<&Bound<'py, PyAny>>, bytes: Option<&[u8]>| {
        let given = args::given(given)?;
        let bytes = bytes?;
        Some(if given.is_instance_of::<PyString>() {
            PyString::new(py, &text::lossy(bytes)).into_any()
        } else {
            PyBytes::new(py, bytes).into_any()
        })
    };
    Ok((
        r.max_age_ms,
        r.retry_after_ms,
        same_type(etag, r.etag),
        same_type(last_modified, r.last_modified),
        facts.ignored().map(ToString::to_string).collect(),
    ))
}

/// A header value's bytes, or `None` when it is absent (`None`).
fn text_of<'a, 'py>(
    value: Option<&'a Bound<'py, PyAny>>,
    what: &'static str,
) -> PyResult<Option<text::Text<'a, 'py>>> {
    args::given(value).map(|v| text::read(v, &what)).transpose()
}

/// Adds this module's functions to the extension module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(http_read, m)?)
}
