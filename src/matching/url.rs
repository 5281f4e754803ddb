//! URL → path, params and query, cut the way Google's library cuts them
//! (behaviour §4). The fragment is dropped; an empty path is `/`.
//!
//! One pass over the URL, 16 bytes at a time (see `scan`): a check cuts
//! every URL it is given, and most are short.

use crate::percent;
use crate::scan::{self, Block};

/// The part of a URL that rules match: `slash` says a `/` goes in front of
/// `rest` (the URL's path started with `?` or `;`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct PathParts<'a> {
    pub slash: bool,
    pub rest: &'a [u8],
    /// The RFC profile rewrites `rest` before matching: it holds a `*`,
    /// `$`, byte ≥ 0x80 or escape that normalising changes (not one that
    /// `percent::stays`). Looked for only when asked (`ESCAPES`): the
    /// Google profile leaves escapes as they are.
    pub escapable: bool,
}

/// The first `/`, `?`, `;` or `#` at or after `from`, or `:` too when
/// `COLON`.
#[inline(always)]
fn find_delimiter<const COLON: bool>(s: &[u8], mut from: usize) -> Option<usize> {
    while from < s.len() {
        let block = Block::load(s, from);
        let mut found =
            block.equal(b'/') | block.equal(b'?') | block.equal(b';') | block.equal(b'#');
        if COLON {
            found |= block.equal(b':');
        }
        if found != 0 {
            return Some(from + scan::first(found));
        }
        from += scan::WIDTH;
    }
    None
}

/// The end of the path at `from` (its `#` or the end of `s`), and, with
/// `ESCAPES`, whether normalising changes it (see `PathParts::escapable`).
// Left to the compiler, it was inlined or not as `Rules::verdict` grew.
#[inline(always)]
fn path_end<const ESCAPES: bool>(s: &[u8], mut from: usize) -> (usize, bool) {
    let mut escapable = false;
    while from < s.len() {
        let block = Block::load(s, from);
        let hash = block.equal(b'#');
        let special = if ESCAPES && !escapable {
            percent::changing(&block)
        } else {
            0
        };
        // Most blocks hold neither: one test passes them.
        if hash | special != 0 {
            // Only the bytes before the `#` count (all, with none: the
            // subtraction wraps).
            let mut special = special & (hash & hash.wrapping_neg()).wrapping_sub(1);
            // A `#` is no hex digit: an escape it cuts short begins none,
            // here as in the path before it.
            while special != 0 && !escapable {
                escapable = !percent::stays(s, from + scan::first(special));
                special &= special - 1;
            }
            if hash != 0 {
                return (from + scan::first(hash), escapable);
            }
        }
        from += scan::WIDTH;
    }
    (s.len(), escapable)
}

#[inline]
pub(crate) fn path_of<const ESCAPES: bool>(url: &[u8]) -> PathParts<'_> {
    const ROOT: PathParts<'static> = PathParts {
        slash: false,
        rest: b"/",
        escapable: false,
    };
    // `://` ends a scheme only when no path, params or query start before
    // it; a `#` before the path leaves the path empty. Most URLs start
    // with `http://` or `https://`: their scheme needs no search.
    let head = url
        .first_chunk::<8>()
        .map_or(0, |bytes| u64::from_le_bytes(*bytes));
    let (mut at, mut scheme_ended) = if head == u64::from_le_bytes(*b"https://") {
        (8, true)
    } else if head & 0x00FF_FFFF_FFFF_FFFF == u64::from_le_bytes(*b"http://\0") {
        (7, true)
    } else {
        // A leading `//` (scheme-relative URL) is skipped.
        (if url.starts_with(b"//") { 2 } else { 0 }, false)
    };
    let path_start = loop {
        if scheme_ended {
            // After the scheme a `:` (a port) ends nothing.
            match find_delimiter::<false>(url, at) {
                Some(i) if url[i] != b'#' => break i,
                _ => return ROOT,
            }
        }
        let Some(i) = find_delimiter::<true>(url, at) else {
            return ROOT;
        };
        match url[i] {
            b'#' => return ROOT,
            b':' if url[i + 1..].starts_with(b"//") => {
                at = i + 3;
                scheme_ended = true;
            }
            b':' => at = i + 1,
            _ => break i,
        }
    };
    let (end, escapable) = path_end::<ESCAPES>(url, path_start);
    PathParts {
        slash: url[path_start] != b'/',
        rest: &url[path_start..end],
        escapable,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cut(url: &str) -> String {
        let p = path_of::<false>(url.as_bytes());
        assert_eq!(p.rest, path_of::<true>(url.as_bytes()).rest, "{url}");
        format!(
            "{}{}",
            if p.slash { "/" } else { "" },
            std::str::from_utf8(p.rest).unwrap()
        )
    }

    #[test]
    fn google_cutting() {
        for (url, want) in [
            ("example.com?a", "/?a"),
            ("a/b", "/b"),
            ("//a/b/c", "/b/c"),
            ("http://x.y/a;b#c", "/a;b"),
            ("https://host", "/"),
            ("https://host#x/y", "/"),
            ("", "/"),
            ("/a/http://b/c", "/a/http://b/c"),
            ("http://h/a#b/c", "/a"),
            ("/", "/"),
            ("host:8080/a", "/a"),
            ("a#b://c/d", "/"),
            ("http://h:80/x", "/x"),
            ("//h:1//p", "//p"),
            ("https://h:1/p:q", "/p:q"),
            ("http://h?x", "/?x"),
            ("https://h#/x", "/"),
            ("https:/h/x", "/h/x"),
            ("https:h/x", "/x"),
            ("http://", "/"),
            ("https://", "/"),
            ("HTTP://h/x", "/x"),
        ] {
            assert_eq!(cut(url), want, "{url}");
        }
    }

    #[test]
    fn escapable_bytes_are_noted_before_the_fragment_only() {
        assert!(!path_of::<true>(b"http://h/a/b?c=d").escapable);
        assert!(path_of::<true>(b"http://h/a%2f").escapable);
        assert!(path_of::<true>(b"http://h/a%41").escapable);
        // Escapes normalising leaves as they are.
        assert!(!path_of::<true>(b"http://h/a%2F?q=%7Ba%7D%").escapable);
        assert!(!path_of::<true>(b"http://h/a%2#F").escapable);
        assert!(path_of::<true>(b"/a*").escapable);
        assert!(path_of::<true>("/ツ".as_bytes()).escapable);
        assert!(!path_of::<true>(b"http://h%/a#%*$").escapable);
        assert!(!path_of::<false>(b"http://h/a%2F").escapable);
    }

    /// `escapable` holds exactly when the RFC normaliser changes the path:
    /// escapes of every kind, cut short by a `#` or the end, around the
    /// 16-byte blocks.
    #[test]
    fn escapable_is_whether_normalising_changes_the_path() {
        let pieces: &[&[u8]] = &[
            b"%", b"%2F", b"%2f", b"%41", b"%7E", b"%C3", b"%c3", b"%2A", b"%24", b"%g", b"%4",
            b"*", b"$", b"ab", b"/", b"\xC3", b"#", b"?",
        ];
        let mut draw = crate::draw::Draw::new(0x2545_F491_4F6C_DD1D);
        for round in 0..20_000 {
            let url = [&b"http://h/"[..], &draw.joined(pieces, round % 14)].concat();
            let parts = path_of::<true>(&url);
            let mut buf = vec![0u8; 3 * parts.rest.len() + 16];
            let n = percent::normalise_path_into(crate::Profile::Rfc9309, parts.rest, &mut buf)
                .expect("room for any rewrite");
            assert_eq!(parts.escapable, buf[..n] != *parts.rest, "{url:?}");
        }
    }
}
