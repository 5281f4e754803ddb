//! `robotstxt_pacer` and `robotstxt_ticket`: when the next request to a
//! host may start (behaviour §8). The library reads no clock:
//! `robotstxt_pacer_reserve` hands out a ticket that says when, the caller
//! sleeps, then `robotstxt_pacer_confirm`s it just before sending.

use std::sync::Mutex;
use std::time::Duration;

use super::rules::robotstxt_rules;
use super::status::{robotstxt_status, Failure};
use super::{bytes, free_handle, guard, guard_value, handle, into_handle, Out, Outcome};
use engine::{Confirm, Pacer, PacerOptions, RequestRate, Ticket, MAX_DELAY};

/// The pacer's settings. Times in milliseconds. Start from
/// `robotstxt_pacer_options_default()`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct robotstxt_pacer_options {
    /// The smallest gap between two request starts to one host: 1,000.
    pub floor_ms: u64,
    /// The largest gap backoff may widen to: 600,000 (never below the host's
    /// own gap).
    pub backoff_cap_ms: u64,
    /// At most this many hosts are tracked: 100,000. At capacity the least
    /// recently used host that is safe to forget goes (not switched off,
    /// not backing off, nothing in flight, its gap passed); when none is, a
    /// new host gets `ROBOTSTXT_STATUS_PACER_FULL`. 0 is taken as 1.
    pub capacity: usize,
    /// At most this many requests to one host in flight at once: 1. 0 is
    /// taken as 1.
    pub max_in_flight: u32,
    /// A request confirmed and never reported with `robotstxt_pacer_record`
    /// frees its in-flight place after this long: 120,000 (2 minutes).
    pub in_flight_timeout_ms: u64,
}

/// The kind of a `robotstxt_confirm`.
pub type robotstxt_confirm_kind = u32;

/// Send the request now; report how it went with `robotstxt_pacer_record`,
/// which frees its in-flight place. The ticket is spent.
pub const ROBOTSTXT_CONFIRM_GO: robotstxt_confirm_kind = 0;
/// Not yet: sleep until `until_ms`, then confirm again.
pub const ROBOTSTXT_CONFIRM_WAIT: robotstxt_confirm_kind = 1;
/// The host is switched off: send nothing. The ticket is spent.
pub const ROBOTSTXT_CONFIRM_DISABLED: robotstxt_confirm_kind = 2;

/// The answer of `robotstxt_pacer_confirm`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct robotstxt_confirm {
    /// A `ROBOTSTXT_CONFIRM_*` value.
    pub kind: robotstxt_confirm_kind,
    /// WAIT: when to confirm again (ms).
    pub until_ms: u64,
    /// WAIT: the host has as many requests in flight as allowed; one
    /// ending may free a place before `until_ms`.
    pub busy: bool,
}

/// A reserved start slot for one request to one host, from
/// `robotstxt_pacer_reserve`. Calls on it may overlap; only
/// `robotstxt_ticket_free` must not overlap with other uses. Free it with
/// `robotstxt_ticket_free` (freeing an unconfirmed ticket keeps its slot
/// used; `robotstxt_pacer_cancel` gives it back).
pub struct robotstxt_ticket {
    ticket: Mutex<Ticket>,
}

impl robotstxt_ticket {
    fn lock(&self) -> std::sync::MutexGuard<'_, Ticket> {
        self.ticket.lock().unwrap_or_else(|p| p.into_inner())
    }
}

/// Hands out request start times per host, in order. Synchronised: any
/// number of threads may call any function on one handle at the same time,
/// and each caller gets its own slot; only `robotstxt_pacer_free` must not
/// overlap with other uses. Free it with `robotstxt_pacer_free`.
pub struct robotstxt_pacer {
    pacer: Pacer,
}

// For the wasm module's own exports (src/wasm.rs).
#[cfg(any(target_family = "wasm", test))]
impl robotstxt_pacer {
    pub(super) fn core(&self) -> &Pacer {
        &self.pacer
    }
}

/// The default pacer options: a 1 s floor, backoff capped at 10 minutes,
/// 100,000 hosts, one request in flight per host, freed after 2 minutes
/// if never reported.
#[unsafe(no_mangle)]
pub extern "C" fn robotstxt_pacer_options_default() -> robotstxt_pacer_options {
    let fallback = robotstxt_pacer_options {
        floor_ms: 1000,
        backoff_cap_ms: 600_000,
        capacity: 100_000,
        max_in_flight: 1,
        in_flight_timeout_ms: 120_000,
    };
    guard_value("robotstxt_pacer_options_default", fallback, || {
        let core = PacerOptions::default();
        robotstxt_pacer_options {
            floor_ms: core.floor_ms,
            backoff_cap_ms: core.backoff_cap_ms,
            capacity: core.capacity,
            max_in_flight: core.max_in_flight,
            in_flight_timeout_ms: core.in_flight_timeout_ms,
        }
    })
}

/// Creates a pacer with no hosts yet, with `*options`, copied. On success
/// the caller owns `*pacer_out` and frees it with `robotstxt_pacer_free`.
///
/// # Safety
/// `options` must point to a `robotstxt_pacer_options`; `pacer_out` must be
/// writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn robotstxt_pacer_new(
    options: *const robotstxt_pacer_options,
    pacer_out: *mut *mut robotstxt_pacer,
) -> robotstxt_status {
    guard("robotstxt_pacer_new", || {
        // SAFETY: per the contract above.
        let options = unsafe { handle(options, "options")? };
        let out = Out::new(pacer_out, "pacer_out")?;
        let pacer = Pacer::new(PacerOptions {
            floor_ms: options.floor_ms,
            backoff_cap_ms: options.backoff_cap_ms,
            capacity: options.capacity,
            max_in_flight: options.max_in_flight,
            in_flight_timeout_ms: options.in_flight_timeout_ms,
        });
        // SAFETY: writable per the contract.
        unsafe { out.put(into_handle(robotstxt_pacer { pacer })) };
        Ok(())
    })
}

/// Frees a pacer. NULL does nothing.
///
/// # Safety
/// `pacer` must be NULL or a live handle, not used again after this.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn robotstxt_pacer_free(pacer: *mut robotstxt_pacer) {
    // SAFETY: forwarded to the caller.
    unsafe { free_handle("robotstxt_pacer_free", pacer) }
}

/// The pacer and host of a call, checked.
///
/// # Safety
/// As for [`handle`] and [`bytes`].
unsafe fn pacer_and_host<'a>(
    pacer: *const robotstxt_pacer,
    host: *const u8,
    host_len: usize,
) -> Outcome<(&'a Pacer, &'a [u8])> {
    // SAFETY: forwarded to the caller.
    unsafe {
        Ok((
            &handle(pacer, "pacer")?.pacer,
            bytes(host, host_len, "host")?,
        ))
    }
}

/// Reserves the next start slot for `host` (a host name such as
/// `example.com`, compared case-insensitively) at `now_ms` and writes a new
/// ticket to `*ticket_out`, or NULL while the host is switched off
/// (`robotstxt_pacer_set_enabled`). Slots go out in order, one gap apart,
/// whatever the number of callers: sleep until `robotstxt_ticket_start`,
/// then `robotstxt_pacer_confirm` the ticket just before sending, so that a
/// backoff, `Retry-After`, slower pace or kill switch recorded meanwhile
/// still holds the request back. Free the ticket with
/// `robotstxt_ticket_free`. `ROBOTSTXT_STATUS_INVALID_HOST` for an empty or
/// over-long host, `ROBOTSTXT_STATUS_PACER_FULL` for a new host when none
/// can be forgotten.
///
/// # Safety
/// `pacer` must be a live handle; `host` readable for `host_len` bytes (or
/// NULL when 0); `ticket_out` writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn robotstxt_pacer_reserve(
    pacer: *const robotstxt_pacer,
    host: *const u8,
    host_len: usize,
    now_ms: u64,
    ticket_out: *mut *mut robotstxt_ticket,
) -> robotstxt_status {
    guard("robotstxt_pacer_reserve", || {
        // SAFETY: per the contract above.
        let (pacer, host) = unsafe { pacer_and_host(pacer, host, host_len)? };
        let out = Out::new(ticket_out, "ticket_out")?;
        let ticket = pacer
            .reserve(host, now_ms)?
            .map_or(std::ptr::null_mut(), |t| {
                into_handle(robotstxt_ticket {
                    ticket: Mutex::new(t),
                })
            });
        // SAFETY: writable per the contract.
        unsafe { out.put(ticket) };
        Ok(())
    })
}

/// When the ticket's request may start (ms), as far as is known: after a
/// `ROBOTSTXT_CONFIRM_WAIT` it is the new time. 0 for NULL.
///
/// # Safety
/// `ticket` must be NULL or a live handle.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn robotstxt_ticket_start(ticket: *const robotstxt_ticket) -> u64 {
    guard_value("robotstxt_ticket_start", 0, || {
        // SAFETY: per the contract above.
        unsafe { ticket.as_ref() }.map_or(0, |t| t.lock().start())
    })
}

/// Frees a ticket. NULL does nothing.
///
/// # Safety
/// `ticket` must be NULL or a live handle, not used again after this.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn robotstxt_ticket_free(ticket: *mut robotstxt_ticket) {
    // SAFETY: forwarded to the caller.
    unsafe { free_handle("robotstxt_ticket_free", ticket) }
}

/// Asks, just before sending, whether the request of `ticket` may start
/// at `now_ms`, and writes the answer to `*confirm_out`:
/// `ROBOTSTXT_CONFIRM_GO` (send now: an in-flight place is taken until
/// `robotstxt_pacer_record`), `ROBOTSTXT_CONFIRM_WAIT` (sleep until
/// `until_ms` and confirm again; a backoff or slower pace recorded since
/// the reservation gives the ticket a new slot) or
/// `ROBOTSTXT_CONFIRM_DISABLED` (the host is switched off).
/// `ROBOTSTXT_STATUS_INVALID_TICKET` for a ticket already spent (GO or
/// DISABLED) or from another pacer.
///
/// # Safety
/// `pacer` and `ticket` must be live handles; `confirm_out` writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn robotstxt_pacer_confirm(
    pacer: *const robotstxt_pacer,
    ticket: *const robotstxt_ticket,
    now_ms: u64,
    confirm_out: *mut robotstxt_confirm,
) -> robotstxt_status {
    guard("robotstxt_pacer_confirm", || {
        // SAFETY: per the contract above.
        let (pacer, ticket) = unsafe { (handle(pacer, "pacer")?, handle(ticket, "ticket")?) };
        let out = Out::new(confirm_out, "confirm_out")?;
        let answer = pacer.pacer.confirm(&mut ticket.lock(), now_ms)?;
        // SAFETY: writable per the contract.
        unsafe { out.put(confirm_answer(answer)) };
        Ok(())
    })
}

/// A confirm answer as C reads it.
pub(super) fn confirm_answer(answer: Confirm) -> robotstxt_confirm {
    match answer {
        Confirm::Go => robotstxt_confirm {
            kind: ROBOTSTXT_CONFIRM_GO,
            until_ms: 0,
            busy: false,
        },
        Confirm::Wait { until, busy } => robotstxt_confirm {
            kind: ROBOTSTXT_CONFIRM_WAIT,
            until_ms: until,
            busy,
        },
        Confirm::Disabled => robotstxt_confirm {
            kind: ROBOTSTXT_CONFIRM_DISABLED,
            until_ms: 0,
            busy: false,
        },
    }
}

/// Gives an unsent ticket's slot back when it is the last one handed out
/// (the caller gave up on the request). The ticket is spent; it must
/// still be freed.
///
/// # Safety
/// `pacer` and `ticket` must be live handles.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn robotstxt_pacer_cancel(
    pacer: *const robotstxt_pacer,
    ticket: *const robotstxt_ticket,
) -> robotstxt_status {
    guard("robotstxt_pacer_cancel", || {
        // SAFETY: per the contract above.
        let (pacer, ticket) = unsafe { (handle(pacer, "pacer")?, handle(ticket, "ticket")?) };
        pacer.pacer.cancel_in_place(&mut ticket.lock());
        Ok(())
    })
}

/// Writes how many requests to `host` are in flight at `now_ms` to
/// `*count_out`.
///
/// # Safety
/// `pacer` must be a live handle; `host` readable for `host_len` bytes (or
/// NULL when 0); `count_out` writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn robotstxt_pacer_in_flight(
    pacer: *const robotstxt_pacer,
    host: *const u8,
    host_len: usize,
    now_ms: u64,
    count_out: *mut usize,
) -> robotstxt_status {
    guard("robotstxt_pacer_in_flight", || {
        // SAFETY: per the contract above.
        let (pacer, host) = unsafe { pacer_and_host(pacer, host, host_len)? };
        let out = Out::new(count_out, "count_out")?;
        let count = pacer.in_flight(host, now_ms)?;
        // SAFETY: writable per the contract.
        unsafe { out.put(count) };
        Ok(())
    })
}

/// A crawl delay in seconds from C: finite and not negative; longer than
/// a year is kept as a year, as when parsed.
fn crawl_delay(seconds: f64) -> Outcome<Duration> {
    if !(seconds >= 0.0 && seconds.is_finite()) {
        return Err(Failure::out_of_range(
            "crawl_delay_s",
            "a finite number of seconds, 0 or more",
        ));
    }
    Ok(Duration::try_from_secs_f64(seconds)
        .unwrap_or(MAX_DELAY)
        .min(MAX_DELAY))
}

/// Sets the host's own pace: the larger of the crawl delay (seconds, such as
/// 0.25; used when `has_crawl_delay`) and the request-rate interval
/// (`rate_seconds / rate_requests`; used when `has_request_rate`), rounded
/// up to the ms. The floor still applies; with neither, only the floor.
/// A negative or non-finite delay, or a rate with 0 requests or 0 seconds,
/// gives `ROBOTSTXT_STATUS_INVALID_ARGUMENT`; an invalid host
/// `ROBOTSTXT_STATUS_INVALID_HOST`.
///
/// # Safety
/// `pacer` must be a live handle; `host` readable for `host_len` bytes (or
/// NULL when 0).
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn robotstxt_pacer_set_delay(
    pacer: *const robotstxt_pacer,
    host: *const u8,
    host_len: usize,
    has_crawl_delay: bool,
    crawl_delay_s: f64,
    has_request_rate: bool,
    rate_requests: u32,
    rate_seconds: u32,
) -> robotstxt_status {
    guard("robotstxt_pacer_set_delay", || {
        // SAFETY: per the contract above.
        let (pacer, host) = unsafe { pacer_and_host(pacer, host, host_len)? };
        let delay = has_crawl_delay
            .then(|| crawl_delay(crawl_delay_s))
            .transpose()?;
        let rate = if has_request_rate {
            if rate_requests == 0 || rate_seconds == 0 {
                return Err(Failure::out_of_range(
                    "rate_requests / rate_seconds",
                    "at least 1 request per at least 1 second",
                ));
            }
            Some(RequestRate {
                requests: rate_requests,
                seconds: rate_seconds,
            })
        } else {
            None
        };
        pacer.set_delay(host, delay, rate)?;
        Ok(())
    })
}

/// Sets the host's pace from a crawler's rules: their crawl delay and
/// request rate, as `robotstxt_pacer_set_delay`. The pacer keeps no
/// reference to `rules`.
///
/// # Safety
/// `pacer` and `rules` must be live handles; `host` readable for `host_len`
/// bytes (or NULL when 0).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn robotstxt_pacer_set_rules(
    pacer: *const robotstxt_pacer,
    host: *const u8,
    host_len: usize,
    rules: *const robotstxt_rules,
) -> robotstxt_status {
    guard("robotstxt_pacer_set_rules", || {
        // SAFETY: per the contract above.
        let (pacer, host, rules) = unsafe {
            let (pacer, host) = pacer_and_host(pacer, host, host_len)?;
            (pacer, host, handle(rules, "rules")?)
        };
        pacer.set_rules(host, &rules.rules)?;
        Ok(())
    })
}

/// Reports how a request to `host` that ended at `now_ms` went:
/// `http_status` (0 for a network error or timeout) and, when
/// `has_retry_after`, its `Retry-After` in ms. Frees one in-flight place.
/// A 429 or 5xx doubles the gap (up to the backoff cap), a `Retry-After`
/// keeps every request from starting before it (up to a day), and both
/// give every ticket not yet confirmed a new slot; any other status halves
/// the backoff again.
///
/// # Safety
/// `pacer` must be a live handle; `host` readable for `host_len` bytes (or
/// NULL when 0).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn robotstxt_pacer_record(
    pacer: *const robotstxt_pacer,
    host: *const u8,
    host_len: usize,
    now_ms: u64,
    http_status: u16,
    has_retry_after: bool,
    retry_after_ms: u64,
) -> robotstxt_status {
    guard("robotstxt_pacer_record", || {
        // SAFETY: per the contract above.
        let (pacer, host) = unsafe { pacer_and_host(pacer, host, host_len)? };
        let status = (http_status != 0).then_some(http_status);
        let retry_after = has_retry_after.then_some(retry_after_ms);
        pacer.record(host, now_ms, status, retry_after)?;
        Ok(())
    })
}

/// Switches `host` off (`enabled` false: `robotstxt_pacer_reserve` hands
/// out no ticket, and tickets out confirm as `ROBOTSTXT_CONFIRM_DISABLED`)
/// or back on: a kill switch. A switched-off host is never forgotten.
///
/// # Safety
/// `pacer` must be a live handle; `host` readable for `host_len` bytes (or
/// NULL when 0).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn robotstxt_pacer_set_enabled(
    pacer: *const robotstxt_pacer,
    host: *const u8,
    host_len: usize,
    enabled: bool,
) -> robotstxt_status {
    guard("robotstxt_pacer_set_enabled", || {
        // SAFETY: per the contract above.
        let (pacer, host) = unsafe { pacer_and_host(pacer, host, host_len)? };
        pacer.set_enabled(host, enabled)?;
        Ok(())
    })
}

/// Writes the gap now applied between two request starts to `host`, in
/// ms, to `*gap_ms_out`: `max(floor, crawl delay, request-rate interval)`,
/// widened by backoff.
///
/// # Safety
/// `pacer` must be a live handle; `host` readable for `host_len` bytes (or
/// NULL when 0); `gap_ms_out` writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn robotstxt_pacer_gap_ms(
    pacer: *const robotstxt_pacer,
    host: *const u8,
    host_len: usize,
    gap_ms_out: *mut u64,
) -> robotstxt_status {
    guard("robotstxt_pacer_gap_ms", || {
        // SAFETY: per the contract above.
        let (pacer, host) = unsafe { pacer_and_host(pacer, host, host_len)? };
        let out = Out::new(gap_ms_out, "gap_ms_out")?;
        let gap = pacer.gap_ms(host)?;
        // SAFETY: writable per the contract.
        unsafe { out.put(gap) };
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn handle_is_send_and_sync() {
        fn shared<T: Send + Sync>() {}
        shared::<robotstxt_pacer>();
        shared::<robotstxt_ticket>();
    }

    #[test]
    fn crawl_delays_from_c() {
        assert_eq!(crawl_delay(0.25).unwrap(), Duration::from_millis(250));
        assert_eq!(crawl_delay(1e300).unwrap(), MAX_DELAY);
        assert!(crawl_delay(-1.0).is_err());
        assert!(crawl_delay(f64::NAN).is_err());
        assert!(crawl_delay(f64::INFINITY).is_err());
    }
}
