//! `*` and `$` matching (§2.2.2–2.2.3), linear in the path and pattern.
//!
//! A pattern is a prefix match from the first byte of the path. `*` matches
//! any run of bytes; a `$` that ends the pattern anchors it to the end of the
//! path. Segments between `*`s are found leftmost-first: for `*`-only globs
//! the leftmost placement of each segment leaves the most room for the rest,
//! so no backtracking is ever needed.

use crate::scan;

/// Whether the normalised `pattern` matches the normalised `path`, with
/// nothing compiled or allocated: for patterns met once (a Content-Usage
/// path), where `Globs` serves the rules a check meets every time.
pub(crate) fn matches(pattern: &[u8], path: &[u8]) -> bool {
    let body = pattern.strip_suffix(b"$").unwrap_or(pattern);
    let anchored = body.len() < pattern.len();
    let Some(star) = memchr::memchr(b'*', body) else {
        return if anchored {
            path == body
        } else {
            path.starts_with(body)
        };
    };
    if !path.starts_with(&body[..star]) {
        return false;
    }
    let mut segments = body[star + 1..].split(|&b| b == b'*').peekable();
    let mut at = star;
    while let Some(segment) = segments.next() {
        if anchored && segments.peek().is_none() {
            // The final segment must end the path, after what came before.
            return path.len() - at >= segment.len() && path.ends_with(segment);
        }
        if segment.is_empty() {
            continue;
        }
        crate::work::add(1 + (path.len() - at) / 64);
        match scan::find(&path[at..], segment) {
            Some(found) => at += found + segment.len(),
            None => return false,
        }
    }
    true
}

/// Wildcard patterns compiled once for matching: per pattern, the
/// non-empty segments between its `*`s after its literal prefix, as ranges
/// of the text the patterns live in.
#[derive(Clone, Debug, Default)]
pub(crate) struct Globs {
    globs: Vec<Glob>,
    segments: Vec<(u32, u32)>,
}

#[derive(Clone, Copy, Debug)]
struct Glob {
    /// Its segments in `Globs::segments`.
    first: u32,
    end: u32,
    /// The last segment must end the path (a final `$` not after a `*`).
    anchored: bool,
    /// The shortest path it can match: prefix and segments.
    min_len: u32,
}

impl Globs {
    /// See `Rules::prefetch`.
    pub fn prefetch(&self, lines: usize) {
        crate::prefetch::slice(&self.globs, lines);
        crate::prefetch::slice(&self.segments, lines);
    }

    /// Compiles `pattern`, found at `offset` in the text, whose first `*` is
    /// at `prefix_len`; returns its id.
    pub fn add(&mut self, pattern: &[u8], offset: u32, prefix_len: usize) -> u32 {
        let body = pattern.strip_suffix(b"$").unwrap_or(pattern);
        let first = self.segments.len() as u32;
        let mut min_len = prefix_len as u32;
        let mut at = prefix_len;
        for segment in body[prefix_len..].split(|&b| b == b'*') {
            if !segment.is_empty() {
                self.segments
                    .push((offset + at as u32, segment.len() as u32));
                min_len += segment.len() as u32;
            }
            at += segment.len() + 1;
        }
        self.globs.push(Glob {
            first,
            end: self.segments.len() as u32,
            anchored: body.len() < pattern.len() && !body.ends_with(b"*"),
            min_len,
        });
        self.globs.len() as u32 - 1
    }

    /// Whether glob `id` matches `path`, whose first `prefix_len` bytes are
    /// known to be the glob's literal prefix.
    pub fn matches(&self, id: u32, text: &[u8], path: &[u8], prefix_len: usize) -> bool {
        let glob = self.globs[id as usize];
        if path.len() < glob.min_len as usize {
            return false;
        }
        let segments = &self.segments[glob.first as usize..glob.end as usize];
        let mut at = prefix_len;
        for (i, &(start, len)) in segments.iter().enumerate() {
            let segment = &text[start as usize..(start + len) as usize];
            crate::work::add(1 + (path.len() - at) / 64);
            if glob.anchored && i + 1 == segments.len() {
                // The final segment must end the path, after what came before.
                return path.len() - at >= segment.len() && path.ends_with(segment);
            }
            match scan::find(&path[at..], segment) {
                Some(found) => at += found + segment.len(),
                None => return false,
            }
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wildcards_and_anchor() {
        for (pattern, path, want) in [
            ("/", "/x", true),
            ("/a", "/", false),
            ("/*.pdf$", "/g/size.pdf", true),
            ("/*.pdf$", "/g/size.pdf?p=1", false),
            ("/a$", "/a", true),
            ("/a$", "/ab", false),
            ("/a$b", "/a$b", true),
            ("*", "/", true),
            ("$", "/", false),
            ("/*$", "/anything", true),
            ("/a*b*c$", "/axbxcxc", true),
            ("/a*b*c$", "/axbxcx", false),
            ("/a*ab$", "/ab", false),
            ("/**x", "/yx", true),
            ("/x*", "/x", true),
            ("/a*b*$", "/axbyy", true),
            ("/a*b$", "/axbyy", false),
            ("/a*b*c", "/abc", true),
            ("/*.php$", "/.php", true),
            ("/*.php$", "/.ph", false),
            ("/a", "/ab", true),
        ] {
            assert_eq!(
                matches(pattern.as_bytes(), path.as_bytes()),
                want,
                "{pattern} {path}"
            );
        }
    }
}
