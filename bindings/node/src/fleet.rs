//! What a fleet's shared store needs from the core: the Lua scripts each
//! worker runs in Redis, and the origin a copy is keyed by. The package's
//! `SharedRobotsCache` and `SharedPacer` (lib/fleet.js) use them; they are
//! exported for a crawler that brings its own store code.

use napi::bindgen_prelude::Unknown;
use napi::{Env, Result};
use napi_derive::napi;

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
