//! `robotstxt_product_token`: a crawler's product token from its whole
//! User-Agent header.

use super::status::robotstxt_status;
use super::{bytes, guard, Out};
use engine::product_token;

/// Finds the crawler's product token in the `user_agent_len` bytes of a
/// whole User-Agent header at `user_agent`, for
/// `robotstxt_robots_rules_for`. If a comment starts with `compatible;`
/// (any case), it is the first product named after that:
/// `Mozilla/5.0 (compatible; ExampleBot/2.1; +https://example.com/bot)`
/// gives `ExampleBot`. Otherwise it is the header's first product:
/// `ExampleBot/1.0 (+https://example.com/bot)` gives `ExampleBot`. A
/// product's name ends at `/`, whitespace, `;`, `(` or the end.
///
/// Writes the token to `*token_out` and `*token_len_out`. It points into
/// `user_agent` (no copy), so it is valid as long as that buffer is.
///
/// An empty header, a name that is not one or more of `A-Z a-z _ -`, and a
/// browser's header (`Mozilla` without `compatible;`) give
/// `ROBOTSTXT_STATUS_INVALID_TOKEN`, and `robotstxt_last_error` says what was
/// passed; pass the crawler's own token then.
///
/// # Safety
/// `user_agent` must be readable for `user_agent_len` bytes (or NULL when
/// 0); `token_out` and `token_len_out` writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn robotstxt_product_token(
    user_agent: *const u8,
    user_agent_len: usize,
    token_out: *mut *const u8,
    token_len_out: *mut usize,
) -> robotstxt_status {
    guard("robotstxt_product_token", || {
        // SAFETY: per the contract above.
        let user_agent = unsafe { bytes(user_agent, user_agent_len, "user_agent")? };
        let (ptr, len) = (
            Out::new(token_out, "token_out")?,
            Out::new(token_len_out, "token_len_out")?,
        );
        let token = product_token(user_agent)?;
        // SAFETY: writable per the contract.
        unsafe {
            ptr.put(token.as_ptr());
            len.put(token.len());
        }
        Ok(())
    })
}
