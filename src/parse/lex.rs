//! Bytes → numbered raw lines (behaviour §1): BOM, line ends, the parse limit,
//! the Google line cap, comments, and where the first `:` is. No keys, no
//! policy.
//!
//! The body is classified 64 bytes at a time (see `scan::body_masks`):
//! one bit mask each for line ends, comment starts and colons, from which
//! every line's end, comment and colon are read with bit tricks.

use crate::scan::{self, Avx2, ByteSet, ChunkSets};
use crate::Profile;

/// Google reads each line into a buffer of 2083 × 8 bytes, one of which
/// holds the terminating NUL.
pub(crate) const GOOGLE_LINE_CAP: usize = 2083 * 8 - 1;

const BOM: [u8; 3] = [0xEF, 0xBB, 0xBF];

/// One line's content: its bytes before the line end, a `#` comment or
/// (Google) a NUL, and within the Google line cap.
#[derive(Clone, Copy, Debug)]
pub(crate) struct RawLine<'a> {
    /// 1-based; blank and comment lines count too.
    pub number: u32,
    pub content: &'a [u8],
    /// `content` and the rest of the body after it: more bytes to read a
    /// short line's key 16 at a time (see `record::read`).
    pub window: &'a [u8],
    /// The first `:` of `content`.
    pub colon: Option<usize>,
    /// The Google line cap cut it.
    pub too_long: bool,
    /// The line (comment included) holds a `%`, `$` or byte ≥ 0x80: when
    /// false, its patterns need no normalising.
    pub escapable: bool,
}

/// Iterates the lines of a body.
pub(crate) struct Lines<'a> {
    body: &'a [u8],
    /// Where the next line starts.
    at: usize,
    number: u32,
    /// The last line was cut by the parse limit and must be dropped.
    drop_last: bool,
    /// The longest line kept whole (the Google line cap), or `usize::MAX`.
    cap: usize,
    /// Google reads each line as a C string: a NUL ends it.
    nul_ends_line: bool,
    /// Chunks are classified with AVX2 where the CPU has it.
    avx2: Option<Avx2>,
    /// The classified chunk: its offset and its masks.
    chunk: Option<usize>,
    line_ends: u64,
    comments: u64,
    colons: u64,
    escapable: u64,
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
            body: skip_bom(body),
            at: 0,
            number: 0,
            drop_last,
            cap: match profile {
                Profile::Google => GOOGLE_LINE_CAP,
                Profile::Rfc9309 => usize::MAX,
            },
            nul_ends_line: profile == Profile::Google,
            avx2: Avx2::detect(),
            chunk: None,
            line_ends: 0,
            comments: 0,
            colons: 0,
            escapable: 0,
        }
    }

    /// Classifies the 64 bytes from `chunk` (a multiple of 64).
    fn classify(&mut self, chunk: usize) {
        // A function of the body alone, whose masks come back by value: a
        // call given `&mut self` would keep the reader's state in memory
        // rather than in registers for the whole parse loop.
        let [line_ends, comments, colons, escapable] = if self.nul_ends_line {
            scan::body_masks::<GoogleSets, 4>(self.body, chunk, self.avx2)
        } else {
            scan::body_masks::<RfcSets, 4>(self.body, chunk, self.avx2)
        };
        self.chunk = Some(chunk);
        self.line_ends = line_ends;
        self.comments = comments;
        self.colons = colons;
        self.escapable = escapable;
    }
}

/// What a chunk is classified into (see `Lines`): line ends, comment
/// starts, colons and escapable bytes.
struct RfcSets;
impl ChunkSets<4> for RfcSets {
    const SETS: [ByteSet; 4] = sets(b"#");
}

/// The same with NUL as a comment start: Google reads a line as a C string.
struct GoogleSets;
impl ChunkSets<4> for GoogleSets {
    const SETS: [ByteSet; 4] = sets(b"#\0");
}

/// The four sets, with `comment_starts` as the second.
const fn sets(comment_starts: &'static [u8]) -> [ByteSet; 4] {
    [
        ByteSet::of(b"\n\r"),
        ByteSet::of(comment_starts),
        ByteSet::of(b":"),
        ByteSet {
            bytes: b"%$",
            high: true,
        },
    ]
}

/// Skips the longest prefix of a UTF-8 BOM (Google skips partial ones too).
fn skip_bom(body: &[u8]) -> &[u8] {
    let n = body.iter().zip(BOM).take_while(|(a, b)| **a == *b).count();
    &body[n..]
}

impl<'a> Iterator for Lines<'a> {
    type Item = RawLine<'a>;

    // Once per line of every parse. Left to the compiler, whether it is
    // inlined into the parse loop hangs on how many callers it has.
    #[inline(always)]
    fn next(&mut self) -> Option<RawLine<'a>> {
        let start = self.at;
        if start >= self.body.len() {
            return None;
        }
        // The first comment start and colon, `usize::MAX` while none: a
        // later chunk's can only come after, so each chunk's is or-ed in
        // with `min`, where a test per chunk would be a branch.
        let mut cut = usize::MAX;
        let mut colon = usize::MAX;
        let first_in = |mask: u64, chunk: usize| match mask {
            0 => usize::MAX,
            mask => chunk + mask.trailing_zeros() as usize - start,
        };
        let mut escapable = false;
        let mut at = start;
        let end = loop {
            let chunk = at - at % scan::CHUNK;
            if self.chunk != Some(chunk) {
                self.classify(chunk);
            }
            let from = u64::MAX << (at - chunk);
            let line_ends = self.line_ends & from;
            // Only the bytes before the line end belong to this line.
            let inside = match line_ends {
                0 => u64::MAX,
                ends => (ends & ends.wrapping_neg()) - 1,
            };
            cut = cut.min(first_in(self.comments & from & inside, chunk));
            escapable |= self.escapable & from & inside != 0;
            colon = colon.min(first_in(self.colons & from & inside, chunk));
            if line_ends != 0 {
                break Some(chunk + line_ends.trailing_zeros() as usize);
            }
            at = chunk + scan::CHUNK;
            if at >= self.body.len() {
                break None;
            }
        };
        let line = match end {
            Some(end) => {
                // CRLF counts as one line end.
                let crlf = self.body[end] == b'\r' && self.body.get(end + 1) == Some(&b'\n');
                self.at = end + 1 + usize::from(crlf);
                &self.body[start..end]
            }
            None if self.drop_last => {
                self.at = self.body.len();
                return None;
            }
            None => {
                self.at = self.body.len();
                &self.body[start..]
            }
        };
        self.number = self.number.saturating_add(1);
        let too_long = line.len() > self.cap;
        let kept = line.len().min(self.cap);
        let content = &line[..cut.min(kept)];
        crate::work::add(1 + line.len() / 64);
        Some(RawLine {
            number: self.number,
            content,
            window: &self.body[start..],
            colon: (colon < content.len()).then_some(colon),
            too_long,
            escapable,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(body: &[u8]) -> Vec<(u32, &[u8])> {
        Lines::new(body, 512_000, Profile::Rfc9309)
            .map(|l| (l.number, l.content))
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
    fn comments_nul_and_colons() {
        let google = |body: &'static [u8]| {
            Lines::new(body, 512_000, Profile::Google)
                .map(|l| (l.content, l.colon))
                .collect::<Vec<_>>()
        };
        assert_eq!(
            lines(b"a:b#c:d\n#:\nx\0y:z"),
            [(1, &b"a:b"[..]), (2, b""), (3, b"x\0y:z")]
        );
        assert_eq!(
            google(b"a:b#c:d\nx\0y:z\n0123456789abcdef0123:x#"),
            [
                (&b"a:b"[..], Some(1)),
                (b"x", None),
                (b"0123456789abcdef0123:x", Some(20))
            ]
        );
        let long = [b"k".repeat(GOOGLE_LINE_CAP), b":v".to_vec()].concat();
        let line = Lines::new(&long, 512_000, Profile::Google).next().unwrap();
        assert!(line.too_long && line.colon.is_none());
        assert_eq!(line.content.len(), GOOGLE_LINE_CAP);
    }

    /// Lines read byte by byte, the obvious way: what the chunked reader
    /// must give on any body.
    fn reference(body: &[u8], profile: Profile) -> Vec<(Vec<u8>, Option<usize>, bool)> {
        let google = profile == Profile::Google;
        let mut out = Vec::new();
        let mut rest = body;
        while !rest.is_empty() {
            let end = rest.iter().position(|&b| b == b'\n' || b == b'\r');
            let line = &rest[..end.unwrap_or(rest.len())];
            rest = match end {
                Some(e) if rest[e] == b'\r' && rest.get(e + 1) == Some(&b'\n') => &rest[e + 2..],
                Some(e) => &rest[e + 1..],
                None => &[],
            };
            let cut = line.iter().position(|&b| b == b'#' || (google && b == 0));
            let content = &line[..cut.unwrap_or(line.len())];
            let colon = content.iter().position(|&b| b == b':');
            let escapable = line.iter().any(|&b| b == b'%' || b == b'$' || b >= 0x80);
            out.push((content.to_vec(), colon, escapable));
        }
        out
    }

    #[test]
    fn chunked_reading_agrees_with_the_reference() {
        // Bodies from a small alphabet, long enough for lines, comments
        // and CRLFs to straddle the 64-byte chunks; every other one with
        // rare line ends, so that lines span several chunks and their
        // first colon or comment lies in a later one.
        let short_lines = b"ab :#\0\n\r%$\xC3";
        let long_lines = b"abababababababababababababababababababab :#\0\n%$\xC3";
        let mut draw = crate::draw::Draw::new(0x9E37_79B9_7F4A_7C15);
        for round in 0..6000 {
            let alphabet: &[u8] = if round % 2 == 0 {
                short_lines
            } else {
                long_lines
            };
            let len = round % 400;
            let body: Vec<u8> = (0..len).map(|_| draw.pick(alphabet)).collect();
            // Both ways of classifying chunks (see `scan::body_masks`).
            for (profile, avx2) in [
                (Profile::Rfc9309, Avx2::detect()),
                (Profile::Google, Avx2::detect()),
                (Profile::Rfc9309, None),
                (Profile::Google, None),
            ] {
                let mut lines = Lines::new(&body, 512_000, profile);
                lines.avx2 = avx2;
                let got: Vec<_> = lines
                    .map(|l| (l.content.to_vec(), l.colon, l.escapable))
                    .collect();
                let want = reference(&body, profile);
                // `escapable` may be a false alarm (a comment's bytes
                // count), never a miss.
                assert_eq!(got.len(), want.len(), "{body:?}");
                for (g, w) in got.iter().zip(&want) {
                    assert_eq!((&g.0, g.1), (&w.0, w.1), "{body:?}");
                    assert!(g.2 || !w.2, "{body:?}");
                }
            }
        }
    }

    #[test]
    fn partial_bom() {
        assert_eq!(lines(b"\xEF\xBBa"), [(1, &b"a"[..])]);
        assert_eq!(lines(b"\xEFa"), [(1, &b"a"[..])]);
        assert_eq!(lines(b"\xEF\xEF\xBB\xBF"), [(1, &b"\xEF\xBB\xBF"[..])]);
    }
}
