//! The product token in a whole `User-Agent` header, for a crawler that
//! knows its header better than its token.

use crate::agent::check_crawler;
use crate::{Error, Profile};

/// The crawler's product token in a whole `User-Agent` header, ready for
/// [`Robots::rules_for`](crate::Robots::rules_for), which wants the token
/// alone (RFC 9309 §2.2.1).
///
/// The rule:
///
/// 1. If the header holds the item `compatible` followed by `;` (items are
///    separated by `(`, `)` and `;`; ASCII case-insensitive, whitespace
///    allowed around), the token is the name of the product that follows:
///    `Mozilla/5.0 (compatible; ExampleBot/2.1; +https://example.com/bot)`,
///    `Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible;
///    ExampleBot/2.1) Chrome/120.0` and `… (KHTML, like Gecko); compatible;
///    ExampleBot/1.0` all give `ExampleBot`. The first such item counts.
/// 2. Otherwise the token is the name of the header's first product:
///    `ExampleBot/1.0 (+https://example.com/bot)` and `ExampleBot` give
///    `ExampleBot`.
///
/// A product's name is its text up to `/`, whitespace, `;`, `(`, `)` or
/// the end, after leading whitespace.
///
/// ```
/// use robotstxt::{product_token, Robots};
///
/// let ua = "Mozilla/5.0 (compatible; ExampleBot/2.1; +https://example.com/bot)";
/// assert_eq!(product_token(ua)?, "ExampleBot");
/// assert_eq!(product_token("ExampleBot/1.0 (+https://example.com/bot)")?, "ExampleBot");
/// assert!(product_token("Mozilla/5.0 (X11; Linux x86_64) Firefox/120.0").is_err());
///
/// let robots = Robots::parse(b"User-agent: examplebot\nDisallow: /\n");
/// assert!(!robots.rules_for(product_token(ua)?)?.can_fetch("/page"));
/// # Ok::<(), robotstxt::Error>(())
/// ```
///
/// The token borrows from `user_agent`. One pass over the header; allocates
/// nothing unless it fails.
///
/// # Errors
///
/// [`Error::InvalidUserAgent`] when the header is empty or only
/// whitespace, when the name it gives is not a product token (one or more
/// of `A-Z a-z _ -`, so `Bot2/1.0` is refused), and when that name is
/// `Mozilla`: a browser's header without `compatible;` names no crawler, so
/// pass the crawler's own token instead.
pub fn product_token<T: AsRef<[u8]> + ?Sized>(user_agent: &T) -> Result<&str, Error> {
    let header = user_agent.as_ref();
    let refused = |reason| {
        const SHOWN: usize = 200;
        Error::InvalidUserAgent {
            user_agent: String::from_utf8_lossy(&header[..header.len().min(SHOWN)]).into_owned(),
            reason,
        }
    };
    let name = compatible_product(header).unwrap_or_else(|| name(header));
    if header.trim_ascii().is_empty() {
        return Err(refused("it is empty"));
    }
    if name.eq_ignore_ascii_case(b"Mozilla") {
        return Err(refused(
            "it is a browser's (Mozilla, with no `compatible;` product)",
        ));
    }
    if check_crawler(Profile::Rfc9309, name).is_err() {
        return Err(refused(
            "the name it gives is not one or more of A-Z a-z _ -",
        ));
    }
    Ok(std::str::from_utf8(name).expect("a product token is ASCII"))
}

/// The name of the product at the start of `text`.
fn name(text: &[u8]) -> &[u8] {
    let text = text.trim_ascii_start();
    let end = text
        .iter()
        .position(|&b| matches!(b, b'/' | b';' | b'(' | b')') || b.is_ascii_whitespace())
        .unwrap_or(text.len());
    &text[..end]
}

/// The name of the product after the first item `compatible` that a `;`
/// ends.
fn compatible_product(header: &[u8]) -> Option<&[u8]> {
    let is_separator = |b: &u8| matches!(b, b'(' | b')' | b';');
    let mut start = 0;
    while start <= header.len() {
        let end = header[start..]
            .iter()
            .position(is_separator)
            .map_or(header.len(), |at| start + at);
        let item = &header[start..end];
        if end < header.len()
            && header[end] == b';'
            && item.trim_ascii().eq_ignore_ascii_case(b"compatible")
        {
            return Some(name(&header[end + 1..]));
        }
        start = end + 1;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    const GOOGLEBOT_SMARTPHONE: &str = "Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P) \
        AppleWebKit/537.36 (KHTML, like Gecko) Chrome/99.0 Mobile Safari/537.36 \
        (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";

    #[test]
    fn tokens_from_headers() {
        // (header, token or None for an error)
        let table: &[(&str, Option<&str>)] = &[
            // Rule 1: the first product after `compatible;` in a comment.
            (
                "Mozilla/5.0 (compatible; PoliteBot/2.1; +https://x)",
                Some("PoliteBot"),
            ),
            (GOOGLEBOT_SMARTPHONE, Some("Googlebot")),
            (
                "Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)",
                Some("bingbot"),
            ),
            (
                "Mozilla/5.0 ( Compatible ; PoliteBot/2.1 )",
                Some("PoliteBot"),
            ),
            ("Mozilla/5.0 (COMPATIBLE;PoliteBot)", Some("PoliteBot")),
            (
                "Mozilla/5.0 (compatible;\tPolite_Bot-x; rv:1)",
                Some("Polite_Bot-x"),
            ),
            ("(compatible; PoliteBot/2.1)", Some("PoliteBot")),
            ("Mozilla/5.0 (compatible; PoliteBot/2.1", Some("PoliteBot")), // left open
            (
                "Mozilla/5.0 (a (compatible; Inner) b) (compatible; PoliteBot)",
                Some("Inner"),
            ),
            (
                "Mozilla/5.0 (compatible\\); Evil) (compatible; PoliteBot)",
                Some("PoliteBot"),
            ),
            ("Mozilla/5.0 (compatible; 360Spider/1.0)", None),
            ("Mozilla/5.0 (compatible; )", None),
            ("Mozilla/5.0 (compatible; Mozilla/4.0)", None),
            // An old browser claims compatibility too, and is taken at its word.
            (
                "Mozilla/4.0 (compatible; MSIE 9.0; Windows NT 6.1)",
                Some("MSIE"),
            ),
            // Rule 2: the header's first product.
            (
                "PoliteBot/1.0 (+https://example.com/bot)",
                Some("PoliteBot"),
            ),
            ("PoliteBot", Some("PoliteBot")),
            ("  PoliteBot/1.0\r\n", Some("PoliteBot")),
            ("PoliteBot(+https://x)", Some("PoliteBot")),
            ("PoliteBot;rv:1", Some("PoliteBot")),
            ("PoliteBot/1.0 (compatible)", Some("PoliteBot")),
            ("Bot2/1.0", None),
            ("(+https://x) PoliteBot/1.0", None),
            // A browser, or `compatible;` not opening its comment: no crawler named.
            ("Mozilla/5.0", None),
            ("mozilla/4.0 (compatible)", None),
            (
                "Mozilla/5.0 (X11; Linux x86_64; rv:120.0) Gecko/20100101 Firefox/120.0",
                None,
            ),
            // `compatible;` in the middle of a comment, or outside one.
            (
                "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Googlebot/2.1; \
                 +http://www.google.com/bot.html) Chrome/120.0.0.0 Safari/537.36",
                Some("Googlebot"),
            ),
            (
                "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; GPTBot/1.0; \
                 +https://openai.com/gptbot",
                Some("GPTBot"),
            ),
            ("Mozilla/5.0 (compatible) PoliteBot/1.0", None),
            ("", None),
            (" \t ", None),
        ];
        for &(header, want) in table {
            let got = product_token(header);
            match want {
                Some(token) => assert_eq!(got, Ok(token), "{header:?}"),
                None => assert!(
                    matches!(got, Err(Error::InvalidUserAgent { .. })),
                    "{header:?}: {got:?}"
                ),
            }
        }
    }

    #[test]
    fn the_token_borrows_from_the_header() {
        let header = b"Mozilla/5.0 (compatible; PoliteBot/2.1)";
        let token = product_token(header).unwrap();
        assert_eq!(token.as_ptr(), header[25..].as_ptr());
    }

    #[test]
    fn bytes_that_are_not_utf8() {
        assert!(product_token(b"Polite\xFFBot/1.0").is_err());
        assert_eq!(product_token(b"PoliteBot/\xFF (\xFE)"), Ok("PoliteBot"));
    }

    #[test]
    fn a_long_browser_header_is_quoted_in_part() {
        let header = format!("Mozilla/5.0 ({})", "x".repeat(10_000));
        let Err(Error::InvalidUserAgent { user_agent, .. }) = product_token(&header) else {
            panic!("a browser's header names no crawler");
        };
        assert_eq!(user_agent.len(), 200);
    }
}
