//! Usage preferences (behaviour §10): `Rules.preferences` for one URL,
//! `Rules.content_signal` for one crawler, and the records the library
//! does not read (`Robots.other_records`, `Rules.other_records`). Every
//! answer is a copy: it outlives the rules it came from, and a close().

use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};

use crate::errors::{self, Kind};
use crate::rules::Decision;
use crate::text;

/// `value`'s hash, for value objects compared by their Rust fields.
fn hash_of(value: &impl Hash) -> isize {
    let mut hasher = DefaultHasher::new();
    value.hash(&mut hasher);
    hasher.finish() as isize
}

fn repr_bool(b: bool) -> &'static str {
    if b {
        "True"
    } else {
        "False"
    }
}

/// `(1, 2)`, `(1,)` or `()`, as Python writes a tuple of ints.
fn repr_lines(lines: &[u32]) -> String {
    match lines {
        [one] => format!("({one},)"),
        _ => {
            let all: Vec<String> = lines.iter().map(u32::to_string).collect();
            format!("({})", all.join(", "))
        }
    }
}

fn repr_name(name: Option<&str>) -> String {
    name.map_or_else(|| "None".to_owned(), text::quoted)
}

/// One label's answer and the lines that gave it.
#[pyclass(frozen, module = "robotstxt")]
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct LabelPreference {
    value: Option<&'static str>,
    lines: Vec<u32>,
}

impl LabelPreference {
    fn from_core(p: &robotstxt::LabelPreference<'_>) -> LabelPreference {
        LabelPreference {
            value: p.value.name(),
            lines: p.lines.to_vec(),
        }
    }
}

#[pymethods]
impl LabelPreference {
    /// "y" (the use is allowed), "n" (it is not) or None (unknown: not
    /// stated, or stated with a value other than the tokens y and n).
    #[getter]
    fn value(&self) -> Option<&'static str> {
        self.value
    }

    /// The lines whose statements gave this value (for None: those that
    /// named the label with another value); empty when none did, or when
    /// an HTTP field decided.
    #[getter]
    fn lines<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        PyTuple::new(py, &self.lines)
    }

    fn __repr__(&self) -> String {
        format!(
            "LabelPreference(value={}, lines={})",
            repr_name(self.value),
            repr_lines(&self.lines)
        )
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .cast::<LabelPreference>()
            .is_ok_and(|o| o.get() == self)
    }

    fn __hash__(&self) -> isize {
        hash_of(self)
    }
}

/// A Content-Usage rule that applied: its line, path and raw members.
#[pyclass(frozen, module = "robotstxt")]
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct UsageStatement {
    line: u32,
    path: String,
    members: Vec<(String, String)>,
}

impl UsageStatement {
    fn from_core(s: &robotstxt::UsageStatement<'_>) -> UsageStatement {
        UsageStatement {
            line: s.line,
            path: text::lossy(s.path),
            members: s
                .members
                .iter()
                .map(|m| (m.key.clone(), m.value.clone()))
                .collect(),
        }
    }
}

#[pymethods]
impl UsageStatement {
    /// The 1-based line of the content-usage rule.
    #[getter]
    fn line(&self) -> u32 {
        self.line
    }

    /// The path pattern as compared (normalised; "/" when none was
    /// written).
    #[getter]
    fn path(&self) -> &str {
        &self.path
    }

    /// The statement's members as written, (key, value) in RFC 9651 form
    /// with parameters ("n", "?1", '"n"', "y;v=2"); a repeated key keeps
    /// its last member. Empty when the statement states nothing.
    #[getter]
    fn members<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let pairs = self.members.iter().map(|(k, v)| (k.as_str(), v.as_str()));
        PyTuple::new(py, pairs)
    }

    fn __repr__(&self) -> String {
        let members: Vec<String> = self
            .members
            .iter()
            .map(|(k, v)| format!("({}, {})", text::quoted(k), text::quoted(v)))
            .collect();
        let members = match members.as_slice() {
            [one] => format!("({one},)"),
            _ => format!("({})", members.join(", ")),
        };
        format!(
            "UsageStatement(line={}, path={}, members={})",
            self.line,
            text::quoted(&self.path),
            members
        )
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .cast::<UsageStatement>()
            .is_ok_and(|o| o.get() == self)
    }

    fn __hash__(&self) -> isize {
        hash_of(self)
    }
}

/// The usage preferences for one URL (`Rules.preferences`).
#[pyclass(frozen, module = "robotstxt")]
pub struct Preferences {
    crawlable: bool,
    decision: Py<Decision>,
    /// In the core's order: train-ai, search, then others as first met.
    labels: Vec<(String, LabelPreference)>,
    statements: Vec<UsageStatement>,
}

impl Preferences {
    pub fn from_core(py: Python<'_>, p: &robotstxt::Preferences<'_>) -> PyResult<Preferences> {
        Ok(Preferences {
            crawlable: p.crawlable,
            decision: Py::new(py, Decision::from_core(py, p.decision))?,
            labels: p
                .labels
                .iter()
                .map(|l| (l.label.to_string(), LabelPreference::from_core(l)))
                .collect(),
            statements: p.statements.iter().map(UsageStatement::from_core).collect(),
        })
    }

    /// Hashes what `__eq__` compares.
    fn hash_into(&self, py: Python<'_>, hasher: &mut DefaultHasher) {
        self.crawlable.hash(hasher);
        self.decision.get().key(py).hash(hasher);
        self.labels.hash(hasher);
        self.statements.hash(hasher);
    }

    fn same(&self, py: Python<'_>, other: &Preferences) -> bool {
        self.crawlable == other.crawlable
            && self.decision.get().key(py) == other.decision.get().key(py)
            && self.labels == other.labels
            && self.statements == other.statements
    }
}

#[pymethods]
impl Preferences {
    /// Whether the rules allow the URL. When not, nothing is stated (the
    /// drafts attach preferences to what may be crawled) and `decision`
    /// names the rule that disallowed.
    #[getter]
    fn crawlable(&self) -> bool {
        self.crawlable
    }

    /// The access answer for the URL, with its deciding line (as decide).
    #[getter]
    fn decision(&self, py: Python<'_>) -> Py<Decision> {
        self.decision.clone_ref(py)
    }

    /// Label → LabelPreference: "train-ai" and "search" always, then every
    /// other label a statement that applied gives "y" or "n", in the order
    /// first met. A new dict each time.
    #[getter]
    fn labels<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let dict = PyDict::new(py);
        for (label, answer) in &self.labels {
            dict.set_item(label, answer.clone())?;
        }
        Ok(dict)
    }

    /// The Content-Usage rules that applied, in file order: those of the
    /// greatest path length among the matching ones.
    #[getter]
    fn statements<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        PyTuple::new(py, self.statements.iter().cloned())
    }

    /// The answer for `label`: "y", "n", or None when nothing states it.
    ///
    /// Raises ArgumentTypeError unless `label` is str or bytes-like.
    #[pyo3(signature = (label, /))]
    fn get(&self, label: &Bound<'_, PyAny>) -> PyResult<Option<&'static str>> {
        text::with(label, &"label", |label| {
            self.labels
                .iter()
                .find(|(l, _)| l.as_bytes() == label)
                .and_then(|(_, answer)| answer.value)
        })
    }

    fn __repr__(&self, py: Python<'_>) -> String {
        let labels: Vec<String> = self
            .labels
            .iter()
            .map(|(l, a)| format!("{}: {}", text::quoted(l), repr_name(a.value)))
            .collect();
        let lines: Vec<u32> = self.statements.iter().map(|s| s.line).collect();
        format!(
            "<robotstxt.Preferences crawlable={}, line={}, labels={{{}}}, statements on lines {}>",
            repr_bool(self.crawlable),
            self.decision.get().key(py).1,
            labels.join(", "),
            repr_lines(&lines)
        )
    }

    fn __eq__(&self, py: Python<'_>, other: &Bound<'_, PyAny>) -> bool {
        other
            .cast::<Preferences>()
            .is_ok_and(|o| self.same(py, o.get()))
    }

    fn __hash__(&self, py: Python<'_>) -> isize {
        let mut hasher = DefaultHasher::new();
        self.hash_into(py, &mut hasher);
        hasher.finish() as isize
    }
}

/// The exception for an HTTP Content-Usage field that states nothing,
/// with the core's message and `reason`.
pub fn statement_error(py: Python<'_>, error: robotstxt::StatementError) -> PyErr {
    let reason = match error {
        robotstxt::StatementError::Syntax => "syntax",
        robotstxt::StatementError::Empty => "empty",
    };
    errors::with_attribute(
        py,
        Kind::InvalidStatement,
        error.to_string(),
        Some(("reason", reason)),
    )
}

/// The combined Content-Signal of one crawler's groups.
#[pyclass(frozen, module = "robotstxt")]
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct ContentSignal {
    signals: Vec<(String, Option<bool>)>,
    lines: Vec<u32>,
}

fn signal_name(set: Option<bool>) -> Option<&'static str> {
    set.map(|yes| if yes { "yes" } else { "no" })
}

impl ContentSignal {
    pub fn from_core(s: robotstxt::ContentSignal) -> ContentSignal {
        ContentSignal {
            signals: s.signals,
            lines: s.lines,
        }
    }
}

#[pymethods]
impl ContentSignal {
    /// Key → "yes", "no" or None (unset): "search", "ai-input" and
    /// "ai-train" always, then every other key a valid member sets, in
    /// lower case; any "no" wins, then any "yes". A new dict each time.
    #[getter]
    fn signals<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let dict = PyDict::new(py);
        for (key, set) in &self.signals {
            dict.set_item(key, signal_name(*set))?;
        }
        Ok(dict)
    }

    /// The content-signal lines of the selected groups.
    #[getter]
    fn lines<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        PyTuple::new(py, &self.lines)
    }

    fn __repr__(&self) -> String {
        let signals: Vec<String> = self
            .signals
            .iter()
            .map(|(k, v)| format!("{}: {}", text::quoted(k), repr_name(signal_name(*v))))
            .collect();
        format!(
            "ContentSignal(signals={{{}}}, lines={})",
            signals.join(", "),
            repr_lines(&self.lines)
        )
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other.cast::<ContentSignal>().is_ok_and(|o| o.get() == self)
    }

    fn __hash__(&self) -> isize {
        hash_of(self)
    }
}

/// A line whose key the library does not read (Clean-param, LLM-Policy,
/// ...), or a Content-Signal line before the first group, as written.
#[pyclass(frozen, get_all, module = "robotstxt")]
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct OtherRecord {
    /// The key as written (bytes that are not UTF-8 read as U+FFFD).
    key: String,
    /// The key in ASCII lower case, to compare keys by.
    key_lower: String,
    /// The value: the rest of the line, comment removed, trimmed.
    value: String,
    /// The 1-based line number.
    line: u32,
    /// The 0-based index of the line's group, or None before the first
    /// user-agent line (global).
    group: Option<u32>,
}

impl OtherRecord {
    pub fn from_core(r: robotstxt::OtherRecord<'_>) -> OtherRecord {
        OtherRecord {
            key: text::lossy(r.key),
            key_lower: text::lossy(&r.key_lower()),
            value: text::lossy(r.value),
            line: r.line,
            group: r.group,
        }
    }
}

#[pymethods]
impl OtherRecord {
    fn __repr__(&self) -> String {
        format!(
            "OtherRecord(key={}, key_lower={}, value={}, line={}, group={})",
            text::quoted(&self.key),
            text::quoted(&self.key_lower),
            text::quoted(&self.value),
            self.line,
            self.group
                .map_or_else(|| "None".to_owned(), |g| g.to_string())
        )
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other.cast::<OtherRecord>().is_ok_and(|o| o.get() == self)
    }

    fn __hash__(&self) -> isize {
        hash_of(self)
    }
}

/// The records, copied out of the core (the handle's lock is held).
pub fn records<'a>(records: impl Iterator<Item = robotstxt::OtherRecord<'a>>) -> Vec<OtherRecord> {
    records.map(OtherRecord::from_core).collect()
}
