//! `Cache`: robots.txt copies keyed by origin, with single-flight fetching
//! (behaviour §6–§7). Sans-I/O: a lookup says *fetch now* to one caller per
//! origin, and that caller stores what it got, or abandons the lease.

use std::sync::{Mutex, MutexGuard, PoisonError};

use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::access::{Access, Answer};
use crate::args::{self, OutcomeArgs};
use crate::errors::{self, OrRaise};
use crate::robots::PARSE_WITHOUT_GIL;
use crate::text;

/// The right, and duty, to fetch one origin's robots.txt: fetch
/// robots_url (conditionally, with etag and last_modified when set), then
/// Cache.store(lease, ...) or Cache.abandon(lease), once, with the cache
/// that handed it out. A lease dropped unended gives the fetch back at
/// once.
#[pyclass(frozen, module = "robotstxt")]
pub struct Lease {
    inner: Mutex<Option<robotstxt::Lease>>,
    origin: String,
    etag: Option<String>,
    last_modified: Option<String>,
}

impl Lease {
    fn lock(&self) -> MutexGuard<'_, Option<robotstxt::Lease>> {
        self.inner.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

#[pymethods]
impl Lease {
    /// The normalised origin, such as "https://example.com:8443".
    #[getter]
    fn origin(&self) -> &str {
        &self.origin
    }

    /// The URL to fetch: the origin's /robots.txt.
    #[getter]
    fn robots_url(&self) -> String {
        format!("{}/robots.txt", self.origin)
    }

    /// The ETag to send as If-None-Match, or None.
    #[getter]
    fn etag(&self) -> Option<&str> {
        self.etag.as_deref()
    }

    /// The Last-Modified to send as If-Modified-Since, or None.
    #[getter]
    fn last_modified(&self) -> Option<&str> {
        self.last_modified.as_deref()
    }

    /// Whether the lease was stored or abandoned.
    #[getter]
    fn ended(&self) -> bool {
        self.lock().is_none()
    }

    fn __repr__(&self) -> String {
        format!(
            "<robotstxt.Lease {}{}>",
            self.robots_url(),
            if self.ended() { " (ended)" } else { "" }
        )
    }
}

/// The answer of Cache.lookup; the fields that do not apply to kind are
/// None.
#[pyclass(frozen, get_all, module = "robotstxt")]
pub struct Lookup {
    /// "ready" (answer with answer), "fetch" (you fetch now: lease) or
    /// "wait" (another caller is fetching and there is no copy yet: ask
    /// again once it has stored, or at until).
    kind: &'static str,
    /// "ready": what answers.
    answer: Option<Py<Answer>>,
    /// "ready": whether it is an old copy, kept while the file is being
    /// fetched or is unreachable.
    stale: Option<bool>,
    /// "ready": when the next fetch is due after a failed one (ms), else
    /// None.
    retry_at: Option<u64>,
    /// "fetch": the lease to fetch with.
    lease: Option<Py<Lease>>,
    /// "wait": when the other caller's lease runs out (ms).
    until: Option<u64>,
}

#[pymethods]
impl Lookup {
    fn __repr__(&self) -> String {
        match self.kind {
            "ready" => format!(
                "<robotstxt.Lookup ready, stale={}>",
                if self.stale == Some(true) {
                    "True"
                } else {
                    "False"
                }
            ),
            "wait" => format!("<robotstxt.Lookup wait until {}>", self.until.unwrap_or(0)),
            kind => format!("<robotstxt.Lookup {kind}>"),
        }
    }
}

/// Counters since the cache was made.
#[pyclass(frozen, get_all, module = "robotstxt")]
pub struct CacheStats {
    /// Answers from a fresh copy.
    hits: u64,
    /// Lookups with no usable copy (a fetch handed out, a wait, or a
    /// disallow-all while another caller fetches).
    misses: u64,
    /// Fetches handed out.
    fetches: u64,
    /// Answers from a copy past its freshness.
    stale: u64,
    /// Origins dropped to stay within capacity.
    evictions: u64,
    /// Origins held now.
    entries: u64,
}

#[pymethods]
impl CacheStats {
    fn __repr__(&self) -> String {
        format!(
            "CacheStats(hits={}, misses={}, fetches={}, stale={}, evictions={}, entries={})",
            self.hits, self.misses, self.fetches, self.stale, self.evictions, self.entries
        )
    }
}

/// A bounded, thread-safe cache of robots.txt copies keyed by origin (as a
/// WHATWG URL parser reads it: scheme and host lower-cased, IDNA as
/// punycode, default ports dropped), with single-flight fetching: while
/// one caller fetches an origin's file, the others keep using the old
/// copy, or wait. Times are ms (`now`, the system clock when left out).
///
/// Options (keyword only): capacity (10,000 origins; the least recently
/// used without a fetch under way goes first), lease_ms (60,000: a fetch
/// neither stored nor abandoned within this long is handed to the next
/// caller), and the options of Entry: fresh_for_ms (24 h), retry_ms
/// (1 h), unreachable_limit_ms (30 days), after_limit, policy, profile,
/// parse_limit, typos. A Retry-After on a failed fetch sets the next try
/// instead of retry_ms, kept between 1 minute and 24 hours.
///
/// robotstxt.aio.AsyncRobotsCache does the fetching for asyncio code.
#[pyclass(frozen, module = "robotstxt")]
pub struct Cache {
    inner: robotstxt::Cache,
}

fn lease_arg<'a, 'py>(value: &'a Bound<'py, PyAny>) -> PyResult<&'a Bound<'py, Lease>> {
    value
        .cast::<Lease>()
        .map_err(|_| errors::wrong_type(value, &"lease", "a Lease from Cache.lookup"))
}

fn ended(py: Python<'_>) -> PyErr {
    errors::core(
        py,
        &robotstxt::Error::InvalidLease {
            reason: "was already stored or abandoned",
        },
    )
}

impl Cache {
    /// The lease of `value`, taken out of it; it stays in place (usable
    /// with its own cache) when it is of another cache.
    fn take(&self, py: Python<'_>, value: &Bound<'_, PyAny>) -> PyResult<robotstxt::Lease> {
        let lease = lease_arg(value)?;
        let mut slot = lease.get().lock();
        match slot.as_ref() {
            None => Err(ended(py)),
            Some(l) if !self.inner.issued(l) => Err(errors::core(
                py,
                &robotstxt::Error::InvalidLease {
                    reason: "belongs to another cache",
                },
            )),
            Some(_) => Ok(slot.take().expect("checked above")),
        }
    }
}

#[pymethods]
impl Cache {
    #[new]
    #[pyo3(signature = (*, capacity = None, lease_ms = None, **freshness))]
    fn new(
        capacity: Option<&Bound<'_, PyAny>>,
        lease_ms: Option<&Bound<'_, PyAny>>,
        freshness: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Cache> {
        let mut options = robotstxt::CacheOptions {
            policy: args::freshness("Cache", freshness)?,
            ..Default::default()
        };
        if let Some(c) = args::given(capacity) {
            options.capacity = args::integer(c, &"capacity", 1, u64::from(u32::MAX))? as usize;
        }
        if let Some(ms) = args::given(lease_ms) {
            options.lease_ms = args::millis(ms, &"lease_ms")?;
        }
        Ok(Cache {
            inner: robotstxt::Cache::new(options),
        })
    }

    /// What answers for `url` at `now`: kind "ready" (an answer), "fetch"
    /// (you fetch now, to one caller per origin at a time: lease) or
    /// "wait". when_fetching says what a lookup gets while another caller
    /// fetches and no copy exists yet: "wait" (the default) or
    /// "disallow-all" (a disallow-all answer now).
    ///
    /// Raises InvalidUrlError unless `url` is an absolute http/https URL
    /// with a host, and for an authority that HTTP clients read
    /// differently (a backslash, whitespace, a control byte or a
    /// %-escape in it, or an IPv4 address not written as four decimal
    /// numbers): normalise such URLs with your own URL parser first.
    #[pyo3(signature = (url, *, now = None, when_fetching = None))]
    fn lookup(
        &self,
        py: Python<'_>,
        url: &Bound<'_, PyAny>,
        now: Option<&Bound<'_, PyAny>>,
        when_fetching: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Lookup> {
        let now = args::now(now)?;
        let when = match args::given(when_fetching) {
            Some(w) => args::choice(
                w,
                "when_fetching",
                &[
                    ("wait", robotstxt::WhenFetching::Wait),
                    ("disallow-all", robotstxt::WhenFetching::DisallowAll),
                ],
            )?,
            None => robotstxt::WhenFetching::Wait,
        };
        let got = text::with(url, &"url", |u| self.inner.lookup(u, now, when))?.or_raise(py)?;
        let profile = self.inner.options().policy.parse.profile();
        let empty = |kind| Lookup {
            kind,
            answer: None,
            stale: None,
            retry_at: None,
            lease: None,
            until: None,
        };
        Ok(match got {
            robotstxt::Lookup::Ready {
                answer,
                stale,
                retry_at,
            } => Lookup {
                answer: Some(Py::new(py, Answer::new(answer, profile, retry_at))?),
                stale: Some(stale),
                retry_at,
                ..empty("ready")
            },
            robotstxt::Lookup::Fetch(lease) => {
                let made = Lease {
                    origin: lease.origin().to_owned(),
                    etag: lease.etag().map(text::lossy),
                    last_modified: lease.last_modified().map(text::lossy),
                    inner: Mutex::new(Some(lease)),
                };
                Lookup {
                    lease: Some(Py::new(py, made)?),
                    ..empty("fetch")
                }
            }
            robotstxt::Lookup::Wait { until } => Lookup {
                until: Some(until),
                ..empty("wait")
            },
        })
    }

    /// Stores what the fetch of `lease` returned at `now`, ends the lease,
    /// and says what the outcome meant (behaviour §6). Arguments as
    /// Entry.record; a 304 renews the old copy. A 2xx body is parsed here,
    /// with the GIL released when large.
    ///
    /// Raises InvalidLeaseError for a lease already stored or abandoned,
    /// one of another cache (it stays usable with its own), or one that
    /// ran out with a newer copy of its origin stored since; nothing
    /// changes then.
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
    ) -> PyResult<Access> {
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
        let now = args::now(now)?;
        let lease = self.take(py, lease)?;
        let result = outcome.result();
        let store = || self.inner.store(lease, now, &result);
        let stored = if result.body.len() >= PARSE_WITHOUT_GIL {
            py.detach(store)
        } else {
            store()
        };
        Ok(Access::new(stored.or_raise(py)?, None))
    }

    /// Gives a fetch back without an outcome (you gave up): the next
    /// lookup hands it to someone else.
    ///
    /// Raises InvalidLeaseError as store.
    fn abandon(&self, py: Python<'_>, lease: &Bound<'_, PyAny>) -> PyResult<()> {
        let lease = self.take(py, lease)?;
        self.inner.abandon(lease).or_raise(py)
    }

    /// Whether this cache handed `lease` out.
    fn issued(&self, lease: &Bound<'_, PyAny>) -> PyResult<bool> {
        let lease = lease_arg(lease)?;
        let slot = lease.get().lock();
        Ok(slot.as_ref().is_some_and(|l| self.inner.issued(l)))
    }

    /// Forgets `url`'s origin; returns whether it was held.
    ///
    /// Raises InvalidUrlError as lookup.
    fn remove(&self, py: Python<'_>, url: &Bound<'_, PyAny>) -> PyResult<bool> {
        text::with(url, &"url", |u| self.inner.remove(u))?.or_raise(py)
    }

    /// The counters since the cache was made.
    #[getter]
    fn stats(&self) -> CacheStats {
        let s = self.inner.stats();
        CacheStats {
            hits: s.hits,
            misses: s.misses,
            fetches: s.fetches,
            stale: s.stale,
            evictions: s.evictions,
            entries: s.entries,
        }
    }

    /// The profile bodies are parsed with: "rfc" or "google".
    #[getter]
    fn profile(&self) -> &'static str {
        args::profile_name(self.inner.options().policy.parse.profile())
    }

    /// How many origins are held.
    fn __len__(&self) -> usize {
        self.inner.len()
    }

    fn __repr__(&self) -> String {
        format!("<robotstxt.Cache {} origins>", self.inner.len())
    }
}

/// The origin Cache.lookup keys `url` by, as a WHATWG URL parser (a
/// browser, Node's fetch) reads it: "https://example.com" for
/// "HTTPS://Example.COM:443/a?b", punycode for an international host,
/// userinfo left out. Its robots.txt is origin + "/robots.txt".
///
/// Raises InvalidUrlError as Cache.lookup.
#[pyfunction]
pub fn origin(py: Python<'_>, url: &Bound<'_, PyAny>) -> PyResult<String> {
    // A new cache hands the first lookup of any origin a lease, which
    // names the origin; the lease is given back as it goes.
    let cache = robotstxt::Cache::new(robotstxt::CacheOptions {
        capacity: 1,
        ..Default::default()
    });
    let got = text::with(url, &"url", |u| {
        cache.lookup(u, 0, robotstxt::WhenFetching::Wait)
    })?
    .or_raise(py)?;
    match got {
        robotstxt::Lookup::Fetch(lease) => Ok(lease.origin().to_owned()),
        _ => unreachable!("a new cache hands out a lease"),
    }
}
