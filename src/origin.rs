//! The origin a robots.txt governs (§2.3: one file per scheme, host and
//! port): `scheme://host[:port]`, lower-case, default ports left out.

use crate::Error;

/// Long enough for any DNS name (253 bytes), a scheme and a port.
pub(crate) const MAX_ORIGIN: usize = 320;

/// A normalised origin in a stack buffer, so that lookups allocate nothing.
pub(crate) struct Origin {
    buf: [u8; MAX_ORIGIN],
    len: usize,
}

impl Origin {
    pub fn as_bytes(&self) -> &[u8] {
        &self.buf[..self.len]
    }

    fn push(&mut self, bytes: &[u8]) -> bool {
        let Some(slot) = self.buf.get_mut(self.len..self.len + bytes.len()) else {
            return false;
        };
        slot.copy_from_slice(bytes);
        slot.make_ascii_lowercase();
        self.len += bytes.len();
        true
    }
}

fn invalid(url: &[u8], reason: &'static str) -> Error {
    let shown = &url[..url.len().min(200)];
    Error::InvalidUrl {
        url: String::from_utf8_lossy(shown).into_owned(),
        reason,
    }
}

/// The origin of an absolute `http`/`https` URL.
pub(crate) fn origin_of(url: &[u8]) -> Result<Origin, Error> {
    let sep = memchr::memmem::find(url, b"://")
        .ok_or_else(|| invalid(url, "it has no scheme (expected http:// or https://)"))?;
    let scheme = &url[..sep];
    let default_port: &[u8] = if scheme.eq_ignore_ascii_case(b"http") {
        b"80"
    } else if scheme.eq_ignore_ascii_case(b"https") {
        b"443"
    } else {
        return Err(invalid(url, "only http and https URLs have a robots.txt"));
    };
    let rest = &url[sep + 3..];
    let end = rest
        .iter()
        .position(|b| matches!(b, b'/' | b'?' | b'#'))
        .unwrap_or(rest.len());
    let authority = &rest[..end];
    // userinfo@ is not part of the origin.
    let host_port = match memchr::memrchr(b'@', authority) {
        Some(at) => &authority[at + 1..],
        None => authority,
    };
    // A port follows the last colon, unless it is inside an IPv6 literal.
    let (host, port) = match memchr::memrchr(b':', host_port) {
        Some(colon) if !host_port[colon..].contains(&b']') => {
            (&host_port[..colon], Some(&host_port[colon + 1..]))
        }
        _ => (host_port, None),
    };
    if host.is_empty() {
        return Err(invalid(url, "it has no host"));
    }
    let port = match port {
        Some(p) if !p.iter().all(u8::is_ascii_digit) => {
            return Err(invalid(url, "its port is not a number"))
        }
        Some(p) => {
            let digits = &p[p.iter().position(|&b| b != b'0').unwrap_or(p.len())..];
            (!digits.is_empty() && digits != default_port).then_some(digits)
        }
        None => None,
    };
    let mut origin = Origin {
        buf: [0; MAX_ORIGIN],
        len: 0,
    };
    let fits = origin.push(scheme)
        && origin.push(b"://")
        && origin.push(host)
        && port.is_none_or(|p| origin.push(b":") && origin.push(p));
    if !fits {
        return Err(invalid(url, "its host is too long"));
    }
    Ok(origin)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn origin(url: &str) -> Result<String, Error> {
        origin_of(url.as_bytes()).map(|o| String::from_utf8(o.as_bytes().to_vec()).unwrap())
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
        ] {
            assert_eq!(origin(url).unwrap(), want, "{url}");
        }
        for bad in [
            "/path",
            "ftp://x/",
            "https:///x",
            "http://x:8a/",
            "example.com",
        ] {
            assert!(origin(bad).is_err(), "{bad}");
        }
        assert!(origin(&format!("https://{}/", "a".repeat(400))).is_err());
    }
}
