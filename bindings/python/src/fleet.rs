//! What a fleet's shared store needs from the core: a copy as bytes
//! (`Entry.encode`, `Entry.decode`, `Entry.stored_body`, whose methods in
//! access.rs call these), the Lua scripts each worker runs in Redis, and
//! the keys a copy and a pace are stored under, exported for a crawler
//! that brings its own store code; and the core's fleet protocol
//! (fleet_cache.rs, fleet_pacer.rs) for the package's `robotstxt.fleet`,
//! which runs each `FleetCall` on its Redis client and hands the reply
//! back as the client gave it.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, MutexGuard, OnceLock, PoisonError};
use std::time::Instant;

use pyo3::prelude::*;
use pyo3::types::{PyBool, PyByteArray, PyBytes, PyInt, PyList, PyMemoryView, PyString, PyTuple};

use crate::args;
use crate::errors::{self, Kind, OrRaise};
use crate::fleet_cache::{FleetCache, SharedCacheStats, SharedLease, SharedLookup};
use crate::fleet_pacer::{FleetPacer, SharedConfirm, SharedTicket};
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
/// "renew", "abandon", "reserve", "confirm", "cancel", "record", "set_delay",
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

/// Adds the fleet protocol's classes to `module`.
pub fn register(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_class::<FleetCall>()?;
    module.add_class::<FleetCache>()?;
    module.add_class::<SharedLease>()?;
    module.add_class::<SharedLookup>()?;
    module.add_class::<SharedCacheStats>()?;
    module.add_class::<FleetPacer>()?;
    module.add_class::<SharedTicket>()?;
    module.add_class::<SharedConfirm>()?;
    Ok(())
}

pub fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Names a FleetCache or FleetPacer, so that its leases, tickets and
/// calls are told from another's.
pub fn next_id() -> u64 {
    static NEXT: AtomicU64 = AtomicU64::new(1);
    NEXT.fetch_add(1, Ordering::Relaxed)
}

/// When a step happens: `now` (ms on the fleet's clock, a test's or a
/// replay's), else a reading of the process's monotonic clock, from
/// which the core keeps the fleet's time (Redis's) so that a step of the
/// wall clock moves nothing.
pub fn at(now: Option<&Bound<'_, PyAny>>) -> PyResult<robotstxt::At> {
    static START: OnceLock<Instant> = OnceLock::new();
    Ok(match args::given(now) {
        Some(ms) => robotstxt::At::Given(args::millis(ms, &"now")?),
        None => robotstxt::At::Monotonic(
            u64::try_from(START.get_or_init(Instant::now).elapsed().as_millis())
                .unwrap_or(u64::MAX),
        ),
    })
}

/// A core error of a fleet step: a reply the core cannot read is a
/// RedisError naming the script, as a failed call is.
pub fn error(py: Python<'_>, error: &robotstxt::Error) -> PyErr {
    match error {
        robotstxt::Error::BadReply { script, .. } => {
            errors::with_attribute(py, Kind::Redis, error.to_string(), Some(("step", script)))
        }
        other => errors::core(py, other),
    }
}

/// A Redis reply as the client gave it: None, an int, bytes (or str, from
/// a client that decodes), a list, or an exception instance.
pub fn reply(value: &Bound<'_, PyAny>) -> robotstxt::Reply {
    use robotstxt::Reply;
    if value.is_none() {
        return Reply::Nil;
    }
    if value.is_instance_of::<PyBool>() {
        return Reply::Int(i64::from(value.is_truthy().unwrap_or(false)));
    }
    if value.is_instance_of::<PyInt>() {
        return value.extract::<i64>().map_or_else(
            |_| Reply::Error(format!("an integer out of range: {value}")),
            Reply::Int,
        );
    }
    if let Ok(items) = value.cast::<PyList>() {
        return Reply::Array(items.iter().map(|item| reply(&item)).collect());
    }
    if let Ok(items) = value.cast::<PyTuple>() {
        return Reply::Array(items.iter().map(|item| reply(&item)).collect());
    }
    if value.is_instance_of::<pyo3::exceptions::PyBaseException>() {
        return Reply::Error(value.str().map_or_else(|_| "?".into(), |s| s.to_string()));
    }
    match text::read(value, &"reply") {
        Ok(bytes) => Reply::Bytes(bytes.as_bytes().to_vec()),
        Err(_) => Reply::Error(format!(
            "a reply of type {}",
            value
                .get_type()
                .name()
                .map_or_else(|_| "?".into(), |n| n.to_string())
        )),
    }
}

/// What a call's reply is read with (boxed: a store step holds a copy).
pub enum Pending {
    Lookup(Box<robotstxt::LookupStep>),
    Store(Box<robotstxt::StoreStep>),
    Pace(Box<robotstxt::PaceStep>),
    /// A renewal or an abandon, read without a step.
    Plain,
}

/// One fleet script to run on a Redis client: EVALSHA of the SHA-1 of
/// source (EVAL of source when Redis answers NOSCRIPT) with keys, then
/// args; its reply goes back to the FleetCache or FleetPacer method that
/// reads it, once.
#[pyclass(frozen, module = "robotstxt")]
pub struct FleetCall {
    call: robotstxt::ScriptCall,
    pending: Mutex<Option<Pending>>,
    owner: u64,
}

impl FleetCall {
    pub fn new(call: robotstxt::ScriptCall, pending: Pending, owner: u64) -> FleetCall {
        FleetCall {
            call,
            pending: Mutex::new(Some(pending)),
            owner,
        }
    }

    /// The step `pick` takes from the call (it gives back what is not
    /// its kind): each reply is read once, by the object that made it.
    pub fn take<T>(
        &self,
        py: Python<'_>,
        owner: u64,
        what: &str,
        pick: impl FnOnce(Pending) -> Result<T, Pending>,
    ) -> PyResult<T> {
        let wrong = || {
            errors::new(
                py,
                Kind::InvalidArgument,
                format!(
                    "call must be a {what} call this object made, whose reply was not read yet"
                ),
            )
        };
        let mut slot = lock(&self.pending);
        if self.owner != owner {
            return Err(wrong());
        }
        let pending = slot.take().ok_or_else(wrong)?;
        pick(pending).map_err(|back| {
            *slot = Some(back);
            wrong()
        })
    }
}

#[pymethods]
impl FleetCall {
    /// The script's name, as fleet_script takes it.
    #[getter]
    fn name(&self) -> &'static str {
        self.call.name()
    }

    /// The script's Lua source, for EVAL or SCRIPT LOAD.
    #[getter]
    fn source(&self) -> &'static str {
        self.call.source()
    }

    /// The keys, in order.
    #[getter]
    fn keys(&self) -> Vec<String> {
        self.call.keys().to_vec()
    }

    /// The arguments, in order.
    #[getter]
    fn args<'py>(&self, py: Python<'py>) -> Vec<Bound<'py, PyBytes>> {
        self.call
            .args()
            .iter()
            .map(|a| PyBytes::new(py, a))
            .collect()
    }

    fn __repr__(&self) -> String {
        format!(
            "<robotstxt.FleetCall {} {:?}>",
            self.call.name(),
            self.call.keys()
        )
    }
}
