//! One raw line → `key: value` (behaviour §2): comments, whitespace, the missing
//! colon, and key recognition by prefix with Google's typos.

use crate::{scan, Profile};

/// The kind of a line, from its key.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum LineKind {
    /// `user-agent` (§2.2.1).
    UserAgent,
    /// `allow` (§2.2.2).
    Allow,
    /// `disallow` (§2.2.2).
    Disallow,
    /// `sitemap` (§2.3.5).
    Sitemap,
    /// `crawl-delay` (extension).
    CrawlDelay,
    /// `request-rate` (extension).
    RequestRate,
    /// `host` (Yandex extension).
    Host,
    /// `content-usage` (usage preferences, behaviour §10).
    ContentUsage,
    /// `content-signal` (Cloudflare's usage signals, behaviour §10.5).
    ContentSignal,
    /// A key the library does not know.
    Unknown,
    /// Not blank, yet no key: no colon and not two words, or an empty key.
    Invalid,
}

impl LineKind {
    /// The kind's name as diagnostics print it (`user-agent`, `crawl-delay`…).
    pub fn name(self) -> &'static str {
        match self {
            LineKind::UserAgent => "user-agent",
            LineKind::Allow => "allow",
            LineKind::Disallow => "disallow",
            LineKind::Sitemap => "sitemap",
            LineKind::CrawlDelay => "crawl-delay",
            LineKind::RequestRate => "request-rate",
            LineKind::Host => "host",
            LineKind::ContentUsage => "content-usage",
            LineKind::ContentSignal => "content-signal",
            LineKind::Unknown => "unknown",
            LineKind::Invalid => "invalid",
        }
    }
}

/// A line with a key.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Record<'a> {
    pub kind: LineKind,
    /// The key as written, trimmed.
    pub key: &'a [u8],
    pub value: &'a [u8],
    pub typo: bool,
    pub missing_colon: bool,
}

/// Keys as Google recognises them: a key is known when it starts with one of
/// these, case-insensitively. The flag marks an accepted typo.
const KEYS: &[(&[u8], LineKind, bool)] = &[
    (b"user-agent", LineKind::UserAgent, false),
    (b"useragent", LineKind::UserAgent, true),
    (b"user agent", LineKind::UserAgent, true),
    (b"allow", LineKind::Allow, false),
    (b"disallow", LineKind::Disallow, false),
    (b"dissallow", LineKind::Disallow, true),
    (b"dissalow", LineKind::Disallow, true),
    (b"disalow", LineKind::Disallow, true),
    (b"diasllow", LineKind::Disallow, true),
    (b"disallaw", LineKind::Disallow, true),
    (b"sitemap", LineKind::Sitemap, false),
    (b"site-map", LineKind::Sitemap, true),
    (b"crawl-delay", LineKind::CrawlDelay, false),
    (b"request-rate", LineKind::RequestRate, false),
    (b"host", LineKind::Host, false),
];

/// Space and tab; the Google profile adds VT and FF, as C's `isspace` does
/// within a line.
pub(crate) fn is_space(profile: Profile, b: u8) -> bool {
    match b {
        b' ' | b'\t' => true,
        0x0B | 0x0C => profile == Profile::Google,
        _ => false,
    }
}

pub(crate) fn trim(profile: Profile, mut s: &[u8]) -> &[u8] {
    while let [first, rest @ ..] = s {
        if !is_space(profile, *first) {
            break;
        }
        s = rest;
    }
    while let [rest @ .., last] = s {
        if !is_space(profile, *last) {
            break;
        }
        s = rest;
    }
    s
}

/// The line `allow: /…` or `disallow: /…` as most rule lines are written
/// (the key alone before the colon, in any case; at most one space
/// after it; a value that starts with `/` and ends in no space), as
/// `read` would take it: whether it allows, and the value. `None` for
/// any other line, which `read` then takes.
#[inline(always)]
pub(crate) fn plain_rule<'a>(
    content: &'a [u8],
    window: &[u8],
    colon: Option<usize>,
    profile: Profile,
) -> Option<(bool, &'a [u8])> {
    const ALLOW: u64 = u64::from_le_bytes(*b"allow\0\0\0");
    const DISALLOW: u64 = u64::from_le_bytes(*b"disallow");
    // The key's letters in lower case (or-ing 0x20 keeps a letter's lower
    // case and changes any other byte into none of these letters).
    let key = u64::from_le_bytes(*window.first_chunk::<8>()?) | 0x2020_2020_2020_2020;
    let allow = match colon? {
        5 if key & 0xFF_FFFF_FFFF == ALLOW => true,
        8 if key == DISALLOW => false,
        _ => return None,
    };
    let after = &content[colon? + 1..];
    let value = match after {
        [b' ', value @ ..] => value,
        value => value,
    };
    match (value.first(), value.last()) {
        (Some(b'/'), Some(&last)) if !is_space(profile, last) => Some((allow, value)),
        _ => None,
    }
}

/// Reads one line's content (comment already cut, see `lex`), whose first
/// `:` is at `colon`; `window` is `content` and the body after it. `None`
/// for a blank or comment-only line.
#[inline]
pub(crate) fn read<'a>(
    content: &'a [u8],
    window: &[u8],
    colon: Option<usize>,
    profile: Profile,
    typos: bool,
) -> Option<Record<'a>> {
    let invalid = Record {
        kind: LineKind::Invalid,
        key: &[],
        value: &[],
        typo: false,
        missing_colon: false,
    };
    let (key, value, missing_colon) = match colon {
        // Key and value are trimmed below: split the untrimmed content.
        Some(colon) => (&content[..colon], &content[colon + 1..], false),
        // A line with a colon is not blank: only a line without one needs
        // trimming whole.
        None => {
            let line = trim(profile, content);
            if line.is_empty() {
                return None;
            }
            // Google accepts `key value` when the line is exactly two runs of
            // non-blanks separated by spaces or tabs (never VT or FF).
            let Some(gap) = line.iter().position(|&b| b == b' ' || b == b'\t') else {
                return Some(invalid);
            };
            let value = &line[gap..];
            let start = value
                .iter()
                .position(|&b| b != b' ' && b != b'\t')
                .unwrap_or(value.len());
            if value[start..].iter().any(|&b| b == b' ' || b == b'\t') {
                return Some(invalid);
            }
            (&line[..gap], value, true)
        }
    };
    let key = trim(profile, key);
    if key.is_empty() {
        return Some(invalid);
    }
    let value = trim(profile, value);
    // The longest known key has 12 bytes: lower-case that much once, then
    // compare plainly, only with keys of the same first letter. The key
    // and what follows it in the body, 16 bytes at once (most lines are
    // shorter than that: `Disallow: /`), when the body has them; else byte
    // by byte (a copy of variable length is a memcpy call).
    let key_at = key.as_ptr() as usize - content.as_ptr() as usize;
    let lower = scan::lower16(window, key_at).unwrap_or_else(|| {
        let mut lower = [0u8; scan::WIDTH];
        for (to, from) in lower.iter_mut().zip(key) {
            *to = from.to_ascii_lowercase();
        }
        lower
    });
    let lower = &lower[..key.len().min(12)];
    // The first letter from the key itself, not from `lower`: which keys
    // to try is the branch on each line that no predictor learns, and this
    // way it is settled without waiting for the lower-casing. (`| 0x20`
    // maps only `A-Z` into `a-z`, as the names' first letters are.)
    let first = key[0] | 0x20;
    let (kind, typo) = KEYS
        .iter()
        .filter(|(name, _, _)| name[0] == first)
        .find(|(name, _, typo)| (typos || !typo) && lower.starts_with(name))
        .map_or((LineKind::Unknown, false), |&(_, kind, typo)| (kind, typo));
    let (kind, typo) = match kind {
        LineKind::Unknown if first == b'c' => preference_key(key, typos).unwrap_or((kind, typo)),
        _ => (kind, typo),
    };
    Some(Record {
        kind,
        key,
        value,
        typo,
        missing_colon,
    })
}

/// Usage-preference keys (behaviour §10.1), matched whole, unlike the
/// keys above: `Content-Usage-Policy` stays unknown.
fn preference_key(key: &[u8], typos: bool) -> Option<(LineKind, bool)> {
    [
        (&b"content-usage"[..], LineKind::ContentUsage, false),
        (b"content-signal", LineKind::ContentSignal, false),
        (b"content-signals", LineKind::ContentSignal, true),
    ]
    .into_iter()
    .find(|(name, _, typo)| (typos || !typo) && key.eq_ignore_ascii_case(name))
    .map(|(_, kind, typo)| (kind, typo))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kv(line: &str) -> Option<(LineKind, &str, bool, bool)> {
        let line = crate::lex::Lines::new(line.as_bytes(), 512_000, Profile::Rfc9309).next()?;
        read(
            line.content,
            line.window,
            line.colon,
            Profile::Rfc9309,
            true,
        )
        .map(|r| {
            (
                r.kind,
                std::str::from_utf8(r.value).unwrap(),
                r.typo,
                r.missing_colon,
            )
        })
    }

    /// Whenever `plain_rule` takes a line, `read` takes it the same way;
    /// and it takes the usual rule lines.
    #[test]
    fn plain_rules_read_as_read_reads_them() {
        // Lines built as key, colon, spaces, value and trailing bytes,
        // each drawn from a few variants, the plain ones the most often.
        let keys: &[&[u8]] = &[
            b"allow",
            b"Disallow",
            b"ALLOW",
            b"disallow",
            b"disallowed",
            b"allo",
            b" allow",
            b"",
        ];
        let colons: &[&[u8]] = &[b":", b":", b":", b" :", b"", b"::"];
        let spaces: &[&[u8]] = &[b"", b" ", b" ", b"  ", b"\t", b"\x0B"];
        let values: &[&[u8]] = &[b"/", b"/a", b"/", b"*", b"x", b"#", b" ", b"\0"];
        let trailing: &[&[u8]] = &[b"", b"", b"", b" ", b"\t", b"\x0B"];
        let mut draw = crate::draw::Draw::new(0x9E37_79B9_7F4A_7C15);
        let mut taken = 0;
        for round in 0..50_000 {
            let mut body = Vec::new();
            for _ in 0..1 + draw.below(3) {
                body.extend(draw.pick(keys));
                body.extend(draw.pick(colons));
                body.extend(draw.pick(spaces));
                let count = draw.below(4);
                body.extend(draw.joined(values, count));
                body.extend(draw.pick(trailing));
                body.push(b'\n');
            }
            let profile = [Profile::Rfc9309, Profile::Google][round % 2];
            for line in crate::lex::Lines::new(&body, 512_000, profile) {
                let Some((allow, value)) =
                    plain_rule(line.content, line.window, line.colon, profile)
                else {
                    continue;
                };
                taken += 1;
                let record = read(line.content, line.window, line.colon, profile, true)
                    .expect("a line with a key");
                let kind = if allow {
                    LineKind::Allow
                } else {
                    LineKind::Disallow
                };
                assert_eq!(record.kind, kind, "{body:?}");
                assert_eq!(record.value, value, "{body:?}");
                assert!(!record.typo && !record.missing_colon, "{body:?}");
            }
        }
        assert!(taken > 1000, "{taken} lines taken");
        fn plain(line: &[u8]) -> Option<(bool, &[u8])> {
            let line = crate::lex::Lines::new(line, 512_000, Profile::Rfc9309).next()?;
            plain_rule(line.content, line.window, line.colon, Profile::Rfc9309)
        }
        assert_eq!(plain(b"Disallow: /a/b\n"), Some((false, &b"/a/b"[..])));
        assert_eq!(plain(b"ALLOW:/x\n"), Some((true, &b"/x"[..])));
        // Left to `read`: spaces to trim, other keys, other values.
        for line in [
            &b"Disallow:  /a\n"[..],
            b" Allow: /a\n",
            b"Disallow: /a \n",
            b"Disallow: *.gif\n",
            b"Disallow:\n",
            b"Dissallow: /a\n",
        ] {
            assert_eq!(plain(line), None, "{line:?}");
        }
    }

    #[test]
    fn keys_and_values() {
        assert_eq!(
            kv("  Disallow : /x # c"),
            Some((LineKind::Disallow, "/x", false, false))
        );
        assert_eq!(
            kv("disallow /x"),
            Some((LineKind::Disallow, "/x", false, true))
        );
        assert_eq!(
            kv("disallow /x y"),
            Some((LineKind::Invalid, "", false, false))
        );
        assert_eq!(
            kv("Dissallow: /"),
            Some((LineKind::Disallow, "/", true, false))
        );
        assert_eq!(
            kv("Disallowed: /"),
            Some((LineKind::Disallow, "/", false, false))
        );
        assert_eq!(kv(": /"), Some((LineKind::Invalid, "", false, false)));
        assert_eq!(kv("  # only a comment"), None);
        assert_eq!(
            kv("Noindex: /"),
            Some((LineKind::Unknown, "/", false, false))
        );
        assert_eq!(
            kv("CONTENT-usage: /a train-ai=n # c"),
            Some((LineKind::ContentUsage, "/a train-ai=n", false, false))
        );
        assert_eq!(
            kv("Content-Signal: search=yes"),
            Some((LineKind::ContentSignal, "search=yes", false, false))
        );
        assert_eq!(
            kv("content-signals: search=yes"),
            Some((LineKind::ContentSignal, "search=yes", true, false))
        );
        assert_eq!(
            kv("Content-Usage-Policy: x"),
            Some((LineKind::Unknown, "x", false, false))
        );
    }

    #[test]
    fn a_key_reads_the_same_from_the_body_after_its_line() {
        // Short lines, keys in any case, followed in the window by bytes
        // that are not theirs (the next line), or by nothing.
        for line in ["ALLOW:/", "Disallow: /", "hOsT:h", "x:y", "CRAWL-DELAY:1"] {
            let body = format!("{line}\nSITEMAP: /next-line-bytes");
            let content = line.as_bytes();
            let colon = line.find(':');
            let alone = read(content, content, colon, Profile::Rfc9309, true).unwrap();
            let windowed = read(content, body.as_bytes(), colon, Profile::Rfc9309, true).unwrap();
            assert_eq!(
                (alone.kind, alone.value),
                (windowed.kind, windowed.value),
                "{line}"
            );
            assert_ne!(windowed.kind, LineKind::Sitemap, "{line}");
        }
    }
}
