//! `robotstxt_fleet_pacer` and `robotstxt_fleet_ticket`: one worker's side
//! of a fleet's shared pacer, sans I/O (docs/fleet.md). Each step is one
//! call whose reply carries the host's state, which the pacer keeps
//! (bounded) to give back to Redis if Redis loses it.

use std::sync::Mutex;
use std::time::Duration;

use super::fleet::{
    at, fleet_failure, lock, put_ms_until, put_now, reply, reply_args, robotstxt_fleet_at,
    robotstxt_fleet_reply_item, robotstxt_fleet_step, Pending,
};
use super::fleet_cache::{default_prefix, option_text};
use super::pacer::{
    robotstxt_confirm_kind, ROBOTSTXT_CONFIRM_DISABLED, ROBOTSTXT_CONFIRM_GO,
    ROBOTSTXT_CONFIRM_WAIT,
};
use super::status::{robotstxt_status, Failure};
use super::{
    bytes, free_handle, guard, guard_value, handle, into_handle, robotstxt_str, Out, Outcome,
};
use engine::{
    Error, FleetConfirm, FleetPacer, FleetPacerOptions, FleetTicket, PaceStep, PacerOptions,
    RequestRate, ScriptCall, MAX_DELAY,
};

/// A fleet pacer's options. Times in ms. Start from
/// `robotstxt_fleet_pacer_options_default()`. Workers of one fleet use the
/// same prefix and pace.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct robotstxt_fleet_pacer_options {
    /// Put before every key; read during `robotstxt_fleet_pacer_new` only.
    /// Empty: `robotstxt:`.
    pub prefix: robotstxt_str,
    /// The smallest gap between two request starts to one host: 1,000.
    pub floor_ms: u64,
    /// The largest gap backoff may widen to: 600,000.
    pub backoff_cap_ms: u64,
    /// At most this many requests to one host in flight at once, across
    /// the fleet: 1. 0 is taken as 1.
    pub max_in_flight: u32,
    /// A request confirmed and never recorded frees its place after this
    /// long: 120,000.
    pub in_flight_timeout_ms: u64,
    /// How long Redis keeps a host's pace after it last held anything back:
    /// 24 h.
    pub retain_ms: u64,
    /// How many hosts this worker remembers the pace of, to restore a host
    /// whose state Redis lost: 10,000.
    pub known_capacity: usize,
    /// Names this worker's in-flight places in Redis, unique per worker;
    /// read during `robotstxt_fleet_pacer_new` only. Empty: one made from
    /// the time and a counter (a WebAssembly host with no clock passes
    /// one).
    pub worker: robotstxt_str,
}

/// What a fleet confirmation says.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct robotstxt_fleet_confirm {
    /// A `ROBOTSTXT_CONFIRM_*` value: GO (send now, and record how it went),
    /// WAIT (confirm again at `until_ms`; the ticket may have a new slot),
    /// DISABLED (the host is switched off: send nothing).
    pub kind: robotstxt_confirm_kind,
    /// WAIT: when to confirm again (fleet time, ms).
    pub until_ms: u64,
    /// WAIT: the in-flight limit holds it back; a place may free sooner.
    pub busy: bool,
    /// GO: the fleet's time of the go (ms).
    pub at_ms: u64,
}

/// A host's pace as it stands.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct robotstxt_fleet_pace_state {
    /// The gap between starts now (ms).
    pub gap_ms: u64,
    /// Requests in flight across the fleet.
    pub in_flight: u64,
}

/// A ticket's host and slot. The host borrows from the ticket.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct robotstxt_fleet_ticket_info {
    /// The host, as the pacer keys it.
    pub host: robotstxt_str,
    /// When the request may start (fleet time, ms), as far as is known:
    /// after a WAIT, the new slot.
    pub start_ms: u64,
    /// The host's generation the slot belongs to.
    pub generation: u64,
}

/// One worker's side of a fleet's shared pacer. Synchronised: share one per
/// worker between any number of threads. Only `robotstxt_fleet_pacer_free`
/// must not overlap with other uses. Free it with
/// `robotstxt_fleet_pacer_free`.
pub struct robotstxt_fleet_pacer {
    pacer: Mutex<FleetPacer>,
}

impl robotstxt_fleet_pacer {
    /// Names this pacer in the steps and tickets it hands out.
    fn id(&self) -> usize {
        self as *const robotstxt_fleet_pacer as usize
    }
}

/// A slot of the fleet for one request to one host, from
/// `robotstxt_fleet_pacer_reserve_reply`: confirm it just before sending,
/// until GO or DISABLED (then it is spent), or cancel it. Calls on it may
/// overlap; only `robotstxt_fleet_ticket_free` must not overlap with other
/// uses. Free it with `robotstxt_fleet_ticket_free`.
pub struct robotstxt_fleet_ticket {
    state: Mutex<TicketState>,
    pacer: usize,
    host: Box<str>,
}

struct TicketState {
    ticket: FleetTicket,
    spent: bool,
}

impl robotstxt_fleet_ticket {
    fn id(&self) -> usize {
        self as *const robotstxt_fleet_ticket as usize
    }

    /// The ticket's state, for `pacer`, unspent.
    fn unspent(
        &self,
        pacer: &robotstxt_fleet_pacer,
    ) -> Outcome<std::sync::MutexGuard<'_, TicketState>> {
        let state = lock(&self.state);
        let reason = if self.pacer != pacer.id() {
            "belongs to another pacer"
        } else if state.spent {
            "was already confirmed go or disabled, or cancelled"
        } else {
            return Ok(state);
        };
        Err(Failure::from(Error::InvalidTicket { reason }))
    }
}

/// The default fleet pacer options: the default prefix, the local pacer's
/// pace (a 1 s floor, backoff capped at 10 minutes, one request in flight
/// freed after 2 minutes), a host's pace kept 24 h, 10,000 hosts
/// remembered, a worker name made at `robotstxt_fleet_pacer_new`.
#[unsafe(no_mangle)]
pub extern "C" fn robotstxt_fleet_pacer_options_default() -> robotstxt_fleet_pacer_options {
    let fallback = robotstxt_fleet_pacer_options {
        prefix: robotstxt_str::EMPTY,
        floor_ms: 1000,
        backoff_cap_ms: 600_000,
        max_in_flight: 1,
        in_flight_timeout_ms: 120_000,
        retain_ms: 24 * 3600 * 1000,
        known_capacity: 10_000,
        worker: robotstxt_str::EMPTY,
    };
    guard_value("robotstxt_fleet_pacer_options_default", fallback, || {
        // Not FleetPacerOptions::default(): its worker name reads a clock
        // the WebAssembly core has not (a test checks that they agree).
        let pace = PacerOptions::default();
        robotstxt_fleet_pacer_options {
            floor_ms: pace.floor_ms,
            backoff_cap_ms: pace.backoff_cap_ms,
            max_in_flight: pace.max_in_flight,
            in_flight_timeout_ms: pace.in_flight_timeout_ms,
            ..fallback
        }
    })
}

/// Creates a fleet pacer with `*options`, copied. On success the caller
/// owns `*pacer_out` and frees it with `robotstxt_fleet_pacer_free`. A retain
/// of 0 ms, a known capacity of 0, or a prefix or worker name that is not
/// UTF-8 give `ROBOTSTXT_STATUS_INVALID_OPTION`.
///
/// # Safety
/// `options` must point to a `robotstxt_fleet_pacer_options` whose text is
/// valid; `pacer_out` must be writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn robotstxt_fleet_pacer_new(
    options: *const robotstxt_fleet_pacer_options,
    pacer_out: *mut *mut robotstxt_fleet_pacer,
) -> robotstxt_status {
    guard("robotstxt_fleet_pacer_new", || {
        // SAFETY: per the contract above.
        let options = unsafe { handle(options, "options")? };
        let out = Out::new(pacer_out, "pacer_out")?;
        // The default worker name reads the clock: only made when asked
        // (a WebAssembly host without one passes a name).
        let pacer = FleetPacer::new(FleetPacerOptions {
            // SAFETY: per the contract above.
            prefix: unsafe { option_text(options.prefix, "prefix", default_prefix)? },
            // SAFETY: per the contract above.
            worker: unsafe {
                option_text(options.worker, "worker", || {
                    FleetPacerOptions::default().worker
                })?
            },
            pacer: PacerOptions {
                floor_ms: options.floor_ms,
                backoff_cap_ms: options.backoff_cap_ms,
                max_in_flight: options.max_in_flight,
                in_flight_timeout_ms: options.in_flight_timeout_ms,
                ..PacerOptions::default()
            },
            retain_ms: options.retain_ms,
            known_capacity: options.known_capacity,
        })?;
        let pacer = robotstxt_fleet_pacer {
            pacer: Mutex::new(pacer),
        };
        // SAFETY: writable per the contract.
        unsafe { out.put(into_handle(pacer)) };
        Ok(())
    })
}

/// Frees a fleet pacer. NULL does nothing.
///
/// # Safety
/// `pacer` must be NULL or a live handle, not used again after this.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn robotstxt_fleet_pacer_free(pacer: *mut robotstxt_fleet_pacer) {
    // SAFETY: forwarded to the caller.
    unsafe { free_handle("robotstxt_fleet_pacer_free", pacer) }
}

/// Runs one export that makes a pace step for a host: `make` gets the pacer
/// and the host; the step goes to `*step_out`.
///
/// # Safety
/// `pacer` a live handle; `host` readable for `host_len` bytes (or NULL
/// when 0); `at` pointing to a `robotstxt_fleet_at`; `step_out` writable.
unsafe fn host_step(
    export: &'static str,
    pacer: *const robotstxt_fleet_pacer,
    host: *const u8,
    host_len: usize,
    at: *const robotstxt_fleet_at,
    step_out: *mut *mut robotstxt_fleet_step,
    make: impl FnOnce(&mut FleetPacer, &[u8], engine::At) -> Result<PaceStep, Error>,
) -> robotstxt_status {
    guard(export, || {
        // SAFETY: per the caller.
        let (pacer, host, at) = unsafe {
            (
                handle(pacer, "pacer")?,
                bytes(host, host_len, "host")?,
                self::at(at)?,
            )
        };
        let out = Out::new(step_out, "step_out")?;
        let step = make(&mut lock(&pacer.pacer), host, at)?;
        // SAFETY: writable per the caller.
        unsafe { out.put(pace_step(step, pacer.id(), None)) };
        Ok(())
    })
}

/// A step handle for a pace step; a confirmation's knows its ticket.
fn pace_step(step: PaceStep, pacer: usize, ticket: Option<usize>) -> *mut robotstxt_fleet_step {
    let call: ScriptCall = step.call().clone();
    let pending = match ticket {
        Some(ticket) => Pending::Confirm(Box::new(step), ticket),
        None => Pending::Pace(Box::new(step)),
    };
    robotstxt_fleet_step::new(call, pacer, pending)
}

/// Takes the pace step of one of `scripts` out of `step`.
fn take_pace(
    pacer: &robotstxt_fleet_pacer,
    step: &robotstxt_fleet_step,
    scripts: &[&str],
) -> Outcome<Box<PaceStep>> {
    step.take(pacer.id(), |p| match p {
        Pending::Pace(s) if scripts.contains(&s.call().name()) => Ok(s),
        other => Err(other),
    })
}

/// Writes to `*step_out` the step that reserves `host`'s next slot for the
/// fleet (a host name such as `example.com`, compared case-insensitively);
/// `robotstxt_fleet_pacer_reserve_reply` reads its reply.
/// `ROBOTSTXT_STATUS_INVALID_HOST` for an empty or over-long host.
///
/// # Safety
/// `pacer` must be a live handle; `host` readable for `host_len` bytes (or
/// NULL when 0); `at` must point to a `robotstxt_fleet_at`; `step_out`
/// writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn robotstxt_fleet_pacer_reserve(
    pacer: *const robotstxt_fleet_pacer,
    host: *const u8,
    host_len: usize,
    at: *const robotstxt_fleet_at,
    step_out: *mut *mut robotstxt_fleet_step,
) -> robotstxt_status {
    // SAFETY: forwarded to the caller.
    unsafe {
        host_step(
            "robotstxt_fleet_pacer_reserve",
            pacer,
            host,
            host_len,
            at,
            step_out,
            |p, h, at| p.reserve(h, at),
        )
    }
}

/// Reads the reply to a reservation and writes a new ticket to
/// `*ticket_out`, or NULL while the host is switched off. Sleep until its
/// start (`robotstxt_fleet_ticket_read`, `robotstxt_fleet_pacer_ms_until`),
/// then confirm it. `ROBOTSTXT_STATUS_BAD_REPLY` for a reply that is not the
/// script's answer, `ROBOTSTXT_STATUS_INVALID_STEP` for a step that is not
/// this pacer's reservation or was read already.
///
/// # Safety
/// `pacer` and `step` must be live handles; `items` readable for `count`
/// items (NULL when 0), each item's text for its length; `ticket_out`
/// writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn robotstxt_fleet_pacer_reserve_reply(
    pacer: *const robotstxt_fleet_pacer,
    step: *const robotstxt_fleet_step,
    items: *const robotstxt_fleet_reply_item,
    count: usize,
    ticket_out: *mut *mut robotstxt_fleet_ticket,
) -> robotstxt_status {
    guard("robotstxt_fleet_pacer_reserve_reply", || {
        // SAFETY: per the contract above.
        let (pacer, step, reply) = unsafe { reply_args(pacer, "pacer", step, items, count)? };
        let out = Out::new(ticket_out, "ticket_out")?;
        let step = take_pace(pacer, step, &["reserve"])?;
        let ticket = lock(&pacer.pacer)
            .reserve_reply(*step, &reply)
            .map_err(fleet_failure)?;
        let ticket = ticket.map_or(std::ptr::null_mut(), |ticket| {
            into_handle(robotstxt_fleet_ticket {
                host: ticket.host().into(),
                state: Mutex::new(TicketState {
                    ticket,
                    spent: false,
                }),
                pacer: pacer.id(),
            })
        });
        // SAFETY: writable per the contract.
        unsafe { out.put(ticket) };
        Ok(())
    })
}

/// Writes the ticket's host and slot to `*info_out`.
///
/// # Safety
/// `ticket` must be a live handle; `info_out` writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn robotstxt_fleet_ticket_read(
    ticket: *const robotstxt_fleet_ticket,
    info_out: *mut robotstxt_fleet_ticket_info,
) -> robotstxt_status {
    guard("robotstxt_fleet_ticket_read", || {
        // SAFETY: per the contract above.
        let ticket = unsafe { handle(ticket, "ticket")? };
        let out = Out::new(info_out, "info_out")?;
        let state = lock(&ticket.state);
        let info = robotstxt_fleet_ticket_info {
            host: robotstxt_str::borrow(ticket.host.as_bytes()),
            start_ms: state.ticket.start,
            generation: state.ticket.generation,
        };
        // SAFETY: writable per the contract.
        unsafe { out.put(info) };
        Ok(())
    })
}

/// Frees a ticket. NULL does nothing. An unconfirmed ticket keeps its slot
/// used; `robotstxt_fleet_pacer_cancel` gives it back.
///
/// # Safety
/// `ticket` must be NULL or a live handle, not used again after this.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn robotstxt_fleet_ticket_free(ticket: *mut robotstxt_fleet_ticket) {
    // SAFETY: forwarded to the caller.
    unsafe { free_handle("robotstxt_fleet_ticket_free", ticket) }
}

/// The pacer, ticket and time of a ticket's step, checked.
///
/// # Safety
/// As for [`handle`] (both) and [`at`].
unsafe fn ticket_args<'a>(
    pacer: *const robotstxt_fleet_pacer,
    ticket: *const robotstxt_fleet_ticket,
    at: *const robotstxt_fleet_at,
) -> Outcome<(
    &'a robotstxt_fleet_pacer,
    &'a robotstxt_fleet_ticket,
    engine::At,
)> {
    // SAFETY: forwarded to the caller.
    unsafe {
        Ok((
            handle(pacer, "pacer")?,
            handle(ticket, "ticket")?,
            self::at(at)?,
        ))
    }
}

/// Writes to `*step_out` the step that asks, just before sending, whether
/// the request of `ticket` may start; `robotstxt_fleet_pacer_confirm_reply`
/// reads its reply, with the same ticket. `ROBOTSTXT_STATUS_INVALID_TICKET`
/// for a ticket spent (GO, DISABLED, cancelled) or of another pacer.
///
/// # Safety
/// `pacer` and `ticket` must be live handles; `at` must point to a
/// `robotstxt_fleet_at`; `step_out` writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn robotstxt_fleet_pacer_confirm(
    pacer: *const robotstxt_fleet_pacer,
    ticket: *const robotstxt_fleet_ticket,
    at: *const robotstxt_fleet_at,
    step_out: *mut *mut robotstxt_fleet_step,
) -> robotstxt_status {
    guard("robotstxt_fleet_pacer_confirm", || {
        // SAFETY: per the contract above.
        let (pacer, ticket, at) = unsafe { ticket_args(pacer, ticket, at)? };
        let out = Out::new(step_out, "step_out")?;
        let state = ticket.unspent(pacer)?;
        let step = lock(&pacer.pacer).confirm(&state.ticket, at)?;
        // SAFETY: writable per the contract.
        unsafe { out.put(pace_step(step, pacer.id(), Some(ticket.id()))) };
        Ok(())
    })
}

/// Reads the reply to `ticket`'s confirmation and writes what it says to
/// `*confirm_out`; a slot the fleet moved is written into the ticket. GO and
/// DISABLED spend it. `ROBOTSTXT_STATUS_BAD_REPLY` as for
/// `robotstxt_fleet_pacer_reserve_reply`; `ROBOTSTXT_STATUS_INVALID_STEP` for
/// a step that is not this pacer's confirmation of this ticket, or was read
/// already; `ROBOTSTXT_STATUS_INVALID_TICKET` for a ticket spent meanwhile.
///
/// # Safety
/// `pacer`, `ticket` and `step` must be live handles; `items` as for
/// `robotstxt_fleet_pacer_reserve_reply`; `confirm_out` writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn robotstxt_fleet_pacer_confirm_reply(
    pacer: *const robotstxt_fleet_pacer,
    ticket: *const robotstxt_fleet_ticket,
    step: *const robotstxt_fleet_step,
    items: *const robotstxt_fleet_reply_item,
    count: usize,
    confirm_out: *mut robotstxt_fleet_confirm,
) -> robotstxt_status {
    guard("robotstxt_fleet_pacer_confirm_reply", || {
        // SAFETY: per the contract above.
        let (pacer, ticket, step, reply) = unsafe {
            (
                handle(pacer, "pacer")?,
                handle(ticket, "ticket")?,
                handle(step, "step")?,
                reply(items, count)?,
            )
        };
        let out = Out::new(confirm_out, "confirm_out")?;
        let mut state = ticket.unspent(pacer)?;
        let step = step.take(pacer.id(), |p| match p {
            Pending::Confirm(s, of) if of == ticket.id() => Ok(s),
            other => Err(other),
        })?;
        let said = lock(&pacer.pacer)
            .confirm_reply(&mut state.ticket, *step, &reply)
            .map_err(fleet_failure)?;
        let (kind, until_ms, busy, at_ms) = match said {
            FleetConfirm::Go { at } => (ROBOTSTXT_CONFIRM_GO, 0, false, at),
            FleetConfirm::Wait { until, busy } => (ROBOTSTXT_CONFIRM_WAIT, until, busy, 0),
            FleetConfirm::Disabled => (ROBOTSTXT_CONFIRM_DISABLED, 0, false, 0),
        };
        state.spent = kind != ROBOTSTXT_CONFIRM_WAIT;
        // SAFETY: writable per the contract.
        unsafe {
            out.put(robotstxt_fleet_confirm {
                kind,
                until_ms,
                busy,
                at_ms,
            })
        };
        Ok(())
    })
}

/// Spends `ticket` unsent and writes to `*step_out` the step that gives its
/// slot back when it is the last one handed out for its host (its reply
/// reads with `robotstxt_fleet_pacer_step_reply`), or NULL for a ticket
/// already spent: there is nothing to give back. The ticket must still be
/// freed. `ROBOTSTXT_STATUS_INVALID_TICKET` for a ticket of another pacer.
///
/// # Safety
/// `pacer` and `ticket` must be live handles; `at` must point to a
/// `robotstxt_fleet_at`; `step_out` writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn robotstxt_fleet_pacer_cancel(
    pacer: *const robotstxt_fleet_pacer,
    ticket: *const robotstxt_fleet_ticket,
    at: *const robotstxt_fleet_at,
    step_out: *mut *mut robotstxt_fleet_step,
) -> robotstxt_status {
    guard("robotstxt_fleet_pacer_cancel", || {
        // SAFETY: per the contract above.
        let (pacer, ticket, at) = unsafe { ticket_args(pacer, ticket, at)? };
        let out = Out::new(step_out, "step_out")?;
        let mut state = match ticket.unspent(pacer) {
            Ok(state) => state,
            Err(_) if ticket.pacer == pacer.id() => {
                // SAFETY: writable per the contract.
                unsafe { out.put(std::ptr::null_mut()) };
                return Ok(());
            }
            Err(other) => return Err(other),
        };
        let step = lock(&pacer.pacer).cancel(&state.ticket, at)?;
        state.spent = true;
        // SAFETY: writable per the contract.
        unsafe { out.put(pace_step(step, pacer.id(), None)) };
        Ok(())
    })
}

/// Writes to `*step_out` the step that records how a request to `host`
/// ended: `http_status` (0: no response) and, when `has_retry_after`, its
/// `Retry-After` in ms. Record every request a GO let go: it frees its
/// in-flight place. A 429 or 5xx backs the host off for the fleet, a
/// `Retry-After` holds every request back until it, any other status eases
/// the backoff. `robotstxt_fleet_pacer_step_reply` reads its reply.
///
/// # Safety
/// As for `robotstxt_fleet_pacer_reserve`.
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn robotstxt_fleet_pacer_record(
    pacer: *const robotstxt_fleet_pacer,
    host: *const u8,
    host_len: usize,
    http_status: u16,
    has_retry_after: bool,
    retry_after_ms: u64,
    at: *const robotstxt_fleet_at,
    step_out: *mut *mut robotstxt_fleet_step,
) -> robotstxt_status {
    let status = (http_status != 0).then_some(http_status);
    let retry_after = has_retry_after.then_some(retry_after_ms);
    // SAFETY: forwarded to the caller.
    unsafe {
        host_step(
            "robotstxt_fleet_pacer_record",
            pacer,
            host,
            host_len,
            at,
            step_out,
            |p, h, at| p.record(h, status, retry_after, at),
        )
    }
}

/// Writes to `*step_out` the step that sets `host`'s own gap for the fleet,
/// in ms (`robotstxt_rules_pace_delay_ms`, `robotstxt_pace_delay_ms`); the
/// floor still applies. `robotstxt_fleet_pacer_step_reply` reads its reply.
///
/// # Safety
/// As for `robotstxt_fleet_pacer_reserve`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn robotstxt_fleet_pacer_set_delay(
    pacer: *const robotstxt_fleet_pacer,
    host: *const u8,
    host_len: usize,
    delay_ms: u64,
    at: *const robotstxt_fleet_at,
    step_out: *mut *mut robotstxt_fleet_step,
) -> robotstxt_status {
    // SAFETY: forwarded to the caller.
    unsafe {
        host_step(
            "robotstxt_fleet_pacer_set_delay",
            pacer,
            host,
            host_len,
            at,
            step_out,
            |p, h, at| p.set_delay(h, delay_ms, at),
        )
    }
}

/// Writes to `*step_out` the step that switches `host` off for the fleet
/// (`enabled` false: no slot is handed out, tickets out confirm DISABLED)
/// or back on: a kill switch. `robotstxt_fleet_pacer_step_reply` reads its
/// reply.
///
/// # Safety
/// As for `robotstxt_fleet_pacer_reserve`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn robotstxt_fleet_pacer_set_enabled(
    pacer: *const robotstxt_fleet_pacer,
    host: *const u8,
    host_len: usize,
    enabled: bool,
    at: *const robotstxt_fleet_at,
    step_out: *mut *mut robotstxt_fleet_step,
) -> robotstxt_status {
    // SAFETY: forwarded to the caller.
    unsafe {
        host_step(
            "robotstxt_fleet_pacer_set_enabled",
            pacer,
            host,
            host_len,
            at,
            step_out,
            |p, h, at| p.set_enabled(h, enabled, at),
        )
    }
}

/// Reads the reply to a cancel, record, set_delay or set_enabled step and
/// writes what it gives to `*value_out`: the host's gap now (ms), or for a
/// cancel 1 when the slot was given back. `ROBOTSTXT_STATUS_BAD_REPLY` and
/// `ROBOTSTXT_STATUS_INVALID_STEP` as for
/// `robotstxt_fleet_pacer_reserve_reply`.
///
/// # Safety
/// As for `robotstxt_fleet_pacer_reserve_reply`; `value_out` writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn robotstxt_fleet_pacer_step_reply(
    pacer: *const robotstxt_fleet_pacer,
    step: *const robotstxt_fleet_step,
    items: *const robotstxt_fleet_reply_item,
    count: usize,
    value_out: *mut u64,
) -> robotstxt_status {
    guard("robotstxt_fleet_pacer_step_reply", || {
        // SAFETY: per the contract above.
        let (pacer, step, reply) = unsafe { reply_args(pacer, "pacer", step, items, count)? };
        let out = Out::new(value_out, "value_out")?;
        let step = take_pace(
            pacer,
            step,
            &["cancel", "record", "set_delay", "set_enabled"],
        )?;
        let value = lock(&pacer.pacer)
            .step_reply(*step, &reply)
            .map_err(fleet_failure)?;
        // SAFETY: writable per the contract.
        unsafe { out.put(value) };
        Ok(())
    })
}

/// Writes to `*step_out` the step that reads `host`'s pace as it stands;
/// `robotstxt_fleet_pacer_pace_state_reply` reads its reply.
///
/// # Safety
/// As for `robotstxt_fleet_pacer_reserve`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn robotstxt_fleet_pacer_pace_state(
    pacer: *const robotstxt_fleet_pacer,
    host: *const u8,
    host_len: usize,
    at: *const robotstxt_fleet_at,
    step_out: *mut *mut robotstxt_fleet_step,
) -> robotstxt_status {
    // SAFETY: forwarded to the caller.
    unsafe {
        host_step(
            "robotstxt_fleet_pacer_pace_state",
            pacer,
            host,
            host_len,
            at,
            step_out,
            |p, h, at| p.pace_state(h, at),
        )
    }
}

/// Reads the reply to a pace_state step and writes the host's gap and
/// requests in flight to `*state_out`. `ROBOTSTXT_STATUS_BAD_REPLY` and
/// `ROBOTSTXT_STATUS_INVALID_STEP` as for
/// `robotstxt_fleet_pacer_reserve_reply`.
///
/// # Safety
/// As for `robotstxt_fleet_pacer_reserve_reply`; `state_out` writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn robotstxt_fleet_pacer_pace_state_reply(
    pacer: *const robotstxt_fleet_pacer,
    step: *const robotstxt_fleet_step,
    items: *const robotstxt_fleet_reply_item,
    count: usize,
    state_out: *mut robotstxt_fleet_pace_state,
) -> robotstxt_status {
    guard("robotstxt_fleet_pacer_pace_state_reply", || {
        // SAFETY: per the contract above.
        let (pacer, step, reply) = unsafe { reply_args(pacer, "pacer", step, items, count)? };
        let out = Out::new(state_out, "state_out")?;
        let step = take_pace(pacer, step, &["pace_state"])?;
        let state = lock(&pacer.pacer)
            .pace_state_reply(*step, &reply)
            .map_err(fleet_failure)?;
        // SAFETY: writable per the contract.
        unsafe {
            out.put(robotstxt_fleet_pace_state {
                gap_ms: state.gap_ms,
                in_flight: state.in_flight,
            })
        };
        Ok(())
    })
}

/// Writes the ms from `*at` until `until_ms` (fleet time, such as a
/// ticket's start or a WAIT's `until_ms`) to `*ms_out`: 0 when past, or
/// before Redis first answered.
///
/// # Safety
/// `pacer` must be a live handle; `at` must point to a `robotstxt_fleet_at`;
/// `ms_out` writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn robotstxt_fleet_pacer_ms_until(
    pacer: *const robotstxt_fleet_pacer,
    until_ms: u64,
    at: *const robotstxt_fleet_at,
    ms_out: *mut u64,
) -> robotstxt_status {
    // SAFETY: forwarded to the caller.
    unsafe {
        put_ms_until("robotstxt_fleet_pacer_ms_until", at, ms_out, |at| {
            Ok(lock(&handle(pacer, "pacer")?.pacer).ms_until(until_ms, at))
        })
    }
}

/// Writes the fleet's time at `*at` as this worker estimates it to
/// `*now_out`, and whether it knows it to `*known_out` (false before Redis
/// first answered a reserve or confirm, with a monotonic `*at`).
///
/// # Safety
/// `pacer` must be a live handle; `at` must point to a `robotstxt_fleet_at`;
/// both outputs writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn robotstxt_fleet_pacer_now(
    pacer: *const robotstxt_fleet_pacer,
    at: *const robotstxt_fleet_at,
    known_out: *mut bool,
    now_out: *mut u64,
) -> robotstxt_status {
    // SAFETY: forwarded to the caller.
    unsafe {
        put_now("robotstxt_fleet_pacer_now", at, known_out, now_out, |at| {
            Ok(lock(&handle(pacer, "pacer")?.pacer).now(at))
        })
    }
}

/// Writes the gap (ms) a crawl delay (seconds, such as 0.25; used when
/// `has_crawl_delay`) and a request rate (`rate_seconds / rate_requests`;
/// used when `has_request_rate`) ask of a crawler to `*delay_ms_out`: the
/// larger, fractions of a ms rounded up, 0 with neither; what
/// `robotstxt_fleet_pacer_set_delay` and `robotstxt_host_pace_set_delay`
/// take. A negative or non-finite delay, or a rate with 0 requests or 0
/// seconds, gives `ROBOTSTXT_STATUS_INVALID_ARGUMENT`.
///
/// # Safety
/// `delay_ms_out` must be writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn robotstxt_pace_delay_ms(
    has_crawl_delay: bool,
    crawl_delay_s: f64,
    has_request_rate: bool,
    rate_requests: u32,
    rate_seconds: u32,
    delay_ms_out: *mut u64,
) -> robotstxt_status {
    guard("robotstxt_pace_delay_ms", || {
        let out = Out::new(delay_ms_out, "delay_ms_out")?;
        let delay = has_crawl_delay
            .then(|| {
                if crawl_delay_s >= 0.0 && crawl_delay_s.is_finite() {
                    // Longer than a year is kept as a year, as when parsed.
                    Ok(Duration::try_from_secs_f64(crawl_delay_s)
                        .unwrap_or(MAX_DELAY)
                        .min(MAX_DELAY))
                } else {
                    Err(Failure::out_of_range(
                        "crawl_delay_s",
                        "a finite number of seconds, 0 or more",
                    ))
                }
            })
            .transpose()?;
        let rate = has_request_rate
            .then(|| match (rate_requests, rate_seconds) {
                (0, _) | (_, 0) => Err(Failure::out_of_range(
                    "rate_requests / rate_seconds",
                    "at least 1 request per at least 1 second",
                )),
                (requests, seconds) => Ok(RequestRate { requests, seconds }),
            })
            .transpose()?;
        // SAFETY: writable per the contract.
        unsafe { out.put(engine::delay_ms(delay, rate)) };
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn handles_are_send_and_sync() {
        fn shared<T: Send + Sync>() {}
        shared::<robotstxt_fleet_pacer>();
        shared::<robotstxt_fleet_ticket>();
    }

    #[test]
    fn default_options_are_the_cores() {
        let c = robotstxt_fleet_pacer_options_default();
        let core = FleetPacerOptions::default();
        assert_eq!(
            (
                c.floor_ms,
                c.backoff_cap_ms,
                c.max_in_flight,
                c.in_flight_timeout_ms
            ),
            (
                core.pacer.floor_ms,
                core.pacer.backoff_cap_ms,
                core.pacer.max_in_flight,
                core.pacer.in_flight_timeout_ms
            )
        );
        assert_eq!(
            (c.retain_ms, c.known_capacity),
            (core.retain_ms, core.known_capacity)
        );
    }

    #[test]
    fn delays_from_c() {
        let mut ms = 0;
        // SAFETY: `ms` is writable.
        let got = |d, has_rate, req, sec, ms: &mut u64| unsafe {
            robotstxt_pace_delay_ms(true, d, has_rate, req, sec, ms)
        };
        assert_eq!(got(0.25, false, 0, 0, &mut ms), 0);
        assert_eq!(ms, 250);
        assert_eq!(got(0.0001, false, 0, 0, &mut ms), 0);
        assert_eq!(ms, 1, "a fraction of a ms is rounded up");
        assert_eq!(got(1.0, true, 1, 3, &mut ms), 0);
        assert_eq!(ms, 3000);
        assert_eq!(got(1e300, false, 0, 0, &mut ms), 0);
        assert_eq!(ms, MAX_DELAY.as_millis() as u64);
        assert_ne!(got(-1.0, false, 0, 0, &mut ms), 0);
        assert_ne!(got(f64::NAN, false, 0, 0, &mut ms), 0);
        assert_ne!(got(0.0, true, 0, 1, &mut ms), 0);
    }
}
