//! `robotstxt_entry`: one origin's cached copy and its freshness clock
//! (RFC 9309 §2.4; behaviour §7), as pure functions of the caller's `now`.

use super::access::{
    access_policy, disposition_code, robotstxt_access_policy, robotstxt_disposition,
    robotstxt_fetch,
};
use super::options::robotstxt_options;
use super::robots::robotstxt_robots;
use super::status::{robotstxt_status, Failure};
use super::{
    free_handle, guard, guard_value, handle, handle_mut, into_handle, robotstxt_str, Out, Outcome,
};
use engine::{AfterLimit, Answer, Entry, FreshnessPolicy};

/// What to do once a file has stayed unreachable past the limit.
pub type robotstxt_after_limit = u32;

/// Keep answering with the old copy (the default).
pub const ROBOTSTXT_AFTER_LIMIT_KEEP_COPY: robotstxt_after_limit = 0;
/// Treat the file as unavailable: allow everything.
pub const ROBOTSTXT_AFTER_LIMIT_ALLOW_ALL: robotstxt_after_limit = 1;

/// What answers questions now.
pub type robotstxt_answer = u32;

/// Follow the parsed copy.
pub const ROBOTSTXT_ANSWER_RULES: robotstxt_answer = 0;
/// Crawl everything.
pub const ROBOTSTXT_ANSWER_ALLOW_ALL: robotstxt_answer = 1;
/// Crawl nothing.
pub const ROBOTSTXT_ANSWER_DISALLOW_ALL: robotstxt_answer = 2;

/// How long copies live and how failures are retried. Times are in
/// milliseconds. Start from `robotstxt_freshness_policy_default()`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct robotstxt_freshness_policy {
    /// How long a copy is fresh: 24 h. A shorter `max-age` shortens it.
    pub fresh_for_ms: u64,
    /// When to fetch again after a failure to retry later: 1 h.
    pub retry_ms: u64,
    /// How long a file may stay unreachable before `after_limit`: 30 days.
    pub unreachable_limit_ms: u64,
    /// A `ROBOTSTXT_AFTER_LIMIT_*` value.
    pub after_limit: robotstxt_after_limit,
    /// A `ROBOTSTXT_ACCESS_*` value: how fetch statuses are read.
    pub access: robotstxt_access_policy,
    /// How bodies are parsed.
    pub options: robotstxt_options,
}

/// The validators a conditional request sends. Each borrows from the entry
/// and stays valid until the next `robotstxt_entry_record` or
/// `robotstxt_entry_free`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct robotstxt_validators {
    /// Whether there is an `ETag` (for `If-None-Match`).
    pub has_etag: bool,
    /// The `ETag`, or `(NULL, 0)`.
    pub etag: robotstxt_str,
    /// Whether there is a `Last-Modified` (for `If-Modified-Since`).
    pub has_last_modified: bool,
    /// The `Last-Modified` value, or `(NULL, 0)`.
    pub last_modified: robotstxt_str,
}

/// One origin's copy of its robots.txt and when to fetch it again. Not
/// synchronised: calls that change it (`robotstxt_entry_record`) must not
/// overlap with any other call on the same handle; calls that only read
/// (`const robotstxt_entry *`) may run at the same time. Free it with
/// `robotstxt_entry_free`.
pub struct robotstxt_entry {
    pub(super) entry: Entry,
    pub(super) policy: FreshnessPolicy,
}

/// The default freshness policy: fresh for 24 h, retry after 1 h, keep the
/// copy after 30 days unreachable, careful access, default parse options.
#[unsafe(no_mangle)]
pub extern "C" fn robotstxt_freshness_policy_default() -> robotstxt_freshness_policy {
    let core = FreshnessPolicy::default();
    let fallback = robotstxt_freshness_policy {
        fresh_for_ms: core.fresh_for_ms,
        retry_ms: core.retry_ms,
        unreachable_limit_ms: core.unreachable_limit_ms,
        after_limit: ROBOTSTXT_AFTER_LIMIT_KEEP_COPY,
        access: super::access::ROBOTSTXT_ACCESS_CAREFUL,
        options: super::options::robotstxt_options_default(),
    };
    guard_value("robotstxt_freshness_policy_default", fallback, || {
        let after_limit = match core.after_limit {
            AfterLimit::KeepCopy => ROBOTSTXT_AFTER_LIMIT_KEEP_COPY,
            AfterLimit::AllowAll => ROBOTSTXT_AFTER_LIMIT_ALLOW_ALL,
        };
        robotstxt_freshness_policy {
            after_limit,
            ..fallback
        }
    })
}

impl robotstxt_freshness_policy {
    pub(super) fn to_core(self) -> Outcome<FreshnessPolicy> {
        let after_limit =
            match self.after_limit {
                ROBOTSTXT_AFTER_LIMIT_KEEP_COPY => AfterLimit::KeepCopy,
                ROBOTSTXT_AFTER_LIMIT_ALLOW_ALL => AfterLimit::AllowAll,
                _ => return Err(Failure::option(
                    "after_limit",
                    "ROBOTSTXT_AFTER_LIMIT_KEEP_COPY (0) or ROBOTSTXT_AFTER_LIMIT_ALLOW_ALL (1)",
                )),
            };
        Ok(FreshnessPolicy {
            fresh_for_ms: self.fresh_for_ms,
            retry_ms: self.retry_ms,
            unreachable_limit_ms: self.unreachable_limit_ms,
            after_limit,
            access: access_policy(self.access)?,
            parse: self.options.to_core()?,
        })
    }
}

/// Creates an entry with no copy (a fetch is due at once) that follows
/// `*policy`, copied. On success the caller owns `*entry_out` and frees it
/// with `robotstxt_entry_free`. An unknown enumeration value gives
/// `ROBOTSTXT_STATUS_INVALID_OPTION`, a parse limit out of range
/// `ROBOTSTXT_STATUS_PARSE_LIMIT`.
///
/// # Safety
/// `policy` must point to a `robotstxt_freshness_policy`; `entry_out` must
/// be writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn robotstxt_entry_new(
    policy: *const robotstxt_freshness_policy,
    entry_out: *mut *mut robotstxt_entry,
) -> robotstxt_status {
    guard("robotstxt_entry_new", || {
        // SAFETY: per the contract above.
        let policy = unsafe { handle(policy, "policy")? }.to_core()?;
        let out = Out::new(entry_out, "entry_out")?;
        let entry = Entry::new();
        // SAFETY: writable per the contract.
        unsafe { out.put(into_handle(robotstxt_entry { entry, policy })) };
        Ok(())
    })
}

/// Frees an entry. NULL does nothing. Handles from `robotstxt_entry_answer`
/// stay valid.
///
/// # Safety
/// `entry` must be NULL or a live handle, not used again after this.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn robotstxt_entry_free(entry: *mut robotstxt_entry) {
    // SAFETY: forwarded to the caller.
    unsafe { free_handle("robotstxt_entry_free", entry) }
}

/// Records the outcome of a fetch made at `now_ms`: a 2xx body is parsed
/// and becomes the copy; a 304 renews the copy; a failure keeps the old
/// copy and sets the next try. Writes what the outcome meant to
/// `*disposition_out` unless it is NULL. The entry keeps no pointer into
/// `*fetch`.
///
/// # Safety
/// `entry` must be a live handle used by no other call meanwhile; `fetch`
/// must point to a valid struct whose set text fields are valid text;
/// `disposition_out` must be NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn robotstxt_entry_record(
    entry: *mut robotstxt_entry,
    now_ms: u64,
    fetch: *const robotstxt_fetch,
    disposition_out: *mut robotstxt_disposition,
) -> robotstxt_status {
    guard("robotstxt_entry_record", || {
        // SAFETY: per the contract above.
        let (entry, fetch) = unsafe { (handle_mut(entry, "entry")?, handle(fetch, "fetch")?) };
        // SAFETY: per the contract above.
        let fetch = unsafe { fetch.to_core()? };
        let d = entry.entry.record(now_ms, &fetch, &entry.policy);
        if let Some(out) = Out::optional(disposition_out) {
            // SAFETY: writable per the contract.
            unsafe { out.put(disposition_code(d)) };
        }
        Ok(())
    })
}

/// Writes to `*due_out` whether a fetch is due at `now_ms`.
///
/// # Safety
/// `entry` must be a live handle; `due_out` writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn robotstxt_entry_is_due(
    entry: *const robotstxt_entry,
    now_ms: u64,
    due_out: *mut bool,
) -> robotstxt_status {
    guard("robotstxt_entry_is_due", || {
        // SAFETY: per the contract above.
        let entry = unsafe { handle(entry, "entry")? };
        let out = Out::new(due_out, "due_out")?;
        // SAFETY: writable per the contract.
        unsafe { out.put(entry.entry.is_due(now_ms)) };
        Ok(())
    })
}

/// Writes when the next fetch is due, in ms, to `*due_at_ms_out`.
///
/// # Safety
/// `entry` must be a live handle; `due_at_ms_out` writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn robotstxt_entry_due_at(
    entry: *const robotstxt_entry,
    due_at_ms_out: *mut u64,
) -> robotstxt_status {
    guard("robotstxt_entry_due_at", || {
        // SAFETY: per the contract above.
        let entry = unsafe { handle(entry, "entry")? };
        let out = Out::new(due_at_ms_out, "due_at_ms_out")?;
        // SAFETY: writable per the contract.
        unsafe { out.put(entry.entry.due_at()) };
        Ok(())
    })
}

/// Writes when the copy was last fetched or revalidated, in ms, to
/// `*fetched_at_ms_out`, and whether it ever was to `*has_value_out`
/// (without a copy the time is 0).
///
/// # Safety
/// `entry` must be a live handle; both outputs writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn robotstxt_entry_fetched_at(
    entry: *const robotstxt_entry,
    fetched_at_ms_out: *mut u64,
    has_value_out: *mut bool,
) -> robotstxt_status {
    guard("robotstxt_entry_fetched_at", || {
        // SAFETY: per the contract above.
        let entry = unsafe { handle(entry, "entry")? };
        let at = Out::new(fetched_at_ms_out, "fetched_at_ms_out")?;
        let has = Out::new(has_value_out, "has_value_out")?;
        let fetched = entry.entry.fetched_at();
        // SAFETY: writable per the contract.
        unsafe {
            at.put(fetched.unwrap_or(0));
            has.put(fetched.is_some());
        }
        Ok(())
    })
}

/// Writes how many fetches in a row have failed to `*failures_out`.
///
/// # Safety
/// `entry` must be a live handle; `failures_out` writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn robotstxt_entry_failures(
    entry: *const robotstxt_entry,
    failures_out: *mut u32,
) -> robotstxt_status {
    guard("robotstxt_entry_failures", || {
        // SAFETY: per the contract above.
        let entry = unsafe { handle(entry, "entry")? };
        let out = Out::new(failures_out, "failures_out")?;
        // SAFETY: writable per the contract.
        unsafe { out.put(entry.entry.failures()) };
        Ok(())
    })
}

/// Writes to `*has_copy_out` whether a copy (rules or allow-all) is held.
///
/// # Safety
/// `entry` must be a live handle; `has_copy_out` writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn robotstxt_entry_has_copy(
    entry: *const robotstxt_entry,
    has_copy_out: *mut bool,
) -> robotstxt_status {
    guard("robotstxt_entry_has_copy", || {
        // SAFETY: per the contract above.
        let entry = unsafe { handle(entry, "entry")? };
        let out = Out::new(has_copy_out, "has_copy_out")?;
        // SAFETY: writable per the contract.
        unsafe { out.put(entry.entry.has_copy()) };
        Ok(())
    })
}

/// Writes the validators of the current copy to `*validators_out`, for a
/// conditional request (`If-None-Match`, `If-Modified-Since`). They come
/// from the 2xx that made the copy (or a later 304); an allow-all copy has
/// none.
///
/// # Safety
/// `entry` must be a live handle; `validators_out` writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn robotstxt_entry_validators(
    entry: *const robotstxt_entry,
    validators_out: *mut robotstxt_validators,
) -> robotstxt_status {
    guard("robotstxt_entry_validators", || {
        // SAFETY: per the contract above.
        let entry = unsafe { handle(entry, "entry")? };
        let out = Out::new(validators_out, "validators_out")?;
        let v = entry.entry.validators();
        let value = robotstxt_validators {
            has_etag: v.etag.is_some(),
            etag: v.etag.map_or(robotstxt_str::EMPTY, robotstxt_str::borrow),
            has_last_modified: v.last_modified.is_some(),
            last_modified: v
                .last_modified
                .map_or(robotstxt_str::EMPTY, robotstxt_str::borrow),
        };
        // SAFETY: writable per the contract.
        unsafe { out.put(value) };
        Ok(())
    })
}

/// Writes what answers at `now_ms` to `*answer_out`: the copy (kept while
/// the file is unreachable), or disallow-all with none; past the
/// unreachable limit, as the policy says.
///
/// For `ROBOTSTXT_ANSWER_RULES`, `*robots_out` (unless `robots_out` is
/// NULL) gets a new handle on the copy, which the caller owns and frees with
/// `robotstxt_robots_free`; it shares the parsed file, so it is cheap, and
/// it stays valid whatever happens to the entry. For the other answers
/// `*robots_out` is set to NULL.
///
/// # Safety
/// `entry` must be a live handle; `answer_out` writable; `robots_out` NULL
/// or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn robotstxt_entry_answer(
    entry: *const robotstxt_entry,
    now_ms: u64,
    answer_out: *mut robotstxt_answer,
    robots_out: *mut *mut robotstxt_robots,
) -> robotstxt_status {
    guard("robotstxt_entry_answer", || {
        // SAFETY: per the contract above.
        let entry = unsafe { handle(entry, "entry")? };
        let answer = Out::new(answer_out, "answer_out")?;
        let (code, robots) = match entry.entry.answer(now_ms, &entry.policy) {
            Answer::Rules(robots) => (ROBOTSTXT_ANSWER_RULES, Some(robots)),
            Answer::AllowAll => (ROBOTSTXT_ANSWER_ALLOW_ALL, None),
            Answer::DisallowAll => (ROBOTSTXT_ANSWER_DISALLOW_ALL, None),
        };
        if let Some(out) = Out::optional(robots_out) {
            let handle = robots.map_or(std::ptr::null_mut(), |r| {
                into_handle(robotstxt_robots { robots: r.clone() })
            });
            // SAFETY: writable per the contract.
            unsafe { out.put(handle) };
        }
        // SAFETY: writable per the contract.
        unsafe { answer.put(code) };
        Ok(())
    })
}
