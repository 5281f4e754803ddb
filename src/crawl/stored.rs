//! One cached copy as bytes, for a store that many processes share (a
//! fleet's Redis): versioned and checksummed, and decoded to an [`Entry`]
//! that answers as the one encoded. The body travels as fetched (the part
//! a parse reads) and is parsed again on decode, with the decoder's parse
//! options; statuses, freshness times, validators and failures travel as
//! recorded.
//!
//! Layout, integers little-endian:
//!
//! | bytes | field |
//! |---|---|
//! | 4 | `RTXC` |
//! | 1 | format version (1) |
//! | 1 | copy: 0 none, 1 parsed rules, 2 allow-all |
//! | 1 | flags: fetched at, failing since, last failure, ETag, Last-Modified |
//! | 1 | 0 |
//! | 8 | due at (ms) |
//! | 8 | fetched at (ms) |
//! | 8 | failing since (ms) |
//! | 4 | failures in a row |
//! | 7 | the allow-all copy's cause |
//! | 7 | the last failure's cause |
//! | 4 + n | ETag |
//! | 4 + n | Last-Modified |
//! | 4 + n | body (parsed rules only) |
//! | 4 | CRC-32 of everything before |
//!
//! A cause is a kind (0 status, 1 no response, 2 not fetched, 3 past the
//! unreachable limit, 4 the caller), a status (u16) and redirects (u32).

use crate::freshness::{BodyMark, Copy};
use crate::{Cause, Entry, Error, FreshnessPolicy, Robots};

const MAGIC: &[u8; 4] = b"RTXC";
/// The format [`Entry::encode`] writes and [`Entry::decode`] reads.
pub const STORED_COPY_VERSION: u8 = 1;

const HAS_FETCHED_AT: u8 = 1;
const HAS_FAILING_SINCE: u8 = 1 << 1;
const HAS_LAST_FAILURE: u8 = 1 << 2;
const HAS_ETAG: u8 = 1 << 3;
const HAS_LAST_MODIFIED: u8 = 1 << 4;

const COPY_NONE: u8 = 0;
const COPY_RULES: u8 = 1;
const COPY_ALLOW_ALL: u8 = 2;

/// The fixed part, before the three variable fields and the checksum.
const HEAD: usize = 4 + 4 + 8 + 8 + 8 + 4 + 7 + 7;

impl Entry {
    /// The entry as bytes for a shared store ([`Entry::decode`] reads them
    /// back). `body` is the body the entry's parsed copy came from, the
    /// 2xx body of the fetch that stored it (as fetched, or the part a
    /// parse reads): the entry remembers its length and checksum, not the
    /// bytes. It is not read when the copy is not parsed rules.
    ///
    /// ```
    /// use robotstxt::{Entry, FetchResult, FreshnessPolicy};
    /// let policy = FreshnessPolicy::default();
    /// let body = b"User-agent: *\nDisallow: /x\n";
    /// let mut entry = Entry::new();
    /// entry.record(0, &FetchResult { status: Some(200), body, ..Default::default() }, &policy);
    /// let bytes = entry.encode(body)?;
    /// let copy = Entry::decode(&bytes, &policy)?;
    /// assert_eq!(copy.due_at(), entry.due_at());
    /// assert_eq!(Entry::stored_body(&bytes)?, body);
    /// # Ok::<(), robotstxt::Error>(())
    /// ```
    ///
    /// # Errors
    /// [`Error::BodyMismatch`] when the copy is parsed rules and `body` is
    /// not the body they came from.
    pub fn encode(&self, body: &[u8]) -> Result<Vec<u8>, Error> {
        let body = match (&self.copy, self.body) {
            (Some(Copy::Rules(_)), Some(mark)) => checked_body(body, mark)?,
            _ => &[][..],
        };
        let etag = self.etag.as_deref();
        let last_modified = self.last_modified.as_deref();
        let len = HEAD
            + 12
            + etag.map_or(0, <[u8]>::len)
            + last_modified.map_or(0, <[u8]>::len)
            + body.len()
            + 4;
        let mut out = Vec::with_capacity(len);
        out.extend_from_slice(MAGIC);
        out.push(STORED_COPY_VERSION);
        let (copy, copy_cause) = match &self.copy {
            None => (COPY_NONE, None),
            Some(Copy::Rules(_)) => (COPY_RULES, None),
            Some(Copy::AllowAll(cause)) => (COPY_ALLOW_ALL, Some(*cause)),
        };
        out.push(copy);
        let flags = [
            (self.fetched_at.is_some(), HAS_FETCHED_AT),
            (self.failing_since.is_some(), HAS_FAILING_SINCE),
            (self.last_failure.is_some(), HAS_LAST_FAILURE),
            (etag.is_some(), HAS_ETAG),
            (last_modified.is_some(), HAS_LAST_MODIFIED),
        ]
        .iter()
        .filter(|(set, _)| *set)
        .fold(0, |flags, (_, bit)| flags | bit);
        out.push(flags);
        out.push(0);
        out.extend_from_slice(&self.due_at.to_le_bytes());
        out.extend_from_slice(&self.fetched_at.unwrap_or(0).to_le_bytes());
        out.extend_from_slice(&self.failing_since.unwrap_or(0).to_le_bytes());
        out.extend_from_slice(&self.failures.to_le_bytes());
        put_cause(&mut out, copy_cause);
        put_cause(&mut out, self.last_failure);
        for field in [etag.unwrap_or(&[]), last_modified.unwrap_or(&[]), body] {
            let len = u32::try_from(field.len()).expect("fields are under 4 GiB");
            out.extend_from_slice(&len.to_le_bytes());
            out.extend_from_slice(field);
        }
        let crc = crate::checksum::crc32(&out);
        out.extend_from_slice(&crc.to_le_bytes());
        debug_assert_eq!(out.len(), len);
        Ok(out)
    }

    /// The entry [`Entry::encode`] wrote, its body parsed with `policy`'s
    /// parse options. Cost: a parse, when the copy is parsed rules.
    ///
    /// # Errors
    /// [`Error::InvalidCopy`] for bytes that are not a whole, intact
    /// encoding of a version this library reads.
    pub fn decode(bytes: &[u8], policy: &FreshnessPolicy) -> Result<Entry, Error> {
        let stored = Stored::read(bytes)?;
        let copy = match stored.copy {
            COPY_NONE => None,
            COPY_RULES => Some(Copy::Rules(Robots::parse_with(stored.body, &policy.parse))),
            _ => Some(Copy::AllowAll(
                stored
                    .copy_cause
                    .ok_or(invalid("has an allow-all copy without its cause"))?,
            )),
        };
        let body = (stored.copy == COPY_RULES)
            .then(|| BodyMark::of(stored.body, policy.parse.parse_limit()).1);
        Ok(Entry {
            copy,
            body,
            etag: stored.etag.map(Box::from),
            last_modified: stored.last_modified.map(Box::from),
            fetched_at: stored.fetched_at,
            due_at: stored.due_at,
            failing_since: stored.failing_since,
            failures: stored.failures,
            last_failure: stored.last_failure,
        })
    }

    /// The body an encoding carries (empty when its copy is not parsed
    /// rules), without parsing it: what to pass to [`Entry::encode`] again
    /// after recording a failed refresh into the decoded entry.
    ///
    /// # Errors
    /// As [`Entry::decode`].
    pub fn stored_body(bytes: &[u8]) -> Result<&[u8], Error> {
        Ok(Stored::read(bytes)?.body)
    }
}

fn invalid(reason: &'static str) -> Error {
    Error::InvalidCopy { reason }
}

/// The part of `body` that `mark` describes, if `body` is that body.
fn checked_body(body: &[u8], mark: BodyMark) -> Result<&[u8], Error> {
    let len = mark.len as usize;
    let read = body
        .get(..len)
        .filter(|read| crate::checksum::crc32(read) == mark.crc);
    read.ok_or(Error::BodyMismatch {
        expected: len,
        given: body.len(),
    })
}

fn put_cause(out: &mut Vec<u8>, cause: Option<Cause>) {
    let (kind, status, redirects) = match cause {
        None => (0, 0, 0),
        Some(Cause::Status { status, redirects }) => (0, status, redirects),
        Some(Cause::NoResponse) => (1, 0, 0),
        Some(Cause::NotFetched) => (2, 0, 0),
        Some(Cause::UnreachableLimit) => (3, 0, 0),
        Some(Cause::Caller) => (4, 0, 0),
    };
    out.push(kind);
    out.extend_from_slice(&u16::to_le_bytes(status));
    out.extend_from_slice(&u32::to_le_bytes(redirects));
}

/// An encoding, checked and split into its fields.
struct Stored<'a> {
    copy: u8,
    due_at: u64,
    fetched_at: Option<u64>,
    failing_since: Option<u64>,
    failures: u32,
    copy_cause: Option<Cause>,
    last_failure: Option<Cause>,
    etag: Option<&'a [u8]>,
    last_modified: Option<&'a [u8]>,
    body: &'a [u8],
}

/// Reads fields off the front of a byte string.
struct Reader<'a> {
    rest: &'a [u8],
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], Error> {
        if self.rest.len() < n {
            return Err(invalid("is cut short"));
        }
        let (head, rest) = self.rest.split_at(n);
        self.rest = rest;
        Ok(head)
    }

    fn array<const N: usize>(&mut self) -> Result<[u8; N], Error> {
        Ok(self.take(N)?.try_into().expect("took N bytes"))
    }

    fn u8(&mut self) -> Result<u8, Error> {
        Ok(self.array::<1>()?[0])
    }

    fn u32(&mut self) -> Result<u32, Error> {
        Ok(u32::from_le_bytes(self.array()?))
    }

    fn u64(&mut self) -> Result<u64, Error> {
        Ok(u64::from_le_bytes(self.array()?))
    }

    fn cause(&mut self) -> Result<Cause, Error> {
        let kind = self.u8()?;
        let status = u16::from_le_bytes(self.array()?);
        let redirects = self.u32()?;
        Ok(match kind {
            0 => Cause::Status { status, redirects },
            1 => Cause::NoResponse,
            2 => Cause::NotFetched,
            3 => Cause::UnreachableLimit,
            4 => Cause::Caller,
            _ => return Err(invalid("has a cause of an unknown kind")),
        })
    }

    fn field(&mut self) -> Result<&'a [u8], Error> {
        let len = usize::try_from(self.u32()?).map_err(|_| invalid("is cut short"))?;
        self.take(len)
    }
}

impl<'a> Stored<'a> {
    fn read(bytes: &'a [u8]) -> Result<Stored<'a>, Error> {
        if bytes.len() < MAGIC.len() + 1 || &bytes[..MAGIC.len()] != MAGIC {
            return Err(invalid("is not a stored robots.txt copy"));
        }
        let version = bytes[MAGIC.len()];
        if version != STORED_COPY_VERSION {
            return Err(Error::CopyVersion {
                version,
                supported: STORED_COPY_VERSION,
            });
        }
        if bytes.len() < HEAD + 12 + 4 {
            return Err(invalid("is cut short"));
        }
        let (content, crc) = bytes.split_at(bytes.len() - 4);
        if crate::checksum::crc32(content) != u32::from_le_bytes(crc.try_into().expect("4 bytes")) {
            return Err(invalid("fails its checksum (damaged or cut short)"));
        }
        let mut r = Reader {
            rest: &content[MAGIC.len() + 1..],
        };
        let copy = r.u8()?;
        if copy > COPY_ALLOW_ALL {
            return Err(invalid("has a copy of an unknown kind"));
        }
        let flags = r.u8()?;
        if flags
            & !(HAS_FETCHED_AT
                | HAS_FAILING_SINCE
                | HAS_LAST_FAILURE
                | HAS_ETAG
                | HAS_LAST_MODIFIED)
            != 0
            || r.u8()? != 0
        {
            return Err(invalid("has flags this version does not define"));
        }
        let has = |bit| flags & bit != 0;
        let due_at = r.u64()?;
        let fetched_at = Some(r.u64()?).filter(|_| has(HAS_FETCHED_AT));
        let failing_since = Some(r.u64()?).filter(|_| has(HAS_FAILING_SINCE));
        let failures = r.u32()?;
        let copy_cause = Some(r.cause()?).filter(|_| copy == COPY_ALLOW_ALL);
        let last_failure = Some(r.cause()?).filter(|_| has(HAS_LAST_FAILURE));
        let etag = Some(r.field()?).filter(|_| has(HAS_ETAG));
        let last_modified = Some(r.field()?).filter(|_| has(HAS_LAST_MODIFIED));
        let body = r.field()?;
        if !r.rest.is_empty() {
            return Err(invalid("has bytes after its last field"));
        }
        if copy != COPY_RULES && !body.is_empty() {
            return Err(invalid("has a body but no parsed copy"));
        }
        Ok(Stored {
            copy,
            due_at,
            fetched_at,
            failing_since,
            failures,
            copy_cause,
            last_failure,
            etag,
            last_modified,
            body,
        })
    }
}
