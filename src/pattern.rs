//! `*` and `$` matching (§2.2.2–2.2.3), linear in the path and pattern.
//!
//! A pattern is a prefix match from the first byte of the path. `*` matches
//! any run of bytes; a `$` that ends the pattern anchors it to the end of the
//! path. Segments between `*`s are found leftmost-first: for `*`-only globs
//! the leftmost placement of each segment leaves the most room for the rest,
//! so no backtracking is ever needed.

/// Whether the normalised `pattern` matches the normalised `path`.
pub(crate) fn matches(pattern: &[u8], path: &[u8]) -> bool {
    let (body, anchored) = match pattern.split_last() {
        Some((b'$', body)) => (body, true),
        _ => (pattern, false),
    };
    let mut segments = body.split(|&b| b == b'*');
    let first = segments.next().unwrap_or_default();
    if !path.starts_with(first) {
        return false;
    }
    let mut at = first.len();
    let mut segments = segments.peekable();
    if segments.peek().is_none() {
        return !anchored || path.len() == at;
    }
    while let Some(segment) = segments.next() {
        let last = segments.peek().is_none();
        if last && anchored {
            // The final segment must end the path, after what came before.
            return path.len() - at >= segment.len() && path.ends_with(segment);
        }
        if segment.is_empty() {
            continue;
        }
        match find(&path[at..], segment) {
            Some(i) => at += i + segment.len(),
            None => return false,
        }
    }
    true
}

/// The first occurrence of a non-empty `needle` in `haystack`. Segments
/// are short and searched once each: finding the first byte with `memchr`
/// and comparing beats building a `memmem` searcher per call.
fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    let (&first, rest) = needle.split_first()?;
    let last_start = haystack.len().checked_sub(needle.len())?;
    let mut from = 0;
    while from <= last_start {
        let i = from + memchr::memchr(first, &haystack[from..=last_start])?;
        if haystack[i + 1..].starts_with(rest) {
            return Some(i);
        }
        from = i + 1;
    }
    None
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
        ] {
            assert_eq!(
                matches(pattern.as_bytes(), path.as_bytes()),
                want,
                "{pattern} {path}"
            );
        }
    }
}
