//! Percent-encoding normalisation (§2.2.2–2.2.3) so that matching only
//! compares bytes.
//!
//! Patterns, both profiles: bytes ≥ 0x80 become `%XX`, escapes get upper-case
//! hex. RFC profile, patterns and paths alike: escapes of unreserved bytes are
//! decoded, and a literal `*` or `$` in a path (or a `$` that is a literal in
//! a pattern) compares as `%2A` / `%24`.

use crate::Profile;

const HEX: &[u8; 16] = b"0123456789ABCDEF";

fn hex_digit(b: u8) -> Option<u8> {
    match b {
        b'0'..=b'9' => Some(b - b'0'),
        b'a'..=b'f' => Some(b - b'a' + 10),
        b'A'..=b'F' => Some(b - b'A' + 10),
        _ => None,
    }
}

/// RFC 3986 §2.3.
fn is_unreserved(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~')
}

/// The byte of a `%XX` escape starting at `s[0]`, if `s` starts with one.
fn escape_at(s: &[u8]) -> Option<u8> {
    match s {
        [b'%', hi, lo, ..] => Some(hex_digit(*hi)? << 4 | hex_digit(*lo)?),
        _ => None,
    }
}

/// `%XX` for `b`, upper-case hex.
fn escaped(b: u8) -> [u8; 3] {
    [b'%', HEX[usize::from(b >> 4)], HEX[usize::from(b & 0x0F)]]
}

/// Whether `b` may be rewritten: an escape, a byte ≥ 0x80, `*` or `$`.
/// Runs of other bytes are copied as they are.
fn may_change(b: u8) -> bool {
    matches!(b, b'%' | b'*' | b'$' | 0x80..)
}

/// Emits the normalised form of `s` in pieces: runs copied as they are,
/// and rewritten bytes. `in_path` selects the path rules: a `*` is a
/// literal there; in a pattern it is the wildcard and only a `$` that is
/// not last is a literal.
fn normalise(profile: Profile, s: &[u8], in_path: bool, mut out: impl FnMut(&[u8])) {
    let rfc = profile == Profile::Rfc9309;
    let mut i = 0;
    while i < s.len() {
        let run = s[i..]
            .iter()
            .position(|&b| may_change(b))
            .unwrap_or(s.len() - i);
        if run > 0 {
            out(&s[i..i + run]);
            i += run;
            continue;
        }
        let b = s[i];
        if let Some(decoded) = escape_at(&s[i..]) {
            if rfc && is_unreserved(decoded) {
                out(&[decoded]);
            } else {
                out(&escaped(decoded));
            }
            i += 3;
            continue;
        }
        match b {
            0x80.. => out(&escaped(b)),
            b'*' if rfc && in_path => out(&escaped(b)),
            b'$' if rfc && (in_path || i + 1 < s.len()) => out(&escaped(b)),
            _ => out(&[b]),
        }
        i += 1;
    }
}

/// Appends the normalised pattern for `value` to `out`.
pub(crate) fn normalise_pattern(profile: Profile, value: &[u8], out: &mut Vec<u8>) {
    normalise(profile, value, false, |piece| out.extend_from_slice(piece));
}

/// Writes the normalised path into `buf`; `None` when it does not fit.
pub(crate) fn normalise_path_into(profile: Profile, path: &[u8], buf: &mut [u8]) -> Option<usize> {
    let mut len = 0;
    let mut fits = true;
    normalise(profile, path, true, |piece| {
        match buf.get_mut(len..len + piece.len()) {
            Some(slots) => slots.copy_from_slice(piece),
            None => fits = false,
        }
        len += piece.len();
    });
    fits.then_some(len)
}

/// The length the normalised path takes.
pub(crate) fn normalised_path_len(profile: Profile, path: &[u8]) -> usize {
    let mut len = 0;
    normalise(profile, path, true, |piece| len += piece.len());
    len
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pat(p: Profile, s: &str) -> String {
        let mut v = Vec::new();
        normalise_pattern(p, s.as_bytes(), &mut v);
        String::from_utf8(v).unwrap()
    }

    fn path(s: &[u8]) -> String {
        let mut buf = [0u8; 64];
        let n = normalise_path_into(Profile::Rfc9309, s, &mut buf).unwrap();
        String::from_utf8(buf[..n].to_vec()).unwrap()
    }

    #[test]
    fn patterns() {
        let (r, g) = (Profile::Rfc9309, Profile::Google);
        assert_eq!(pat(r, "/%70rices/"), "/prices/");
        assert_eq!(pat(g, "/%70rices/"), "/%70rices/");
        assert_eq!(pat(r, "/a%2fb%zz"), "/a%2Fb%zz");
        assert_eq!(pat(g, "/ツ"), "/%E3%83%84");
        assert_eq!(pat(r, "/a$b*$"), "/a%24b*$");
        assert_eq!(pat(g, "/a$b*$"), "/a$b*$");
        assert_eq!(pat(r, "/%62%61%7A"), "/baz");
    }

    #[test]
    fn paths() {
        assert_eq!(path("/ツ".as_bytes()), "/%E3%83%84");
        assert_eq!(path(b"/a*b$"), "/a%2Ab%24");
        assert_eq!(path(b"/%7e%2f%4"), "/~%2F%4");
        let mut small = [0u8; 3];
        assert_eq!(
            normalise_path_into(Profile::Rfc9309, b"/\xFF", &mut small),
            None
        );
        assert_eq!(normalised_path_len(Profile::Rfc9309, b"/\xFF"), 4);
    }
}
