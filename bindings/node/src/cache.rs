//! `Cache`: robots.txt copies keyed by origin, with single-flight fetching
//! (SPEC §6–7). Sans-I/O: a lookup says *fetch now* to one caller per
//! origin, and that caller stores what it got.

use std::sync::Arc;

use napi::bindgen_prelude::Unknown;
use napi::{Env, Result};
use napi_derive::napi;

use crate::access::{read_optional, Access, FetchOutcome};
use crate::freshness::{lossy, now, AnswerKind, FreshnessOptions};
use crate::js::{self, Js};
use crate::robots::{Profile, Robots};
use crate::rules::Rules;

/// How big the cache is, how long a fetch may take, and the freshness
/// options of every copy. Every field is optional; times in milliseconds.
#[napi(object, object_to_js = false)]
#[allow(dead_code)] // Declares the options for index.d.ts; read field by field.
pub struct CacheOptions {
    /// At most this many origins are kept; the least recently used goes
    /// first. Default 10,000.
    pub capacity: Option<u32>,
    /// A fetch handed out and neither stored nor abandoned within this long
    /// is handed to the next caller. Default 60,000 (60 s).
    pub lease_ms: Option<f64>,
    /// As in `FreshnessOptions`.
    pub fresh_for_ms: Option<f64>,
    /// As in `FreshnessOptions`.
    pub retry_ms: Option<f64>,
    /// As in `FreshnessOptions`.
    pub unreachable_limit_ms: Option<f64>,
    /// As in `FreshnessOptions`.
    pub after_limit: Option<crate::freshness::AfterLimit>,
    /// As in `FreshnessOptions`.
    pub policy: Option<crate::access::AccessPolicy>,
    /// As in `ParseOptions`.
    pub profile: Option<Profile>,
    /// As in `ParseOptions`.
    pub parse_limit: Option<u32>,
    /// As in `ParseOptions`.
    pub typos: Option<bool>,
}

/// The right, and duty, to fetch one origin's robots.txt: fetch
/// `robotsUrl` (conditionally, with `etag` and `lastModified` when they are
/// set), then `cache.store(lease, outcome)`, or `cache.abandon(lease)`.
#[napi]
pub struct Lease {
    inner: robotstxt::Lease,
}

#[napi]
impl Lease {
    /// The normalised origin, such as `https://example.com:8443`.
    #[napi(getter, catch_unwind)]
    pub fn origin(&self) -> String {
        self.inner.origin().to_owned()
    }

    /// The URL to fetch: the origin's `/robots.txt`.
    #[napi(getter, catch_unwind)]
    pub fn robots_url(&self) -> String {
        self.inner.robots_url()
    }

    /// The `ETag` to send as `If-None-Match`, or `null`.
    #[napi(getter, catch_unwind)]
    pub fn etag(&self) -> Option<String> {
        lossy(self.inner.etag())
    }

    /// The `Last-Modified` to send as `If-Modified-Since`, or `null`.
    #[napi(getter, catch_unwind)]
    pub fn last_modified(&self) -> Option<String> {
        lossy(self.inner.last_modified())
    }
}

/// A cached copy's answer: a parsed file, allow-all or disallow-all.
#[napi]
pub struct CachedAnswer {
    cache: Arc<robotstxt::Cache>,
    inner: robotstxt::Cached,
}

#[napi]
impl CachedAnswer {
    /// `'rules'`, `'allow-all'` or `'disallow-all'`.
    #[napi(getter, catch_unwind)]
    pub fn kind(&self) -> AnswerKind {
        match self.inner {
            robotstxt::Cached::Rules(_) => AnswerKind::Rules,
            robotstxt::Cached::AllowAll => AnswerKind::AllowAll,
            robotstxt::Cached::DisallowAll => AnswerKind::DisallowAll,
        }
    }

    /// The parsed file when `kind` is `'rules'`, else `null`.
    #[napi(getter, catch_unwind)]
    pub fn robots(&self, env: &Env) -> Option<Robots> {
        match &self.inner {
            robotstxt::Cached::Rules(robots) => Some(Robots::wrap(env, robots.clone())),
            _ => None,
        }
    }

    /// The rules for `token` under this answer; allow-all and disallow-all
    /// become rules that allow or disallow every URL. The token is checked
    /// as `robots.rulesFor` checks it, whatever the answer.
    ///
    /// @throws {TypeError} `token` is neither a string nor a `Uint8Array`.
    /// @throws {RangeError} an invalid token (`ERR_ROBOTSTXT_INVALID_TOKEN`).
    #[napi(catch_unwind, ts_args_type = "token: string | Uint8Array")]
    pub fn rules_for(&self, env: &Env, token: Unknown) -> Result<Rules> {
        let rules = Js::new(env, &token)
            .with_bytes("token", |t| self.cache.select(&self.inner, t))?
            .map_err(|e| js::core_error(env, &e))?;
        Ok(Rules::wrap(env, rules))
    }
}

/// What a lookup gets: `'ready'` (an answer), `'fetch'` (you fetch now) or
/// `'wait'` (another caller is fetching and there is no copy yet).
#[napi(string_enum = "lowercase")]
pub enum LookupKind {
    /// Answer with `answer`.
    Ready,
    /// Fetch `lease.robotsUrl` now, then store or abandon the lease.
    Fetch,
    /// Ask again once the other caller has stored its fetch, or at `until`.
    Wait,
}

/// The answer of `cache.lookup`. The fields that do not apply to `kind`
/// are `null`.
#[napi(object, object_from_js = false, use_nullable = true)]
pub struct CacheLookup {
    /// `'ready'`, `'fetch'` or `'wait'`.
    pub kind: LookupKind,
    /// `'ready'`: what answers.
    pub answer: Option<CachedAnswer>,
    /// `'ready'`: whether the copy is past its freshness (an old copy kept
    /// while the file is being fetched or is unreachable).
    pub stale: Option<bool>,
    /// `'fetch'`: the lease to fetch with.
    pub lease: Option<Lease>,
    /// `'wait'`: when the other caller's lease runs out (epoch ms).
    pub until: Option<f64>,
}

/// Counters since the cache was made.
#[napi(object, object_from_js = false)]
pub struct CacheStats {
    /// Answers from a fresh copy.
    pub hits: f64,
    /// Lookups with no usable copy (a fetch handed out, a wait, or a
    /// disallow-all while another caller fetches).
    pub misses: f64,
    /// Fetches handed out.
    pub fetches: f64,
    /// Answers from a copy past its freshness.
    pub stale: f64,
    /// Origins dropped to stay within capacity.
    pub evictions: f64,
    /// Origins held now.
    pub entries: f64,
}

/// A bounded cache of robots.txt copies keyed by origin
/// (`scheme://host:port`), with single-flight fetching: while one caller
/// fetches an origin's file, the others keep using the old copy, or wait.
/// Every `now` is epoch milliseconds and defaults to `Date.now()`.
///
/// ```js
/// const cache = new Cache()
/// async function rulesFor (url) {
///   for (;;) {
///     const got = cache.lookup(url)
///     if (got.kind === 'ready') return got.answer.rulesFor('ExampleBot')
///     if (got.kind === 'wait') { await sleep(100); continue }
///     try {
///       const res = await fetch(got.lease.robotsUrl)
///       cache.store(got.lease, { status: res.status, body: Buffer.from(await res.arrayBuffer()) })
///     } catch {
///       cache.store(got.lease, { status: null })
///     }
///   }
/// }
/// ```
#[napi]
pub struct Cache {
    inner: Arc<robotstxt::Cache>,
}

fn lease<'e>(
    env: &'e Env,
    value: &Unknown<'_>,
) -> Result<napi::bindgen_prelude::ClassInstance<'e, Lease>> {
    Js::new(env, value).instance::<Lease>("lease", "a Lease from cache.lookup")
}

#[napi]
impl Cache {
    /// An empty cache.
    ///
    /// @throws {TypeError} an option of the wrong type.
    /// @throws {RangeError} an unknown option, or a value out of range.
    #[napi(
        constructor,
        catch_unwind,
        ts_args_type = "options?: CacheOptions | null"
    )]
    pub fn new(env: &Env, options: Option<Unknown>) -> Result<Cache> {
        let mut keys = FreshnessOptions::keys();
        keys.extend(["capacity", "leaseMs"]);
        let object = match &options {
            Some(o) => Js::new(env, o).options("options", &keys)?,
            None => None,
        };
        let mut core = robotstxt::CacheOptions {
            policy: FreshnessOptions::read(env, object)?,
            ..Default::default()
        };
        if let Some(object) = object {
            if let Some(n) = read_optional(object, "capacity", |v| {
                v.integer("options.capacity", 1, u64::from(u32::MAX))
            })? {
                core.capacity = n as usize;
            }
            if let Some(ms) = read_optional(object, "leaseMs", |v| v.millis("options.leaseMs"))? {
                core.lease_ms = ms;
            }
        }
        Ok(Cache {
            inner: Arc::new(robotstxt::Cache::new(core)),
        })
    }

    /// What answers for `url` at `now`: a copy (`'ready'`), *fetch now*
    /// (`'fetch'`, to one caller per origin at a time) or `'wait'`.
    /// `whenFetching` says what a lookup gets while another caller fetches
    /// and no copy exists yet: `'wait'` (default) or `'disallow-all'`.
    ///
    /// @throws {TypeError} an argument of the wrong type.
    /// @throws {RangeError} `url` is not an absolute `http`/`https` URL
    ///   (`ERR_ROBOTSTXT_INVALID_URL`), or a bad `now` or `whenFetching`.
    #[napi(
        catch_unwind,
        ts_args_type = "url: string | Uint8Array, now?: number | null, whenFetching?: 'wait' | 'disallow-all'"
    )]
    pub fn lookup(
        &self,
        env: &Env,
        url: Unknown,
        now_ms: Option<Unknown>,
        when_fetching: Option<Unknown>,
    ) -> Result<CacheLookup> {
        let now = now(env, now_ms.as_ref())?;
        let when = match &when_fetching {
            Some(w) => Js::new(env, w).one_of(
                "whenFetching",
                &[
                    ("wait", robotstxt::WhenFetching::Wait),
                    ("disallow-all", robotstxt::WhenFetching::DisallowAll),
                ],
            )?,
            None => robotstxt::WhenFetching::Wait,
        };
        let got = Js::new(env, &url)
            .with_bytes("url", |u| self.inner.lookup(u, now, when))?
            .map_err(|e| js::core_error(env, &e))?;
        let empty = |kind| CacheLookup {
            kind,
            answer: None,
            stale: None,
            lease: None,
            until: None,
        };
        Ok(match got {
            robotstxt::Lookup::Ready { answer, stale } => CacheLookup {
                answer: Some(CachedAnswer {
                    cache: Arc::clone(&self.inner),
                    inner: answer,
                }),
                stale: Some(stale),
                ..empty(LookupKind::Ready)
            },
            robotstxt::Lookup::Fetch(lease) => CacheLookup {
                lease: Some(Lease { inner: lease }),
                ..empty(LookupKind::Fetch)
            },
            robotstxt::Lookup::Wait { until } => CacheLookup {
                until: Some(until as f64),
                ..empty(LookupKind::Wait)
            },
        })
    }

    /// Stores what the fetch of `lease` returned at `now` and ends the
    /// lease; returns what the outcome meant (SPEC §6). A 2xx body is
    /// parsed here.
    ///
    /// @throws {TypeError} `lease` is not a `Lease`, or `outcome` is wrong.
    /// @throws {RangeError} an unknown field, or a value out of range.
    #[napi(
        catch_unwind,
        ts_args_type = "lease: Lease, outcome: FetchOutcome, now?: number | null"
    )]
    pub fn store(
        &self,
        env: &Env,
        lease_value: Unknown,
        outcome: Unknown,
        now_ms: Option<Unknown>,
    ) -> Result<Access> {
        let lease = lease(env, &lease_value)?;
        let outcome = FetchOutcome::read(env, &outcome)?;
        let now = now(env, now_ms.as_ref())?;
        let disposition = self.inner.store(&lease.inner, now, &outcome.to_core());
        Ok(Access::from_core(disposition))
    }

    /// Gives a fetch back without an outcome (you gave up): the next lookup
    /// hands it to someone else.
    ///
    /// @throws {TypeError} `lease` is not a `Lease`.
    #[napi(catch_unwind, ts_args_type = "lease: Lease")]
    pub fn abandon(&self, env: &Env, lease_value: Unknown) -> Result<()> {
        let lease = lease(env, &lease_value)?;
        self.inner.abandon(&lease.inner);
        Ok(())
    }

    /// Forgets `url`'s origin; returns whether it was held.
    ///
    /// @throws {TypeError} `url` is neither a string nor a `Uint8Array`.
    /// @throws {RangeError} not an absolute `http`/`https` URL.
    #[napi(catch_unwind, ts_args_type = "url: string | Uint8Array")]
    pub fn remove(&self, env: &Env, url: Unknown) -> Result<bool> {
        Js::new(env, &url)
            .with_bytes("url", |u| self.inner.remove(u))?
            .map_err(|e| js::core_error(env, &e))
    }

    /// The counters since the cache was made.
    #[napi(getter, catch_unwind)]
    pub fn stats(&self) -> CacheStats {
        let s = self.inner.stats();
        CacheStats {
            hits: s.hits as f64,
            misses: s.misses as f64,
            fetches: s.fetches as f64,
            stale: s.stale as f64,
            evictions: s.evictions as f64,
            entries: s.entries as f64,
        }
    }

    /// How many origins are held.
    #[napi(getter, catch_unwind)]
    pub fn size(&self) -> u32 {
        u32::try_from(self.inner.len()).unwrap_or(u32::MAX)
    }
}
