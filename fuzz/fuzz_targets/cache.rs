//! The freshness/cache state machine (behaviour §6–§7) and the pacer (behaviour §8) under
//! random sequences of steps, with random fetch outcomes, random policies
//! and a clock that moves forward by random steps (starting anywhere, up
//! to near `u64::MAX`).
//!
//! The cache: lookups, stores, abandons, removals, leases dropped, leases
//! whose worker died (kept alive, never used again) and leases offered to
//! another cache. A small model follows each origin and checks after every
//! step:
//!
//! - never allow (rules or allow-all) for an origin with no copy, unless the
//!   policy allows everything past the unreachable limit and it has passed
//!   (so: never allow after a 5xx with no copy);
//! - a held copy keeps answering, as it was stored, until replaced;
//! - a blanket answer names its cause (the fetch that made it, the last
//!   failure, not fetched, or the unreachable limit), its rules decide with
//!   kind allow-all or disallow-all, and `retry_at` is when the failed
//!   fetch is retried (or the lease under way runs out);
//! - at most one lease per origin is outstanding (unexpired and unended);
//!   `Wait` names that lease's expiry; a lease dropped unended gives the
//!   fetch back at once;
//! - a stored lease never overwrites a newer copy: a lease that ran out is
//!   refused once a newer lease of its origin has stored, and changes
//!   nothing; any other store is taken;
//! - a lease is refused by another cache, which stays empty;
//! - the counters move by exactly one per lookup, as documented, and
//!   `entries` is the number of origins held; `store` returns what
//!   `access::classify` says;
//! - the cache stays within its capacity, except for origins with a live
//!   lease.
//!
//! The pacer: reservations, confirmations (also of spent tickets and with
//! another pacer), cancels, reports, kill switches and paces on a few
//! hosts, with a small capacity. Checked: a switched-off host's tickets
//! never get `Go` (they get `Disabled`, once) and it gets no new ticket;
//! `Go` only at or after the ticket's start, a floor after the host's last
//! `Go`, after any `Retry-After`, and within the in-flight limit; `Wait`
//! names a later time; a spent ticket or one of another pacer is refused.

#![no_main]

use libfuzzer_sys::arbitrary::{Result, Unstructured};
use libfuzzer_sys::fuzz_target;
use robotstxt::access::classify;
use robotstxt::{
    AccessPolicy, AfterLimit, Cache, CacheOptions, CacheStats, Cached, Cause, Confirm,
    DecisionKind, Disposition, Error, FetchResult, FreshnessPolicy, Lease, Lookup, Options, Pacer,
    PacerOptions, Profile, Robots, Ticket, WhenFetching,
};

const HOSTS: usize = 3;
/// Origins: `https://siteN.test` and `http://siteN.test`.
const ORIGINS: usize = 2 * HOSTS;

/// URLs that all belong to origin `i`, spelt differently.
fn url_of(u: &mut Unstructured, i: usize) -> Result<String> {
    let (host, https) = (i % HOSTS, i < HOSTS);
    Ok(match (u.int_in_range(0..=3u8)?, https) {
        (0, true) => format!("https://site{host}.test/private/x"),
        (1, true) => format!("HTTPS://Site{host}.TEST:443/private?q"),
        (2, true) => format!("https://user@site{host}.test:0443/p"),
        (_, true) => format!("https://site{host}.test"),
        (0, false) => format!("http://site{host}.test/private"),
        (1, false) => format!("HTTP://SITE{host}.test:80/x#y"),
        (_, false) => format!("http://site{host}.test?x"),
    })
}

fn origin_name(i: usize) -> String {
    let scheme = if i < HOSTS { "https" } else { "http" };
    format!("{scheme}://site{}.test", i % HOSTS)
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Copy {
    /// A parsed file, and whether it allows `/private` to ExampleBot.
    Rules { private_allowed: bool },
    /// With the outcome that made it.
    AllowAll(Cause),
}

#[derive(Clone, Copy, Debug, Default)]
struct Model {
    copy: Option<Copy>,
    /// False once another origin was evicted and it might have been this
    /// one: its copy, failures and stored lease may be gone.
    known: bool,
    failing_since: Option<u64>,
    /// The outcome of the last failed fetch, while failing.
    last_failure: Option<Cause>,
    /// When a failed fetch is retried.
    retry_at: Option<u64>,
    /// The issue number of the newest lease stored (0: none).
    stored_seq: u64,
}

struct Held {
    /// `None` once its worker died: the lease lives on in `zombies`, never
    /// stored nor abandoned, and the cache counts it until it expires.
    lease: Option<Lease>,
    origin: usize,
    expires: u64,
    /// Issue order: leases of one cache are numbered as they are handed out.
    seq: u64,
}

const STATUSES: &[Option<u16>] = &[
    None,
    Some(200),
    Some(204),
    Some(299),
    Some(301),
    Some(304),
    Some(401),
    Some(403),
    Some(404),
    Some(410),
    Some(429),
    Some(500),
    Some(503),
    Some(599),
    Some(100),
    Some(600),
];

const BODIES: &[&[u8]] = &[
    b"User-agent: *\nDisallow: /private\n",
    b"User-agent: *\nAllow: /\n",
    b"User-agent: ExampleBot\nDisallow: /\n",
    b"",
];

fn ms(u: &mut Unstructured) -> Result<u64> {
    Ok(match u.int_in_range(0..=4u8)? {
        0 => 0,
        1 => u.int_in_range(1..=1_000u64)?,
        2 => u.int_in_range(1..=3_600_000u64)?,
        3 => u.int_in_range(1..=40 * 86_400_000u64)?,
        _ => u.arbitrary()?,
    })
}

/// The cache's clamp of a `Retry-After` on robots.txt: 1 minute to a day.
const RETRY_AFTER_RANGE: (u64, u64) = (60_000, 86_400_000);
/// The pacer honours a `Retry-After` up to a day.
const PACER_MAX_RETRY_AFTER: u64 = 86_400_000;

const PACE_HOSTS: &[&str] = &["a.test", "b.test", "c.test"];

/// A host, spelt in any case.
fn pace_host(u: &mut Unstructured) -> Result<(usize, String)> {
    let i = u.int_in_range(0..=PACE_HOSTS.len() - 1)?;
    let name = if u.arbitrary()? {
        PACE_HOSTS[i].to_ascii_uppercase()
    } else {
        PACE_HOSTS[i].to_owned()
    };
    Ok((i, name))
}

#[derive(Clone, Copy, Debug, Default)]
struct PaceModel {
    disabled: bool,
    /// No start before this (`Retry-After`).
    not_before: u64,
    last_go: Option<u64>,
}

struct HeldTicket {
    ticket: Ticket,
    host: usize,
    spent: bool,
}

struct Pacing {
    pacer: Pacer,
    /// Hands out tickets the first pacer must refuse.
    other: Pacer,
    hosts: [PaceModel; 3],
    tickets: Vec<HeldTicket>,
    foreign: Vec<Ticket>,
}

impl Pacing {
    fn new(u: &mut Unstructured) -> Result<Pacing> {
        let options = PacerOptions {
            floor_ms: u.int_in_range(0..=2_000u64)?,
            backoff_cap_ms: ms(u)?,
            capacity: u.int_in_range(0..=PACE_HOSTS.len() + 1)?,
            max_in_flight: u.int_in_range(0..=3u32)?,
            in_flight_timeout_ms: ms(u)?,
        };
        Ok(Pacing {
            pacer: Pacer::new(options),
            other: Pacer::new(PacerOptions::default()),
            hosts: [PaceModel::default(); 3],
            tickets: Vec::new(),
            foreign: Vec::new(),
        })
    }

    fn step(&mut self, u: &mut Unstructured, now: u64) -> Result<()> {
        let (i, host) = pace_host(u)?;
        let full = |e: &Error| matches!(e, Error::PacerFull { .. });
        match u.int_in_range(0..=7u8)? {
            0 | 1 => match self.pacer.reserve(&host, now) {
                Ok(Some(ticket)) => {
                    assert!(!self.hosts[i].disabled, "a ticket for switched-off {host}");
                    assert!(ticket.start() >= now, "a start before now");
                    assert_eq!(ticket.host(), PACE_HOSTS[i].as_bytes());
                    self.tickets.push(HeldTicket {
                        ticket,
                        host: i,
                        spent: false,
                    });
                }
                Ok(None) => assert!(self.hosts[i].disabled, "no ticket for {host}"),
                Err(e) => assert!(full(&e), "{e}"),
            },
            2 | 3 if !self.tickets.is_empty() => {
                let k = u.choose_index(self.tickets.len())?;
                let limit = self.pacer.options().max_in_flight.max(1) as usize;
                let floor = self.pacer.options().floor_ms;
                let t = &mut self.tickets[k];
                let m = &mut self.hosts[t.host];
                match self.pacer.confirm(&mut t.ticket, now) {
                    Ok(Confirm::Go) => {
                        assert!(!t.spent, "a spent ticket went");
                        assert!(!m.disabled, "a ticket of switched-off {host} went");
                        assert!(now >= t.ticket.start(), "went before its start");
                        assert!(now >= m.not_before, "went during a Retry-After");
                        if let Some(last) = m.last_go {
                            assert!(now >= last.saturating_add(floor), "went inside the floor");
                        }
                        // (0 when the in-flight timeout is 0: the place
                        // frees itself at once.)
                        let in_flight = self.pacer.in_flight(PACE_HOSTS[t.host], now).unwrap();
                        assert!(in_flight <= limit, "{in_flight} in flight");
                        m.last_go = Some(now);
                        t.spent = true;
                    }
                    Ok(Confirm::Wait { until, .. }) => {
                        assert!(!t.spent && !m.disabled);
                        assert!(until > now, "wait until {until} at {now}");
                    }
                    Ok(Confirm::Disabled) => {
                        assert!(!t.spent && m.disabled, "voided, but not switched off");
                        t.spent = true;
                    }
                    Err(Error::InvalidTicket { .. }) => assert!(t.spent),
                    Err(e) => assert!(full(&e) && !t.spent, "{e}"),
                }
            }
            4 if !self.tickets.is_empty() => {
                let k = u.choose_index(self.tickets.len())?;
                let t = self.tickets.swap_remove(k);
                if u.arbitrary()? {
                    self.pacer.cancel(t.ticket);
                }
            }
            4 => {
                // Another pacer's ticket: refused, whatever its state.
                if let Ok(Some(ticket)) = self.other.reserve(&host, now) {
                    self.foreign.push(ticket);
                }
                if let Some(ticket) = self.foreign.last_mut() {
                    let got = self.pacer.confirm(ticket, now);
                    assert!(matches!(got, Err(Error::InvalidTicket { .. })), "{got:?}");
                }
            }
            5 => {
                let status = *u.choose(STATUSES)?;
                let retry_after = if u.arbitrary()? { Some(ms(u)?) } else { None };
                match self.pacer.record(&host, now, status, retry_after) {
                    Ok(()) => {
                        if let (Some(429 | 500..=599), Some(wait)) = (status, retry_after) {
                            let until = now.saturating_add(wait.min(PACER_MAX_RETRY_AFTER));
                            let m = &mut self.hosts[i];
                            m.not_before = m.not_before.max(until);
                        }
                    }
                    Err(e) => assert!(full(&e), "{e}"),
                }
            }
            6 => {
                let on = u.ratio(2, 3)?;
                match self.pacer.set_enabled(&host, on) {
                    Ok(()) => self.hosts[i].disabled = !on,
                    Err(e) => assert!(full(&e), "{e}"),
                }
            }
            _ => {
                let delay = if u.arbitrary()? {
                    Some(std::time::Duration::from_millis(u.int_in_range(0..=5_000)?))
                } else {
                    None
                };
                if let Err(e) = self.pacer.set_delay(&host, delay, None) {
                    assert!(full(&e), "{e}");
                }
            }
        }
        Ok(())
    }
}

fn run(u: &mut Unstructured) -> Result<()> {
    let policy = FreshnessPolicy {
        fresh_for_ms: ms(u)?,
        retry_ms: ms(u)?,
        unreachable_limit_ms: ms(u)?,
        after_limit: if u.arbitrary()? {
            AfterLimit::AllowAll
        } else {
            AfterLimit::KeepCopy
        },
        access: if u.arbitrary()? {
            AccessPolicy::StrictRfc
        } else {
            AccessPolicy::Careful
        },
        parse: Options::new(if u.arbitrary()? {
            Profile::Google
        } else {
            Profile::Rfc9309
        }),
    };
    let options = CacheOptions {
        capacity: u.int_in_range(0..=ORIGINS + 1)?,
        lease_ms: ms(u)?,
        policy,
    };
    let capacity = options.capacity.max(1);
    let cache = Cache::new(options);
    let other = Cache::new(CacheOptions::default());
    let mut pacing = Pacing::new(u)?;
    let mut now: u64 = match u.int_in_range(0..=2u8)? {
        0 => 0,
        1 => u.int_in_range(0..=1u64 << 45)?,
        _ => u64::MAX - u.int_in_range(0..=1u64 << 40)?,
    };
    let mut models = [Model {
        known: true,
        ..Model::default()
    }; ORIGINS];
    let mut held: Vec<Held> = Vec::new();
    let mut zombies: Vec<Lease> = Vec::new();
    let mut issued = 0u64;
    let mut stats = cache.stats();

    for _ in 0..u.int_in_range(1..=64u32)? {
        if u.is_empty() {
            break;
        }
        let len_before = cache.len();
        // The origin a step may add to the cache.
        let mut touched = None;
        match u.int_in_range(0..=12u8)? {
            // Lookups are the most common step.
            0..=3 => {
                let i = u.int_in_range(0..=ORIGINS - 1)?;
                touched = Some(i);
                let url = url_of(u, i)?;
                let when = if u.arbitrary()? {
                    WhenFetching::DisallowAll
                } else {
                    WhenFetching::Wait
                };
                let got = cache.lookup(&url, now, when).expect("a valid URL");
                let after = cache.stats();
                let m = models[i];
                let live: Vec<&Held> = held
                    .iter()
                    .filter(|h| h.origin == i && now < h.expires)
                    .collect();
                match got {
                    Lookup::Fetch(lease) => {
                        assert!(live.is_empty(), "a second lease for {url} at {now}");
                        assert_eq!(lease.origin(), origin_name(i));
                        assert_eq!(lease.robots_url(), format!("{}/robots.txt", origin_name(i)));
                        assert!(cache.issued(&lease) && !other.issued(&lease));
                        assert_eq!(after.fetches, stats.fetches + 1);
                        assert!(after.misses - stats.misses <= 1);
                        assert_eq!((after.hits, after.stale), (stats.hits, stats.stale));
                        let expires = now.saturating_add(cache.options().lease_ms);
                        issued += 1;
                        held.push(Held {
                            lease: Some(lease),
                            origin: i,
                            expires,
                            seq: issued,
                        });
                    }
                    Lookup::Wait { until } => {
                        assert_eq!(when, WhenFetching::Wait);
                        assert!(!(m.known && m.copy.is_some()), "wait with a copy held");
                        assert!(
                            live.iter().any(|h| h.expires == until),
                            "wait until {until} but no lease expires then"
                        );
                        assert_eq!(after.misses, stats.misses + 1);
                        assert_eq!(
                            (after.hits, after.stale, after.fetches),
                            (stats.hits, stats.stale, stats.fetches)
                        );
                    }
                    Lookup::Ready {
                        answer,
                        stale,
                        retry_at,
                    } => {
                        check_answer(&cache, &m, &answer, now, i);
                        let moved = (
                            after.hits - stats.hits,
                            after.stale - stats.stale,
                            after.misses - stats.misses,
                        );
                        assert_eq!(after.fetches, stats.fetches);
                        // A miss: no copy yet, another caller fetching, and
                        // the caller asked for a blanket answer meanwhile.
                        let miss = moved == (0, 0, 1)
                            && !stale
                            && when == WhenFetching::DisallowAll
                            && answer.blanket().is_some();
                        assert!(
                            moved == (u64::from(!stale), u64::from(stale), 0) || miss,
                            "counters moved by {moved:?} for stale={stale} {answer:?}"
                        );
                        if miss {
                            // Ask again when the fetch under way runs out.
                            assert!(
                                retry_at.is_some_and(|at| live.iter().any(|h| h.expires == at)),
                                "retry at {retry_at:?}, no lease expires then"
                            );
                        } else if m.known {
                            assert_eq!(retry_at, m.retry_at, "origin {i} at {now}: retry_at");
                        }
                    }
                }
                note_evictions(&mut models, &stats, &after, Some(i));
                stats = after;
            }
            // Store what a lease's fetch returned.
            4 | 5 if held.iter().any(|h| h.lease.is_some()) => {
                let k = pick(u, &held)?;
                let h = held.swap_remove(k);
                let lease = h.lease.expect("picked");
                touched = Some(h.origin);
                let status = *u.choose(STATUSES)?;
                let redirects = u.int_in_range(0..=7u32)?;
                let junk;
                let body: &[u8] = match u.int_in_range(0..=BODIES.len())? {
                    n if n < BODIES.len() => BODIES[n],
                    _ => {
                        junk = {
                            let n = u.int_in_range(0..=64usize)?;
                            u.bytes(n)?
                        }
                        .to_vec();
                        &junk
                    }
                };
                let etag = if u.arbitrary()? {
                    Some(&b"\"v1\""[..])
                } else {
                    None
                };
                let result = FetchResult {
                    status,
                    redirects,
                    body,
                    max_age_ms: if u.arbitrary()? { Some(ms(u)?) } else { None },
                    retry_after_ms: if u.arbitrary()? { Some(ms(u)?) } else { None },
                    etag,
                    last_modified: None,
                };
                let len = cache.len();
                let m = &mut models[h.origin];
                // Overtaken: a newer lease of the origin stored since.
                let overtaken = h.seq <= m.stored_seq;
                match cache.store(lease, now, &result) {
                    Err(Error::InvalidLease { .. }) => {
                        assert!(!m.known || overtaken, "lease {} refused", h.seq);
                        assert!(now >= h.expires, "a live lease was refused");
                        // Nothing changed.
                        assert_eq!(cache.stats(), stats);
                        assert_eq!(cache.len(), len);
                        touched = None;
                    }
                    Err(e) => panic!("store: {e}"),
                    Ok(d) => {
                        assert!(
                            !(m.known && overtaken),
                            "lease {} overwrote the newer copy of lease {}",
                            h.seq,
                            m.stored_seq
                        );
                        let policy = &cache.options().policy;
                        assert_eq!(d, classify(status, redirects, policy.access));
                        record_model(m, d, &result, now, policy);
                        m.stored_seq = h.seq;
                        let after = cache.stats();
                        assert_eq!(
                            (after.hits, after.misses, after.fetches, after.stale),
                            (stats.hits, stats.misses, stats.fetches, stats.stale)
                        );
                        note_evictions(&mut models, &stats, &after, Some(h.origin));
                        stats = after;
                    }
                }
            }
            // Give a fetch back: abandon it, drop it, or offer it to another
            // cache (which refuses it, and the refused lease is dropped);
            // or its worker dies.
            6 if held.iter().any(|h| h.lease.is_some()) => {
                let k = pick(u, &held)?;
                match u.int_in_range(0..=3u8)? {
                    0 => cache.abandon(held.swap_remove(k).lease.unwrap()).unwrap(),
                    1 => drop(held.swap_remove(k).lease),
                    2 => {
                        let lease = held.swap_remove(k).lease.unwrap();
                        let got = if u.arbitrary()? {
                            other.abandon(lease)
                        } else {
                            other.store(lease, now, &FetchResult::default()).map(|_| ())
                        };
                        assert!(matches!(got, Err(Error::InvalidLease { .. })), "{got:?}");
                        assert_eq!((other.len(), other.stats()), (0, CacheStats::default()));
                    }
                    _ => zombies.extend(held[k].lease.take()),
                }
                assert_eq!(cache.stats(), stats);
            }
            7 => {
                let i = u.int_in_range(0..=ORIGINS - 1)?;
                let url = url_of(u, i)?;
                let was = cache.remove(&url).unwrap();
                let _ = was;
                models[i] = Model {
                    known: true,
                    ..Model::default()
                };
                // Its leases are orphans now: a store re-creates the origin.
                for h in held.iter_mut().filter(|h| h.origin == i) {
                    h.expires = 0;
                }
                stats = cache.stats();
            }
            8 => {
                for bad in [
                    "",
                    "example.com/x",
                    "ftp://a/",
                    "https://",
                    "https://:80/",
                    "https://a:x/",
                    "http://a\\@b/",
                    "http://0x7f.1/",
                ] {
                    assert!(cache.lookup(bad, now, WhenFetching::Wait).is_err(), "{bad}");
                }
                assert_eq!(cache.stats(), stats);
            }
            9 | 10 => pacing.step(u, now)?,
            _ => now = now.saturating_add(ms(u)?),
        }
        assert_eq!(stats.entries as usize, cache.len());
        // Bounded: an origin is added beyond capacity only when every other
        // one held has a fetch under way (a lease that has run out does not
        // count: it is no fetch under way).
        let len = cache.len();
        if len > len_before && len > capacity {
            let leased = (0..ORIGINS)
                .filter(|&i| {
                    Some(i) != touched && held.iter().any(|h| h.origin == i && now < h.expires)
                })
                .count();
            assert!(
                leased >= len - 1,
                "{len} origins held, capacity {capacity}, only {leased} others with a live lease"
            );
        }
    }
    Ok(())
}

/// The model after a stored outcome `d`, as behaviour §6–§7 says.
fn record_model(
    m: &mut Model,
    d: Disposition,
    result: &FetchResult<'_>,
    now: u64,
    policy: &FreshnessPolicy,
) {
    let cause = Cause::of(result.status, result.redirects);
    let copy = match d {
        Disposition::FollowRules => {
            let parsed = Robots::parse_with(result.body, &policy.parse);
            let private_allowed = parsed
                .rules_for("ExampleBot")
                .unwrap()
                .can_fetch("/private");
            Some(Copy::Rules { private_allowed })
        }
        Disposition::AllowAll => Some(Copy::AllowAll(cause)),
        Disposition::NotModified if m.known && m.copy.is_some() => m.copy,
        Disposition::NotModified | Disposition::DisallowAll => {
            m.failing_since.get_or_insert(now);
            m.last_failure = Some(cause);
            let wait = result.retry_after_ms.map_or(policy.retry_ms, |ms| {
                ms.clamp(RETRY_AFTER_RANGE.0, RETRY_AFTER_RANGE.1)
            });
            m.retry_at = Some(now.saturating_add(wait));
            return;
        }
    };
    *m = Model {
        copy,
        known: m.known || d != Disposition::NotModified,
        stored_seq: m.stored_seq,
        ..Model::default()
    };
}

/// A held lease that is not forgotten.
fn pick(u: &mut Unstructured, held: &[Held]) -> Result<usize> {
    let usable: Vec<usize> = (0..held.len())
        .filter(|&k| held[k].lease.is_some())
        .collect();
    Ok(*u.choose(&usable)?)
}

fn check_answer(cache: &Cache, m: &Model, answer: &Cached, now: u64, i: usize) {
    let policy = &cache.options().policy;
    let past_limit = m
        .failing_since
        .is_some_and(|since| now.saturating_sub(since) >= policy.unreachable_limit_ms);
    let may_allow_all = policy.after_limit == AfterLimit::AllowAll && (past_limit || !m.known);
    let ok = match (answer, m.copy) {
        (Cached::AllowAll(_), _) if may_allow_all => true,
        // No copy: nothing but disallow-all (§2.3.1.4), whatever failed.
        (Cached::DisallowAll(_), None) => true,
        (_, None) => false,
        (Cached::DisallowAll(_), Some(_)) => !m.known,
        (Cached::AllowAll(_), Some(copy)) => matches!(copy, Copy::AllowAll(_)),
        (Cached::Rules(_), Some(Copy::AllowAll(_))) => false,
        (Cached::Rules(robots), Some(Copy::Rules { private_allowed })) => {
            let rules = cache.select(answer, "ExampleBot").unwrap();
            assert_eq!(rules.can_fetch("/private"), private_allowed, "origin {i}");
            let _ = robots.rule_count();
            true
        }
    };
    assert!(
        ok,
        "origin {i} at {now}: {answer:?} but the model holds {m:?}"
    );
    // The cause: of the copy, the last failure, or of the policy.
    if m.known {
        let want = if past_limit && policy.after_limit == AfterLimit::AllowAll {
            Some(Cause::UnreachableLimit)
        } else {
            match m.copy {
                Some(Copy::Rules { .. }) => None,
                Some(Copy::AllowAll(cause)) => Some(cause),
                None => Some(m.last_failure.unwrap_or(Cause::NotFetched)),
            }
        };
        assert_eq!(
            answer.blanket().map(|b| b.cause),
            want,
            "origin {i} at {now}: the cause of {answer:?}, model {m:?}"
        );
    }
    // The token is checked whatever the answer.
    let google = policy.parse.profile() == Profile::Google;
    assert_eq!(cache.select(answer, "Bad/1.0").is_ok(), google);
    let rules = cache.select(answer, "ExampleBot").unwrap();
    assert_eq!(rules.blanket(), answer.blanket());
    let d = rules.decide("/private");
    assert_eq!(d.allowed, rules.can_fetch("/private"));
    // Blanket answers decide as such, at line 0; a file's rules never do.
    let want_kind = match answer.blanket() {
        Some(b) if b.allowed => Some(DecisionKind::AllowAll),
        Some(_) => Some(DecisionKind::DisallowAll),
        None => None,
    };
    match want_kind {
        Some(kind) => assert_eq!((d.kind, d.line, d.pattern), (kind, 0, "")),
        None => assert!(!matches!(
            d.kind,
            DecisionKind::AllowAll | DecisionKind::DisallowAll
        )),
    }
}

/// An eviction may have taken any origin but `except`: their copies are no
/// longer known.
fn note_evictions(
    models: &mut [Model; ORIGINS],
    before: &CacheStats,
    after: &CacheStats,
    except: Option<usize>,
) {
    if after.evictions != before.evictions {
        assert!(after.evictions > before.evictions);
        for (i, m) in models.iter_mut().enumerate() {
            if Some(i) != except {
                m.known = false;
            }
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let _ = run(&mut Unstructured::new(data));
});
