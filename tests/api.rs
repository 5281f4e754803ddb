//! The shape of the public API: thread-safety, ownership, errors.

use robotstxt::{DecisionKind, Error, Options, Profile, Robots, Rules, MIN_PARSE_LIMIT};

#[test]
fn handles_are_send_and_sync() {
    fn shareable<T: Send + Sync + Clone + 'static>() {}
    shareable::<Robots>();
    shareable::<Rules>();
    shareable::<robotstxt::Entry>();
}

#[test]
fn rules_outlive_their_robots() {
    let rules = {
        let robots = Robots::parse(b"User-agent: *\nDisallow: /x\n");
        robots.rules_for("ExampleBot").unwrap()
    };
    assert!(!rules.can_fetch("/x/y"));
    assert_eq!(rules.decide("/x").pattern, "/x");
}

#[test]
fn rules_are_shared_across_threads() {
    let robots = Robots::parse(b"User-agent: *\nDisallow: /private\nAllow: /private/ok\n");
    let rules = robots.rules_for("ExampleBot").unwrap();
    std::thread::scope(|s| {
        for t in 0..16 {
            let rules = &rules;
            s.spawn(move || {
                for i in 0..1000 {
                    let url = format!("/private/{}{t}", if i % 2 == 0 { "ok" } else { "no" });
                    assert_eq!(rules.can_fetch(&url), i % 2 == 0, "{url}");
                }
            });
        }
    });
}

#[test]
fn token_errors_name_what_was_passed() {
    let robots = Robots::parse(b"User-agent: *\nDisallow: /\n");
    let header = "Mozilla/5.0 (compatible; NimbuBot/1.0)";
    let err = robots.rules_for(header).unwrap_err();
    assert_eq!(
        err,
        Error::InvalidToken {
            token: header.to_owned()
        }
    );
    let message = err.to_string();
    assert!(
        message.contains(header) && message.contains("ExampleBot"),
        "{message}"
    );
    assert!(matches!(
        robots.rules_for_any::<&str>(&[]),
        Err(Error::NoTokens)
    ));
    assert!(robots.rules_for_strictest(&["a", "b c"]).is_err());
    // Non-UTF-8 tokens are reported lossily, never panic.
    assert!(robots
        .rules_for(b"\xFFbot")
        .unwrap_err()
        .to_string()
        .contains('\u{FFFD}'));
    // The Google profile takes any string, compared whole.
    let google = Robots::parse_with(
        b"User-agent: *\nDisallow: /\n",
        &Options::new(Profile::Google),
    );
    assert!(!google.rules_for(header).unwrap().can_fetch("/x"));
}

#[test]
fn parse_limit_is_never_below_500_kib() {
    let err = Options::default()
        .with_parse_limit(MIN_PARSE_LIMIT - 1)
        .unwrap_err();
    assert!(err.to_string().contains("511999"), "{err}");
    assert!(Options::default().with_parse_limit(usize::MAX).is_err());
    assert_eq!(
        Options::default()
            .with_parse_limit(1 << 20)
            .unwrap()
            .parse_limit(),
        1 << 20
    );
}

#[test]
fn strictest_of_takes_every_token_into_account() {
    let robots = Robots::parse(
        b"User-agent: GPTBot\nDisallow: /ai/\nCrawl-delay: 9\n\nUser-agent: MyBot\nDisallow: /me/\nCrawl-delay: 1\n",
    );
    let rules = robots.rules_for_strictest(&["MyBot", "GPTBot"]).unwrap();
    assert!(!rules.can_fetch("/ai/x") && !rules.can_fetch("/me/x") && rules.can_fetch("/x"));
    assert_eq!(rules.crawl_delay().unwrap().as_secs(), 9);
    let merged = robots.rules_for_any(&["MyBot", "GPTBot"]).unwrap();
    assert!(!merged.can_fetch("/ai/x") && !merged.can_fetch("/me/x"));
}

#[test]
fn prefetching_changes_no_answer_whatever_the_size() {
    // Empty, blanket, small and large indexes (the large one past the
    // 64 lines prefetched whole), wildcards included.
    let mut large = String::from("User-agent: *\n");
    for i in 0..5000 {
        large += &format!("Disallow: /p{i}/\nAllow: /p{i}/*.css$\n");
    }
    let bodies = [String::new(), "User-agent: *\nDisallow: /a\n".into(), large];
    let urls = ["/", "/a", "/p17/x", "/p17/x.css", "/p4999/", "/q"];
    for body in &bodies {
        let robots = Robots::parse(body.as_bytes());
        let rules = robots.rules_for("ExampleBot").unwrap();
        let before: Vec<bool> = urls.iter().map(|u| rules.can_fetch(u)).collect();
        rules.prefetch();
        let after: Vec<bool> = urls.iter().map(|u| rules.can_fetch(u)).collect();
        assert_eq!(before, after, "{}", body.len());
    }
    for rules in [
        Rules::allow_all(Profile::Rfc9309),
        Rules::disallow_all(Profile::Google),
    ] {
        rules.prefetch();
        assert_eq!(rules.can_fetch("/x"), rules.blanket_answer().unwrap());
    }
}

#[test]
fn rules_that_match_nothing_answer_every_url_alike() {
    // A file with no group for the crawler, an empty file and allow-all
    // answer without cutting the URL: whatever the URL, allowed, no rule.
    // Disallow-all still cuts it: /robots.txt stays allowed (RFC).
    let urls: [&[u8]; 6] = [
        b"",
        b"/",
        b"https://h/a%2Fb*$",
        b"\xFF\x00#",
        b"//h",
        b"/robots.txt",
    ];
    let unnamed = Robots::parse(b"User-agent: OtherBot\nDisallow: /\n");
    let empty = Robots::parse(b"");
    for rules in [
        unnamed.rules_for("ExampleBot").unwrap(),
        empty.rules_for("ExampleBot").unwrap(),
        Rules::allow_all(Profile::Rfc9309),
        Rules::allow_all(Profile::Google),
    ] {
        assert!(rules.is_empty());
        for url in urls {
            assert!(rules.can_fetch(url), "{url:?}");
            let decision = rules.decide(url);
            // A blanket answer says so; a file's rules that match nothing
            // say no rule matched.
            let kind = match rules.blanket_answer() {
                Some(_) => DecisionKind::AllowAll,
                None => DecisionKind::NoMatch,
            };
            assert_eq!((decision.kind, decision.line), (kind, 0), "{url:?}");
        }
    }
    let closed = Rules::disallow_all(Profile::Google);
    let decision = closed.decide("/x");
    assert_eq!(
        (decision.allowed, decision.kind, decision.line),
        (false, DecisionKind::DisallowAll, 0)
    );
    let closed = Rules::disallow_all(Profile::Rfc9309);
    assert!(closed.can_fetch("https://h/robots.txt") && closed.can_fetch("/robots%2Etxt"));
    assert!(!closed.can_fetch("/") && !closed.can_fetch(""));
    let named = unnamed.rules_for("OtherBot").unwrap();
    assert!(!named.can_fetch("/x") && named.can_fetch("/robots.txt"));
    // Strictest-of: one token's selection is empty, the other's is not:
    // the rules still match.
    let strictest = unnamed
        .rules_for_strictest(&["OtherBot", "ExampleBot"])
        .unwrap();
    assert!(!strictest.can_fetch("/x") && !strictest.is_empty());
    for order in [["ExampleBot", "OtherBot"], ["OtherBot", "ExampleBot"]] {
        assert!(!unnamed.rules_for_strictest(&order).unwrap().can_fetch("/x"));
    }
}

#[test]
fn parses_in_a_row_share_nothing() {
    // Each thread reuses its working vectors from one parse to the next:
    // a parse must see none of the previous one, after a large body as
    // after a small one, on any thread.
    let mut large = String::from("User-agent: *\nSitemap: https://a.test/big.xml\n");
    for i in 0..20_000 {
        large += &format!("Disallow: /big{i}/\n");
    }
    let small = "User-agent: ExampleBot\nAllow: /x\nDisallow: /\nSitemap: https://b.test/s.xml\nNoindex: /y\n";
    let summary = |body: &str| {
        let robots = Robots::parse(body.as_bytes());
        let rules = robots.rules_for("ExampleBot").unwrap();
        (
            robots.rule_count(),
            robots.group_count(),
            robots.sitemaps().map(<[u8]>::to_vec).collect::<Vec<_>>(),
            robots.diagnostics().len(),
            ["/x", "/big7/", "/z"].map(|u| rules.can_fetch(u)),
        )
    };
    let want_small = summary(small);
    let want_large = summary(&large);
    assert_eq!(want_small.0, 2);
    assert_eq!(want_large.0, 20_000);
    let threads: Vec<_> = (0..4)
        .map(|t| {
            let (large, small) = (large.clone(), small.to_string());
            let (want_small, want_large) = (want_small.clone(), want_large.clone());
            std::thread::spawn(move || {
                for round in 0..6 {
                    if (round + t) % 2 == 0 {
                        assert_eq!(summary(&large), want_large);
                    } else {
                        assert_eq!(summary(&small), want_small);
                    }
                }
            })
        })
        .collect();
    for thread in threads {
        thread.join().unwrap();
    }
    assert_eq!(summary(small), want_small);
}
