//! One worker's side of a fleet's shared pacer: the core's `FleetPacer`
//! (sans I/O) as `SharedPacer` (lib/fleet.js) drives it. A function makes
//! a step (`{ step, call }`); `_fleetPacerReply` reads its reply: the
//! pace, what this worker knows of each host and the fleet's clock are the
//! core's. Opaque handles and unlisted functions, as in fleet_cache.rs.

use std::cell::RefCell;
use std::rc::Rc;

use napi::bindgen_prelude::{Either, External, Object, Unknown};
use napi::{Env, Result};
use napi_derive::napi;
use robotstxt::{FleetConfirm, PaceStep};

use crate::access::read_optional;
use crate::fleet::{at, call_object, fleet_error, reply, step, take, Step};
use crate::js::{self, Js};

pub struct Pacer {
    /// `None` once closed.
    inner: Option<robotstxt::FleetPacer>,
}

/// A reserved slot, shared with its confirmation step; spent once a
/// confirmation says go or disabled.
pub type Ticket = Rc<RefCell<(robotstxt::FleetTicket, bool)>>;

pub enum Pending {
    Reserve(PaceStep),
    Confirm(PaceStep, Ticket),
    Gap(PaceStep),
    State(PaceStep),
}

impl Pacer {
    fn core(&mut self, env: &Env) -> Result<&mut robotstxt::FleetPacer> {
        self.inner
            .as_mut()
            .ok_or_else(|| js::closed(env, "SharedPacer"))
    }
}

/// A worker's pacer: `prefix`, `retainMs`, and the pacer options
/// (`capacity`: how many hosts this worker remembers the pace of).
#[napi(skip_typescript, catch_unwind, js_name = "_fleetPacer")]
pub fn new_pacer(env: &Env, options: Unknown) -> Result<External<Pacer>> {
    let keys = [
        "prefix",
        "retainMs",
        "floorMs",
        "backoffCapMs",
        "capacity",
        "maxInFlight",
        "inFlightTimeoutMs",
    ];
    let mut core = robotstxt::FleetPacerOptions::default();
    if let Some(object) = Js::new(env, &options).options("options", &keys)? {
        if let Some(prefix) = read_optional(object, "prefix", |v| v.string("options.prefix"))? {
            core.prefix = prefix;
        }
        let p = &mut core.pacer;
        for (name, slot) in [
            ("retainMs", &mut core.retain_ms),
            ("floorMs", &mut p.floor_ms),
            ("backoffCapMs", &mut p.backoff_cap_ms),
            ("inFlightTimeoutMs", &mut p.in_flight_timeout_ms),
        ] {
            if let Some(ms) = read_optional(object, name, |v| v.millis(&format!("options.{name}")))?
            {
                *slot = ms;
            }
        }
        let count = |name: &str| {
            read_optional(object, name, |v| {
                v.integer(&format!("options.{name}"), 1, u64::from(u32::MAX))
            })
        };
        if let Some(n) = count("capacity")? {
            core.known_capacity = n as usize;
        }
        if let Some(n) = count("maxInFlight")? {
            core.pacer.max_in_flight = n as u32;
        }
    }
    let inner = robotstxt::FleetPacer::new(core).map_err(|e| js::core_error(env, &e))?;
    Ok(External::new(Pacer { inner: Some(inner) }))
}

/// The step `what` for `host`: `'reserve'`, `'record'` (`arg`: `[status,
/// retryAfterMs]`, `null` for none), `'setDelay'` (`arg`: ms),
/// `'setEnabled'` (`arg`: a boolean) or `'paceState'`.
#[napi(skip_typescript, catch_unwind, js_name = "_fleetPaceStep")]
pub fn pace_step<'e>(
    env: &'e Env,
    pacer: &mut External<Pacer>,
    what: String,
    host: Unknown,
    arg: Unknown,
    mono: f64,
    given: Option<Unknown>,
) -> Result<Object<'e>> {
    let at = at(env, mono, given)?;
    let arg = Js::new(env, &arg);
    let optional = |i| -> Result<Option<u64>> {
        let v = arg.element(i)?;
        if v.is_nullish()? {
            return Ok(None);
        }
        v.millis("outcome").map(Some)
    };
    let (status, retry) = match what.as_str() {
        "record" => (optional(0)?.map(|s| s.min(999) as u16), optional(1)?),
        _ => (None, None),
    };
    let (delay, enabled) = match what.as_str() {
        "setDelay" => (arg.millis("delay")?, false),
        "setEnabled" => (0, arg.bool("enabled")?),
        _ => (0, false),
    };
    let core = pacer.core(env)?;
    let s = Js::new(env, &host)
        .with_bytes("host", |h| match what.as_str() {
            "reserve" => core.reserve(h, at),
            "record" => core.record(h, status, retry, at),
            "setDelay" => core.set_delay(h, delay, at),
            "setEnabled" => core.set_enabled(h, enabled, at),
            _ => core.pace_state(h, at),
        })?
        .map_err(|e| js::core_error(env, &e))?;
    let call = call_object(env, s.call())?;
    match what.as_str() {
        "reserve" => step(env, call, Pending::Reserve(s)),
        "paceState" => step(env, call, Pending::State(s)),
        _ => step(env, call, Pending::Gap(s)),
    }
}

/// The step `what` for a ticket: `'confirm'` or `'cancel'`.
#[napi(skip_typescript, catch_unwind, js_name = "_fleetTicketStep")]
pub fn ticket_step<'e>(
    env: &'e Env,
    pacer: &mut External<Pacer>,
    what: String,
    ticket: &External<Ticket>,
    mono: f64,
    given: Option<Unknown>,
) -> Result<Object<'e>> {
    let at = at(env, mono, given)?;
    let core = pacer.core(env)?;
    let (held, spent) = &*ticket.borrow();
    if what == "cancel" {
        let s = core.cancel(held, at).map_err(|e| js::core_error(env, &e))?;
        return step(env, call_object(env, s.call())?, Pending::Gap(s));
    }
    if *spent {
        let reason = "was already confirmed or voided";
        return Err(js::core_error(
            env,
            &robotstxt::Error::InvalidTicket { reason },
        ));
    }
    let s = core
        .confirm(held, at)
        .map_err(|e| js::core_error(env, &e))?;
    let call = call_object(env, s.call())?;
    step(env, call, Pending::Confirm(s, Rc::clone(ticket)))
}

/// Reads the reply to a step's call: a reserve's ticket (`{ host, start,
/// generation, handle }`, or `null` while switched off); a confirmation's
/// `{ kind, until, busy }` as `pacer.confirm` says it, with `at` (when
/// Redis said go) and the ticket's `start` and `generation` (the fleet
/// may have moved its slot); a pace state's `{ gapMs, inFlight }`; any
/// other step's number (a gap, or 1 for a slot given back).
#[napi(skip_typescript, catch_unwind, js_name = "_fleetPacerReply")]
pub fn pacer_reply<'e>(
    env: &'e Env,
    pacer: &mut External<Pacer>,
    pending: &mut Step<Pending>,
    value: Unknown,
) -> Result<Either<Option<Object<'e>>, f64>> {
    let (pending, reply) = (take(env, pending)?, reply(env, &value)?);
    let core = pacer.core(env)?;
    let bad = |e| fleet_error(env, &e);
    let mut o = Object::new(env)?;
    match pending {
        Pending::Reserve(s) => {
            let Some(ticket) = core.reserve_reply(s, &reply).map_err(bad)? else {
                return Ok(Either::A(None));
            };
            o.set("host", ticket.host())?;
            o.set("start", ticket.start as f64)?;
            o.set("generation", ticket.generation as f64)?;
            let handle: Ticket = Rc::new(RefCell::new((ticket, false)));
            o.set("handle", External::new(handle))?;
        }
        Pending::Confirm(s, ticket) => {
            let (held, spent) = &mut *ticket.borrow_mut();
            let (kind, until, busy, go) = match core.confirm_reply(held, s, &reply).map_err(bad)? {
                FleetConfirm::Go { at } => ("go", None, false, Some(at as f64)),
                FleetConfirm::Wait { until, busy } => ("wait", Some(until as f64), busy, None),
                FleetConfirm::Disabled => ("disabled", None, false, None),
            };
            *spent = kind != "wait";
            o.set("kind", kind)?;
            o.set("until", until)?;
            o.set("busy", busy)?;
            o.set("at", go)?;
            o.set("start", held.start as f64)?;
            o.set("generation", held.generation as f64)?;
        }
        Pending::Gap(s) => return Ok(Either::B(core.step_reply(s, &reply).map_err(bad)? as f64)),
        Pending::State(s) => {
            let state = core.pace_state_reply(s, &reply).map_err(bad)?;
            o.set("gapMs", state.gap_ms as f64)?;
            o.set("inFlight", state.in_flight as f64)?;
        }
    }
    Ok(Either::A(Some(o)))
}

/// Ms from the step's time until `until` (fleet time), 0 when past.
#[napi(skip_typescript, catch_unwind, js_name = "_fleetPacerMsUntil")]
pub fn ms_until(
    env: &Env,
    pacer: &mut External<Pacer>,
    until: f64,
    mono: f64,
    given: Option<Unknown>,
) -> Result<f64> {
    let at = at(env, mono, given)?;
    Ok(pacer.core(env)?.ms_until(until.max(0.0) as u64, at) as f64)
}

#[napi(skip_typescript, catch_unwind, js_name = "_fleetPacerClose")]
pub fn close(pacer: &mut External<Pacer>) {
    pacer.inner = None;
}
