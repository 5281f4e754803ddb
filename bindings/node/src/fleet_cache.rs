//! One worker's side of a fleet's shared robots.txt cache: the core's
//! `FleetCache` (sans I/O) as `SharedCache` (lib/fleet.js) drives it. A
//! function makes a step (`{ step, call }`); `_fleetCacheReply` reads its
//! reply: what it means, what answers and what is counted, the core
//! decides. Handles are opaque (`External`) and the functions unlisted in
//! index.d.ts: lib/fleet.js is their only caller.

use std::sync::atomic::{AtomicU64, Ordering};

use napi::bindgen_prelude::{Either, External, Object, Unknown};
use napi::{Env, Result};
use napi_derive::napi;
use robotstxt::{FleetLookup, LookupStep, StoreStep};

use crate::access::{read_optional, Access, FetchOutcome};
use crate::cache::CachedAnswer;
use crate::fleet::{at, call_object, fleet_error, reply, step, take, Step};
use crate::freshness::{lossy, FreshnessOptions};
use crate::js::{self, Js};

/// Numbers the caches, so that a lease knows its own.
static CACHE_IDS: AtomicU64 = AtomicU64::new(1);

pub struct Cache {
    /// `None` once closed.
    inner: Option<robotstxt::FleetCache>,
    id: u64,
    profile: robotstxt::Profile,
}

/// A fetch lease, until a store or an abandon takes it.
pub struct Lease {
    lease: Option<robotstxt::FleetLease>,
    cache: u64,
}

pub enum Pending {
    Lookup(LookupStep),
    Store(Box<StoreStep>),
    Renew,
    Abandon,
}

impl Cache {
    fn core(&mut self, env: &Env) -> Result<&mut robotstxt::FleetCache> {
        self.inner
            .as_mut()
            .ok_or_else(|| js::closed(env, "SharedCache"))
    }

    fn answer(&self, answer: robotstxt::Cached, retry_at: Option<u64>) -> CachedAnswer {
        CachedAnswer::new(answer, retry_at, self.profile)
    }

    /// `{ step, call }` to run, or what `sharedCache.lookup` answers (its
    /// lease with the opaque `handle` that stores it).
    fn next<'e>(&self, env: &'e Env, got: FleetLookup) -> Result<Object<'e>> {
        let (mut answer, mut stale, mut retry_at, mut lease, mut until) =
            (None, None, None, None, None);
        let kind = match got {
            FleetLookup::Run(s) => {
                return step(env, call_object(env, s.call())?, Pending::Lookup(s))
            }
            FleetLookup::Ready {
                answer: a,
                stale: s,
                retry_at: r,
            } => {
                (answer, stale, retry_at) =
                    (Some(self.answer(a, r)), Some(s), r.map(|ms| ms as f64));
                "ready"
            }
            FleetLookup::Fetch(l) => {
                let mut o = Object::new(env)?;
                o.set("origin", l.origin())?;
                o.set("robotsUrl", l.robots_url())?;
                o.set("etag", lossy(l.etag()))?;
                o.set("lastModified", lossy(l.last_modified()))?;
                let cache = self.id;
                o.set(
                    "handle",
                    External::new(Lease {
                        lease: Some(l),
                        cache,
                    }),
                )?;
                lease = Some(o);
                "fetch"
            }
            FleetLookup::Wait { until: u } => {
                until = Some(u as f64);
                "wait"
            }
        };
        let mut o = Object::new(env)?;
        o.set("kind", kind)?;
        o.set("answer", answer)?;
        o.set("stale", stale)?;
        o.set("retryAt", retry_at)?;
        o.set("lease", lease)?;
        o.set("until", until)?;
        Ok(o)
    }

    /// `{ access, answer, stored }`.
    fn stored<'e>(&self, env: &'e Env, stored: robotstxt::Stored) -> Result<Object<'e>> {
        let mut o = Object::new(env)?;
        o.set("access", Access::from_core(stored.disposition))?;
        o.set("answer", self.answer(stored.answer, None))?;
        o.set("stored", stored.stored)?;
        Ok(o)
    }
}

impl Lease {
    /// Takes the core's lease to store or abandon it with the cache
    /// numbered `cache`; a lease of another cache stays, for its own.
    fn take_for(&mut self, env: &Env, cache: u64) -> Result<robotstxt::FleetLease> {
        let taken = if self.cache == cache {
            self.lease.take()
        } else {
            None
        };
        taken.ok_or_else(|| {
            let reason = if self.cache == cache {
                "was already stored or abandoned"
            } else {
                "belongs to another cache"
            };
            js::core_error(env, &robotstxt::Error::InvalidLease { reason })
        })
    }
}

/// A worker's cache: `prefix`, `leaseMs`, `keepMs`, `capacity` and the
/// freshness options.
#[napi(skip_typescript, catch_unwind, js_name = "_fleetCache")]
pub fn new_cache(env: &Env, options: Unknown) -> Result<External<Cache>> {
    let mut keys = FreshnessOptions::keys();
    keys.extend(["prefix", "leaseMs", "keepMs", "capacity"]);
    let object = Js::new(env, &options).options("options", &keys)?;
    let mut core = robotstxt::FleetCacheOptions {
        policy: FreshnessOptions::read(env, object)?,
        ..Default::default()
    };
    if let Some(object) = object {
        if let Some(prefix) = read_optional(object, "prefix", |v| v.string("options.prefix"))? {
            core.prefix = prefix;
        }
        for (name, slot) in [
            ("leaseMs", &mut core.lease_ms),
            ("keepMs", &mut core.keep_ms),
        ] {
            if let Some(ms) = read_optional(object, name, |v| v.millis(&format!("options.{name}")))?
            {
                *slot = ms;
            }
        }
        if let Some(n) = read_optional(object, "capacity", |v| {
            v.integer("options.capacity", 1, u64::from(u32::MAX))
        })? {
            core.capacity = n as usize;
        }
    }
    let profile = core.policy.parse.profile();
    let inner = robotstxt::FleetCache::new(core).map_err(|e| js::core_error(env, &e))?;
    Ok(External::new(Cache {
        inner: Some(inner),
        id: CACHE_IDS.fetch_add(1, Ordering::Relaxed),
        profile,
    }))
}

/// What answers for `url`, or the step to run.
#[napi(skip_typescript, catch_unwind, js_name = "_fleetLookup")]
pub fn lookup<'e>(
    env: &'e Env,
    cache: &mut External<Cache>,
    url: Unknown,
    mono: f64,
    given: Option<Unknown>,
    when_fetching: Unknown,
) -> Result<Object<'e>> {
    let at = at(env, mono, given)?;
    let when = Js::new(env, &when_fetching).one_of(
        "whenFetching",
        &[
            ("wait", robotstxt::WhenFetching::Wait),
            ("disallow-all", robotstxt::WhenFetching::DisallowAll),
        ],
    )?;
    let core = cache.core(env)?;
    let got = Js::new(env, &url)
        .with_bytes("url", |u| core.lookup(u, at, when))?
        .map_err(|e| js::core_error(env, &e))?;
    cache.next(env, got)
}

/// The step that renews a lease while its fetch goes on (its reply:
/// whether the lease is still this worker's), or `null` once it was
/// stored or abandoned.
#[napi(skip_typescript, catch_unwind, js_name = "_fleetRenew")]
pub fn renew<'e>(
    env: &'e Env,
    cache: &mut External<Cache>,
    lease: &External<Lease>,
    mono: f64,
    given: Option<Unknown>,
) -> Result<Option<Object<'e>>> {
    let at = at(env, mono, given)?;
    let core = cache.core(env)?;
    let Some(lease) = &lease.lease else {
        return Ok(None);
    };
    step(
        env,
        call_object(env, &core.renew(lease, at))?,
        Pending::Renew,
    )
    .map(Some)
}

/// Records what the fetch of a lease returned: the step that stores it
/// (its reply: `{ access, answer, stored }`).
#[napi(skip_typescript, catch_unwind, js_name = "_fleetStore")]
pub fn store<'e>(
    env: &'e Env,
    cache: &mut External<Cache>,
    lease: &mut External<Lease>,
    outcome: Unknown,
    mono: f64,
    given: Option<Unknown>,
) -> Result<Object<'e>> {
    // What may run JavaScript (getters) first: a bad outcome leaves the
    // lease as it was.
    let outcome = FetchOutcome::read(env, &outcome)?;
    let at = at(env, mono, given)?;
    let id = cache.id;
    let core = cache.core(env)?;
    let taken = lease.take_for(env, id)?;
    let s = core
        .store(taken, &outcome.to_core(), at)
        .map_err(|e| js::core_error(env, &e))?;
    step(
        env,
        call_object(env, s.call())?,
        Pending::Store(Box::new(s)),
    )
}

/// The step that gives a lease back unstored.
#[napi(skip_typescript, catch_unwind, js_name = "_fleetAbandon")]
pub fn abandon<'e>(
    env: &'e Env,
    cache: &mut External<Cache>,
    lease: &mut External<Lease>,
) -> Result<Object<'e>> {
    let id = cache.id;
    let core = cache.core(env)?;
    let taken = lease.take_for(env, id)?;
    let call = core.abandon(taken).map_err(|e| js::core_error(env, &e))?;
    step(env, call_object(env, &call)?, Pending::Abandon)
}

/// Reads the reply to a step's call: a lookup's next step or answer, a
/// store's `{ access, answer, stored }`, whether a renewed lease is still
/// held (abandon: `true`).
#[napi(skip_typescript, catch_unwind, js_name = "_fleetCacheReply")]
pub fn cache_reply<'e>(
    env: &'e Env,
    cache: &mut External<Cache>,
    pending: &mut Step<Pending>,
    value: Unknown,
) -> Result<Either<Object<'e>, bool>> {
    let (pending, reply) = (take(env, pending)?, reply(env, &value)?);
    let core = cache.core(env)?;
    let bad = |e| fleet_error(env, &e);
    Ok(match pending {
        Pending::Lookup(s) => {
            let got = core.lookup_reply(s, &reply).map_err(bad)?;
            Either::A(cache.next(env, got)?)
        }
        Pending::Store(s) => {
            let stored = core.store_reply(*s, &reply).map_err(bad)?;
            Either::A(cache.stored(env, stored)?)
        }
        Pending::Renew => Either::B(core.renew_reply(&reply).map_err(bad)?),
        Pending::Abandon => Either::B(true),
    })
}

/// Redis failed to take a store: this worker answers from its copy
/// (`{ access, answer, stored }`).
#[napi(skip_typescript, catch_unwind, js_name = "_fleetStoreFailed")]
pub fn store_failed<'e>(
    env: &'e Env,
    cache: &mut External<Cache>,
    pending: &mut Step<Pending>,
) -> Result<Object<'e>> {
    let Pending::Store(s) = take(env, pending)? else {
        return Err(js::plain_error(
            env,
            js::ERR_INVALID_OPTION,
            "not a store step",
        ));
    };
    let stored = cache.core(env)?.store_failed(*s);
    cache.stored(env, stored)
}

/// A call failed in Redis (counted).
#[napi(skip_typescript, catch_unwind, js_name = "_fleetRedisFailed")]
pub fn redis_failed(env: &Env, cache: &mut External<Cache>) -> Result<()> {
    cache.core(env)?.redis_failed();
    Ok(())
}

/// What answers for `url` while Redis does not.
#[napi(skip_typescript, catch_unwind, js_name = "_fleetFailSafe")]
pub fn fail_safe(
    env: &Env,
    cache: &mut External<Cache>,
    url: Unknown,
    mono: f64,
    given: Option<Unknown>,
) -> Result<CachedAnswer> {
    let at = at(env, mono, given)?;
    let core = cache.core(env)?;
    let answer = Js::new(env, &url)
        .with_bytes("url", |u| core.fail_safe(u, at))?
        .map_err(|e| js::core_error(env, &e))?;
    Ok(cache.answer(answer, None))
}

#[napi(skip_typescript, catch_unwind, js_name = "_fleetRemove")]
pub fn remove(env: &Env, cache: &mut External<Cache>, url: Unknown) -> Result<bool> {
    let core = cache.core(env)?;
    Js::new(env, &url)
        .with_bytes("url", |u| core.remove(u))?
        .map_err(|e| js::core_error(env, &e))
}

/// `{ msUntil, renewEveryMs, size, stats }`: `msUntil`, from the step's
/// time until `until` (fleet time, 0 when past or not given); `stats` as
/// `sharedCache.stats`.
#[napi(skip_typescript, catch_unwind, js_name = "_fleetCacheState")]
pub fn state<'e>(
    env: &'e Env,
    cache: &mut External<Cache>,
    until: Option<f64>,
    mono: f64,
    given: Option<Unknown>,
) -> Result<Object<'e>> {
    let at = at(env, mono, given)?;
    let core = cache.core(env)?;
    let s = core.stats();
    let mut stats = Object::new(env)?;
    for (name, n) in [
        ("hits", s.hits),
        ("misses", s.misses),
        ("fetches", s.fetches),
        ("stale", s.stale),
        ("evictions", s.evictions),
        ("unreadable", s.unreadable),
        ("redisErrors", s.redis_errors),
        ("entries", s.entries),
    ] {
        stats.set(name, n as f64)?;
    }
    let mut o = Object::new(env)?;
    let until = until.map_or(0, |u| core.ms_until(u.max(0.0) as u64, at));
    o.set("msUntil", until as f64)?;
    o.set("renewEveryMs", core.renew_every_ms() as f64)?;
    o.set("size", core.len() as f64)?;
    o.set("stats", stats)?;
    Ok(o)
}

/// Frees the worker's copies; every later call throws the closed error.
#[napi(skip_typescript, catch_unwind, js_name = "_fleetCacheClose")]
pub fn close(cache: &mut External<Cache>) {
    cache.inner = None;
}
