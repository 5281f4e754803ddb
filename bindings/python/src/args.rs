//! Arguments other than text: options, counts, times and statuses, read
//! strictly so that a wrong type or value raises a `robotstxt.Error` that
//! names the argument, rather than passing unnoticed.

use std::fmt::Display;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFloat, PyInt, PyString};

use crate::errors::{self, Kind};
use crate::text::{self, Text};

/// `value`, which must be one of the names of `choices`.
pub fn choice<T: Copy>(value: &Bound<'_, PyAny>, what: &str, choices: &[(&str, T)]) -> PyResult<T> {
    let name = value
        .cast::<PyString>()
        .map_err(|_| errors::wrong_type(value, &what, "a str"))?;
    let name = name.to_cow()?;
    choices
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, v)| *v)
        .ok_or_else(|| {
            let names: Vec<String> = choices.iter().map(|(n, _)| format!("{n:?}")).collect();
            errors::new(
                value.py(),
                Kind::InvalidOption,
                format!("{what} must be one of {}, not {name:?}", names.join(", ")),
            )
        })
}

/// A `bool` (not any truthy value: a misplaced argument should not pass).
pub fn flag(value: &Bound<'_, PyAny>, what: &str) -> PyResult<bool> {
    value
        .cast::<PyBool>()
        .map(|b| b.is_true())
        .map_err(|_| errors::wrong_type(value, &what, "a bool"))
}

fn is_int(value: &Bound<'_, PyAny>) -> bool {
    value.is_instance_of::<PyInt>() && !value.is_instance_of::<PyBool>()
}

/// A whole number from `min` to `max` (an `int`, not a `bool`).
pub fn integer(value: &Bound<'_, PyAny>, what: &dyn Display, min: u64, max: u64) -> PyResult<u64> {
    if !is_int(value) {
        return Err(errors::wrong_type(value, what, "an int"));
    }
    match value.extract::<u64>() {
        Ok(n) if (min..=max).contains(&n) => Ok(n),
        _ => {
            let range = if max == u64::MAX {
                format!("≥ {min}")
            } else {
                format!("from {min} to {max}")
            };
            Err(errors::new(
                value.py(),
                Kind::InvalidArgument,
                format!("{what} must be a whole number {range}, not {value}"),
            ))
        }
    }
}

/// A time in milliseconds: an `int` ≥ 0, or a finite `float` ≥ 0 (cut to
/// a whole millisecond).
pub fn millis(value: &Bound<'_, PyAny>, what: &dyn Display) -> PyResult<u64> {
    if value.is_instance_of::<PyFloat>() {
        let ms = value.cast::<PyFloat>()?.value();
        if ms.is_finite() && ms >= 0.0 && ms < u64::MAX as f64 {
            return Ok(ms as u64);
        }
        return Err(errors::new(
            value.py(),
            Kind::InvalidArgument,
            format!("{what} must be a finite number of milliseconds ≥ 0, not {ms}"),
        ));
    }
    if !is_int(value) {
        return Err(errors::wrong_type(
            value,
            what,
            "an int or a float (milliseconds)",
        ));
    }
    integer(value, what, 0, u64::MAX)
}

/// A duration in seconds: an `int` or a finite `float` ≥ 0.
pub fn seconds(value: &Bound<'_, PyAny>, what: &dyn Display) -> PyResult<Duration> {
    let secs = if value.is_instance_of::<PyFloat>() {
        value.cast::<PyFloat>()?.value()
    } else if is_int(value) {
        value.extract::<f64>()?
    } else {
        return Err(errors::wrong_type(
            value,
            what,
            "an int or a float (seconds)",
        ));
    };
    Duration::try_from_secs_f64(secs).map_err(|_| {
        errors::new(
            value.py(),
            Kind::InvalidArgument,
            format!("{what} must be a finite number of seconds ≥ 0, not {secs}"),
        )
    })
}

/// Now, in ms since the Unix epoch, by the system clock.
pub fn clock_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}

/// `now`: milliseconds, or the system clock when left out.
pub fn now(value: Option<&Bound<'_, PyAny>>) -> PyResult<u64> {
    match value {
        Some(v) if !v.is_none() => millis(v, &"now"),
        _ => Ok(clock_ms()),
    }
}

/// An HTTP status, or `None` for no response.
pub fn status(value: Option<&Bound<'_, PyAny>>, what: &str) -> PyResult<Option<u16>> {
    match value {
        Some(v) if !v.is_none() => Ok(Some(integer(v, &what, 0, 999)? as u16)),
        _ => Ok(None),
    }
}

/// `value` unless it is left out or `None`.
pub fn given<'a, 'py>(value: Option<&'a Bound<'py, PyAny>>) -> Option<&'a Bound<'py, PyAny>> {
    value.filter(|v| !v.is_none())
}

const PROFILES: &[(&str, robotstxt::Profile)] = &[
    ("rfc", robotstxt::Profile::Rfc9309),
    ("google", robotstxt::Profile::Google),
];

/// The name of a profile, as the arguments spell it.
pub fn profile_name(profile: robotstxt::Profile) -> &'static str {
    profile.name()
}

/// Parse options from `profile`, `parse_limit` and `typos`.
pub fn parse_options(
    profile: Option<&Bound<'_, PyAny>>,
    parse_limit: Option<&Bound<'_, PyAny>>,
    typos: Option<&Bound<'_, PyAny>>,
) -> PyResult<robotstxt::Options> {
    let mut options = robotstxt::Options::default();
    if let Some(p) = given(profile) {
        options = options.with_profile(choice(p, "profile", PROFILES)?);
    }
    if let Some(limit) = given(parse_limit) {
        let bytes = integer(limit, &"parse_limit", 0, u64::MAX)?;
        let bytes = usize::try_from(bytes).unwrap_or(usize::MAX);
        options = options
            .with_parse_limit(bytes)
            .map_err(|e| errors::core(limit.py(), &e))?;
    }
    if let Some(t) = given(typos) {
        options = options.with_typos(flag(t, "typos")?);
    }
    Ok(options)
}

pub const ACCESS_POLICIES: &[(&str, robotstxt::AccessPolicy)] = &[
    ("careful", robotstxt::AccessPolicy::Careful),
    ("strict", robotstxt::AccessPolicy::StrictRfc),
];

/// The keywords of the freshness options, taken by `Entry()`,
/// `Entry.decode` and `Cache()` alike.
const FRESHNESS: [&str; 8] = [
    "fresh_for_ms",
    "retry_ms",
    "unreachable_limit_ms",
    "after_limit",
    "policy",
    "profile",
    "parse_limit",
    "typos",
];

/// The freshness policy the keyword arguments `options` of `func` give,
/// each of `FRESHNESS` optional. Any other keyword is a `TypeError`, as
/// Python raises for a keyword a function does not take.
pub fn freshness(
    func: &str,
    options: Option<&Bound<'_, PyDict>>,
) -> PyResult<robotstxt::FreshnessPolicy> {
    let mut values: [Option<Bound<'_, PyAny>>; FRESHNESS.len()] = Default::default();
    for (key, value) in options.into_iter().flat_map(|o| o.iter()) {
        let name = key.str()?.to_cow()?.into_owned();
        match FRESHNESS.iter().position(|known| *known == name) {
            Some(at) => values[at] = Some(value),
            None => {
                return Err(PyTypeError::new_err(format!(
                    "{func}() got an unexpected keyword argument '{name}'"
                )))
            }
        }
    }
    let [fresh_for_ms, retry_ms, unreachable_limit_ms, after_limit, policy, profile, parse_limit, typos] =
        values;
    let mut p = robotstxt::FreshnessPolicy {
        parse: parse_options(profile.as_ref(), parse_limit.as_ref(), typos.as_ref())?,
        ..Default::default()
    };
    if let Some(v) = given(fresh_for_ms.as_ref()) {
        p.fresh_for_ms = millis(v, &"fresh_for_ms")?;
    }
    if let Some(v) = given(retry_ms.as_ref()) {
        p.retry_ms = millis(v, &"retry_ms")?;
    }
    if let Some(v) = given(unreachable_limit_ms.as_ref()) {
        p.unreachable_limit_ms = millis(v, &"unreachable_limit_ms")?;
    }
    if let Some(v) = given(after_limit.as_ref()) {
        p.after_limit = choice(
            v,
            "after_limit",
            &[
                ("keep", robotstxt::AfterLimit::KeepCopy),
                ("allow", robotstxt::AfterLimit::AllowAll),
            ],
        )?;
    }
    if let Some(v) = given(policy.as_ref()) {
        p.access = choice(v, "policy", ACCESS_POLICIES)?;
    }
    Ok(p)
}

/// What a fetch of `/robots.txt` returned, as `Cache.store` and
/// `Entry.record` take it.
pub struct Outcome<'a, 'py> {
    pub status: Option<u16>,
    pub redirects: u32,
    pub body: Option<Text<'a, 'py>>,
    pub max_age_ms: Option<u64>,
    pub retry_after_ms: Option<u64>,
    pub etag: Option<Text<'a, 'py>>,
    pub last_modified: Option<Text<'a, 'py>>,
}

/// The arguments of an outcome, as passed.
pub struct OutcomeArgs<'a, 'py> {
    pub status: Option<&'a Bound<'py, PyAny>>,
    pub body: Option<&'a Bound<'py, PyAny>>,
    pub redirects: Option<&'a Bound<'py, PyAny>>,
    pub max_age_ms: Option<&'a Bound<'py, PyAny>>,
    pub retry_after_ms: Option<&'a Bound<'py, PyAny>>,
    pub etag: Option<&'a Bound<'py, PyAny>>,
    pub last_modified: Option<&'a Bound<'py, PyAny>>,
}

impl<'a, 'py> OutcomeArgs<'a, 'py> {
    pub fn read(&self) -> PyResult<Outcome<'a, 'py>> {
        let opt_text = |v: Option<&'a Bound<'py, PyAny>>, what: &str| -> PyResult<_> {
            given(v).map(|v| text::read(v, &what)).transpose()
        };
        Ok(Outcome {
            status: status(self.status, "status")?,
            redirects: match given(self.redirects) {
                Some(v) => integer(v, &"redirects", 0, u64::from(u32::MAX))? as u32,
                None => 0,
            },
            body: opt_text(self.body, "body")?,
            max_age_ms: given(self.max_age_ms)
                .map(|v| millis(v, &"max_age_ms"))
                .transpose()?,
            retry_after_ms: given(self.retry_after_ms)
                .map(|v| millis(v, &"retry_after_ms"))
                .transpose()?,
            etag: opt_text(self.etag, "etag")?,
            last_modified: opt_text(self.last_modified, "last_modified")?,
        })
    }
}

impl Outcome<'_, '_> {
    pub fn result(&self) -> robotstxt::FetchResult<'_> {
        robotstxt::FetchResult {
            status: self.status,
            redirects: self.redirects,
            body: self.body.as_ref().map_or(&[], Text::as_bytes),
            max_age_ms: self.max_age_ms,
            retry_after_ms: self.retry_after_ms,
            etag: self.etag.as_ref().map(Text::as_bytes),
            last_modified: self.last_modified.as_ref().map(Text::as_bytes),
        }
    }
}
