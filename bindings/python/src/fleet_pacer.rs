//! `FleetPacer`: one worker's side of a fleet's shared pacer, the core's
//! `robotstxt::FleetPacer` (src/fleet/pacer.rs) behind
//! robotstxt.fleet.SharedPacer, which runs each call in Redis. Here only
//! arguments, results and errors are converted; the core decides.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;

use pyo3::prelude::*;

use crate::args;
use crate::errors;
use crate::fleet::{at, error, lock, next_id, reply, FleetCall, Pending};
use crate::fleet_cache::prefix_of;
use crate::text;

/// A reserved start slot, from SharedPacer.reserve: sleep until start,
/// then SharedPacer.confirm it just before sending.
#[pyclass(frozen, module = "robotstxt.fleet")]
pub struct SharedTicket {
    inner: Mutex<robotstxt::FleetTicket>,
    /// The host, as the pacer keys it (ASCII lower case).
    #[pyo3(get)]
    host: String,
    spent: AtomicBool,
}

#[pymethods]
impl SharedTicket {
    /// When the request may start (epoch ms, the fleet's clock), as far as
    /// is known now; a confirm that answers "wait" may move it.
    #[getter]
    fn start(&self) -> u64 {
        lock(&self.inner).start
    }

    /// The host's generation the slot belongs to.
    #[getter]
    fn generation(&self) -> u64 {
        lock(&self.inner).generation
    }

    /// Whether the ticket is used up: confirmed "go" or "disabled", or
    /// cancelled.
    #[getter]
    fn spent(&self) -> bool {
        self.spent.load(Ordering::Relaxed)
    }

    fn __repr__(&self) -> String {
        if self.spent() {
            format!("<robotstxt.fleet.SharedTicket {} (spent)>", self.host)
        } else {
            format!(
                "<robotstxt.fleet.SharedTicket {} start={}>",
                self.host,
                self.start()
            )
        }
    }
}

/// What SharedPacer.confirm answers, as robotstxt.Confirm.
#[pyclass(frozen, get_all, module = "robotstxt.fleet")]
pub struct SharedConfirm {
    /// "go" (send now, then report the end with record), "wait" (confirm
    /// again at until) or "disabled" (the host is switched off: send
    /// nothing).
    kind: &'static str,
    /// "wait": when to confirm again (epoch ms, the fleet's clock); else
    /// None.
    until: Option<u64>,
    /// "wait": whether the in-flight limit holds the request back (a place
    /// may free sooner).
    busy: bool,
    /// "go": the fleet's time of the go (epoch ms); else None.
    at: Option<u64>,
}

#[pymethods]
impl SharedConfirm {
    fn __repr__(&self) -> String {
        let busy = if self.busy { "True" } else { "False" };
        match (self.until, self.at) {
            (Some(until), _) => format!(
                "SharedConfirm(kind={}, until={until}, busy={busy})",
                text::quoted(self.kind)
            ),
            (None, Some(at)) => format!("SharedConfirm(kind={}, at={at})", text::quoted(self.kind)),
            _ => format!("SharedConfirm(kind={})", text::quoted(self.kind)),
        }
    }
}

/// The core's shared pacer of one worker, sans I/O: each method gives a
/// FleetCall to run in Redis; the reply goes back to the method named
/// after the call's. It keeps what Redis last told it of each host it
/// paces (up to known_capacity hosts), to give back if Redis loses it.
/// robotstxt.fleet.SharedPacer is the surface to use.
///
/// Options (keyword only): prefix ("robotstxt:"), floor_ms (1,000),
/// backoff_cap_ms (600,000), max_in_flight (1), in_flight_timeout_ms
/// (120,000), retain_ms (24 h), known_capacity (10,000). `now` as
/// FleetCache's.
#[pyclass(frozen, module = "robotstxt")]
pub struct FleetPacer {
    inner: Mutex<Option<robotstxt::FleetPacer>>,
    id: u64,
}

type Step = robotstxt::PaceStep;

impl FleetPacer {
    fn with<T>(
        &self,
        py: Python<'_>,
        f: impl FnOnce(&mut robotstxt::FleetPacer) -> Result<T, robotstxt::Error>,
    ) -> PyResult<T> {
        let mut inner = lock(&self.inner);
        let pacer = inner.as_mut().ok_or_else(|| {
            errors::new(
                py,
                errors::Kind::Closed,
                "the shared pacer was used after aclose()",
            )
        })?;
        f(pacer).map_err(|e| error(py, &e))
    }

    fn call(&self, step: Step) -> FleetCall {
        FleetCall::new(step.call().clone(), Pending::Pace(Box::new(step)), self.id)
    }

    /// The call of a step on `host`.
    fn on_host(
        &self,
        py: Python<'_>,
        host: &Bound<'_, PyAny>,
        f: impl FnOnce(&mut robotstxt::FleetPacer, &[u8]) -> Result<Step, robotstxt::Error>,
    ) -> PyResult<FleetCall> {
        let step = text::with(host, &"host", |h| self.with(py, |p| f(p, h)))??;
        Ok(self.call(step))
    }

    fn take(&self, py: Python<'_>, call: &Bound<'_, FleetCall>) -> PyResult<Step> {
        call.get().take(py, self.id, "pace", |p| match p {
            Pending::Pace(step) => Ok(*step),
            other => Err(other),
        })
    }
}

fn ticket_arg<'a, 'py>(value: &'a Bound<'py, PyAny>) -> PyResult<&'a SharedTicket> {
    value.cast::<SharedTicket>().map(Bound::get).map_err(|_| {
        errors::wrong_type(value, &"ticket", "a SharedTicket from SharedPacer.reserve")
    })
}

#[pymethods]
impl FleetPacer {
    #[new]
    #[pyo3(signature = (*, prefix = None, floor_ms = None, backoff_cap_ms = None, max_in_flight = None, in_flight_timeout_ms = None, retain_ms = None, known_capacity = None))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        prefix: Option<&Bound<'_, PyAny>>,
        floor_ms: Option<&Bound<'_, PyAny>>,
        backoff_cap_ms: Option<&Bound<'_, PyAny>>,
        max_in_flight: Option<&Bound<'_, PyAny>>,
        in_flight_timeout_ms: Option<&Bound<'_, PyAny>>,
        retain_ms: Option<&Bound<'_, PyAny>>,
        known_capacity: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<FleetPacer> {
        let mut o = robotstxt::FleetPacerOptions::default();
        if let Some(p) = args::given(prefix) {
            o.prefix = prefix_of(p)?;
        }
        if let Some(v) = args::given(floor_ms) {
            o.pacer.floor_ms = args::millis(v, &"floor_ms")?;
        }
        if let Some(v) = args::given(backoff_cap_ms) {
            o.pacer.backoff_cap_ms = args::millis(v, &"backoff_cap_ms")?;
        }
        if let Some(v) = args::given(max_in_flight) {
            o.pacer.max_in_flight =
                args::integer(v, &"max_in_flight", 1, u64::from(u32::MAX))? as u32;
        }
        if let Some(v) = args::given(in_flight_timeout_ms) {
            o.pacer.in_flight_timeout_ms = args::millis(v, &"in_flight_timeout_ms")?;
        }
        if let Some(v) = args::given(retain_ms) {
            o.retain_ms = args::integer(v, &"retain_ms", 1, u64::MAX)?;
        }
        if let Some(v) = args::given(known_capacity) {
            o.known_capacity =
                args::integer(v, &"known_capacity", 1, u64::from(u32::MAX))? as usize;
        }
        let pacer = robotstxt::FleetPacer::new(o).map_err(|e| errors::core(py, &e))?;
        Ok(FleetPacer {
            inner: Mutex::new(Some(pacer)),
            id: next_id(),
        })
    }

    /// The call that reserves `host`'s next slot.
    #[pyo3(signature = (host, *, now = None))]
    fn reserve(
        &self,
        py: Python<'_>,
        host: &Bound<'_, PyAny>,
        now: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<FleetCall> {
        let at = at(now)?;
        self.on_host(py, host, |p, h| p.reserve(h, at))
    }

    /// The slot a reserve call's reply hands out, or None while the host
    /// is switched off.
    fn reserve_reply(
        &self,
        py: Python<'_>,
        call: &Bound<'_, FleetCall>,
        reply_: &Bound<'_, PyAny>,
    ) -> PyResult<Option<SharedTicket>> {
        let step = self.take(py, call)?;
        let reply_ = reply(reply_);
        let ticket = self.with(py, |p| p.reserve_reply(step, &reply_))?;
        Ok(ticket.map(|t| SharedTicket {
            host: t.host().to_owned(),
            inner: Mutex::new(t),
            spent: AtomicBool::new(false),
        }))
    }

    /// The call that asks whether `ticket`'s request may go now.
    ///
    /// Raises InvalidTicketError for a spent ticket.
    #[pyo3(signature = (ticket, *, now = None))]
    fn confirm(
        &self,
        py: Python<'_>,
        ticket: &Bound<'_, PyAny>,
        now: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<FleetCall> {
        let ticket = ticket_arg(ticket)?;
        if ticket.spent() {
            let reason =
                "was already confirmed (go or disabled) or cancelled: confirm each ticket \
                          until it says go, or cancel it";
            return Err(errors::core(
                py,
                &robotstxt::Error::InvalidTicket { reason },
            ));
        }
        let at = at(now)?;
        let core = lock(&ticket.inner);
        let step = self.with(py, |p| p.confirm(&core, at))?;
        Ok(self.call(step))
    }

    /// What a confirm call's reply says; "go" and "disabled" spend the
    /// ticket, and a slot the fleet moved is written back into it.
    fn confirm_reply(
        &self,
        py: Python<'_>,
        ticket: &Bound<'_, PyAny>,
        call: &Bound<'_, FleetCall>,
        reply_: &Bound<'_, PyAny>,
    ) -> PyResult<SharedConfirm> {
        let ticket = ticket_arg(ticket)?;
        let step = self.take(py, call)?;
        let reply_ = reply(reply_);
        let mut core = lock(&ticket.inner);
        let got = self.with(py, |p| p.confirm_reply(&mut core, step, &reply_))?;
        let answer = |kind, until, busy, at| SharedConfirm {
            kind,
            until,
            busy,
            at,
        };
        Ok(match got {
            robotstxt::FleetConfirm::Wait { until, busy } => {
                answer("wait", Some(until), busy, None)
            }
            robotstxt::FleetConfirm::Go { at } => {
                ticket.spent.store(true, Ordering::Relaxed);
                answer("go", None, false, Some(at))
            }
            robotstxt::FleetConfirm::Disabled => {
                ticket.spent.store(true, Ordering::Relaxed);
                answer("disabled", None, false, None)
            }
        })
    }

    /// Spends `ticket`; the call that gives its slot back, or None when
    /// it was spent already.
    #[pyo3(signature = (ticket, *, now = None))]
    fn cancel(
        &self,
        py: Python<'_>,
        ticket: &Bound<'_, PyAny>,
        now: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Option<FleetCall>> {
        let ticket = ticket_arg(ticket)?;
        let at = at(now)?;
        if ticket.spent.swap(true, Ordering::Relaxed) {
            return Ok(None);
        }
        let core = lock(&ticket.inner);
        let step = self.with(py, |p| p.cancel(&core, at))?;
        Ok(Some(self.call(step)))
    }

    /// The call that records how a request that went ended: its HTTP
    /// status (None: no response) and Retry-After in ms.
    #[pyo3(signature = (host, status, *, retry_after_ms = None, now = None))]
    fn record(
        &self,
        py: Python<'_>,
        host: &Bound<'_, PyAny>,
        status: Option<&Bound<'_, PyAny>>,
        retry_after_ms: Option<&Bound<'_, PyAny>>,
        now: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<FleetCall> {
        let status = args::given(status)
            .map(|s| args::integer(s, &"status", 100, 999).map(|s| s as u16))
            .transpose()?;
        let retry = args::given(retry_after_ms)
            .map(|ms| args::millis(ms, &"retry_after_ms"))
            .transpose()?;
        let at = at(now)?;
        self.on_host(py, host, |p, h| p.record(h, status, retry, at))
    }

    /// The call that sets `host`'s own gap (ms, as pace_ms gives it).
    #[pyo3(signature = (host, delay_ms, *, now = None))]
    fn set_delay(
        &self,
        py: Python<'_>,
        host: &Bound<'_, PyAny>,
        delay_ms: &Bound<'_, PyAny>,
        now: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<FleetCall> {
        let delay = args::integer(delay_ms, &"delay_ms", 0, u64::MAX)?;
        let at = at(now)?;
        self.on_host(py, host, |p, h| p.set_delay(h, delay, at))
    }

    /// The call that switches `host` off or back on.
    #[pyo3(signature = (host, enabled, *, now = None))]
    fn set_enabled(
        &self,
        py: Python<'_>,
        host: &Bound<'_, PyAny>,
        enabled: &Bound<'_, PyAny>,
        now: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<FleetCall> {
        let enabled = args::flag(enabled, "enabled")?;
        let at = at(now)?;
        self.on_host(py, host, |p, h| p.set_enabled(h, enabled, at))
    }

    /// The call that reads `host`'s pace as it stands.
    #[pyo3(signature = (host, *, now = None))]
    fn pace_state(
        &self,
        py: Python<'_>,
        host: &Bound<'_, PyAny>,
        now: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<FleetCall> {
        let at = at(now)?;
        self.on_host(py, host, |p, h| p.pace_state(h, at))
    }

    /// (the gap between starts now in ms, the requests in flight across
    /// the fleet), from a pace_state call's reply.
    fn pace_state_reply(
        &self,
        py: Python<'_>,
        call: &Bound<'_, FleetCall>,
        reply_: &Bound<'_, PyAny>,
    ) -> PyResult<(u64, u64)> {
        let step = self.take(py, call)?;
        let reply_ = reply(reply_);
        let state = self.with(py, |p| p.pace_state_reply(step, &reply_))?;
        Ok((state.gap_ms, state.in_flight))
    }

    /// Reads the reply of a cancel, record, set_delay or set_enabled
    /// call: the host's gap (cancel: 1 when the slot was given back).
    fn step_reply(
        &self,
        py: Python<'_>,
        call: &Bound<'_, FleetCall>,
        reply_: &Bound<'_, PyAny>,
    ) -> PyResult<u64> {
        let step = self.take(py, call)?;
        let reply_ = reply(reply_);
        self.with(py, |p| p.step_reply(step, &reply_))
    }

    /// Ms from `now` until `until` (the fleet's clock), 0 when past.
    #[pyo3(signature = (until, *, now = None))]
    fn ms_until(
        &self,
        py: Python<'_>,
        until: &Bound<'_, PyAny>,
        now: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<u64> {
        let until = args::millis(until, &"until")?;
        let at = at(now)?;
        self.with(py, |p| Ok(p.ms_until(until, at)))
    }

    /// Ends this pacer; later calls raise ClosedError.
    fn close(&self) {
        lock(&self.inner).take();
    }
}
