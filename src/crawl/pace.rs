//! One host's pace (behaviour §8) as pure functions over a small state:
//! what [`Pacer`](crate::Pacer) keeps per host, and what a fleet keeps per
//! host in a shared store, where `redis/pace/*.lua` does the same steps
//! (the fleet tests hold the two to the same answers). Times are ms since
//! an epoch the caller picks.

use std::time::Duration;

use crate::{Confirm, PacerOptions, RequestRate};

/// A `Retry-After` is honoured up to one day.
pub const MAX_RETRY_AFTER_MS: u64 = 24 * 3600 * 1000;
/// Backoff doubles the gap per throttling answer, up to this factor.
pub const MAX_FACTOR: u64 = 1 << 10;

/// The gap (ms) a host's own pace asks for: the larger of `crawl_delay`
/// and the request-rate interval, fractions of a ms rounded up (a gap is
/// never shorter than asked).
pub fn delay_ms(crawl_delay: Option<Duration>, request_rate: Option<RequestRate>) -> u64 {
    crawl_delay
        .map_or(0, ceil_ms)
        .max(request_rate.map_or(0, |r| ceil_ms(r.interval())))
}

fn ceil_ms(d: Duration) -> u64 {
    let ms = d.as_millis() + u128::from(!d.subsec_nanos().is_multiple_of(1_000_000));
    u64::try_from(ms).unwrap_or(u64::MAX)
}

/// One host's pacing state.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct HostPace {
    /// The next slot [`HostPace::reserve`] hands out.
    pub next_slot: u64,
    /// When the last confirmed request started.
    pub last_start: Option<u64>,
    /// No request starts before this (`Retry-After`).
    pub not_before: u64,
    /// The host's own gap: crawl delay or request-rate interval.
    pub delay_ms: u64,
    /// The backoff factor: 1, doubled per throttling answer.
    pub factor: u64,
    /// Switched off: no slots.
    pub disabled: bool,
    /// Bumped by whatever makes the slots handed out too early: slots of
    /// an older generation are given new ones when confirmed.
    pub generation: u64,
    /// When each request in flight frees its place if never reported.
    pub in_flight: Vec<u64>,
}

/// A start slot handed out by [`HostPace::reserve`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Slot {
    /// When the request may start, as far as is known.
    pub start: u64,
    /// The host's generation when the slot was handed out.
    pub generation: u64,
}

impl HostPace {
    /// A host nothing is known of.
    pub fn new() -> HostPace {
        HostPace {
            factor: 1,
            ..HostPace::default()
        }
    }

    /// The gap between two request starts: `max(floor, delay)`, times the
    /// backoff factor, capped (never below `max(floor, delay)`).
    pub fn gap(&self, options: &PacerOptions) -> u64 {
        let base = options.floor_ms.max(self.delay_ms);
        base.saturating_mul(self.factor.max(1))
            .min(options.backoff_cap_ms.max(base))
    }

    /// The earliest start the state allows, for any request.
    pub fn earliest(&self, options: &PacerOptions) -> u64 {
        let after_last = self
            .last_start
            .map_or(0, |s| s.saturating_add(self.gap(options)));
        after_last.max(self.not_before)
    }

    /// The next slot at `now`, or `None` while switched off. Slots are one
    /// gap apart, in the order asked.
    pub fn reserve(&mut self, now: u64, options: &PacerOptions) -> Option<Slot> {
        if self.disabled {
            return None;
        }
        Some(self.take_slot(now, options))
    }

    fn take_slot(&mut self, now: u64, options: &PacerOptions) -> Slot {
        let start = self.next_slot.max(now).max(self.earliest(options));
        self.next_slot = start.saturating_add(self.gap(options));
        Slot {
            start,
            generation: self.generation,
        }
    }

    /// Whether the request of `slot` may be sent at `now`. [`Confirm::Go`]
    /// takes an in-flight place until [`HostPace::record`] (or the
    /// in-flight timeout); a slot of an older generation gets a new one
    /// (written back into `slot`) and may have to wait.
    pub fn confirm(&mut self, slot: &mut Slot, now: u64, options: &PacerOptions) -> Confirm {
        if self.disabled {
            return Confirm::Disabled;
        }
        if slot.generation != self.generation {
            *slot = self.take_slot(now, options);
        }
        self.in_flight.retain(|&until| until > now);
        let earliest = slot.start.max(self.earliest(options));
        if now < earliest {
            return Confirm::Wait {
                until: earliest,
                busy: false,
            };
        }
        if self.in_flight.len() >= options.max_in_flight.max(1) as usize {
            let frees = self.in_flight.iter().copied().min().unwrap_or(now);
            return Confirm::Wait {
                until: frees,
                busy: true,
            };
        }
        self.last_start = Some(now);
        self.in_flight
            .push(now.saturating_add(options.in_flight_timeout_ms));
        Confirm::Go
    }

    /// Gives back `slot`, unsent, when it is the last one handed out.
    pub fn cancel(&mut self, slot: Slot, options: &PacerOptions) {
        if self.generation == slot.generation
            && self.next_slot == slot.start.saturating_add(self.gap(options))
        {
            self.next_slot = slot.start;
        }
    }

    /// Sets the host's own gap (ms). A slower pace reschedules the slots
    /// handed out.
    pub fn set_delay(&mut self, delay_ms: u64, options: &PacerOptions) {
        let slower = delay_ms > self.delay_ms;
        self.delay_ms = delay_ms;
        if slower {
            self.reschedule(options);
        }
    }

    /// A request that ended at `now` with `status` (`None`: no response)
    /// and `Retry-After` in ms: frees the oldest in-flight place; a 429 or
    /// 5xx doubles the gap (capped), keeps every start after the
    /// `Retry-After` and a gap after `now`, and reschedules; any other
    /// answer halves the backoff.
    pub fn record(
        &mut self,
        now: u64,
        status: Option<u16>,
        retry_after_ms: Option<u64>,
        options: &PacerOptions,
    ) {
        if let Some((at, _)) = self.in_flight.iter().enumerate().min_by_key(|(_, &u)| u) {
            self.in_flight.swap_remove(at);
        }
        if matches!(status, Some(429 | 500..=599)) {
            // A factor of 0 (a state zero-filled, not made by `new`) is 1.
            self.factor = self.factor.max(1).saturating_mul(2).min(MAX_FACTOR);
            if let Some(wait) = retry_after_ms {
                let until = now.saturating_add(wait.min(MAX_RETRY_AFTER_MS));
                self.not_before = self.not_before.max(until);
            }
            self.last_start = Some(self.last_start.map_or(now, |s| s.max(now)));
            self.reschedule(options);
        } else if status.is_some() {
            self.factor = (self.factor / 2).max(1);
        }
    }

    /// Switches the host off (no slots; those out are voided when
    /// confirmed) or back on.
    pub fn set_enabled(&mut self, enabled: bool, options: &PacerOptions) {
        if self.disabled == enabled {
            self.disabled = !enabled;
            self.reschedule(options);
        }
    }

    /// How many requests are in flight at `now`.
    pub fn in_flight_at(&self, now: u64) -> usize {
        self.in_flight.iter().filter(|&&until| until > now).count()
    }

    /// Whether forgetting the host could let a request start sooner than
    /// it may: not switched off, not backing off, nothing in flight, no
    /// slot handed out ahead, and its gap since the last start passed.
    pub fn safe_to_forget(&self, now: u64, options: &PacerOptions) -> bool {
        !self.disabled
            && self.factor <= 1
            && self.in_flight.iter().all(|&until| until <= now)
            && self.next_slot <= now
            && self.earliest(options) <= now
    }

    /// Voids every slot handed out: they are given again, in the order
    /// they are confirmed.
    fn reschedule(&mut self, options: &PacerOptions) {
        self.generation += 1;
        self.next_slot = self.earliest(options);
    }
}
