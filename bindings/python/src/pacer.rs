//! `Pacer`: per-host request start slots (behaviour §8). Sans-I/O: `reserve`
//! hands out a ticket, the caller sleeps until its start and `confirm`s
//! it just before sending.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, MutexGuard, PoisonError};

use pyo3::prelude::*;

use crate::args;
use crate::errors::{self, OrRaise};
use crate::rules::{rate_of, Rules};
use crate::text;

/// A reserved start slot for one request to one host, from
/// Pacer.reserve. Sleep until start, then Pacer.confirm it just before
/// sending.
#[pyclass(frozen, module = "robotstxt")]
pub struct Ticket {
    /// None once cancelled.
    inner: Mutex<Option<robotstxt::Ticket>>,
    host: String,
    spent: AtomicBool,
}

impl Ticket {
    fn lock(&self) -> MutexGuard<'_, Option<robotstxt::Ticket>> {
        self.inner.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

#[pymethods]
impl Ticket {
    /// When the request may start (ms), as far as is known now; a confirm
    /// that answers "wait" may move it.
    #[getter]
    fn start(&self) -> Option<u64> {
        self.lock().as_ref().map(robotstxt::Ticket::start)
    }

    /// The host, as the pacer keys it (ASCII lower case).
    #[getter]
    fn host(&self) -> &str {
        &self.host
    }

    /// Whether the ticket is used up: confirmed "go" or "disabled", or
    /// cancelled.
    #[getter]
    fn spent(&self) -> bool {
        self.spent.load(Ordering::Relaxed)
    }

    fn __repr__(&self) -> String {
        match self.start() {
            Some(start) if !self.spent() => {
                format!("<robotstxt.Ticket {} start={}>", self.host, start)
            }
            _ => format!("<robotstxt.Ticket {} (spent)>", self.host),
        }
    }
}

/// What Pacer.confirm answers.
#[pyclass(frozen, get_all, module = "robotstxt")]
pub struct Confirm {
    /// "go" (send now, then report the end with Pacer.record), "wait"
    /// (confirm again at until) or "disabled" (the host is switched off:
    /// send nothing).
    kind: &'static str,
    /// "wait": when to confirm again (ms); else None.
    until: Option<u64>,
    /// "wait": whether the in-flight limit holds the request back (a
    /// request to the host ending may free a place sooner).
    busy: bool,
}

#[pymethods]
impl Confirm {
    fn __repr__(&self) -> String {
        match self.until {
            Some(until) => format!(
                "Confirm(kind={}, until={until}, busy={})",
                text::quoted(self.kind),
                if self.busy { "True" } else { "False" }
            ),
            None => format!("Confirm(kind={})", text::quoted(self.kind)),
        }
    }
}

/// Hands out request start slots per host, in order and thread-safe: the
/// gap between two starts to one host is at least max(floor_ms,
/// crawl-delay, request-rate interval), widened while the host answers
/// 429 or 5xx (backoff), with at most max_in_flight requests in flight.
/// Times are ms (`now`, the system clock when left out).
///
/// Options (keyword only): floor_ms (1,000), backoff_cap_ms (600,000),
/// capacity (100,000 hosts), max_in_flight (1), in_flight_timeout_ms
/// (120,000: a request never reported with record frees its place after
/// this long).
///
/// robotstxt.aio.AsyncPacer does the sleeping for asyncio code.
#[pyclass(frozen, module = "robotstxt")]
pub struct Pacer {
    inner: robotstxt::Pacer,
}

fn ticket_arg<'a, 'py>(value: &'a Bound<'py, PyAny>) -> PyResult<&'a Bound<'py, Ticket>> {
    value
        .cast::<Ticket>()
        .map_err(|_| errors::wrong_type(value, &"ticket", "a Ticket from Pacer.reserve"))
}

#[pymethods]
impl Pacer {
    #[new]
    #[pyo3(signature = (*, floor_ms = None, backoff_cap_ms = None, capacity = None, max_in_flight = None, in_flight_timeout_ms = None))]
    fn new(
        floor_ms: Option<&Bound<'_, PyAny>>,
        backoff_cap_ms: Option<&Bound<'_, PyAny>>,
        capacity: Option<&Bound<'_, PyAny>>,
        max_in_flight: Option<&Bound<'_, PyAny>>,
        in_flight_timeout_ms: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Pacer> {
        let mut o = robotstxt::PacerOptions::default();
        if let Some(v) = args::given(floor_ms) {
            o.floor_ms = args::millis(v, &"floor_ms")?;
        }
        if let Some(v) = args::given(backoff_cap_ms) {
            o.backoff_cap_ms = args::millis(v, &"backoff_cap_ms")?;
        }
        if let Some(v) = args::given(capacity) {
            o.capacity = args::integer(v, &"capacity", 1, u64::from(u32::MAX))? as usize;
        }
        if let Some(v) = args::given(max_in_flight) {
            o.max_in_flight = args::integer(v, &"max_in_flight", 1, u64::from(u32::MAX))? as u32;
        }
        if let Some(v) = args::given(in_flight_timeout_ms) {
            o.in_flight_timeout_ms = args::millis(v, &"in_flight_timeout_ms")?;
        }
        Ok(Pacer {
            inner: robotstxt::Pacer::new(o),
        })
    }

    /// Reserves the next start slot for `host` at `now`: a Ticket whose
    /// start (≥ now) says when the request may start, or None while the
    /// host is switched off. Slots are handed out in order, one gap apart,
    /// whatever the number of callers.
    ///
    /// Raises InvalidHostError for an empty or over-long host,
    /// PacerFullError for a new host when none can be forgotten.
    #[pyo3(signature = (host, *, now = None))]
    fn reserve(
        &self,
        py: Python<'_>,
        host: &Bound<'_, PyAny>,
        now: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Option<Ticket>> {
        let now = args::now(now)?;
        let ticket = text::with(host, &"host", |h| self.inner.reserve(h, now))?.or_raise(py)?;
        Ok(ticket.map(|t| Ticket {
            host: text::lossy(t.host()),
            inner: Mutex::new(Some(t)),
            spent: AtomicBool::new(false),
        }))
    }

    /// Whether the request of `ticket` may be sent at `now`, asked just
    /// before sending: "go" takes an in-flight place (free it with
    /// record); "wait" says until when; "disabled" voids the ticket. A
    /// backoff, Retry-After, slower pace or kill switch recorded since the
    /// reservation gives the ticket a new slot.
    ///
    /// Raises InvalidTicketError for a ticket of another pacer, or one
    /// already confirmed "go" or "disabled", or cancelled.
    #[pyo3(signature = (ticket, *, now = None))]
    fn confirm(
        &self,
        py: Python<'_>,
        ticket: &Bound<'_, PyAny>,
        now: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Confirm> {
        let now = args::now(now)?;
        let ticket = ticket_arg(ticket)?.get();
        let mut slot = ticket.lock();
        let Some(core) = slot.as_mut() else {
            return Err(errors::core(
                py,
                &robotstxt::Error::InvalidTicket {
                    reason: "was cancelled",
                },
            ));
        };
        let answer = self.inner.confirm(core, now).or_raise(py)?;
        Ok(match answer {
            robotstxt::Confirm::Go => {
                ticket.spent.store(true, Ordering::Relaxed);
                Confirm {
                    kind: "go",
                    until: None,
                    busy: false,
                }
            }
            robotstxt::Confirm::Wait { until, busy } => Confirm {
                kind: "wait",
                until: Some(until),
                busy,
            },
            robotstxt::Confirm::Disabled => {
                ticket.spent.store(true, Ordering::Relaxed);
                Confirm {
                    kind: "disabled",
                    until: None,
                    busy: false,
                }
            }
        })
    }

    /// Gives an unsent ticket's slot back when it is the last one handed
    /// out (the next reservation may take it); spends the ticket. Does
    /// nothing for a spent ticket.
    fn cancel(&self, ticket: &Bound<'_, PyAny>) -> PyResult<()> {
        let ticket = ticket_arg(ticket)?.get();
        let taken = ticket.lock().take();
        if let Some(core) = taken {
            ticket.spent.store(true, Ordering::Relaxed);
            self.inner.cancel(core);
        }
        Ok(())
    }

    /// Reports how a request to `host` that ended at `now` went: `status`
    /// (None for a network error) and its Retry-After in ms. Frees one
    /// in-flight place. A 429 or 5xx doubles the gap (up to
    /// backoff_cap_ms) and a Retry-After keeps every request from starting
    /// before it (up to a day); both give the tickets not yet confirmed
    /// new slots. Any other status halves the backoff again.
    ///
    /// Raises InvalidHostError, PacerFullError as reserve.
    #[pyo3(signature = (host, status, *, retry_after_ms = None, now = None))]
    fn record(
        &self,
        py: Python<'_>,
        host: &Bound<'_, PyAny>,
        status: Option<&Bound<'_, PyAny>>,
        retry_after_ms: Option<&Bound<'_, PyAny>>,
        now: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<()> {
        let status = args::status(status, "status")?;
        let retry = args::given(retry_after_ms)
            .map(|v| args::millis(v, &"retry_after_ms"))
            .transpose()?;
        let now = args::now(now)?;
        text::with(host, &"host", |h| self.inner.record(h, now, status, retry))?.or_raise(py)
    }

    /// Sets `host`'s own pace from a crawler's rules: their crawl delay
    /// and request rate. The floor still applies; a slower pace holds back
    /// the requests not yet started.
    fn set_rules(
        &self,
        py: Python<'_>,
        host: &Bound<'_, PyAny>,
        rules: &Bound<'_, PyAny>,
    ) -> PyResult<()> {
        let rules = rules
            .cast::<Rules>()
            .map_err(|_| errors::wrong_type(rules, &"rules", "a Rules"))?;
        let host = text::read(host, &"host")?;
        rules
            .get()
            .with(py, |r| self.inner.set_rules(host.as_bytes(), r))?
            .or_raise(py)
    }

    /// Sets `host`'s own pace: the larger of crawl_delay (seconds) and the
    /// request_rate interval (a RequestRate or a (requests, seconds)
    /// pair). The floor still applies.
    #[pyo3(signature = (host, crawl_delay = None, request_rate = None))]
    fn set_delay(
        &self,
        py: Python<'_>,
        host: &Bound<'_, PyAny>,
        crawl_delay: Option<&Bound<'_, PyAny>>,
        request_rate: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<()> {
        let delay = args::given(crawl_delay)
            .map(|v| args::seconds(v, &"crawl_delay"))
            .transpose()?;
        let rate = args::given(request_rate).map(rate_of).transpose()?;
        text::with(host, &"host", |h| self.inner.set_delay(h, delay, rate))?.or_raise(py)
    }

    /// Switches `host` off (reserve answers None, confirm "disabled") or
    /// back on: a kill switch. A switched-off host is never forgotten.
    fn set_enabled(
        &self,
        py: Python<'_>,
        host: &Bound<'_, PyAny>,
        enabled: &Bound<'_, PyAny>,
    ) -> PyResult<()> {
        let enabled = args::flag(enabled, "enabled")?;
        text::with(host, &"host", |h| self.inner.set_enabled(h, enabled))?.or_raise(py)
    }

    /// The gap now applied between two request starts to `host`, in ms.
    fn gap_ms(&self, py: Python<'_>, host: &Bound<'_, PyAny>) -> PyResult<u64> {
        text::with(host, &"host", |h| self.inner.gap_ms(h))?.or_raise(py)
    }

    /// How many requests to `host` are in flight at `now`.
    #[pyo3(signature = (host, *, now = None))]
    fn in_flight(
        &self,
        py: Python<'_>,
        host: &Bound<'_, PyAny>,
        now: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<usize> {
        let now = args::now(now)?;
        text::with(host, &"host", |h| self.inner.in_flight(h, now))?.or_raise(py)
    }

    /// How many hosts are tracked.
    fn __len__(&self) -> usize {
        self.inner.len()
    }

    fn __repr__(&self) -> String {
        format!("<robotstxt.Pacer {} hosts>", self.inner.len())
    }
}
