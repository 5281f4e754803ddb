//! `robotstxt_pacer`: when the next request to a host may start (SPEC §8).
//! The library reads no clock: `robotstxt_pacer_reserve` says when, the
//! caller sleeps.

use std::time::Duration;

use super::rules::robotstxt_rules;
use super::status::{robotstxt_status, Failure};
use super::{bytes, free_handle, guard, guard_value, handle, into_handle, Out, Outcome};
use crate::{Pacer, PacerOptions, RequestRate, MAX_DELAY};

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
    /// At most this many hosts are tracked; idle ones are dropped first.
    /// Default 100,000.
    pub capacity: usize,
}

/// Hands out request start times per host, in order. Synchronised: any
/// number of threads may call any function on one handle at the same time,
/// and each caller gets its own slot; only `robotstxt_pacer_free` must not
/// overlap with other uses. Free it with `robotstxt_pacer_free`.
pub struct robotstxt_pacer {
    pacer: Pacer,
}

/// The default pacer options: a 1 s floor, backoff capped at 10 minutes,
/// 100,000 hosts.
#[unsafe(no_mangle)]
pub extern "C" fn robotstxt_pacer_options_default() -> robotstxt_pacer_options {
    let fallback = robotstxt_pacer_options {
        floor_ms: 1000,
        backoff_cap_ms: 600_000,
        capacity: 100_000,
    };
    guard_value("robotstxt_pacer_options_default", fallback, || {
        let core = PacerOptions::default();
        robotstxt_pacer_options {
            floor_ms: core.floor_ms,
            backoff_cap_ms: core.backoff_cap_ms,
            capacity: core.capacity,
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
/// `example.com`, compared case-insensitively) at `now_ms`. Writes when
/// the request may start (≥ `now_ms`) to `*start_ms_out` and true to
/// `*has_start_out`; while the host is switched off
/// (`robotstxt_pacer_set_enabled`), `*start_ms_out` is 0 and
/// `*has_start_out` false. Slots go out in order, one gap apart, whatever
/// the number of callers: sleep until the start, then send.
/// `ROBOTSTXT_STATUS_INVALID_HOST` for an empty or over-long host.
///
/// # Safety
/// `pacer` must be a live handle; `host` readable for `host_len` bytes (or
/// NULL when 0); both outputs writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn robotstxt_pacer_reserve(
    pacer: *const robotstxt_pacer,
    host: *const u8,
    host_len: usize,
    now_ms: u64,
    start_ms_out: *mut u64,
    has_start_out: *mut bool,
) -> robotstxt_status {
    guard("robotstxt_pacer_reserve", || {
        // SAFETY: per the contract above.
        let (pacer, host) = unsafe { pacer_and_host(pacer, host, host_len)? };
        let start = Out::new(start_ms_out, "start_ms_out")?;
        let has_start = Out::new(has_start_out, "has_start_out")?;
        let slot = pacer.reserve(host, now_ms)?;
        // SAFETY: writable per the contract.
        unsafe {
            start.put(slot.unwrap_or(0));
            has_start.put(slot.is_some());
        }
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
/// `has_retry_after`, its `Retry-After` in ms. A 429 or 5xx doubles the gap
/// (up to the backoff cap) and a `Retry-After` pushes the next slot at least
/// that far (up to a day); any other status halves the backoff again.
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
/// out no slot) or back on: a kill switch.
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
