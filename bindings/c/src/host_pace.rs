//! `robotstxt_host_pace`: one host's pace as plain data and pure
//! functions over it (behaviour §8), for a C fleet that keeps the state in
//! its own store. Each step is what `robotstxt_pacer` does for one host and
//! what `redis/*.lua` does in Redis: read the state, call one function,
//! write the state back, atomically in the store.

use super::pacer::{confirm_answer, robotstxt_confirm, robotstxt_pacer_options};
use super::rules::robotstxt_rules;
use super::status::{robotstxt_status, Failure};
use super::{guard, guard_value, handle, Out, Outcome};
use engine::{delay_ms, HostPace, PacerOptions, Slot};

/// A `Retry-After` is honoured up to one day, in milliseconds.
pub const ROBOTSTXT_MAX_RETRY_AFTER_MS: u64 = 86_400_000;
/// Backoff doubles the gap per throttling answer, up to this factor.
pub const ROBOTSTXT_MAX_BACKOFF_FACTOR: u32 = 1024;

// The header cannot evaluate the core's constants, so it carries copies.
const _: () = assert!(ROBOTSTXT_MAX_RETRY_AFTER_MS == engine::MAX_RETRY_AFTER_MS);
const _: () = assert!(ROBOTSTXT_MAX_BACKOFF_FACTOR as u64 == engine::MAX_FACTOR);

/// One host's pacing state, owned by the caller. Start from
/// `robotstxt_host_pace_init`; store every field to keep it. The requests
/// in flight live in the caller's array `in_flight_until_ms` (each entry:
/// when that request frees its place if never reported), of which the
/// first `in_flight_len` are used; it needs room for the options'
/// `max_in_flight` entries.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct robotstxt_host_pace {
    /// The next slot `robotstxt_host_pace_reserve` hands out (ms).
    pub next_slot_ms: u64,
    /// Whether a request has started: `last_start_ms` is set.
    pub has_last_start: bool,
    /// When the last confirmed request started (ms).
    pub last_start_ms: u64,
    /// No request starts before this (`Retry-After`, ms).
    pub not_before_ms: u64,
    /// The host's own gap: crawl delay or request-rate interval (ms).
    pub delay_ms: u64,
    /// The backoff factor: 1, doubled per throttling answer.
    pub factor: u64,
    /// Switched off: no slots.
    pub disabled: bool,
    /// Bumped whenever the slots handed out become too early.
    pub generation: u64,
    /// The caller's array of in-flight requests' ends (ms).
    pub in_flight_until_ms: *mut u64,
    /// How many entries of `in_flight_until_ms` are used.
    pub in_flight_len: usize,
    /// How many entries `in_flight_until_ms` holds.
    pub in_flight_cap: usize,
}

/// A start slot handed out by `robotstxt_host_pace_reserve`: keep it with
/// the request until it is confirmed or cancelled.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct robotstxt_slot {
    /// When the request may start, as far as is known (ms).
    pub start_ms: u64,
    /// The host's generation when the slot was handed out.
    pub generation: u64,
}

fn core_options(options: &robotstxt_pacer_options) -> PacerOptions {
    PacerOptions {
        floor_ms: options.floor_ms,
        backoff_cap_ms: options.backoff_cap_ms,
        capacity: options.capacity,
        max_in_flight: options.max_in_flight,
        in_flight_timeout_ms: options.in_flight_timeout_ms,
    }
}

/// The caller's state as the core's, checked.
///
/// # Safety
/// `pace.in_flight_until_ms` must be readable for `in_flight_len` entries.
unsafe fn read_state(pace: &robotstxt_host_pace) -> Outcome<HostPace> {
    if pace.in_flight_len > pace.in_flight_cap {
        return Err(Failure::out_of_range(
            "pace->in_flight_len",
            "at most pace->in_flight_cap",
        ));
    }
    let in_flight = match (pace.in_flight_until_ms.is_null(), pace.in_flight_len) {
        (_, 0) => Vec::new(),
        (true, len) => return Err(Failure::null_with_len("pace->in_flight_until_ms", len)),
        // SAFETY: readable for `in_flight_len` entries per the contract.
        (false, len) => {
            unsafe { std::slice::from_raw_parts(pace.in_flight_until_ms, len) }.to_vec()
        }
    };
    Ok(HostPace {
        next_slot: pace.next_slot_ms,
        last_start: pace.has_last_start.then_some(pace.last_start_ms),
        not_before: pace.not_before_ms,
        delay_ms: pace.delay_ms,
        factor: pace.factor,
        disabled: pace.disabled,
        generation: pace.generation,
        in_flight,
    })
}

/// Writes the core's state back into the caller's.
///
/// # Safety
/// `pace.in_flight_until_ms` must be writable for `in_flight_cap` entries.
unsafe fn write_state(pace: &mut robotstxt_host_pace, state: &HostPace) -> Outcome {
    if state.in_flight.len() > pace.in_flight_cap {
        return Err(Failure::out_of_range(
            "pace->in_flight_cap",
            "room for the options' max_in_flight entries",
        ));
    }
    if !state.in_flight.is_empty() {
        if pace.in_flight_until_ms.is_null() {
            return Err(Failure::null_with_len(
                "pace->in_flight_until_ms",
                state.in_flight.len(),
            ));
        }
        // SAFETY: writable for `in_flight_cap` entries per the contract.
        let room = unsafe {
            std::slice::from_raw_parts_mut(pace.in_flight_until_ms, state.in_flight.len())
        };
        room.copy_from_slice(&state.in_flight);
    }
    pace.in_flight_len = state.in_flight.len();
    pace.next_slot_ms = state.next_slot;
    pace.has_last_start = state.last_start.is_some();
    pace.last_start_ms = state.last_start.unwrap_or(0);
    pace.not_before_ms = state.not_before;
    pace.delay_ms = state.delay_ms;
    pace.factor = state.factor;
    pace.disabled = state.disabled;
    pace.generation = state.generation;
    Ok(())
}

/// Runs `step` on `pace`'s state with `options` and writes the state back
/// only when the step succeeds.
///
/// # Safety
/// As `robotstxt_host_pace`'s contract: `pace` NULL or valid, its array
/// readable and writable as described; `options` NULL or valid.
unsafe fn with_state<T>(
    pace: *mut robotstxt_host_pace,
    options: *const robotstxt_pacer_options,
    step: impl FnOnce(&mut HostPace, &PacerOptions) -> T,
) -> Outcome<T> {
    // SAFETY: forwarded to the caller.
    let (pace, options) = unsafe {
        (
            pace.as_mut().ok_or_else(|| Failure::null("pace"))?,
            core_options(handle(options, "options")?),
        )
    };
    // SAFETY: forwarded to the caller.
    let mut state = unsafe { read_state(pace)? };
    if state.in_flight.len() > options.max_in_flight.max(1) as usize
        || pace.in_flight_cap < options.max_in_flight.max(1) as usize
    {
        return Err(Failure::out_of_range(
            "pace->in_flight_cap",
            "room for the options' max_in_flight entries (1 when 0)",
        ));
    }
    let answer = step(&mut state, &options);
    // SAFETY: forwarded to the caller.
    unsafe { write_state(pace, &state)? };
    Ok(answer)
}

/// Sets `*pace` to a host nothing is known of, its in-flight requests kept
/// in `in_flight_until_ms`, which holds `in_flight_cap` entries (at least
/// the `max_in_flight` of the options the steps are given).
///
/// # Safety
/// `pace` must be writable; `in_flight_until_ms` NULL when
/// `in_flight_cap` is 0, else writable for `in_flight_cap` entries, for as
/// long as the state is used.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn robotstxt_host_pace_init(
    pace: *mut robotstxt_host_pace,
    in_flight_until_ms: *mut u64,
    in_flight_cap: usize,
) -> robotstxt_status {
    guard("robotstxt_host_pace_init", || {
        let out = Out::new(pace, "pace")?;
        if in_flight_until_ms.is_null() && in_flight_cap > 0 {
            return Err(Failure::null_with_len("in_flight_until_ms", in_flight_cap));
        }
        let fresh = HostPace::new();
        let value = robotstxt_host_pace {
            next_slot_ms: fresh.next_slot,
            has_last_start: false,
            last_start_ms: 0,
            not_before_ms: fresh.not_before,
            delay_ms: fresh.delay_ms,
            factor: fresh.factor,
            disabled: fresh.disabled,
            generation: fresh.generation,
            in_flight_until_ms,
            in_flight_len: 0,
            in_flight_cap,
        };
        // SAFETY: writable per the contract.
        unsafe { out.put(value) };
        Ok(())
    })
}

/// Hands out the next start slot at `now_ms` into `*slot_out` and sets
/// `*reserved_out`; while the host is switched off, reserves nothing and
/// sets `*reserved_out` to false. Slots go out in order, one gap apart.
/// Sleep until the slot's start, then `robotstxt_host_pace_confirm` it.
///
/// # Safety
/// `pace` as described at `robotstxt_host_pace`; `options` a valid
/// pointer; `slot_out` and `reserved_out` writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn robotstxt_host_pace_reserve(
    pace: *mut robotstxt_host_pace,
    now_ms: u64,
    options: *const robotstxt_pacer_options,
    slot_out: *mut robotstxt_slot,
    reserved_out: *mut bool,
) -> robotstxt_status {
    guard("robotstxt_host_pace_reserve", || {
        let slot_out = Out::new(slot_out, "slot_out")?;
        let reserved_out = Out::new(reserved_out, "reserved_out")?;
        // SAFETY: per the contract above.
        let slot = unsafe { with_state(pace, options, |s, o| s.reserve(now_ms, o))? };
        // SAFETY: writable per the contract.
        unsafe {
            slot_out.put(
                slot.map_or_else(robotstxt_slot::default, |s| robotstxt_slot {
                    start_ms: s.start,
                    generation: s.generation,
                }),
            );
            reserved_out.put(slot.is_some());
        }
        Ok(())
    })
}

/// Whether the request of `*slot` may be sent at `now_ms`, into
/// `*confirm_out`, as `robotstxt_pacer_confirm` answers: GO takes an
/// in-flight place until `robotstxt_host_pace_record`; WAIT says until
/// when; a slot of an older generation is given a new one (written into
/// `*slot`).
///
/// # Safety
/// `pace` as described at `robotstxt_host_pace`; `options` valid; `slot`
/// readable and writable; `confirm_out` writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn robotstxt_host_pace_confirm(
    pace: *mut robotstxt_host_pace,
    slot: *mut robotstxt_slot,
    now_ms: u64,
    options: *const robotstxt_pacer_options,
    confirm_out: *mut robotstxt_confirm,
) -> robotstxt_status {
    guard("robotstxt_host_pace_confirm", || {
        let out = Out::new(confirm_out, "confirm_out")?;
        // SAFETY: per the contract above.
        let slot = unsafe { slot.as_mut() }.ok_or_else(|| Failure::null("slot"))?;
        let mut core_slot = Slot {
            start: slot.start_ms,
            generation: slot.generation,
        };
        // SAFETY: per the contract above.
        let answer =
            unsafe { with_state(pace, options, |s, o| s.confirm(&mut core_slot, now_ms, o))? };
        slot.start_ms = core_slot.start;
        slot.generation = core_slot.generation;
        // SAFETY: writable per the contract.
        unsafe { out.put(confirm_answer(answer)) };
        Ok(())
    })
}

/// Gives an unsent slot back when it is the last one handed out.
///
/// # Safety
/// `pace` as described at `robotstxt_host_pace`; `options` valid.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn robotstxt_host_pace_cancel(
    pace: *mut robotstxt_host_pace,
    slot: robotstxt_slot,
    options: *const robotstxt_pacer_options,
) -> robotstxt_status {
    guard("robotstxt_host_pace_cancel", || {
        let slot = Slot {
            start: slot.start_ms,
            generation: slot.generation,
        };
        // SAFETY: per the contract above.
        unsafe { with_state(pace, options, |s, o| s.cancel(slot, o)) }
    })
}

/// Sets the host's own gap in ms (`robotstxt_rules_pace_delay_ms` reads it
/// from a robots.txt's rules). A slower pace gives the slots handed out
/// new ones when confirmed.
///
/// # Safety
/// `pace` as described at `robotstxt_host_pace`; `options` valid.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn robotstxt_host_pace_set_delay(
    pace: *mut robotstxt_host_pace,
    delay_ms: u64,
    options: *const robotstxt_pacer_options,
) -> robotstxt_status {
    guard("robotstxt_host_pace_set_delay", || {
        // SAFETY: per the contract above.
        unsafe { with_state(pace, options, |s, o| s.set_delay(delay_ms, o)) }
    })
}

/// A request that ended at `now_ms`: `http_status` (0 for a network error
/// or timeout) and, when `has_retry_after`, its `Retry-After` in ms, as
/// `robotstxt_pacer_record`. Frees the in-flight place that frees first.
///
/// # Safety
/// `pace` as described at `robotstxt_host_pace`; `options` valid.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn robotstxt_host_pace_record(
    pace: *mut robotstxt_host_pace,
    now_ms: u64,
    http_status: u16,
    has_retry_after: bool,
    retry_after_ms: u64,
    options: *const robotstxt_pacer_options,
) -> robotstxt_status {
    guard("robotstxt_host_pace_record", || {
        let status = (http_status != 0).then_some(http_status);
        let retry_after = has_retry_after.then_some(retry_after_ms);
        // SAFETY: per the contract above.
        unsafe {
            with_state(pace, options, |s, o| {
                s.record(now_ms, status, retry_after, o)
            })
        }
    })
}

/// Switches the host off (no slots; those out are voided when confirmed)
/// or back on.
///
/// # Safety
/// `pace` as described at `robotstxt_host_pace`; `options` valid.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn robotstxt_host_pace_set_enabled(
    pace: *mut robotstxt_host_pace,
    enabled: bool,
    options: *const robotstxt_pacer_options,
) -> robotstxt_status {
    guard("robotstxt_host_pace_set_enabled", || {
        // SAFETY: per the contract above.
        unsafe { with_state(pace, options, |s, o| s.set_enabled(enabled, o)) }
    })
}

/// The gap now applied between two request starts (ms), or 0 when `pace`
/// or `options` is NULL or invalid.
///
/// # Safety
/// `pace` as described at `robotstxt_host_pace`; `options` valid or NULL.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn robotstxt_host_pace_gap_ms(
    pace: *const robotstxt_host_pace,
    options: *const robotstxt_pacer_options,
) -> u64 {
    guard_value("robotstxt_host_pace_gap_ms", 0, || {
        // SAFETY: per the contract above; the state is only read.
        unsafe { read_only(pace, options, |s, o| s.gap(o)) }.unwrap_or(0)
    })
}

/// How many requests are in flight at `now_ms`, or 0 when `pace` is NULL
/// or invalid.
///
/// # Safety
/// `pace` as described at `robotstxt_host_pace`, or NULL.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn robotstxt_host_pace_in_flight(
    pace: *const robotstxt_host_pace,
    now_ms: u64,
) -> usize {
    guard_value("robotstxt_host_pace_in_flight", 0, || {
        let defaults = super::pacer::robotstxt_pacer_options_default();
        // SAFETY: per the contract above; the state is only read.
        unsafe { read_only(pace, &defaults, |s, _| s.in_flight_at(now_ms)) }.unwrap_or(0)
    })
}

/// Whether the state may be dropped from the store at `now_ms` without
/// letting a request start sooner than it may: not switched off, not
/// backing off, nothing in flight, no slot ahead, its gap passed. False
/// when `pace` or `options` is NULL or invalid.
///
/// # Safety
/// `pace` as described at `robotstxt_host_pace`; `options` valid or NULL.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn robotstxt_host_pace_safe_to_forget(
    pace: *const robotstxt_host_pace,
    now_ms: u64,
    options: *const robotstxt_pacer_options,
) -> bool {
    guard_value("robotstxt_host_pace_safe_to_forget", false, || {
        // SAFETY: per the contract above; the state is only read.
        unsafe { read_only(pace, options, |s, o| s.safe_to_forget(now_ms, o)) }.unwrap_or(false)
    })
}

/// `read` over the state, or `None` for NULL or an invalid state.
///
/// # Safety
/// As `robotstxt_host_pace`'s contract, for reading.
unsafe fn read_only<T>(
    pace: *const robotstxt_host_pace,
    options: *const robotstxt_pacer_options,
    read: impl FnOnce(&HostPace, &PacerOptions) -> T,
) -> Option<T> {
    // SAFETY: forwarded to the caller.
    let (pace, options) = unsafe { (pace.as_ref()?, options.as_ref()?) };
    // SAFETY: forwarded to the caller.
    let state = unsafe { read_state(pace) }.ok()?;
    Some(read(&state, &core_options(options)))
}

/// Writes the gap (ms) `rules` ask of a crawler: the larger of their
/// `Crawl-delay` and `Request-rate` interval, fractions of a ms rounded
/// up, 0 when they set neither. What `robotstxt_host_pace_set_delay` takes.
///
/// # Safety
/// `rules` must be a live handle; `delay_ms_out` writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn robotstxt_rules_pace_delay_ms(
    rules: *const robotstxt_rules,
    delay_ms_out: *mut u64,
) -> robotstxt_status {
    guard("robotstxt_rules_pace_delay_ms", || {
        // SAFETY: per the contract above.
        let rules = unsafe { handle(rules, "rules")? };
        let out = Out::new(delay_ms_out, "delay_ms_out")?;
        let delay = delay_ms(rules.rules.crawl_delay(), rules.rules.request_rate());
        // SAFETY: writable per the contract.
        unsafe { out.put(delay) };
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
    use engine::Confirm;

    /// One step of a host's life, as a fleet worker would take it.
    #[derive(Clone, Debug)]
    enum Op {
        Reserve,
        Confirm(usize),
        Cancel(usize),
        Record(u16, Option<u64>),
        SetDelay(u64),
        SetEnabled(bool),
        Advance(u64),
    }

    fn op() -> impl Strategy<Value = Op> {
        prop_oneof![
            3 => Just(Op::Reserve),
            3 => any::<usize>().prop_map(Op::Confirm),
            1 => any::<usize>().prop_map(Op::Cancel),
            2 => (
                prop::sample::select(vec![0u16, 200, 404, 429, 503]),
                prop::sample::select(vec![None, Some(0), Some(1500), Some(90_000)]),
            )
                .prop_map(|(s, r)| Op::Record(s, r)),
            1 => prop::sample::select(vec![0u64, 250, 1000, 2500]).prop_map(Op::SetDelay),
            1 => any::<bool>().prop_map(Op::SetEnabled),
            3 => (0u64..5000).prop_map(Op::Advance),
        ]
    }

    fn c_options(max_in_flight: u32, floor_ms: u64) -> robotstxt_pacer_options {
        robotstxt_pacer_options {
            floor_ms,
            backoff_cap_ms: 8000,
            capacity: 1,
            max_in_flight,
            in_flight_timeout_ms: 3000,
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

        /// The C functions over caller-owned state give what `HostPace`
        /// gives, answer for answer and field for field.
        #[test]
        fn the_c_state_paces_as_host_pace_does(
            max_in_flight in 0u32..4,
            floor_ms in prop::sample::select(vec![0u64, 1000]),
            ops in prop::collection::vec(op(), 1..80),
        ) {
            let c = c_options(max_in_flight, floor_ms);
            let options = core_options(&c);
            let mut array = vec![0u64; max_in_flight.max(1) as usize];
            let mut pace = std::mem::MaybeUninit::<robotstxt_host_pace>::uninit();
            // SAFETY: the array outlives the state; `pace` is writable.
            let status = unsafe {
                robotstxt_host_pace_init(pace.as_mut_ptr(), array.as_mut_ptr(), array.len())
            };
            prop_assert_eq!(status, 0);
            // SAFETY: initialised by the call above.
            let mut pace = unsafe { pace.assume_init() };
            let mut model = HostPace::new();
            let mut slots: Vec<(Slot, robotstxt_slot)> = Vec::new();
            let mut now = 1_000_000u64;
            for op in ops {
                // SAFETY (every call below): `pace` and its array are live.
                match op {
                    Op::Reserve => {
                        let mut slot = robotstxt_slot::default();
                        let mut reserved = false;
                        let status = unsafe {
                            robotstxt_host_pace_reserve(&mut pace, now, &c, &mut slot, &mut reserved)
                        };
                        prop_assert_eq!(status, 0);
                        let want = model.reserve(now, &options);
                        prop_assert_eq!(reserved, want.is_some());
                        if let Some(want) = want {
                            prop_assert_eq!((slot.start_ms, slot.generation), (want.start, want.generation));
                            slots.push((want, slot));
                        }
                    }
                    Op::Confirm(i) if !slots.is_empty() => {
                        let at = i % slots.len();
                        let (mut want_slot, mut slot) = slots[at];
                        let mut answer = robotstxt_confirm { kind: 9, until_ms: 0, busy: false };
                        let status = unsafe {
                            robotstxt_host_pace_confirm(&mut pace, &mut slot, now, &c, &mut answer)
                        };
                        prop_assert_eq!(status, 0);
                        let want = model.confirm(&mut want_slot, now, &options);
                        let want_c = confirm_answer(want);
                        prop_assert_eq!(
                            (answer.kind, answer.until_ms, answer.busy),
                            (want_c.kind, want_c.until_ms, want_c.busy)
                        );
                        prop_assert_eq!((slot.start_ms, slot.generation), (want_slot.start, want_slot.generation));
                        if matches!(want, Confirm::Wait { .. }) {
                            slots[at] = (want_slot, slot);
                        } else {
                            slots.swap_remove(at);
                        }
                    }
                    Op::Cancel(i) if !slots.is_empty() => {
                        let (want, slot) = slots.swap_remove(i % slots.len());
                        prop_assert_eq!(unsafe { robotstxt_host_pace_cancel(&mut pace, slot, &c) }, 0);
                        model.cancel(want, &options);
                    }
                    Op::Confirm(_) | Op::Cancel(_) => {}
                    Op::Record(status, retry_after) => {
                        let code = unsafe {
                            robotstxt_host_pace_record(
                                &mut pace, now, status, retry_after.is_some(),
                                retry_after.unwrap_or(0), &c,
                            )
                        };
                        prop_assert_eq!(code, 0);
                        model.record(now, (status != 0).then_some(status), retry_after, &options);
                    }
                    Op::SetDelay(ms) => {
                        prop_assert_eq!(unsafe { robotstxt_host_pace_set_delay(&mut pace, ms, &c) }, 0);
                        model.set_delay(ms, &options);
                    }
                    Op::SetEnabled(on) => {
                        prop_assert_eq!(unsafe { robotstxt_host_pace_set_enabled(&mut pace, on, &c) }, 0);
                        model.set_enabled(on, &options);
                    }
                    Op::Advance(ms) => now += ms,
                }
                let state = unsafe { read_state(&pace) }.expect("a valid state");
                prop_assert_eq!(&state, &model);
                prop_assert_eq!(unsafe { robotstxt_host_pace_gap_ms(&pace, &c) }, model.gap(&options));
                prop_assert_eq!(unsafe { robotstxt_host_pace_in_flight(&pace, now) }, model.in_flight_at(now));
                prop_assert_eq!(
                    unsafe { robotstxt_host_pace_safe_to_forget(&pace, now, &c) },
                    model.safe_to_forget(now, &options)
                );
            }
        }
    }

    #[test]
    fn a_state_without_room_for_the_in_flight_limit_is_refused_untouched() {
        let c = c_options(2, 1000);
        let mut one = [0u64; 1];
        let mut pace = std::mem::MaybeUninit::<robotstxt_host_pace>::uninit();
        // SAFETY: `one` outlives the state; the pointers are valid.
        unsafe {
            assert_eq!(
                robotstxt_host_pace_init(pace.as_mut_ptr(), one.as_mut_ptr(), 1),
                0
            );
            let mut pace = pace.assume_init();
            let before = format!("{pace:?}");
            let mut slot = robotstxt_slot::default();
            let mut reserved = false;
            let status = robotstxt_host_pace_reserve(&mut pace, 5, &c, &mut slot, &mut reserved);
            assert_eq!(
                status,
                super::super::status::ROBOTSTXT_STATUS_INVALID_ARGUMENT
            );
            assert!(!reserved);
            assert_eq!(format!("{pace:?}"), before);
            // More used than the array holds, or a NULL array with entries.
            pace.in_flight_len = 2;
            assert_ne!(
                robotstxt_host_pace_set_delay(&mut pace, 10, &c_options(1, 0)),
                0
            );
            pace.in_flight_len = 1;
            pace.in_flight_until_ms = std::ptr::null_mut();
            assert_ne!(
                robotstxt_host_pace_set_delay(&mut pace, 10, &c_options(1, 0)),
                0
            );
            assert_eq!(robotstxt_host_pace_gap_ms(&pace, &c), 0);
            assert_ne!(
                robotstxt_host_pace_set_delay(std::ptr::null_mut(), 10, &c),
                0
            );
            assert!(!robotstxt_host_pace_safe_to_forget(std::ptr::null(), 0, &c));
        }
    }
}
