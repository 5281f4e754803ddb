//! `_httpRead`: the HTTP facts of a robots.txt response (behaviour §11),
//! read by the core for `lib/polite.js` (`retryAfterMs`, `httpFetcher`),
//! which passes the header values through and parses none.

use napi::bindgen_prelude::{Object, Unknown};
use napi::{Env, Result};
use napi_derive::napi;

use crate::access::read_optional;
use crate::js::Js;

const KEYS: &[&str] = &["retryAfter", "cacheControl", "etag", "lastModified"];

/// Reads `headers` (`{ retryAfter, cacheControl, etag, lastModified }`, each
/// a string, a `Uint8Array`, `null` or `undefined`) at `now` (epoch ms),
/// with `minMaxAgeMs` as the floor of a max-age. Returns `{ maxAgeMs,
/// retryAfterMs, etag, lastModified }` (`null` where absent or ignored) and
/// `ignored`: why each value left out was ignored, one sentence each.
#[napi(skip_typescript, catch_unwind, js_name = "_httpRead")]
pub fn http_read<'e>(
    env: &'e Env,
    headers: Unknown,
    now: Unknown,
    min_max_age_ms: Unknown,
) -> Result<Object<'e>> {
    let headers = Js::new(env, &headers);
    let object = headers.options("headers", KEYS)?;
    let now = Js::new(env, &now).millis("now")?;
    let floor = Js::new(env, &min_max_age_ms).millis("minMaxAgeMs")?;
    let value = |name: &str| -> Result<Option<Vec<u8>>> {
        match object {
            Some(object) => read_optional(object, name, |v| v.with_bytes(name, <[u8]>::to_vec)),
            None => Ok(None),
        }
    };
    let (retry_after, cache_control) = (value("retryAfter")?, value("cacheControl")?);
    let (etag, last_modified) = (value("etag")?, value("lastModified")?);
    let read = robotstxt::HttpResponse {
        retry_after: retry_after.as_deref(),
        cache_control: cache_control.as_deref(),
        etag: etag.as_deref(),
        last_modified: last_modified.as_deref(),
        ..robotstxt::HttpResponse::default()
    }
    .read(now, floor);
    let r = read.result;
    // Validators go back as text: what came in as a string is UTF-8 already.
    let text = |v: Option<&[u8]>| v.map(|v| String::from_utf8_lossy(v).into_owned());
    let mut facts = Object::new(env)?;
    facts.set("maxAgeMs", r.max_age_ms.map(|ms| ms as f64))?;
    facts.set("retryAfterMs", r.retry_after_ms.map(|ms| ms as f64))?;
    facts.set("etag", text(r.etag))?;
    facts.set("lastModified", text(r.last_modified))?;
    let ignored: Vec<String> = read.ignored().map(ToString::to_string).collect();
    facts.set("ignored", ignored)?;
    Ok(facts)
}
