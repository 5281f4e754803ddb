//! Matching (behaviour §3–§4) against the naive reference of
//! `tests/matcher_props.rs` (`fuzz/common/naive.rs`).
//!
//! The first byte picks a mode:
//! - even: an arbitrary body, token and URL: the input's last line is the
//!   URL, the line before it the token, the rest the body. Both profiles
//!   answer without panicking and consistently.
//! - odd: a generated file, `User-agent: *` plus allow/disallow lines, then
//!   an `OtherBot` group, with patterns and a path drawn from small
//!   alphabets; the answer, the deciding line and pattern must be the
//!   reference's (longest match wins, allow wins ties, `*` and `$`, Google's
//!   percent-normalised patterns and `index.html` rule).

#![no_main]

use libfuzzer_sys::fuzz_target;
use robotstxt::{DecisionKind, Options, Profile, Robots};

#[path = "../common/naive.rs"]
mod naive;

use naive::NaiveRule;

fuzz_target!(|data: &[u8]| {
    match data.split_first() {
        Some((mode, rest)) if mode % 2 == 1 => generated(*mode, rest),
        Some((_, rest)) => arbitrary(rest),
        None => {}
    }
});

fn arbitrary(input: &[u8]) {
    let mut parts = input.rsplitn(3, |&b| b == b'\n');
    let url = parts.next().unwrap_or_default();
    let token = parts.next().unwrap_or_default();
    let body = parts.next().unwrap_or_default();
    for profile in [Profile::Rfc9309, Profile::Google] {
        let robots = Robots::parse_with(body, &Options::new(profile));
        let valid = !token.is_empty()
            && token
                .iter()
                .all(|&b| b.is_ascii_alphabetic() || b == b'_' || b == b'-');
        let rules = match robots.rules_for(token) {
            Ok(rules) => {
                assert!(profile == Profile::Google || valid);
                rules
            }
            Err(e) => {
                assert!(profile == Profile::Rfc9309 && !valid, "{e}");
                assert!(!e.to_string().is_empty());
                robots.rules_for("ExampleBot").unwrap()
            }
        };
        let d = rules.decide(url);
        assert_eq!(d.allowed, rules.can_fetch(url));
        assert_eq!(d.kind == DecisionKind::NoMatch, d.line == 0);
        assert_eq!(d.kind == DecisionKind::NoMatch, d.pattern.is_empty());
        if d.kind != DecisionKind::NoMatch {
            assert_eq!(d.allowed, d.kind == DecisionKind::Allow);
        }
        // The Google profile compares a plain path as given.
        let plain = url.starts_with(b"/") && !url.starts_with(b"//") && !url.contains(&b'#');
        let stars = d.pattern.bytes().filter(|&b| b == b'*').count();
        if profile == Profile::Google
            && plain
            && stars <= 4
            && url.len() <= 40
            && !d.pattern.is_empty()
        {
            assert!(naive::naive_matches(d.pattern.as_bytes(), url), "{d:?}");
        }
    }
}

/// Pattern pieces for the Google profile: no whitespace, `#`, line ends or
/// NUL (the lexer's business, not the matcher's); `%` escapes in both cases
/// and a raw byte ≥ 0x80 to exercise normalisation; `index.htm` for
/// Google's extra rule.
const GOOGLE_PATTERN: &[&[u8]] = &[
    b"/",
    b"/",
    b"a",
    b"b",
    b"*",
    b"*",
    b"$",
    b"%",
    b"2f",
    b"%2f",
    b"%2F",
    b"%e3",
    b"\xe3",
    b".",
    b"?",
    b"=",
    b"index.htm",
    b"index.html",
    b":",
    b";",
    b"A",
    b"-",
];
/// Path pieces for the Google profile (compared as given: a raw 0xE3 never
/// matches `%E3`, `%2f` never matches `%2F`).
const GOOGLE_PATH: &[&[u8]] = &[
    b"/",
    b"/",
    b"a",
    b"b",
    b"*",
    b"$",
    b"%",
    b"2f",
    b"%2f",
    b"%2F",
    b"%E3",
    b"\xe3",
    b".",
    b"?",
    b"=",
    b"index.html",
    b"index.htm",
    b":",
    b";",
    b"A",
    b"-",
];
/// The RFC profile normalises paths too: pieces that need no normalising,
/// so the reference can compare bytes (`$` only at a pattern's end).
const RFC_PATTERN: &[&[u8]] = &[
    b"/", b"/", b"a", b"b", b"*", b"*", b".", b"-", b"_", b"~", b"ab",
];
const RFC_PATH: &[&[u8]] = &[b"/", b"/", b"a", b"b", b".", b"-", b"_", b"~"];

/// How a rule line may be spelt.
const ALLOW_KEYS: &[&str] = &["Allow: ", "allow:", "ALLOW :", "Allow "];
const DISALLOW_KEYS: &[&str] = &["Disallow: ", "disallow:", "Dissallow: ", "DISALLOW "];

/// Up to `max` pieces from `bytes`, each byte choosing one.
fn pieces(bytes: &[u8], alphabet: &[&[u8]], max: usize) -> Vec<u8> {
    let mut out = Vec::new();
    for &b in bytes.iter().take(max) {
        out.extend_from_slice(alphabet[usize::from(b) % alphabet.len()]);
    }
    out
}

fn generated(mode: u8, input: &[u8]) {
    let google = mode & 2 != 0;
    let profile = if google {
        Profile::Google
    } else {
        Profile::Rfc9309
    };
    let (pattern_alpha, path_alpha) = if google {
        (GOOGLE_PATTERN, GOOGLE_PATH)
    } else {
        (RFC_PATTERN, RFC_PATH)
    };
    // Segments: the token choice, the path, then one rule per segment.
    let mut segments = input.split(|&b| b == 0xFF);
    let token_choice = segments.next().unwrap_or_default();
    let path_bytes = segments.next().unwrap_or_default();
    let mut body = String::from("User-agent: *\n");
    let mut text: Vec<u8> = body.clone().into_bytes();
    let mut line = 1u32;
    let (mut star_rules, mut other_rules) = (Vec::new(), Vec::new());
    let mut in_other = false;
    for segment in segments.take(16) {
        let Some((&flags, rest)) = segment.split_first() else {
            continue;
        };
        if flags & 0x80 != 0 && !in_other {
            // Close the `*` group (an empty rule is no rule but ends it),
            // then start the OtherBot group.
            text.extend_from_slice(b"Disallow:\nUser-agent: OtherBot\n");
            line += 2;
            in_other = true;
        }
        let allow = flags & 1 != 0;
        let keys = if allow { ALLOW_KEYS } else { DISALLOW_KEYS };
        let mut key = keys[usize::from(flags >> 1) % keys.len()];
        let mut value = pieces(rest, pattern_alpha, 10);
        // At most 4 `*`: the reference is exponential in them.
        let mut stars = 0;
        for b in value.iter_mut() {
            if *b == b'*' {
                stars += 1;
                if stars > 4 {
                    *b = b'a';
                }
            }
        }
        if !google && flags & 0x40 != 0 {
            value.push(b'$');
        }
        // A missing colon needs a value, and one without a colon of its own.
        if !key.contains(':') && (value.is_empty() || value.contains(&b':')) {
            key = keys[0];
        }
        text.extend_from_slice(key.as_bytes());
        text.extend_from_slice(&value);
        text.push(b'\n');
        line += 1;
        let rules = if in_other {
            &mut other_rules
        } else {
            &mut star_rules
        };
        if value.is_empty() {
            continue;
        }
        let pattern = if google {
            naive::google_pattern(&value)
        } else {
            value
        };
        let extra = if google && allow {
            naive::google_index_extra(&pattern)
        } else {
            None
        };
        rules.push(NaiveRule {
            line,
            allow,
            pattern,
        });
        if let Some(pattern) = extra {
            rules.push(NaiveRule {
                line,
                allow,
                pattern,
            });
        }
    }
    body.clear();
    let token: &[u8] = match token_choice.first().map(|b| b % 4) {
        Some(0) => b"OtherBot",
        Some(1) => b"otherbot",
        Some(2) if google => &token_choice[1..],
        _ => b"ExampleBot",
    };
    let named = in_other && token.eq_ignore_ascii_case(b"otherbot");
    let expected_rules = if named { &other_rules } else { &star_rules };
    // At most 40 bytes: the reference tries every stretch of 4 `*`.
    let mut path = b"/".to_vec();
    path.extend(pieces(
        path_bytes.get(1..).unwrap_or_default(),
        path_alpha,
        16,
    ));
    path.truncate(40);
    // A path that starts with `//` is a scheme-relative URL, not a path
    // (behaviour §4): it goes after a host.
    let url = match path_bytes.first().map(|b| b % 3) {
        Some(2) => [&b"//example.com"[..], &path].concat(),
        Some(0) | None if !path.starts_with(b"//") => path.clone(),
        _ => [&b"https://example.com"[..], &path].concat(),
    };

    let robots = Robots::parse_with(&text, &Options::new(profile));
    let rules = robots.rules_for(token).unwrap();
    let got = rules.decide(&url);
    let want = naive::naive_decide(expected_rules, &path);
    let show = || {
        format!(
            "body:\n{}\ntoken {:?} url {:?}\ngot {got:?}\nwant {want:?}",
            String::from_utf8_lossy(&text),
            String::from_utf8_lossy(token),
            String::from_utf8_lossy(&url)
        )
    };
    match want {
        None => assert_eq!(got.kind, DecisionKind::NoMatch, "{}", show()),
        Some(rule) => {
            assert_eq!(got.allowed, rule.allow, "{}", show());
            assert_eq!(got.line, rule.line, "{}", show());
            assert_eq!(got.pattern.as_bytes(), &rule.pattern[..], "{}", show());
        }
    }
    assert_eq!(
        got.allowed,
        naive::naive_allowed(expected_rules, &path),
        "{}",
        show()
    );
    assert_eq!(rules.can_fetch(&url), got.allowed);
}
