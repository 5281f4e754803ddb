//! The origin a robots.txt governs (§2.3: one file per scheme, host and
//! port), read as a WHATWG URL parser reads it: the reading of browsers and
//! of Node's `fetch`, so that the `/robots.txt` fetched is on the server the
//! HTTP client contacts for the URL. Scheme and host come out lower-cased,
//! IDNA hosts as punycode, default ports dropped, userinfo left out.
//!
//! Authorities that common HTTP clients read differently are refused, not
//! guessed: WHATWG turns `\` into `/` and strips tabs and newlines, Go's
//! `net/url` rejects them, Python's `urllib.parse` keeps `\` in the host;
//! `0x7f.1` is 127.0.0.1 to WHATWG and a name to Go. Such a URL could key
//! one server's rules while the client fetches from another.

use crate::Error;

/// A host longer than a DNS name allows (253 bytes, punycode) plus userinfo
/// and port is no host to key.
const MAX_AUTHORITY: usize = 1024;

/// A normalised origin, `scheme://host[:port]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Origin(String);

impl Origin {
    pub fn as_str(&self) -> &str {
        &self.0
    }

    pub fn into_string(self) -> String {
        self.0
    }
}

fn invalid(url: &[u8], reason: &'static str) -> Error {
    let shown = &url[..url.len().min(200)];
    Error::InvalidUrl {
        url: String::from_utf8_lossy(shown).into_owned(),
        reason,
    }
}

/// Bytes that HTTP clients disagree about in an authority: WHATWG drops
/// tabs and newlines and reads `\` as `/`; others keep or reject them.
fn ambiguous(b: u8) -> bool {
    matches!(b, b'\\' | b'%' | b' ' | 0x7F) || b < 0x20
}

/// The origin whose `/robots.txt` governs `url`, `scheme://host[:port]`,
/// as [`Cache`](crate::Cache) keys it: what a store shared by a fleet
/// keys an origin's copy by.
///
/// ```
/// assert_eq!(robotstxt::robots_origin("HTTPS://Example.com:443/a?b")?, "https://example.com");
/// # Ok::<(), robotstxt::Error>(())
/// ```
///
/// # Errors
/// [`Error::InvalidUrl`] for a URL the cache refuses.
pub fn robots_origin(url: impl AsRef<[u8]>) -> Result<String, Error> {
    origin_of(url.as_ref()).map(Origin::into_string)
}

/// The origin of an absolute `http`/`https` URL (one allocation).
pub(crate) fn origin_of(url: &[u8]) -> Result<Origin, Error> {
    let sep = memchr::memmem::find(url, b"://")
        .ok_or_else(|| invalid(url, "it has no scheme (expected http:// or https://)"))?;
    let scheme = &url[..sep];
    if !scheme.eq_ignore_ascii_case(b"http") && !scheme.eq_ignore_ascii_case(b"https") {
        return Err(invalid(url, "only http and https URLs have a robots.txt"));
    }
    let rest = &url[sep + 3..];
    let end = rest
        .iter()
        .position(|b| matches!(b, b'/' | b'?' | b'#'))
        .unwrap_or(rest.len());
    let authority = &rest[..end];
    if authority.iter().any(|&b| ambiguous(b)) {
        return Err(invalid(
            url,
            "its authority holds a backslash, whitespace, a control byte or a %-escape, \
             which HTTP clients read differently; normalise the URL with your crawler's \
             own URL parser first",
        ));
    }
    if authority.len() > MAX_AUTHORITY {
        return Err(invalid(url, "its host is too long"));
    }
    let authority =
        std::str::from_utf8(authority).map_err(|_| invalid(url, "its host is not valid UTF-8"))?;
    let host_port = authority.rsplit_once('@').map_or(authority, |(_, h)| h);
    if host_port.is_empty() || host_port.starts_with(':') {
        return Err(invalid(url, "it has no host"));
    }
    // Only the authority is parsed: the path cannot change the origin, and
    // may be huge or not UTF-8.
    let mut head = String::with_capacity(sep + 4 + authority.len());
    head.push_str(if scheme.len() == 4 { "http" } else { "https" });
    head.push_str("://");
    head.push_str(authority);
    head.push('/');
    let parsed = url::Url::parse(&head).map_err(|e| invalid(url, parse_reason(e)))?;
    if let Some(url::Host::Ipv4(ip)) = parsed.host() {
        let written = host_port.rsplit_once(':').map_or(host_port, |(h, _)| h);
        if written != ip.to_string() {
            return Err(invalid(
                url,
                "its host is an IPv4 address in a form HTTP clients read differently \
                 (hex, octal, short or with a trailing dot); write it as four decimal \
                 numbers, such as 127.0.0.1",
            ));
        }
    }
    if !parsed.username().is_empty() || parsed.password().is_some() {
        return Ok(Origin(parsed.origin().ascii_serialization()));
    }
    // Without userinfo the serialization is the origin and its `/`: keep
    // the one allocation the parse made.
    let mut text = String::from(parsed);
    text.pop();
    Ok(Origin(text))
}

fn parse_reason(error: url::ParseError) -> &'static str {
    use url::ParseError as E;
    match error {
        E::EmptyHost => "it has no host",
        E::InvalidPort => "its port is not a number from 0 to 65535",
        E::InvalidIpv4Address => "its host is not a valid IPv4 address",
        E::InvalidIpv6Address => "its host is not a valid IPv6 address",
        E::InvalidDomainCharacter => "its host holds a character no host name may hold",
        E::IdnaError => "its host is not a valid internationalised domain name",
        _ => "it is not a valid URL",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn origin(url: &str) -> Result<String, Error> {
        origin_of(url.as_bytes()).map(Origin::into_string)
    }

    #[test]
    fn origins() {
        for (url, want) in [
            ("https://Example.COM/a?b", "https://example.com"),
            ("HTTP://example.com:80/", "http://example.com"),
            ("https://example.com:443", "https://example.com"),
            ("https://example.com:8443/x", "https://example.com:8443"),
            (
                "http://user:pw@example.com:8080#f",
                "http://example.com:8080",
            ),
            ("http://[::1]:8080/", "http://[::1]:8080"),
            ("http://[::1]/", "http://[::1]"),
            ("http://bücher.example/", "http://xn--bcher-kva.example"),
        ] {
            assert_eq!(origin(url).unwrap(), want, "{url}");
        }
        for bad in [
            "/path",
            "ftp://x/",
            "https:///x",
            "http://x:8a/",
            "example.com",
            "http://127.0.0.1\\x/secret",
            "http://victim\\@evil/secret",
            "http://0x7f.1/",
        ] {
            assert!(origin(bad).is_err(), "{bad}");
        }
        assert!(origin(&format!("https://{}/", "a".repeat(2000))).is_err());
    }
}
