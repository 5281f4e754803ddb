//! URL → path, params and query, cut the way Google's library cuts them
//! (SPEC §4). The fragment is dropped; an empty path is `/`.

/// The part of a URL that rules match: `slash` says a `/` goes in front of
/// `rest` (the URL's path started with `?` or `;`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct PathParts<'a> {
    pub slash: bool,
    pub rest: &'a [u8],
}

/// The first `/`, `?` or `;` at or after `from`.
fn find_path_start(s: &[u8], from: usize) -> Option<usize> {
    memchr::memchr3(b'/', b'?', b';', s.get(from..)?).map(|i| i + from)
}

/// Where `://` starts: a `:` followed by `//`.
fn find_scheme_end(s: &[u8]) -> Option<usize> {
    let mut from = 0;
    while let Some(i) = memchr::memchr(b':', &s[from..]) {
        let at = from + i;
        if s[at + 1..].starts_with(b"//") {
            return Some(at);
        }
        from = at + 1;
    }
    None
}

pub(crate) fn path_of(url: &[u8]) -> PathParts<'_> {
    const ROOT: PathParts<'static> = PathParts {
        slash: false,
        rest: b"/",
    };
    // A leading `//` (scheme-relative URL) is skipped.
    let start = if url.starts_with(b"//") { 2 } else { 0 };
    let early_path = find_path_start(url, start);
    let scheme_end = find_scheme_end(&url[start..]).map(|i| i + start);
    // `://` ends a scheme only when no path, params or query start before it.
    let authority = match (scheme_end, early_path) {
        (Some(end), Some(p)) if p < end => start,
        (Some(end), _) => end + 3,
        (None, _) => start,
    };
    let Some(path_start) = find_path_start(url, authority) else {
        return ROOT;
    };
    let hash = memchr::memchr(b'#', &url[start..]).map(|i| i + start);
    if hash.is_some_and(|h| h < path_start) {
        return ROOT;
    }
    let rest = &url[path_start..hash.unwrap_or(url.len())];
    PathParts {
        slash: url[path_start] != b'/',
        rest,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cut(url: &str) -> String {
        let p = path_of(url.as_bytes());
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
        ] {
            assert_eq!(cut(url), want, "{url}");
        }
    }
}
