//! `Pacer`: per-host request start times (SPEC §8). Sans-I/O: `reserve`
//! says when a request may start; the caller sleeps.

use std::time::Duration;

use napi::bindgen_prelude::Unknown;
use napi::{Env, Result};
use napi_derive::napi;

use crate::access::read_optional;
use crate::freshness::now;
use crate::js::{self, Js};
use crate::rules::Rules;

/// The pacer's settings. Every field is optional; times in milliseconds.
#[napi(object, object_to_js = false)]
#[allow(dead_code)] // Declares the options for index.d.ts; read field by field.
pub struct PacerOptions {
    /// The smallest gap between two request starts to one host: 1,000.
    pub floor_ms: Option<f64>,
    /// The largest gap backoff may widen to: 600,000 (10 minutes; never
    /// below the host's own gap).
    pub backoff_cap_ms: Option<f64>,
    /// At most this many hosts are tracked; idle ones are dropped first.
    /// Default 100,000.
    pub capacity: Option<u32>,
}

/// How a request to a host went, for `pacer.record`.
#[napi(object, object_to_js = false)]
#[allow(dead_code)] // Declares the argument for index.d.ts; read field by field.
pub struct RequestOutcome {
    /// The HTTP status, or `null` for a network error. A 429 or 5xx widens
    /// the gap (backoff); any other status narrows it again.
    pub status: Option<u16>,
    /// `Retry-After` in milliseconds: the next start is at least that far.
    pub retry_after_ms: Option<f64>,
}

/// The pace a site asks for, for `pacer.setDelay`.
#[napi(object, object_to_js = false)]
#[allow(dead_code)] // Declares the argument for index.d.ts; read field by field.
pub struct Pace {
    /// `crawl-delay` in seconds, or `null`.
    #[napi(ts_type = "number | null")]
    pub crawl_delay: Option<f64>,
    /// `request-rate`, or `null`; `rules.requestRate` fits.
    #[napi(ts_type = "Rate | null")]
    pub request_rate: Option<Rate>,
}

/// `request-rate: n/m`: `requests` requests per `seconds` seconds.
#[napi(object, object_to_js = false)]
#[allow(dead_code)] // Declares the argument for index.d.ts; read field by field.
pub struct Rate {
    /// Requests per window: a whole number ≥ 1.
    pub requests: u32,
    /// The window in seconds: a whole number ≥ 1.
    pub seconds: u32,
}

/// Hands out request start times per host, in order: the gap between two
/// starts is at least `max(floorMs, crawl-delay, request-rate interval)`,
/// widened while the host answers 429 or 5xx. Every `now` is epoch
/// milliseconds and defaults to `Date.now()`.
///
/// ```js
/// const pacer = new Pacer()
/// pacer.setRules('shop.test', rules)           // its crawl-delay and request-rate
/// const start = pacer.reserve('shop.test')     // epoch ms, or null while switched off
/// await sleep(start - Date.now())
/// ```
#[napi]
pub struct Pacer {
    inner: robotstxt::Pacer,
}

#[napi]
impl Pacer {
    /// A pacer with no hosts yet.
    ///
    /// @throws {TypeError} an option of the wrong type.
    /// @throws {RangeError} an unknown option, or a value out of range.
    #[napi(
        constructor,
        catch_unwind,
        ts_args_type = "options?: PacerOptions | null"
    )]
    pub fn new(env: &Env, options: Option<Unknown>) -> Result<Pacer> {
        let mut core = robotstxt::PacerOptions::default();
        let object = match &options {
            Some(o) => {
                Js::new(env, o).options("options", &["floorMs", "backoffCapMs", "capacity"])?
            }
            None => None,
        };
        if let Some(object) = object {
            if let Some(ms) = read_optional(object, "floorMs", |v| v.millis("options.floorMs"))? {
                core.floor_ms = ms;
            }
            if let Some(ms) =
                read_optional(object, "backoffCapMs", |v| v.millis("options.backoffCapMs"))?
            {
                core.backoff_cap_ms = ms;
            }
            if let Some(n) = read_optional(object, "capacity", |v| {
                v.integer("options.capacity", 1, u64::from(u32::MAX))
            })? {
                core.capacity = n as usize;
            }
        }
        Ok(Pacer {
            inner: robotstxt::Pacer::new(core),
        })
    }

    /// Reserves the next start slot for `host` at `now`: when the request
    /// may start (epoch ms, ≥ `now`), or `null` while the host is switched
    /// off. Slots are handed out in order, one gap apart.
    ///
    /// @throws {TypeError} an argument of the wrong type.
    /// @throws {RangeError} an empty or over-long host
    ///   (`ERR_ROBOTSTXT_INVALID_HOST`).
    #[napi(
        catch_unwind,
        ts_args_type = "host: string | Uint8Array, now?: number | null"
    )]
    pub fn reserve(
        &self,
        env: &Env,
        host: Unknown,
        now_ms: Option<Unknown>,
    ) -> Result<Option<f64>> {
        let now = now(env, now_ms.as_ref())?;
        let start = Js::new(env, &host)
            .with_bytes("host", |h| self.inner.reserve(h, now))?
            .map_err(|e| js::core_error(env, &e))?;
        Ok(start.map(|ms| ms as f64))
    }

    /// Sets `host`'s own pace from a crawler's rules: their crawl delay and
    /// request rate. The floor still applies.
    ///
    /// @throws {TypeError} `rules` is not a `Rules`, or a bad host type.
    /// @throws {RangeError} an invalid host.
    #[napi(catch_unwind, ts_args_type = "host: string | Uint8Array, rules: Rules")]
    pub fn set_rules(&self, env: &Env, host: Unknown, rules: Unknown) -> Result<()> {
        let rules =
            Js::new(env, &rules).instance::<Rules>("rules", "a Rules from robots.rulesFor")?;
        Js::new(env, &host)
            .with_bytes("host", |h| self.inner.set_rules(h, rules.core()))?
            .map_err(|e| js::core_error(env, &e))
    }

    /// Sets `host`'s own pace: the larger of `crawlDelay` (seconds) and the
    /// request-rate interval. The floor still applies.
    ///
    /// @throws {TypeError} an argument of the wrong type.
    /// @throws {RangeError} an invalid host, a negative delay, or a rate
    ///   that is not whole numbers ≥ 1.
    #[napi(catch_unwind, ts_args_type = "host: string | Uint8Array, pace: Pace")]
    pub fn set_delay(&self, env: &Env, host: Unknown, pace: Unknown) -> Result<()> {
        let pace = Js::new(env, &pace);
        let Some(object) = pace.options("pace", &["crawlDelay", "requestRate"])? else {
            return Err(pace.wrong_type("pace", "an object"));
        };
        let delay = read_optional(object, "crawlDelay", |v| {
            let seconds = v.number("pace.crawlDelay")?;
            Duration::try_from_secs_f64(seconds).map_err(|_| {
                js::range_error(
                    env,
                    js::ERR_OUT_OF_RANGE,
                    &format!(
                        "pace.crawlDelay must be a finite number of seconds ≥ 0, not {seconds}"
                    ),
                )
            })
        })?;
        let rate = read_optional(object, "requestRate", |v| {
            let Some(rate) = v.options("pace.requestRate", &["requests", "seconds", "interval"])?
            else {
                return Err(v.wrong_type("pace.requestRate", "an object"));
            };
            let field = |name: &str| -> Result<u32> {
                match rate.get(name)? {
                    Some(n) => Ok(n.integer(
                        &format!("pace.requestRate.{name}"),
                        1,
                        u64::from(u32::MAX),
                    )? as u32),
                    None => Err(js::type_error(
                        env,
                        &format!("pace.requestRate.{name} must be a number, not undefined"),
                    )),
                }
            };
            Ok(robotstxt::RequestRate {
                requests: field("requests")?,
                seconds: field("seconds")?,
            })
        })?;
        Js::new(env, &host)
            .with_bytes("host", |h| self.inner.set_delay(h, delay, rate))?
            .map_err(|e| js::core_error(env, &e))
    }

    /// Reports how a request to `host` that ended at `now` went. A 429 or
    /// 5xx doubles the gap (capped) and a `Retry-After` pushes the next
    /// slot at least that far; any other status halves the backoff again.
    ///
    /// @throws {TypeError} an argument of the wrong type.
    /// @throws {RangeError} an invalid host, or a value out of range.
    #[napi(
        catch_unwind,
        ts_args_type = "host: string | Uint8Array, outcome: RequestOutcome, now?: number | null"
    )]
    pub fn record(
        &self,
        env: &Env,
        host: Unknown,
        outcome: Unknown,
        now_ms: Option<Unknown>,
    ) -> Result<()> {
        let value = Js::new(env, &outcome);
        let Some(object) = value.options("outcome", &["status", "retryAfterMs"])? else {
            return Err(value.wrong_type("outcome", "an object"));
        };
        let status = read_optional(object, "status", |v| {
            v.integer("outcome.status", 0, 999).map(|s| s as u16)
        })?;
        let retry = read_optional(object, "retryAfterMs", |v| v.millis("outcome.retryAfterMs"))?;
        let now = now(env, now_ms.as_ref())?;
        Js::new(env, &host)
            .with_bytes("host", |h| self.inner.record(h, now, status, retry))?
            .map_err(|e| js::core_error(env, &e))
    }

    /// Switches `host` off (`reserve` answers `null`) or back on: a kill
    /// switch.
    ///
    /// @throws {TypeError} an argument of the wrong type.
    /// @throws {RangeError} an invalid host.
    #[napi(
        catch_unwind,
        ts_args_type = "host: string | Uint8Array, enabled: boolean"
    )]
    pub fn set_enabled(&self, env: &Env, host: Unknown, enabled: Unknown) -> Result<()> {
        let enabled = Js::new(env, &enabled).bool("enabled")?;
        Js::new(env, &host)
            .with_bytes("host", |h| self.inner.set_enabled(h, enabled))?
            .map_err(|e| js::core_error(env, &e))
    }

    /// The gap now applied between two request starts to `host`, in ms.
    ///
    /// @throws {TypeError} `host` is neither a string nor a `Uint8Array`.
    /// @throws {RangeError} an invalid host.
    #[napi(catch_unwind, ts_args_type = "host: string | Uint8Array")]
    pub fn gap_ms(&self, env: &Env, host: Unknown) -> Result<f64> {
        Js::new(env, &host)
            .with_bytes("host", |h| self.inner.gap_ms(h))?
            .map(|ms| ms as f64)
            .map_err(|e| js::core_error(env, &e))
    }
}
