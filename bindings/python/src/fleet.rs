//! What a fleet's shared store needs from the core: a copy as bytes
//! (`Entry.encode`, `Entry.decode`, `Entry.stored_body`, whose methods in
//! access.rs call these), the Lua scripts each worker runs in Redis, and
//! the keys a copy and a pace are stored under. The package's
//! `robotstxt.fleet` (SharedRobotsCache, SharedPacer) uses them; they are
//! exported for a crawler that brings its own store code.

use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes, PyMemoryView, PyString};

use crate::args;
use crate::errors::{self, Kind, OrRaise};
use crate::robots::PARSE_WITHOUT_GIL;
use crate::rules::{rate_of, Rules};
use crate::text::{self, Text};

/// Stored bytes: `bytes`, `bytearray` or `memoryview`, never a `str` (a
/// copy is binary: a `str` would be a mistake, such as a Redis client
/// that decodes its replies).
fn binary<'a, 'py>(value: &'a Bound<'py, PyAny>, what: &str) -> PyResult<Text<'a, 'py>> {
    let bytes_like = value.is_instance_of::<PyBytes>()
        || value.is_instance_of::<PyByteArray>()
        || value.is_instance_of::<PyMemoryView>();
    if !bytes_like {
        return Err(errors::wrong_type(
            value,
            &what,
            "bytes, bytearray or memoryview (the bytes Entry.encode wrote, \
             as a Redis client that does not decode replies gives them)",
        ));
    }
    text::read(value, &what)
}

/// `Entry.encode`: `entry` as bytes, with `body` (the body its parsed copy
/// came from) when given.
pub fn encode<'py>(
    py: Python<'py>,
    entry: &robotstxt::Entry,
    body: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyBytes>> {
    let body = args::given(body)
        .map(|b| text::read(b, &"body"))
        .transpose()?;
    let body = body.as_ref().map_or(&[][..], Text::as_bytes);
    let encoded = entry.encode(body).or_raise(py)?;
    Ok(PyBytes::new(py, &encoded))
}

/// `Entry.decode`: the entry `data` holds, parsed with `policy`'s parse
/// options (without the GIL when the body is large).
pub fn decode(
    py: Python<'_>,
    data: &Bound<'_, PyAny>,
    policy: &robotstxt::FreshnessPolicy,
) -> PyResult<robotstxt::Entry> {
    let data = binary(data, "data")?;
    let bytes = data.as_bytes();
    let decode = || robotstxt::Entry::decode(bytes, policy);
    let decoded = if bytes.len() >= PARSE_WITHOUT_GIL {
        py.detach(decode)
    } else {
        decode()
    };
    decoded.or_raise(py)
}

/// `Entry.stored_body`: the body `data` carries.
pub fn stored_body<'py>(
    py: Python<'py>,
    data: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyBytes>> {
    let data = binary(data, "data")?;
    let body = robotstxt::Entry::stored_body(data.as_bytes()).or_raise(py)?;
    Ok(PyBytes::new(py, body))
}

/// The Lua source of the fleet script `name` ("lookup", "store",
/// "abandon", "reserve", "confirm", "cancel", "record", "set_delay",
/// "set_enabled", "pace_state"), the shared prelude first, ready for EVAL
/// or SCRIPT LOAD; each begins with its keys, arguments and answer.
///
/// Raises InvalidArgumentError when no script has that name,
/// ArgumentTypeError when it is not a str.
#[pyfunction]
pub fn fleet_script(name: &Bound<'_, PyAny>) -> PyResult<&'static str> {
    let py = name.py();
    let name = name
        .cast::<PyString>()
        .map_err(|_| errors::wrong_type(name, &"name", "a str"))?
        .to_cow()?;
    robotstxt::fleet_script(&name).ok_or_else(|| {
        let known: Vec<&str> = robotstxt::FLEET_SCRIPTS.iter().map(|(n, _)| *n).collect();
        errors::new(
            py,
            Kind::InvalidArgument,
            format!(
                "no fleet script is called {name:?}: pass one of {}",
                known.join(", ")
            ),
        )
    })
}

/// The origin whose /robots.txt governs `url`, "scheme://host[:port]", as
/// Cache keys it (the same as origin()): what a fleet's store keys an
/// origin's copy by ("<prefix>copy:{<origin>}").
///
/// Raises InvalidUrlError as Cache.lookup.
#[pyfunction]
pub fn robots_origin(py: Python<'_>, url: &Bound<'_, PyAny>) -> PyResult<String> {
    text::with(url, &"url", |u| robotstxt::robots_origin(u))?.or_raise(py)
}

/// The key a pacer tracks `host` by (ASCII letters lower-cased, nothing
/// else changed; Ticket.host): what a fleet's store keys a host's pace by
/// ("<prefix>pace:{<host>}").
///
/// Raises InvalidHostError for an empty or over-long host.
#[pyfunction]
pub fn pacer_host(py: Python<'_>, host: &Bound<'_, PyAny>) -> PyResult<String> {
    text::with(host, &"host", |h| robotstxt::pacer_host(h))?.or_raise(py)
}

/// The gap (ms) a pace asks of a pacer: the larger of crawl_delay
/// (seconds) and the request_rate interval (a RequestRate or a (requests,
/// seconds) pair), rounded up to the ms, as Pacer.set_delay sets it. Pass
/// a Rules alone for a crawler's rules' own pace (as Pacer.set_rules).
///
/// Raises InvalidArgumentError for a negative or non-finite delay or a
/// rate of 0, ArgumentTypeError for a wrong type.
#[pyfunction]
#[pyo3(signature = (crawl_delay = None, request_rate = None))]
pub fn pace_ms(
    py: Python<'_>,
    crawl_delay: Option<&Bound<'_, PyAny>>,
    request_rate: Option<&Bound<'_, PyAny>>,
) -> PyResult<u64> {
    if let Some(rules) = args::given(crawl_delay).and_then(|v| v.cast::<Rules>().ok()) {
        if args::given(request_rate).is_some() {
            return Err(errors::new(
                py,
                Kind::InvalidArgument,
                "pace_ms takes a Rules alone, or a crawl_delay and a request_rate",
            ));
        }
        return rules.get().with(py, |r| {
            robotstxt::delay_ms(r.crawl_delay(), r.request_rate())
        });
    }
    let delay = args::given(crawl_delay)
        .map(|v| args::seconds(v, &"crawl_delay"))
        .transpose()?;
    let rate = args::given(request_rate).map(rate_of).transpose()?;
    Ok(robotstxt::delay_ms(delay, rate))
}
