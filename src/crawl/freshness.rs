//! Freshness of one cached copy of a robots.txt (RFC 9309 §2.4; behaviour §7),
//! as pure functions of `now`. Times are milliseconds since an epoch the
//! caller picks; the library never reads a clock.

use crate::access::{classify, AccessPolicy, Cause, Disposition};
use crate::{Options, Robots};

const SECOND: u64 = 1000;
const HOUR: u64 = 3600 * SECOND;
const DAY: u64 = 24 * HOUR;

/// What to do once a file has been unreachable for the limit (§2.4).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum AfterLimit {
    /// Keep answering with the old copy (or disallow everything, with none).
    #[default]
    KeepCopy,
    /// Treat the file as unavailable: allow everything.
    AllowAll,
}

/// How long copies live and how failures are retried. All times in ms.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FreshnessPolicy {
    /// How long a copy is fresh: 24 h (§2.4). A shorter `max-age` shortens
    /// it; nothing lengthens it.
    pub fresh_for_ms: u64,
    /// When to fetch again after a *retry later* failure: 1 h.
    pub retry_ms: u64,
    /// How long a file may stay unreachable before `after_limit`: 30 days.
    pub unreachable_limit_ms: u64,
    /// What answers after that.
    pub after_limit: AfterLimit,
    /// How statuses are read (behaviour §6).
    pub access: AccessPolicy,
    /// How bodies are parsed.
    pub parse: Options,
}

impl Default for FreshnessPolicy {
    fn default() -> Self {
        FreshnessPolicy {
            fresh_for_ms: DAY,
            retry_ms: HOUR,
            unreachable_limit_ms: 30 * DAY,
            after_limit: AfterLimit::KeepCopy,
            access: AccessPolicy::Careful,
            parse: Options::default(),
        }
    }
}

/// A `Retry-After` is kept between one minute and one day.
const RETRY_AFTER_RANGE: (u64, u64) = (60 * SECOND, DAY);

/// What a fetch of `/robots.txt` returned.
#[derive(Clone, Copy, Debug, Default)]
pub struct FetchResult<'a> {
    /// The final HTTP status, or `None` for a network error or timeout.
    pub status: Option<u16>,
    /// Redirects followed to reach it.
    pub redirects: u32,
    /// The body (2xx).
    pub body: &'a [u8],
    /// `Cache-Control: max-age`, in ms.
    pub max_age_ms: Option<u64>,
    /// `Retry-After`, in ms.
    pub retry_after_ms: Option<u64>,
    /// The `ETag` header.
    pub etag: Option<&'a [u8]>,
    /// The `Last-Modified` header.
    pub last_modified: Option<&'a [u8]>,
}

/// The validators a conditional request sends (`If-None-Match`,
/// `If-Modified-Since`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Validators<'a> {
    /// For `If-None-Match`.
    pub etag: Option<&'a [u8]>,
    /// For `If-Modified-Since`.
    pub last_modified: Option<&'a [u8]>,
}

/// What answers questions now.
#[derive(Clone, Copy, Debug)]
pub enum Answer<'a> {
    /// Follow this parsed copy.
    Rules(&'a Robots),
    /// Crawl everything.
    AllowAll,
    /// Crawl nothing.
    DisallowAll,
}

/// The parsed body of a 2xx outcome, `None` for any other.
pub(crate) fn parse_if_followed(
    result: &FetchResult<'_>,
    policy: &FreshnessPolicy,
) -> Option<Robots> {
    let disposition = classify(result.status, result.redirects, policy.access);
    (disposition == Disposition::FollowRules)
        .then(|| Robots::parse_with(result.body, &policy.parse))
}

#[derive(Clone, Debug)]
pub(super) enum Copy {
    Rules(Robots),
    /// With the outcome that made it.
    AllowAll(Cause),
}

/// What an entry remembers of the body its parsed copy came from, so that
/// [`Entry::encode`] can tell it is given that body: the length parsed
/// and its checksum, not the bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct BodyMark {
    pub len: u32,
    pub crc: u32,
}

impl BodyMark {
    /// The part of `body` a parse with `limit` reads, and its mark.
    pub fn of(body: &[u8], limit: usize) -> (&[u8], BodyMark) {
        let read = &body[..body.len().min(limit)];
        let mark = BodyMark {
            len: u32::try_from(read.len()).expect("parse limits fit in 32 bits"),
            crc: crate::checksum::crc32(read),
        };
        (read, mark)
    }
}

/// One origin's copy and its clock: fresh until when, when to fetch again,
/// and the run of failures.
///
/// ```
/// use robotstxt::{Answer, Entry, FetchResult, FreshnessPolicy};
/// const H: u64 = 3_600_000;
/// let policy = FreshnessPolicy::default();
/// let mut entry = Entry::new();
/// assert!(entry.is_due(0));
/// entry.record(0, &FetchResult { status: Some(200), body: b"User-agent: *\nDisallow: /x\n", ..Default::default() }, &policy);
/// assert!(!entry.is_due(2 * H));
/// entry.record(24 * H, &FetchResult { status: Some(503), ..Default::default() }, &policy);
/// assert!(matches!(entry.answer(24 * H, &policy), Answer::Rules(_))); // the old copy answers
/// assert_eq!(entry.due_at(), 25 * H);
/// ```
#[derive(Clone, Debug, Default)]
pub struct Entry {
    pub(super) copy: Option<Copy>,
    /// Of the body of a parsed copy.
    pub(super) body: Option<BodyMark>,
    pub(super) etag: Option<Box<[u8]>>,
    pub(super) last_modified: Option<Box<[u8]>>,
    pub(super) fetched_at: Option<u64>,
    pub(super) due_at: u64,
    pub(super) failing_since: Option<u64>,
    pub(super) failures: u32,
    /// The outcome of the last failed fetch, while failures > 0.
    pub(super) last_failure: Option<Cause>,
}

impl Entry {
    /// An entry with no copy: a fetch is due at once.
    pub fn new() -> Entry {
        Entry::default()
    }

    /// Whether a fetch is due at `now`.
    pub fn is_due(&self, now: u64) -> bool {
        now >= self.due_at
    }

    /// When the next fetch is due.
    pub fn due_at(&self) -> u64 {
        self.due_at
    }

    /// When the current copy was last fetched or revalidated.
    pub fn fetched_at(&self) -> Option<u64> {
        self.fetched_at
    }

    /// How many fetches in a row have failed.
    pub fn failures(&self) -> u32 {
        self.failures
    }

    /// When the next fetch is due, if the last one failed: the time to ask
    /// again, for an answer that is a kept copy or a disallow-all.
    pub fn retry_at(&self) -> Option<u64> {
        (self.failures > 0).then_some(self.due_at)
    }

    /// Why [`Entry::answer`] at `now` is a blanket answer, or `None` when
    /// a parsed copy answers.
    pub fn cause(&self, now: u64, policy: &FreshnessPolicy) -> Option<Cause> {
        if self.past_limit(now, policy) && policy.after_limit == AfterLimit::AllowAll {
            return Some(Cause::UnreachableLimit);
        }
        match &self.copy {
            Some(Copy::Rules(_)) => None,
            Some(Copy::AllowAll(cause)) => Some(*cause),
            None => Some(self.last_failure.unwrap_or(Cause::NotFetched)),
        }
    }

    fn past_limit(&self, now: u64, policy: &FreshnessPolicy) -> bool {
        self.failing_since
            .is_some_and(|since| now.saturating_sub(since) >= policy.unreachable_limit_ms)
    }

    /// Whether a copy (rules or allow-all) is held.
    pub fn has_copy(&self) -> bool {
        self.copy.is_some()
    }

    /// The validators of the current copy, for a conditional request.
    pub fn validators(&self) -> Validators<'_> {
        Validators {
            etag: self.etag.as_deref(),
            last_modified: self.last_modified.as_deref(),
        }
    }

    /// What answers at `now`: the copy, kept while the file is unreachable,
    /// or disallow-all with none; past the unreachable limit, as `policy`
    /// says.
    pub fn answer(&self, now: u64, policy: &FreshnessPolicy) -> Answer<'_> {
        if self.past_limit(now, policy) && policy.after_limit == AfterLimit::AllowAll {
            return Answer::AllowAll;
        }
        match &self.copy {
            Some(Copy::Rules(robots)) => Answer::Rules(robots),
            Some(Copy::AllowAll(_)) => Answer::AllowAll,
            None => Answer::DisallowAll,
        }
    }

    /// Records the outcome of a fetch made at `now`, parsing a 2xx body.
    /// Returns what the outcome meant.
    pub fn record(
        &mut self,
        now: u64,
        result: &FetchResult<'_>,
        policy: &FreshnessPolicy,
    ) -> Disposition {
        let parsed = parse_if_followed(result, policy);
        self.record_parsed(now, result, policy, parsed)
    }

    /// As [`Entry::record`], with the body already parsed by
    /// [`parse_if_followed`] (so a cache can parse outside its lock).
    pub(crate) fn record_parsed(
        &mut self,
        now: u64,
        result: &FetchResult<'_>,
        policy: &FreshnessPolicy,
        parsed: Option<Robots>,
    ) -> Disposition {
        let disposition = classify(result.status, result.redirects, policy.access);
        match (disposition, parsed) {
            (Disposition::FollowRules, Some(robots)) => {
                self.copy = Some(Copy::Rules(robots));
                self.body = Some(BodyMark::of(result.body, policy.parse.parse_limit()).1);
                self.etag = result.etag.map(Box::from);
                self.last_modified = result.last_modified.map(Box::from);
                self.renew(now, result, policy);
            }
            (Disposition::FollowRules | Disposition::AllowAll, _) => {
                self.copy = Some(Copy::AllowAll(Cause::of(result.status, result.redirects)));
                self.body = None;
                self.etag = None;
                self.last_modified = None;
                self.renew(now, result, policy);
            }
            // §2.4 with validators: the same file, fetched again.
            (Disposition::NotModified, _) if self.copy.is_some() => {
                if let Some(etag) = result.etag {
                    self.etag = Some(Box::from(etag));
                }
                if let Some(date) = result.last_modified {
                    self.last_modified = Some(Box::from(date));
                }
                self.renew(now, result, policy);
            }
            // A 304 with nothing to renew is a failed fetch.
            (Disposition::NotModified | Disposition::DisallowAll, _) => {
                self.failures = self.failures.saturating_add(1);
                self.last_failure = Some(Cause::of(result.status, result.redirects));
                self.failing_since.get_or_insert(now);
                let wait = result.retry_after_ms.map_or(policy.retry_ms, |ms| {
                    ms.clamp(RETRY_AFTER_RANGE.0, RETRY_AFTER_RANGE.1)
                });
                self.due_at = now.saturating_add(wait);
            }
        }
        disposition
    }

    fn renew(&mut self, now: u64, result: &FetchResult<'_>, policy: &FreshnessPolicy) {
        let fresh_for = result
            .max_age_ms
            .map_or(policy.fresh_for_ms, |ms| ms.min(policy.fresh_for_ms));
        self.fetched_at = Some(now);
        self.due_at = now.saturating_add(fresh_for);
        self.failing_since = None;
        self.failures = 0;
        self.last_failure = None;
    }
}
