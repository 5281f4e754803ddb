//! A fleet's shared steps, sans I/O (docs/fleet.md): `robotstxt_fleet_cache`
//! and `robotstxt_fleet_pacer` say which script to run with which keys and
//! arguments (a `robotstxt_fleet_step`); the caller runs it on its own
//! Redis client and hands the reply back as `robotstxt_fleet_reply_item`s;
//! the library decides what it means. This file holds what both share: the
//! time of a step, the reply, the step handle and its accessors.

use std::sync::{Mutex, MutexGuard};

use super::status::{
    robotstxt_status, Failure, ROBOTSTXT_STATUS_BAD_REPLY, ROBOTSTXT_STATUS_INVALID_STEP,
};
use super::{bytes, free_handle, guard, handle, robotstxt_str, Out, Outcome};
use engine::{At, Error, LookupStep, PaceStep, Reply, ScriptCall, StoreStep};

/// The kind of a `robotstxt_fleet_reply_item`.
pub type robotstxt_fleet_reply_kind = u32;

/// A nil bulk string or array.
pub const ROBOTSTXT_FLEET_REPLY_NIL: robotstxt_fleet_reply_kind = 0;
/// An integer, in `integer`.
pub const ROBOTSTXT_FLEET_REPLY_INT: robotstxt_fleet_reply_kind = 1;
/// A bulk or simple string, in `(bytes, len)`.
pub const ROBOTSTXT_FLEET_REPLY_BYTES: robotstxt_fleet_reply_kind = 2;
/// An error reply; what Redis said is in `(bytes, len)`.
pub const ROBOTSTXT_FLEET_REPLY_ERROR: robotstxt_fleet_reply_kind = 3;

/// One item of a Redis reply, as the client gave it. A script's reply is
/// passed as an array of them: an array reply item by item, a scalar or an
/// error reply as one item. Zero-initialise it and set what the kind uses.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct robotstxt_fleet_reply_item {
    /// A `ROBOTSTXT_FLEET_REPLY_*` value.
    pub kind: robotstxt_fleet_reply_kind,
    /// INT: the integer.
    pub integer: i64,
    /// BYTES and ERROR: the text, read during the call only.
    pub bytes: *const u8,
    /// The length of `bytes`.
    pub len: usize,
}

/// When a fleet step happens, as the worker tells it.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct robotstxt_fleet_at {
    /// `false`: `ms` is a reading of the worker's monotonic clock, from any
    /// origin; the fleet's time is Redis's (`TIME`), and the library keeps
    /// the worker's offset to it from each reply, so that a step of the
    /// worker's wall clock moves nothing. `true`: `ms` is a time the caller
    /// gives on the fleet's clock, which the scripts take instead of
    /// Redis's (tests, replays).
    pub given: bool,
    /// The reading or the time, in ms.
    pub ms: u64,
}

/// A call of the fleet to make on Redis, and the state that reads its
/// reply. Run its script (`robotstxt_fleet_step_script`): `EVALSHA` with the
/// SHA-1 of its source, or `EVAL` with the source
/// (`robotstxt_fleet_step_source`) when the server answers `NOSCRIPT`, with
/// its keys and arguments in order; then pass the reply to the `*_reply`
/// function that reads it (or to `robotstxt_fleet_cache_store_failed`, for a
/// store Redis failed to take). Text the accessors hand out borrows from the
/// step and stays valid until it is freed. Free it with
/// `robotstxt_fleet_step_free`, read or not. It may move between threads;
/// only its `_free` must not overlap with other uses.
pub struct robotstxt_fleet_step {
    call: ScriptCall,
    /// The address of the cache or pacer that made it.
    owner: usize,
    /// Taken by the reply function that reads it.
    pending: Mutex<Option<Pending>>,
}

/// What reads a step's reply.
pub(super) enum Pending {
    /// A lookup, and the token it answers for.
    Lookup(Box<LookupStep>, Box<[u8]>),
    /// A store, and the token it answers for.
    Store(Box<StoreStep>, Box<[u8]>),
    Renew,
    Abandon,
    Pace(Box<PaceStep>),
    /// A confirmation, and the address of its ticket.
    Confirm(Box<PaceStep>, usize),
}

impl robotstxt_fleet_step {
    pub(super) fn new(
        call: ScriptCall,
        owner: usize,
        pending: Pending,
    ) -> *mut robotstxt_fleet_step {
        super::into_handle(robotstxt_fleet_step {
            call,
            owner,
            pending: Mutex::new(Some(pending)),
        })
    }

    /// Takes the pending state out for `owner`, when `take` accepts it; a
    /// step of another owner, already read, or that `take` refuses stays as
    /// it was.
    pub(super) fn take<T>(
        &self,
        owner: usize,
        take: impl FnOnce(Pending) -> Result<T, Pending>,
    ) -> Outcome<T> {
        let mut held = lock(&self.pending);
        if self.owner != owner {
            return Err(invalid_step(format!(
                "the {} step belongs to another cache or pacer: read each reply with the one that made the step",
                self.call.name()
            )));
        }
        let Some(pending) = held.take() else {
            return Err(invalid_step(format!(
                "the {} step was already read: run a new step",
                self.call.name()
            )));
        };
        take(pending).map_err(|pending| {
            *held = Some(pending);
            invalid_step(format!(
                "a {} step is not read by this function: read each reply with the function its step names",
                self.call.name()
            ))
        })
    }
}

fn invalid_step(message: String) -> Failure {
    Failure::new(ROBOTSTXT_STATUS_INVALID_STEP, message)
}

/// Locks a handle's state; a panic elsewhere leaves it usable.
pub(super) fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

/// The core's error, with the fleet's own status for a reply it cannot read.
pub(super) fn fleet_failure(error: Error) -> Failure {
    match error {
        Error::BadReply { .. } => Failure::new(ROBOTSTXT_STATUS_BAD_REPLY, error.to_string()),
        other => Failure::from(other),
    }
}

/// Reads a step's time.
///
/// # Safety
/// Unless NULL, `at` must point to a `robotstxt_fleet_at`.
pub(super) unsafe fn at(at: *const robotstxt_fleet_at) -> Outcome<At> {
    // SAFETY: forwarded to the caller.
    let at = unsafe { handle(at, "at")? };
    Ok(if at.given {
        At::Given(at.ms)
    } else {
        At::Monotonic(at.ms)
    })
}

/// The handle, step and reply of a `*_reply` export, checked.
///
/// # Safety
/// As for [`handle`] (both) and [`reply`].
pub(super) unsafe fn reply_args<'a, T>(
    owner: *const T,
    name: &'static str,
    step: *const robotstxt_fleet_step,
    items: *const robotstxt_fleet_reply_item,
    count: usize,
) -> Outcome<(&'a T, &'a robotstxt_fleet_step, Reply)> {
    // SAFETY: forwarded to the caller.
    unsafe {
        Ok((
            handle(owner, name)?,
            handle(step, "step")?,
            reply(items, count)?,
        ))
    }
}

/// Writes the fleet's time at `*at`, as `now` estimates it, to
/// `*now_out`, and whether it is known to `*known_out`.
///
/// # Safety
/// `at` must point to a `robotstxt_fleet_at`; both outputs writable.
pub(super) unsafe fn put_now(
    export: &'static str,
    at: *const robotstxt_fleet_at,
    known_out: *mut bool,
    now_out: *mut u64,
    now: impl FnOnce(At) -> Outcome<Option<u64>>,
) -> robotstxt_status {
    guard(export, || {
        // SAFETY: per the caller.
        let at = unsafe { self::at(at)? };
        let known = Out::new(known_out, "known_out")?;
        let now_out = Out::new(now_out, "now_out")?;
        let now = now(at)?;
        // SAFETY: writable per the caller.
        unsafe {
            known.put(now.is_some());
            now_out.put(now.unwrap_or(0));
        }
        Ok(())
    })
}

/// Writes the ms from `*at` until a fleet time, as `left` counts them, to
/// `*ms_out`.
///
/// # Safety
/// `at` must point to a `robotstxt_fleet_at`; `ms_out` writable.
pub(super) unsafe fn put_ms_until(
    export: &'static str,
    at: *const robotstxt_fleet_at,
    ms_out: *mut u64,
    left: impl FnOnce(At) -> Outcome<u64>,
) -> robotstxt_status {
    guard(export, || {
        // SAFETY: per the caller.
        let at = unsafe { self::at(at)? };
        let out = Out::new(ms_out, "ms_out")?;
        let ms = left(at)?;
        // SAFETY: writable per the caller.
        unsafe { out.put(ms) };
        Ok(())
    })
}

/// Reads a reply passed as `count` items.
///
/// # Safety
/// Unless NULL, `items` must be readable for `count` items, and each
/// item's text for its length.
pub(super) unsafe fn reply(
    items: *const robotstxt_fleet_reply_item,
    count: usize,
) -> Outcome<Reply> {
    if count > isize::MAX as usize / std::mem::size_of::<robotstxt_fleet_reply_item>() {
        return Err(Failure::too_long("items", count));
    }
    let items: &[robotstxt_fleet_reply_item] = match count {
        0 => &[],
        _ if items.is_null() => return Err(Failure::null_with_len("items", count)),
        // SAFETY: non-NULL and readable for `count` items per the caller.
        _ => unsafe { std::slice::from_raw_parts(items, count) },
    };
    let mut replies = Vec::with_capacity(items.len());
    for item in items {
        // SAFETY: forwarded to the caller.
        let text = || unsafe { bytes(item.bytes, item.len, "item bytes") };
        replies.push(match item.kind {
            ROBOTSTXT_FLEET_REPLY_NIL => Reply::Nil,
            ROBOTSTXT_FLEET_REPLY_INT => Reply::Int(item.integer),
            ROBOTSTXT_FLEET_REPLY_BYTES => Reply::Bytes(text()?.to_vec()),
            ROBOTSTXT_FLEET_REPLY_ERROR => Reply::Error(String::from_utf8_lossy(text()?).into()),
            _ => {
                return Err(Failure::option(
                    "reply item kind",
                    "a ROBOTSTXT_FLEET_REPLY_* value (NIL 0, INT 1, BYTES 2, ERROR 3)",
                ))
            }
        });
    }
    // A scalar reply, or an error, is one item.
    Ok(match replies.len() {
        1 => replies.pop().expect("one item"),
        _ => Reply::Array(replies),
    })
}

/// Frees a step. NULL does nothing. A step not read gives nothing back to
/// Redis: its call was never made, or its reply is dropped.
///
/// # Safety
/// `step` must be NULL or a live handle, not used again after this.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn robotstxt_fleet_step_free(step: *mut robotstxt_fleet_step) {
    // SAFETY: forwarded to the caller.
    unsafe { free_handle("robotstxt_fleet_step_free", step) }
}

/// Writes one piece of a step's call to `*out`.
///
/// # Safety
/// `step` must be NULL or a live handle; `out` writable.
unsafe fn step_text(
    export: &'static str,
    step: *const robotstxt_fleet_step,
    out: *mut robotstxt_str,
    read: impl FnOnce(&ScriptCall) -> Outcome<&[u8]>,
) -> robotstxt_status {
    guard(export, || {
        // SAFETY: per the caller.
        let step = unsafe { handle(step, "step")? };
        let out = Out::new(out, "out")?;
        let text = read(&step.call)?;
        // SAFETY: writable per the caller.
        unsafe { out.put(robotstxt_str::borrow(text)) };
        Ok(())
    })
}

/// Writes the name of the step's script (`lookup`, `store`, `reserve`,
/// ...) to `*name_out`.
///
/// # Safety
/// `step` must be a live handle; `name_out` writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn robotstxt_fleet_step_script(
    step: *const robotstxt_fleet_step,
    name_out: *mut robotstxt_str,
) -> robotstxt_status {
    // SAFETY: forwarded to the caller.
    unsafe {
        step_text("robotstxt_fleet_step_script", step, name_out, |c| {
            Ok(c.name().as_bytes())
        })
    }
}

/// Writes the Lua source of the step's script to `*source_out`: for
/// `EVAL`, `SCRIPT LOAD`, or its SHA-1 for `EVALSHA`. It is static text.
///
/// # Safety
/// `step` must be a live handle; `source_out` writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn robotstxt_fleet_step_source(
    step: *const robotstxt_fleet_step,
    source_out: *mut robotstxt_str,
) -> robotstxt_status {
    // SAFETY: forwarded to the caller.
    unsafe {
        step_text("robotstxt_fleet_step_source", step, source_out, |c| {
            Ok(c.source().as_bytes())
        })
    }
}

/// Writes how many keys and arguments the step's call has to `*keys_out`
/// and `*args_out`.
///
/// # Safety
/// `step` must be a live handle; both outputs writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn robotstxt_fleet_step_counts(
    step: *const robotstxt_fleet_step,
    keys_out: *mut usize,
    args_out: *mut usize,
) -> robotstxt_status {
    guard("robotstxt_fleet_step_counts", || {
        // SAFETY: per the contract above.
        let step = unsafe { handle(step, "step")? };
        let keys = Out::new(keys_out, "keys_out")?;
        let args = Out::new(args_out, "args_out")?;
        // SAFETY: writable per the contract.
        unsafe {
            keys.put(step.call.keys().len());
            args.put(step.call.args().len());
        }
        Ok(())
    })
}

/// Writes key `index` (from 0) of the step's call to `*key_out`.
/// `ROBOTSTXT_STATUS_INDEX_OUT_OF_RANGE` past the last.
///
/// # Safety
/// `step` must be a live handle; `key_out` writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn robotstxt_fleet_step_key(
    step: *const robotstxt_fleet_step,
    index: usize,
    key_out: *mut robotstxt_str,
) -> robotstxt_status {
    // SAFETY: forwarded to the caller.
    unsafe {
        step_text("robotstxt_fleet_step_key", step, key_out, |c| {
            let keys = c.keys();
            keys.get(index)
                .map(|k| k.as_bytes())
                .ok_or_else(|| Failure::index("key", index, keys.len()))
        })
    }
}

/// Writes argument `index` (from 0) of the step's call to `*arg_out`: bytes
/// (a stored copy is binary). `ROBOTSTXT_STATUS_INDEX_OUT_OF_RANGE` past the
/// last.
///
/// # Safety
/// `step` must be a live handle; `arg_out` writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn robotstxt_fleet_step_arg(
    step: *const robotstxt_fleet_step,
    index: usize,
    arg_out: *mut robotstxt_str,
) -> robotstxt_status {
    // SAFETY: forwarded to the caller.
    unsafe {
        step_text("robotstxt_fleet_step_arg", step, arg_out, |c| {
            let args = c.args();
            args.get(index)
                .map(Vec::as_slice)
                .ok_or_else(|| Failure::index("argument", index, args.len()))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn handles_are_send_and_sync() {
        fn shared<T: Send + Sync>() {}
        shared::<robotstxt_fleet_step>();
    }

    fn item(
        kind: robotstxt_fleet_reply_kind,
        integer: i64,
        text: &[u8],
    ) -> robotstxt_fleet_reply_item {
        robotstxt_fleet_reply_item {
            kind,
            integer,
            bytes: text.as_ptr(),
            len: text.len(),
        }
    }

    #[test]
    fn replies_read_as_the_client_gave_them() {
        let items = [
            item(ROBOTSTXT_FLEET_REPLY_BYTES, 0, b"fresh"),
            item(ROBOTSTXT_FLEET_REPLY_INT, 7, b""),
            item(ROBOTSTXT_FLEET_REPLY_NIL, 0, b""),
        ];
        // SAFETY: three live items.
        let got = unsafe { reply(items.as_ptr(), 3) }.unwrap();
        assert_eq!(
            got,
            Reply::Array(vec![
                Reply::Bytes(b"fresh".to_vec()),
                Reply::Int(7),
                Reply::Nil
            ])
        );
        let error = [item(ROBOTSTXT_FLEET_REPLY_ERROR, 0, b"NOSCRIPT")];
        // SAFETY: one live item.
        assert_eq!(
            unsafe { reply(error.as_ptr(), 1) }.unwrap(),
            Reply::Error("NOSCRIPT".into())
        );
        // SAFETY: NULL with no items is the empty array.
        assert_eq!(
            unsafe { reply(std::ptr::null(), 0) }.unwrap(),
            Reply::Array(vec![])
        );
        // SAFETY: NULL is never read.
        assert!(unsafe { reply(std::ptr::null(), 2) }.is_err());
        let unknown = [item(9, 0, b"")];
        // SAFETY: one live item.
        assert!(unsafe { reply(unknown.as_ptr(), 1) }.is_err());
    }
}
