//! `Rules`: the compiled matcher for one crawler, one URL at a time or a
//! batch per call.

use napi::bindgen_prelude::{ObjectFinalize, Unknown};
use napi::{Env, Result};
use napi_derive::napi;

use std::cell::Cell;
use std::sync::Arc;

use napi::sys;

use crate::handles;
use crate::js::{self, ArrayBuilder, Js, Shape, Value};
use crate::preferences::{ContentSignal, OtherRecord, Preferences, PreferencesOptions};
use crate::robots::Profile;

/// What decided: an `allow` or `disallow` rule, `'none'` when no rule
/// matched (or the RFC `/robots.txt` exemption applied), or a blanket
/// answer that stands where a file's rules would: `'allow-all'` (the
/// robots.txt is unavailable, a 404 say) or `'disallow-all'` (unreachable:
/// a 5xx, a network error, not fetched yet); `rules.blanket` says why.
#[napi(string_enum = "kebab-case")]
pub enum DecisionKind {
    /// An `allow` rule decided.
    Allow,
    /// A `disallow` rule decided.
    Disallow,
    /// No rule matched: allowed.
    None,
    /// A blanket answer allowed everything.
    AllowAll,
    /// A blanket answer disallowed everything.
    DisallowAll,
}

impl DecisionKind {
    fn from_core(kind: robotstxt::DecisionKind) -> DecisionKind {
        match kind {
            robotstxt::DecisionKind::Allow => DecisionKind::Allow,
            robotstxt::DecisionKind::Disallow => DecisionKind::Disallow,
            robotstxt::DecisionKind::NoMatch => DecisionKind::None,
            robotstxt::DecisionKind::AllowAll => DecisionKind::AllowAll,
            robotstxt::DecisionKind::DisallowAll => DecisionKind::DisallowAll,
        }
    }
}

/// The answer for one URL and the rule that gave it.
#[napi(object, object_from_js = false)]
pub struct Decision {
    /// May the crawler fetch the URL.
    pub allowed: bool,
    /// The deciding rule's 1-based line, or 0 when no rule matched or a
    /// blanket answer decided.
    pub line: u32,
    /// The deciding rule's kind.
    pub kind: DecisionKind,
    /// The deciding pattern as compared (percent-normalised for the
    /// profile; `/dir/$` for Google's `index.html` rule), or `''`.
    pub pattern: String,
}

impl Decision {
    pub(crate) fn from_core(d: robotstxt::Decision<'_>) -> Decision {
        Decision {
            allowed: d.allowed,
            line: d.line,
            kind: DecisionKind::from_core(d.kind),
            pattern: d.pattern.to_owned(),
        }
    }
}

/// Makes the `Decision` objects of a batch (the same as `Decision`
/// converts to, tested so): the keys are created once per call, and each
/// kind name at most once, however many decisions the call returns.
struct Decisions<'e> {
    env: &'e Env,
    shape: Shape<'e, 4>,
    kinds: [Cell<Option<sys::napi_value>>; 5],
}

impl<'e> Decisions<'e> {
    fn new(env: &'e Env) -> Result<Self> {
        Ok(Decisions {
            env,
            shape: Shape::new(env, ["allowed", "line", "kind", "pattern"])?,
            kinds: Default::default(),
        })
    }

    fn make(&self, d: robotstxt::Decision<'_>) -> Result<sys::napi_value> {
        let slot = &self.kinds[match d.kind {
            robotstxt::DecisionKind::Allow => 0,
            robotstxt::DecisionKind::Disallow => 1,
            robotstxt::DecisionKind::NoMatch => 2,
            robotstxt::DecisionKind::AllowAll => 3,
            robotstxt::DecisionKind::DisallowAll => 4,
        }];
        let kind = match slot.get() {
            Some(kind) => kind,
            None => {
                let kind = js::string(self.env, d.kind.name())?;
                slot.set(Some(kind));
                kind
            }
        };
        self.shape.build([
            Value::Bool(d.allowed),
            Value::U32(d.line),
            Value::Raw(kind),
            Value::Str(d.pattern),
        ])
    }
}

/// Why a blanket answer stands: `'status'` (the fetch of robots.txt
/// ended with `status` after `redirects` redirects: a 4xx or more than
/// five redirects allow all; a 5xx, 429, 401, 403 or an unfollowed 3xx
/// disallow all), `'no-response'` (a network error or timeout),
/// `'not-fetched'` (nothing stored yet), `'unreachable-limit'` (unreachable
/// past the limit, then treated as unavailable) or `'caller'` (made by
/// your code).
#[napi(string_enum = "kebab-case")]
pub enum CauseKind {
    /// An HTTP status: see `status` and `redirects`.
    Status,
    /// A network error or timeout.
    NoResponse,
    /// No fetch stored yet.
    NotFetched,
    /// Unreachable past `unreachableLimitMs`, with `afterLimit: 'allow'`.
    UnreachableLimit,
    /// Made by the caller.
    Caller,
}

/// What caused a blanket answer.
#[napi(object, object_from_js = false)]
pub struct Cause {
    /// What it was.
    pub kind: CauseKind,
    /// `'status'`: the final HTTP status.
    pub status: Option<u16>,
    /// `'status'`: the redirects followed to reach it.
    pub redirects: Option<u32>,
}

/// A blanket answer that stands where a file's rules would, and why.
#[napi(object, object_from_js = false)]
pub struct Blanket {
    /// Whether everything is allowed (else everything is disallowed).
    pub allowed: bool,
    /// The fetch outcome that caused it.
    pub cause: Cause,
}

impl Blanket {
    pub fn from_core(blanket: robotstxt::Blanket) -> Blanket {
        let (kind, status, redirects) = match blanket.cause {
            robotstxt::Cause::Status { status, redirects } => {
                (CauseKind::Status, Some(status), Some(redirects))
            }
            robotstxt::Cause::NoResponse => (CauseKind::NoResponse, None, None),
            robotstxt::Cause::NotFetched => (CauseKind::NotFetched, None, None),
            robotstxt::Cause::UnreachableLimit => (CauseKind::UnreachableLimit, None, None),
            robotstxt::Cause::Caller => (CauseKind::Caller, None, None),
        };
        Blanket {
            allowed: blanket.allowed,
            cause: Cause {
                kind,
                status,
                redirects,
            },
        }
    }
}

/// `request-rate: n/m`: `requests` requests per `seconds` seconds.
#[napi(object, object_from_js = false)]
pub struct RequestRate {
    /// Requests allowed per window, ≥ 1.
    pub requests: u32,
    /// The window in seconds, ≥ 1.
    pub seconds: u32,
    /// The gap between two requests the rate asks for, in seconds
    /// (`seconds / requests`).
    pub interval: f64,
}

/// The rules that apply to one crawler, from `robots.rulesFor(token)` and
/// its siblings. Independent of the `Robots` it came from: either may be
/// dropped first.
///
/// A URL may be absolute (`https://host/a?b#c`), scheme-relative or a path;
/// only its path, params and query are matched. A string is matched as its
/// UTF-8 bytes, a `Buffer`/`Uint8Array` as it is.
///
/// The garbage collector frees them; `close()` frees them at once.
#[napi(custom_finalize)]
pub struct Rules {
    /// Shared with the table of handles (see `handle`); `None` once closed.
    inner: Option<Arc<robotstxt::Rules>>,
    external: i64,
    /// The handle's slot, once asked for.
    slot: Cell<Option<u32>>,
}

impl Rules {
    pub(crate) fn core(&self, env: &Env) -> Result<&Arc<robotstxt::Rules>> {
        js::open(env, &self.inner, "Rules")
    }

    pub(crate) fn wrap(env: &Env, inner: robotstxt::Rules) -> Rules {
        Rules::share(env, Arc::new(inner))
    }
}

impl Rules {
    /// A native `Rules` on `inner`; for the rules a slot holds, for a `Rules` the package
    /// entry made around that slot: the slot stays that object's, and this
    /// one takes its own only if its `_handle` is asked for.
    fn share(env: &Env, inner: Arc<robotstxt::Rules>) -> Rules {
        let external = external_estimate(&inner);
        let _ = env.adjust_external_memory(external);
        Rules {
            inner: Some(inner),
            external,
            slot: Cell::new(None),
        }
    }
}

impl ObjectFinalize for Rules {
    fn finalize(self, env: Env) -> Result<()> {
        if let Some(slot) = self.slot.get() {
            handles::give_back(slot);
        }
        env.adjust_external_memory(-self.external)?;
        Ok(())
    }
}

#[napi]
impl Rules {
    /// A handle on these rules for the package entry's fast paths
    /// (`_rulesIsAllowed`, `_rulesAllowedFlags`): calling a module function
    /// with it skips the unwrap and type-tag check of a method call, the
    /// larger part of a single check's cost from JavaScript. A number (see
    /// `handles`), the same for the life of these rules; `null` when the
    /// thread has no slot left, or these rules were closed before one was
    /// asked for (a closed slot names no rules: the module functions then
    /// throw the closed error).
    #[napi(getter, skip_typescript, js_name = "_handle")]
    pub fn handle(&self) -> Option<u32> {
        if let (None, Some(inner)) = (self.slot.get(), &self.inner) {
            self.slot.set(handles::take(inner));
        }
        self.slot.get()
    }

    /// May the crawler fetch `url`? Longest match wins; allow wins ties;
    /// no matching rule: allowed.
    ///
    /// @throws {TypeError} `url` is neither a string nor a `Uint8Array`.
    #[napi(catch_unwind, ts_args_type = "url: string | Uint8Array")]
    pub fn is_allowed(&self, env: &Env, url: Unknown) -> Result<bool> {
        let rules = self.core(env)?;
        Js::new(env, &url).with_bytes("url", |u| rules.can_fetch(u))
    }

    /// The answer for `url` and the line that decided it.
    ///
    /// @throws {TypeError} `url` is neither a string nor a `Uint8Array`.
    #[napi(catch_unwind, ts_args_type = "url: string | Uint8Array")]
    pub fn decide(&self, env: &Env, url: Unknown) -> Result<Decision> {
        let rules = self.core(env)?;
        Js::new(env, &url).with_bytes("url", |u| Decision::from_core(rules.decide(u)))
    }

    /// The URLs of `urls` that the crawler may fetch, in order, as the same
    /// values. One call into native code for the whole batch.
    ///
    /// @throws {TypeError} `urls` is not an array of strings or
    ///   `Uint8Array`s.
    #[napi(
        catch_unwind,
        ts_generic_types = "T extends string | Uint8Array",
        ts_args_type = "urls: ReadonlyArray<T>",
        ts_return_type = "T[]"
    )]
    pub fn filter_allowed<'e>(&self, env: &'e Env, urls: Unknown) -> Result<Unknown<'e>> {
        // An element getter may run JavaScript, even `close()`: the batch
        // keeps its own reference to the rules.
        let rules = Arc::clone(self.core(env)?);
        let urls = Js::new(env, &urls);
        let mut out = ArrayBuilder::new(env)?;
        let len = urls.array_len("urls")?;
        prefetch_for(&rules, len);
        for i in 0..len {
            let url = urls.element(i)?;
            if url.with_bytes(format_args!("urls[{i}]"), |u| rules.can_fetch(u))? {
                out.push_raw(url.raw)?;
            }
        }
        Ok(out.finish())
    }

    /// `decide` for each of `urls`, in order. One call into native code
    /// for the whole batch.
    ///
    /// @throws {TypeError} `urls` is not an array of strings or
    ///   `Uint8Array`s.
    #[napi(
        catch_unwind,
        ts_args_type = "urls: ReadonlyArray<string | Uint8Array>",
        ts_return_type = "Decision[]"
    )]
    pub fn decide_many<'e>(&self, env: &'e Env, urls: Unknown) -> Result<Unknown<'e>> {
        // As in `filterAllowed`: its own reference.
        let rules = Arc::clone(self.core(env)?);
        let urls = Js::new(env, &urls);
        let decisions = Decisions::new(env)?;
        let mut out = ArrayBuilder::new(env)?;
        let len = urls.array_len("urls")?;
        prefetch_for(&rules, len);
        for i in 0..len {
            let decision = urls
                .element(i)?
                .with_bytes(format_args!("urls[{i}]"), |u| {
                    decisions.make(rules.decide(u))
                })??;
            out.push_raw(decision)?;
        }
        Ok(out.finish())
    }

    /// Builds the index now, where the check after the first few would. A
    /// selection answers its first checks by scanning its rules, which
    /// costs less when a copy of robots.txt gets a handful of questions;
    /// the next check builds the index every later one uses. Call this to
    /// have no check allocate in the core. Changes no answer.
    #[napi(catch_unwind)]
    pub fn compile(&self, env: &Env) -> Result<()> {
        self.core(env)?.compile();
        Ok(())
    }

    /// The crawl delay in seconds: the largest valid `crawl-delay` of the
    /// selected groups, or `null` when they set none (your own floor
    /// applies).
    #[napi(getter, catch_unwind)]
    pub fn crawl_delay(&self, env: &Env) -> Result<Option<f64>> {
        Ok(crawl_delay_of(self.core(env)?))
    }

    /// The slowest valid `request-rate` of the selected groups, or `null`.
    #[napi(getter, catch_unwind)]
    pub fn request_rate(&self, env: &Env) -> Result<Option<RequestRate>> {
        Ok(request_rate_of(self.core(env)?))
    }

    /// The usage preferences for `url` (behaviour §10.3–§10.4): of the
    /// selected groups' `content-usage` rules whose path matches, those of
    /// the greatest length, combined per label (any `n` wins, then any
    /// `y`). A URL these rules disallow states nothing (`crawlable:
    /// false`). With `options.header`, the response's own `Content-Usage`
    /// field is combined in the same way (behaviour §10.6). Allocates the
    /// answer only; never changes what `isAllowed` answers.
    ///
    /// ```js
    /// const p = rules.preferences(url, { header: res.headers.get('content-usage') })
    /// if (p.labels['train-ai'].value === 'n') skipTraining(url)
    /// ```
    ///
    /// @throws {TypeError} `url` is neither a string nor a `Uint8Array`,
    ///   or `options.header` is neither one nor `null`.
    /// @throws {RangeError} an unknown option
    ///   (`ERR_ROBOTSTXT_INVALID_OPTION`), or `options.header` is no RFC
    ///   9651 Dictionary or is empty (`ERR_ROBOTSTXT_INVALID_FIELD`, with
    ///   `reason` `'syntax'` or `'empty'`): such a field states nothing,
    ///   and asking without it gives the file's answer alone.
    #[napi(
        catch_unwind,
        ts_args_type = "url: string | Uint8Array, options?: PreferencesOptions | null"
    )]
    pub fn preferences(
        &self,
        env: &Env,
        url: Unknown,
        options: Option<Unknown>,
    ) -> Result<Preferences> {
        let header = PreferencesOptions::header(env, options.as_ref())?;
        let rules = self.core(env)?;
        Js::new(env, &url)
            .with_bytes("url", |u| {
                let answer = rules.preferences(u);
                match &header {
                    Some(field) => answer
                        .with_header(field)
                        .map(|p| Preferences::from_core(&p)),
                    None => Ok(Preferences::from_core(&answer)),
                }
            })?
            .map_err(|e| js::field_error(env, e))
    }

    /// The `content-signal` lines of the selected groups, combined per key
    /// (behaviour §10.5): `null` when they hold none. Independent of URLs
    /// and of what is allowed.
    #[napi(catch_unwind)]
    pub fn content_signal(&self, env: &Env) -> Result<Option<ContentSignal>> {
        Ok(self
            .core(env)?
            .content_signal()
            .cloned()
            .map(ContentSignal::from_core))
    }

    /// The records of `robots.otherRecords()` that apply to these rules:
    /// those of the selected groups, and those before the first group
    /// (behaviour §10.7).
    #[napi(catch_unwind)]
    pub fn other_records(&self, env: &Env) -> Result<Vec<OtherRecord>> {
        Ok(self
            .core(env)?
            .other_records()
            .map(OtherRecord::from_core)
            .collect())
    }

    /// The profile of the file these rules came from.
    #[napi(getter, catch_unwind)]
    pub fn profile(&self, env: &Env) -> Result<Profile> {
        Ok(Profile::from_core(self.core(env)?.profile()))
    }

    /// How many rules apply (over all tokens in strictest-of mode); 0 means
    /// everything is allowed.
    #[napi(getter, catch_unwind)]
    pub fn rule_count(&self, env: &Env) -> Result<u32> {
        Ok(rule_count_of(self.core(env)?))
    }

    /// `null` for a file's rules; for rules that stand where a file's
    /// would (a cache's answer for a robots.txt it could not use),
    /// whether they allow everything and why: the HTTP status and
    /// redirects, `'no-response'`, `'not-fetched'`, `'unreachable-limit'`
    /// or `'caller'`.
    #[napi(getter, catch_unwind)]
    pub fn blanket(&self, env: &Env) -> Result<Option<Blanket>> {
        Ok(self.core(env)?.blanket().map(Blanket::from_core))
    }

    /// When the cache that handed these rules out fetches the robots.txt
    /// again (epoch ms by its clock), set after a failed fetch: the rules
    /// are then an old copy kept meanwhile, or a disallow-all. `null`
    /// otherwise.
    #[napi(getter, catch_unwind)]
    pub fn retry_at(&self, env: &Env) -> Result<Option<f64>> {
        Ok(self.core(env)?.retry_at().map(|ms| ms as f64))
    }

    /// Frees these rules now rather than when the garbage collector finds
    /// them. Any other use after this throws an `Error` with `code`
    /// `'ERR_ROBOTSTXT_CLOSED'`; closing twice does nothing.
    /// `[Symbol.dispose]` does the same, for `using`.
    #[napi(catch_unwind)]
    pub fn close(&mut self, env: &Env) -> Result<()> {
        if self.inner.take().is_some() {
            if let Some(slot) = self.slot.get() {
                handles::close(slot);
            }
            env.adjust_external_memory(-std::mem::take(&mut self.external))?;
        }
        Ok(())
    }
}

/// The rules a handle from `rules._handle` names: a whole number that a
/// live `Rules` holds, nothing else (no rounding, no wrapping round). The
/// handle of closed rules throws the closed error.
pub(crate) fn rules_of(env: &Env, handle: f64) -> Result<Arc<robotstxt::Rules>> {
    match slot_of(handle).map_or(handles::Slot::Free, handles::get) {
        handles::Slot::Live(rules) => Ok(rules),
        handles::Slot::Closed => Err(js::closed(env, "Rules")),
        handles::Slot::Free => Err(js::type_error(
            env,
            &format!(
                "handle {} names no live Rules (take it from rules._handle)",
                js::shown(handle)
            ),
        )),
    }
}

/// The slot's index from a handle: a whole number in range, else `None`
/// (no rounding, no wrapping round onto a live slot).
fn slot_of(handle: f64) -> Option<u32> {
    (handle.fract() == 0.0 && (0.0..f64::from(u32::MAX)).contains(&handle)).then_some(handle as u32)
}

/// The native memory reported to V8 for rules: an estimate of the object
/// and its order of rules.
fn external_estimate(rules: &robotstxt::Rules) -> i64 {
    i64::try_from(128 + rules.len() * 4).unwrap_or(i64::MAX)
}

/// A handle on new rules, for the package entry to make its `Rules`
/// around; `None` when the thread has no slot left.
///
/// Creating a native class object costs napi-rs and Node some 3 µs (a
/// wrap, a type tag, a reference kept in a map, a finalizer queued on the
/// event loop), ten times the selection itself: the package entry makes a
/// native twin only for a method that takes no handle. The memory is
/// reported to V8 as a native `Rules` reports it, so that collections
/// keep pace with it; `_rulesGiveBack` takes it back.
pub(crate) fn adopt(env: &Env, rules: robotstxt::Rules) -> Option<u32> {
    let external = external_estimate(&rules);
    let slot = handles::take(&Arc::new(rules))?;
    let _ = env.adjust_external_memory(external);
    Some(slot)
}

/// A native `Rules` on the rules of `handle`, for the package entry's
/// `Rules` made around it (see `handles::adopt`): the methods that take no
/// handle run on it. Throws as `_rulesIsAllowed` for a handle that names
/// no live rules.
#[napi(skip_typescript, catch_unwind, js_name = "_rulesFromHandle")]
pub fn rules_from_handle(env: &Env, handle: f64) -> Result<Rules> {
    Ok(Rules::share(env, rules_of(env, handle)?))
}

/// A `Rules` the package entry made around `handle` was closed or
/// collected: its slot is free again.
#[napi(skip_typescript, catch_unwind, js_name = "_rulesGiveBack")]
pub fn rules_give_back(env: &Env, handle: f64) {
    if let Some(rules) = slot_of(handle).and_then(handles::give_back) {
        let _ = env.adjust_external_memory(-external_estimate(&rules));
    }
}

fn crawl_delay_of(rules: &robotstxt::Rules) -> Option<f64> {
    rules.crawl_delay().map(|d| d.as_secs_f64())
}

fn request_rate_of(rules: &robotstxt::Rules) -> Option<RequestRate> {
    rules.request_rate().map(|r| RequestRate {
        requests: r.requests,
        seconds: r.seconds,
        interval: r.interval().as_secs_f64(),
    })
}

fn rule_count_of(rules: &robotstxt::Rules) -> u32 {
    u32::try_from(rules.len()).unwrap_or(u32::MAX)
}

/// `rules.crawlDelay` through a handle: what a crawler reads of each new
/// copy, so a `Rules` made around a handle answers it without a native
/// twin (as `ruleCount` and `requestRate`).
#[napi(skip_typescript, catch_unwind, js_name = "_rulesCrawlDelay")]
pub fn rules_crawl_delay(env: &Env, handle: f64) -> Result<Option<f64>> {
    let rules = rules_of(env, handle)?;
    Ok(crawl_delay_of(&rules))
}

/// `rules.requestRate` through a handle (see `_rulesCrawlDelay`).
#[napi(skip_typescript, catch_unwind, js_name = "_rulesRequestRate")]
pub fn rules_request_rate(env: &Env, handle: f64) -> Result<Option<RequestRate>> {
    let rules = rules_of(env, handle)?;
    Ok(request_rate_of(&rules))
}

/// `rules.ruleCount` through a handle (see `_rulesCrawlDelay`).
#[napi(skip_typescript, catch_unwind, js_name = "_rulesRuleCount")]
pub fn rules_rule_count(env: &Env, handle: f64) -> Result<u32> {
    let rules = rules_of(env, handle)?;
    Ok(rule_count_of(&rules))
}

/// `rules.isAllowed(url)` through a handle from `rules._handle`; the
/// package entry's `isAllowed` calls this.
///
/// @throws {TypeError} `handle` names no live `Rules`; `url` is neither a
///   string nor a `Uint8Array`.
#[napi(skip_typescript, catch_unwind, js_name = "_rulesIsAllowed")]
pub fn rules_is_allowed(env: &Env, handle: f64, url: Unknown) -> Result<bool> {
    let rules = rules_of(env, handle)?;
    Js::new(env, &url).with_bytes("url", |u| rules.can_fetch(u))
}

/// A batch of checks first brings the rules into the cache (see
/// `robotstxt::Rules::prefetch`); for one or two URLs that costs more than
/// it saves.
pub(crate) fn prefetch_for(rules: &robotstxt::Rules, batch: impl TryInto<usize>) {
    if batch.try_into().is_ok_and(|n| n > 2) {
        rules.prefetch();
    }
}

/// The batch path of `filterAllowed`, through a handle from
/// `rules._handle`: `joined` is `count` URLs joined by `"\n"`. Returns one
/// character per URL, `"1"` when allowed and `"0"` when not, or `null` when
/// `joined` does not hold `count` lines (a URL held a line break): the
/// caller then asks one URL at a time. One string crosses into native code
/// and one comes back, instead of one per URL.
///
/// @throws {TypeError} `handle` names no live `Rules`; `joined` is not a
///   string.
#[napi(skip_typescript, catch_unwind, js_name = "_rulesAllowedFlags")]
pub fn rules_allowed_flags(
    env: &Env,
    handle: f64,
    joined: Unknown,
    count: u32,
) -> Result<Option<String>> {
    let rules = rules_of(env, handle)?;
    Js::new(env, &joined).with_bytes("joined", |bytes| {
        let mut flags = String::with_capacity(count as usize);
        prefetch_for(&rules, count);
        let mut rest = bytes;
        loop {
            let end = line_end(rest);
            flags.push(if rules.can_fetch(&rest[..end]) {
                '1'
            } else {
                '0'
            });
            match rest.get(end + 1..) {
                Some(after) => rest = after,
                None => break,
            }
        }
        (flags.len() == count as usize).then_some(flags)
    })
}

/// The length of the first line of `bytes`: the offset of its first `\n`,
/// else its length. Eight bytes a step, inline: a batch's URLs are some 40
/// bytes each, and a `memchr` call per URL was 14% of a batch's native
/// time on rules that match nothing.
pub(crate) fn line_end(bytes: &[u8]) -> usize {
    const ONES: u64 = u64::from_le_bytes([1; 8]);
    const HIGHS: u64 = ONES << 7;
    let mut words = bytes.chunks_exact(8);
    let mut at = 0;
    for word in &mut words {
        let word =
            u64::from_le_bytes(word.try_into().expect("8 bytes")) ^ (ONES * u64::from(b'\n'));
        // The lowest byte that was `\n` is now the lowest zero byte: its
        // high bit is the lowest one set (higher ones may be false).
        let zeros = word.wrapping_sub(ONES) & !word & HIGHS;
        if zeros != 0 {
            return at + zeros.trailing_zeros() as usize / 8;
        }
        at += 8;
    }
    let tail = words.remainder();
    at + tail.iter().position(|&b| b == b'\n').unwrap_or(tail.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_end_is_the_first_line_break_or_the_length() {
        // A break at every offset of the words and of the tail, among
        // bytes that differ from `\n` by one bit or in the high one.
        let mix = [b'a', 0x0b, 0x8a, 0xff, 0x8b, b'\r', 0x0e];
        for len in 0..40 {
            let filler: Vec<u8> = (0..len).map(|i| mix[i % mix.len()]).collect();
            assert_eq!(line_end(&filler), len, "{filler:?}");
            for at in 0..len {
                let mut bytes = filler.clone();
                bytes[at] = b'\n';
                // A second break after the first changes nothing.
                bytes.extend_from_slice(b"x\ny");
                let expected = bytes.iter().position(|&b| b == b'\n').unwrap();
                assert_eq!(line_end(&bytes), expected, "{bytes:?}");
            }
        }
    }
}
