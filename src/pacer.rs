//! Per-host pacing (SPEC §8): the gap between the starts of two requests to
//! one host is at least `max(floor, crawl-delay, request-rate interval)`,
//! widened while the host answers 429 or 5xx. Sans-I/O: `reserve` says when
//! a request may start; the caller sleeps.

use std::collections::HashMap;
use std::sync::{Mutex, MutexGuard};
use std::time::Duration;

use crate::origin::MAX_ORIGIN;
use crate::{Error, RequestRate, Rules};

/// The pacer's settings. Times in ms.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PacerOptions {
    /// The smallest gap between two request starts to one host: 1 s.
    pub floor_ms: u64,
    /// The largest gap backoff may widen to: 10 minutes (never below the
    /// host's own gap).
    pub backoff_cap_ms: u64,
    /// At most this many hosts are tracked; idle ones are dropped first.
    /// Default 100,000.
    pub capacity: usize,
}

impl Default for PacerOptions {
    fn default() -> Self {
        PacerOptions {
            floor_ms: 1000,
            backoff_cap_ms: 600_000,
            capacity: 100_000,
        }
    }
}

/// A `Retry-After` is honoured up to one day.
const MAX_RETRY_AFTER_MS: u64 = 24 * 3600 * 1000;
/// Backoff doubles the gap per throttling answer, up to this factor.
const MAX_FACTOR: u64 = 1 << 10;

#[derive(Clone, Copy, Debug)]
struct Host {
    next_start: u64,
    delay_ms: u64,
    factor: u64,
    disabled: bool,
}

impl Host {
    const NEW: Host = Host {
        next_start: 0,
        delay_ms: 0,
        factor: 1,
        disabled: false,
    };
}

/// Hands out request start times per host, in order, thread-safe.
///
/// ```
/// use robotstxt::{Pacer, PacerOptions, Robots};
/// let pacer = Pacer::new(PacerOptions { floor_ms: 0, ..Default::default() });
/// let rules = Robots::parse(b"User-agent: *\nCrawl-delay: 0.25\n").rules_for("ExampleBot")?;
/// pacer.set_rules("shop.test", &rules)?;
/// assert_eq!(pacer.reserve("shop.test", 1_000)?, Some(1_000));
/// assert_eq!(pacer.reserve("shop.test", 1_000)?, Some(1_250)); // the next slot
/// pacer.record("shop.test", 1_100, Some(429), Some(60_000))?;   // Retry-After: 60
/// assert_eq!(pacer.reserve("shop.test", 1_200)?, Some(61_100));
/// # Ok::<(), robotstxt::Error>(())
/// ```
pub struct Pacer {
    hosts: Mutex<HashMap<Box<[u8]>, Host>>,
    options: PacerOptions,
}

/// A host name, lower-cased into a stack buffer so lookups do not allocate.
struct HostKey {
    buf: [u8; MAX_ORIGIN],
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
        buf: [0; MAX_ORIGIN],
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

impl HostKey {
    fn as_bytes(&self) -> &[u8] {
        &self.buf[..self.len]
    }
}

fn ceil_ms(d: Duration) -> u64 {
    let ms = d.as_millis() + u128::from(d.subsec_nanos() % 1_000_000 != 0);
    u64::try_from(ms).unwrap_or(u64::MAX)
}

impl Pacer {
    /// A pacer with no hosts yet.
    pub fn new(options: PacerOptions) -> Pacer {
        Pacer {
            hosts: Mutex::new(HashMap::new()),
            options,
        }
    }

    /// The options the pacer was made with.
    pub fn options(&self) -> &PacerOptions {
        &self.options
    }

    fn lock(&self) -> MutexGuard<'_, HashMap<Box<[u8]>, Host>> {
        self.hosts
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    fn with_host<T>(
        &self,
        host: &[u8],
        now: u64,
        f: impl FnOnce(&mut Host) -> T,
    ) -> Result<T, Error> {
        let key = host_key(host)?;
        let mut hosts = self.lock();
        if let Some(h) = hosts.get_mut(key.as_bytes()) {
            return Ok(f(h));
        }
        if hosts.len() >= self.options.capacity {
            // Hosts with nothing pending carry no state worth keeping.
            hosts.retain(|_, h| h.next_start > now || h.factor > 1 || h.disabled || h.delay_ms > 0);
            if hosts.len() >= self.options.capacity {
                let oldest = hosts
                    .iter()
                    .min_by_key(|(_, h)| h.next_start)
                    .map(|(k, _)| k.clone());
                if let Some(k) = oldest {
                    hosts.remove(&k);
                }
            }
        }
        Ok(f(hosts.entry(key.as_bytes().into()).or_insert(Host::NEW)))
    }

    fn gap(&self, host: &Host) -> u64 {
        let base = self.options.floor_ms.max(host.delay_ms);
        base.saturating_mul(host.factor)
            .min(self.options.backoff_cap_ms.max(base))
    }

    /// Reserves the next start slot for `host` at `now`: returns when the
    /// request may start (≥ `now`), or `None` while the host is switched
    /// off. Slots are handed out in order, one gap apart, whatever the
    /// number of callers.
    ///
    /// # Errors
    /// [`Error::InvalidHost`] for an empty or over-long host.
    pub fn reserve(&self, host: impl AsRef<[u8]>, now: u64) -> Result<Option<u64>, Error> {
        self.with_host(host.as_ref(), now, |h| {
            if h.disabled {
                return None;
            }
            let start = h.next_start.max(now);
            h.next_start = start.saturating_add(self.gap(h));
            Some(start)
        })
    }

    /// Sets the host's own pace: the larger of `crawl_delay` and the
    /// request-rate interval (fractions of a second honoured, rounded up to
    /// the ms). The floor still applies.
    ///
    /// # Errors
    /// [`Error::InvalidHost`] as [`Pacer::reserve`].
    pub fn set_delay(
        &self,
        host: impl AsRef<[u8]>,
        crawl_delay: Option<Duration>,
        request_rate: Option<RequestRate>,
    ) -> Result<(), Error> {
        let delay = crawl_delay
            .map_or(0, ceil_ms)
            .max(request_rate.map_or(0, |r| ceil_ms(r.interval())));
        self.with_host(host.as_ref(), 0, |h| h.delay_ms = delay)
    }

    /// [`Pacer::set_delay`] from a crawler's rules.
    ///
    /// # Errors
    /// [`Error::InvalidHost`] as [`Pacer::reserve`].
    pub fn set_rules(&self, host: impl AsRef<[u8]>, rules: &Rules) -> Result<(), Error> {
        self.set_delay(host, rules.crawl_delay(), rules.request_rate())
    }

    /// Reports how a request to `host` that ended at `now` went: `status`
    /// (`None` for a network error) and its `Retry-After` in ms. A 429 or
    /// 5xx doubles the gap (capped) and a `Retry-After` pushes the next
    /// slot at least that far; any other answer halves the backoff again.
    ///
    /// # Errors
    /// [`Error::InvalidHost`] as [`Pacer::reserve`].
    pub fn record(
        &self,
        host: impl AsRef<[u8]>,
        now: u64,
        status: Option<u16>,
        retry_after_ms: Option<u64>,
    ) -> Result<(), Error> {
        self.with_host(host.as_ref(), now, |h| {
            let throttled = matches!(status, Some(429 | 500..=599));
            if throttled {
                h.factor = (h.factor * 2).min(MAX_FACTOR);
                if let Some(wait) = retry_after_ms {
                    let until = now.saturating_add(wait.min(MAX_RETRY_AFTER_MS));
                    h.next_start = h.next_start.max(until);
                }
            } else if status.is_some() {
                h.factor = (h.factor / 2).max(1);
            }
        })
    }

    /// Switches `host` off (`reserve` answers `None`) or back on.
    ///
    /// # Errors
    /// [`Error::InvalidHost`] as [`Pacer::reserve`].
    pub fn set_enabled(&self, host: impl AsRef<[u8]>, enabled: bool) -> Result<(), Error> {
        self.with_host(host.as_ref(), 0, |h| h.disabled = !enabled)
    }

    /// The gap now applied between two request starts to `host`, in ms.
    ///
    /// # Errors
    /// [`Error::InvalidHost`] as [`Pacer::reserve`].
    pub fn gap_ms(&self, host: impl AsRef<[u8]>) -> Result<u64, Error> {
        self.with_host(host.as_ref(), 0, |h| self.gap(h))
    }
}

impl std::fmt::Debug for Pacer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Pacer")
            .field("options", &self.options)
            .field("hosts", &self.lock().len())
            .finish()
    }
}
