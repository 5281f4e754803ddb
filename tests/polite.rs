//! The cache and pacer under concurrency (behaviour §6–§8).

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use robotstxt::{
    Cache, CacheOptions, Confirm, FetchResult, Lookup, Pacer, PacerOptions, Robots, WhenFetching,
};

/// 64 threads ask for 100 origins at once: each origin is fetched exactly
/// once, and no answer ever allows a URL the rules disallow.
#[test]
fn single_flight_under_64_threads() {
    let cache = Arc::new(Cache::new(CacheOptions::default()));
    let fetches: Arc<Vec<AtomicUsize>> = Arc::new((0..100).map(|_| AtomicUsize::new(0)).collect());
    let wrong = Arc::new(AtomicUsize::new(0));
    let threads: Vec<_> = (0..64)
        .map(|t| {
            let (cache, fetches, wrong) = (cache.clone(), fetches.clone(), wrong.clone());
            std::thread::spawn(move || {
                for round in 0..300 {
                    let site = (t * 7 + round) % 100;
                    let url = format!("https://site{site}.test/private/page{round}");
                    // The clock does not move: one fetch per origin, ever.
                    match cache.lookup(&url, 1_000, WhenFetching::Wait).unwrap() {
                        Lookup::Fetch(lease) => {
                            fetches[site].fetch_add(1, Ordering::SeqCst);
                            std::thread::sleep(Duration::from_micros(200));
                            let body = b"User-agent: *\nDisallow: /private/\n";
                            let result = FetchResult {
                                status: Some(200),
                                body,
                                ..Default::default()
                            };
                            cache.store(lease, 1_000, &result).unwrap();
                        }
                        Lookup::Ready { answer, .. } => {
                            let rules = cache.select(&answer, "ExampleBot").unwrap();
                            if rules.can_fetch(&url) {
                                wrong.fetch_add(1, Ordering::SeqCst);
                            }
                        }
                        Lookup::Wait { .. } => std::thread::yield_now(),
                    }
                }
            })
        })
        .collect();
    for t in threads {
        t.join().unwrap();
    }
    for (site, n) in fetches.iter().enumerate() {
        assert_eq!(
            n.load(Ordering::SeqCst),
            1,
            "site{site} fetched {n:?} times"
        );
    }
    assert_eq!(
        wrong.load(Ordering::SeqCst),
        0,
        "answers that allowed /private/"
    );
    let stats = cache.stats();
    assert_eq!((stats.fetches, stats.entries), (100, 100));
}

/// With `Crawl-delay: 0.25`, starts handed to any number of workers are at
/// least 250 ms apart by the pacer's clock.
#[test]
fn pacer_keeps_crawl_delay_across_workers() {
    let pacer = Arc::new(Pacer::new(PacerOptions {
        floor_ms: 0,
        ..Default::default()
    }));
    let rules = Robots::parse(b"User-agent: *\nCrawl-delay: 0.25\n")
        .rules_for("ExampleBot")
        .unwrap();
    pacer.set_rules("shop.test", &rules).unwrap();
    let starts = Arc::new(Mutex::new(Vec::new()));
    let workers: Vec<_> = (0..16)
        .map(|w| {
            let (pacer, starts) = (pacer.clone(), starts.clone());
            std::thread::spawn(move || {
                for i in 0..50u64 {
                    // Workers ask at scattered times on the pacer's clock.
                    let now = (w * 37 + i * 101) % 5_000;
                    let ticket = pacer.reserve("shop.test", now).unwrap().unwrap();
                    let start = ticket.start();
                    assert!(start >= now);
                    starts.lock().unwrap().push(start);
                }
            })
        })
        .collect();
    for w in workers {
        w.join().unwrap();
    }
    let mut starts = starts.lock().unwrap().clone();
    starts.sort_unstable();
    assert_eq!(starts.len(), 800);
    for pair in starts.windows(2) {
        assert!(
            pair[1] - pair[0] >= 250,
            "starts {} and {} are too close",
            pair[0],
            pair[1]
        );
    }
}

/// A lease dropped without a store or an abandon (a worker that gave up)
/// gives its origin's fetch back at once, not after `lease_ms`.
#[test]
fn a_dropped_lease_frees_its_origin_at_once() {
    let cache = Cache::new(CacheOptions::default());
    let url = "https://drop.test/x";
    let Lookup::Fetch(lease) = cache.lookup(url, 0, WhenFetching::Wait).unwrap() else {
        panic!("expected a fetch")
    };
    assert!(matches!(
        cache.lookup(url, 1, WhenFetching::Wait).unwrap(),
        Lookup::Wait { .. }
    ));
    drop(lease);
    assert!(matches!(
        cache.lookup(url, 2, WhenFetching::Wait).unwrap(),
        Lookup::Fetch(_)
    ));
}

/// A lease from one cache cannot be ended by another: refused, and the
/// cache that issued it gets the fetch back.
#[test]
fn a_lease_of_another_cache_is_refused() {
    let (a, b) = (
        Cache::new(CacheOptions::default()),
        Cache::new(CacheOptions::default()),
    );
    let Lookup::Fetch(lease) = a.lookup("https://x.test/", 0, WhenFetching::Wait).unwrap() else {
        panic!("expected a fetch")
    };
    assert!(!b.issued(&lease) && a.issued(&lease));
    assert!(matches!(
        b.abandon(lease),
        Err(robotstxt::Error::InvalidLease { .. })
    ));
    assert!(b.is_empty());
    assert!(matches!(
        a.lookup("https://x.test/", 1, WhenFetching::Wait).unwrap(),
        Lookup::Fetch(_)
    ));
}

/// 20 workers reserve at once on a shared clock; the first request is
/// answered 429 with Retry-After: 1 while the others wait. None of the 19
/// confirms in the following second, and starts stay a gap apart after it.
#[test]
fn a_backoff_reaches_requests_already_waiting() {
    let pacer = Arc::new(Pacer::new(PacerOptions {
        floor_ms: 50,
        ..Default::default()
    }));
    let clock = Arc::new(std::sync::atomic::AtomicU64::new(10_000));
    let mut tickets: Vec<_> = (0..20)
        .map(|_| pacer.reserve("busy.test", 10_000).unwrap().unwrap())
        .collect();
    let first = tickets.remove(0);
    let mut first = first;
    assert_eq!(pacer.confirm(&mut first, 10_000).unwrap(), Confirm::Go);
    pacer
        .record("busy.test", 10_020, Some(429), Some(1_000))
        .unwrap();
    let starts = Arc::new(Mutex::new(Vec::new()));
    let workers: Vec<_> = tickets
        .into_iter()
        .map(|mut ticket| {
            let (pacer, clock, starts) = (pacer.clone(), clock.clone(), starts.clone());
            std::thread::spawn(move || loop {
                let now = clock.load(Ordering::SeqCst);
                match pacer.confirm(&mut ticket, now).unwrap() {
                    Confirm::Go => {
                        starts.lock().unwrap().push(now);
                        pacer.record("busy.test", now, Some(200), None).unwrap();
                        return;
                    }
                    Confirm::Wait { .. } => std::thread::yield_now(),
                    Confirm::Disabled => panic!("not switched off"),
                }
            })
        })
        .collect();
    // The clock moves 5 ms at a time, slowly enough that every waiting
    // worker looks at each step.
    while !workers.iter().all(|w| w.is_finished()) {
        std::thread::sleep(Duration::from_micros(200));
        clock.fetch_add(5, Ordering::SeqCst);
    }
    for w in workers {
        w.join().unwrap();
    }
    let mut starts = starts.lock().unwrap().clone();
    starts.sort_unstable();
    assert_eq!(starts.len(), 19);
    assert!(
        starts[0] >= 11_020,
        "a start at {} during Retry-After",
        starts[0]
    );
    for pair in starts.windows(2) {
        assert!(
            pair[1] - pair[0] >= 50,
            "starts {pair:?} closer than the gap"
        );
    }
}
