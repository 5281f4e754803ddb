//! The naive reference matcher (behaviour §4, RFC 9309 §2.2.2–2.2.3): obviously
//! right and exponential, for fuzzing and tests to compare the real matcher
//! against. Shared by `fuzz/fuzz_targets/matching.rs` and
//! `tests/bad_input.rs` through `#[path]`; it is the same reference as
//! `tests/matcher_props.rs`.
//!
//! Only for short patterns with few `*`: the cost is exponential in them.

#![allow(dead_code)]

/// Whether `pattern` matches `path` from its first byte: `*` stretches over
/// any run of bytes (also none), a `$` that ends the pattern anchors it to
/// the end of the path, and every other byte (a `$` elsewhere too) is
/// itself. Tries every way `*` can stretch.
pub fn naive_matches(pattern: &[u8], path: &[u8]) -> bool {
    match pattern {
        [] => true,
        [b'$'] => path.is_empty(),
        [b'*', rest @ ..] => (0..=path.len()).any(|i| naive_matches(rest, &path[i..])),
        [c, rest @ ..] => path.first() == Some(c) && naive_matches(rest, &path[1..]),
    }
}

/// One rule as the reference sees it: its line, allow or disallow, and the
/// pattern exactly as it is compared (already normalised).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NaiveRule {
    pub line: u32,
    pub allow: bool,
    pub pattern: Vec<u8>,
}

/// The reference decision: `None` when no rule matches (allowed), else the
/// deciding rule: the longest matching pattern (length in bytes, `*` and
/// `$` included); at equal length allow wins; then the first in order.
/// Empty patterns are not rules.
pub fn naive_decide<'r>(rules: &'r [NaiveRule], path: &[u8]) -> Option<&'r NaiveRule> {
    let mut best: Option<&NaiveRule> = None;
    for rule in rules {
        if rule.pattern.is_empty() || !naive_matches(&rule.pattern, path) {
            continue;
        }
        let better = match best {
            None => true,
            Some(b) => (rule.pattern.len(), rule.allow) > (b.pattern.len(), b.allow),
        };
        if better {
            best = Some(rule);
        }
    }
    best
}

/// Whether the reference allows `path` under `rules`.
pub fn naive_allowed(rules: &[NaiveRule], path: &[u8]) -> bool {
    naive_decide(rules, path).is_none_or(|r| r.allow)
}

/// A pattern as both profiles normalise it for the Google profile: bytes
/// ≥ 0x80 become `%XX`, and a `%` followed by two hex digits gets
/// upper-case hex. Nothing else changes.
pub fn google_pattern(value: &[u8]) -> Vec<u8> {
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    let mut out = Vec::with_capacity(value.len() * 3);
    let mut i = 0;
    while i < value.len() {
        let b = value[i];
        if b == b'%'
            && i + 2 < value.len()
            && value[i + 1].is_ascii_hexdigit()
            && value[i + 2].is_ascii_hexdigit()
        {
            out.push(b'%');
            out.push(value[i + 1].to_ascii_uppercase());
            out.push(value[i + 2].to_ascii_uppercase());
            i += 3;
        } else if b >= 0x80 {
            out.extend([b'%', HEX[usize::from(b >> 4)], HEX[usize::from(b & 15)]]);
            i += 1;
        } else {
            out.push(b);
            i += 1;
        }
    }
    out
}

/// Google's `index.html` extra (behaviour §4): for an allow pattern whose last
/// path segment starts with `index.htm`, the pattern up to and including
/// its last `/`, then `$`.
pub fn google_index_extra(pattern: &[u8]) -> Option<Vec<u8>> {
    let slash = pattern.iter().rposition(|&b| b == b'/')?;
    if !pattern[slash..].starts_with(b"/index.htm") {
        return None;
    }
    let mut extra = pattern[..=slash].to_vec();
    extra.push(b'$');
    Some(extra)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sane() {
        assert!(naive_matches(b"/a*c$", b"/abc"));
        assert!(!naive_matches(b"/a*c$", b"/abcd"));
        assert!(naive_matches(b"/a$b", b"/a$bc"));
        assert_eq!(google_pattern(b"/%e3%8x\xff"), b"/%E3%8x%FF");
        assert_eq!(
            google_index_extra(b"/d/index.html").as_deref(),
            Some(&b"/d/$"[..])
        );
    }
}
