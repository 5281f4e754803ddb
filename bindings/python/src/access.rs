//! What a fetch of `/robots.txt` means (behaviour §6), one origin's copy over
//! time (`Entry`, behaviour §7), and the answer either gives.

use std::sync::{Mutex, MutexGuard, PoisonError};

use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};

use crate::args::{self, OutcomeArgs};
use crate::errors::OrRaise;
use crate::fleet;
use crate::robots::{Robots, PARSE_WITHOUT_GIL};
use crate::rules::{Blanket, Rules};
use crate::text;

fn disposition_name(d: robotstxt::Disposition) -> &'static str {
    match d {
        robotstxt::Disposition::FollowRules => "follow-rules",
        robotstxt::Disposition::AllowAll => "allow-all",
        robotstxt::Disposition::DisallowAll => "disallow-all",
        robotstxt::Disposition::NotModified => "not-modified",
    }
}

/// What a fetch outcome means (behaviour §6).
#[pyclass(frozen, get_all, module = "robotstxt")]
pub struct Access {
    /// "follow-rules" (a 2xx: follow the parsed file), "allow-all"
    /// (unavailable: a 404, or more than 5 redirects), "disallow-all"
    /// (unreachable: a 5xx, 429, 401/403, a network error; retry later) or
    /// "not-modified" (a 304: keep the cached copy, renewed).
    kind: &'static str,
    /// Whether the outcome is a failure to retry later (kind
    /// "disallow-all").
    retry_later: bool,
    /// The parsed body, for "follow-rules" from from_outcome; else None.
    robots: Option<Py<Robots>>,
}

impl Access {
    pub fn new(d: robotstxt::Disposition, robots: Option<Py<Robots>>) -> Access {
        Access {
            kind: disposition_name(d),
            retry_later: d.retry_later(),
            robots,
        }
    }
}

#[pymethods]
impl Access {
    fn __repr__(&self) -> String {
        format!(
            "Access(kind={}, retry_later={}{})",
            text::quoted(self.kind),
            if self.retry_later { "True" } else { "False" },
            if self.robots.is_some() {
                ", robots=<Robots>"
            } else {
                ""
            }
        )
    }
}

/// Reads a fetch outcome: `status` is the final HTTP status, or None for
/// a network error or a timeout; `redirects` is how many were followed to
/// reach it. policy: "careful" (the default: 401, 403 and 429 disallow
/// everything until a retry) or "strict" (RFC 9309 to the letter: they
/// allow everything).
///
/// >>> classify(503).kind, classify(404).kind
/// ('disallow-all', 'allow-all')
#[pyfunction]
#[pyo3(signature = (status, redirects = None, *, policy = None))]
pub fn classify(
    status: Option<&Bound<'_, PyAny>>,
    redirects: Option<&Bound<'_, PyAny>>,
    policy: Option<&Bound<'_, PyAny>>,
) -> PyResult<Access> {
    let status = args::status(status, "status")?;
    let redirects = match args::given(redirects) {
        Some(r) => args::integer(r, &"redirects", 0, u64::from(u32::MAX))? as u32,
        None => 0,
    };
    let policy = match args::given(policy) {
        Some(p) => args::choice(p, "policy", args::ACCESS_POLICIES)?,
        None => robotstxt::AccessPolicy::Careful,
    };
    let d = robotstxt::access::classify(status, redirects, policy);
    Ok(Access::new(d, None))
}

/// classify, and for a 2xx the body parsed (Access.robots) with the parse
/// options of Robots.parse.
#[pyfunction]
#[pyo3(signature = (status, body = None, *, redirects = None, policy = None, profile = None, parse_limit = None, typos = None))]
#[allow(clippy::too_many_arguments)]
pub fn from_outcome(
    py: Python<'_>,
    status: Option<&Bound<'_, PyAny>>,
    body: Option<&Bound<'_, PyAny>>,
    redirects: Option<&Bound<'_, PyAny>>,
    policy: Option<&Bound<'_, PyAny>>,
    profile: Option<&Bound<'_, PyAny>>,
    parse_limit: Option<&Bound<'_, PyAny>>,
    typos: Option<&Bound<'_, PyAny>>,
) -> PyResult<Access> {
    let access = classify(status, redirects, policy)?;
    let options = args::parse_options(profile, parse_limit, typos)?;
    if access.kind != "follow-rules" {
        return Ok(access);
    }
    let body = args::given(body)
        .map(|b| text::read(b, &"body"))
        .transpose()?;
    let bytes = body.as_ref().map_or(&[][..], text::Text::as_bytes);
    let robots = if bytes.len() >= PARSE_WITHOUT_GIL {
        py.detach(|| robotstxt::Robots::parse_with(bytes, &options))
    } else {
        robotstxt::Robots::parse_with(bytes, &options)
    };
    Ok(Access {
        robots: Some(Py::new(py, Robots::wrap(robots))?),
        ..access
    })
}

/// What answers for an origin: a parsed file, or a blanket answer.
#[pyclass(frozen, module = "robotstxt")]
pub struct Answer {
    core: robotstxt::Cached,
    profile: robotstxt::Profile,
    retry_at: Option<u64>,
}

impl Answer {
    pub fn new(
        core: robotstxt::Cached,
        profile: robotstxt::Profile,
        retry_at: Option<u64>,
    ) -> Answer {
        Answer {
            core,
            profile,
            retry_at,
        }
    }
}

#[pymethods]
impl Answer {
    /// "rules" (follow the parsed file: see robots), "allow-all" or
    /// "disallow-all" (see blanket).
    #[getter]
    fn kind(&self) -> &'static str {
        match self.core {
            robotstxt::Cached::Rules(_) => "rules",
            robotstxt::Cached::AllowAll(_) => "allow-all",
            robotstxt::Cached::DisallowAll(_) => "disallow-all",
        }
    }

    /// The parsed file when kind is "rules" (for its sitemaps, say), else
    /// None.
    #[getter]
    fn robots(&self) -> Option<Robots> {
        match &self.core {
            robotstxt::Cached::Rules(robots) => Some(Robots::wrap(robots.clone())),
            _ => None,
        }
    }

    /// The blanket answer and its cause, or None when kind is "rules".
    #[getter]
    fn blanket(&self) -> Option<Blanket> {
        self.core.blanket().map(Blanket::from_core)
    }

    /// When the file will be fetched again (ms), after a failed fetch; else
    /// None.
    #[getter]
    fn retry_at(&self) -> Option<u64> {
        self.retry_at
    }

    /// This answer, saying the file will be fetched at `retry_at` (ms, or
    /// None): what a cache over a shared store answers while another
    /// worker fetches, until that worker's lease runs out.
    ///
    /// Raises InvalidArgumentError or ArgumentTypeError for a time that is
    /// not a whole number of ms ≥ 0.
    #[pyo3(signature = (retry_at))]
    fn with_retry_at(&self, retry_at: Option<&Bound<'_, PyAny>>) -> PyResult<Answer> {
        let retry_at = args::given(retry_at)
            .map(|ms| args::millis(ms, &"retry_at"))
            .transpose()?;
        Ok(Answer::new(self.core.clone(), self.profile, retry_at))
    }

    /// The rules for `token` under this answer: the file's, or rules that
    /// allow or disallow every URL (their blanket says why). They carry
    /// retry_at. The token is checked as Robots.rules_for checks it,
    /// whatever the answer.
    ///
    /// Raises InvalidTokenError (RFC profile) as Robots.rules_for.
    fn rules_for(&self, py: Python<'_>, token: &Bound<'_, PyAny>) -> PyResult<Rules> {
        let token = text::read(token, &"token")?;
        let rules = self
            .core
            .rules_for(self.profile, token.as_bytes())
            .or_raise(py)?;
        Ok(Rules::wrap(rules.with_retry_at(self.retry_at)))
    }

    fn __repr__(&self) -> String {
        format!("<robotstxt.Answer {}>", self.kind())
    }
}

/// One origin's copy of its robots.txt and its clock (behaviour §7), as pure
/// functions of `now` (ms; the system clock when left out): fresh for a
/// day, the old copy kept while the file is unreachable, a retry an hour
/// after a failure (or the Retry-After, kept between 1 minute and 24
/// hours).
///
/// Options (keyword only): fresh_for_ms (86,400,000), retry_ms
/// (3,600,000), unreachable_limit_ms (30 days), after_limit ("keep" the
/// old copy past it, or "allow" everything), policy ("careful" or
/// "strict", as classify), and profile, parse_limit, typos as
/// Robots.parse.
///
/// Safe to share between threads; record() parses a large body with the
/// GIL released.
#[pyclass(frozen, module = "robotstxt")]
pub struct Entry {
    inner: Mutex<robotstxt::Entry>,
    policy: robotstxt::FreshnessPolicy,
}

impl Entry {
    fn lock(&self) -> MutexGuard<'_, robotstxt::Entry> {
        self.inner.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// An entry over a core entry (one decoded from a stored copy).
    pub fn from_core(entry: robotstxt::Entry, policy: robotstxt::FreshnessPolicy) -> Entry {
        Entry {
            inner: Mutex::new(entry),
            policy,
        }
    }
}

#[pymethods]
impl Entry {
    #[new]
    #[pyo3(signature = (**freshness))]
    fn new(freshness: Option<&Bound<'_, PyDict>>) -> PyResult<Entry> {
        Ok(Entry {
            inner: Mutex::new(robotstxt::Entry::new()),
            policy: args::freshness("Entry", freshness)?,
        })
    }

    /// Whether a fetch is due at `now`.
    #[pyo3(signature = (*, now = None))]
    fn is_due(&self, now: Option<&Bound<'_, PyAny>>) -> PyResult<bool> {
        let now = args::now(now)?;
        Ok(self.lock().is_due(now))
    }

    /// When the next fetch is due (ms).
    #[getter]
    fn due_at(&self) -> u64 {
        self.lock().due_at()
    }

    /// When the copy was last fetched or revalidated (ms), or None.
    #[getter]
    fn fetched_at(&self) -> Option<u64> {
        self.lock().fetched_at()
    }

    /// How many fetches in a row have failed.
    #[getter]
    fn failures(&self) -> u32 {
        self.lock().failures()
    }

    /// When the next fetch is due, if the last one failed; else None.
    #[getter]
    fn retry_at(&self) -> Option<u64> {
        self.lock().retry_at()
    }

    /// Whether a copy (rules or allow-all) is held.
    #[getter]
    fn has_copy(&self) -> bool {
        self.lock().has_copy()
    }

    /// The ETag to send as If-None-Match, or None.
    #[getter]
    fn etag(&self) -> Option<String> {
        self.lock().validators().etag.map(text::lossy)
    }

    /// The Last-Modified to send as If-Modified-Since, or None.
    #[getter]
    fn last_modified(&self) -> Option<String> {
        self.lock().validators().last_modified.map(text::lossy)
    }

    /// Records what a fetch made at `now` returned and says what it meant.
    /// `status` is the final HTTP status, or None for a network error or
    /// timeout; body the 2xx body; max_age_ms the Cache-Control max-age;
    /// retry_after_ms the Retry-After; etag and last_modified the
    /// validators.
    #[pyo3(signature = (status, *, body = None, redirects = None, max_age_ms = None, retry_after_ms = None, etag = None, last_modified = None, now = None))]
    #[allow(clippy::too_many_arguments)]
    fn record(
        &self,
        py: Python<'_>,
        status: Option<&Bound<'_, PyAny>>,
        body: Option<&Bound<'_, PyAny>>,
        redirects: Option<&Bound<'_, PyAny>>,
        max_age_ms: Option<&Bound<'_, PyAny>>,
        retry_after_ms: Option<&Bound<'_, PyAny>>,
        etag: Option<&Bound<'_, PyAny>>,
        last_modified: Option<&Bound<'_, PyAny>>,
        now: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Access> {
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
        let result = outcome.result();
        let record = || self.lock().record(now, &result, &self.policy);
        let d = if result.body.len() >= PARSE_WITHOUT_GIL {
            py.detach(record)
        } else {
            record()
        };
        Ok(Access::new(d, None))
    }

    /// What answers at `now`: the copy, kept while the file is
    /// unreachable, or disallow-all with none; past the unreachable limit,
    /// as after_limit says. The same Answer as Cache.lookup gives (with
    /// retry_at after a failed fetch).
    #[pyo3(signature = (*, now = None))]
    fn answer(&self, now: Option<&Bound<'_, PyAny>>) -> PyResult<Answer> {
        let now = args::now(now)?;
        let entry = self.lock();
        Ok(Answer::new(
            entry.cached(now, &self.policy),
            self.policy.parse.profile(),
            entry.retry_at(),
        ))
    }

    /// This entry as bytes for a store that a fleet of crawlers shares
    /// (Entry.decode reads them back): versioned and checksummed, with the
    /// body, the outcome, the freshness times, the validators and the
    /// failures. `body` is the body the entry's parsed copy came from: the
    /// 2xx body of the fetch that stored it (str, bytes, bytearray or
    /// memoryview, as record took it), or Entry.stored_body of the bytes
    /// this entry was decoded from. It is not read when the copy is not
    /// parsed rules (a 404, a 503, no copy): then it may be left out.
    ///
    /// Raises BodyMismatchError for another body than the copy's,
    /// ArgumentTypeError for a body that is not text.
    #[pyo3(signature = (body = None))]
    fn encode<'py>(
        &self,
        py: Python<'py>,
        body: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyBytes>> {
        fleet::encode(py, &self.lock(), body)
    }

    /// The entry Entry.encode wrote, its body parsed with the options given
    /// (those of Entry(): fresh_for_ms, retry_ms, unreachable_limit_ms,
    /// after_limit, policy, profile, parse_limit, typos). `data` is bytes,
    /// bytearray or memoryview, never str. Cost: a parse, for parsed rules
    /// (without the GIL when large).
    ///
    /// Raises InvalidCopyError for damaged, cut or foreign bytes,
    /// CopyVersionError (an InvalidCopyError) for a newer format,
    /// ArgumentTypeError for data that is not bytes.
    #[staticmethod]
    #[pyo3(signature = (data, /, **freshness))]
    fn decode(
        py: Python<'_>,
        data: &Bound<'_, PyAny>,
        freshness: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Entry> {
        let policy = args::freshness("Entry.decode", freshness)?;
        let entry = fleet::decode(py, data, &policy)?;
        Ok(Entry::from_core(entry, policy))
    }

    /// The body that bytes from Entry.encode carry (empty when the copy is
    /// not parsed rules), unparsed: what to pass to encode again after
    /// recording a failed refresh into the decoded entry.
    ///
    /// Raises as Entry.decode.
    #[staticmethod]
    fn stored_body<'py>(
        py: Python<'py>,
        data: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyBytes>> {
        fleet::stored_body(py, data)
    }

    fn __repr__(&self) -> String {
        let e = self.lock();
        format!(
            "<robotstxt.Entry has_copy={}, due_at={}, failures={}>",
            if e.has_copy() { "True" } else { "False" },
            e.due_at(),
            e.failures()
        )
    }
}
