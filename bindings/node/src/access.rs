//! What the outcome of fetching `/robots.txt` means (RFC 9309 §2.3.1;
//! behaviour §6). The library does no I/O: the caller fetches and reports.

use napi::bindgen_prelude::{Either, Null, Unknown};
use napi::{Env, Result};
use napi_derive::napi;

use crate::js::{self, Js, Object};
use crate::robots::{ParseOptions, Robots};

/// What a fetch outcome means for crawling.
#[napi(string_enum = "kebab-case")]
#[derive(Clone, Copy)]
pub enum Access {
    /// Parse the body and follow its rules (2xx in ≤ 5 redirects).
    FollowRules,
    /// Crawl everything: the file is unavailable (404, 410, other 4xx,
    /// more than 5 redirects).
    AllowAll,
    /// Crawl nothing and fetch again later: the file is unreachable (5xx,
    /// network error, 401/403/429 under the careful policy, unfollowed
    /// 3xx, anything else).
    DisallowAll,
    /// 304 to a conditional request: keep the cached copy, renewed.
    NotModified,
}

impl Access {
    pub fn from_core(disposition: robotstxt::Disposition) -> Access {
        match disposition {
            robotstxt::Disposition::FollowRules => Access::FollowRules,
            robotstxt::Disposition::AllowAll => Access::AllowAll,
            robotstxt::Disposition::DisallowAll => Access::DisallowAll,
            robotstxt::Disposition::NotModified => Access::NotModified,
        }
    }
}

/// How to read the statuses where RFC 9309 leaves a choice.
#[napi(string_enum = "lowercase")]
#[derive(Clone, Copy)]
pub enum AccessPolicy {
    /// The default: 401, 403 and 429 disallow everything until a retry.
    Careful,
    /// RFC 9309 to the letter: 401, 403 and 429 allow everything.
    Strict,
}

impl AccessPolicy {
    const NAMES: &'static [(&'static str, AccessPolicy)] = &[
        ("careful", AccessPolicy::Careful),
        ("strict", AccessPolicy::Strict),
    ];

    pub fn read(value: Js<'_>, what: &str) -> Result<robotstxt::AccessPolicy> {
        Ok(match value.one_of(what, Self::NAMES)? {
            AccessPolicy::Careful => robotstxt::AccessPolicy::Careful,
            AccessPolicy::Strict => robotstxt::AccessPolicy::StrictRfc,
        })
    }
}

/// A fetch outcome classified: what it means, and whether it is a failure
/// to retry later.
#[napi(object, object_from_js = false)]
pub struct Classified {
    /// What the outcome means.
    pub access: Access,
    /// Whether this is a failure to retry later (`'disallow-all'`).
    pub retry_later: bool,
}

/// What a fetch of `/robots.txt` returned. Times are milliseconds.
#[napi(object, object_to_js = false)]
pub struct FetchOutcome {
    /// The final HTTP status, or `null` for a network error or timeout.
    pub status: Either<u16, Null>,
    /// How many redirects were followed to reach it (default 0).
    pub redirects: Option<u32>,
    /// The body (for a 2xx): parsed under the parse limit.
    #[napi(ts_type = "string | Uint8Array")]
    pub body: Option<Vec<u8>>,
    /// `Cache-Control: max-age`, in milliseconds (read by `entry.record`
    /// and `cache.store`; `accessFromOutcome` ignores it).
    pub max_age_ms: Option<f64>,
    /// `Retry-After`, in milliseconds (likewise).
    pub retry_after_ms: Option<f64>,
    /// The `ETag` header (likewise).
    #[napi(ts_type = "string | Uint8Array")]
    pub etag: Option<Vec<u8>>,
    /// The `Last-Modified` header (likewise).
    #[napi(ts_type = "string | Uint8Array")]
    pub last_modified: Option<Vec<u8>>,
}

impl FetchOutcome {
    const KEYS: &'static [&'static str] = &[
        "status",
        "redirects",
        "body",
        "maxAgeMs",
        "retryAfterMs",
        "etag",
        "lastModified",
    ];

    pub fn read(env: &Env, value: &Unknown<'_>) -> Result<FetchOutcome> {
        let value = Js::new(env, value);
        let Some(object) = value.options("outcome", Self::KEYS)? else {
            return Err(value.wrong_type("outcome", "an object"));
        };
        let status = match object.get("status")? {
            Some(v) if !v.is_nullish()? => Either::A(v.integer("outcome.status", 0, 999)? as u16),
            Some(_) => Either::B(Null),
            None => {
                return Err(js::type_error(
                    env,
                    "outcome.status must be a number or null (for a network error), not undefined",
                ))
            }
        };
        let bytes = |name: &str| -> Result<Option<Vec<u8>>> {
            match object.get(name)? {
                Some(v) if !v.is_nullish()? => Ok(Some(
                    v.with_bytes(format_args!("outcome.{name}"), <[u8]>::to_vec)?,
                )),
                _ => Ok(None),
            }
        };
        let millis = |name: &str| -> Result<Option<f64>> {
            read_optional(object, name, |v| v.millis(&format!("outcome.{name}")))
                .map(|ms| ms.map(|ms| ms as f64))
        };
        Ok(FetchOutcome {
            status,
            redirects: read_optional(object, "redirects", |v| {
                v.integer("outcome.redirects", 0, u64::from(u32::MAX))
                    .map(|n| n as u32)
            })?,
            body: bytes("body")?,
            max_age_ms: millis("maxAgeMs")?,
            retry_after_ms: millis("retryAfterMs")?,
            etag: bytes("etag")?,
            last_modified: bytes("lastModified")?,
        })
    }

    pub fn to_core(&self) -> robotstxt::FetchResult<'_> {
        robotstxt::FetchResult {
            status: match self.status {
                Either::A(status) => Some(status),
                Either::B(Null) => None,
            },
            redirects: self.redirects.unwrap_or(0),
            body: self.body.as_deref().unwrap_or_default(),
            max_age_ms: self.max_age_ms.map(|ms| ms as u64),
            retry_after_ms: self.retry_after_ms.map(|ms| ms as u64),
            etag: self.etag.as_deref(),
            last_modified: self.last_modified.as_deref(),
        }
    }
}

/// Reads `object[name]` with `read` unless it is `undefined` or `null`.
pub fn read_optional<'e, T>(
    object: Object<'e>,
    name: &str,
    read: impl FnOnce(Js<'e>) -> Result<T>,
) -> Result<Option<T>> {
    match object.get(name)? {
        Some(v) if !v.is_nullish()? => read(v).map(Some),
        _ => Ok(None),
    }
}

/// A fetch outcome's meaning and, for `'follow-rules'`, the parsed body.
#[napi(object, object_from_js = false, use_nullable = true)]
pub struct OutcomeAccess {
    /// What the outcome means.
    pub access: Access,
    /// Whether this is a failure to retry later (`'disallow-all'`).
    pub retry_later: bool,
    /// The parsed body when `access` is `'follow-rules'`, else `null`.
    pub robots: Option<Robots>,
}

/// Classifies a fetch of `/robots.txt` (behaviour §6): `status` is the final
/// HTTP status, or `null` for a network error or timeout; `redirects` is
/// how many redirects were followed to reach it.
///
/// ```js
/// classifyFetch(404)  // { access: 'allow-all', retryLater: false }
/// classifyFetch(503)  // { access: 'disallow-all', retryLater: true }
/// classifyFetch(403, 0, 'strict') // { access: 'allow-all', retryLater: false }
/// ```
///
/// @throws {TypeError} an argument of the wrong type.
/// @throws {RangeError} a status outside 0–999, a negative or fractional
///   `redirects`, or a policy other than `'careful'` or `'strict'`.
#[napi(
    catch_unwind,
    ts_args_type = "status: number | null, redirects?: number, policy?: AccessPolicy"
)]
pub fn classify_fetch(
    env: &Env,
    status: Unknown,
    redirects: Option<Unknown>,
    policy: Option<Unknown>,
) -> Result<Classified> {
    let status = Js::new(env, &status);
    let status = if status.is_nullish()? {
        None
    } else {
        Some(status.integer("status", 0, 999)? as u16)
    };
    let redirects = match &redirects {
        Some(r) => Js::new(env, r).integer("redirects", 0, u64::from(u32::MAX))? as u32,
        None => 0,
    };
    let policy = match &policy {
        Some(p) => AccessPolicy::read(Js::new(env, p), "policy")?,
        None => robotstxt::AccessPolicy::Careful,
    };
    let disposition = robotstxt::access::classify(status, redirects, policy);
    Ok(Classified {
        access: Access::from_core(disposition),
        retry_later: disposition.retry_later(),
    })
}

/// Options of `accessFromOutcome`: the access policy and how to parse.
#[napi(object, object_to_js = false)]
#[allow(dead_code)] // Declares the options for index.d.ts; read field by field.
pub struct AccessOptions {
    /// `'careful'` (default) or `'strict'` (RFC 9309 to the letter: 401,
    /// 403 and 429 allow everything).
    pub policy: Option<AccessPolicy>,
    /// As in `ParseOptions`.
    pub profile: Option<crate::robots::Profile>,
    /// As in `ParseOptions`.
    pub parse_limit: Option<u32>,
    /// As in `ParseOptions`.
    pub typos: Option<bool>,
}

/// Classifies a fetch outcome and, for a 2xx, parses its body (behaviour §6).
///
/// ```js
/// const got = accessFromOutcome({ status: 200, body })
/// if (got.access === 'follow-rules') got.robots.rulesFor('ExampleBot')
/// ```
///
/// @throws {TypeError} an argument of the wrong type (`outcome.status`
///   must be given, as a number or `null`).
/// @throws {RangeError} an unknown field, or a value out of range.
#[napi(
    catch_unwind,
    ts_args_type = "outcome: FetchOutcome, options?: AccessOptions | null"
)]
pub fn access_from_outcome(
    env: &Env,
    outcome: Unknown,
    options: Option<Unknown>,
) -> Result<OutcomeAccess> {
    let outcome = FetchOutcome::read(env, &outcome)?;
    let mut keys = ParseOptions::KEYS.to_vec();
    keys.push("policy");
    let object = match &options {
        Some(o) => Js::new(env, o).options("options", &keys)?,
        None => None,
    };
    let parse = ParseOptions::read(object)?.to_core(env)?;
    let policy = match object {
        Some(o) => read_optional(o, "policy", |v| AccessPolicy::read(v, "options.policy"))?,
        None => None,
    };
    let result = outcome.to_core();
    let access = robotstxt::access::from_outcome(
        result.status,
        result.redirects,
        result.body,
        policy.unwrap_or_default(),
        &parse,
    );
    let retry_later = access.retry_later();
    Ok(match access {
        robotstxt::Access::FollowRules(robots) => OutcomeAccess {
            access: Access::FollowRules,
            retry_later,
            robots: Some(Robots::wrap(env, robots)),
        },
        other => OutcomeAccess {
            access: match other {
                robotstxt::Access::AllowAll => Access::AllowAll,
                robotstxt::Access::NotModified => Access::NotModified,
                _ => Access::DisallowAll,
            },
            retry_later,
            robots: None,
        },
    })
}
