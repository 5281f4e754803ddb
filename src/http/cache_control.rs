//! `Cache-Control: max-age` (RFC 9111 §5.2.2.1).

use super::{delta_ms, trim_ows, HeaderError};

const HEADER: &str = "Cache-Control";

/// The `max-age` directive of a `Cache-Control` value, in milliseconds;
/// `Ok(None)` when it has none.
///
/// Directives are split at commas outside quoted strings; the name is
/// matched in any case, and the value may be quoted (`max-age="600"`) or
/// have whitespace around `=`. The first `max-age` with a valid value wins
/// (RFC 9111 §4.2.1 allows the first). Values past
/// [`MAX_DELTA_SECONDS`](crate::MAX_DELTA_SECONDS) are read as that.
///
/// ```
/// use robotstxt::max_age_ms;
/// assert_eq!(max_age_ms(b"public, MAX-AGE=600"), Ok(Some(600_000)));
/// assert_eq!(max_age_ms(b"no-cache=\"a, b\", max-age=\"60\""), Ok(Some(60_000)));
/// assert_eq!(max_age_ms(b"no-store"), Ok(None));
/// assert!(max_age_ms(b"max-age=soon").is_err());
/// ```
///
/// # Errors
///
/// A [`HeaderError`] when the value has `max-age` directives and none of
/// them holds delta-seconds (such as `max-age=-1` or `max-age=1.5`).
pub fn max_age_ms(cache_control: &[u8]) -> Result<Option<u64>, HeaderError> {
    let mut invalid = None;
    for directive in Directives(cache_control) {
        let (name, value) = match directive.iter().position(|&b| b == b'=') {
            Some(eq) => (trim_ows(&directive[..eq]), trim_ows(&directive[eq + 1..])),
            None => (trim_ows(directive), &[][..]),
        };
        if !name.eq_ignore_ascii_case(b"max-age") {
            continue;
        }
        let digits = match value {
            [b'"', inner @ .., b'"'] => inner,
            _ => value,
        };
        match delta_ms(digits) {
            Some(ms) => return Ok(Some(ms)),
            None => {
                invalid.get_or_insert(directive);
            }
        }
    }
    match invalid {
        None => Ok(None),
        Some(directive) => Err(HeaderError::new(
            HEADER,
            "max-age is not a number of seconds",
            trim_ows(directive),
        )),
    }
}

/// The comma-separated parts of a value, commas inside a quoted string
/// (with its `\` escapes) left alone.
pub(super) struct Directives<'a>(pub(super) &'a [u8]);

impl<'a> Iterator for Directives<'a> {
    type Item = &'a [u8];

    fn next(&mut self) -> Option<&'a [u8]> {
        if self.0.is_empty() {
            return None;
        }
        let (mut quoted, mut escaped) = (false, false);
        let mut end = self.0.len();
        for (i, &b) in self.0.iter().enumerate() {
            match (quoted, escaped, b) {
                (true, true, _) => escaped = false,
                (true, false, b'\\') => escaped = true,
                (_, _, b'"') => quoted = !quoted,
                (false, _, b',') => {
                    end = i;
                    break;
                }
                _ => {}
            }
        }
        let part = &self.0[..end];
        self.0 = self.0.get(end + 1..).unwrap_or_default();
        Some(part)
    }
}
