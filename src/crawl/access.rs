//! What the outcome of fetching `/robots.txt` means for crawling
//! (RFC 9309 §2.3.1; behaviour §6). The library does no I/O: the caller fetches
//! and reports the status.

use crate::{Options, Robots};

/// How to read the statuses where RFC 9309 leaves a choice.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum AccessPolicy {
    /// The default: 401, 403 and 429 disallow everything until a retry, as
    /// a site that refuses the crawler most likely means it.
    #[default]
    Careful,
    /// RFC 9309 to the letter: 401, 403 and 429 are "unavailable" 4xx
    /// statuses, so everything is allowed.
    StrictRfc,
}

/// What a fetch outcome means, before any body is parsed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Disposition {
    /// Parse the body and follow its rules.
    FollowRules,
    /// Crawl everything (the file is unavailable).
    AllowAll,
    /// Crawl nothing and fetch again later (the file is unreachable).
    DisallowAll,
    /// 304: keep the cached copy, renewed.
    NotModified,
}

impl Disposition {
    /// Whether this is a failure to retry later (the *retry later* rows).
    pub fn retry_later(self) -> bool {
        self == Disposition::DisallowAll
    }
}

/// RFC 9309 §2.3.1.2: crawlers should follow at least five redirects.
pub const MAX_REDIRECTS: u32 = 5;

/// Classifies a fetch of `/robots.txt`: `status` is the final HTTP status,
/// or `None` for a network error or timeout; `redirects` is how many
/// redirects were followed to reach it.
///
/// ```
/// use robotstxt::access::{classify, AccessPolicy, Disposition};
/// assert_eq!(classify(Some(404), 0, AccessPolicy::Careful), Disposition::AllowAll);
/// assert_eq!(classify(Some(503), 0, AccessPolicy::Careful), Disposition::DisallowAll);
/// assert_eq!(classify(Some(403), 0, AccessPolicy::StrictRfc), Disposition::AllowAll);
/// ```
pub fn classify(status: Option<u16>, redirects: u32, policy: AccessPolicy) -> Disposition {
    let strict = policy == AccessPolicy::StrictRfc;
    let Some(status) = status else {
        return Disposition::DisallowAll; // §2.3.1.4: unreachable.
    };
    match status {
        // §2.3.1.2: too many redirects may be treated as unavailable.
        200..=299 if redirects > MAX_REDIRECTS => Disposition::AllowAll,
        200..=299 => Disposition::FollowRules, // §2.3.1.1
        304 => Disposition::NotModified,
        // A redirect the caller did not follow says nothing about the rules.
        300..=399 => Disposition::DisallowAll,
        401 | 403 | 429 if strict => Disposition::AllowAll, // §2.3.1.3 read literally
        // Careful default: the site refuses us or asks us to slow down.
        401 | 403 | 429 => Disposition::DisallowAll,
        400..=499 => Disposition::AllowAll, // §2.3.1.3: unavailable
        500..=599 => Disposition::DisallowAll, // §2.3.1.4: unreachable
        _ => Disposition::DisallowAll,      // 1xx, 6xx…: nothing to go on
    }
}

/// Why a blanket answer (allow all, disallow all) stands where a file's
/// rules would: the fetch outcome that caused it, or why there was none.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Cause {
    /// The fetch of `/robots.txt` ended with this HTTP status after
    /// `redirects` redirects: a 4xx (unavailable, §2.3.1.3) or more than
    /// five redirects allow all; a 5xx (unreachable, §2.3.1.4), 429, 401,
    /// 403 or an unfollowed 3xx disallow all.
    Status {
        /// The final HTTP status.
        status: u16,
        /// Redirects followed to reach it.
        redirects: u32,
    },
    /// The fetch got no response: a network error or a timeout (§2.3.1.4).
    NoResponse,
    /// No fetch has been stored for the origin yet: nothing is known, so
    /// nothing is allowed (§2.3.1.4).
    NotFetched,
    /// The file stayed unreachable past the policy's limit, and the policy
    /// then treats it as unavailable (§2.4).
    UnreachableLimit,
    /// Made by the caller ([`Rules::allow_all`], [`Rules::disallow_all`]).
    ///
    /// [`Rules::allow_all`]: crate::Rules::allow_all
    /// [`Rules::disallow_all`]: crate::Rules::disallow_all
    Caller,
}

impl Cause {
    /// The cause of an outcome's blanket answer.
    pub fn of(status: Option<u16>, redirects: u32) -> Cause {
        match status {
            Some(status) => Cause::Status { status, redirects },
            None => Cause::NoResponse,
        }
    }

    /// `status`, `no-response`, `not-fetched`, `unreachable-limit` or
    /// `caller`.
    pub fn name(self) -> &'static str {
        match self {
            Cause::Status { .. } => "status",
            Cause::NoResponse => "no-response",
            Cause::NotFetched => "not-fetched",
            Cause::UnreachableLimit => "unreachable-limit",
            Cause::Caller => "caller",
        }
    }
}

/// What to do after a fetch: the parsed rules, or a blanket answer.
#[derive(Clone, Debug)]
pub enum Access {
    /// Follow these rules (a 2xx body, parsed).
    FollowRules(Robots),
    /// Crawl everything.
    AllowAll,
    /// Crawl nothing; fetch again later.
    DisallowAll,
    /// 304: keep the cached copy, renewed.
    NotModified,
}

impl Access {
    /// Whether this is a failure to retry later.
    pub fn retry_later(&self) -> bool {
        matches!(self, Access::DisallowAll)
    }
}

/// Classifies the outcome and, for a 2xx, parses `body` with `options`
/// (under its parse limit).
///
/// ```
/// use robotstxt::{access, Access, AccessPolicy, Options};
/// let got = access::from_outcome(Some(200), 0, b"User-agent: *\nDisallow: /\n", AccessPolicy::Careful, &Options::default());
/// let Access::FollowRules(robots) = got else { panic!() };
/// assert!(!robots.rules_for("ExampleBot")?.can_fetch("/x"));
/// # Ok::<(), robotstxt::Error>(())
/// ```
pub fn from_outcome(
    status: Option<u16>,
    redirects: u32,
    body: &[u8],
    policy: AccessPolicy,
    options: &Options,
) -> Access {
    match classify(status, redirects, policy) {
        Disposition::FollowRules => Access::FollowRules(Robots::parse_with(body, options)),
        Disposition::AllowAll => Access::AllowAll,
        Disposition::DisallowAll => Access::DisallowAll,
        Disposition::NotModified => Access::NotModified,
    }
}
