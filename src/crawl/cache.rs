//! A thread-safe, bounded cache of robots.txt copies keyed by origin, with
//! single-flight fetching (behaviour §6–§7). Sans-I/O: the cache says *fetch now*
//! to one caller per origin, and that caller stores what it got.

use std::sync::{Arc, Mutex, MutexGuard, Weak};

use lru::LruCache;

use crate::freshness::{parse_if_followed, Answer};
use crate::origin::origin_of;
use crate::rules::Blanket;
use crate::{
    Cause, Disposition, Entry, Error, FetchResult, FreshnessPolicy, Profile, Robots, Rules,
};

/// How big the cache is and how long a fetch may take.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CacheOptions {
    /// At most this many origins are kept; the least recently used goes
    /// first. Default 10,000.
    pub capacity: usize,
    /// A fetch handed out and neither stored nor abandoned within this long
    /// is given to the next caller. Default 60 s.
    pub lease_ms: u64,
    /// Freshness, status reading and parsing.
    pub policy: FreshnessPolicy,
}

impl Default for CacheOptions {
    fn default() -> Self {
        CacheOptions {
            capacity: 10_000,
            lease_ms: 60_000,
            policy: FreshnessPolicy::default(),
        }
    }
}

/// What a lookup gets when a fetch is under way elsewhere and no copy
/// exists yet: the caller's choice.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum WhenFetching {
    /// [`Lookup::Wait`]: ask again when the fetch is stored.
    #[default]
    Wait,
    /// A disallow-all answer now (§2.3.1.4: nothing known yet).
    DisallowAll,
}

/// A copy's answer, owned: cheap to clone (a reference count).
#[derive(Clone, Debug)]
pub enum Cached {
    /// Follow this parsed file.
    Rules(Robots),
    /// Crawl everything, because of this outcome (a 404, say).
    AllowAll(Cause),
    /// Crawl nothing, for now, because of this (a 503, a network error, no
    /// fetch yet).
    DisallowAll(Cause),
}

impl Cached {
    /// The rules for `token` under this answer, read with `profile` (the
    /// cache's): a file's rules, or [`Rules::from_blanket`] rules that say
    /// their cause. The token is checked the same way in every case.
    ///
    /// # Errors
    /// [`Error::InvalidToken`] as [`Robots::rules_for`].
    pub fn rules_for(&self, profile: Profile, token: impl AsRef<[u8]>) -> Result<Rules, Error> {
        match (self, self.blanket()) {
            (Cached::Rules(robots), _) => robots.rules_for(token),
            (_, blanket) => {
                crate::agent::check_crawler(profile, token.as_ref())?;
                let blanket = blanket.expect("a blanket answer has a blanket");
                Ok(Rules::from_blanket(profile, blanket))
            }
        }
    }

    /// The blanket answer and its cause, or `None` for a parsed file.
    pub fn blanket(&self) -> Option<Blanket> {
        match *self {
            Cached::Rules(_) => None,
            Cached::AllowAll(cause) => Some(Blanket {
                allowed: true,
                cause,
            }),
            Cached::DisallowAll(cause) => Some(Blanket {
                allowed: false,
                cause,
            }),
        }
    }
}

/// The answer of [`Cache::lookup`].
#[derive(Debug)]
pub enum Lookup {
    /// Answer with this. `stale` when it is an old copy kept while the file
    /// is being fetched or is unreachable.
    Ready {
        /// What answers.
        answer: Cached,
        /// Whether the copy is past its freshness.
        stale: bool,
        /// When the next fetch is due (ms), after a failed one: ask again
        /// then for a fresher answer. With [`WhenFetching::DisallowAll`]
        /// and another caller fetching, when its lease runs out.
        retry_at: Option<u64>,
    },
    /// Fetch `/robots.txt` now, then [`Cache::store`] or [`Cache::abandon`]
    /// the lease (dropping it abandons it). Only one caller per origin gets
    /// this at a time.
    Fetch(Lease),
    /// Another caller is fetching and there is no copy yet: ask again once
    /// it is stored, or at `until` when its lease runs out.
    Wait {
        /// When the other caller's lease expires (ms).
        until: u64,
    },
}

/// The right, and duty, to fetch one origin's robots.txt.
///
/// Store it or abandon it once, with the cache that handed it out. A lease
/// dropped before that gives the fetch back at once, so that the next
/// lookup hands it to another caller.
#[derive(Debug)]
pub struct Lease {
    origin: Box<str>,
    id: u64,
    etag: Option<Box<[u8]>>,
    last_modified: Option<Box<[u8]>>,
    cache: Weak<Shared>,
    ended: bool,
}

impl Lease {
    /// The normalised origin, such as `https://example.com:8443`.
    pub fn origin(&self) -> &str {
        &self.origin
    }

    /// The URL to fetch: the origin's `/robots.txt`.
    pub fn robots_url(&self) -> String {
        format!("{}/robots.txt", self.origin)
    }

    /// The `ETag` to send as `If-None-Match`, when the copy has one.
    pub fn etag(&self) -> Option<&[u8]> {
        self.etag.as_deref()
    }

    /// The `Last-Modified` to send as `If-Modified-Since`, when the copy has one.
    pub fn last_modified(&self) -> Option<&[u8]> {
        self.last_modified.as_deref()
    }
}

impl Drop for Lease {
    fn drop(&mut self) {
        if !self.ended {
            if let Some(shared) = self.cache.upgrade() {
                shared.lock().give_back(&self.origin, self.id);
            }
        }
    }
}

/// Counters since the cache was made.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct CacheStats {
    /// Answers from a fresh copy.
    pub hits: u64,
    /// Lookups with no usable copy (a fetch handed out, a wait, or a
    /// disallow-all while another caller fetches).
    pub misses: u64,
    /// Fetches handed out.
    pub fetches: u64,
    /// Answers from a copy past its freshness (being refreshed, or the file
    /// unreachable).
    pub stale: u64,
    /// Origins dropped to stay within capacity.
    pub evictions: u64,
    /// Origins held now.
    pub entries: u64,
}

struct Slot {
    entry: Entry,
    /// (lease id, expiry) of the fetch under way.
    lease: Option<(u64, u64)>,
    /// The id of the newest lease stored: an older one that ran out and
    /// stores late must not overwrite the copy it brought.
    stored_through: u64,
}

impl Slot {
    const NEW: fn() -> Slot = || Slot {
        entry: Entry::new(),
        lease: None,
        stored_through: 0,
    };
}

struct State {
    /// Origins, least recently used last.
    slots: LruCache<Box<str>, Slot>,
    next_lease: u64,
    stats: CacheStats,
}

impl State {
    /// Ends lease `id` of `origin` without an outcome, if it is the one
    /// under way.
    fn give_back(&mut self, origin: &str, id: u64) {
        if let Some(slot) = self.slots.peek_mut(origin) {
            if slot.lease.is_some_and(|(current, _)| current == id) {
                slot.lease = None;
            }
        }
    }
}

/// What a cache's leases point back to.
struct Shared {
    state: Mutex<State>,
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, State> {
        // A panic elsewhere cannot leave the state half-written: every
        // update is a plain assignment. Keep serving.
        self.state
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

/// A thread-safe cache of robots.txt copies, keyed by origin.
///
/// ```
/// use robotstxt::{Cache, CacheOptions, Cached, FetchResult, Lookup, WhenFetching};
/// let cache = Cache::new(CacheOptions::default());
/// let url = "https://example.com/private/x";
/// let Lookup::Fetch(lease) = cache.lookup(url, 0, WhenFetching::Wait)? else { panic!() };
/// assert_eq!(lease.robots_url(), "https://example.com/robots.txt");
/// // Another worker asks meanwhile: nothing to answer with yet.
/// assert!(matches!(cache.lookup(url, 1, WhenFetching::Wait)?, Lookup::Wait { .. }));
/// let body = b"User-agent: *\nDisallow: /private/\n";
/// cache.store(lease, 2, &FetchResult { status: Some(200), body, ..Default::default() })?;
/// let Lookup::Ready { answer, stale, .. } = cache.lookup(url, 3, WhenFetching::Wait)? else { panic!() };
/// let rules = cache.select(&answer, "ExampleBot")?;
/// assert!(!rules.can_fetch(url) && !stale);
/// # Ok::<(), robotstxt::Error>(())
/// ```
pub struct Cache {
    shared: Arc<Shared>,
    options: CacheOptions,
}

impl Cache {
    /// An empty cache. A capacity of 0 is taken as 1.
    pub fn new(options: CacheOptions) -> Cache {
        let options = CacheOptions {
            capacity: options.capacity.max(1),
            ..options
        };
        let state = State {
            slots: LruCache::unbounded(),
            next_lease: 0,
            stats: CacheStats::default(),
        };
        Cache {
            shared: Arc::new(Shared {
                state: Mutex::new(state),
            }),
            options,
        }
    }

    /// The options the cache was made with.
    pub fn options(&self) -> &CacheOptions {
        &self.options
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        self.shared.lock()
    }

    /// What answers for `url` at `now` (ms): a copy, *fetch now*, or *wait*.
    ///
    /// `url`'s origin is read as a WHATWG URL parser (browsers, Node's
    /// `fetch`) reads it: scheme and host lower-cased, IDNA hosts as
    /// punycode, default ports dropped, userinfo left out.
    ///
    /// Cost: one origin parse (one allocation) and one hash lookup under a
    /// lock; a new origin or a fetch handed out allocates a little more.
    ///
    /// # Errors
    /// [`Error::InvalidUrl`] unless `url` is an absolute `http`/`https` URL
    /// with a host, and for an authority that HTTP clients read differently:
    /// one holding `\`, whitespace, a control byte or a `%`-escape, or an
    /// IPv4 address not written as four decimal numbers.
    pub fn lookup(
        &self,
        url: impl AsRef<[u8]>,
        now: u64,
        when_fetching: WhenFetching,
    ) -> Result<Lookup, Error> {
        let origin = origin_of(url.as_ref())?;
        let mut guard = self.lock();
        let state = &mut *guard;
        if !state.slots.contains(origin.as_str()) {
            self.make_room(state, now);
            state.slots.put(origin.as_str().into(), Slot::NEW());
            state.stats.entries = state.slots.len() as u64;
        }
        let slot = state.slots.get_mut(origin.as_str()).expect("put above");
        let policy = &self.options.policy;
        if !slot.entry.is_due(now) {
            let stale = slot.entry.failures() > 0;
            if stale {
                state.stats.stale += 1;
            } else {
                state.stats.hits += 1;
            }
            return Ok(Lookup::Ready {
                answer: owned(&slot.entry, now, policy),
                stale,
                retry_at: slot.entry.retry_at(),
            });
        }
        match slot.lease {
            Some((_, until)) if until > now => {
                if slot.entry.has_copy() {
                    state.stats.stale += 1;
                    return Ok(Lookup::Ready {
                        answer: owned(&slot.entry, now, policy),
                        stale: true,
                        retry_at: slot.entry.retry_at(),
                    });
                }
                state.stats.misses += 1;
                Ok(match when_fetching {
                    WhenFetching::Wait => Lookup::Wait { until },
                    WhenFetching::DisallowAll => Lookup::Ready {
                        answer: owned(&slot.entry, now, policy),
                        stale: false,
                        retry_at: Some(until),
                    },
                })
            }
            _ => {
                state.next_lease += 1;
                slot.lease = Some((state.next_lease, now.saturating_add(self.options.lease_ms)));
                state.stats.fetches += 1;
                if !slot.entry.has_copy() {
                    state.stats.misses += 1;
                }
                let validators = slot.entry.validators();
                Ok(Lookup::Fetch(Lease {
                    origin: origin.into_string().into_boxed_str(),
                    id: state.next_lease,
                    etag: validators.etag.map(Box::from),
                    last_modified: validators.last_modified.map(Box::from),
                    cache: Arc::downgrade(&self.shared),
                    ended: false,
                }))
            }
        }
    }

    /// At capacity, drops the least recently used origin without a fetch
    /// under way at `now` (a lease that has run out is none). Walks from
    /// the least recently used end, past the origins being fetched: O(1)
    /// but for those. With every origin being fetched, the cache grows by
    /// one instead.
    fn make_room(&self, state: &mut State, now: u64) {
        if state.slots.len() < self.options.capacity {
            return;
        }
        let victim = state
            .slots
            .iter()
            .rev()
            .find(|(_, slot)| slot.lease.is_none_or(|(_, until)| until <= now))
            .map(|(key, _)| key.clone());
        if let Some(key) = victim {
            state.slots.pop(&key);
            state.stats.evictions += 1;
        }
    }

    /// Whether this cache handed `lease` out.
    pub fn issued(&self, lease: &Lease) -> bool {
        std::ptr::eq(lease.cache.as_ptr(), Arc::as_ptr(&self.shared))
    }

    fn check_lease(&self, lease: &Lease) -> Result<(), Error> {
        if !self.issued(lease) {
            return Err(Error::InvalidLease {
                reason: "belongs to another cache",
            });
        }
        Ok(())
    }

    /// Stores what the fetch of `lease` returned at `now` and ends the
    /// lease. A 2xx body is parsed here, outside the lock. Returns what the
    /// outcome meant (behaviour §6).
    ///
    /// A lease that ran out is still stored, unless a newer lease of its
    /// origin has stored a copy since: a late answer never replaces a
    /// newer one.
    ///
    /// # Errors
    /// [`Error::InvalidLease`] for a lease of another cache, or one that
    /// ran out and a newer copy was stored since; nothing changes then.
    pub fn store(
        &self,
        mut lease: Lease,
        now: u64,
        result: &FetchResult<'_>,
    ) -> Result<Disposition, Error> {
        self.check_lease(&lease)?;
        lease.ended = true;
        let policy = &self.options.policy;
        let parsed = parse_if_followed(result, policy);
        let mut guard = self.lock();
        let state = &mut *guard;
        if let Some(slot) = state.slots.get_mut(&*lease.origin) {
            if lease.id <= slot.stored_through {
                // Dropping the lease now gives nothing back: it is ended.
                return Err(Error::InvalidLease {
                    reason: "ran out, and a newer copy of its origin was stored since",
                });
            }
        } else {
            // Evicted or removed while it was out: keep what was fetched.
            self.make_room(state, now);
            state.slots.put(lease.origin.clone(), Slot::NEW());
            state.stats.entries = state.slots.len() as u64;
        }
        let slot = state.slots.get_mut(&*lease.origin).expect("put above");
        if slot.lease.is_some_and(|(id, _)| id == lease.id) {
            slot.lease = None;
        }
        slot.stored_through = lease.id;
        Ok(slot.entry.record_parsed(now, result, policy, parsed))
    }

    /// Gives a fetch back without an outcome (the caller gave up): the next
    /// lookup hands it to someone else. Dropping the lease does the same.
    ///
    /// # Errors
    /// [`Error::InvalidLease`] for a lease of another cache.
    pub fn abandon(&self, mut lease: Lease) -> Result<(), Error> {
        self.check_lease(&lease)?;
        lease.ended = true;
        self.lock().give_back(&lease.origin, lease.id);
        Ok(())
    }

    /// The rules for `token` from a cached answer; blanket answers become
    /// [`Rules::from_blanket`] rules that say their cause. The token is
    /// checked the same way in every case.
    ///
    /// # Errors
    /// [`Error::InvalidToken`] as [`Robots::rules_for`].
    pub fn select(&self, answer: &Cached, token: impl AsRef<[u8]>) -> Result<Rules, Error> {
        answer.rules_for(self.options.policy.parse.profile(), token)
    }

    /// Forgets `url`'s origin. Returns whether it was held.
    ///
    /// # Errors
    /// [`Error::InvalidUrl`] as [`Cache::lookup`].
    pub fn remove(&self, url: impl AsRef<[u8]>) -> Result<bool, Error> {
        let origin = origin_of(url.as_ref())?;
        let mut state = self.lock();
        let held = state.slots.pop(origin.as_str()).is_some();
        state.stats.entries = state.slots.len() as u64;
        Ok(held)
    }

    /// The counters.
    pub fn stats(&self) -> CacheStats {
        self.lock().stats
    }

    /// How many origins are held.
    pub fn len(&self) -> usize {
        self.lock().slots.len()
    }

    /// Whether no origin is held.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

impl std::fmt::Debug for Cache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Cache")
            .field("options", &self.options)
            .field("stats", &self.stats())
            .finish()
    }
}

fn owned(entry: &Entry, now: u64, policy: &FreshnessPolicy) -> Cached {
    entry.cached(now, policy)
}

impl Entry {
    /// What answers at `now`, owned, with the cause of a blanket answer:
    /// [`Entry::answer`] as [`Cache::lookup`] gives it.
    pub fn cached(&self, now: u64, policy: &FreshnessPolicy) -> Cached {
        let cause = || self.cause(now, policy).unwrap_or(Cause::NotFetched);
        match self.answer(now, policy) {
            Answer::Rules(robots) => Cached::Rules(robots.clone()),
            Answer::AllowAll => Cached::AllowAll(cause()),
            Answer::DisallowAll => Cached::DisallowAll(cause()),
        }
    }
}
