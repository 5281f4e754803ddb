//! The freshness/cache state machine (SPEC §6–7) under random sequences of
//! lookups, stores, abandons, removals and forgotten leases, with random
//! fetch outcomes, random policies and a clock that moves by random steps
//! (starting anywhere, up to near `u64::MAX`). A small model follows each
//! origin and checks after every step:
//!
//! - never allow (rules or allow-all) for an origin with no copy, unless the
//!   policy allows everything past the unreachable limit and it has passed
//!   (so: never allow after a 5xx with no copy);
//! - a held copy keeps answering, as it was stored, until replaced;
//! - at most one lease per origin is outstanding (unexpired and unended);
//!   `Wait` names that lease's expiry;
//! - the counters move by exactly one per lookup, as documented, and
//!   `entries` is the number of origins held; `store` returns what
//!   `access::classify` says;
//! - the cache stays within its capacity, except for origins with a live
//!   lease.

#![no_main]

use libfuzzer_sys::arbitrary::{Result, Unstructured};
use libfuzzer_sys::fuzz_target;
use robotstxt::access::classify;
use robotstxt::{
    AccessPolicy, AfterLimit, Cache, CacheOptions, CacheStats, Cached, Disposition, FetchResult,
    FreshnessPolicy, Lease, Lookup, Options, Profile, Robots, WhenFetching,
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
    Rules {
        private_allowed: bool,
    },
    AllowAll,
}

#[derive(Clone, Copy, Debug, Default)]
struct Model {
    copy: Option<Copy>,
    /// False once another origin was evicted and it might have been this
    /// one: its copy may be gone.
    known: bool,
    failing_since: Option<u64>,
}

struct Held {
    /// `None` once forgotten: dropped without a store or an abandon, as by
    /// a worker that died. The cache still counts it until it expires.
    lease: Option<Lease>,
    origin: usize,
    expires: u64,
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
    let mut stats = cache.stats();

    for _ in 0..u.int_in_range(1..=64u32)? {
        if u.is_empty() {
            break;
        }
        let len_before = cache.len();
        // The origin a step may add to the cache.
        let mut touched = None;
        match u.int_in_range(0..=9u8)? {
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
                        assert_eq!(after.fetches, stats.fetches + 1);
                        assert!(after.misses - stats.misses <= 1);
                        assert_eq!((after.hits, after.stale), (stats.hits, stats.stale));
                        let expires = now.saturating_add(cache.options().lease_ms);
                        held.push(Held {
                            lease: Some(lease),
                            origin: i,
                            expires,
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
                    Lookup::Ready { answer, stale } => {
                        check_answer(&cache, &m, &answer, now, i);
                        let moved = (
                            after.hits - stats.hits,
                            after.stale - stats.stale,
                            after.misses - stats.misses,
                        );
                        assert_eq!(after.fetches, stats.fetches);
                        assert!(
                            moved == (u64::from(!stale), u64::from(stale), 0)
                                || (moved == (0, 0, 1)
                                    && !stale
                                    && matches!(answer, Cached::DisallowAll)),
                            "counters moved by {moved:?} for stale={stale} {answer:?}"
                        );
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
                let d = cache.store(&lease, now, &result);
                let policy = &cache.options().policy;
                assert_eq!(d, classify(status, redirects, policy.access));
                let m = &mut models[h.origin];
                match d {
                    Disposition::FollowRules => {
                        let parsed = Robots::parse_with(body, &policy.parse);
                        let private_allowed = parsed
                            .rules_for("ExampleBot")
                            .unwrap()
                            .can_fetch("/private");
                        *m = Model {
                            copy: Some(Copy::Rules { private_allowed }),
                            known: true,
                            failing_since: None,
                        };
                    }
                    Disposition::AllowAll => {
                        *m = Model {
                            copy: Some(Copy::AllowAll),
                            known: true,
                            failing_since: None,
                        };
                    }
                    Disposition::NotModified if m.known && m.copy.is_some() => {
                        m.failing_since = None;
                    }
                    Disposition::NotModified | Disposition::DisallowAll => {
                        m.failing_since.get_or_insert(now);
                    }
                }
                let after = cache.stats();
                assert_eq!(
                    (after.hits, after.misses, after.fetches, after.stale),
                    (stats.hits, stats.misses, stats.fetches, stats.stale)
                );
                note_evictions(&mut models, &stats, &after, Some(h.origin));
                stats = after;
            }
            // Give a fetch back, or forget it (a worker that died).
            6 if held.iter().any(|h| h.lease.is_some()) => {
                let k = pick(u, &held)?;
                if u.arbitrary()? {
                    let h = held.swap_remove(k);
                    cache.abandon(h.lease.as_ref().expect("picked"));
                } else {
                    held[k].lease = None;
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
                ] {
                    assert!(cache.lookup(bad, now, WhenFetching::Wait).is_err(), "{bad}");
                }
                assert_eq!(cache.stats(), stats);
            }
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
        (Cached::AllowAll, _) if may_allow_all => true,
        // No copy: nothing but disallow-all (§2.3.1.4), whatever failed.
        (Cached::DisallowAll, None) => true,
        (_, None) => false,
        (Cached::DisallowAll, Some(_)) => !m.known,
        (Cached::AllowAll, Some(copy)) => copy == Copy::AllowAll,
        (Cached::Rules(_), Some(Copy::AllowAll)) => false,
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
    // The token is checked whatever the answer.
    let google = policy.parse.profile() == Profile::Google;
    assert_eq!(cache.select(answer, "Bad/1.0").is_ok(), google);
    let rules = cache.select(answer, "ExampleBot").unwrap();
    let d = rules.decide("/private");
    assert_eq!(d.allowed, rules.can_fetch("/private"));
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
