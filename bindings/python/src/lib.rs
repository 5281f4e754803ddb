//! The Python binding of the robotstxt engine: the extension module
//! `robotstxt._robotstxt`, re-exported by the `robotstxt` package
//! (python/robotstxt), which adds asyncio, Scrapy and urllib.robotparser
//! adapters in Python.
//!
//! An adapter, never a second implementation: every answer is the core's.

use pyo3::prelude::*;

mod access;
mod args;
mod cache;
mod errors;
mod fast;
mod fleet;
mod fleet_cache;
mod fleet_pacer;
mod handle;
mod http;
mod pacer;
mod preferences;
mod robots;
mod rules;
mod text;

/// The crawler's product token in a whole User-Agent header, ready for
/// Robots.rules_for, which wants the token alone (RFC 9309 §2.2.1): the
/// product after "compatible;" in a comment ("Mozilla/5.0 (compatible;
/// ExampleBot/2.1; +https://example.com/bot)" gives "ExampleBot"), else
/// the first product's name ("ExampleBot/1.0 (+https://…)" gives
/// "ExampleBot").
///
/// Raises InvalidUserAgentError for an empty header, a name that is not a
/// product token, or a browser's header (Mozilla without "compatible;").
#[pyfunction]
fn product_token(py: Python<'_>, user_agent: &Bound<'_, PyAny>) -> PyResult<String> {
    text::with(user_agent, &"user_agent", |ua| {
        robotstxt::product_token(ua).map(str::to_owned)
    })?
    .map_err(|e| errors::core(py, &e))
}

/// The version of the robotstxt core this module was built with.
#[pyfunction]
fn core_version() -> &'static str {
    robotstxt::VERSION
}

/// A robots.txt engine for crawlers that mean to behave (RFC 9309, or
/// Google's reading), compiled from the robotstxt core.
#[pymodule]
fn _robotstxt(m: &Bound<'_, PyModule>) -> PyResult<()> {
    errors::register(m)?;
    m.add_class::<robots::Robots>()?;
    m.add_class::<robots::Diagnostic>()?;
    m.add_class::<rules::Rules>()?;
    fast::install(m.py())?;
    m.add_class::<rules::Decision>()?;
    m.add_class::<rules::RequestRate>()?;
    m.add_class::<rules::Blanket>()?;
    m.add_class::<preferences::Preferences>()?;
    m.add_class::<preferences::LabelPreference>()?;
    m.add_class::<preferences::UsageStatement>()?;
    m.add_class::<preferences::ContentSignal>()?;
    m.add_class::<preferences::OtherRecord>()?;
    m.add_class::<access::Access>()?;
    m.add_class::<access::Answer>()?;
    m.add_class::<access::Entry>()?;
    m.add_class::<cache::Cache>()?;
    m.add_class::<cache::Lease>()?;
    m.add_class::<cache::Lookup>()?;
    m.add_class::<cache::CacheStats>()?;
    m.add_class::<pacer::Pacer>()?;
    m.add_class::<pacer::Ticket>()?;
    m.add_class::<pacer::Confirm>()?;
    m.add_function(wrap_pyfunction!(access::classify, m)?)?;
    m.add_function(wrap_pyfunction!(access::from_outcome, m)?)?;
    m.add_function(wrap_pyfunction!(cache::origin, m)?)?;
    m.add_function(wrap_pyfunction!(fleet::fleet_script, m)?)?;
    m.add_function(wrap_pyfunction!(fleet::robots_origin, m)?)?;
    m.add_function(wrap_pyfunction!(fleet::pacer_host, m)?)?;
    m.add_function(wrap_pyfunction!(fleet::pace_ms, m)?)?;
    fleet::register(m)?;
    m.add_function(wrap_pyfunction!(product_token, m)?)?;
    m.add_function(wrap_pyfunction!(core_version, m)?)?;
    http::register(m)?;
    m.add("MIN_PARSE_LIMIT", robotstxt::MIN_PARSE_LIMIT)?;
    m.add("MAX_PARSE_LIMIT", robotstxt::MAX_PARSE_LIMIT)?;
    m.add("STORED_COPY_VERSION", robotstxt::STORED_COPY_VERSION)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
