//! Percent-encoding normalisation (§2.2.2–2.2.3) so that matching only
//! compares bytes.
//!
//! Patterns, both profiles: bytes ≥ 0x80 become `%XX`, escapes get upper-case
//! hex. RFC profile, patterns and paths alike: escapes of unreserved bytes are
//! decoded, and a literal `*` or `$` in a path (or a `$` that is a literal in
//! a pattern) compares as `%2A` / `%24`.

use crate::{append, scan, Profile};

const HEX: &[u8; 16] = b"0123456789ABCDEF";

const NOT_HEX: u8 = 0xFF;

/// Per byte, its value as a hex digit, or `NOT_HEX`; and whether it is
/// unreserved (RFC 3986 §2.3). Tables: a check decodes the escapes of
/// every URL that holds some, a load each instead of a chain of ranges.
const CLASSES: [(u8, bool); 256] = {
    let mut classes = [(NOT_HEX, false); 256];
    let mut b = 0;
    while b < 256 {
        let byte = b as u8;
        let digit = match byte {
            b'0'..=b'9' => byte - b'0',
            b'a'..=b'f' => byte - b'a' + 10,
            b'A'..=b'F' => byte - b'A' + 10,
            _ => NOT_HEX,
        };
        let unreserved = byte.is_ascii_alphanumeric() || matches!(byte, b'-' | b'.' | b'_' | b'~');
        classes[b] = (digit, unreserved);
        b += 1;
    }
    classes
};

fn hex_digit(b: u8) -> Option<u8> {
    Some(CLASSES[usize::from(b)].0).filter(|&d| d != NOT_HEX)
}

fn is_unreserved(b: u8) -> bool {
    CLASSES[usize::from(b)].1
}

/// The byte of a `%XX` escape starting at `s[0]`, if `s` starts with one.
fn escape_at(s: &[u8]) -> Option<u8> {
    match s {
        [b'%', hi, lo, ..] => Some(hex_digit(*hi)? << 4 | hex_digit(*lo)?),
        _ => None,
    }
}

/// `%XX` for `b`, upper-case hex.
const fn escaped(b: u8) -> [u8; 3] {
    // `as`: `From` is not callable in a constant.
    [b'%', HEX[(b >> 4) as usize], HEX[(b & 0x0F) as usize]]
}

/// Whether `b` may be rewritten: an escape, a byte ≥ 0x80, `*` or `$`.
/// Runs of other bytes are copied as they are.
fn may_change(b: u8) -> bool {
    matches!(b, b'%' | b'*' | b'$' | 0x80..)
}

/// The bytes of `block` that `may_change` (bit `i`: byte `i`), 16 at once.
#[inline(always)]
pub(crate) fn changing(block: &scan::Block) -> u32 {
    changing_in_pattern(block) | block.equal(b'*')
}

/// `changing` less `*`, which changes only in a path: in a pattern it is
/// the wildcard.
#[inline(always)]
fn changing_in_pattern(block: &scan::Block) -> u32 {
    block.equal(b'%') | block.equal(b'$') | block.high()
}

/// A path rewrite packed in a word: up to three bytes out, low byte
/// first, and in the top byte how many of them count.
const fn packed(bytes: [u8; 3], written: u32) -> u32 {
    bytes[0] as u32 | (bytes[1] as u32) << 8 | (bytes[2] as u32) << 16 | written << 24
}

/// Per profile (`[Google, RFC]`), what a path makes of an escape, by the
/// byte it encodes, and of any other byte that may change, by that byte:
/// the rules of `rewrite`, which the test of the path normaliser against
/// the piecewise one (built on `rewrite`) holds it to.
const PATH_REWRITES: [([u32; 256], [u32; 256]); 2] = {
    let mut tables = [([0; 256], [0; 256]); 2];
    let mut profile = 0;
    while profile < 2 {
        let rfc = profile == 1;
        let mut b = 0;
        while b < 256 {
            let byte = b as u8;
            let hex = escaped(byte);
            tables[profile].0[b] = if rfc && CLASSES[b].1 {
                packed([byte, 0, 0], 1)
            } else {
                packed(hex, 3)
            };
            tables[profile].1[b] = match byte {
                0x80.. => packed(hex, 3),
                b'*' | b'$' if rfc => packed(hex, 3),
                _ => packed([byte, 0, 0], 1),
            };
            b += 1;
        }
        profile += 1;
    }
    tables
};

/// What normalising makes of a byte that may change: the first `written`
/// of `bytes`, for the `consumed` bytes they replace (3 for an escape).
struct Rewrite {
    bytes: [u8; 3],
    written: usize,
    consumed: usize,
}

/// Rewrites `s[0]`, a byte that `may_change`. `in_path` selects the path
/// rules: a `*` is a literal there; in a pattern it is the wildcard and
/// only a `$` that is not last is a literal.
#[inline(always)]
fn rewrite(rfc: bool, s: &[u8], in_path: bool) -> Rewrite {
    let (bytes, written, consumed) = match escape_at(s) {
        Some(decoded) if rfc && is_unreserved(decoded) => ([decoded, 0, 0], 1, 3),
        Some(decoded) => (escaped(decoded), 3, 3),
        None => match s[0] {
            b @ 0x80.. => (escaped(b), 3, 1),
            b'*' if rfc && in_path => (escaped(b'*'), 3, 1),
            b'$' if rfc && (in_path || s.len() > 1) => (escaped(b'$'), 3, 1),
            b => ([b, 0, 0], 1, 1),
        },
    };
    Rewrite {
        bytes,
        written,
        consumed,
    }
}

/// Emits the normalised form of `s` in pieces: runs copied as they are,
/// and rewritten bytes (see `rewrite`).
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
        let rewritten = rewrite(rfc, &s[i..], in_path);
        out(&rewritten.bytes[..rewritten.written]);
        i += rewritten.consumed;
    }
}

/// Appends the normalised pattern for `value` to `out`.
///
/// Every rule with a `$`, `%` or byte ≥ 0x80 comes here at parse time
/// (`/*.pdf$` is common): runs are found 16 bytes a step and appended
/// whole, and a byte left as it is goes in as one.
pub(crate) fn normalise_pattern(profile: Profile, value: &[u8], out: &mut Vec<u8>) {
    let rfc = profile == Profile::Rfc9309;
    let mut at = 0;
    while at < value.len() {
        let run = run_before_change(value, at);
        append::append(out, &value[at..at + run]);
        at += run;
        if at == value.len() {
            break;
        }
        let rewritten = rewrite(rfc, &value[at..], false);
        match rewritten.written {
            1 => out.push(rewritten.bytes[0]),
            written => out.extend_from_slice(&rewritten.bytes[..written]),
        }
        at += rewritten.consumed;
    }
}

/// How many bytes of the pattern `s` from `at` come before one that may
/// change (see `changing_in_pattern`).
fn run_before_change(s: &[u8], mut at: usize) -> usize {
    let from = at;
    while at < s.len() {
        let changes = changing_in_pattern(&scan::Block::load(s, at));
        if changes != 0 {
            return (at + scan::first(changes)).min(s.len()) - from;
        }
        at += scan::WIDTH;
    }
    s.len() - from
}

/// Whether the RFC profile leaves the byte of a path at `s[at]`, one
/// that may change, as it is: an escape in upper-case hex of a byte that
/// is not unreserved (`%2F`), or a `%` that begins no escape. A path whose
/// bytes all stay (`/search?q=%7Ba%7D`) is matched where it lies, with no
/// copy to rewrite.
#[inline(always)]
pub(crate) fn stays(s: &[u8], at: usize) -> bool {
    let is_upper_hex = |b: u8| matches!(b, b'0'..=b'9' | b'A'..=b'F');
    match s[at..] {
        [b'%', hi, lo, ..] => match (hex_digit(hi), hex_digit(lo)) {
            (Some(h), Some(l)) => {
                is_upper_hex(hi) && is_upper_hex(lo) && !is_unreserved(h << 4 | l)
            }
            _ => true,
        },
        [b'%', ..] => true,
        _ => false,
    }
}

/// Writes the normalised path into `buf`; `None` when it does not fit.
///
/// A check whose path the RFC profile rewrites comes here: the runs
/// between the bytes that may change are found and copied 16 bytes a
/// step, with no call to memcpy; `buf` past the returned length holds
/// scratch.
pub(crate) fn normalise_path_into(profile: Profile, path: &[u8], buf: &mut [u8]) -> Option<usize> {
    let rfc = profile == Profile::Rfc9309;
    let (mut at, mut len) = (0, 0);
    while at < path.len() {
        let block = scan::Block::load(path, at);
        let changes = changing(&block);
        let run = scan::WIDTH
            .min(path.len() - at)
            .min(changes.trailing_zeros() as usize);
        match (
            path.get(at..at + scan::WIDTH),
            buf.get_mut(len..len + scan::WIDTH),
        ) {
            // The whole block goes; only its run counts.
            (Some(block), Some(slots)) => slots.copy_from_slice(block),
            _ => copy_short(buf.get_mut(len..len + run)?, &path[at..at + run]),
        }
        (at, len) = (at + run, len + run);
        if changes == 0 {
            continue;
        }
        // Escapes come in runs (`%E3%83%84`): rewrite the whole run here,
        // each byte's result from a table (whether an escape is decoded
        // follows no pattern a branch predictor could learn).
        let (escapes, literals) = &PATH_REWRITES[usize::from(rfc)];
        while let Some(&b) = path.get(at).filter(|&&b| may_change(b)) {
            let (rewritten, consumed) = match escape_at(&path[at..]) {
                Some(decoded) => (escapes[usize::from(decoded)], 3),
                None => (literals[usize::from(b)], 1),
            };
            let written = (rewritten >> 24) as usize;
            let bytes = rewritten.to_le_bytes();
            // Four bytes at once where there is room; the fourth is scratch.
            match buf.get_mut(len..len + 4) {
                Some(slots) => slots.copy_from_slice(&bytes),
                None => buf
                    .get_mut(len..len + written)?
                    .copy_from_slice(&bytes[..written]),
            }
            (at, len) = (at + consumed, len + written);
        }
    }
    Some(len)
}

/// Copies `src` (at most 16 bytes) into `dst` (as long) in two
/// overlapping words: copies of fixed size, where one of `src.len()` bytes
/// is a call to memcpy.
fn copy_short(dst: &mut [u8], src: &[u8]) {
    let n = src.len();
    match n {
        8.. => {
            dst[..8].copy_from_slice(&src[..8]);
            dst[n - 8..].copy_from_slice(&src[n - 8..]);
        }
        4.. => {
            dst[..4].copy_from_slice(&src[..4]);
            dst[n - 4..].copy_from_slice(&src[n - 4..]);
        }
        // 1 to 3 bytes: the first, middle and last cover them all.
        1.. => {
            dst[0] = src[0];
            dst[n / 2] = src[n / 2];
            dst[n - 1] = src[n - 1];
        }
        0 => {}
    }
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

    /// 20,000 strings of 0 to `most - 1` pieces of `alphabet`, drawn with
    /// `Draw` from `seed`.
    fn pieced<'a>(
        alphabet: &'a [&'a [u8]],
        most: usize,
        seed: u64,
    ) -> impl Iterator<Item = Vec<u8>> + 'a {
        let mut draw = crate::draw::Draw::new(seed);
        (0..20_000).map(move |round| draw.joined(alphabet, round % most))
    }

    /// The block-wise path normaliser writes what the piecewise one
    /// emits, and fails exactly when that does not fit.
    #[test]
    fn path_normaliser_agrees_with_the_pieces() {
        // Escapes (good, bad, cut short), literals, high bytes; paths
        // around the 16-byte blocks.
        let alphabet: &[&[u8]] = &[
            b"%", b"%2f", b"%41", b"%7e", b"%g", b"*", b"$", b"/", b"a", b"\xC3", b"\xFF",
        ];
        for path in pieced(alphabet, 40, 0x2545_F491_4F6C_DD1D) {
            for profile in [Profile::Rfc9309, Profile::Google] {
                let mut want = Vec::new();
                normalise(profile, &path, true, |piece| want.extend_from_slice(piece));
                for room in [want.len(), want.len().saturating_sub(1), want.len() + 20] {
                    let mut buf = vec![0u8; room];
                    let got = normalise_path_into(profile, &path, &mut buf);
                    if room >= want.len() {
                        assert_eq!(got, Some(want.len()), "{path:?}");
                        assert_eq!(buf[..want.len()], want[..], "{path:?}");
                    } else {
                        assert_eq!(got, None, "{path:?}");
                    }
                }
            }
        }
    }

    /// The pattern normaliser appends what the piecewise one emits.
    #[test]
    fn pattern_normaliser_agrees_with_the_pieces() {
        let alphabet: &[&[u8]] = &[
            b"%",
            b"%2f",
            b"%41",
            b"%7e",
            b"%g",
            b"*",
            b"$",
            b"/",
            b"abcdefgh",
            b"\xC3",
        ];
        for value in pieced(alphabet, 30, 0x9E37_79B9_7F4A_7C15) {
            for profile in [Profile::Rfc9309, Profile::Google] {
                let mut want = b"kept".to_vec();
                normalise(profile, &value, false, |piece| {
                    want.extend_from_slice(piece)
                });
                let mut got = b"kept".to_vec();
                normalise_pattern(profile, &value, &mut got);
                assert_eq!(got, want, "{value:?}");
            }
        }
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
