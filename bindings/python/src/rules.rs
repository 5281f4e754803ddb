//! `Rules`: the compiled matcher for one crawler, one URL a call or a
//! batch a call; and what its answers are made of.

use pyo3::prelude::*;
use pyo3::types::{PyList, PyString, PyTuple};

use crate::args;
use crate::errors::{self, Kind};
use crate::handle::Handle;
use crate::preferences::{self, ContentSignal, OtherRecord, Preferences};
use crate::text::{self, Text};

/// A batch of this many URLs or more is checked with the GIL released;
/// a smaller one is done in less time than the GIL takes to change hands
/// (and a thread that releases the GIL may wait a switch interval, 5 ms,
/// to get it back when others run Python meanwhile).
pub const BATCH_WITHOUT_GIL: usize = 64;

/// The answer for one URL and the rule that gave it.
#[pyclass(frozen, get_all, module = "robotstxt")]
pub struct Decision {
    /// May the crawler fetch the URL.
    allowed: bool,
    /// The deciding rule's 1-based line; 0 when no rule matched or a
    /// blanket answer decided.
    line: u32,
    /// "allow" or "disallow" (a rule decided), "none" (no rule matched, or
    /// the RFC's /robots.txt exemption), "allow-all" or "disallow-all" (a
    /// blanket answer decided: see Rules.blanket).
    kind: &'static str,
    /// The deciding pattern as compared (percent-normalised for the
    /// profile; "/dir/$" for Google's index.html rule), or "".
    pattern: Py<PyString>,
}

impl Decision {
    pub fn from_core(py: Python<'_>, d: robotstxt::Decision<'_>) -> Decision {
        Decision {
            allowed: d.allowed,
            line: d.line,
            kind: d.kind.name(),
            pattern: PyString::new(py, d.pattern).unbind(),
        }
    }

    pub fn key(&self, py: Python<'_>) -> (bool, u32, &'static str, String) {
        let pattern = self.pattern.bind(py).to_string();
        (self.allowed, self.line, self.kind, pattern)
    }
}

#[pymethods]
impl Decision {
    fn __repr__(&self, py: Python<'_>) -> String {
        format!(
            "Decision(allowed={}, line={}, kind={}, pattern={})",
            if self.allowed { "True" } else { "False" },
            self.line,
            text::quoted(self.kind),
            text::quoted(&self.pattern.bind(py).to_string())
        )
    }

    fn __eq__(&self, py: Python<'_>, other: &Bound<'_, PyAny>) -> bool {
        other
            .cast::<Decision>()
            .is_ok_and(|o| self.key(py) == o.get().key(py))
    }

    fn __hash__(&self, py: Python<'_>) -> PyResult<isize> {
        self.key(py).into_pyobject(py)?.hash()
    }
}

/// `request-rate: n/m`: `requests` requests per `seconds` seconds.
#[pyclass(frozen, get_all, module = "robotstxt")]
#[derive(Clone, Copy)]
pub struct RequestRate {
    /// Requests allowed per window, ≥ 1.
    requests: u32,
    /// The window in seconds, ≥ 1.
    seconds: u32,
    /// The gap between two requests the rate asks for, in seconds
    /// (seconds / requests).
    interval: f64,
}

impl RequestRate {
    pub fn from_core(r: robotstxt::RequestRate) -> RequestRate {
        RequestRate {
            requests: r.requests,
            seconds: r.seconds,
            interval: r.interval().as_secs_f64(),
        }
    }

    pub fn to_core(self) -> robotstxt::RequestRate {
        robotstxt::RequestRate {
            requests: self.requests,
            seconds: self.seconds,
        }
    }
}

#[pymethods]
impl RequestRate {
    /// `requests` per `seconds` seconds; both whole numbers ≥ 1.
    #[new]
    fn new(requests: &Bound<'_, PyAny>, seconds: &Bound<'_, PyAny>) -> PyResult<Self> {
        let max = u64::from(u32::MAX);
        let core = robotstxt::RequestRate {
            requests: args::integer(requests, &"requests", 1, max)? as u32,
            seconds: args::integer(seconds, &"seconds", 1, max)? as u32,
        };
        Ok(RequestRate::from_core(core))
    }

    fn __repr__(&self) -> String {
        format!(
            "RequestRate(requests={}, seconds={})",
            self.requests, self.seconds
        )
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .cast::<RequestRate>()
            .is_ok_and(|o| (o.get().requests, o.get().seconds) == (self.requests, self.seconds))
    }

    fn __hash__(&self, py: Python<'_>) -> PyResult<isize> {
        (self.requests, self.seconds).into_pyobject(py)?.hash()
    }
}

/// A blanket answer standing where a file's rules would, and why.
#[pyclass(frozen, get_all, module = "robotstxt")]
#[derive(Clone, Copy)]
pub struct Blanket {
    /// Whether everything is allowed (else everything is disallowed).
    allowed: bool,
    /// Why: "status" (the fetch ended with `status` after `redirects`
    /// redirects: a 404 allows all, a 503 disallows all), "no-response"
    /// (a network error or a timeout), "not-fetched" (nothing fetched
    /// yet), "unreachable-limit" (unreachable for longer than the policy's
    /// limit) or "caller" (made by Rules.allow_all or Rules.disallow_all).
    cause: &'static str,
    /// The HTTP status when `cause` is "status", else None.
    status: Option<u16>,
    /// The redirects followed when `cause` is "status", else None.
    redirects: Option<u32>,
}

impl Blanket {
    pub fn from_core(b: robotstxt::Blanket) -> Blanket {
        let (status, redirects) = match b.cause {
            robotstxt::Cause::Status { status, redirects } => (Some(status), Some(redirects)),
            _ => (None, None),
        };
        Blanket {
            allowed: b.allowed,
            cause: b.cause.name(),
            status,
            redirects,
        }
    }
}

#[pymethods]
impl Blanket {
    fn __repr__(&self) -> String {
        let opt = |v: Option<u32>| v.map_or_else(|| "None".to_owned(), |v| v.to_string());
        format!(
            "Blanket(allowed={}, cause={}, status={}, redirects={})",
            if self.allowed { "True" } else { "False" },
            text::quoted(self.cause),
            opt(self.status.map(u32::from)),
            opt(self.redirects)
        )
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other.cast::<Blanket>().is_ok_and(|o| {
            let o = o.get();
            (o.allowed, o.cause, o.status, o.redirects)
                == (self.allowed, self.cause, self.status, self.redirects)
        })
    }

    fn __hash__(&self, py: Python<'_>) -> PyResult<isize> {
        (self.allowed, self.cause, self.status, self.redirects)
            .into_pyobject(py)?
            .hash()
    }
}

/// The items of a batch argument, each with a reference of its own (the
/// list may change under a batch that runs without the GIL).
fn items<'py>(urls: &Bound<'py, PyAny>) -> PyResult<Vec<Bound<'py, PyAny>>> {
    if let Ok(list) = urls.cast::<PyList>() {
        return Ok(list.iter().collect());
    }
    if let Ok(tuple) = urls.cast::<PyTuple>() {
        return Ok(tuple.iter().collect());
    }
    if urls.is_instance_of::<PyString>() || urls.is_instance_of::<pyo3::types::PyBytes>() {
        return Err(errors::wrong_type(
            urls,
            &"urls",
            "a list of URLs (for one URL, call can_fetch(url))",
        ));
    }
    let iter = urls
        .try_iter()
        .map_err(|_| errors::wrong_type(urls, &"urls", "an iterable of URLs"))?;
    iter.collect()
}

/// The rules that apply to one crawler, from Robots.rules_for and its
/// siblings (or a cache's answer). Immutable and safe to share between
/// threads; independent of the Robots they came from.
///
/// A URL may be absolute ("https://host/a?b#c"), scheme-relative or a
/// path; only its path, params and query are matched. A str is matched as
/// its UTF-8 bytes, bytes as they are.
#[pyclass(frozen, module = "robotstxt")]
pub struct Rules {
    inner: Handle<robotstxt::Rules>,
}

impl Rules {
    pub fn wrap(inner: robotstxt::Rules) -> Rules {
        Rules {
            inner: Handle::new(inner, "Rules"),
        }
    }

    /// `can_fetch`, for the method and its METH_FASTCALL twin (fast.rs).
    pub fn check(&self, py: Python<'_>, url: &Bound<'_, PyAny>) -> PyResult<bool> {
        let url = text::read(url, &"url")?;
        self.inner.with(py, |r| r.can_fetch(url.as_bytes()))
    }

    /// `decide`, for the method and its METH_FASTCALL twin (fast.rs).
    pub fn decision(&self, py: Python<'_>, url: &Bound<'_, PyAny>) -> PyResult<Decision> {
        let url = text::read(url, &"url")?;
        self.inner
            .with(py, |r| Decision::from_core(py, r.decide(url.as_bytes())))
    }

    /// Runs `f` on the core rules (for the pacer).
    pub fn with<R>(&self, py: Python<'_>, f: impl FnOnce(&robotstxt::Rules) -> R) -> PyResult<R> {
        self.inner.with(py, f)
    }

    /// Runs `check` on every URL of `urls`; without the GIL for a large
    /// batch.
    fn batch<'py, T: Send>(
        &self,
        py: Python<'py>,
        urls: &Bound<'py, PyAny>,
        check: impl Fn(&robotstxt::Rules, &[u8]) -> T + Send + Sync,
    ) -> PyResult<(Vec<Bound<'py, PyAny>>, Vec<T>)> {
        let items = items(urls)?;
        let mut texts: Vec<Text<'_, '_>> = Vec::with_capacity(items.len());
        for (i, url) in items.iter().enumerate() {
            texts.push(text::read(url, &format_args!("urls[{i}]"))?);
        }
        let slices: Vec<&[u8]> = texts.iter().map(Text::as_bytes).collect();
        let run = |rules: &robotstxt::Rules| {
            // A batch meets rules not used lately: bring them in first.
            if slices.len() > 2 {
                rules.prefetch();
            }
            slices.iter().map(|u| check(rules, u)).collect::<Vec<T>>()
        };
        let results = if slices.len() >= BATCH_WITHOUT_GIL {
            self.inner.with_released(py, run)?
        } else {
            self.inner.with(py, run)?
        };
        drop(texts);
        Ok((items, results))
    }
}

#[pymethods]
impl Rules {
    /// Rules that allow everything: what an unavailable robots.txt (a 404)
    /// means. Decisions say kind "allow-all"; blanket.cause is "caller".
    #[staticmethod]
    #[pyo3(signature = (*, profile = None))]
    fn allow_all(profile: Option<&Bound<'_, PyAny>>) -> PyResult<Rules> {
        let options = args::parse_options(profile, None, None)?;
        Ok(Rules::wrap(robotstxt::Rules::allow_all(options.profile())))
    }

    /// Rules that disallow everything: what an unreachable robots.txt (a
    /// 5xx) means until it can be fetched. Decisions say kind
    /// "disallow-all" (the RFC profile still allows /robots.txt itself).
    #[staticmethod]
    #[pyo3(signature = (*, profile = None))]
    fn disallow_all(profile: Option<&Bound<'_, PyAny>>) -> PyResult<Rules> {
        let options = args::parse_options(profile, None, None)?;
        Ok(Rules::wrap(robotstxt::Rules::disallow_all(
            options.profile(),
        )))
    }

    /// May the crawler fetch `url`? The longest matching rule decides;
    /// allow wins ties; no matching rule: allowed.
    ///
    /// Cost: one call into native code; the check itself allocates nothing.
    /// Raises ArgumentTypeError unless `url` is str, bytes, bytearray or
    /// memoryview; InvalidTextError for a str with a lone surrogate.
    #[pyo3(signature = (url, /))]
    fn can_fetch(&self, py: Python<'_>, url: &Bound<'_, PyAny>) -> PyResult<bool> {
        self.check(py, url)
    }

    /// The answer for `url` and the rule that decided it.
    ///
    /// Raises as can_fetch.
    #[pyo3(signature = (url, /))]
    fn decide(&self, py: Python<'_>, url: &Bound<'_, PyAny>) -> PyResult<Decision> {
        self.decision(py, url)
    }

    /// The URLs of `urls` the crawler may fetch, in order (the same
    /// objects). One call into native code for the whole batch, with the
    /// GIL released for 64 URLs and more.
    ///
    /// Raises ArgumentTypeError unless `urls` is an iterable of str,
    /// bytes, bytearray or memoryview (a lone str is refused, not read
    /// character by character).
    fn filter_allowed<'py>(
        &self,
        py: Python<'py>,
        urls: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyList>> {
        let (items, allowed) = self.batch(py, urls, |r, u| r.can_fetch(u))?;
        let kept = items
            .into_iter()
            .zip(allowed)
            .filter_map(|(item, ok)| ok.then_some(item));
        PyList::new(py, kept)
    }

    /// can_fetch for each URL of `urls`, in order, as a list of bools. One
    /// call for the whole batch; raises as filter_allowed.
    fn can_fetch_many<'py>(
        &self,
        py: Python<'py>,
        urls: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyList>> {
        let (_, allowed) = self.batch(py, urls, |r, u| r.can_fetch(u))?;
        PyList::new(py, allowed)
    }

    /// decide for each URL of `urls`, in order. One call for the whole
    /// batch; raises as filter_allowed.
    fn decide_many<'py>(
        &self,
        py: Python<'py>,
        urls: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyList>> {
        let (_, decisions) = self.batch(py, urls, |r, u| {
            let d = r.decide(u);
            (d.allowed, d.line, d.kind, d.pattern.to_owned())
        })?;
        let made = decisions
            .into_iter()
            .map(|(allowed, line, kind, pattern)| Decision {
                allowed,
                line,
                kind: kind.name(),
                pattern: PyString::new(py, &pattern).unbind(),
            });
        PyList::new(py, made)
    }

    /// The usage preferences for `url` (behaviour §10.3-§10.4): of the
    /// selected groups' Content-Usage rules whose path matches, those of
    /// the greatest length, combined per label (any "n" wins, then any
    /// "y"). A URL the rules disallow states nothing (crawlable False).
    ///
    /// header: the response's own Content-Usage field (str or bytes),
    /// combined per label the same way (behaviour §10.6); a field that is
    /// not an RFC 9651 Dictionary, or is empty, raises
    /// InvalidStatementError (its `reason` is "syntax" or "empty").
    ///
    /// Cost: a decide, then the matching of the Content-Usage rules; only
    /// the answer allocates. Raises as can_fetch otherwise.
    #[pyo3(signature = (url, /, *, header = None))]
    fn preferences(
        &self,
        py: Python<'_>,
        url: &Bound<'_, PyAny>,
        header: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Preferences> {
        let url = text::read(url, &"url")?;
        let header = header.map(|h| text::read(h, &"header")).transpose()?;
        let got = self.inner.with(py, |r| {
            let answer = r.preferences(url.as_bytes());
            match &header {
                None => Ok(Preferences::from_core(py, &answer)),
                Some(field) => answer
                    .with_header(field.as_bytes())
                    .map(|combined| Preferences::from_core(py, &combined)),
            }
        })?;
        got.map_err(|e| preferences::statement_error(py, e))?
    }

    /// The Content-Signal of the selected groups (behaviour §10.5), or
    /// None when they hold no content-signal line. Independent of URLs and
    /// of what is allowed.
    fn content_signal(&self, py: Python<'_>) -> PyResult<Option<ContentSignal>> {
        self.inner.with(py, |r| {
            r.content_signal().cloned().map(ContentSignal::from_core)
        })
    }

    /// The records the library does not read (see Robots.other_records)
    /// that apply to these rules: those of the selected groups and those
    /// before the first group, in file order.
    #[getter]
    fn other_records<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let got: Vec<OtherRecord> = self
            .inner
            .with(py, |r| preferences::records(r.other_records()))?;
        PyTuple::new(py, got)
    }

    /// Builds the index now, where the check after the first few would. A
    /// selection answers its first checks by scanning its rules, which
    /// costs less when a copy of robots.txt gets a handful of questions;
    /// the next check builds the index every later one uses (once, whichever
    /// thread gets there). Call this to have no check allocate in the core.
    /// Changes no answer.
    fn compile(&self, py: Python<'_>) -> PyResult<()> {
        self.inner.with_released(py, |r| r.compile())
    }

    /// The crawl delay in seconds: the largest valid crawl-delay of the
    /// selected groups, or None when they set none (your own floor
    /// applies).
    #[getter]
    fn crawl_delay(&self, py: Python<'_>) -> PyResult<Option<f64>> {
        self.inner
            .with(py, |r| r.crawl_delay().map(|d| d.as_secs_f64()))
    }

    /// The slowest valid request-rate of the selected groups, or None.
    #[getter]
    fn request_rate(&self, py: Python<'_>) -> PyResult<Option<RequestRate>> {
        self.inner
            .with(py, |r| r.request_rate().map(RequestRate::from_core))
    }

    /// The blanket answer these rules stand for, and its cause (a 404
    /// allows everything, a 503 disallows everything until the next
    /// try); None for a file's rules.
    #[getter]
    fn blanket(&self, py: Python<'_>) -> PyResult<Option<Blanket>> {
        self.inner.with(py, |r| r.blanket().map(Blanket::from_core))
    }

    /// When the robots.txt these rules stand for will be fetched again (ms
    /// since the epoch, by the clock the cache was given), set when the
    /// last fetch failed: the rules are then an old copy kept meanwhile, or
    /// a disallow-all. None otherwise.
    #[getter]
    fn retry_at(&self, py: Python<'_>) -> PyResult<Option<u64>> {
        self.inner.with(py, robotstxt::Rules::retry_at)
    }

    /// The profile of the file these rules came from: "rfc" or "google".
    #[getter]
    fn profile(&self, py: Python<'_>) -> PyResult<&'static str> {
        self.inner.with(py, |r| args::profile_name(r.profile()))
    }

    /// How many rules apply (over all tokens in strictest-of mode); 0 means
    /// everything is allowed, unless a blanket answer disallows it.
    #[getter]
    fn rule_count(&self, py: Python<'_>) -> PyResult<usize> {
        self.inner.with(py, robotstxt::Rules::len)
    }

    /// Whether close() was called.
    #[getter]
    fn closed(&self) -> bool {
        self.inner.is_closed()
    }

    /// Frees the rules now rather than when the object goes (a batch
    /// running on them in another thread finishes first); later uses raise
    /// ClosedError. Calling it again does nothing.
    fn close(&self) {
        self.inner.close();
    }

    fn __enter__(slf: Py<Self>) -> Py<Self> {
        slf
    }

    #[pyo3(signature = (*_exc))]
    fn __exit__(&self, _exc: &Bound<'_, PyTuple>) -> bool {
        self.inner.close();
        false
    }

    fn __repr__(&self, py: Python<'_>) -> String {
        self.inner
            .with(py, |r| match r.blanket() {
                Some(b) => format!(
                    "<robotstxt.Rules {} ({})>",
                    if b.allowed {
                        "allow-all"
                    } else {
                        "disallow-all"
                    },
                    b.cause.name()
                ),
                None => format!(
                    "<robotstxt.Rules profile={}, {} rules>",
                    text::quoted(r.profile().name()),
                    r.len()
                ),
            })
            .unwrap_or_else(|_| "<robotstxt.Rules (closed)>".to_owned())
    }
}

/// A request rate argument: a `RequestRate` or a `(requests, seconds)` pair.
pub fn rate_of(value: &Bound<'_, PyAny>) -> PyResult<robotstxt::RequestRate> {
    if let Ok(rate) = value.cast::<RequestRate>() {
        return Ok(rate.get().to_core());
    }
    if let Ok(pair) = value.cast::<PyTuple>() {
        if pair.len() == 2 {
            let max = u64::from(u32::MAX);
            return Ok(robotstxt::RequestRate {
                requests: args::integer(&pair.get_item(0)?, &"request_rate[0]", 1, max)? as u32,
                seconds: args::integer(&pair.get_item(1)?, &"request_rate[1]", 1, max)? as u32,
            });
        }
        return Err(errors::new(
            value.py(),
            Kind::InvalidArgument,
            "request_rate must be a RequestRate or a (requests, seconds) pair",
        ));
    }
    Err(errors::wrong_type(
        value,
        &"request_rate",
        "a RequestRate or a (requests, seconds) tuple",
    ))
}
