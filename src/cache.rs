//! A thread-safe, bounded cache of robots.txt copies keyed by origin, with
//! single-flight fetching (SPEC §6–7). Sans-I/O: the cache says *fetch now*
//! to one caller per origin, and that caller stores what it got.

use std::collections::HashMap;
use std::sync::{Mutex, MutexGuard};

use crate::freshness::{parse_if_followed, Answer};
use crate::origin::origin_of;
use crate::{Entry, Error, FetchResult, FreshnessPolicy, Robots, Rules};

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
    /// Crawl everything.
    AllowAll,
    /// Crawl nothing, for now.
    DisallowAll,
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
    },
    /// Fetch `/robots.txt` now, then [`Cache::store`] or [`Cache::abandon`]
    /// the lease. Only one caller per origin gets this at a time.
    Fetch(Lease),
    /// Another caller is fetching and there is no copy yet: ask again once
    /// it is stored, or at `until` when its lease runs out.
    Wait {
        /// When the other caller's lease expires (ms).
        until: u64,
    },
}

/// The right, and duty, to fetch one origin's robots.txt.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lease {
    origin: Box<str>,
    id: u64,
    etag: Option<Box<[u8]>>,
    last_modified: Option<Box<[u8]>>,
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
    last_used: u64,
}

#[derive(Default)]
struct State {
    slots: HashMap<Box<[u8]>, Slot>,
    tick: u64,
    next_lease: u64,
    stats: CacheStats,
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
/// cache.store(&lease, 2, &FetchResult { status: Some(200), body, ..Default::default() });
/// let Lookup::Ready { answer, stale } = cache.lookup(url, 3, WhenFetching::Wait)? else { panic!() };
/// let rules = cache.select(&answer, "ExampleBot")?;
/// assert!(!rules.can_fetch(url) && !stale);
/// # Ok::<(), robotstxt::Error>(())
/// ```
pub struct Cache {
    state: Mutex<State>,
    options: CacheOptions,
}

impl Cache {
    /// An empty cache. A capacity of 0 is taken as 1.
    pub fn new(options: CacheOptions) -> Cache {
        let options = CacheOptions {
            capacity: options.capacity.max(1),
            ..options
        };
        Cache {
            state: Mutex::new(State::default()),
            options,
        }
    }

    /// The options the cache was made with.
    pub fn options(&self) -> &CacheOptions {
        &self.options
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        // A panic elsewhere cannot leave the state half-written: every
        // update is a plain assignment. Keep serving.
        self.state
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// What answers for `url` at `now` (ms): a copy, *fetch now*, or *wait*.
    ///
    /// Cost: one origin parse and one hash lookup under a lock; no
    /// allocation unless the origin is new or a fetch is handed out.
    ///
    /// # Errors
    /// [`Error::InvalidUrl`] unless `url` is an absolute `http`/`https` URL.
    pub fn lookup(
        &self,
        url: impl AsRef<[u8]>,
        now: u64,
        when_fetching: WhenFetching,
    ) -> Result<Lookup, Error> {
        let origin = origin_of(url.as_ref())?;
        let mut guard = self.lock();
        let state = &mut *guard;
        if !state.slots.contains_key(origin.as_bytes()) {
            self.make_room(state, now);
            let slot = Slot {
                entry: Entry::new(),
                lease: None,
                last_used: 0,
            };
            state.slots.insert(origin.as_bytes().into(), slot);
            state.stats.entries = state.slots.len() as u64;
        }
        state.tick += 1;
        let slot = state
            .slots
            .get_mut(origin.as_bytes())
            .expect("inserted above");
        slot.last_used = state.tick;
        let policy = &self.options.policy;
        if !slot.entry.is_due(now) {
            let stale = slot.entry.failures() > 0;
            if stale {
                state.stats.stale += 1;
            } else {
                state.stats.hits += 1;
            }
            return Ok(Lookup::Ready {
                answer: owned(slot.entry.answer(now, policy)),
                stale,
            });
        }
        match slot.lease {
            Some((_, until)) if until > now => {
                if slot.entry.has_copy() {
                    state.stats.stale += 1;
                    return Ok(Lookup::Ready {
                        answer: owned(slot.entry.answer(now, policy)),
                        stale: true,
                    });
                }
                state.stats.misses += 1;
                Ok(match when_fetching {
                    WhenFetching::Wait => Lookup::Wait { until },
                    WhenFetching::DisallowAll => Lookup::Ready {
                        answer: Cached::DisallowAll,
                        stale: false,
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
                    origin: String::from_utf8_lossy(origin.as_bytes()).into(),
                    id: state.next_lease,
                    etag: validators.etag.map(Box::from),
                    last_modified: validators.last_modified.map(Box::from),
                }))
            }
        }
    }

    /// Drops the least recently used origin without a fetch under way at
    /// `now` (a lease that has run out is no fetch under way).
    fn make_room(&self, state: &mut State, now: u64) {
        if state.slots.len() < self.options.capacity {
            return;
        }
        let victim = state
            .slots
            .iter()
            .filter(|(_, slot)| slot.lease.is_none_or(|(_, until)| until <= now))
            .min_by_key(|(_, slot)| slot.last_used)
            .map(|(key, _)| key.clone());
        if let Some(key) = victim {
            state.slots.remove(&key);
            state.stats.evictions += 1;
        }
    }

    /// Stores what the fetch of `lease` returned at `now` and ends the
    /// lease. A 2xx body is parsed here, outside the lock. Returns what the
    /// outcome meant (SPEC §6).
    pub fn store(&self, lease: &Lease, now: u64, result: &FetchResult<'_>) -> crate::Disposition {
        let policy = &self.options.policy;
        let parsed = parse_if_followed(result, policy);
        let mut guard = self.lock();
        let state = &mut *guard;
        if !state.slots.contains_key(lease.origin.as_bytes()) {
            // Evicted while its lease had run out: keep what was fetched.
            self.make_room(state, now);
            let slot = Slot {
                entry: Entry::new(),
                lease: None,
                last_used: state.tick,
            };
            state.slots.insert(lease.origin.as_bytes().into(), slot);
            state.stats.entries = state.slots.len() as u64;
        }
        let slot = state
            .slots
            .get_mut(lease.origin.as_bytes())
            .expect("inserted above");
        if slot.lease.is_some_and(|(id, _)| id == lease.id) {
            slot.lease = None;
        }
        slot.entry.record_parsed(now, result, policy, parsed)
    }

    /// Gives a fetch back without an outcome (the caller gave up): the next
    /// lookup hands it to someone else.
    pub fn abandon(&self, lease: &Lease) {
        let mut state = self.lock();
        if let Some(slot) = state.slots.get_mut(lease.origin.as_bytes()) {
            if slot.lease.is_some_and(|(id, _)| id == lease.id) {
                slot.lease = None;
            }
        }
    }

    /// The rules for `token` from a cached answer; blanket answers become
    /// [`Rules::allow_all`] or [`Rules::disallow_all`]. The token is checked
    /// the same way in every case.
    ///
    /// # Errors
    /// [`Error::InvalidToken`] as [`Robots::rules_for`].
    pub fn select(&self, answer: &Cached, token: impl AsRef<[u8]>) -> Result<Rules, Error> {
        let profile = self.options.policy.parse.profile();
        match answer {
            Cached::Rules(robots) => robots.rules_for(token),
            Cached::AllowAll => {
                crate::agent::check_crawler(profile, token.as_ref())?;
                Ok(Rules::allow_all(profile))
            }
            Cached::DisallowAll => {
                crate::agent::check_crawler(profile, token.as_ref())?;
                Ok(Rules::disallow_all(profile))
            }
        }
    }

    /// Forgets `url`'s origin. Returns whether it was held.
    ///
    /// # Errors
    /// [`Error::InvalidUrl`] as [`Cache::lookup`].
    pub fn remove(&self, url: impl AsRef<[u8]>) -> Result<bool, Error> {
        let origin = origin_of(url.as_ref())?;
        let mut state = self.lock();
        let held = state.slots.remove(origin.as_bytes()).is_some();
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

fn owned(answer: Answer<'_>) -> Cached {
    match answer {
        Answer::Rules(robots) => Cached::Rules(robots.clone()),
        Answer::AllowAll => Cached::AllowAll,
        Answer::DisallowAll => Cached::DisallowAll,
    }
}
