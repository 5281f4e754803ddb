//! Product tokens (§2.2.1): what a `user-agent` line names, and what a
//! crawler may call itself.

use crate::record::is_space;
use crate::{Error, Profile};

/// What one `user-agent` value names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Named<'a> {
    /// `*`, or `*` followed by whitespace: the global group.
    Everyone,
    /// The product token: the longest prefix of `A-Z a-z _ -` (may be empty).
    Token(&'a [u8]),
}

fn is_token_byte(b: u8) -> bool {
    b.is_ascii_alphabetic() || b == b'_' || b == b'-'
}

/// Reads a trimmed `user-agent` value.
pub(crate) fn named(profile: Profile, value: &[u8]) -> Named<'_> {
    match value {
        [b'*'] => Named::Everyone,
        [b'*', next, ..] if is_space(profile, *next) => Named::Everyone,
        _ => {
            let end = value
                .iter()
                .position(|&b| !is_token_byte(b))
                .unwrap_or(value.len());
            Named::Token(&value[..end])
        }
    }
}

/// Checks the crawler's own name. RFC profile: a product token, nothing
/// else. Google profile: any string, compared whole (as Google's library).
pub(crate) fn check_crawler(profile: Profile, token: &[u8]) -> Result<(), Error> {
    if profile == Profile::Google || (!token.is_empty() && token.iter().all(|&b| is_token_byte(b)))
    {
        Ok(())
    } else {
        Err(Error::InvalidToken {
            token: String::from_utf8_lossy(token).into_owned(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens() {
        let p = Profile::Rfc9309;
        assert_eq!(named(p, b"Foo Bar"), Named::Token(b"Foo"));
        assert_eq!(named(p, b"AB42bot"), Named::Token(b"AB"));
        assert_eq!(named(p, b"Googlebot/2.1"), Named::Token(b"Googlebot"));
        assert_eq!(named(p, b"* x"), Named::Everyone);
        assert_eq!(named(p, b"*x"), Named::Token(b""));
        assert_eq!(named(p, b"*\x0Bx"), Named::Token(b""));
        assert_eq!(named(Profile::Google, b"*\x0Bx"), Named::Everyone);
    }

    #[test]
    fn crawler_names() {
        for bad in [
            "",
            "MyBot/1.0",
            "My Bot",
            "Mozilla/5.0 (compatible; NimbuBot/1.0)",
        ] {
            let err = check_crawler(Profile::Rfc9309, bad.as_bytes()).unwrap_err();
            assert!(err.to_string().contains(&format!("{bad:?}")), "{err}");
        }
        assert!(check_crawler(Profile::Rfc9309, b"Nimbu_Bot-x").is_ok());
        assert!(check_crawler(Profile::Google, b"").is_ok());
    }
}
