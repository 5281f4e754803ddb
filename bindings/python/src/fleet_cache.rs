//! `FleetCache`: one worker's side of a fleet's shared robots.txt cache,
//! the core's `robotstxt::FleetCache` (src/fleet/cache.rs) behind
//! robotstxt.fleet.SharedCache, which runs each call in Redis. Here only
//! arguments, results and errors are converted; the core decides.

use std::sync::Mutex;

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString};

use crate::access::{Access, Answer};
use crate::args::{self, OutcomeArgs};
use crate::errors::{self, Kind};
use crate::fleet::{at, error, lock, next_id, reply, FleetCall, Pending};
use crate::robots::PARSE_WITHOUT_GIL;
use crate::text;

/// The right, and duty, to fetch one origin's robots.txt for the whole
/// fleet, from SharedCache.lookup: fetch robots_url (conditionally, with
/// etag and last_modified when set), renewing it every
/// SharedCache.renew_every_ms meanwhile, then SharedCache.store or
/// SharedCache.abandon it, once, with the cache that handed it out.
#[pyclass(frozen, module = "robotstxt.fleet")]
pub struct SharedLease {
    inner: Mutex<Option<robotstxt::FleetLease>>,
    owner: u64,
    /// The normalised origin, such as "https://example.com:8443".
    #[pyo3(get)]
    origin: String,
    /// The ETag to send as If-None-Match, or None.
    #[pyo3(get)]
    etag: Option<String>,
    /// The Last-Modified to send as If-Modified-Since, or None.
    #[pyo3(get)]
    last_modified: Option<String>,
}

#[pymethods]
impl SharedLease {
    /// The URL to fetch: the origin's /robots.txt.
    #[getter]
    fn robots_url(&self) -> String {
        format!("{}/robots.txt", self.origin)
    }

    /// Whether the lease was stored or abandoned.
    #[getter]
    fn ended(&self) -> bool {
        lock(&self.inner).is_none()
    }

    fn __repr__(&self) -> String {
        let ended = if self.ended() { " (ended)" } else { "" };
        format!("<robotstxt.fleet.SharedLease {}{ended}>", self.robots_url())
    }
}

/// What SharedCache.lookup answers, as robotstxt.Lookup; the fields that
/// do not apply to kind are None.
#[pyclass(frozen, get_all, module = "robotstxt.fleet")]
pub struct SharedLookup {
    /// "ready" (answer with answer), "fetch" (you fetch now, for the
    /// fleet: lease) or "wait" (another worker is fetching and there is no
    /// copy yet: ask again once it has stored, or at until).
    kind: &'static str,
    /// "ready": what answers.
    answer: Option<Py<Answer>>,
    /// "ready": whether it is an old copy, kept while the file is being
    /// fetched or is unreachable.
    stale: Option<bool>,
    /// "ready": when the next fetch is due after a failed one, or when the
    /// other worker's lease runs out for a disallow-all meanwhile (ms).
    retry_at: Option<u64>,
    /// "fetch": the lease to fetch with.
    lease: Option<Py<SharedLease>>,
    /// "wait": when the other worker's lease runs out (ms, the fleet's
    /// clock).
    until: Option<u64>,
}

#[pymethods]
impl SharedLookup {
    fn __repr__(&self) -> String {
        match (self.kind, self.stale, self.until) {
            ("ready", stale, _) => format!(
                "<robotstxt.fleet.SharedLookup ready, stale={}>",
                if stale == Some(true) { "True" } else { "False" }
            ),
            ("wait", _, until) => format!(
                "<robotstxt.fleet.SharedLookup wait until {}>",
                until.unwrap_or(0)
            ),
            (kind, _, _) => format!("<robotstxt.fleet.SharedLookup {kind}>"),
        }
    }
}

/// What a SharedCache (or SharedRobotsCache) counted, in this worker.
#[pyclass(frozen, get_all, eq, module = "robotstxt.fleet")]
#[derive(PartialEq, Eq)]
pub struct SharedCacheStats {
    /// Answers from a copy that was not due.
    hits: u64,
    /// Questions on an origin this worker held no copy of (a fetch, a
    /// wait, or a disallow-all while another worker fetches).
    misses: u64,
    /// Fetches of robots.txt handed to this worker for the fleet.
    fetches: u64,
    /// Answers from an old copy: one kept after a failed fetch, or one due
    /// while another worker fetches it.
    stale: u64,
    /// Copies this worker dropped to stay within capacity.
    evictions: u64,
    /// Redis calls that failed.
    redis_errors: u64,
    /// Copies this worker holds now.
    entries: u64,
    /// Copies in Redis this worker could not read (damaged, or written in
    /// a newer format by a newer library): each was answered as no copy,
    /// and fetched over.
    unreadable: u64,
}

#[pymethods]
impl SharedCacheStats {
    fn __repr__(&self) -> String {
        format!(
            "SharedCacheStats(hits={}, misses={}, fetches={}, stale={}, evictions={}, \
             redis_errors={}, entries={}, unreadable={})",
            self.hits,
            self.misses,
            self.fetches,
            self.stale,
            self.evictions,
            self.redis_errors,
            self.entries,
            self.unreadable
        )
    }
}

/// The core's shared cache of one worker, sans I/O: each method gives a
/// FleetCall to run in Redis, or an answer; the reply goes back to the
/// method named after the call's. robotstxt.fleet.SharedCache is the
/// surface to use.
///
/// Options (keyword only): prefix ("robotstxt:"), lease_ms (60,000),
/// keep_ms (31 days), capacity (10,000 origins held parsed), and the
/// options of Entry. `now` (ms), where a method takes it, is the fleet's
/// time given (tests, replays); left out, the process's monotonic clock
/// is read and the fleet's time is Redis's.
#[pyclass(frozen, module = "robotstxt")]
pub struct FleetCache {
    inner: Mutex<Option<robotstxt::FleetCache>>,
    profile: robotstxt::Profile,
    id: u64,
}

impl FleetCache {
    /// `f` on the core cache, without the GIL when `big` (a copy to parse).
    fn with<T: Send>(
        &self,
        py: Python<'_>,
        big: bool,
        f: impl FnOnce(&mut robotstxt::FleetCache) -> Result<T, robotstxt::Error> + Send,
    ) -> PyResult<T> {
        let run = || lock(&self.inner).as_mut().map(f);
        let done = if big { py.detach(run) } else { run() };
        done.ok_or_else(|| closed(py))?.map_err(|e| error(py, &e))
    }

    fn answer(
        &self,
        py: Python<'_>,
        answer: robotstxt::Cached,
        retry_at: Option<u64>,
    ) -> PyResult<Py<Answer>> {
        Py::new(py, Answer::new(answer, self.profile, retry_at))
    }

    fn looked<'py>(
        &self,
        py: Python<'py>,
        got: robotstxt::FleetLookup,
    ) -> PyResult<Bound<'py, PyAny>> {
        let done = |kind| SharedLookup {
            kind,
            answer: None,
            stale: None,
            retry_at: None,
            lease: None,
            until: None,
        };
        let made = match got {
            robotstxt::FleetLookup::Run(step) => {
                let call = step.call().clone();
                let call = FleetCall::new(call, Pending::Lookup(Box::new(step)), self.id);
                return Ok(Bound::new(py, call)?.into_any());
            }
            robotstxt::FleetLookup::Ready {
                answer,
                stale,
                retry_at,
            } => SharedLookup {
                answer: Some(self.answer(py, answer, retry_at)?),
                stale: Some(stale),
                retry_at,
                ..done("ready")
            },
            robotstxt::FleetLookup::Fetch(lease) => {
                let made = SharedLease {
                    owner: self.id,
                    origin: lease.origin().to_owned(),
                    etag: lease.etag().map(text::lossy),
                    last_modified: lease.last_modified().map(text::lossy),
                    inner: Mutex::new(Some(lease)),
                };
                SharedLookup {
                    lease: Some(Py::new(py, made)?),
                    ..done("fetch")
                }
            }
            robotstxt::FleetLookup::Wait { until } => SharedLookup {
                until: Some(until),
                ..done("wait")
            },
        };
        Ok(Bound::new(py, made)?.into_any())
    }

    /// The core lease of `value`, taken out of it when `end`; a lease of
    /// another cache or one already ended is refused, and stays as it was.
    fn lease<T>(
        &self,
        py: Python<'_>,
        value: &Bound<'_, PyAny>,
        f: impl FnOnce(&mut Option<robotstxt::FleetLease>) -> T,
    ) -> PyResult<T> {
        let lease = value.cast::<SharedLease>().map_err(|_| {
            errors::wrong_type(value, &"lease", "a SharedLease from SharedCache.lookup")
        })?;
        let lease = lease.get();
        let mut slot = lock(&lease.inner);
        let reason = if slot.is_none() {
            "was already stored or abandoned"
        } else if lease.owner != self.id {
            "belongs to another cache"
        } else {
            return Ok(f(&mut slot));
        };
        Err(errors::core(py, &robotstxt::Error::InvalidLease { reason }))
    }

    fn stored(&self, py: Python<'_>, stored: robotstxt::Stored) -> PyResult<(Access, Py<Answer>)> {
        Ok((
            Access::new(stored.disposition, None),
            self.answer(py, stored.answer, None)?,
        ))
    }
}

fn closed(py: Python<'_>) -> PyErr {
    errors::new(py, Kind::Closed, "the shared cache was used after aclose()")
}

#[pymethods]
impl FleetCache {
    #[new]
    #[pyo3(signature = (*, prefix = None, lease_ms = None, keep_ms = None, capacity = None, **freshness))]
    fn new(
        py: Python<'_>,
        prefix: Option<&Bound<'_, PyAny>>,
        lease_ms: Option<&Bound<'_, PyAny>>,
        keep_ms: Option<&Bound<'_, PyAny>>,
        capacity: Option<&Bound<'_, PyAny>>,
        freshness: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<FleetCache> {
        let mut o = robotstxt::FleetCacheOptions {
            policy: args::freshness("SharedCache", freshness)?,
            ..Default::default()
        };
        if let Some(p) = args::given(prefix) {
            o.prefix = prefix_of(p)?;
        }
        if let Some(v) = args::given(lease_ms) {
            o.lease_ms = args::integer(v, &"lease_ms", 1, u64::MAX)?;
        }
        if let Some(v) = args::given(keep_ms) {
            o.keep_ms = args::integer(v, &"keep_ms", 1, u64::MAX)?;
        }
        if let Some(v) = args::given(capacity) {
            o.capacity = args::integer(v, &"capacity", 1, u64::from(u32::MAX))? as usize;
        }
        let profile = o.policy.parse.profile();
        let cache = robotstxt::FleetCache::new(o).map_err(|e| errors::core(py, &e))?;
        Ok(FleetCache {
            inner: Mutex::new(Some(cache)),
            profile,
            id: next_id(),
        })
    }

    /// A held copy's answer (a SharedLookup "ready") while it is fresh at
    /// `now`, or the FleetCall for lookup_reply. when_fetching: "wait" or
    /// "disallow-all", as SharedCache.lookup.
    #[pyo3(signature = (url, when_fetching, *, now = None))]
    fn lookup<'py>(
        &self,
        py: Python<'py>,
        url: &Bound<'py, PyAny>,
        when_fetching: &Bound<'py, PyAny>,
        now: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let when = args::choice(
            when_fetching,
            "when_fetching",
            &[
                ("wait", robotstxt::WhenFetching::Wait),
                ("disallow-all", robotstxt::WhenFetching::DisallowAll),
            ],
        )?;
        let at = at(now)?;
        let got = text::with(url, &"url", |u| {
            self.with(py, false, |c| c.lookup(u, at, when))
        })??;
        self.looked(py, got)
    }

    /// Reads the reply to a lookup call: a SharedLookup, or one more
    /// FleetCall (the fleet's copy could not be read: the next call takes
    /// the lease to fetch over it).
    fn lookup_reply<'py>(
        &self,
        py: Python<'py>,
        call: &Bound<'py, FleetCall>,
        reply_: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let step = call.get().take(py, self.id, "lookup", |p| match p {
            Pending::Lookup(step) => Ok(*step),
            other => Err(other),
        })?;
        let reply_ = reply(reply_);
        let big = matches!(&reply_, robotstxt::Reply::Array(items)
            if items.iter().any(|i| matches!(i, robotstxt::Reply::Bytes(b) if b.len() >= PARSE_WITHOUT_GIL)));
        let got = self.with(py, big, |c| c.lookup_reply(step, &reply_))?;
        self.looked(py, got)
    }

    /// The call that renews `lease` while its fetch goes on.
    #[pyo3(signature = (lease, *, now = None))]
    fn renew(
        &self,
        py: Python<'_>,
        lease: &Bound<'_, PyAny>,
        now: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<FleetCall> {
        let at = at(now)?;
        let renew = |slot: &mut Option<robotstxt::FleetLease>| {
            let lease = slot.as_ref().expect("checked by lease");
            self.with(py, false, |c| Ok(c.renew(lease, at)))
        };
        let call = self.lease(py, lease, renew)??;
        Ok(FleetCall::new(call, Pending::Plain, self.id))
    }

    /// Whether a renewal's reply says the lease is still this worker's.
    fn renew_reply(&self, py: Python<'_>, reply_: &Bound<'_, PyAny>) -> PyResult<bool> {
        let reply_ = reply(reply_);
        self.with(py, false, |c| c.renew_reply(&reply_))
    }

    /// Ends `lease` with what its fetch returned at `now` (arguments as
    /// Entry.record), and gives the call that stores it for the fleet.
    #[pyo3(signature = (lease, status, *, body = None, redirects = None, max_age_ms = None, retry_after_ms = None, etag = None, last_modified = None, now = None))]
    #[allow(clippy::too_many_arguments)]
    fn store(
        &self,
        py: Python<'_>,
        lease: &Bound<'_, PyAny>,
        status: Option<&Bound<'_, PyAny>>,
        body: Option<&Bound<'_, PyAny>>,
        redirects: Option<&Bound<'_, PyAny>>,
        max_age_ms: Option<&Bound<'_, PyAny>>,
        retry_after_ms: Option<&Bound<'_, PyAny>>,
        etag: Option<&Bound<'_, PyAny>>,
        last_modified: Option<&Bound<'_, PyAny>>,
        now: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<FleetCall> {
        // Every argument is read before the lease is taken: a mistake in
        // one leaves the lease as it was.
        let outcome = OutcomeArgs {
            status,
            body,
            redirects,
            max_age_ms,
            retry_after_ms,
            etag,
            last_modified,
        }
        .read()?;
        let at = at(now)?;
        let lease = self
            .lease(py, lease, Option::take)?
            .expect("checked by lease");
        let result = outcome.result();
        let big = result.body.len() >= PARSE_WITHOUT_GIL;
        let step = self.with(py, big, |c| c.store(lease, &result, at))?;
        Ok(FleetCall::new(
            step.call().clone(),
            Pending::Store(Box::new(step)),
            self.id,
        ))
    }

    /// Reads the reply to a store: (what the outcome meant, what answers
    /// from it, whether the fleet took it).
    fn store_reply(
        &self,
        py: Python<'_>,
        call: &Bound<'_, FleetCall>,
        reply_: &Bound<'_, PyAny>,
    ) -> PyResult<(Access, Py<Answer>, bool)> {
        let step = take_store(py, call, self.id)?;
        let reply_ = reply(reply_);
        let stored = self.with(py, false, |c| c.store_reply(step, &reply_))?;
        let took = stored.stored;
        let (access, answer) = self.stored(py, stored)?;
        Ok((access, answer, took))
    }

    /// Redis failed to take a store (counted): this worker holds the copy
    /// alone. (What the outcome meant, what answers from it.)
    fn store_failed(
        &self,
        py: Python<'_>,
        call: &Bound<'_, FleetCall>,
    ) -> PyResult<(Access, Py<Answer>)> {
        let step = take_store(py, call, self.id)?;
        let stored = self.with(py, false, |c| Ok(c.store_failed(step)))?;
        self.stored(py, stored)
    }

    /// Ends `lease` unstored, and gives the call that hands it back.
    fn abandon(&self, py: Python<'_>, lease: &Bound<'_, PyAny>) -> PyResult<FleetCall> {
        let lease = self
            .lease(py, lease, Option::take)?
            .expect("checked by lease");
        let call = self.with(py, false, |c| c.abandon(lease))?;
        Ok(FleetCall::new(call, Pending::Plain, self.id))
    }

    /// Counts a call that failed in Redis; then answer with fail_safe.
    fn redis_failed(&self, py: Python<'_>) -> PyResult<()> {
        self.with(py, false, |c| {
            c.redis_failed();
            Ok(())
        })
    }

    /// What answers for `url` while Redis does not: the copy held, due or
    /// not, else nothing allowed.
    #[pyo3(signature = (url, *, now = None))]
    fn fail_safe(
        &self,
        py: Python<'_>,
        url: &Bound<'_, PyAny>,
        now: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Py<Answer>> {
        let at = at(now)?;
        let got = text::with(url, &"url", |u| {
            self.with(py, false, |c| c.fail_safe(u, at))
        })??;
        self.answer(py, got, None)
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
        self.with(py, false, |c| Ok(c.ms_until(until, at)))
    }

    /// How often the holder of a lease renews it while its fetch goes on
    /// (ms): a third of lease_ms.
    #[getter]
    fn renew_every_ms(&self, py: Python<'_>) -> PyResult<u64> {
        self.with(py, false, |c| Ok(c.renew_every_ms()))
    }

    /// Whether this cache handed `lease` out and it is not ended.
    fn issued(&self, lease: &Bound<'_, PyAny>) -> bool {
        lease
            .cast::<SharedLease>()
            .is_ok_and(|l| l.get().owner == self.id && !l.get().ended())
    }

    /// Forgets this worker's copy of `url`'s origin (the fleet's stays).
    fn remove(&self, py: Python<'_>, url: &Bound<'_, PyAny>) -> PyResult<bool> {
        text::with(url, &"url", |u| self.with(py, false, |c| c.remove(u)))?
    }

    /// This worker's counters.
    #[getter]
    fn stats(&self, py: Python<'_>) -> PyResult<SharedCacheStats> {
        let s = self.with(py, false, |c| Ok(c.stats()))?;
        Ok(SharedCacheStats {
            hits: s.hits,
            misses: s.misses,
            fetches: s.fetches,
            stale: s.stale,
            evictions: s.evictions,
            redis_errors: s.redis_errors,
            entries: s.entries,
            unreadable: s.unreadable,
        })
    }

    /// Drops this worker's copies; later calls raise ClosedError.
    fn close(&self) {
        lock(&self.inner).take();
    }

    /// The copies this worker holds.
    fn __len__(&self) -> usize {
        lock(&self.inner)
            .as_ref()
            .map_or(0, robotstxt::FleetCache::len)
    }
}

fn take_store(
    py: Python<'_>,
    call: &Bound<'_, FleetCall>,
    owner: u64,
) -> PyResult<robotstxt::StoreStep> {
    call.get().take(py, owner, "store", |p| match p {
        Pending::Store(step) => Ok(*step),
        other => Err(other),
    })
}

/// A key prefix: a str.
pub fn prefix_of(value: &Bound<'_, PyAny>) -> PyResult<String> {
    let prefix = value
        .cast::<PyString>()
        .map_err(|_| errors::wrong_type(value, &"prefix", "a str"))?;
    Ok(prefix.to_cow()?.into_owned())
}
