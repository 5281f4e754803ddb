//! Bytes → numbered raw lines (SPEC §1): BOM, line ends, the parse limit and
//! the Google line cap. No keys, no policy.

use crate::Profile;

/// Google reads each line into a buffer of 2083 × 8 bytes, one of which
/// holds the terminating NUL.
pub(crate) const GOOGLE_LINE_CAP: usize = 2083 * 8 - 1;

const BOM: [u8; 3] = [0xEF, 0xBB, 0xBF];

/// One line's own bytes, without its line end.
#[derive(Clone, Copy, Debug)]
pub(crate) struct RawLine<'a> {
    /// 1-based; blank and comment lines count too.
    pub number: u32,
    pub bytes: &'a [u8],
    /// The Google line cap cut it.
    pub too_long: bool,
}

/// Iterates the lines of a body.
pub(crate) struct Lines<'a> {
    rest: &'a [u8],
    number: u32,
    /// The last line was cut by the parse limit and must be dropped.
    drop_last: bool,
    cap: Option<usize>,
}

impl<'a> Lines<'a> {
    pub fn new(body: &'a [u8], limit: usize, profile: Profile) -> Self {
        let (body, drop_last) = if body.len() > limit {
            // §2.5: a line the limit cuts is dropped, unless the next byte
            // ends it: then it was whole.
            (&body[..limit], !matches!(body[limit], b'\n' | b'\r'))
        } else {
            (body, false)
        };
        Lines {
            rest: skip_bom(body),
            number: 0,
            drop_last,
            cap: (profile == Profile::Google).then_some(GOOGLE_LINE_CAP),
        }
    }
}

/// Skips the longest prefix of a UTF-8 BOM (Google skips partial ones too).
fn skip_bom(body: &[u8]) -> &[u8] {
    let n = body.iter().zip(BOM).take_while(|(a, b)| **a == *b).count();
    &body[n..]
}

impl<'a> Iterator for Lines<'a> {
    type Item = RawLine<'a>;

    fn next(&mut self) -> Option<RawLine<'a>> {
        if self.rest.is_empty() {
            return None;
        }
        let (line, rest) = match memchr::memchr2(b'\n', b'\r', self.rest) {
            Some(end) => {
                // CRLF counts as one line end.
                let skip = if self.rest[end] == b'\r' && self.rest.get(end + 1) == Some(&b'\n') {
                    2
                } else {
                    1
                };
                (&self.rest[..end], &self.rest[end + skip..])
            }
            None if self.drop_last => return None,
            None => (self.rest, &self.rest[self.rest.len()..]),
        };
        self.rest = rest;
        self.number = self.number.saturating_add(1);
        let (bytes, too_long) = match self.cap {
            Some(cap) if line.len() > cap => (&line[..cap], true),
            _ => (line, false),
        };
        Some(RawLine {
            number: self.number,
            bytes,
            too_long,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(body: &[u8]) -> Vec<(u32, &[u8])> {
        Lines::new(body, 512_000, Profile::Rfc9309)
            .map(|l| (l.number, l.bytes))
            .collect()
    }

    #[test]
    fn line_ends() {
        // §1: LF, CR and CRLF; CRLF counts once; no line after a final end.
        assert_eq!(
            lines(b"a\nb\rc\r\nd"),
            [(1, &b"a"[..]), (2, b"b"), (3, b"c"), (4, b"d")]
        );
        assert_eq!(lines(b"a\n"), [(1, &b"a"[..])]);
        assert_eq!(lines(b"\r\r\n\n"), [(1, &b""[..]), (2, b""), (3, b"")]);
    }

    #[test]
    fn partial_bom() {
        assert_eq!(lines(b"\xEF\xBBa"), [(1, &b"a"[..])]);
        assert_eq!(lines(b"\xEFa"), [(1, &b"a"[..])]);
        assert_eq!(lines(b"\xEF\xEF\xBB\xBF"), [(1, &b"\xEF\xBB\xBF"[..])]);
    }
}
