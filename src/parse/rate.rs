//! `crawl-delay` and `request-rate` values (extensions; behaviour §5).

use std::time::Duration;

/// Crawl delays are kept up to a year: longer values mean "never", and a
/// year keeps every sum of times far from overflow.
pub const MAX_DELAY: Duration = Duration::from_secs(365 * 24 * 3600);

/// `request-rate: n/m`: `requests` requests per `seconds` seconds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RequestRate {
    /// Requests allowed per window, ≥ 1.
    pub requests: u32,
    /// The window in seconds, ≥ 1.
    pub seconds: u32,
}

impl RequestRate {
    /// The gap between two requests that the rate asks for: `seconds / requests`.
    pub fn interval(&self) -> Duration {
        Duration::from_secs(u64::from(self.seconds)) / self.requests
    }
}

/// `DIGIT+ ["." DIGIT*] / "." DIGIT+`, in seconds.
pub(crate) fn parse_crawl_delay(value: &[u8]) -> Option<Duration> {
    let (whole, fraction) = match memchr::memchr(b'.', value) {
        Some(dot) => (&value[..dot], Some(&value[dot + 1..])),
        None => (value, None),
    };
    let digits = |s: &[u8]| s.iter().all(u8::is_ascii_digit);
    let valid = digits(whole)
        && fraction.is_none_or(digits)
        && (!whole.is_empty() || fraction.is_some_and(|f| !f.is_empty()));
    if !valid {
        return None;
    }
    let mut secs: u64 = 0;
    for &d in whole {
        secs = secs.saturating_mul(10).saturating_add(u64::from(d - b'0'));
    }
    let mut nanos: u32 = 0;
    let mut scale = 100_000_000;
    for &d in fraction.unwrap_or_default() {
        nanos += u32::from(d - b'0') * scale;
        scale /= 10;
    }
    Some(Duration::new(secs.min(MAX_DELAY.as_secs()), nanos).min(MAX_DELAY))
}

/// `n/m` with an optional unit on `m` (`s`, `m`, `h`, any case).
pub(crate) fn parse_request_rate(value: &[u8]) -> Option<RequestRate> {
    let slash = memchr::memchr(b'/', value)?;
    let (n, m) = (&value[..slash], &value[slash + 1..]);
    let (m, unit) = match m.split_last() {
        Some((u, rest)) if u.is_ascii_alphabetic() => (rest, u.to_ascii_lowercase()),
        _ => (m, b's'),
    };
    let factor = match unit {
        b's' => 1,
        b'm' => 60,
        b'h' => 3600,
        _ => return None,
    };
    let number = |s: &[u8]| -> Option<u32> {
        if s.is_empty() || !s.iter().all(u8::is_ascii_digit) {
            return None;
        }
        std::str::from_utf8(s)
            .ok()?
            .parse()
            .ok()
            .filter(|&n| n >= 1)
    };
    let requests = number(n)?;
    let seconds = number(m)?.checked_mul(factor)?;
    Some(RequestRate { requests, seconds })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crawl_delays() {
        for (v, want) in [
            ("10", Some(10_000)),
            ("2.5", Some(2_500)),
            (".5", Some(500)),
            ("10.", Some(10_000)),
            ("0.05", Some(50)),
        ] {
            assert_eq!(
                parse_crawl_delay(v.as_bytes()).map(|d| d.as_millis()),
                want,
                "{v}"
            );
        }
        for v in ["-1", "+1", "1e3", "1,5", "1.5s", "", ".", "1.2.3"] {
            assert_eq!(parse_crawl_delay(v.as_bytes()), None, "{v}");
        }
        assert_eq!(
            parse_crawl_delay(b"99999999999999999999999"),
            Some(MAX_DELAY)
        );
    }

    #[test]
    fn request_rates() {
        let rate = |v: &str| parse_request_rate(v.as_bytes()).map(|r| (r.requests, r.seconds));
        assert_eq!(rate("1/10s"), Some((1, 10)));
        assert_eq!(rate("3/1m"), Some((3, 60)));
        assert_eq!(rate("1/1H"), Some((1, 3600)));
        assert_eq!(rate("2/5"), Some((2, 5)));
        for bad in ["0/5", "1/0", "a/b", "1/", "/5", "1/5x", "1 /5", "1/5 s"] {
            assert_eq!(rate(bad), None, "{bad}");
        }
    }
}
