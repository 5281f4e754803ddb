//! `Entry`: one origin's cached copy of robots.txt and its clock (RFC 9309
//! §2.4; behaviour §7). Times are epoch milliseconds, as `Date.now()` gives.

use std::time::{SystemTime, UNIX_EPOCH};

use napi::bindgen_prelude::{Buffer, Unknown};
use napi::{Env, Result};
use napi_derive::napi;

use crate::access::{read_optional, Access, AccessPolicy, FetchOutcome};
use crate::cache::CachedAnswer;
use crate::js::{self, Js, Object};
use crate::robots::{ParseOptions, Profile, Robots};

/// What to do once a file has been unreachable for `unreachableLimitMs`.
#[napi(string_enum = "lowercase")]
#[derive(Clone, Copy)]
pub enum AfterLimit {
    /// Keep answering with the old copy (or disallow everything, with none).
    Keep,
    /// Treat the file as unavailable: allow everything.
    Allow,
}

/// How long copies live, how failures are retried, how statuses are read
/// and bodies parsed. Every field is optional; times in milliseconds.
#[napi(object, object_to_js = false)]
#[allow(dead_code)] // Declares the options for index.d.ts; read field by field.
pub struct FreshnessOptions {
    /// How long a copy is fresh: 86,400,000 (24 h, RFC 9309 §2.4). A
    /// shorter `maxAgeMs` on a fetch shortens it; nothing lengthens it.
    pub fresh_for_ms: Option<f64>,
    /// When to fetch again after a failure to retry later: 3,600,000 (1 h).
    /// An outcome with `retryAfterMs` is retried after that instead, kept
    /// between 60,000 (1 minute) and 86,400,000 (24 hours).
    pub retry_ms: Option<f64>,
    /// How long a file may stay unreachable before `afterLimit` applies:
    /// 2,592,000,000 (30 days).
    pub unreachable_limit_ms: Option<f64>,
    /// `'keep'` (default) or `'allow'`.
    pub after_limit: Option<AfterLimit>,
    /// `'careful'` (default) or `'strict'`, as in `classifyFetch`.
    pub policy: Option<AccessPolicy>,
    /// As in `ParseOptions`.
    pub profile: Option<Profile>,
    /// As in `ParseOptions`.
    pub parse_limit: Option<u32>,
    /// As in `ParseOptions`.
    pub typos: Option<bool>,
}

impl FreshnessOptions {
    /// The keys of `FreshnessOptions`.
    pub fn keys() -> Vec<&'static str> {
        let mut keys = ParseOptions::KEYS.to_vec();
        keys.extend([
            "freshForMs",
            "retryMs",
            "unreachableLimitMs",
            "afterLimit",
            "policy",
        ]);
        keys
    }

    /// Reads the freshness options of `object` (which may have more keys).
    pub fn read(env: &Env, object: Option<Object<'_>>) -> Result<robotstxt::FreshnessPolicy> {
        let mut policy = robotstxt::FreshnessPolicy {
            parse: ParseOptions::read(object)?.to_core(env)?,
            ..Default::default()
        };
        let Some(object) = object else {
            return Ok(policy);
        };
        let ms = |name: &str| read_optional(object, name, |v| v.millis(&format!("options.{name}")));
        if let Some(ms) = ms("freshForMs")? {
            policy.fresh_for_ms = ms;
        }
        if let Some(ms) = ms("retryMs")? {
            policy.retry_ms = ms;
        }
        if let Some(ms) = ms("unreachableLimitMs")? {
            policy.unreachable_limit_ms = ms;
        }
        let names = &[
            ("keep", robotstxt::AfterLimit::KeepCopy),
            ("allow", robotstxt::AfterLimit::AllowAll),
        ];
        if let Some(after) = read_optional(object, "afterLimit", |v| {
            v.one_of("options.afterLimit", names)
        })? {
            policy.after_limit = after;
        }
        if let Some(access) = read_optional(object, "policy", |v| {
            AccessPolicy::read(v, "options.policy")
        })? {
            policy.access = access;
        }
        Ok(policy)
    }
}

/// What answers questions now.
#[napi(string_enum = "kebab-case")]
pub enum AnswerKind {
    /// Follow the parsed copy in `robots`.
    Rules,
    /// Crawl everything.
    AllowAll,
    /// Crawl nothing.
    DisallowAll,
}

/// What answers at a given time: a parsed copy, or a blanket answer.
#[napi(object, object_from_js = false, use_nullable = true)]
pub struct Answer {
    /// `'rules'`, `'allow-all'` or `'disallow-all'`.
    pub kind: AnswerKind,
    /// The copy to follow when `kind` is `'rules'`, else `null`.
    pub robots: Option<Robots>,
}

/// The validators of the current copy, for a conditional request.
#[napi(object, object_from_js = false, use_nullable = true)]
pub struct Validators {
    /// For `If-None-Match`, or `null`.
    pub etag: Option<String>,
    /// For `If-Modified-Since`, or `null`.
    pub last_modified: Option<String>,
}

/// One origin's copy of robots.txt and its clock: fresh until when, when to
/// fetch again, and the run of failures (behaviour §7). The library does no I/O:
/// ask `isDue`, fetch, `record` the outcome, then ask `answer`.
///
/// Every `now` is epoch milliseconds and defaults to `Date.now()`.
///
/// ```js
/// const entry = new Entry()
/// if (entry.isDue()) {
///   const res = await fetch('https://example.com/robots.txt')
///   entry.record({ status: res.status, body: Buffer.from(await res.arrayBuffer()) })
/// }
/// const { kind, robots } = entry.answer()
/// ```
///
/// The garbage collector frees it; `close()` frees it at once.
#[napi]
pub struct Entry {
    /// `None` once closed.
    inner: Option<(robotstxt::Entry, robotstxt::FreshnessPolicy)>,
}

/// `now` in epoch ms: the argument, or the system clock when it is absent.
pub fn now(env: &Env, value: Option<&Unknown<'_>>) -> Result<u64> {
    match value {
        Some(v) => Js::new(env, v).millis("now"),
        None => Ok(SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))),
    }
}

fn millis(ms: u64) -> f64 {
    ms as f64
}

pub fn lossy(bytes: Option<&[u8]>) -> Option<String> {
    bytes.map(|b| String::from_utf8_lossy(b).into_owned())
}

impl Entry {
    fn core(&self, env: &Env) -> Result<&robotstxt::Entry> {
        Ok(&js::open(env, &self.inner, "Entry")?.0)
    }
}

#[napi]
impl Entry {
    /// An entry with no copy: a fetch is due at once.
    ///
    /// @throws {TypeError} an option of the wrong type.
    /// @throws {RangeError} an unknown option, or a value out of range.
    #[napi(
        constructor,
        catch_unwind,
        ts_args_type = "options?: FreshnessOptions | null"
    )]
    pub fn new(env: &Env, options: Option<Unknown>) -> Result<Entry> {
        let object = match &options {
            Some(o) => Js::new(env, o).options("options", &FreshnessOptions::keys())?,
            None => None,
        };
        let policy = FreshnessOptions::read(env, object)?;
        Ok(Entry {
            inner: Some((robotstxt::Entry::new(), policy)),
        })
    }

    /// Whether a fetch is due at `now`.
    #[napi(catch_unwind, ts_args_type = "now?: number")]
    pub fn is_due(&self, env: &Env, now_ms: Option<Unknown>) -> Result<bool> {
        let now = now(env, now_ms.as_ref())?;
        Ok(self.core(env)?.is_due(now))
    }

    /// When the next fetch is due (epoch ms).
    #[napi(getter, catch_unwind)]
    pub fn due_at(&self, env: &Env) -> Result<f64> {
        Ok(millis(self.core(env)?.due_at()))
    }

    /// When the current copy was last fetched or revalidated (epoch ms), or
    /// `null`.
    #[napi(getter, catch_unwind)]
    pub fn fetched_at(&self, env: &Env) -> Result<Option<f64>> {
        Ok(self.core(env)?.fetched_at().map(millis))
    }

    /// How many fetches in a row have failed.
    #[napi(getter, catch_unwind)]
    pub fn failures(&self, env: &Env) -> Result<u32> {
        Ok(self.core(env)?.failures())
    }

    /// Whether a copy (rules or allow-all) is held.
    #[napi(getter, catch_unwind)]
    pub fn has_copy(&self, env: &Env) -> Result<bool> {
        Ok(self.core(env)?.has_copy())
    }

    /// The validators of the current copy, for a conditional request
    /// (`If-None-Match`, `If-Modified-Since`).
    #[napi(getter, catch_unwind)]
    pub fn validators(&self, env: &Env) -> Result<Validators> {
        let v = self.core(env)?.validators();
        Ok(Validators {
            etag: lossy(v.etag),
            last_modified: lossy(v.last_modified),
        })
    }

    /// What answers at `now`: the copy (kept while the file is
    /// unreachable), or disallow-all with none; past the unreachable limit,
    /// as `afterLimit` says.
    #[napi(catch_unwind, ts_args_type = "now?: number")]
    pub fn answer(&self, env: &Env, now_ms: Option<Unknown>) -> Result<Answer> {
        let now = now(env, now_ms.as_ref())?;
        let (entry, policy) = js::open(env, &self.inner, "Entry")?;
        Ok(match entry.answer(now, policy) {
            robotstxt::Answer::Rules(robots) => Answer {
                kind: AnswerKind::Rules,
                robots: Some(Robots::wrap(env, robots.clone())),
            },
            robotstxt::Answer::AllowAll => Answer {
                kind: AnswerKind::AllowAll,
                robots: None,
            },
            robotstxt::Answer::DisallowAll => Answer {
                kind: AnswerKind::DisallowAll,
                robots: None,
            },
        })
    }

    /// What answers at `now`, as `cache.lookup` answers: a `CachedAnswer`
    /// (`kind`, `robots`, `blanket`, `retryAt`, `rulesFor(token)`).
    #[napi(catch_unwind, ts_args_type = "now?: number")]
    pub fn cached_answer(&self, env: &Env, now_ms: Option<Unknown>) -> Result<CachedAnswer> {
        let now = now(env, now_ms.as_ref())?;
        let (entry, policy) = js::open(env, &self.inner, "Entry")?;
        Ok(CachedAnswer::new(
            entry.cached(now, policy),
            entry.retry_at(),
            policy.parse.profile(),
        ))
    }

    /// Records the outcome of a fetch made at `now` and returns what it
    /// meant.
    ///
    /// @throws {TypeError} an argument of the wrong type.
    /// @throws {RangeError} an unknown field, or a value out of range.
    #[napi(catch_unwind, ts_args_type = "outcome: FetchOutcome, now?: number")]
    pub fn record(
        &mut self,
        env: &Env,
        outcome: Unknown,
        now_ms: Option<Unknown>,
    ) -> Result<Access> {
        let outcome = FetchOutcome::read(env, &outcome)?;
        let now = now(env, now_ms.as_ref())?;
        let Some((entry, policy)) = &mut self.inner else {
            return Err(js::closed(env, "Entry"));
        };
        let disposition = entry.record(now, &outcome.to_core(), policy);
        Ok(Access::from_core(disposition))
    }

    /// This entry as bytes for a store that a fleet of crawlers shares
    /// (`Entry.decode` reads them back): versioned and checksummed, with
    /// the body, the outcome, the freshness times, the validators and the
    /// failures. `body` is the body the entry's parsed copy came from: the
    /// 2xx body of the fetch that stored it, or `Entry.storedBody` of the
    /// bytes this entry was decoded from. Not read when the copy is not
    /// parsed rules (404, 503, no copy): then it may be left out.
    ///
    /// @throws {TypeError} `body` is neither a string nor a `Uint8Array`.
    /// @throws {RangeError} another body than the copy's
    ///   (`ERR_ROBOTSTXT_BODY_MISMATCH`).
    #[napi(
        catch_unwind,
        ts_args_type = "body?: string | Uint8Array | null",
        ts_return_type = "Uint8Array"
    )]
    pub fn encode(&self, env: &Env, body: Option<Unknown>) -> Result<Buffer> {
        let entry = self.core(env)?;
        let encoded = match &body {
            Some(body) if !Js::new(env, body).is_nullish()? => {
                Js::new(env, body).with_bytes("body", |b| entry.encode(b))?
            }
            _ => entry.encode(&[]),
        };
        Ok(encoded.map_err(|e| js::core_error(env, &e))?.into())
    }

    /// The entry `entry.encode` wrote, its body parsed with `options`
    /// (those of `new Entry`). Cost: a parse, for parsed rules.
    ///
    /// @throws {TypeError} `bytes` is not a `Uint8Array`, or an option of
    ///   the wrong type.
    /// @throws {RangeError} an unknown option, or a value out of range.
    /// @throws {Error} damaged, cut or foreign bytes
    ///   (`ERR_ROBOTSTXT_INVALID_COPY`), or a newer format
    ///   (`ERR_ROBOTSTXT_COPY_VERSION`).
    #[napi(
        factory,
        catch_unwind,
        ts_args_type = "bytes: Uint8Array, options?: FreshnessOptions | null"
    )]
    pub fn decode(env: &Env, bytes: Unknown, options: Option<Unknown>) -> Result<Entry> {
        let object = match &options {
            Some(o) => Js::new(env, o).options("options", &FreshnessOptions::keys())?,
            None => None,
        };
        let policy = FreshnessOptions::read(env, object)?;
        let bytes = Js::new(env, &bytes).binary("bytes")?;
        let entry =
            robotstxt::Entry::decode(bytes, &policy).map_err(|e| js::core_error(env, &e))?;
        Ok(Entry {
            inner: Some((entry, policy)),
        })
    }

    /// The body that bytes from `entry.encode` carry (empty when the copy
    /// is not parsed rules), unparsed: what to pass to `encode` again
    /// after recording a failed refresh into the decoded entry.
    ///
    /// @throws {TypeError} `bytes` is not a `Uint8Array`.
    /// @throws {Error} as `Entry.decode`.
    #[napi(
        catch_unwind,
        ts_args_type = "bytes: Uint8Array",
        ts_return_type = "Uint8Array"
    )]
    pub fn stored_body(env: &Env, bytes: Unknown) -> Result<Buffer> {
        let bytes = Js::new(env, &bytes).binary("bytes")?;
        let body = robotstxt::Entry::stored_body(bytes).map_err(|e| js::core_error(env, &e))?;
        Ok(body.to_vec().into())
    }

    /// Frees the entry and its copy now rather than when the garbage
    /// collector finds it; a `Robots` taken from it keeps working. Any
    /// other use after this throws an `Error` with `code`
    /// `'ERR_ROBOTSTXT_CLOSED'`; closing twice does nothing.
    /// `[Symbol.dispose]` does the same, for `using`.
    #[napi(catch_unwind)]
    pub fn close(&mut self) {
        self.inner = None;
    }
}
