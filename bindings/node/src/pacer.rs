//! `Pacer`: per-host request start slots (behaviour §8). Sans-I/O: `reserve`
//! hands out a ticket that says when a request may start, the caller
//! sleeps until then and `confirm`s the ticket just before sending.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use napi::bindgen_prelude::{ClassInstance, Unknown};
use napi::{Env, Result};
use napi_derive::napi;

use crate::access::read_optional;
use crate::freshness::now;
use crate::js::{self, Js};
use crate::rules::{self, Rules};

/// The pacer's settings. Every field is optional; times in milliseconds.
#[napi(object, object_to_js = false)]
#[allow(dead_code)] // Declares the options for index.d.ts; read field by field.
pub struct PacerOptions {
    /// The smallest gap between two request starts to one host: 1,000.
    pub floor_ms: Option<f64>,
    /// The largest gap backoff may widen to: 600,000 (10 minutes; never
    /// below the host's own gap).
    pub backoff_cap_ms: Option<f64>,
    /// At most this many hosts are tracked. Default 100,000. At capacity
    /// the least recently used host that is safe to forget goes (not
    /// switched off, not backing off, nothing in flight, its gap passed);
    /// when none is, a new host throws `ERR_ROBOTSTXT_PACER_FULL`.
    pub capacity: Option<u32>,
    /// At most this many requests to one host are in flight at once: 1 (one
    /// connection per host, as a polite crawler keeps). A request is in
    /// flight from the `confirm` that says `'go'` until `record`.
    pub max_in_flight: Option<u32>,
    /// A request confirmed and never reported with `record` frees its
    /// in-flight place after this long: 120,000 (2 minutes).
    pub in_flight_timeout_ms: Option<f64>,
}

/// How a request to a host went, for `pacer.record`.
#[napi(object, object_to_js = false)]
#[allow(dead_code)] // Declares the argument for index.d.ts; read field by field.
pub struct RequestOutcome {
    /// The HTTP status, or `null` for a network error. A 429 or 5xx widens
    /// the gap (backoff); any other status narrows it again.
    #[napi(ts_type = "number | null")]
    pub status: Option<u16>,
    /// `Retry-After` in milliseconds: no request starts before then (up to
    /// a day).
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

/// What `pacer.confirm` says: `'go'` (send now), `'wait'` (confirm again
/// at `until`) or `'disabled'` (the host is switched off: send nothing).
#[napi(string_enum = "lowercase")]
pub enum ConfirmKind {
    /// Send the request now; `record` how it went, which frees its place.
    Go,
    /// Not yet: confirm again at `until`.
    Wait,
    /// The host is switched off; the ticket is spent.
    Disabled,
}

/// The answer of `pacer.confirm`.
#[napi(object, object_from_js = false, use_nullable = true)]
pub struct Confirmation {
    /// `'go'`, `'wait'` or `'disabled'`.
    pub kind: ConfirmKind,
    /// `'wait'`: when to confirm again (epoch ms); else `null`.
    pub until: Option<f64>,
    /// `'wait'`: whether the in-flight limit holds the request back, so
    /// that a request to the host ending (`record`) may free a place
    /// before `until`.
    pub busy: bool,
}

/// Numbers the native pacers, so that a ticket knows its own.
static PACER_IDS: AtomicU64 = AtomicU64::new(1);

/// A reserved start slot for one request to one host, from
/// `pacer.reserve`: sleep until `start`, then `pacer.confirm(ticket)` just
/// before sending.
///
/// `close()` frees it (an unconfirmed ticket's slot stays taken;
/// `pacer.cancel(ticket)` gives it back).
#[napi]
pub struct Ticket {
    /// The core's ticket until `cancel` takes it; `None` then.
    inner: Option<robotstxt::Ticket>,
    /// When the request may start, as last known.
    start: u64,
    /// The id of the pacer that reserved it.
    pacer: u64,
    closed: bool,
}

#[napi]
impl Ticket {
    /// When the request may start (epoch ms), as far as is known: a
    /// `confirm` that moves the slot (after a backoff or a slower pace)
    /// updates it.
    #[napi(getter, catch_unwind)]
    pub fn start(&self, env: &Env) -> Result<f64> {
        if self.closed {
            return Err(js::closed(env, "Ticket"));
        }
        Ok(self.start as f64)
    }

    /// Frees the ticket. Any use after this throws an `Error` with `code`
    /// `'ERR_ROBOTSTXT_CLOSED'`; closing twice does nothing.
    /// `[Symbol.dispose]` does the same, for `using`.
    #[napi(catch_unwind)]
    pub fn close(&mut self) {
        self.inner = None;
        self.closed = true;
    }
}

/// Hands out request start slots per host, in order: the gap between two
/// starts is at least `max(floorMs, crawl-delay, request-rate interval)`,
/// widened while the host answers 429 or 5xx, with at most `maxInFlight`
/// requests in flight at once. Every `now` is epoch milliseconds and
/// defaults to `Date.now()`.
///
/// ```js
/// const pacer = new Pacer()
/// pacer.setRules('shop.test', rules)           // its crawl-delay and request-rate
/// const ticket = pacer.reserve('shop.test')    // a Ticket, or null while switched off
/// await sleep(ticket.start - Date.now())
/// const got = pacer.confirm(ticket)            // just before sending
/// if (got.kind === 'go') {
///   const res = await fetch(url)
///   pacer.record('shop.test', { status: res.status })  // frees its in-flight place
/// }                                            // 'wait': sleep until got.until, confirm again
/// ```
///
/// The package entry's `Pacer` adds `await pacer.wait(host)`, which does
/// the reserve, sleep and confirm for you. The garbage collector frees a
/// pacer; `close()` frees it at once.
#[napi]
pub struct Pacer {
    /// `None` once closed.
    inner: Option<robotstxt::Pacer>,
    id: u64,
}

fn ticket<'e>(env: &'e Env, value: &Unknown<'_>) -> Result<ClassInstance<'e, Ticket>> {
    Js::new(env, value).instance::<Ticket>("ticket", "a Ticket from pacer.reserve")
}

impl Pacer {
    fn core(&self, env: &Env) -> Result<&robotstxt::Pacer> {
        js::open(env, &self.inner, "Pacer")
    }

    /// Calls `f` with the pacer and the bytes of `host`, and throws the
    /// core's error.
    fn with_host<T>(
        &self,
        env: &Env,
        host: &Unknown<'_>,
        f: impl FnOnce(&robotstxt::Pacer, &[u8]) -> std::result::Result<T, robotstxt::Error>,
    ) -> Result<T> {
        let pacer = self.core(env)?;
        Js::new(env, host)
            .with_bytes("host", |h| f(pacer, h))?
            .map_err(|e| js::core_error(env, &e))
    }
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
        let keys = [
            "floorMs",
            "backoffCapMs",
            "capacity",
            "maxInFlight",
            "inFlightTimeoutMs",
        ];
        let object = match &options {
            Some(o) => Js::new(env, o).options("options", &keys)?,
            None => None,
        };
        if let Some(object) = object {
            let ms =
                |name: &str| read_optional(object, name, |v| v.millis(&format!("options.{name}")));
            let count = |name: &str| {
                read_optional(object, name, |v| {
                    v.integer(&format!("options.{name}"), 1, u64::from(u32::MAX))
                })
            };
            if let Some(ms) = ms("floorMs")? {
                core.floor_ms = ms;
            }
            if let Some(ms) = ms("backoffCapMs")? {
                core.backoff_cap_ms = ms;
            }
            if let Some(n) = count("capacity")? {
                core.capacity = n as usize;
            }
            if let Some(n) = count("maxInFlight")? {
                core.max_in_flight = n as u32;
            }
            if let Some(ms) = ms("inFlightTimeoutMs")? {
                core.in_flight_timeout_ms = ms;
            }
        }
        Ok(Pacer {
            inner: Some(robotstxt::Pacer::new(core)),
            id: PACER_IDS.fetch_add(1, Ordering::Relaxed),
        })
    }

    /// Reserves the next start slot for `host` at `now`: a `Ticket` whose
    /// `start` says when the request may start (epoch ms, ≥ `now`), or
    /// `null` while the host is switched off. Slots are handed out in
    /// order, one gap apart, whatever the number of callers. Sleep until
    /// the start, then `confirm` the ticket.
    ///
    /// @throws {TypeError} an argument of the wrong type.
    /// @throws {RangeError} an empty or over-long host
    ///   (`ERR_ROBOTSTXT_INVALID_HOST`).
    /// @throws {Error} `ERR_ROBOTSTXT_PACER_FULL`: a new host, and no host
    ///   can be forgotten safely.
    #[napi(
        catch_unwind,
        ts_args_type = "host: string | Uint8Array, now?: number | null"
    )]
    pub fn reserve(
        &self,
        env: &Env,
        host: Unknown,
        now_ms: Option<Unknown>,
    ) -> Result<Option<Ticket>> {
        let now = now(env, now_ms.as_ref())?;
        let ticket = self.with_host(env, &host, |p, h| p.reserve(h, now))?;
        Ok(ticket.map(|t| Ticket {
            start: t.start(),
            inner: Some(t),
            pacer: self.id,
            closed: false,
        }))
    }

    /// Whether the request of `ticket` may be sent at `now`, asked just
    /// before sending: `'go'` (send; the request is in flight until you
    /// `record` how it went), `'wait'` (confirm again at `until`; `busy`
    /// when requests in flight hold it back, so a `record` may free a place
    /// sooner) or `'disabled'` (the host is switched off: send nothing). A
    /// backoff, `Retry-After`, slower pace or kill switch recorded since
    /// the reservation gives the ticket a new slot, or voids it. A ticket
    /// that got `'go'` or `'disabled'` is spent.
    ///
    /// @throws {TypeError} `ticket` is not a `Ticket`, or a bad `now`.
    /// @throws {Error} `ERR_ROBOTSTXT_INVALID_TICKET`: a ticket of another
    ///   pacer, or one already spent or cancelled.
    #[napi(catch_unwind, ts_args_type = "ticket: Ticket, now?: number | null")]
    pub fn confirm(
        &self,
        env: &Env,
        ticket_value: Unknown,
        now_ms: Option<Unknown>,
    ) -> Result<Confirmation> {
        let now = now(env, now_ms.as_ref())?;
        let mut ticket = ticket(env, &ticket_value)?;
        let pacer = self.core(env)?;
        if ticket.closed {
            return Err(js::closed(env, "Ticket"));
        }
        let Some(inner) = &mut ticket.inner else {
            let reason = "was cancelled";
            return Err(js::core_error(
                env,
                &robotstxt::Error::InvalidTicket { reason },
            ));
        };
        let answer = pacer
            .confirm(inner, now)
            .map_err(|e| js::core_error(env, &e))?;
        let start = inner.start();
        ticket.start = start;
        Ok(match answer {
            robotstxt::Confirm::Go => Confirmation {
                kind: ConfirmKind::Go,
                until: None,
                busy: false,
            },
            robotstxt::Confirm::Wait { until, busy } => Confirmation {
                kind: ConfirmKind::Wait,
                until: Some(until as f64),
                busy,
            },
            robotstxt::Confirm::Disabled => Confirmation {
                kind: ConfirmKind::Disabled,
                until: None,
                busy: false,
            },
        })
    }

    /// Gives up an unsent ticket: its slot goes back when it is the last
    /// one handed out, so that the next reservation may take it. The
    /// ticket is spent. A ticket already spent, or of another pacer,
    /// changes nothing.
    ///
    /// @throws {TypeError} `ticket` is not a `Ticket`.
    #[napi(catch_unwind, ts_args_type = "ticket: Ticket")]
    pub fn cancel(&self, env: &Env, ticket_value: Unknown) -> Result<()> {
        let mut ticket = ticket(env, &ticket_value)?;
        let pacer = self.core(env)?;
        if ticket.closed {
            return Err(js::closed(env, "Ticket"));
        }
        // The core takes the ticket: only one of this pacer's.
        if ticket.pacer == self.id {
            if let Some(inner) = ticket.inner.take() {
                pacer.cancel(inner);
            }
        }
        Ok(())
    }

    /// How many requests to `host` are in flight at `now`: confirmed
    /// `'go'` and not yet recorded (nor timed out).
    ///
    /// @throws {TypeError} an argument of the wrong type.
    /// @throws {RangeError} an invalid host.
    #[napi(
        catch_unwind,
        ts_args_type = "host: string | Uint8Array, now?: number | null"
    )]
    pub fn in_flight(&self, env: &Env, host: Unknown, now_ms: Option<Unknown>) -> Result<u32> {
        let now = now(env, now_ms.as_ref())?;
        let count = self.with_host(env, &host, |p, h| p.in_flight(h, now))?;
        Ok(u32::try_from(count).unwrap_or(u32::MAX))
    }

    /// Sets `host`'s own pace from a crawler's rules: their crawl delay and
    /// request rate. The floor still applies. A slower pace holds back the
    /// requests not yet started.
    ///
    /// @throws {TypeError} `rules` is not a `Rules`, or a bad host type.
    /// @throws {RangeError} an invalid host.
    #[napi(catch_unwind, ts_args_type = "host: string | Uint8Array, rules: Rules")]
    pub fn set_rules(&self, env: &Env, host: Unknown, rules: Unknown) -> Result<()> {
        let instance =
            Js::new(env, &rules).instance::<Rules>("rules", "a Rules from robots.rulesFor")?;
        let rules = instance.core(env)?;
        self.with_host(env, &host, |p, h| p.set_rules(h, rules))
    }

    /// `setRules` with the rules' handle, for a `Rules` the package entry
    /// made around one.
    #[napi(skip_typescript, catch_unwind, js_name = "_setRulesHandle")]
    pub fn set_rules_handle(&self, env: &Env, host: Unknown, handle: f64) -> Result<()> {
        let rules = rules::rules_of(env, handle)?;
        self.with_host(env, &host, |p, h| p.set_rules(h, &rules))
    }

    /// Sets `host`'s own pace: the larger of `crawlDelay` (seconds) and the
    /// request-rate interval. The floor still applies. A slower pace holds
    /// back the requests not yet started.
    ///
    /// @throws {TypeError} an argument of the wrong type.
    /// @throws {RangeError} an invalid host, a negative delay, or a rate
    ///   that is not whole numbers ≥ 1.
    #[napi(catch_unwind, ts_args_type = "host: string | Uint8Array, pace: Pace")]
    pub fn set_delay(&self, env: &Env, host: Unknown, pace: Unknown) -> Result<()> {
        let (delay, rate) = read_pace(env, &pace)?;
        self.with_host(env, &host, |p, h| p.set_delay(h, delay, rate))
    }

    /// Reports how a request to `host` that ended at `now` went, and frees
    /// its in-flight place: call it when every request confirmed `'go'`
    /// ends, answered or not (`status: null` for a network error). A 429
    /// or 5xx doubles the gap (capped), a `Retry-After` keeps every request
    /// from starting before it, and both give every slot not yet confirmed
    /// a new one; any other status halves the backoff again.
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
        self.with_host(env, &host, |p, h| p.record(h, now, status, retry))
    }

    /// Switches `host` off (`reserve` answers `null`, tickets out are
    /// voided when confirmed) or back on: a kill switch. A switched-off
    /// host is never forgotten.
    ///
    /// @throws {TypeError} an argument of the wrong type.
    /// @throws {RangeError} an invalid host.
    #[napi(
        catch_unwind,
        ts_args_type = "host: string | Uint8Array, enabled: boolean"
    )]
    pub fn set_enabled(&self, env: &Env, host: Unknown, enabled: Unknown) -> Result<()> {
        let enabled = Js::new(env, &enabled).bool("enabled")?;
        self.with_host(env, &host, |p, h| p.set_enabled(h, enabled))
    }

    /// The gap now applied between two request starts to `host`, in ms.
    ///
    /// @throws {TypeError} `host` is neither a string nor a `Uint8Array`.
    /// @throws {RangeError} an invalid host.
    #[napi(catch_unwind, ts_args_type = "host: string | Uint8Array")]
    pub fn gap_ms(&self, env: &Env, host: Unknown) -> Result<f64> {
        self.with_host(env, &host, |p, h| p.gap_ms(h))
            .map(|ms| ms as f64)
    }

    /// Frees the pacer and what it knows of every host now rather than
    /// when the garbage collector finds it. Any other use after this throws
    /// an `Error` with `code` `'ERR_ROBOTSTXT_CLOSED'`; closing twice does
    /// nothing. `[Symbol.dispose]` does the same, for `using`.
    #[napi(catch_unwind)]
    pub fn close(&mut self) {
        self.inner = None;
    }
}

/// A `Pace` object (`{ crawlDelay, requestRate }`, as `pacer.setDelay`
/// takes it): the crawl delay and the request rate.
pub(crate) fn read_pace(
    env: &Env,
    pace: &Unknown<'_>,
) -> Result<(Option<Duration>, Option<robotstxt::RequestRate>)> {
    let pace = Js::new(env, pace);
    let Some(object) = pace.options("pace", &["crawlDelay", "requestRate"])? else {
        return Err(pace.wrong_type("pace", "an object"));
    };
    let delay = read_optional(object, "crawlDelay", |v| {
        let seconds = v.number("pace.crawlDelay")?;
        Duration::try_from_secs_f64(seconds).map_err(|_| {
            js::range_error(
                env,
                js::ERR_OUT_OF_RANGE,
                &format!("pace.crawlDelay must be a finite number of seconds ≥ 0, not {seconds}"),
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
    Ok((delay, rate))
}
