//! Property tests (paths never start with `//`, which is a scheme-relative
//! URL): the matcher against a deliberately naive reference
//! (§2.2.2–2.2.3), on random patterns with `*` and `$` and random paths,
//! both by the scan a selection starts with and through its index.

use proptest::prelude::*;
use robotstxt::{Decision, Options, Profile, Robots, Rules};

/// Tries every way `*` can stretch: exponential, obviously right.
fn naive_matches(pattern: &[u8], path: &[u8]) -> bool {
    match pattern {
        [] => true,
        [b'$'] => path.is_empty(),
        [b'*', rest @ ..] => (0..=path.len()).any(|i| naive_matches(rest, &path[i..])),
        [c, rest @ ..] => path.first() == Some(c) && naive_matches(rest, &path[1..]),
    }
}

/// The naive answer for rules `(allow, pattern)`: longest match wins, allow
/// wins ties, empty patterns are not rules.
fn naive_allowed(rules: &[(bool, String)], path: &str) -> bool {
    let best = rules
        .iter()
        .filter(|(_, p)| !p.is_empty() && naive_matches(p.as_bytes(), path.as_bytes()))
        .map(|(allow, p)| (p.len(), *allow))
        .max();
    best.is_none_or(|(_, allow)| allow)
}

fn body_of(rules: &[(bool, String)]) -> String {
    let mut body = String::from("User-agent: *\n");
    for (allow, pattern) in rules {
        body += &format!("{}: {pattern}\n", if *allow { "Allow" } else { "Disallow" });
    }
    body
}

/// The answers of `rules` for `path` both ways a selection answers: by
/// scanning its rules (its first questions) and through the index.
fn both_ways(rules: &Rules, path: &str) -> (Decision<'static>, Decision<'static>) {
    let owned = |d: Decision<'_>| Decision {
        pattern: String::leak(d.pattern.to_owned()),
        ..d
    };
    let scanned = owned(rules.clone().decide(path));
    let indexed = rules.clone();
    indexed.compile();
    (scanned, owned(indexed.decide(path)))
}

/// The answer for `path` under `profile`, both ways; they must be the
/// same decision: the same rule, not only the same verdict.
fn answer(profile: Profile, rules: &[(bool, String)], path: &str) -> Result<bool, TestCaseError> {
    let robots = Robots::parse_with(body_of(rules).as_bytes(), &Options::new(profile));
    let (scanned, indexed) = both_ways(&robots.rules_for("ExampleBot").unwrap(), path);
    prop_assert_eq!(scanned, indexed, "{:?} {}", rules, path);
    Ok(indexed.allowed)
}

/// The Google profile compares patterns and paths as given: its answer
/// must be the naive one.
fn google_agrees_with_naive(rules: &[(bool, String)], path: &str) -> Result<(), TestCaseError> {
    let got = answer(Profile::Google, rules, path)?;
    prop_assert_eq!(got, naive_allowed(rules, path), "{:?} {}", rules, path);
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4000))]

    /// Google profile: patterns and paths compared as given.
    #[test]
    fn google_matches_naive(
        rules in prop::collection::vec((any::<bool>(), "/[ab*$]{0,7}|[ab*$/]{0,6}"), 0..10),
        path in "/([ab*$][ab*$/]{0,9})?",
    ) {
        google_agrees_with_naive(&rules, &path)?;
    }

    /// RFC profile: with no bytes to normalise, the same answers (the
    /// `/robots.txt` exemption aside, which these paths never reach).
    #[test]
    fn rfc_matches_naive(
        rules in prop::collection::vec((any::<bool>(), "/[ab*]{0,7}\\$?"), 0..5),
        path in "/([ab.][ab/.]{0,9})?",
    ) {
        let got = answer(Profile::Rfc9309, &rules, &path)?;
        prop_assert_eq!(got, naive_allowed(&rules, &path), "{:?} {}", rules, path);
    }

    /// Many wildcard rules under few prefixes, tried one by one.
    #[test]
    fn many_wildcards_match_naive(
        rules in prop::collection::vec((any::<bool>(), "/[ab]{0,1}\\*[ab*]{1,4}\\$?"), 16..48),
        path in "/([ab][ab/]{0,11})?",
    ) {
        google_agrees_with_naive(&rules, &path)?;
    }

    /// Enough wildcard rules under one prefix for the index's automaton
    /// (from 64 rules with a literal segment; each of these has one): it
    /// must find the same answer as trying every rule.
    #[test]
    fn wildcards_behind_the_automaton_match_naive(
        rules in prop::collection::vec((any::<bool>(), "/\\*[ab*]{0,2}[ab][ab*]{0,2}\\$?"), 64..160),
        path in "/([ab][ab/]{0,11})?",
    ) {
        google_agrees_with_naive(&rules, &path)?;
    }

    /// Long patterns that share their first 16 bytes or so with each other
    /// and the path: the index compares 16 bytes at once, and the bytes
    /// after them must still decide.
    #[test]
    fn long_shared_prefixes_match_naive(
        rules in prop::collection::vec((any::<bool>(), "/a{13,17}[ab*$]{0,5}"), 0..12),
        path in "/a{12,18}([ab/][ab]{0,6})?",
    ) {
        google_agrees_with_naive(&rules, &path)?;
    }

    /// Deciding never panics and agrees with `can_fetch`, whatever the bytes.
    #[test]
    fn any_bytes_decide(body in prop::collection::vec(any::<u8>(), 0..300),
                        url in prop::collection::vec(any::<u8>(), 0..60)) {
        for profile in [Profile::Rfc9309, Profile::Google] {
            let robots = Robots::parse_with(&body, &Options::new(profile));
            let rules = robots.rules_for("ExampleBot").unwrap();
            prop_assert_eq!(rules.clone().decide(&url).allowed, rules.clone().can_fetch(&url));
            rules.compile();
            prop_assert_eq!(rules.decide(&url).allowed, rules.can_fetch(&url));
        }
    }
}

#[test]
fn naive_reference_is_sane() {
    assert!(naive_matches(b"/a*c$", b"/abc"));
    assert!(!naive_matches(b"/a*c$", b"/abcd"));
    assert!(naive_matches(b"/a$b", b"/a$bc"));
}
