//! The shared robots.txt cache of a fleet, sans I/O: one copy per origin
//! in Redis for every worker, fetched by one worker per refresh under a
//! fenced lease (`redis/lookup.lua`, `store.lua`, `renew.lua`,
//! `abandon.lua`). A worker keeps the copies it uses decoded, by version,
//! so that between refreshes a lookup is a local call.

use std::num::NonZeroUsize;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use lru::LruCache;

use super::call::{At, FleetClock, Keys, ScriptCall};
use super::reply::{answer, Reply};
use crate::{
    robots_origin, Cached, Cause, Disposition, Entry, Error, FetchResult, FreshnessPolicy,
    WhenFetching,
};

/// A fleet cache's options.
#[derive(Clone, Debug)]
pub struct FleetCacheOptions {
    /// Put before every key (default `robotstxt:`).
    pub prefix: String,
    /// How long a fetch lease lasts unless renewed (default 60 s). Its
    /// holder renews it every third of it while the fetch goes on.
    pub lease_ms: u64,
    /// How long a copy is kept after its last store (default 31 days).
    pub keep_ms: u64,
    /// How many origins this worker keeps decoded (default 10,000).
    pub capacity: usize,
    /// How copies age and how fetch outcomes read.
    pub policy: FreshnessPolicy,
}

impl Default for FleetCacheOptions {
    fn default() -> Self {
        FleetCacheOptions {
            prefix: "robotstxt:".into(),
            lease_ms: 60_000,
            keep_ms: 31 * 24 * 3600 * 1000,
            capacity: 10_000,
            policy: FreshnessPolicy::default(),
        }
    }
}

/// Counters since the cache was made.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct FleetCacheStats {
    /// Answers from a fresh copy.
    pub hits: u64,
    /// Lookups with no usable copy.
    pub misses: u64,
    /// Fetches this worker was handed.
    pub fetches: u64,
    /// Answers from a copy past its freshness.
    pub stale: u64,
    /// Origins this worker dropped to stay within capacity.
    pub evictions: u64,
    /// Copies in Redis this worker could not read (damaged, or of a newer
    /// format): answered as no copy.
    pub unreadable: u64,
    /// Calls that failed in Redis ([`FleetCache::redis_failed`]).
    pub redis_errors: u64,
    /// Origins held now.
    pub entries: u64,
}

/// A copy this worker holds: the fleet's version, its bytes, decoded.
#[derive(Debug)]
struct Held {
    version: Box<str>,
    bytes: Box<[u8]>,
    entry: Entry,
}

/// What a lookup comes to.
#[derive(Debug)]
pub enum FleetLookup {
    /// Answer with this (as the local cache's `Lookup::Ready`).
    Ready {
        /// What answers.
        answer: Cached,
        /// Whether the copy is past its freshness.
        stale: bool,
        /// When to ask again for a fresher answer (fleet time, ms).
        retry_at: Option<u64>,
    },
    /// Run this step's call and hand its reply to
    /// [`FleetCache::lookup_reply`].
    Run(LookupStep),
    /// Fetch `/robots.txt` under this lease, then [`FleetCache::store`]
    /// or [`FleetCache::abandon`] it; renew it meanwhile.
    Fetch(FleetLease),
    /// Another worker fetches and no copy is held: ask again at `until`
    /// (fleet time; [`FleetCache::ms_until`]) or sooner.
    Wait {
        /// When the other worker's lease runs out.
        until: u64,
    },
}

/// A lookup waiting for its call's reply.
#[derive(Debug)]
pub struct LookupStep {
    call: ScriptCall,
    origin: Box<str>,
    sent: At,
    when_fetching: WhenFetching,
    /// The copy held when the call was made, by which its answer is read.
    held: Option<Arc<Held>>,
    cache: u64,
}

impl LookupStep {
    /// The call to run.
    pub fn call(&self) -> &ScriptCall {
        &self.call
    }
}

/// The right, and duty, to fetch one origin's robots.txt for the fleet.
#[derive(Debug)]
pub struct FleetLease {
    origin: Box<str>,
    token: Box<str>,
    /// The copy the fetch refreshes, if this worker could read one.
    base: Option<Arc<Held>>,
    cache: u64,
}

impl FleetLease {
    /// The origin to fetch for.
    pub fn origin(&self) -> &str {
        &self.origin
    }

    /// The URL to fetch.
    pub fn robots_url(&self) -> String {
        format!("{}/robots.txt", self.origin)
    }

    /// `If-None-Match` for the fetch, from the copy it refreshes.
    pub fn etag(&self) -> Option<&[u8]> {
        self.base.as_ref().and_then(|h| h.entry.validators().etag)
    }

    /// `If-Modified-Since` for the fetch.
    pub fn last_modified(&self) -> Option<&[u8]> {
        self.base
            .as_ref()
            .and_then(|h| h.entry.validators().last_modified)
    }

    /// The lease's fencing token.
    pub fn token(&self) -> &str {
        &self.token
    }
}

/// A store waiting for its call's reply.
#[derive(Debug)]
pub struct StoreStep {
    call: ScriptCall,
    origin: Box<str>,
    bytes: Box<[u8]>,
    entry: Entry,
    disposition: Disposition,
    answer: Cached,
    cache: u64,
}

impl StoreStep {
    /// The call to run.
    pub fn call(&self) -> &ScriptCall {
        &self.call
    }
}

/// What a store came to.
#[derive(Debug)]
pub struct Stored {
    /// What the outcome meant (behaviour §6).
    pub disposition: Disposition,
    /// What answers from it, for the questions that waited for it.
    pub answer: Cached,
    /// Whether the fleet took the copy: `false` when the lease had run out
    /// and another worker's lease is current (the next lookup reads the
    /// fleet's copy), or Redis failed (this worker holds the copy alone).
    pub stored: bool,
}

static NEXT_ID: AtomicU64 = AtomicU64::new(1);

/// One worker's side of the fleet's shared cache. Not shared between
/// threads: a binding keeps one per worker behind its own lock.
pub struct FleetCache {
    id: u64,
    options: FleetCacheOptions,
    keys: Keys,
    copies: LruCache<Box<str>, Arc<Held>>,
    clock: FleetClock,
    stats: FleetCacheStats,
}

impl FleetCache {
    /// A worker's cache with `options`.
    ///
    /// # Errors
    /// [`Error::InvalidOption`] for a lease or keep of 0 ms or a capacity
    /// of 0.
    pub fn new(options: FleetCacheOptions) -> Result<FleetCache, Error> {
        let positive = |name, value: u64| {
            if value == 0 {
                Err(Error::InvalidOption {
                    name,
                    expected: "a whole number of ms ≥ 1",
                })
            } else {
                Ok(())
            }
        };
        positive("lease_ms", options.lease_ms)?;
        positive("keep_ms", options.keep_ms)?;
        let capacity = NonZeroUsize::new(options.capacity).ok_or(Error::InvalidOption {
            name: "capacity",
            expected: "a number of origins ≥ 1",
        })?;
        Ok(FleetCache {
            id: NEXT_ID.fetch_add(1, Ordering::Relaxed),
            keys: Keys {
                prefix: options.prefix.clone(),
            },
            options,
            copies: LruCache::new(capacity),
            clock: FleetClock::default(),
            stats: FleetCacheStats::default(),
        })
    }

    /// The options it was made with.
    pub fn options(&self) -> &FleetCacheOptions {
        &self.options
    }

    /// The fleet's time at `at`, as this worker estimates it (`None`
    /// before Redis first answered).
    pub fn now(&self, at: At) -> Option<u64> {
        self.clock.now(at)
    }

    /// Ms from `at` until `until` (fleet time), 0 when past.
    pub fn ms_until(&self, until: u64, at: At) -> u64 {
        self.clock
            .now(at)
            .map_or(0, |now| until.saturating_sub(now))
    }

    /// How often the holder of a lease renews it while its fetch goes on.
    pub fn renew_every_ms(&self) -> u64 {
        (self.options.lease_ms / 3).max(1)
    }

    /// Looks up `url`'s origin at `at`: a fresh copy held answers at once;
    /// otherwise a call to run. `when_fetching` says what answers while
    /// another worker fetches an origin no copy of which is held.
    ///
    /// # Errors
    /// [`Error::InvalidUrl`] for a URL with no robots.txt.
    pub fn lookup(
        &mut self,
        url: &[u8],
        at: At,
        when_fetching: WhenFetching,
    ) -> Result<FleetLookup, Error> {
        let origin = robots_origin(url)?;
        if let Some(ready) = self.peek(&origin, at) {
            return Ok(ready);
        }
        Ok(FleetLookup::Run(self.lookup_step(
            origin.into(),
            at,
            when_fetching,
            None,
        )))
    }

    /// The held copy's answer while it is fresh at `at`, counted; `None`
    /// when Redis must be asked.
    fn peek(&mut self, origin: &str, at: At) -> Option<FleetLookup> {
        let now = self.clock.now(at)?;
        let held = self.copies.get(origin)?;
        if held.entry.is_due(now) {
            return None;
        }
        let held = Arc::clone(held);
        Some(self.ready(&held.entry, now, false))
    }

    fn ready(&mut self, entry: &Entry, now: u64, stale_anyway: bool) -> FleetLookup {
        let stale = stale_anyway || entry.failures() > 0;
        if stale {
            self.stats.stale += 1;
        } else {
            self.stats.hits += 1;
        }
        FleetLookup::Ready {
            answer: entry.cached(now, &self.options.policy),
            stale,
            retry_at: entry.retry_at(),
        }
    }

    /// The lookup call for `origin`; `unreadable`, the version of the
    /// fleet's copy this worker could not read, makes it due for this
    /// worker (and Redis need not send it again).
    fn lookup_step(
        &self,
        origin: Box<str>,
        at: At,
        when_fetching: WhenFetching,
        unreadable: Option<&str>,
    ) -> LookupStep {
        let held = match unreadable {
            Some(_) => None,
            None => self.copies.peek(&*origin).cloned(),
        };
        let version = unreadable.unwrap_or_else(|| held.as_ref().map_or("", |h| &*h.version));
        let mut call = ScriptCall::new(
            "lookup",
            vec![self.keys.copy(&origin), self.keys.lease(&origin)],
        )
        .num(self.options.lease_ms)
        .arg(at.script_now())
        .arg(version);
        if unreadable.is_some() {
            call = call.arg("1");
        }
        LookupStep {
            call,
            origin,
            sent: at,
            when_fetching,
            held,
            cache: self.id,
        }
    }

    /// Reads the reply to a lookup step's call: an answer, a fetch to make,
    /// a wait, or one more call (the fleet's copy could not be read: the
    /// second call takes the lease to fetch over it).
    ///
    /// # Errors
    /// [`Error::BadReply`] for a reply that is not lookup.lua's answer;
    /// [`Error::InvalidLease`] for a step of another cache.
    pub fn lookup_reply(&mut self, step: LookupStep, reply: &Reply) -> Result<FleetLookup, Error> {
        self.check(step.cache)?;
        let r = answer("lookup", reply)?;
        let kind = r.text(0)?;
        let now = r.ms(1)?;
        let version = r.text(2)?;
        let data = r.bytes(5)?;
        self.clock.observe(step.sent, now);
        let mut copy = step.held.clone();
        let mut unreadable = false;
        if !data.is_empty() {
            match Entry::decode(&data, &self.options.policy) {
                Ok(entry) => {
                    let held = Arc::new(Held {
                        version: version.as_str().into(),
                        bytes: data.into_owned().into_boxed_slice(),
                        entry,
                    });
                    self.put(step.origin.clone(), Arc::clone(&held));
                    copy = Some(held);
                }
                Err(_) => {
                    // Damaged, or written by a newer library: no copy
                    // (the one held is older than the fleet's).
                    self.stats.unreadable += 1;
                    self.copies.pop(&*step.origin);
                    unreadable = true;
                    copy = None;
                }
            }
        }
        match kind.as_str() {
            "fresh" if unreadable => Ok(FleetLookup::Run(self.lookup_step(
                step.origin,
                step.sent,
                step.when_fetching,
                Some(&version),
            ))),
            "fresh" => match copy {
                Some(held) => Ok(self.ready(&held.entry, now, false)),
                None => Err(super::reply::bad(
                    "lookup",
                    "'fresh' with no copy to answer from".into(),
                )),
            },
            "wait" => {
                if let Some(held) = copy.filter(|h| h.entry.has_copy()) {
                    return Ok(self.ready(&held.entry, now, true));
                }
                self.stats.misses += 1;
                let until = now.saturating_add(r.ms(4)?);
                Ok(match step.when_fetching {
                    WhenFetching::Wait => FleetLookup::Wait { until },
                    // Behaviour §6: nothing known yet, nothing allowed.
                    WhenFetching::DisallowAll => FleetLookup::Ready {
                        answer: Cached::DisallowAll(Cause::NotFetched),
                        stale: false,
                        retry_at: Some(until),
                    },
                })
            }
            "fetch" => {
                self.stats.fetches += 1;
                if !copy.as_ref().is_some_and(|h| h.entry.has_copy()) {
                    self.stats.misses += 1;
                }
                Ok(FleetLookup::Fetch(FleetLease {
                    origin: step.origin,
                    token: r.text(4)?.into(),
                    base: copy,
                    cache: self.id,
                }))
            }
            other => Err(super::reply::bad(
                "lookup",
                format!("unknown answer {other:?}"),
            )),
        }
    }

    /// The call that renews `lease` while its fetch goes on (every
    /// [`FleetCache::renew_every_ms`]).
    pub fn renew(&self, lease: &FleetLease, at: At) -> ScriptCall {
        ScriptCall::new(
            "renew",
            vec![
                self.keys.copy(&lease.origin),
                self.keys.lease(&lease.origin),
            ],
        )
        .arg(lease.token.as_bytes())
        .num(self.options.lease_ms)
        .arg(at.script_now())
    }

    /// Whether the renewal's reply says the lease is still this worker's.
    ///
    /// # Errors
    /// [`Error::BadReply`] for a reply that is not renew.lua's answer.
    pub fn renew_reply(&self, reply: &Reply) -> Result<bool, Error> {
        Ok(answer("renew", reply)?.int(0)? > 0)
    }

    /// Records what the fetch of `lease` returned at `at` and makes the
    /// call that stores it for the fleet, fenced by the lease.
    ///
    /// # Errors
    /// [`Error::InvalidLease`] for a lease of another cache;
    /// [`Error::InvalidOption`] for `At::Monotonic` after lookups that were
    /// all given their time.
    pub fn store(
        &mut self,
        lease: FleetLease,
        result: &FetchResult<'_>,
        at: At,
    ) -> Result<StoreStep, Error> {
        self.check(lease.cache)?;
        // A lease comes from a lookup's reply, which set the clock; only a
        // store on another kind of clock than that lookup's finds none.
        let now = self.clock.now(at).ok_or(Error::InvalidOption {
            name: "at",
            expected: "the kind of clock the lookup that handed out the lease used",
        })?;
        let policy = &self.options.policy;
        let mut entry = lease
            .base
            .as_ref()
            .map_or_else(Entry::new, |h| h.entry.clone());
        let disposition = entry.record(now, result, policy);
        // The body the copy now comes from: this fetch's, or the one kept.
        let kept;
        let body = if disposition == Disposition::FollowRules {
            result.body
        } else {
            kept = lease.base.as_ref().map(|h| Entry::stored_body(&h.bytes));
            match kept {
                Some(Ok(body)) => body,
                _ => &[],
            }
        };
        let bytes = entry.encode(body)?.into_boxed_slice();
        let answer = entry.cached(now, policy);
        let call = ScriptCall::new(
            "store",
            vec![
                self.keys.copy(&lease.origin),
                self.keys.lease(&lease.origin),
            ],
        )
        .arg(lease.token.as_bytes())
        .arg(bytes.to_vec())
        .num(entry.due_at())
        .num(self.options.keep_ms)
        .arg(at.script_now());
        Ok(StoreStep {
            call,
            origin: lease.origin,
            bytes,
            entry,
            disposition,
            answer,
            cache: self.id,
        })
    }

    /// Reads the reply to a store: the fleet took the copy (this worker
    /// holds it, by its version), or refused it (a lease that ran out
    /// never overwrites the fleet's copy, nor is held). An error reply is
    /// Redis failing: as [`FleetCache::store_failed`].
    ///
    /// # Errors
    /// [`Error::BadReply`] for a reply that is not store.lua's answer (this
    /// worker holds the copy then, as when Redis fails);
    /// [`Error::InvalidLease`] for a step of another cache.
    pub fn store_reply(&mut self, step: StoreStep, reply: &Reply) -> Result<Stored, Error> {
        self.check(step.cache)?;
        if let Reply::Error(_) = reply {
            return Ok(self.store_failed(step));
        }
        let version = match answer("store", reply).and_then(|r| r.text(0)) {
            Ok(version) => version,
            Err(e) => {
                self.store_failed(step);
                return Err(e);
            }
        };
        let stored = !version.is_empty();
        if stored {
            self.put(
                step.origin,
                Arc::new(Held {
                    version: version.into(),
                    bytes: step.bytes,
                    entry: step.entry,
                }),
            );
        }
        Ok(Stored {
            disposition: step.disposition,
            answer: step.answer,
            stored,
        })
    }

    /// Redis failed to take a store: this worker holds the copy alone (no
    /// version: the next lookup reads the fleet's) and answers from it.
    pub fn store_failed(&mut self, step: StoreStep) -> Stored {
        self.stats.redis_errors += 1;
        self.put(
            step.origin,
            Arc::new(Held {
                version: "".into(),
                bytes: step.bytes,
                entry: step.entry,
            }),
        );
        Stored {
            disposition: step.disposition,
            answer: step.answer,
            stored: false,
        }
    }

    /// The call that gives `lease` back unstored (its reply needs no
    /// reading).
    ///
    /// # Errors
    /// [`Error::InvalidLease`] for a lease of another cache.
    pub fn abandon(&self, lease: FleetLease) -> Result<ScriptCall, Error> {
        self.check(lease.cache)?;
        Ok(
            ScriptCall::new("abandon", vec![self.keys.lease(&lease.origin)])
                .arg(lease.token.as_bytes()),
        )
    }

    /// A call failed in Redis (counted). Then answer with
    /// [`FleetCache::fail_safe`].
    pub fn redis_failed(&mut self) {
        self.stats.redis_errors += 1;
    }

    /// What answers for `url` while Redis does not: the copy held, due or
    /// not (as an unreachable robots.txt keeps the old copy), else nothing
    /// allowed.
    ///
    /// # Errors
    /// [`Error::InvalidUrl`] as [`FleetCache::lookup`].
    pub fn fail_safe(&mut self, url: &[u8], at: At) -> Result<Cached, Error> {
        let origin = robots_origin(url)?;
        let now = self.clock.now(at).unwrap_or(0);
        Ok(match self.copies.get(origin.as_str()) {
            Some(held) => held.entry.cached(now, &self.options.policy),
            None => Cached::DisallowAll(Cause::NotFetched),
        })
    }

    /// Forgets this worker's copy of `url`'s origin (the fleet's stays).
    ///
    /// # Errors
    /// [`Error::InvalidUrl`] as [`FleetCache::lookup`].
    pub fn remove(&mut self, url: &[u8]) -> Result<bool, Error> {
        let origin = robots_origin(url)?;
        let removed = self.copies.pop(origin.as_str()).is_some();
        self.stats.entries = self.copies.len() as u64;
        Ok(removed)
    }

    /// Counters since the cache was made.
    pub fn stats(&self) -> FleetCacheStats {
        self.stats
    }

    /// How many origins this worker holds.
    pub fn len(&self) -> usize {
        self.copies.len()
    }

    /// Whether it holds none.
    pub fn is_empty(&self) -> bool {
        self.copies.is_empty()
    }

    fn put(&mut self, origin: Box<str>, held: Arc<Held>) {
        if let Some((evicted, _)) = self.copies.push(origin.clone(), held) {
            if evicted != origin {
                self.stats.evictions += 1;
            }
        }
        self.stats.entries = self.copies.len() as u64;
    }

    /// Whether this cache handed `lease` out.
    pub fn issued(&self, lease: &FleetLease) -> bool {
        lease.cache == self.id
    }

    fn check(&self, cache: u64) -> Result<(), Error> {
        if cache == self.id {
            Ok(())
        } else {
            Err(Error::InvalidLease {
                reason: "belongs to another cache",
            })
        }
    }
}

impl std::fmt::Debug for FleetCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FleetCache")
            .field("options", &self.options)
            .field("stats", &self.stats)
            .finish()
    }
}
