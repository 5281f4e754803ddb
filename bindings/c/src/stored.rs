//! A fleet's shared store from C: an entry as bytes and back, its rules,
//! the keys (origin, host), and the Lua scripts that run each shared step
//! in Redis. The C caller brings its own Redis client.

use super::entry::{robotstxt_entry, robotstxt_freshness_policy};
use super::rules::robotstxt_rules;
use super::status::{
    robotstxt_status, Failure, ROBOTSTXT_STATUS_BUFFER_TOO_SMALL, ROBOTSTXT_STATUS_INVALID_ARGUMENT,
};
use super::{bytes, guard, handle, into_handle, robotstxt_str, Out, Outcome};
use engine::Entry;

/// The format `robotstxt_entry_encode` writes and `robotstxt_entry_decode`
/// reads; a copy of another version is refused with
/// `ROBOTSTXT_STATUS_COPY_VERSION`.
pub const ROBOTSTXT_STORED_COPY_VERSION: u32 = 1;

// The header cannot evaluate the core's constants, so it carries copies.
const _: () = assert!(ROBOTSTXT_STORED_COPY_VERSION == engine::STORED_COPY_VERSION as u32);

/// Encodes `entry` for a shared store (see `robotstxt_entry_decode`) into
/// `out`, which holds `out_cap` bytes. `(body, body_len)` is the body the
/// entry's parsed copy came from: the 2xx body of the fetch that stored
/// it, or what `robotstxt_entry_stored_body` gives of the bytes the entry
/// was decoded from; it is not read when the copy is not parsed rules.
/// Writes the encoding's length to `*len_out` in every case but an
/// error; when it exceeds `out_cap`, writes nothing else and returns
/// `ROBOTSTXT_STATUS_BUFFER_TOO_SMALL` (`out` may be NULL then, to ask the
/// length). Another body gives `ROBOTSTXT_STATUS_BODY_MISMATCH`.
///
/// # Safety
/// `entry` must be a live handle; `(body, body_len)` readable (NULL when
/// 0); `out` NULL or writable for `out_cap` bytes; `len_out` writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn robotstxt_entry_encode(
    entry: *const robotstxt_entry,
    body: *const u8,
    body_len: usize,
    out: *mut u8,
    out_cap: usize,
    len_out: *mut usize,
) -> robotstxt_status {
    guard("robotstxt_entry_encode", || {
        // SAFETY: per the contract above.
        let (entry, body) = unsafe { (handle(entry, "entry")?, bytes(body, body_len, "body")?) };
        let len_out = Out::new(len_out, "len_out")?;
        let encoded = entry.entry.encode(body)?;
        // SAFETY: writable per the contract.
        unsafe { len_out.put(encoded.len()) };
        if encoded.len() > out_cap || out.is_null() {
            return Err(Failure::new(
                ROBOTSTXT_STATUS_BUFFER_TOO_SMALL,
                format!(
                    "the encoding takes {} bytes and out holds {out_cap}: call again with \
                     a buffer of *len_out bytes",
                    encoded.len()
                ),
            ));
        }
        // SAFETY: `out` is writable for `out_cap` ≥ `encoded.len()` bytes.
        unsafe { std::ptr::copy_nonoverlapping(encoded.as_ptr(), out, encoded.len()) };
        Ok(())
    })
}

/// Decodes bytes from `robotstxt_entry_encode` into a new entry that
/// follows `*policy` (copied), its body parsed with the policy's parse
/// options. On success the caller owns `*entry_out` and frees it with
/// `robotstxt_entry_free`. Damaged, cut or foreign bytes give
/// `ROBOTSTXT_STATUS_INVALID_COPY`, a newer format
/// `ROBOTSTXT_STATUS_COPY_VERSION`.
///
/// # Safety
/// `(bytes, len)` must be readable; `policy` must point to a
/// `robotstxt_freshness_policy`; `entry_out` must be writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn robotstxt_entry_decode(
    bytes_ptr: *const u8,
    len: usize,
    policy: *const robotstxt_freshness_policy,
    entry_out: *mut *mut robotstxt_entry,
) -> robotstxt_status {
    guard("robotstxt_entry_decode", || {
        // SAFETY: per the contract above.
        let (encoded, policy) =
            unsafe { (bytes(bytes_ptr, len, "bytes")?, handle(policy, "policy")?) };
        let policy = policy.to_core()?;
        let out = Out::new(entry_out, "entry_out")?;
        let entry = Entry::decode(encoded, &policy)?;
        // SAFETY: writable per the contract.
        unsafe { out.put(into_handle(robotstxt_entry { entry, policy })) };
        Ok(())
    })
}

/// Writes to `*body_out` the body that bytes from `robotstxt_entry_encode`
/// carry (empty when the copy is not parsed rules): a view into `bytes`,
/// valid while they are.
///
/// # Safety
/// `(bytes, len)` must be readable; `body_out` writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn robotstxt_entry_stored_body(
    bytes_ptr: *const u8,
    len: usize,
    body_out: *mut robotstxt_str,
) -> robotstxt_status {
    guard("robotstxt_entry_stored_body", || {
        // SAFETY: per the contract above.
        let encoded = unsafe { bytes(bytes_ptr, len, "bytes")? };
        let out = Out::new(body_out, "body_out")?;
        let body = Entry::stored_body(encoded)?;
        // SAFETY: writable per the contract.
        unsafe { out.put(robotstxt_str::borrow(body)) };
        Ok(())
    })
}

/// Writes to `*source_out` the Lua source of the fleet script `(name,
/// name_len)` (`lookup`, `store`, `abandon`, `reserve`, `confirm`,
/// `cancel`, `record`, `set_delay`, `set_enabled`, `pace_state`; each
/// begins with its keys, arguments and answer): static text, ready for
/// `EVAL` or `SCRIPT LOAD`. An unknown name gives
/// `ROBOTSTXT_STATUS_INVALID_ARGUMENT`.
///
/// # Safety
/// `(name, name_len)` must be readable; `source_out` writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn robotstxt_fleet_script(
    name: *const u8,
    name_len: usize,
    source_out: *mut robotstxt_str,
) -> robotstxt_status {
    guard("robotstxt_fleet_script", || {
        // SAFETY: per the contract above.
        let name = unsafe { bytes(name, name_len, "name")? };
        let out = Out::new(source_out, "source_out")?;
        let source = std::str::from_utf8(name)
            .ok()
            .and_then(engine::fleet_script)
            .ok_or_else(|| {
                Failure::new(
                    ROBOTSTXT_STATUS_INVALID_ARGUMENT,
                    format!(
                        "no fleet script is called {:?}: pass one of {}",
                        String::from_utf8_lossy(name),
                        engine::FLEET_SCRIPTS.map(|(known, _)| known).join(", ")
                    ),
                )
            })?;
        // SAFETY: writable per the contract.
        unsafe { out.put(robotstxt_str::borrow(source.as_bytes())) };
        Ok(())
    })
}

/// Writes to `*rules_out` the rules for the crawler whose product token is
/// `(token, token_len)` under what `entry` answers at `now_ms`: the copy's
/// own, or rules that allow or disallow everything and say why
/// (`robotstxt_rules_blanket`, `robotstxt_rules_retry_at`), as
/// `robotstxt_cache_lookup` gives them. On success the caller owns
/// `*rules_out` and frees it with `robotstxt_rules_free`. An invalid token
/// gives `ROBOTSTXT_STATUS_INVALID_TOKEN`, whatever the answer.
///
/// # Safety
/// `entry` must be a live handle; `(token, token_len)` readable;
/// `rules_out` writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn robotstxt_entry_rules_for(
    entry: *const robotstxt_entry,
    now_ms: u64,
    token: *const u8,
    token_len: usize,
    rules_out: *mut *mut robotstxt_rules,
) -> robotstxt_status {
    guard("robotstxt_entry_rules_for", || {
        // SAFETY: per the contract above.
        let (entry, token) =
            unsafe { (handle(entry, "entry")?, bytes(token, token_len, "token")?) };
        let out = Out::new(rules_out, "rules_out")?;
        let profile = entry.policy.parse.profile();
        let rules = entry
            .entry
            .cached(now_ms, &entry.policy)
            .rules_for(profile, token)?
            .with_retry_at(entry.entry.retry_at());
        // SAFETY: writable per the contract.
        unsafe { out.put(into_handle(robotstxt_rules { rules })) };
        Ok(())
    })
}

/// Copies `text` into `(out, out_cap)` and its length into `*len_out`, or
/// says how long a buffer it needs.
///
/// # Safety
/// `out` NULL or writable for `out_cap` bytes; `len_out` writable.
unsafe fn put_text(text: &[u8], out: *mut u8, out_cap: usize, len_out: Out<usize>) -> Outcome {
    // SAFETY: writable per the contract.
    unsafe { len_out.put(text.len()) };
    if text.len() > out_cap || (out.is_null() && !text.is_empty()) {
        return Err(Failure::new(
            ROBOTSTXT_STATUS_BUFFER_TOO_SMALL,
            format!(
                "the text takes {} bytes and out holds {out_cap}: call again with a buffer of \
                 *len_out bytes",
                text.len()
            ),
        ));
    }
    if !text.is_empty() {
        // SAFETY: `out` is writable for `out_cap` ≥ `text.len()` bytes.
        unsafe { std::ptr::copy_nonoverlapping(text.as_ptr(), out, text.len()) };
    }
    Ok(())
}

/// Writes into `(out, out_cap)` the origin whose `/robots.txt` governs
/// `(url, url_len)`, `scheme://host[:port]` as `robotstxt_cache_lookup`
/// keys it (what a fleet's store keys a copy by), and its length into
/// `*len_out`; `ROBOTSTXT_STATUS_BUFFER_TOO_SMALL` as
/// `robotstxt_entry_encode` (a buffer of 1,100 bytes always does). A URL
/// the cache refuses gives `ROBOTSTXT_STATUS_INVALID_URL`.
///
/// # Safety
/// `(url, url_len)` readable; `out` NULL or writable for `out_cap` bytes;
/// `len_out` writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn robotstxt_robots_origin(
    url: *const u8,
    url_len: usize,
    out: *mut u8,
    out_cap: usize,
    len_out: *mut usize,
) -> robotstxt_status {
    guard("robotstxt_robots_origin", || {
        // SAFETY: per the contract above.
        let url = unsafe { bytes(url, url_len, "url")? };
        let len_out = Out::new(len_out, "len_out")?;
        let origin = engine::robots_origin(url)?;
        // SAFETY: per the contract above.
        unsafe { put_text(origin.as_bytes(), out, out_cap, len_out) }
    })
}

/// Writes into `(out, out_cap)` the key a pacer tracks `(host, host_len)`
/// by (ASCII letters lower-cased: what a fleet's store keys a host's pace
/// by), and its length into `*len_out`; never longer than the host. An
/// empty or over-long host gives `ROBOTSTXT_STATUS_INVALID_HOST`.
///
/// # Safety
/// `(host, host_len)` readable; `out` NULL or writable for `out_cap`
/// bytes; `len_out` writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn robotstxt_pacer_host(
    host: *const u8,
    host_len: usize,
    out: *mut u8,
    out_cap: usize,
    len_out: *mut usize,
) -> robotstxt_status {
    guard("robotstxt_pacer_host", || {
        // SAFETY: per the contract above.
        let host = unsafe { bytes(host, host_len, "host")? };
        let len_out = Out::new(len_out, "len_out")?;
        let key = engine::pacer_host(host)?;
        // SAFETY: per the contract above.
        unsafe { put_text(key.as_bytes(), out, out_cap, len_out) }
    })
}
