//! The shared pacer of a fleet, sans I/O: one pace per host in Redis for
//! every worker (`redis/reserve.lua` and the other pace scripts, the same
//! steps as [`HostPace`](crate::HostPace)). Each worker keeps what Redis
//! last told it of each host it paces (bounded): a host whose state Redis
//! lost (a restart without persistence, or expiry) gets it back, strictest
//! first, so that no switched-off host, Retry-After, backoff or crawl
//! delay any worker knew of is forgotten.

use std::hash::{BuildHasher, RandomState};
use std::num::NonZeroUsize;
use std::sync::atomic::{AtomicU64, Ordering};

use lru::LruCache;

use super::call::{At, FleetClock, Keys, ScriptCall};
use super::reply::{answer, bad, Reply};
use crate::{pacer_host, Error, PacerOptions};

/// A fleet pacer's options.
#[derive(Clone, Debug)]
pub struct FleetPacerOptions {
    /// Put before every key (default `robotstxt:`).
    pub prefix: String,
    /// The pace: floor, backoff cap, requests in flight, in-flight timeout
    /// (the local pacer's options; `capacity` is not used).
    pub pacer: PacerOptions,
    /// How long Redis keeps a host's pace after it last held anything
    /// back (default 24 h).
    pub retain_ms: u64,
    /// How many hosts this worker remembers the pace of (default 10,000).
    pub known_capacity: usize,
    /// Names this worker's in-flight places in Redis; unique per worker
    /// (default: random per process and pacer).
    pub worker: String,
}

impl Default for FleetPacerOptions {
    fn default() -> Self {
        // Seeded per process where the platform has randomness (not the
        // clock: wasm32-unknown-unknown has none and traps on it). A
        // binding passes its own name where it knows better (a pid).
        let seed = RandomState::new().hash_one(NEXT_ID.fetch_add(1, Ordering::Relaxed));
        FleetPacerOptions {
            prefix: "robotstxt:".into(),
            pacer: PacerOptions::default(),
            retain_ms: 24 * 3600 * 1000,
            known_capacity: 10_000,
            worker: format!("{seed:016x}"),
        }
    }
}

static NEXT_ID: AtomicU64 = AtomicU64::new(1);

/// A host's pace as Redis last answered it to this worker.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KnownPace {
    /// Names the stored state: another one means Redis lost it since.
    pub epoch: String,
    /// The next slot handed out.
    pub next_slot: u64,
    /// The last confirmed start.
    pub last_start: Option<u64>,
    /// No start before this (a `Retry-After`).
    pub not_before: u64,
    /// The host's own gap.
    pub delay_ms: u64,
    /// The backoff factor.
    pub factor: u64,
    /// Switched off.
    pub disabled: bool,
    /// The generation of the slots handed out.
    pub generation: u64,
}

impl KnownPace {
    /// As parse_known in `redis/prelude.lua` reads it.
    fn packed(&self) -> String {
        let last = self
            .last_start
            .map_or_else(|| "-".to_string(), |l| l.to_string());
        format!(
            "{} {} {last} {} {} {} {} {}",
            self.epoch,
            self.next_slot,
            self.not_before,
            self.delay_ms,
            self.factor,
            u8::from(self.disabled),
            self.generation
        )
    }
}

/// A slot handed out by [`FleetPacer::reserve_reply`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FleetTicket {
    host: Box<str>,
    /// When the request may start (fleet time, ms), as far as is known.
    pub start: u64,
    /// The host's generation when the slot was handed out.
    pub generation: u64,
    pacer: u64,
}

impl FleetTicket {
    /// The host, as the pacer keys it.
    pub fn host(&self) -> &str {
        &self.host
    }
}

/// What a confirmation says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FleetConfirm {
    /// Send the request now; `at` is the fleet's time of the go.
    Go {
        /// Redis's time when it said go.
        at: u64,
    },
    /// Confirm again at `until` (fleet time); `busy` when the in-flight
    /// limit holds it back (a place may free sooner).
    Wait {
        /// When to confirm again.
        until: u64,
        /// Whether the in-flight limit is what holds it.
        busy: bool,
    },
    /// The host is switched off: do not send.
    Disabled,
}

/// A host's pace as it stands ([`FleetPacer::pace_state`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FleetPaceState {
    /// The gap between starts now.
    pub gap_ms: u64,
    /// Requests in flight across the fleet.
    pub in_flight: u64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Reserve,
    Confirm,
    Cancel,
    Record,
    SetDelay,
    SetEnabled,
    State,
}

impl Kind {
    fn script(self) -> &'static str {
        match self {
            Kind::Reserve => "reserve",
            Kind::Confirm => "confirm",
            Kind::Cancel => "cancel",
            Kind::Record => "record",
            Kind::SetDelay => "set_delay",
            Kind::SetEnabled => "set_enabled",
            Kind::State => "pace_state",
        }
    }

    /// How many items the step answers before the state.
    fn own_items(self) -> usize {
        match self {
            Kind::Reserve => 3,
            Kind::Confirm => 5,
            Kind::State => 9,
            _ => 1,
        }
    }
}

/// A pace step waiting for its call's reply.
#[derive(Debug)]
pub struct PaceStep {
    call: ScriptCall,
    kind: Kind,
    host: Box<str>,
    sent: At,
    pacer: u64,
}

impl PaceStep {
    /// The call to run.
    pub fn call(&self) -> &ScriptCall {
        &self.call
    }

    /// The host, as the pacer keys it.
    pub fn host(&self) -> &str {
        &self.host
    }
}

/// One worker's side of the fleet's shared pacer. Not shared between
/// threads: a binding keeps one per worker behind its own lock.
pub struct FleetPacer {
    id: u64,
    options: FleetPacerOptions,
    keys: Keys,
    known: LruCache<Box<str>, KnownPace>,
    clock: FleetClock,
    places: u64,
}

impl FleetPacer {
    /// A worker's pacer with `options`.
    ///
    /// # Errors
    /// [`Error::InvalidOption`] for a retain of 0 ms, a known capacity of
    /// 0 or an empty worker name.
    pub fn new(options: FleetPacerOptions) -> Result<FleetPacer, Error> {
        if options.retain_ms == 0 {
            return Err(Error::InvalidOption {
                name: "retain_ms",
                expected: "a whole number of ms ≥ 1",
            });
        }
        if options.worker.is_empty() {
            return Err(Error::InvalidOption {
                name: "worker",
                expected: "a name unique to the worker",
            });
        }
        let capacity = NonZeroUsize::new(options.known_capacity).ok_or(Error::InvalidOption {
            name: "known_capacity",
            expected: "a number of hosts ≥ 1",
        })?;
        Ok(FleetPacer {
            id: NEXT_ID.fetch_add(1, Ordering::Relaxed),
            keys: Keys {
                prefix: options.prefix.clone(),
            },
            options,
            known: LruCache::new(capacity),
            clock: FleetClock::default(),
            places: 0,
        })
    }

    /// The options it was made with.
    pub fn options(&self) -> &FleetPacerOptions {
        &self.options
    }

    /// The fleet's time at `at`, as this worker estimates it.
    pub fn now(&self, at: At) -> Option<u64> {
        self.clock.now(at)
    }

    /// Ms from `at` until `until` (fleet time), 0 when past.
    pub fn ms_until(&self, until: u64, at: At) -> u64 {
        self.clock
            .now(at)
            .map_or(0, |now| until.saturating_sub(now))
    }

    /// What this worker knows of `host`'s pace.
    pub fn known(&self, host: &str) -> Option<&KnownPace> {
        self.known.peek(host)
    }

    fn step(&self, kind: Kind, host: &[u8], at: At) -> Result<(ScriptCall, Box<str>), Error> {
        let host: Box<str> = pacer_host(host)?.into();
        let o = &self.options;
        let call = ScriptCall::new(kind.script(), self.keys.pace(&host).to_vec())
            .num(o.pacer.floor_ms)
            .num(o.pacer.backoff_cap_ms)
            .num(u64::from(o.pacer.max_in_flight.max(1)))
            .num(o.pacer.in_flight_timeout_ms)
            .num(o.retain_ms)
            .arg(at.script_now());
        Ok((call, host))
    }

    fn known_arg(&self, host: &str) -> String {
        self.known
            .peek(host)
            .map_or_else(|| "-".to_string(), KnownPace::packed)
    }

    fn finish(&mut self, kind: Kind, host: Box<str>, call: ScriptCall, at: At) -> PaceStep {
        let call = call.arg(self.known_arg(&host));
        PaceStep {
            call,
            kind,
            host,
            sent: at,
            pacer: self.id,
        }
    }

    /// The call that reserves `host`'s next slot.
    ///
    /// # Errors
    /// [`Error::InvalidHost`] for a host the pacer cannot key.
    pub fn reserve(&mut self, host: &[u8], at: At) -> Result<PaceStep, Error> {
        let (call, host) = self.step(Kind::Reserve, host, at)?;
        Ok(self.finish(Kind::Reserve, host, call, at))
    }

    /// The slot reserved, or `None` while the host is switched off.
    ///
    /// # Errors
    /// [`Error::BadReply`] for a reply that is not the script's answer;
    /// [`Error::InvalidTicket`] for a step of another pacer or kind.
    pub fn reserve_reply(
        &mut self,
        step: PaceStep,
        reply: &Reply,
    ) -> Result<Option<FleetTicket>, Error> {
        let r = self.read(&step, Kind::Reserve, reply)?;
        let start = r.int(0)?;
        self.clock.observe(step.sent, r.ms(2)?);
        if start < 0 {
            return Ok(None);
        }
        Ok(Some(FleetTicket {
            start: start as u64,
            generation: r.ms(1)?,
            host: step.host,
            pacer: self.id,
        }))
    }

    /// The call that asks whether `ticket`'s request may go now.
    ///
    /// # Errors
    /// [`Error::InvalidTicket`] for a ticket of another pacer.
    pub fn confirm(&mut self, ticket: &FleetTicket, at: At) -> Result<PaceStep, Error> {
        self.check(ticket.pacer)?;
        let (call, host) = self.step(Kind::Confirm, ticket.host.as_bytes(), at)?;
        self.places += 1;
        let call = call
            .num(ticket.start)
            .num(ticket.generation)
            .arg(format!("{}-{}", self.options.worker, self.places));
        Ok(self.finish(Kind::Confirm, host, call, at))
    }

    /// What the confirmation says; a slot the fleet moved (its generation
    /// was voided) is written back into `ticket`.
    ///
    /// # Errors
    /// As [`FleetPacer::reserve_reply`].
    pub fn confirm_reply(
        &mut self,
        ticket: &mut FleetTicket,
        step: PaceStep,
        reply: &Reply,
    ) -> Result<FleetConfirm, Error> {
        self.check(ticket.pacer)?;
        let r = self.read(&step, Kind::Confirm, reply)?;
        let now = r.ms(4)?;
        self.clock.observe(step.sent, now);
        ticket.start = r.ms(1)?;
        ticket.generation = r.ms(2)?;
        let until = r.ms(3)?;
        Ok(match r.int(0)? {
            0 => FleetConfirm::Go { at: now },
            1 => FleetConfirm::Wait { until, busy: false },
            2 => FleetConfirm::Wait { until, busy: true },
            3 => FleetConfirm::Disabled,
            other => return Err(bad("confirm", format!("unknown answer {other}"))),
        })
    }

    /// The call that gives an unsent ticket's slot back.
    ///
    /// # Errors
    /// [`Error::InvalidTicket`] for a ticket of another pacer.
    pub fn cancel(&mut self, ticket: &FleetTicket, at: At) -> Result<PaceStep, Error> {
        self.check(ticket.pacer)?;
        let (call, host) = self.step(Kind::Cancel, ticket.host.as_bytes(), at)?;
        let call = call.num(ticket.start).num(ticket.generation);
        Ok(self.finish(Kind::Cancel, host, call, at))
    }

    /// The call that records how a request to `host` ended: `status`
    /// (`None`: no response) and its `Retry-After` in ms.
    ///
    /// # Errors
    /// [`Error::InvalidHost`] as [`FleetPacer::reserve`].
    pub fn record(
        &mut self,
        host: &[u8],
        status: Option<u16>,
        retry_after_ms: Option<u64>,
        at: At,
    ) -> Result<PaceStep, Error> {
        let (call, host) = self.step(Kind::Record, host, at)?;
        let call = call
            .arg(status.map_or_else(|| "-1".to_string(), |s| s.to_string()))
            .arg(retry_after_ms.map_or_else(|| "-1".to_string(), |ms| ms.to_string()));
        Ok(self.finish(Kind::Record, host, call, at))
    }

    /// The call that sets `host`'s own gap (ms; see
    /// [`delay_ms`](crate::delay_ms)).
    ///
    /// # Errors
    /// [`Error::InvalidHost`] as [`FleetPacer::reserve`].
    pub fn set_delay(&mut self, host: &[u8], delay_ms: u64, at: At) -> Result<PaceStep, Error> {
        let (call, host) = self.step(Kind::SetDelay, host, at)?;
        let call = call.num(delay_ms);
        Ok(self.finish(Kind::SetDelay, host, call, at))
    }

    /// The call that switches `host` off or back on.
    ///
    /// # Errors
    /// [`Error::InvalidHost`] as [`FleetPacer::reserve`].
    pub fn set_enabled(&mut self, host: &[u8], enabled: bool, at: At) -> Result<PaceStep, Error> {
        let (call, host) = self.step(Kind::SetEnabled, host, at)?;
        let call = call.arg(if enabled { "1" } else { "0" });
        Ok(self.finish(Kind::SetEnabled, host, call, at))
    }

    /// The call that reads `host`'s pace as it stands.
    ///
    /// # Errors
    /// [`Error::InvalidHost`] as [`FleetPacer::reserve`].
    pub fn pace_state(&mut self, host: &[u8], at: At) -> Result<PaceStep, Error> {
        let (call, host) = self.step(Kind::State, host, at)?;
        Ok(self.finish(Kind::State, host, call, at))
    }

    /// The gap the reply of a cancel, record, set_delay or set_enabled
    /// step gives (cancel: 1 when the slot was given back).
    ///
    /// # Errors
    /// As [`FleetPacer::reserve_reply`].
    pub fn step_reply(&mut self, step: PaceStep, reply: &Reply) -> Result<u64, Error> {
        let kind = step.kind;
        if matches!(kind, Kind::Reserve | Kind::Confirm | Kind::State) {
            return Err(Error::InvalidTicket {
                reason: "is a step whose reply has its own reading",
            });
        }
        self.read(&step, kind, reply)?.ms(0)
    }

    /// The pace the reply of a pace_state step gives.
    ///
    /// # Errors
    /// As [`FleetPacer::reserve_reply`].
    pub fn pace_state_reply(
        &mut self,
        step: PaceStep,
        reply: &Reply,
    ) -> Result<FleetPaceState, Error> {
        let r = self.read(&step, Kind::State, reply)?;
        Ok(FleetPaceState {
            gap_ms: r.ms(0)?,
            in_flight: r.ms(1)?,
        })
    }

    /// Checks `step` is this pacer's and of `kind`, and keeps the state
    /// its reply ends with.
    fn read<'r>(
        &mut self,
        step: &PaceStep,
        kind: Kind,
        reply: &'r Reply,
    ) -> Result<super::reply::Answer<'r>, Error> {
        self.check(step.pacer)?;
        if step.kind != kind {
            return Err(Error::InvalidTicket {
                reason: "is another step's: read each reply with the step that made its call",
            });
        }
        let r = answer(kind.script(), reply)?;
        let base = kind.own_items();
        if r.len() != base + 8 {
            return Err(bad(
                kind.script(),
                format!("{} items, not {}", r.len(), base + 8),
            ));
        }
        let last = r.int(base + 2)?;
        let known = KnownPace {
            epoch: r.text(base)?,
            next_slot: r.ms(base + 1)?,
            last_start: u64::try_from(last).ok(),
            not_before: r.ms(base + 3)?,
            delay_ms: r.ms(base + 4)?,
            factor: r.ms(base + 5)?,
            disabled: r.int(base + 6)? == 1,
            generation: r.ms(base + 7)?,
        };
        self.known.put(step.host.clone(), known);
        Ok(r)
    }

    fn check(&self, pacer: u64) -> Result<(), Error> {
        if pacer == self.id {
            Ok(())
        } else {
            Err(Error::InvalidTicket {
                reason: "belongs to another pacer",
            })
        }
    }
}

impl std::fmt::Debug for FleetPacer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FleetPacer")
            .field("options", &self.options)
            .field("known", &self.known.len())
            .finish()
    }
}
