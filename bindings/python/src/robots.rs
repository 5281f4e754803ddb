//! `Robots`: a parsed robots.txt, and the lines it has to report.

use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyList, PyString, PyTuple};

use crate::args;
use crate::errors::{self, OrRaise};
use crate::handle::Handle;
use crate::preferences::{self, OtherRecord};
use crate::rules::Rules;
use crate::text;

/// Parsing a body of this many bytes or more releases the GIL: it takes
/// long enough (some 7 µs at 1 GB/s) that letting other threads run costs
/// little, where a smaller one parses in less time than the GIL takes to
/// change hands.
pub const PARSE_WITHOUT_GIL: usize = 8 * 1024;

/// One line that has something to report (`Robots.diagnostics`).
#[pyclass(frozen, get_all, module = "robotstxt")]
pub struct Diagnostic {
    /// The 1-based line number.
    line: u32,
    /// What the line is, from its key: `user-agent`, `allow`, `disallow`,
    /// `sitemap`, `crawl-delay`, `request-rate`, `host`, `content-usage`,
    /// `content-signal`, `unknown` or `invalid` (no key at all).
    kind: &'static str,
    /// What it has to report, in this order: `typo`, `missing-colon`,
    /// `too-long`, `outside-group`, `invalid-value`, `unknown-key`,
    /// `invalid-statement`, `empty-statement`, `unknown-preference`.
    flags: Py<PyTuple>,
    /// The same in words.
    message: String,
}

#[pymethods]
impl Diagnostic {
    fn __repr__(&self, py: Python<'_>) -> String {
        format!(
            "Diagnostic(line={}, kind={}, flags={}, message={})",
            self.line,
            text::quoted(self.kind),
            self.flags
                .bind(py)
                .repr()
                .map_or_else(|_| "?".into(), |r| r.to_string()),
            text::quoted(&self.message)
        )
    }

    fn __eq__(&self, py: Python<'_>, other: &Bound<'_, PyAny>) -> PyResult<bool> {
        let Ok(other) = other.cast::<Diagnostic>() else {
            return Ok(false);
        };
        let other = other.get();
        Ok(self.line == other.line
            && self.kind == other.kind
            && self.flags.bind(py).eq(other.flags.bind(py))?)
    }

    fn __hash__(&self, py: Python<'_>) -> PyResult<isize> {
        let key = (self.line, self.kind, self.flags.clone_ref(py));
        key.into_pyobject(py)?.hash()
    }
}

/// The words for a line's findings.
fn message(d: &robotstxt::Diagnostic) -> String {
    let mut parts: Vec<&str> = d
        .flag_names()
        .map(|flag| match flag {
            "typo" => "the key is an accepted typo",
            "missing-colon" => "no colon: read as `key value`",
            "too-long" => "longer than 16,663 bytes: cut there (Google's line cap)",
            "outside-group" if d.kind == robotstxt::LineKind::ContentSignal => {
                "before any user-agent line: applies to no crawler; listed in other_records"
            }
            "outside-group" => "before any user-agent line: ignored",
            "invalid-value"
                if matches!(
                    d.kind,
                    robotstxt::LineKind::Allow | robotstxt::LineKind::Disallow
                ) =>
            {
                "the value starts with neither / nor *: applied all the same"
            }
            "invalid-value" => "the value does not parse: ignored",
            "unknown-key" => "unknown key: ignored",
            "invalid-statement" => {
                "the statement is not an RFC 9651 Dictionary: the rule is kept and states nothing"
            }
            "empty-statement" => "a path and no statement: the rule is kept and states nothing",
            "unknown-preference" if d.kind == robotstxt::LineKind::ContentSignal => {
                "a member is not key=yes or key=no: that member is ignored"
            }
            "unknown-preference" => "a label's value is neither y nor n: unknown",
            other => other,
        })
        .collect();
    if parts.is_empty() && d.kind == robotstxt::LineKind::Invalid {
        parts.push("no key: neither `key: value` nor `key value`; ignored");
    }
    parts.join("; ")
}

/// A parsed robots.txt: immutable, safe to share between threads. Parse
/// once with `Robots.parse`, select the rules for your crawler with
/// `rules_for`, then ask those as often as you like.
///
/// >>> robots = Robots.parse(b"User-agent: *\nDisallow: /private/\n")
/// >>> robots.rules_for("ExampleBot").can_fetch("https://example.com/private/x")
/// False
#[pyclass(frozen, module = "robotstxt")]
pub struct Robots {
    pub(crate) inner: Handle<robotstxt::Robots>,
}

impl Robots {
    pub fn wrap(inner: robotstxt::Robots) -> Robots {
        Robots {
            inner: Handle::new(inner, "Robots"),
        }
    }

    fn tokens<'py>(tokens: &Bound<'py, PyAny>) -> PyResult<Vec<Bound<'py, PyAny>>> {
        if tokens.is_instance_of::<PyString>() || tokens.is_instance_of::<PyBytes>() {
            return Err(errors::wrong_type(
                tokens,
                &"tokens",
                "a list of str or bytes (for one token, call rules_for(token))",
            ));
        }
        let iter = tokens
            .try_iter()
            .map_err(|_| errors::wrong_type(tokens, &"tokens", "a list of str or bytes"))?;
        iter.collect()
    }

    fn select(
        &self,
        py: Python<'_>,
        tokens: &Bound<'_, PyAny>,
        select: fn(&robotstxt::Robots, &[&[u8]]) -> Result<robotstxt::Rules, robotstxt::Error>,
    ) -> PyResult<Rules> {
        let items = Robots::tokens(tokens)?;
        let texts = items
            .iter()
            .enumerate()
            .map(|(i, t)| text::read(t, &format_args!("tokens[{i}]")))
            .collect::<PyResult<Vec<_>>>()?;
        let list: Vec<&[u8]> = texts.iter().map(text::Text::as_bytes).collect();
        let rules = self.inner.with(py, |r| select(r, &list))?.or_raise(py)?;
        Ok(Rules::wrap(rules))
    }
}

#[pymethods]
impl Robots {
    /// Parses a robots.txt body. Any bytes parse (invalid UTF-8, NUL
    /// bytes, an HTML page): lines that make no sense are skipped and
    /// listed by `diagnostics`. `bytes` and `str` are read in place (a
    /// `str` as its UTF-8 form); `bytearray` and `memoryview` are copied
    /// once. Bodies of 8 KiB and more are parsed with the GIL released.
    ///
    /// profile: "rfc" (RFC 9309, the default) or "google" (what Google's
    /// parser answers). parse_limit: how many bytes to read, 512,000 (the
    /// default, 500 KiB) up to MAX_PARSE_LIMIT. typos: accept Google's key
    /// typos such as `useragent` and `dissallow` (default True).
    ///
    /// Cost: linear in min(len(body), parse_limit).
    ///
    /// Raises ArgumentTypeError for a body of another type,
    /// ParseLimitError, InvalidOptionError.
    #[staticmethod]
    #[pyo3(signature = (body, *, profile = None, parse_limit = None, typos = None))]
    fn parse(
        py: Python<'_>,
        body: &Bound<'_, PyAny>,
        profile: Option<&Bound<'_, PyAny>>,
        parse_limit: Option<&Bound<'_, PyAny>>,
        typos: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Robots> {
        let options = args::parse_options(profile, parse_limit, typos)?;
        let body = text::read(body, &"body")?;
        let bytes = body.as_bytes();
        let robots = if bytes.len() >= PARSE_WITHOUT_GIL {
            py.detach(|| robotstxt::Robots::parse_with(bytes, &options))
        } else {
            robotstxt::Robots::parse_with(bytes, &options)
        };
        Ok(Robots::wrap(robots))
    }

    /// The rules for the crawler whose product token is `token` (RFC 9309
    /// §2.2.1): every group naming it (case-insensitively, whole), merged;
    /// else every `*` group; else none (everything allowed).
    ///
    /// Raises InvalidTokenError in the RFC profile unless `token` is one
    /// or more of A-Z a-z _ - (such as "ExampleBot": no version, no whole
    /// User-Agent header; see product_token). The Google profile accepts
    /// any name, compared whole.
    fn rules_for(&self, py: Python<'_>, token: &Bound<'_, PyAny>) -> PyResult<Rules> {
        let token = text::read(token, &"token")?;
        let rules = self
            .inner
            .with(py, |r| r.rules_for(token.as_bytes()))?
            .or_raise(py)?;
        Ok(Rules::wrap(rules))
    }

    /// The rules for a crawler known by several tokens: every group naming
    /// any of them, merged (Google's semantics); else every `*` group.
    ///
    /// Raises NoTokensError for an empty list, InvalidTokenError as
    /// rules_for.
    fn rules_for_any(&self, py: Python<'_>, tokens: &Bound<'_, PyAny>) -> PyResult<Rules> {
        self.select(py, tokens, |r, t| r.rules_for_any(t))
    }

    /// Strictest-of: a URL is allowed only if each token's own rules allow
    /// it, and the crawl delay is the largest of theirs. The way to honour
    /// groups for, say, GPTBot and CCBot as well as your own.
    ///
    /// Raises as rules_for_any.
    fn rules_for_strictest(&self, py: Python<'_>, tokens: &Bound<'_, PyAny>) -> PyResult<Rules> {
        self.select(py, tokens, |r, t| r.rules_for_strictest(t))
    }

    /// Every `sitemap` value in file order, as written (bytes that are not
    /// UTF-8 read as U+FFFD).
    #[getter]
    fn sitemaps(&self, py: Python<'_>) -> PyResult<Vec<String>> {
        self.inner
            .with(py, |r| r.sitemaps().map(text::lossy).collect())
    }

    /// The first `host` value (a Yandex extension), or None.
    #[getter]
    fn host(&self, py: Python<'_>) -> PyResult<Option<String>> {
        self.inner.with(py, |r| r.host().map(text::lossy))
    }

    /// Every line whose key the library does not read (Clean-param,
    /// LLM-Policy, a newer key), and every Content-Signal line before the
    /// first user-agent, in file order, as written (behaviour §10.7). What
    /// they mean is the caller's to decide; Rules.other_records lists
    /// those that apply to one crawler.
    #[getter]
    fn other_records<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let got: Vec<OtherRecord> = self
            .inner
            .with(py, |r| preferences::records(r.other_records()))?;
        PyTuple::new(py, got)
    }

    /// The lines that have something to report, in line order: unknown or
    /// invalid lines, typos, lines without a colon, values that do not
    /// parse, rules outside any group, usage preferences that state
    /// nothing or something unknown.
    #[getter]
    fn diagnostics<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let found: Vec<robotstxt::Diagnostic> =
            self.inner.with(py, |r| r.diagnostics().to_vec())?;
        let items = found
            .iter()
            .map(|d| {
                let flags: Vec<&str> = d.flag_names().collect();
                Ok(Diagnostic {
                    line: d.line,
                    kind: d.kind.name(),
                    flags: PyTuple::new(py, flags)?.unbind(),
                    message: message(d),
                })
            })
            .collect::<PyResult<Vec<_>>>()?;
        PyList::new(py, items)
    }

    /// The profile the body was parsed with: "rfc" or "google".
    #[getter]
    fn profile(&self, py: Python<'_>) -> PyResult<&'static str> {
        self.inner.with(py, |r| args::profile_name(r.profile()))
    }

    /// How many groups the file has.
    #[getter]
    fn group_count(&self, py: Python<'_>) -> PyResult<usize> {
        self.inner.with(py, robotstxt::Robots::group_count)
    }

    /// How many rules the file has (Google's `index.html` extras included).
    #[getter]
    fn rule_count(&self, py: Python<'_>) -> PyResult<usize> {
        self.inner.with(py, robotstxt::Robots::rule_count)
    }

    /// Whether close() was called.
    #[getter]
    fn closed(&self) -> bool {
        self.inner.is_closed()
    }

    /// Frees the parsed file now rather than when the object goes; later
    /// uses raise ClosedError. Rules selected from it stay usable. Calling
    /// it again does nothing.
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
            .with(py, |r| {
                format!(
                    "<robotstxt.Robots profile={}, {} groups, {} rules>",
                    text::quoted(r.profile().name()),
                    r.group_count(),
                    r.rule_count()
                )
            })
            .unwrap_or_else(|_| "<robotstxt.Robots (closed)>".to_owned())
    }
}
