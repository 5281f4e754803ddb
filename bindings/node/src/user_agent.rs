//! `productToken`: the crawler's product token in a whole `User-Agent`
//! header.

use napi::bindgen_prelude::Unknown;
use napi::{Env, Result};
use napi_derive::napi;

use crate::js::{self, Js};

/// The crawler's product token in a whole `User-Agent` header, for
/// `robots.rulesFor`, which wants the token alone (RFC 9309 §2.2.1): the
/// name of the first product after `compatible;` in a comment, else the
/// name of the header's first product.
///
/// ```js
/// productToken('PoliteBot/1.0 (+https://example.com/bot)')                 // 'PoliteBot'
/// productToken('Mozilla/5.0 (compatible; PoliteBot/2.1; +https://example.com/bot)') // 'PoliteBot'
/// ```
///
/// @throws {TypeError} `userAgent` is neither a string nor a `Uint8Array`.
/// @throws {RangeError} no product token in it (`ERR_ROBOTSTXT_INVALID_TOKEN`):
///   an empty header, a name that is not one or more of `A-Z a-z _ -`, or a
///   browser's header (`Mozilla` without `compatible;`); pass your
///   crawler's own token then.
#[napi(catch_unwind, ts_args_type = "userAgent: string | Uint8Array")]
pub fn product_token(env: &Env, user_agent: Unknown) -> Result<String> {
    Js::new(env, &user_agent)
        .with_bytes("userAgent", |ua| {
            robotstxt::product_token(ua).map(str::to_owned)
        })?
        .map_err(|e| js::core_error(env, &e))
}
