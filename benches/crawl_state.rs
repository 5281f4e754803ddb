//! What the cache and the pacer cost per call as they fill: a lookup of an
//! origin held, a lookup of a new origin at capacity (one eviction), and
//! the same for pacer hosts, at 1,000, 100,000 and 1,000,000 entries.
//!
//! `cargo bench --bench crawl_state [-- --rounds N --out FILE]`

mod common;

use std::hint::black_box;
use std::time::Instant;

use robotstxt::{Cache, CacheOptions, FetchResult, Lookup, Pacer, PacerOptions, WhenFetching};

const SIZES: [usize; 3] = [1_000, 100_000, 1_000_000];
/// Calls timed per round and size.
const CALLS: usize = 20_000;
/// Far enough on that every host's gap and every lease has run out.
const LATER: u64 = 1 << 40;

fn origin(i: usize) -> String {
    format!("https://site{i}.test/page")
}

/// A cache of `n` origins, each with an allow-all copy (a 404).
fn full_cache(n: usize) -> Cache {
    let cache = Cache::new(CacheOptions {
        capacity: n,
        ..CacheOptions::default()
    });
    let gone = FetchResult {
        status: Some(404),
        ..FetchResult::default()
    };
    for i in 0..n {
        if let Lookup::Fetch(lease) = cache.lookup(origin(i), 0, WhenFetching::Wait).unwrap() {
            cache.store(lease, 0, &gone).unwrap();
        }
    }
    cache
}

/// A pacer of `n` hosts, each with one request started at 0.
fn full_pacer(n: usize) -> Pacer {
    let pacer = Pacer::new(PacerOptions {
        capacity: n,
        ..PacerOptions::default()
    });
    for i in 0..n {
        pacer.reserve(format!("site{i}.test"), 0).unwrap();
    }
    pacer
}

/// ns per call of `f(i)` over `CALLS` calls, the best of `rounds`.
fn best_ns(rounds: usize, mut f: impl FnMut(usize)) -> f64 {
    let mut best = f64::INFINITY;
    let mut next = 0;
    for _ in 0..rounds {
        let start = Instant::now();
        for _ in 0..CALLS {
            f(next);
            next += 1;
        }
        best = best.min(start.elapsed().as_nanos() as f64 / CALLS as f64);
    }
    best
}

fn main() {
    let rounds = common::rounds();
    let mut out = String::new();
    let mut line = |s: String| {
        println!("{s}");
        out += &s;
        out.push('\n');
    };
    line("## Crawl state: cache and pacer cost as they fill\n".into());
    line(format!(
        "ns per call, best of {rounds} rounds of {CALLS} calls. A held origin or host is looked \
         up at random; a new one at capacity evicts one (the least recently used that is safe \
         to forget). Command: `cargo bench --bench crawl_state`.\n"
    ));
    line("| entries | cache: held origin | cache: new origin at capacity | pacer: held host | pacer: new host at capacity |".into());
    line("|---:|---:|---:|---:|---:|".into());
    for n in SIZES {
        let cache = full_cache(n);
        // A fixed stride visits held origins in no cache-friendly order.
        let held = best_ns(rounds, |i| {
            let url = origin(i.wrapping_mul(7919) % n);
            black_box(cache.lookup(url, 1, WhenFetching::Wait).unwrap());
        });
        let mut fresh = n;
        let evicting = best_ns(rounds, |_| {
            fresh += 1;
            // The lease is dropped at once: the fetch is given back.
            black_box(
                cache
                    .lookup(origin(fresh), LATER, WhenFetching::Wait)
                    .unwrap(),
            );
        });
        drop(cache);
        let pacer = full_pacer(n);
        let host_held = best_ns(rounds, |i| {
            let host = format!("site{}.test", i.wrapping_mul(7919) % n);
            black_box(pacer.gap_ms(host).unwrap());
        });
        let mut fresh = n;
        let host_new = best_ns(rounds, |_| {
            fresh += 1;
            // The clock moves on, so the hosts reserved in this loop come
            // out of their gap and can be forgotten in turn.
            let now = LATER + fresh as u64 * 2_000;
            black_box(pacer.reserve(format!("site{fresh}.test"), now).unwrap());
        });
        line(format!(
            "| {n} | {held:.0} | {evicting:.0} | {host_held:.0} | {host_new:.0} |"
        ));
    }
    if let Some(path) = common::arg("--out") {
        std::fs::write(&path, out).unwrap();
        eprintln!("wrote {path}");
    }
}
