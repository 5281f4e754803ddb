//! Product tokens (§2.2.1): what a `user-agent` line names, and what a
//! crawler may call itself.

use crate::record::is_space;
use crate::scan::{self, Block};
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

/// How many bytes `value` starts with that may be in a product token, 16
/// at a time (most tokens are 6 to 20 bytes).
fn token_len(value: &[u8]) -> usize {
    let mut at = 0;
    while at < value.len() {
        let block = Block::load(value, at);
        let others = !(block.letters() | block.equal(b'_') | block.equal(b'-')) & 0xFFFF;
        if others != 0 {
            return (at + scan::first(others)).min(value.len());
        }
        at += scan::WIDTH;
    }
    value.len()
}

/// Reads a trimmed `user-agent` value.
pub(crate) fn named(profile: Profile, value: &[u8]) -> Named<'_> {
    match value {
        [b'*'] => Named::Everyone,
        [b'*', next, ..] if is_space(profile, *next) => Named::Everyone,
        _ => Named::Token(&value[..token_len(value)]),
    }
}

/// Checks a crawler's own name as [`Robots::rules_for`] does, for callers
/// that must refuse a bad one before asking: RFC profile, a product token
/// and nothing else (§2.2.1); Google profile, any string, compared whole
/// (as Google's library).
///
/// # Errors
/// [`Error::InvalidToken`] for a name the profile refuses.
///
/// [`Robots::rules_for`]: crate::Robots::rules_for
pub fn check_crawler(profile: Profile, token: &[u8]) -> Result<(), Error> {
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
    fn token_ends_agree_with_a_byte_by_byte_reading() {
        // Values around the 16-byte blocks, from bytes in and out of
        // tokens (letters' neighbours in ASCII too).
        let mut draw = crate::draw::Draw::new(0xD1B5_4A32_D192_ED03);
        for round in 0..4000 {
            let len = round % 50;
            let value: Vec<u8> = (0..len)
                .map(|_| match draw.below(8) {
                    0 => draw.pick(b"@[`{/ 0\xC3"),
                    1 => draw.pick(b"_-AZaz"),
                    _ => draw.pick(b"GooglebotMediapartners"),
                })
                .collect();
            let want = value.iter().take_while(|&&b| is_token_byte(b)).count();
            assert_eq!(token_len(&value), want, "{value:?}");
        }
        let long = "Mediapartners-Google_Bot-Extended/2.1";
        assert_eq!(
            named(Profile::Rfc9309, long.as_bytes()),
            Named::Token(b"Mediapartners-Google_Bot-Extended")
        );
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
