//! The caller mistakes the library reports. Bad bytes are never errors.

use std::fmt;

/// A mistake in what the caller passed: an invalid crawler token or option.
///
/// The message says what was passed and what to pass instead.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Error {
    /// RFC profile: the crawler's name is not a product token (§2.2.1).
    InvalidToken {
        /// The name as passed, lossily decoded when it was not UTF-8.
        token: String,
    },
    /// A `User-Agent` header in which no crawler's product token can be
    /// found ([`product_token`](crate::product_token)).
    InvalidUserAgent {
        /// The header as passed (its first 200 bytes, lossily decoded).
        user_agent: String,
        /// What is wrong with it.
        reason: &'static str,
    },
    /// A selection by several tokens was given none.
    NoTokens,
    /// A parse limit outside what §2.5 and 32-bit offsets allow.
    ParseLimit {
        /// The limit as requested, in bytes.
        requested: usize,
    },
    /// A URL the cache cannot key: not absolute `http`/`https`, no host.
    InvalidUrl {
        /// The URL as passed (its first 200 bytes, lossily decoded).
        url: String,
        /// What is wrong with it.
        reason: &'static str,
    },
    /// A host name the pacer cannot key: empty, or longer than a DNS name.
    InvalidHost {
        /// The host as passed (its first 200 bytes, lossily decoded).
        host: String,
        /// What is wrong with it.
        reason: &'static str,
    },
    /// A cache lease that cannot be stored or abandoned: already ended,
    /// from another cache, or run out with a newer copy stored since.
    InvalidLease {
        /// What is wrong with it.
        reason: &'static str,
    },
    /// A pacer ticket that cannot be confirmed: from another pacer, or
    /// already confirmed or cancelled.
    InvalidTicket {
        /// What is wrong with it.
        reason: &'static str,
    },
    /// The pacer tracks as many hosts as its capacity allows and none of
    /// them can be forgotten safely: a new host is refused.
    PacerFull {
        /// The pacer's capacity, in hosts.
        capacity: usize,
    },
    /// Bytes given to [`Entry::decode`](crate::Entry::decode) that are not
    /// a whole, intact stored copy.
    InvalidCopy {
        /// What is wrong with them.
        reason: &'static str,
    },
    /// A stored copy in a format version this library does not read
    /// (written by a newer one).
    CopyVersion {
        /// The version of the bytes.
        version: u8,
        /// The version this library reads and writes.
        supported: u8,
    },
    /// [`Entry::encode`](crate::Entry::encode) was given another body than
    /// the one its parsed copy came from.
    BodyMismatch {
        /// The length of the body the copy came from (the part parsed).
        expected: usize,
        /// The length of the body given.
        given: usize,
    },
    /// A reply to a fleet script that is not the script's answer (another
    /// script's, a client's error, or a key written by something else).
    BadReply {
        /// The script.
        script: &'static str,
        /// What is wrong with the reply.
        reason: String,
    },
    /// An option value out of its range.
    InvalidOption {
        /// The option's name.
        name: &'static str,
        /// What the option accepts.
        expected: &'static str,
    },
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::InvalidToken { token } => write!(
                f,
                "invalid product token {token:?}: a crawler's product token is one or more \
                 of the letters A-Z and a-z, '_' and '-', such as \"ExampleBot\" \
                 (no version, spaces or whole User-Agent header; RFC 9309 §2.2.1)"
            ),
            Error::InvalidUserAgent { user_agent, reason } => write!(
                f,
                "cannot find a crawler's product token in the User-Agent {user_agent:?}: \
                 {reason}; pass the crawler's own token, such as \"ExampleBot\""
            ),
            Error::NoTokens => {
                f.write_str("no product tokens given: pass at least one, such as [\"ExampleBot\"]")
            }
            Error::ParseLimit { requested } => write!(
                f,
                "parse limit {requested} is out of range: it must be between {} \
                 (500 KiB, RFC 9309 §2.5) and {} bytes",
                crate::MIN_PARSE_LIMIT,
                crate::MAX_PARSE_LIMIT
            ),
            Error::InvalidUrl { url, reason } => write!(
                f,
                "cannot find the robots.txt of {url:?}: {reason}; pass an absolute URL \
                 such as \"https://example.com/page\""
            ),
            Error::InvalidHost { host, reason } => write!(
                f,
                "invalid host {host:?}: {reason}; pass a host name such as \"example.com\""
            ),
            Error::InvalidLease { reason } => write!(
                f,
                "the lease {reason}: store or abandon each lease once, with the cache that \
                 handed it out, before it runs out (CacheOptions::lease_ms)"
            ),
            Error::InvalidTicket { reason } => write!(
                f,
                "the ticket {reason}: confirm each ticket with the pacer that reserved it, \
                 until it says go, or cancel it"
            ),
            Error::PacerFull { capacity } => write!(
                f,
                "the pacer already tracks {capacity} hosts and none can be forgotten safely \
                 (switched off, backing off, with a request in flight or inside its gap): \
                 raise PacerOptions::capacity, or try again later"
            ),
            Error::InvalidCopy { reason } => write!(
                f,
                "the stored robots.txt copy {reason}: pass the bytes Entry::encode wrote, \
                 whole; a damaged copy is best dropped and fetched again"
            ),
            Error::CopyVersion { version, supported } => write!(
                f,
                "the stored robots.txt copy is in format version {version}, and this library \
                 reads version {supported}: a newer library wrote it; upgrade every process \
                 that shares the store"
            ),
            Error::BodyMismatch { expected, given } => write!(
                f,
                "the body given ({given} bytes) is not the one the entry's copy was parsed \
                 from ({expected} bytes read): pass the 2xx body of the fetch that stored \
                 the copy, or Entry::stored_body of the bytes it was decoded from"
            ),
            Error::BadReply { script, reason } => write!(
                f,
                "the reply to the fleet script {script} cannot be read: {reason} (run the \
                 script the step names with its keys and arguments, and hand over the reply as \
                 the Redis client gave it)"
            ),
            Error::InvalidOption { name, expected } => {
                write!(f, "invalid value for option {name}: expected {expected}")
            }
        }
    }
}

impl std::error::Error for Error {}
