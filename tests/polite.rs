//! The cache and pacer under concurrency (SPEC §6–8).

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use robotstxt::{
    Cache, CacheOptions, FetchResult, Lookup, Pacer, PacerOptions, Robots, WhenFetching,
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
                            cache.store(&lease, 1_000, &result);
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
                    let start = pacer.reserve("shop.test", now).unwrap().unwrap();
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
