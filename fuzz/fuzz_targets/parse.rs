//! Any bytes parse, in both profiles and with every option (typos off, a
//! raised parse limit), and the parsed file answers consistently:
//! `decide(url).allowed == can_fetch(url)`, a decision names a real rule,
//! strictest-of is the AND of its tokens, and the parse limit drops exactly
//! the line it cuts (behaviour §1).

#![no_main]

use libfuzzer_sys::fuzz_target;
use robotstxt::{DecisionKind, Options, Profile, Robots, Rules, MIN_PARSE_LIMIT};

#[path = "../common/naive.rs"]
mod naive;

fuzz_target!(|data: &[u8]| {
    let configs = [
        Options::new(Profile::Rfc9309),
        Options::new(Profile::Google),
        Options::new(Profile::Rfc9309).with_typos(false),
        Options::new(Profile::Google)
            .with_typos(false)
            .with_parse_limit(1 << 20)
            .unwrap(),
    ];
    let urls = urls_from(data);
    let tokens = tokens_from(data);
    // Selecting builds an index per selection, slow under the sanitizer:
    // the last two configurations select for one token only.
    for (i, options) in configs.iter().enumerate() {
        let robots = Robots::parse_with(data, options);
        check(&robots, options, data, &tokens, &urls, i < 2);
    }
    // One input in 256 also straddles the parse limit, in one profile
    // (half a megabyte of padding is slow to parse under the sanitizer).
    if data.len() >= 2 && data[0] == b'L' {
        parse_limit(data, &tokens, &urls, data[1] % 2 == 0);
    }
});

/// URLs to ask: fixed ones and the values of the body's first lines (so
/// rules written in the body get hit).
fn urls_from(data: &[u8]) -> Vec<Vec<u8>> {
    let mut urls: Vec<Vec<u8>> = [
        &b"/"[..],
        b"/robots.txt",
        b"https://example.com/a/b?c=d#e",
        b"//x/y",
        b"",
        b"/%E3%83%84/*$",
    ]
    .iter()
    .map(|u| u.to_vec())
    .collect();
    for line in data.split(|&b| b == b'\n').take(8) {
        if let Some(colon) = line.iter().position(|&b| b == b':') {
            let value = line[colon + 1..].trim_ascii();
            urls.push(value.to_vec());
            // The value with its `*` and `$` taken literally.
            urls.push(
                value
                    .iter()
                    .map(|&b| if b == b'*' { b'x' } else { b })
                    .collect(),
            );
        }
    }
    urls
}

/// Tokens to select with: fixed ones, and the first product token written
/// after an `agent:` in the body.
fn tokens_from(data: &[u8]) -> Vec<Vec<u8>> {
    let mut tokens = vec![b"ExampleBot".to_vec(), b"googlebot".to_vec()];
    if let Some(at) = data
        .windows(6)
        .position(|w| w.eq_ignore_ascii_case(b"agent:"))
    {
        let value = data[at + 6..].trim_ascii_start();
        let end = value
            .iter()
            .position(|&b| !(b.is_ascii_alphabetic() || b == b'_' || b == b'-'))
            .unwrap_or(value.len());
        if end > 0 {
            tokens.push(value[..end].to_vec());
        }
    }
    tokens
}

fn check(
    robots: &Robots,
    options: &Options,
    data: &[u8],
    tokens: &[Vec<u8>],
    urls: &[Vec<u8>],
    full: bool,
) {
    assert_eq!(robots.profile(), options.profile());
    // Lines are counted 1-based; there are at most as many as line ends + 1.
    let max_line = data.iter().filter(|&&b| b == b'\n' || b == b'\r').count() as u32 + 1;
    let mut last = 0;
    for d in robots.diagnostics() {
        assert!(d.line > last && d.line <= max_line, "{d:?} after {last}");
        last = d.line;
        let _ = d.flag_names().count();
    }
    let n = robots.sitemaps().len();
    for (i, s) in robots.sitemaps().enumerate() {
        assert_eq!(robots.sitemap(i), Some(s));
    }
    assert_eq!(robots.sitemap(n), None);
    let _ = robots.host();
    assert!(robots.rule_count() <= 2 * data.len());
    assert!(robots.group_count() <= data.len());

    // Selecting: the RFC profile wants a product token, Google takes any.
    let google = options.profile() == Profile::Google;
    let bad: &[&[u8]] = if google {
        &[b"*"]
    } else {
        &[b"", b"*", b"MyBot/1.0", b"\xff"]
    };
    for bad in bad {
        assert_eq!(robots.rules_for(bad).is_ok(), google);
    }
    assert!(robots.rules_for_any::<&[u8]>(&[]).is_err());
    let tokens = if full { tokens } else { &tokens[..1] };
    let selected: Vec<Rules> = tokens
        .iter()
        .map(|t| robots.rules_for(t).expect("a product token"))
        .collect();
    for (rules, token) in selected.iter().zip(tokens) {
        for url in urls {
            ask(rules, url, max_line);
        }
        let _ = (rules.crawl_delay(), rules.request_rate(), rules.len());
        assert_eq!(rules.profile(), options.profile());
        let _ = token;
    }
    if !full {
        return;
    }
    // Strictest-of allows only what each token's own selection allows.
    let strictest = robots.rules_for_strictest(tokens).unwrap();
    let any = robots.rules_for_any(tokens).unwrap();
    for url in urls {
        let each = selected.iter().all(|r| r.can_fetch(url));
        assert_eq!(
            strictest.can_fetch(url),
            each,
            "{:?}",
            String::from_utf8_lossy(url)
        );
        ask(&any, url, max_line);
    }
    assert_eq!(
        strictest.crawl_delay(),
        selected.iter().filter_map(Rules::crawl_delay).max()
    );
}

fn ask(rules: &Rules, url: &[u8], max_line: u32) {
    let d = rules.decide(url);
    assert_eq!(d.allowed, rules.can_fetch(url));
    match d.kind {
        DecisionKind::NoMatch => {
            assert!(d.allowed && d.line == 0 && d.pattern.is_empty(), "{d:?}")
        }
        // Only rules that stand for no file (a cache's blanket answer) do.
        DecisionKind::AllowAll | DecisionKind::DisallowAll => {
            panic!("a parsed file's rules decided as a blanket answer: {d:?}")
        }
        DecisionKind::Allow | DecisionKind::Disallow => {
            assert_eq!(d.allowed, d.kind == DecisionKind::Allow);
            assert!(d.line >= 1 && d.line <= max_line, "{d:?}");
            assert!(!d.pattern.is_empty() && d.pattern.is_ascii(), "{d:?}");
            // A plain path is compared as given in the Google profile: the
            // deciding pattern must match it (checked with the naive
            // reference when it is small enough).
            let plain = url.starts_with(b"/") && !url.starts_with(b"//") && !url.contains(&b'#');
            let stars = d.pattern.bytes().filter(|&b| b == b'*').count();
            if rules.profile() == Profile::Google && plain && stars <= 4 && url.len() <= 40 {
                assert!(
                    naive::naive_matches(d.pattern.as_bytes(), url),
                    "{d:?} does not match {:?}",
                    String::from_utf8_lossy(url)
                );
            }
        }
    }
}

/// behaviour §1: only the first 512,000 bytes are parsed, and a line the limit
/// cuts is dropped. A comment line pads the input so that the limit falls
/// in its middle; the answers must be those of the body cut by hand.
fn parse_limit(data: &[u8], tokens: &[Vec<u8>], urls: &[Vec<u8>], google: bool) {
    let limit = MIN_PARSE_LIMIT;
    let keep = data.len() / 2;
    let mut padded = vec![b'#'; limit - keep - 1];
    padded.push(b'\n');
    padded.extend_from_slice(data);
    // By hand: the first `limit` bytes, less a last line that does not end
    // there (unless the next byte would have ended it).
    let mut cut = &padded[..limit];
    if !matches!(padded[limit], b'\n' | b'\r') {
        let end = cut
            .iter()
            .rposition(|&b| b == b'\n' || b == b'\r')
            .map_or(0, |i| i + 1);
        cut = &cut[..end];
    }
    {
        let profile = if google {
            Profile::Google
        } else {
            Profile::Rfc9309
        };
        let options = Options::new(profile);
        let raised = options.with_parse_limit(2 * limit).unwrap();
        let limited = Robots::parse_with(&padded, &options);
        let by_hand = Robots::parse_with(cut, &raised);
        assert_eq!(limited.rule_count(), by_hand.rule_count());
        assert_eq!(limited.group_count(), by_hand.group_count());
        assert!(limited.sitemaps().eq(by_hand.sitemaps()));
        assert_eq!(limited.host(), by_hand.host());
        assert_eq!(limited.diagnostics(), by_hand.diagnostics());
        for token in tokens {
            let (a, b) = (
                limited.rules_for(token).unwrap(),
                by_hand.rules_for(token).unwrap(),
            );
            for url in urls {
                assert_eq!(a.decide(url), b.decide(url));
            }
            assert_eq!(a.crawl_delay(), b.crawl_delay());
        }
    }
}
