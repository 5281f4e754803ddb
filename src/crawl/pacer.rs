//! Per-host pacing (behaviour §8): the gap between the starts of two requests to
//! one host is at least `max(floor, crawl-delay, request-rate interval)`,
//! widened while the host answers 429 or 5xx, with at most a few requests
//! in flight at once. Sans-I/O: `reserve` hands out a ticket for a start
//! slot, the caller sleeps until it and `confirm`s just before sending, so
//! that a backoff, a `Retry-After`, a kill switch or a slower pace recorded
//! meanwhile holds back every request that has not started yet.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, MutexGuard};
use std::time::Duration;

use lru::LruCache;

use crate::pace::{delay_ms, HostPace, Slot};
use crate::{Error, RequestRate, Rules};

/// The pacer's settings. Times in ms.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PacerOptions {
    /// The smallest gap between two request starts to one host: 1 s.
    pub floor_ms: u64,
    /// The largest gap backoff may widen to: 10 minutes (never below the
    /// host's own gap).
    pub backoff_cap_ms: u64,
    /// At most this many hosts are tracked. Default 100,000. At capacity,
    /// the least recently used host that is safe to forget goes (see
    /// [`Pacer::reserve`]); when none is, a new host is refused.
    pub capacity: usize,
    /// At most this many requests to one host are in flight at once:
    /// 1, one connection per host as a polite crawler keeps. 0 is taken as
    /// 1.
    pub max_in_flight: u32,
    /// A request confirmed and never reported with [`Pacer::record`] frees
    /// its in-flight place after this long: 120,000 (2 minutes).
    pub in_flight_timeout_ms: u64,
}

impl Default for PacerOptions {
    fn default() -> Self {
        PacerOptions {
            floor_ms: 1000,
            backoff_cap_ms: 600_000,
            capacity: 100_000,
            max_in_flight: 1,
            in_flight_timeout_ms: 120_000,
        }
    }
}

/// Long enough for any DNS name (253 bytes) and a port.
const MAX_HOST: usize = 320;
/// At capacity, how many of the least recently used hosts are looked at
/// for one that is safe to forget: eviction stays O(1).
const EVICTION_PROBES: usize = 32;

/// A reserved start slot for one request to one host, from
/// [`Pacer::reserve`]. Sleep until [`Ticket::start`], then
/// [`Pacer::confirm`] it just before sending.
#[derive(Debug)]
pub struct Ticket {
    host: Box<[u8]>,
    slot: Slot,
    pacer: u64,
    spent: bool,
}

impl Ticket {
    /// When the request may start (ms), as far as is known now.
    pub fn start(&self) -> u64 {
        self.slot.start
    }

    /// The host, as the pacer keys it (ASCII lower case).
    pub fn host(&self) -> &[u8] {
        &self.host
    }
}

/// What [`Pacer::confirm`] answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Confirm {
    /// Send the request now; report how it went with [`Pacer::record`],
    /// which also frees its in-flight place.
    Go,
    /// Not yet: confirm again at `until` (ms). `busy` when the host has as
    /// many requests in flight as allowed: one ending may free a place
    /// sooner.
    Wait {
        /// When to confirm again.
        until: u64,
        /// Whether the in-flight limit is what holds the request back.
        busy: bool,
    },
    /// The host is switched off: the ticket is spent, send nothing.
    Disabled,
}

static PACER_IDS: AtomicU64 = AtomicU64::new(1);

/// Hands out request start slots per host, in order, thread-safe.
///
/// ```
/// use robotstxt::{Confirm, Pacer, PacerOptions, Robots};
/// let pacer = Pacer::new(PacerOptions { floor_ms: 0, ..Default::default() });
/// let rules = Robots::parse(b"User-agent: *\nCrawl-delay: 0.25\n").rules_for("ExampleBot")?;
/// pacer.set_rules("shop.test", &rules)?;
/// let mut first = pacer.reserve("shop.test", 1_000)?.expect("not switched off");
/// let mut second = pacer.reserve("shop.test", 1_000)?.expect("not switched off");
/// assert_eq!((first.start(), second.start()), (1_000, 1_250)); // one gap apart
/// assert_eq!(pacer.confirm(&mut first, 1_000)?, Confirm::Go);
/// // The first answers 429 with Retry-After: 60 before the second starts.
/// pacer.record("shop.test", 1_100, Some(429), Some(60_000))?;
/// assert!(matches!(pacer.confirm(&mut second, 1_250)?, Confirm::Wait { until: 61_100, .. }));
/// assert_eq!(pacer.confirm(&mut second, 61_100)?, Confirm::Go);
/// # Ok::<(), robotstxt::Error>(())
/// ```
pub struct Pacer {
    hosts: Mutex<LruCache<Box<[u8]>, HostPace>>,
    options: PacerOptions,
    id: u64,
}

/// A host name, lower-cased into a stack buffer so lookups do not allocate.
struct HostKey {
    buf: [u8; MAX_HOST],
    len: usize,
}

fn host_key(host: &[u8]) -> Result<HostKey, Error> {
    let invalid = |reason| Error::InvalidHost {
        host: String::from_utf8_lossy(&host[..host.len().min(200)]).into_owned(),
        reason,
    };
    if host.is_empty() {
        return Err(invalid("it is empty"));
    }
    let mut key = HostKey {
        buf: [0; MAX_HOST],
        len: host.len(),
    };
    let slot = key
        .buf
        .get_mut(..host.len())
        .ok_or_else(|| invalid("it is too long"))?;
    slot.copy_from_slice(host);
    slot.make_ascii_lowercase();
    Ok(key)
}

/// The key the pacer tracks `host` by: ASCII letters lower-cased, nothing
/// else changed. What a fleet's shared store keys a host's pace by.
///
/// ```
/// assert_eq!(robotstxt::pacer_host("Shop.Example:8443")?, "shop.example:8443");
/// # Ok::<(), robotstxt::Error>(())
/// ```
///
/// # Errors
/// [`Error::InvalidHost`] as [`Pacer::reserve`].
pub fn pacer_host(host: impl AsRef<[u8]>) -> Result<String, Error> {
    let key = host_key(host.as_ref())?;
    Ok(String::from_utf8_lossy(key.as_bytes()).into_owned())
}

impl HostKey {
    fn as_bytes(&self) -> &[u8] {
        &self.buf[..self.len]
    }
}

impl Pacer {
    /// A pacer with no hosts yet. A capacity of 0 is taken as 1.
    pub fn new(options: PacerOptions) -> Pacer {
        let options = PacerOptions {
            capacity: options.capacity.max(1),
            max_in_flight: options.max_in_flight.max(1),
            ..options
        };
        Pacer {
            hosts: Mutex::new(LruCache::unbounded()),
            options,
            id: PACER_IDS.fetch_add(1, Ordering::Relaxed),
        }
    }

    /// The options the pacer was made with.
    pub fn options(&self) -> &PacerOptions {
        &self.options
    }

    fn lock(&self) -> MutexGuard<'_, LruCache<Box<[u8]>, HostPace>> {
        // Every update is a plain assignment: keep serving after a panic.
        self.hosts
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    fn with_host<T>(
        &self,
        host: &[u8],
        now: u64,
        f: impl FnOnce(&mut HostPace) -> T,
    ) -> Result<T, Error> {
        let key = host_key(host)?;
        let mut hosts = self.lock();
        if !hosts.contains(key.as_bytes()) {
            self.make_room(&mut hosts, now)?;
            hosts.put(key.as_bytes().into(), HostPace::new());
        }
        Ok(f(hosts.get_mut(key.as_bytes()).expect("put above")))
    }

    /// At capacity, forgets the least recently used host that is safe to
    /// forget, among the few least recently used; switched-off hosts met on
    /// the way move to the other end, since they stay unsafe until switched
    /// back on.
    fn make_room(&self, hosts: &mut LruCache<Box<[u8]>, HostPace>, now: u64) -> Result<(), Error> {
        if hosts.len() < self.options.capacity {
            return Ok(());
        }
        let mut victim = None;
        let mut switched_off = Vec::new();
        for (key, h) in hosts.iter().rev().take(EVICTION_PROBES) {
            if h.safe_to_forget(now, &self.options) {
                victim = Some(key.clone());
                break;
            }
            if h.disabled {
                switched_off.push(key.clone());
            }
        }
        for key in switched_off {
            hosts.promote(&key);
        }
        match victim {
            Some(key) => {
                hosts.pop(&key);
                Ok(())
            }
            None => Err(Error::PacerFull {
                capacity: self.options.capacity,
            }),
        }
    }

    /// Reserves the next start slot for `host` at `now`: a ticket whose
    /// [`Ticket::start`] says when the request may start (≥ `now`), or
    /// `None` while the host is switched off. Slots are handed out in
    /// order, one gap apart, whatever the number of callers. Sleep until
    /// the start, then [`Pacer::confirm`] the ticket.
    ///
    /// Cost: a hash lookup under a lock and one small allocation (the
    /// ticket's host). At capacity, up to 32 of the least recently used
    /// hosts are looked at for one that is safe to forget: not switched
    /// off, not backing off, nothing in flight, and its gap since the last
    /// start passed (a forgotten host's crawl delay comes back with the
    /// next [`Pacer::set_rules`]).
    ///
    /// # Errors
    /// [`Error::InvalidHost`] for an empty or over-long host;
    /// [`Error::PacerFull`] for a new host when no host can be forgotten.
    pub fn reserve(&self, host: impl AsRef<[u8]>, now: u64) -> Result<Option<Ticket>, Error> {
        let key = host.as_ref();
        let options = &self.options;
        self.with_host(key, now, |h| {
            let slot = h.reserve(now, options)?;
            let mut host: Box<[u8]> = key.into();
            host.make_ascii_lowercase();
            Some(Ticket {
                host,
                slot,
                pacer: self.id,
                spent: false,
            })
        })
    }

    /// Whether the request of `ticket` may be sent at `now`, just before
    /// sending: [`Confirm::Go`] takes an in-flight place, to be freed by
    /// [`Pacer::record`]. A backoff, `Retry-After`, slower pace or kill
    /// switch recorded since the ticket was reserved gives it a new slot
    /// ([`Confirm::Wait`]) or voids it ([`Confirm::Disabled`]).
    ///
    /// # Errors
    /// [`Error::InvalidTicket`] for a ticket of another pacer, or one that
    /// already got `Go` or `Disabled`.
    pub fn confirm(&self, ticket: &mut Ticket, now: u64) -> Result<Confirm, Error> {
        if ticket.pacer != self.id {
            return Err(Error::InvalidTicket {
                reason: "belongs to another pacer",
            });
        }
        if ticket.spent {
            return Err(Error::InvalidTicket {
                reason: "was already confirmed or voided",
            });
        }
        let options = &self.options;
        let answer = self.with_host(&ticket.host, now, |h| {
            h.confirm(&mut ticket.slot, now, options)
        })?;
        ticket.spent = !matches!(answer, Confirm::Wait { .. });
        Ok(answer)
    }

    /// Gives an unsent ticket's slot back, when it is the last one handed
    /// out: the next reservation may take it.
    pub fn cancel(&self, mut ticket: Ticket) {
        self.cancel_in_place(&mut ticket);
    }

    /// [`Pacer::cancel`] for a ticket the caller cannot give up (one behind
    /// a binding's handle): it is spent after this.
    pub fn cancel_in_place(&self, ticket: &mut Ticket) {
        if ticket.pacer != self.id || ticket.spent {
            return;
        }
        ticket.spent = true;
        let mut hosts = self.lock();
        if let Some(h) = hosts.peek_mut(&*ticket.host) {
            h.cancel(ticket.slot, &self.options);
        }
    }

    /// Sets the host's own pace: the larger of `crawl_delay` and the
    /// request-rate interval (fractions of a second honoured, rounded up to
    /// the ms). The floor still applies. A slower pace holds back the
    /// requests not yet started.
    ///
    /// # Errors
    /// [`Error::InvalidHost`] and [`Error::PacerFull`] as
    /// [`Pacer::reserve`].
    pub fn set_delay(
        &self,
        host: impl AsRef<[u8]>,
        crawl_delay: Option<Duration>,
        request_rate: Option<RequestRate>,
    ) -> Result<(), Error> {
        let delay = delay_ms(crawl_delay, request_rate);
        self.with_host(host.as_ref(), 0, |h| h.set_delay(delay, &self.options))
    }

    /// [`Pacer::set_delay`] from a crawler's rules.
    ///
    /// # Errors
    /// As [`Pacer::set_delay`].
    pub fn set_rules(&self, host: impl AsRef<[u8]>, rules: &Rules) -> Result<(), Error> {
        self.set_delay(host, rules.crawl_delay(), rules.request_rate())
    }

    /// Reports how a request to `host` that ended at `now` went: `status`
    /// (`None` for a network error) and its `Retry-After` in ms. Frees one
    /// in-flight place. A 429 or 5xx doubles the gap (capped), a
    /// `Retry-After` keeps every request from starting before it, and both
    /// give every slot not yet confirmed a new one; any other answer
    /// halves the backoff again.
    ///
    /// # Errors
    /// [`Error::InvalidHost`] and [`Error::PacerFull`] as
    /// [`Pacer::reserve`].
    pub fn record(
        &self,
        host: impl AsRef<[u8]>,
        now: u64,
        status: Option<u16>,
        retry_after_ms: Option<u64>,
    ) -> Result<(), Error> {
        self.with_host(host.as_ref(), now, |h| {
            h.record(now, status, retry_after_ms, &self.options);
        })
    }

    /// Switches `host` off (no slots; tickets out are voided when
    /// confirmed) or back on: a kill switch. A switched-off host is never
    /// forgotten.
    ///
    /// # Errors
    /// [`Error::InvalidHost`] and [`Error::PacerFull`] as
    /// [`Pacer::reserve`].
    pub fn set_enabled(&self, host: impl AsRef<[u8]>, enabled: bool) -> Result<(), Error> {
        self.with_host(host.as_ref(), 0, |h| h.set_enabled(enabled, &self.options))
    }

    /// The gap now applied between two request starts to `host`, in ms.
    ///
    /// # Errors
    /// [`Error::InvalidHost`] as [`Pacer::reserve`].
    pub fn gap_ms(&self, host: impl AsRef<[u8]>) -> Result<u64, Error> {
        let key = host_key(host.as_ref())?;
        let hosts = self.lock();
        Ok(match hosts.peek(key.as_bytes()) {
            Some(h) => h.gap(&self.options),
            None => HostPace::new().gap(&self.options),
        })
    }

    /// How many requests to `host` are in flight at `now`.
    ///
    /// # Errors
    /// [`Error::InvalidHost`] as [`Pacer::reserve`].
    pub fn in_flight(&self, host: impl AsRef<[u8]>, now: u64) -> Result<usize, Error> {
        let key = host_key(host.as_ref())?;
        let hosts = self.lock();
        Ok(hosts
            .peek(key.as_bytes())
            .map_or(0, |h| h.in_flight_at(now)))
    }

    /// How many hosts are tracked.
    pub fn len(&self) -> usize {
        self.lock().len()
    }

    /// Whether no host is tracked.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

impl std::fmt::Debug for Pacer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Pacer")
            .field("options", &self.options)
            .field("hosts", &self.len())
            .finish()
    }
}
