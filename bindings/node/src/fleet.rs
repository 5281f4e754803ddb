//! What a fleet's shared store needs from the core: the Lua scripts each
//! worker runs in Redis, the origin and host keys, and the steps of the
//! core's fleet protocol as `SharedCache`, `SharedRobotsCache` and
//! `SharedPacer` (lib/fleet.js) run them: a step names a script call
//! ([`Call`]), the JavaScript layer runs it on its Redis client and hands
//! the reply back ([`reply`]), and the core says what it means
//! (`fleet_cache.rs`, `fleet_pacer.rs`). The scripts and keys are exported
//! for a crawler that brings its own store code.
// The steps' helpers serve fleet_cache.rs and fleet_pacer.rs, which the
// WebAssembly build leaves out (lib.rs).
#![cfg_attr(target_family = "wasm", allow(dead_code, unused_imports))]

use napi::bindgen_prelude::{Buffer, Either, External, Object, Unknown};
use napi::{Env, JsValue, Result, ValueType};
use napi_derive::napi;
use robotstxt::{At, Reply};

use crate::js::{self, Js};
use crate::pacer;

/// The Lua source of the fleet script `name` (`'lookup'`, `'store'`,
/// `'abandon'`, `'reserve'`, `'confirm'`, `'cancel'`, `'record'`,
/// `'set_delay'`, `'set_enabled'`, `'pace_state'`), ready
/// for `EVAL` or `SCRIPT LOAD`; each begins with its keys, arguments and
/// answer.
///
/// @throws {TypeError} `name` is not a string.
/// @throws {RangeError} no script has that name (`ERR_OUT_OF_RANGE`).
#[napi(catch_unwind, ts_args_type = "name: string")]
pub fn fleet_script(env: &Env, name: Unknown) -> Result<&'static str> {
    let name = Js::new(env, &name).string("name")?;
    robotstxt::fleet_script(&name).ok_or_else(|| {
        let known: Vec<&str> = robotstxt::FLEET_SCRIPTS.iter().map(|(n, _)| *n).collect();
        js::range_error(
            env,
            js::ERR_OUT_OF_RANGE,
            &format!(
                "no fleet script is called {name:?}: pass one of {}",
                known.join(", ")
            ),
        )
    })
}

/// The origin whose `/robots.txt` governs `url` (`scheme://host[:port]`,
/// as `Cache` keys it).
///
/// @throws {TypeError} `url` is neither a string nor a `Uint8Array`.
/// @throws {RangeError} a URL the cache refuses
///   (`ERR_ROBOTSTXT_INVALID_URL`).
#[napi(catch_unwind, ts_args_type = "url: string | Uint8Array")]
pub fn robots_origin(env: &Env, url: Unknown) -> Result<String> {
    Js::new(env, &url)
        .with_bytes("url", |u| robotstxt::robots_origin(u))?
        .map_err(|e| js::core_error(env, &e))
}

/// The key a pacer tracks `host` by (ASCII letters lower-cased): what a
/// fleet's shared store keys a host's pace by.
///
/// @throws {TypeError} `host` is neither a string nor a `Uint8Array`.
/// @throws {RangeError} an empty or over-long host
///   (`ERR_ROBOTSTXT_INVALID_HOST`).
#[napi(catch_unwind, ts_args_type = "host: string | Uint8Array")]
pub fn pacer_host(env: &Env, host: Unknown) -> Result<String> {
    Js::new(env, &host)
        .with_bytes("host", |h| robotstxt::pacer_host(h))?
        .map_err(|e| js::core_error(env, &e))
}

/// The gap (ms) a pace asks of a pacer: the larger of its crawl delay and
/// request-rate interval, rounded up to the ms (as `pacer.setDelay` sets
/// it). `{ crawlDelay: rules.crawlDelay, requestRate: rules.requestRate }`
/// gives a crawler's rules' own.
///
/// @throws {TypeError} as `pacer.setDelay`.
/// @throws {RangeError} as `pacer.setDelay`.
#[napi(catch_unwind, ts_args_type = "pace: Pace")]
pub fn pace_ms(env: &Env, pace: Unknown) -> Result<f64> {
    let (delay, rate) = pacer::read_pace(env, &pace)?;
    Ok(robotstxt::delay_ms(delay, rate) as f64)
}

/// `Error` code: a Redis call failed, or its reply could not be read; the
/// shared classes fail safe on it (docs/fleet.md, "Failure policy").
pub const ERR_REDIS: &str = "ERR_ROBOTSTXT_REDIS";

/// The core's error as the shared classes throw it: a reply the core
/// cannot read is a Redis failure, on which they fail safe.
pub(crate) fn fleet_error(env: &Env, err: &robotstxt::Error) -> napi::Error {
    match err {
        robotstxt::Error::BadReply { .. } => js::plain_error(env, ERR_REDIS, &err.to_string()),
        _ => js::core_error(env, err),
    }
}

/// When a step happens: at `given` (epoch ms: a `now` argument or option)
/// when there is one, else at `mono`, a reading of `performance.now()`
/// from which the core follows the fleet's clock (Redis's).
pub(crate) fn at(env: &Env, mono: f64, given: Option<Unknown>) -> Result<At> {
    match given {
        Some(given) if !Js::new(env, &given).is_nullish()? => {
            Ok(At::Given(Js::new(env, &given).millis("now")?))
        }
        _ => Ok(At::Monotonic(mono.max(0.0) as u64)),
    }
}

/// A Redis reply as the client resolved it (ioredis's `callBuffer`: `null`,
/// a number, a `Buffer`, an array of replies) or the error reply it
/// rejected with, as the core reads it.
pub(crate) fn reply(env: &Env, value: &Unknown<'_>) -> Result<Reply> {
    let js = Js::new(env, value);
    Ok(match value.get_type()? {
        ValueType::Null | ValueType::Undefined => Reply::Nil,
        ValueType::Number => {
            let n = js.number("reply")?;
            if n.fract() == 0.0 && n.abs() < 9.0e18 {
                Reply::Int(n as i64)
            } else {
                Reply::Bytes(js::shown(n).into_bytes())
            }
        }
        ValueType::String => Reply::Bytes(js.string("reply")?.into_bytes()),
        ValueType::Object if value.is_array()? => {
            let items = (0..js.array_len("reply")?)
                .map(|i| reply(env, &js::unknown(env, js.element(i)?.raw)))
                .collect::<Result<_>>()?;
            Reply::Array(items)
        }
        ValueType::Object if value.is_typedarray()? => Reply::Bytes(js.binary("reply")?.to_vec()),
        ValueType::Object if value.is_error()? => Reply::Error(
            value
                .coerce_to_object()?
                .get::<String>("message")?
                .unwrap_or_default(),
        ),
        _ => return Err(js.wrong_type("reply", "a Redis reply")),
    })
}

/// A step waiting for the reply to its call, until its reader takes it.
pub(crate) type Step<T> = External<Option<T>>;

/// `{ step, call }`: the step, and its call (`call_object`) for
/// lib/fleet.js to run.
pub(crate) fn step<'e, T: 'static>(
    env: &'e Env,
    call: Object<'e>,
    pending: T,
) -> Result<Object<'e>> {
    let mut object = Object::new(env)?;
    object.set("call", call)?;
    object.set("step", External::new(Some(pending)))?;
    Ok(object)
}

/// `{ script, keys, args }`: run `EVALSHA` with the SHA-1 of
/// `fleetScript(script)` (`EVAL` with it when Redis lacks it), the keys,
/// then the arguments: text as strings, a stored copy's bytes as a
/// `Buffer` (a string costs far less to make).
pub(crate) fn call_object<'e>(env: &'e Env, call: &robotstxt::ScriptCall) -> Result<Object<'e>> {
    let mut object = Object::new(env)?;
    object.set("script", call.name())?;
    object.set("keys", call.keys().to_vec())?;
    let args: Vec<Either<&str, Buffer>> = call
        .args()
        .iter()
        .map(|a| match std::str::from_utf8(a) {
            Ok(text) => Either::A(text),
            Err(_) => Either::B(Buffer::from(a.clone())),
        })
        .collect();
    object.set("args", args)?;
    Ok(object)
}

/// The step its reader takes, once.
pub(crate) fn take<T>(env: &Env, step: &mut Step<T>) -> Result<T> {
    step.take()
        .ok_or_else(|| js::plain_error(env, js::ERR_INVALID_OPTION, "the step was already read"))
}
