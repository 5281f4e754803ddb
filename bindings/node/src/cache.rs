//! `Cache`: robots.txt copies keyed by origin, with single-flight fetching
//! (behaviour §6–§7). Sans-I/O: a lookup says *fetch now* to one caller per
//! origin, and that caller stores what it got.

use napi::bindgen_prelude::Unknown;
use napi::{Env, Result};
use napi_derive::napi;

use crate::access::{read_optional, Access, FetchOutcome};
use crate::freshness::{lossy, now, AnswerKind, FreshnessOptions};
use crate::js::{self, Js};
use crate::robots::{Profile, Robots};
use crate::rules::{self, Blanket, Rules};

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
    /// How long a copy is fresh: 86,400,000 (24 h, RFC 9309 §2.4). A
    /// shorter `maxAgeMs` on a fetch shortens it; nothing lengthens it.
    pub fresh_for_ms: Option<f64>,
    /// When to fetch again after a failure to retry later (a 5xx, 429,
    /// network error…): 3,600,000 (1 h). A fetch that says `retryAfterMs`
    /// is retried after that instead, kept between 60,000 (1 minute) and
    /// 86,400,000 (24 hours). `lookup(...).retryAt` and `rules.retryAt`
    /// say when.
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
///
/// Store or abandon it once, with the cache that handed it out: a second
/// store, a store with another cache, and a lease that ran out after a
/// newer copy of its origin was stored throw an `Error` with `code`
/// `'ERR_ROBOTSTXT_INVALID_LEASE'` and change nothing. A lease closed, or
/// collected by the garbage collector, unfinished gives the fetch back at
/// once: the next lookup hands it to another caller.
#[napi]
pub struct Lease {
    /// `None` once closed.
    state: Option<LeaseState>,
}

struct LeaseState {
    origin: String,
    etag: Option<String>,
    last_modified: Option<String>,
    /// The core's lease, until a store or abandon takes it.
    lease: Option<robotstxt::Lease>,
}

impl Lease {
    fn new(lease: robotstxt::Lease) -> Lease {
        Lease {
            state: Some(LeaseState {
                origin: lease.origin().to_owned(),
                etag: lossy(lease.etag()),
                last_modified: lossy(lease.last_modified()),
                lease: Some(lease),
            }),
        }
    }

    fn state(&self, env: &Env) -> Result<&LeaseState> {
        js::open(env, &self.state, "Lease")
    }

    /// Takes the core's lease to store or abandon it with `cache`. A lease
    /// of another cache stays, usable with its own.
    fn take_for(&mut self, env: &Env, cache: &robotstxt::Cache) -> Result<robotstxt::Lease> {
        let Some(state) = &mut self.state else {
            return Err(js::closed(env, "Lease"));
        };
        let reason = match &state.lease {
            Some(lease) if cache.issued(lease) => None,
            Some(_) => Some("belongs to another cache"),
            None => Some("was already stored or abandoned"),
        };
        match (reason, state.lease.take()) {
            (None, Some(lease)) => Ok(lease),
            (reason, lease) => {
                state.lease = lease;
                let reason = reason.unwrap_or("was already stored or abandoned");
                Err(js::core_error(
                    env,
                    &robotstxt::Error::InvalidLease { reason },
                ))
            }
        }
    }
}

#[napi]
impl Lease {
    /// The normalised origin, such as `https://example.com:8443`: scheme
    /// and host lower-cased, an international host as punycode, the
    /// default port left out, never the userinfo (`new URL(url).origin`).
    #[napi(getter, catch_unwind)]
    pub fn origin(&self, env: &Env) -> Result<String> {
        Ok(self.state(env)?.origin.clone())
    }

    /// The URL to fetch: the origin's `/robots.txt`.
    #[napi(getter, catch_unwind)]
    pub fn robots_url(&self, env: &Env) -> Result<String> {
        Ok(format!("{}/robots.txt", self.state(env)?.origin))
    }

    /// The `ETag` to send as `If-None-Match`, or `null`.
    #[napi(getter, catch_unwind)]
    pub fn etag(&self, env: &Env) -> Result<Option<String>> {
        Ok(self.state(env)?.etag.clone())
    }

    /// The `Last-Modified` to send as `If-Modified-Since`, or `null`.
    #[napi(getter, catch_unwind)]
    pub fn last_modified(&self, env: &Env) -> Result<Option<String>> {
        Ok(self.state(env)?.last_modified.clone())
    }

    /// Abandons the fetch if it was neither stored nor abandoned (the next
    /// lookup hands it to another caller) and frees the lease. Any use after
    /// this throws an `Error` with `code` `'ERR_ROBOTSTXT_CLOSED'`; closing
    /// twice does nothing. `[Symbol.dispose]` does the same, for `using`.
    #[napi(catch_unwind)]
    pub fn close(&mut self) {
        // Dropping the core's lease gives its fetch back.
        self.state = None;
    }
}

/// A cached copy's answer: a parsed file, allow-all or disallow-all.
#[napi]
pub struct CachedAnswer {
    /// `None` once closed.
    inner: Option<Answered>,
}

struct Answered {
    answer: robotstxt::Cached,
    /// When the cache fetches again, after a failed fetch.
    retry_at: Option<u64>,
    /// The profile of the cache's parse options, for blanket rules.
    profile: robotstxt::Profile,
}

impl Answered {
    /// What `robotstxt::Cache::select` gives, without holding the cache:
    /// closing the cache frees it even while its answers live.
    fn select(&self, token: &[u8]) -> std::result::Result<robotstxt::Rules, robotstxt::Error> {
        let rules = self.answer.rules_for(self.profile, token)?;
        Ok(rules.with_retry_at(self.retry_at))
    }
}

impl CachedAnswer {
    /// `answer`, with when the next fetch is due after a failed one, read
    /// with `profile`.
    pub(crate) fn new(
        answer: robotstxt::Cached,
        retry_at: Option<u64>,
        profile: robotstxt::Profile,
    ) -> CachedAnswer {
        CachedAnswer {
            inner: Some(Answered {
                answer,
                retry_at,
                profile,
            }),
        }
    }
}

#[napi]
impl CachedAnswer {
    fn answered(&self, env: &Env) -> Result<&Answered> {
        js::open(env, &self.inner, "CachedAnswer")
    }

    /// `'rules'`, `'allow-all'` or `'disallow-all'`.
    #[napi(getter, catch_unwind)]
    pub fn kind(&self, env: &Env) -> Result<AnswerKind> {
        Ok(match self.answered(env)?.answer {
            robotstxt::Cached::Rules(_) => AnswerKind::Rules,
            robotstxt::Cached::AllowAll(_) => AnswerKind::AllowAll,
            robotstxt::Cached::DisallowAll(_) => AnswerKind::DisallowAll,
        })
    }

    /// The parsed file when `kind` is `'rules'`, else `null`.
    #[napi(getter, catch_unwind)]
    pub fn robots(&self, env: &Env) -> Result<Option<Robots>> {
        Ok(match &self.answered(env)?.answer {
            robotstxt::Cached::Rules(robots) => Some(Robots::wrap(env, robots.clone())),
            _ => None,
        })
    }

    /// `null` for a parsed file; for `'allow-all'` and `'disallow-all'`,
    /// why: `{ allowed, cause }`, the cause being the HTTP status (a 404,
    /// a 503…), `'no-response'`, `'not-fetched'` or `'unreachable-limit'`.
    #[napi(getter, catch_unwind)]
    pub fn blanket(&self, env: &Env) -> Result<Option<Blanket>> {
        Ok(self.answered(env)?.answer.blanket().map(Blanket::from_core))
    }

    /// When the cache fetches the robots.txt again (epoch ms by its
    /// clock), after a failed fetch: the answer is then an old copy kept
    /// meanwhile, or a disallow-all. `null` otherwise.
    #[napi(getter, catch_unwind)]
    pub fn retry_at(&self, env: &Env) -> Result<Option<f64>> {
        Ok(self.answered(env)?.retry_at.map(|ms| ms as f64))
    }

    /// The rules for `token` under this answer; allow-all and disallow-all
    /// become rules that allow or disallow every URL, and say so
    /// (`rules.blanket`, `rules.retryAt`). The token is checked as
    /// `robots.rulesFor` checks it, whatever the answer.
    ///
    /// @throws {TypeError} `token` is neither a string nor a `Uint8Array`.
    /// @throws {RangeError} an invalid token (`ERR_ROBOTSTXT_INVALID_TOKEN`).
    #[napi(catch_unwind, ts_args_type = "token: string | Uint8Array")]
    pub fn rules_for(&self, env: &Env, token: Unknown) -> Result<Rules> {
        Ok(Rules::wrap(env, self.selected(env, &token)?))
    }

    /// `rulesFor`, as a handle that the package entry makes its `Rules`
    /// around (see `Robots._rulesForHandle`).
    #[napi(skip_typescript, catch_unwind, js_name = "_rulesForHandle")]
    pub fn rules_for_handle(&self, env: &Env, token: Unknown) -> Result<Option<u32>> {
        Ok(rules::adopt(env, self.selected(env, &token)?))
    }

    fn selected(&self, env: &Env, token: &Unknown<'_>) -> Result<robotstxt::Rules> {
        let answered = self.answered(env)?;
        Js::new(env, token)
            .with_bytes("token", |t| answered.select(t))?
            .map_err(|e| js::core_error(env, &e))
    }

    /// Frees the answer now rather than when the garbage collector finds
    /// it; rules selected from it keep working. Any other use after this
    /// throws an `Error` with `code` `'ERR_ROBOTSTXT_CLOSED'`; closing twice
    /// does nothing. `[Symbol.dispose]` does the same, for `using`.
    #[napi(catch_unwind)]
    pub fn close(&mut self) {
        self.inner = None;
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
    /// `'ready'`: when the next fetch is due (epoch ms) after a failed one,
    /// or, with `whenFetching` `'disallow-all'` while another caller
    /// fetches, when its lease runs out: ask again then for a fresher
    /// answer. `null` otherwise.
    pub retry_at: Option<f64>,
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
/// (`scheme://host[:port]`, as `new URL(url).origin` reads it), with
/// single-flight fetching: while one caller fetches an origin's file, the
/// others keep using the old copy, or wait. Every `now` is epoch
/// milliseconds and defaults to `Date.now()`.
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
///
/// The garbage collector frees it; `close()` frees it at once.
#[napi]
pub struct Cache {
    /// `None` once closed.
    inner: Option<robotstxt::Cache>,
}

fn lease<'e>(
    env: &'e Env,
    value: &Unknown<'_>,
) -> Result<napi::bindgen_prelude::ClassInstance<'e, Lease>> {
    Js::new(env, value).instance::<Lease>("lease", "a Lease from cache.lookup")
}

impl Cache {
    fn core(&self, env: &Env) -> Result<&robotstxt::Cache> {
        js::open(env, &self.inner, "Cache")
    }
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
            inner: Some(robotstxt::Cache::new(core)),
        })
    }

    /// What answers for `url` at `now`: a copy (`'ready'`), *fetch now*
    /// (`'fetch'`, to one caller per origin at a time) or `'wait'`.
    /// `whenFetching` says what a lookup gets while another caller fetches
    /// and no copy exists yet: `'wait'` (default) or `'disallow-all'`.
    ///
    /// `url`'s origin is read as `new URL(url).origin` reads it. A URL
    /// whose authority HTTP clients read differently is refused: one
    /// holding `\`, whitespace, a control character or a `%`-escape, or an
    /// IPv4 address not written as four decimal numbers (normalise such
    /// URLs with your crawler's own URL parser first).
    ///
    /// @throws {TypeError} an argument of the wrong type.
    /// @throws {RangeError} `url` is not an absolute `http`/`https` URL
    ///   or is refused as above (`ERR_ROBOTSTXT_INVALID_URL`, the message
    ///   quoting it), or a bad `now` or `whenFetching`.
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
        let cache = self.core(env)?;
        let got = Js::new(env, &url)
            .with_bytes("url", |u| cache.lookup(u, now, when))?
            .map_err(|e| js::core_error(env, &e))?;
        let empty = |kind| CacheLookup {
            kind,
            answer: None,
            stale: None,
            retry_at: None,
            lease: None,
            until: None,
        };
        Ok(match got {
            robotstxt::Lookup::Ready {
                answer,
                stale,
                retry_at,
            } => CacheLookup {
                answer: Some(CachedAnswer {
                    inner: Some(Answered {
                        answer,
                        retry_at,
                        profile: cache.options().policy.parse.profile(),
                    }),
                }),
                stale: Some(stale),
                retry_at: retry_at.map(|ms| ms as f64),
                ..empty(LookupKind::Ready)
            },
            robotstxt::Lookup::Fetch(lease) => CacheLookup {
                lease: Some(Lease::new(lease)),
                ..empty(LookupKind::Fetch)
            },
            robotstxt::Lookup::Wait { until } => CacheLookup {
                until: Some(until as f64),
                ..empty(LookupKind::Wait)
            },
        })
    }

    /// Stores what the fetch of `lease` returned at `now` and ends the
    /// lease; returns what the outcome meant (behaviour §6). A 2xx body is
    /// parsed here. A lease that ran out is still stored, unless a newer
    /// lease of its origin stored a copy since: a late answer never
    /// replaces a newer one.
    ///
    /// @throws {TypeError} `lease` is not a `Lease`, or `outcome` is wrong.
    /// @throws {RangeError} an unknown field, or a value out of range.
    /// @throws {Error} `ERR_ROBOTSTXT_INVALID_LEASE`: the lease was already
    ///   stored or abandoned, belongs to another cache (it stays usable
    ///   with its own), or ran out and a newer copy was stored since;
    ///   nothing changes.
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
        // Reading the arguments may run JavaScript (getters): all of it
        // before the lease is taken, so that a bad outcome leaves it.
        let outcome = FetchOutcome::read(env, &outcome)?;
        let now = now(env, now_ms.as_ref())?;
        let mut lease = lease(env, &lease_value)?;
        let cache = self.core(env)?;
        let taken = lease.take_for(env, cache)?;
        let disposition = cache
            .store(taken, now, &outcome.to_core())
            .map_err(|e| js::core_error(env, &e))?;
        Ok(Access::from_core(disposition))
    }

    /// Gives a fetch back without an outcome (you gave up): the next lookup
    /// hands it to someone else. `lease.close()` does the same.
    ///
    /// @throws {TypeError} `lease` is not a `Lease`.
    /// @throws {Error} `ERR_ROBOTSTXT_INVALID_LEASE`: already stored or
    ///   abandoned, or a lease of another cache.
    #[napi(catch_unwind, ts_args_type = "lease: Lease")]
    pub fn abandon(&self, env: &Env, lease_value: Unknown) -> Result<()> {
        let mut lease = lease(env, &lease_value)?;
        let cache = self.core(env)?;
        let taken = lease.take_for(env, cache)?;
        cache.abandon(taken).map_err(|e| js::core_error(env, &e))
    }

    /// Forgets `url`'s origin; returns whether it was held.
    ///
    /// @throws {TypeError} `url` is neither a string nor a `Uint8Array`.
    /// @throws {RangeError} not an absolute `http`/`https` URL.
    #[napi(catch_unwind, ts_args_type = "url: string | Uint8Array")]
    pub fn remove(&self, env: &Env, url: Unknown) -> Result<bool> {
        let cache = self.core(env)?;
        Js::new(env, &url)
            .with_bytes("url", |u| cache.remove(u))?
            .map_err(|e| js::core_error(env, &e))
    }

    /// The counters since the cache was made.
    #[napi(getter, catch_unwind)]
    pub fn stats(&self, env: &Env) -> Result<CacheStats> {
        let s = self.core(env)?.stats();
        Ok(CacheStats {
            hits: s.hits as f64,
            misses: s.misses as f64,
            fetches: s.fetches as f64,
            stale: s.stale as f64,
            evictions: s.evictions as f64,
            entries: s.entries as f64,
        })
    }

    /// How many origins are held.
    #[napi(getter, catch_unwind)]
    pub fn size(&self, env: &Env) -> Result<u32> {
        Ok(u32::try_from(self.core(env)?.len()).unwrap_or(u32::MAX))
    }

    /// Frees the cache and its copies now rather than when the garbage
    /// collector finds it; answers and rules taken from it keep working,
    /// and its leases can no longer be stored. Any other use after this
    /// throws an `Error` with `code` `'ERR_ROBOTSTXT_CLOSED'`; closing
    /// twice does nothing. `[Symbol.dispose]` does the same, for `using`.
    #[napi(catch_unwind)]
    pub fn close(&mut self) {
        self.inner = None;
    }
}
