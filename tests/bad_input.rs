//! The bad-input matrix on the core (SECURITY.md): every hostile or
//! odd input gets a defined answer or a clear error, never a panic or a
//! hang. The same list runs through C (`tests/c/test_bad_input.c`), Node
//! (`bindings/node/__test__/bad-input.test.mjs`) and Go
//! (`bindings/go/badinput_test.go`).
//!
//! NULL handles, use after free and double free have no Rust form (the
//! types rule them out); the bindings test them.
//!
//! The cost bound (SECURITY.md): `worst_case_costs` times the pathological
//! checks and prints one line each; see them with
//! `cargo test --release --test bad_input -- --nocapture worst_case` (or
//! `make worst-case`). Nothing here asserts a time.

mod common;

#[path = "../fuzz/common/naive.rs"]
mod naive;

use std::time::{Duration, Instant};

use robotstxt::{
    AfterLimit, Answer, Cache, CacheOptions, DecisionKind, Entry, Error, FetchResult,
    FreshnessPolicy, Lookup, Options, Pacer, PacerOptions, Profile, Robots, Rules, WhenFetching,
    MAX_PARSE_LIMIT, MIN_PARSE_LIMIT,
};

use common::counting::{allocations, Counting};

#[global_allocator]
static GLOBAL: Counting = Counting;

const PROFILES: [Profile; 2] = [Profile::Rfc9309, Profile::Google];

fn parse(body: &[u8], profile: Profile) -> Robots {
    Robots::parse_with(body, &Options::new(profile))
}

fn raised(profile: Profile, limit: usize) -> Options {
    Options::new(profile).with_parse_limit(limit).unwrap()
}

fn rules(robots: &Robots) -> Rules {
    robots.rules_for("ExampleBot").unwrap()
}

/// `decide` and `can_fetch` agree, and the decision is well formed.
fn answer(rules: &Rules, url: impl AsRef<[u8]>) -> bool {
    let url = url.as_ref();
    let d = rules.decide(url);
    assert_eq!(d.allowed, rules.can_fetch(url));
    assert_eq!(
        d.kind == DecisionKind::NoMatch,
        d.line == 0 && d.pattern.is_empty()
    );
    d.allowed
}

/// The pathological pattern: `/` then 5,000 times `*a`.
fn many_stars() -> String {
    format!("/{}", "*a".repeat(5_000))
}

/// A 1 MB URL: `/` and a million `a`s, with `tail` at the end.
fn megabyte_url(tail: &str) -> String {
    format!("/{}{tail}", "a".repeat(1_000_000))
}

// --- bodies ---

#[test]
fn empty_and_zero_byte_bodies() {
    for profile in PROFILES {
        let robots = parse(b"", profile);
        assert_eq!((robots.group_count(), robots.rule_count()), (0, 0));
        assert!(robots.diagnostics().is_empty() && robots.sitemaps().len() == 0);
        assert_eq!(robots.host(), None);
        let r = rules(&robots);
        assert!(r.is_empty());
        for url in ["", "/", "/x", "https://a.test/b?c"] {
            assert!(answer(&r, url), "{url}");
        }
    }
}

#[test]
fn the_largest_corpus_file_parses_up_to_the_limit() {
    // A real site's robots.txt past the limit: 3.7 MB in the full corpus,
    // 514 KB in the committed sample.
    let (file, bytes) = common::largest_robots();
    let body = common::read(&file);
    assert_eq!(body.len(), bytes, "{file}");
    assert!(body.len() > MIN_PARSE_LIMIT, "{file}: {bytes} bytes");
    for profile in PROFILES {
        let robots = parse(&body, profile);
        // Only the first 512,000 bytes count (behaviour §1): the same as a body
        // cut there by hand, less the line the cut splits.
        let cut = &body[..MIN_PARSE_LIMIT];
        let end = if matches!(body[MIN_PARSE_LIMIT], b'\n' | b'\r') {
            cut.len()
        } else {
            cut.iter().rposition(|&b| b == b'\n' || b == b'\r').unwrap() + 1
        };
        let by_hand = Robots::parse_with(&cut[..end], &raised(profile, 1 << 22));
        assert_eq!(robots.rule_count(), by_hand.rule_count());
        assert_eq!(robots.group_count(), by_hand.group_count());
        assert_eq!(robots.diagnostics(), by_hand.diagnostics());
        // All of it, with a raised limit.
        let whole = Robots::parse_with(&body, &raised(profile, 1 << 22));
        assert!(whole.rule_count() > robots.rule_count());
        for r in [
            rules(&robots),
            rules(&whole),
            whole.rules_for("Googlebot").unwrap(),
        ] {
            for url in ["/", "/robots.txt", "/search?q=x", "https://x.test/a/b"] {
                answer(&r, url);
            }
        }
    }
}

#[test]
fn invalid_utf8_in_body_token_and_url() {
    let body = b"User-agent: *\nDisallow: /\xff\xfe\nAllow: /ok\xc3\nSitemap: https://s.test/\xff.xml\nHost: h\xe9\n";
    for profile in PROFILES {
        let robots = parse(body, profile);
        let r = rules(&robots);
        // The pattern is percent-encoded (bytes ≥ 0x80 become %XX). RFC:
        // the raw path is encoded alike and matches; Google compares the
        // path as given, so a raw byte never matches `%FF`.
        let d = r.decide(b"/\xff\xfe/x");
        match profile {
            Profile::Rfc9309 => assert_eq!((d.allowed, d.pattern), (false, "/%FF%FE")),
            Profile::Google => assert_eq!((d.allowed, d.kind), (true, DecisionKind::NoMatch)),
        }
        assert!(!answer(&r, "/%FF%FE"));
        assert_eq!(robots.sitemap(0), Some(&b"https://s.test/\xff.xml"[..]));
        assert_eq!(robots.host(), Some(&b"h\xe9"[..]));
        // A token that is not UTF-8: an error that shows it (RFC), or a
        // name compared whole (Google).
        match robots.rules_for(b"Bot\xff") {
            Ok(r) => {
                assert_eq!(profile, Profile::Google);
                assert!(!answer(&r, "/%FF%FE"));
            }
            Err(e) => {
                assert_eq!(profile, Profile::Rfc9309);
                assert!(matches!(e, Error::InvalidToken { .. }));
                assert!(e.to_string().contains("Bot\u{fffd}"), "{e}");
            }
        }
        for url in [
            &b"\xff"[..],
            b"/\xc3(",
            b"https://\xff/\xfe?\xfd#\xfc",
            b"\xef\xbb\xbf/",
        ] {
            answer(&r, url);
        }
    }
}

#[test]
fn nul_bytes() {
    let body = b"User-agent: *\nDisallow: /a\0b\nUser-agent: x\0y\nDisallow: /c\0\n";
    // Google reads lines as C strings: `/a<NUL>b` is `/a`; RFC keeps NUL.
    let google = rules(&parse(body, Profile::Google));
    assert!(!answer(&google, "/a"));
    let rfc = rules(&parse(body, Profile::Rfc9309));
    assert!(answer(&rfc, "/a"));
    assert!(!answer(&rfc, b"/a\0b"));
    for profile in PROFILES {
        let robots = parse(b"\0\0\0\n\0User-agent: *\0\nDisallow: /\0", profile);
        answer(&rules(&robots), b"/\0");
        let error = robots.rules_for(b"Example\0Bot");
        assert_eq!(error.is_ok(), profile == Profile::Google);
    }
}

#[test]
fn a_body_of_only_carriage_returns() {
    let body = vec![b'\r'; 600_000];
    for profile in PROFILES {
        let robots = parse(&body, profile);
        assert_eq!((robots.group_count(), robots.rule_count()), (0, 0));
        assert!(robots.diagnostics().is_empty());
        assert!(answer(&rules(&robots), "/"));
    }
}

#[test]
fn a_single_600_kib_line() {
    let mut body = b"User-agent: *\nDisallow: /".to_vec();
    body.resize(body.len() + 600 * 1024, b'a');
    for profile in PROFILES {
        // The parse limit cuts the line, and a cut line is dropped.
        let robots = parse(&body, profile);
        assert_eq!(robots.rule_count(), 0);
        assert!(answer(&rules(&robots), "/aaa"));
        // With a raised limit the line is read; Google cuts it to 16,663
        // bytes first (a shorter pattern, still a rule).
        let robots = Robots::parse_with(&body, &raised(profile, 1 << 20));
        let r = rules(&robots);
        assert_eq!(robots.rule_count(), 1);
        let short = format!("/{}", "a".repeat(20_000));
        assert_eq!(answer(&r, &short), profile == Profile::Rfc9309);
        assert!(!answer(&r, format!("/{}", "a".repeat(600 * 1024))));
        let too_long = robots.diagnostics().iter().any(|d| d.too_long);
        assert_eq!(too_long, profile == Profile::Google);
    }
}

#[test]
fn a_hundred_thousand_rules() {
    let mut body = String::from("User-agent: *\n");
    for i in 0..100_000 {
        body += &format!("Disallow: /p{i:05}/\n");
    }
    for profile in PROFILES {
        // Default limit: the rules in the first 512,000 bytes.
        let robots = parse(body.as_bytes(), profile);
        assert!(robots.rule_count() > 20_000 && robots.rule_count() < 100_000);
        // Raised: all of them.
        let robots = Robots::parse_with(body.as_bytes(), &raised(profile, 1 << 22));
        assert_eq!(robots.rule_count(), 100_000);
        let r = rules(&robots);
        assert_eq!(r.len(), 100_000);
        assert!(!answer(&r, "/p99999/x"));
        assert!(!answer(&r, "/p00000/"));
        assert!(answer(&r, "/p100000/"));
        assert!(answer(&r, "/q"));
        assert_eq!(r.decide("/p54321/").line, 54_323);
    }
}

#[test]
fn ten_thousand_user_agent_lines() {
    // One group named 10,000 times, then 10,000 groups of one name each.
    let mut one = String::new();
    let mut many = String::new();
    for i in 0..10_000 {
        one += &format!("User-agent: bot{}\n", letters(i));
        many += &format!("User-agent: bot{}\nDisallow: /{i}/\n", letters(i));
    }
    one += "Disallow: /x\n";
    for profile in PROFILES {
        let robots = parse(one.as_bytes(), profile);
        assert_eq!(robots.group_count(), 1);
        let r = robots.rules_for(format!("BOT{}", letters(9_999))).unwrap();
        assert!(!answer(&r, "/x"));
        assert!(answer(&rules(&robots), "/x"), "no `*` group: allowed");
        let robots = parse(many.as_bytes(), profile);
        assert_eq!(robots.group_count(), 10_000);
        let r = robots.rules_for(format!("bot{}", letters(4_321))).unwrap();
        assert!(!answer(&r, "/4321/"));
        assert!(answer(&r, "/4322/"));
        let tokens: Vec<String> = (0..1_000).map(letters).map(|l| format!("bot{l}")).collect();
        let all = robots.rules_for_any(&tokens).unwrap();
        assert_eq!(all.len(), 1_000);
        assert!(!answer(&all, "/999/") && answer(&all, "/1000/"));
        let strictest = robots.rules_for_strictest(&tokens[..100]).unwrap();
        assert!(!answer(&strictest, "/99/"));
    }
}

/// `n` written in the letters a-j, so it is part of a product token.
fn letters(n: usize) -> String {
    n.to_string()
        .bytes()
        .map(|d| char::from(b'a' + (d - b'0')))
        .collect()
}

#[test]
fn a_pattern_with_5000_stars_against_a_1_mb_url() {
    let stars = many_stars();
    let anchored = format!("/{}{}x$", "*".repeat(5_000), "a".repeat(5_001));
    let body = format!("User-agent: *\nDisallow: {stars}\nAllow: {anchored}\n");
    for profile in PROFILES {
        let robots = Robots::parse_with(body.as_bytes(), &raised(profile, 1 << 20));
        let r = rules(&robots);
        // 5,000 `a`s or more, after the slash: the star pattern matches.
        let d = r.decide(megabyte_url(""));
        assert_eq!((d.allowed, d.line), (false, 2));
        assert!(!answer(&r, format!("/{}", "a".repeat(5_000))));
        // 4,999 are too few.
        assert!(answer(&r, format!("/{}", "ba".repeat(4_999))));
        // Ending in `x`: the anchored allow (10,004 bytes) is longer than
        // the disallow (10,001 bytes) and wins.
        let d = r.decide(megabyte_url("x"));
        assert_eq!((d.allowed, d.line), (true, 3));
        assert!(!answer(&r, megabyte_url("xy")));
    }
    // The shape agrees with the naive reference on a small scale.
    let small = format!("/{}", "*a".repeat(5));
    assert!(naive::naive_matches(small.as_bytes(), b"/aaaaa"));
    assert!(!naive::naive_matches(small.as_bytes(), b"/aaaa"));
}

#[test]
fn a_1_mb_url_everywhere() {
    let shop = b"User-agent: *\nDisallow: /a\nAllow: /a*b$\n";
    for profile in PROFILES {
        let r = rules(&parse(shop, profile));
        assert!(!answer(&r, megabyte_url("")));
        assert!(answer(&r, megabyte_url("b")));
        assert!(answer(&r, format!("https://{}/", "h".repeat(1_000_000))));
        // Bytes that need percent-encoding: the path triples in the RFC
        // profile (one temporary buffer), and still answers.
        let raw = [b"/a".as_slice(), &[0xff; 1_000_000]].concat();
        assert!(!answer(&r, &raw));
        let escapes = format!("/a{}", "%7e".repeat(300_000));
        assert!(!answer(&r, escapes));
    }
}

#[test]
fn a_check_allocates_nothing_even_in_the_worst_case() {
    let body = format!("User-agent: *\nDisallow: {}\n", many_stars());
    let url = megabyte_url("");
    for profile in PROFILES {
        let robots = Robots::parse_with(body.as_bytes(), &raised(profile, 1 << 20));
        let r = rules(&robots);
        // A megabyte path builds the index at once (the scan would read
        // it once per wildcard rule): built beforehand, nothing is left
        // to allocate.
        r.compile();
        let (allowed, n) = allocations(|| r.can_fetch(url.as_bytes()));
        assert!(!allowed);
        assert_eq!(n, 0, "{profile:?}: a check allocated {n} times");
    }
}

// --- tokens and options ---

#[test]
fn odd_tokens() {
    let robots = parse(b"User-agent: *\nDisallow: /\n", Profile::Rfc9309);
    let long = "a".repeat(1_000_000);
    for bad in [
        "",
        "*",
        "Bot/1.0",
        "Mozilla/5.0 (compatible; Bot/1.0)",
        "a b",
        "ü",
    ] {
        let e = robots.rules_for(bad).unwrap_err();
        assert!(e.to_string().contains("ExampleBot"), "{e}");
    }
    assert!(robots.rules_for(&long).is_ok());
    assert_eq!(
        robots.rules_for_any::<&str>(&[]).unwrap_err(),
        Error::NoTokens
    );
    assert_eq!(
        robots.rules_for_strictest::<&str>(&[]).unwrap_err(),
        Error::NoTokens
    );
    let google = parse(b"User-agent: *\nDisallow: /\n", Profile::Google);
    for any in ["", "*", "Bot/1.0", "a b", &long] {
        assert!(!answer(&google.rules_for(any).unwrap(), "/x"));
    }
}

#[test]
fn options_out_of_range() {
    for bad in [0, 1, MIN_PARSE_LIMIT - 1, MAX_PARSE_LIMIT + 1, usize::MAX] {
        let e = Options::default().with_parse_limit(bad).unwrap_err();
        assert_eq!(e, Error::ParseLimit { requested: bad });
        assert!(e.to_string().contains("500 KiB"), "{e}");
    }
    for good in [MIN_PARSE_LIMIT, MAX_PARSE_LIMIT] {
        assert_eq!(
            Options::default()
                .with_parse_limit(good)
                .unwrap()
                .parse_limit(),
            good
        );
    }
    // A cache of capacity 0 holds one origin; a lease of 0 ms runs out at
    // once; extreme clocks and durations saturate instead of overflowing.
    let policy = FreshnessPolicy {
        fresh_for_ms: u64::MAX,
        retry_ms: u64::MAX,
        unreachable_limit_ms: 0,
        after_limit: AfterLimit::AllowAll,
        ..FreshnessPolicy::default()
    };
    let cache = Cache::new(CacheOptions {
        capacity: 0,
        lease_ms: 0,
        policy,
    });
    assert_eq!(cache.options().capacity, 1);
    for now in [0, u64::MAX - 1, u64::MAX] {
        match cache
            .lookup("https://a.test/x", now, WhenFetching::Wait)
            .unwrap()
        {
            Lookup::Fetch(lease) => {
                let result = FetchResult {
                    status: Some(503),
                    retry_after_ms: Some(u64::MAX),
                    ..Default::default()
                };
                cache.store(lease, now, &result).unwrap();
            }
            Lookup::Ready { .. } | Lookup::Wait { .. } => {}
        }
    }
    let mut entry = Entry::new();
    entry.record(
        u64::MAX,
        &FetchResult {
            status: Some(200),
            max_age_ms: Some(u64::MAX),
            ..Default::default()
        },
        &policy,
    );
    assert!(!entry.is_due(u64::MAX - 1));
    assert!(matches!(entry.answer(u64::MAX, &policy), Answer::Rules(_)));
    let pacer = Pacer::new(PacerOptions {
        floor_ms: u64::MAX,
        backoff_cap_ms: u64::MAX,
        capacity: 0,
        max_in_flight: 0,
        in_flight_timeout_ms: u64::MAX,
    });
    let mut ticket = pacer.reserve("a.test", u64::MAX).unwrap().unwrap();
    assert_eq!(ticket.start(), u64::MAX);
    assert_eq!(
        pacer.confirm(&mut ticket, u64::MAX).unwrap(),
        robotstxt::Confirm::Go
    );
    pacer
        .record("a.test", u64::MAX, Some(503), Some(u64::MAX))
        .unwrap();
    pacer
        .set_delay("a.test", Some(Duration::MAX), None)
        .unwrap();
    assert_eq!(pacer.gap_ms("a.test").unwrap(), u64::MAX);
    assert!(pacer.reserve("", 0).is_err());
    assert!(pacer.reserve("h".repeat(1_000_000), 0).is_err());
}

#[test]
fn odd_urls_for_the_cache() {
    let cache = Cache::new(CacheOptions::default());
    for bad in [
        &b""[..],
        b"/x",
        b"example.com/x",
        b"ftp://a/",
        b"https://",
        b"https://a:port/",
        b"\xff://a/",
    ] {
        let e = cache.lookup(bad, 0, WhenFetching::Wait).unwrap_err();
        assert!(matches!(e, Error::InvalidUrl { .. }), "{e}");
    }
    let long = format!("https://{}/", "h".repeat(1_000_000));
    assert!(cache.lookup(long, 0, WhenFetching::Wait).is_err());
    assert!(cache.is_empty());
}

// --- regressions found by fuzzing (fuzz/fuzz_targets/*.rs) ---

/// fuzz `cache`: a lease that ran out without a store or an abandon (the
/// fetching worker died) kept its origin from being evicted, so the cache
/// grew past its capacity. A lease that has run out is no fetch under way.
#[test]
fn an_expired_lease_does_not_pin_its_origin() {
    let cache = Cache::new(CacheOptions {
        capacity: 1,
        lease_ms: 10,
        ..CacheOptions::default()
    });
    let Lookup::Fetch(lease) = cache
        .lookup("https://a.test/", 0, WhenFetching::Wait)
        .unwrap()
    else {
        panic!("a fetch for a new origin")
    };
    // The worker died without ending it (dropping it would give it back).
    std::mem::forget(lease);
    // While the lease runs, its origin stays beside a new one.
    assert!(matches!(
        cache
            .lookup("https://b.test/", 5, WhenFetching::Wait)
            .unwrap(),
        Lookup::Fetch(_)
    ));
    assert_eq!(cache.len(), 2);
    // Once it has run out, a new origin evicts it (each new origin evicts
    // one); before the fix, the cache grew by one origin each time.
    for (i, origin) in ["https://c.test/", "https://d.test/", "https://e.test/"]
        .iter()
        .enumerate()
    {
        let now = 100 * (i as u64 + 1);
        assert!(matches!(
            cache.lookup(origin, now, WhenFetching::Wait).unwrap(),
            Lookup::Fetch(_)
        ));
        assert_eq!((cache.len(), cache.stats().evictions), (2, i as u64 + 1));
    }
    // A lease still running keeps its origin.
    let cache = Cache::new(CacheOptions {
        capacity: 1,
        lease_ms: 1_000,
        ..CacheOptions::default()
    });
    let _a = cache
        .lookup("https://a.test/", 0, WhenFetching::Wait)
        .unwrap();
    let _b = cache
        .lookup("https://b.test/", 1, WhenFetching::Wait)
        .unwrap();
    assert_eq!((cache.len(), cache.stats().evictions), (2, 0));
}

// --- the cost bound, measured (printed, not asserted) ---

#[test]
fn worst_case_costs() {
    let stars = format!("User-agent: *\nDisallow: {}\n", many_stars());
    let mut rules100k = String::from("User-agent: *\n");
    for i in 0..100_000 {
        rules100k += &format!("Disallow: /p{i:05}/\n");
    }
    let url = megabyte_url("");
    // 4,999 `a`s, then a megabyte without one: the 5,000th segment is
    // looked for all the way to the end.
    let almost = format!("/{}{}", "a".repeat(4_999), "b".repeat(1_000_000));
    let raw = [b"/a".as_slice(), &[0xff; 1_000_000]].concat();
    let (file, bytes) = common::largest_robots();
    let largest = common::read(&file);
    println!("worst case: the largest corpus file is {file}, {bytes} bytes");
    let (twice, holds_all) = rules_twice();
    for profile in PROFILES {
        let opts = raised(profile, 1 << 22);
        let star_rules = rules(&Robots::parse_with(stars.as_bytes(), &opts));
        let many_rules = rules(&Robots::parse_with(rules100k.as_bytes(), &opts));
        let twice_rules = rules(&parse(twice.as_bytes(), profile));
        let short = &holds_all[..2_048];
        let name = profile.name();
        let lines = [
            (
                "check: 5,000 `*` pattern, 1 MB URL (match)",
                median(|| assert!(!star_rules.can_fetch(&url))),
            ),
            (
                "check: 5,000 `*` pattern, 1 MB URL (no match)",
                median(|| assert!(star_rules.can_fetch(&almost))),
            ),
            (
                "check: 100,000 rules, 1 MB URL (no match)",
                median(|| assert!(many_rules.can_fetch(&url))),
            ),
            (
                "check: 100,000 rules, last rule matches",
                median(|| assert!(!many_rules.can_fetch("/p99999/x"))),
            ),
            (
                "check: 19,600 rules `/*qN*qN` (500 KiB), the URL's first 2 KiB",
                median(|| assert!(twice_rules.can_fetch(short))),
            ),
            (
                "check: 1 MB of bytes >= 0x80 (RFC encodes to 3 MB)",
                median(|| {
                    star_rules.can_fetch(&raw);
                }),
            ),
            (
                "parse: largest corpus file, default 500 KiB limit",
                median(|| {
                    parse(&largest, profile);
                }),
            ),
            (
                "parse: largest corpus file, whole (4 MiB limit)",
                median(|| {
                    Robots::parse_with(&largest, &opts);
                }),
            ),
        ];
        for (what, took) in lines {
            println!("worst case [{name}] {what}: {took:?}");
        }
    }
}

fn median(f: impl FnMut()) -> Duration {
    median_of(11, f)
}

fn median_of(n: usize, mut f: impl FnMut()) -> Duration {
    let mut times: Vec<Duration> = (0..n)
        .map(|_| {
            let start = Instant::now();
            f();
            start.elapsed()
        })
        .collect();
    times.sort();
    times[times.len() / 2]
}

/// The O(path × patterns) bound at its worst within the default parse
/// limit: ~19,600 rules `/*qNNNNN*qNNNNN` (500 KiB), and a 118 KB URL that
/// holds every qNNNNN once, so that every rule finds its first segment and
/// then looks for the second all the way to the end of the URL.
fn rules_twice() -> (String, String) {
    let mut twice = String::from("User-agent: *\n");
    let mut holds_all = String::from("/");
    for i in 0.. {
        let line = format!("Disallow: /*q{i:05}*q{i:05}\n");
        if twice.len() + line.len() > MIN_PARSE_LIMIT {
            break;
        }
        twice += &line;
        holds_all += &format!("q{i:05}");
    }
    (twice, holds_all)
}

/// Seconds per check: run by `make worst-case` only (`--include-ignored`).
#[test]
#[ignore = "takes seconds: make worst-case runs it"]
fn worst_case_quadratic() {
    let (twice, holds_all) = rules_twice();
    for profile in PROFILES {
        let r = rules(&parse(twice.as_bytes(), profile));
        let took = median_of(1, || assert!(r.can_fetch(&holds_all)));
        println!(
            "worst case [{}] check: 19,600 rules `/*qN*qN` (500 KiB), a 118 KB URL holding every qN: {took:?}",
            profile.name()
        );
    }
}
