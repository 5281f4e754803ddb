//! `Robots`: a parsed robots.txt, and the options that parse it.

use napi::bindgen_prelude::{ObjectFinalize, Unknown};
use napi::{Env, Result};
use napi_derive::napi;

use crate::js::{self, Js, Object};
use crate::preferences::OtherRecord;
use crate::rules::{self, Rules};

/// Which reading of robots.txt to follow where RFC 9309 and Google's parser
/// differ: `'rfc'` (the default) or `'google'`.
#[napi(string_enum = "lowercase")]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Profile {
    /// RFC 9309 as written: strict product tokens, percent-normalised
    /// matching, `/robots.txt` always allowed.
    Rfc,
    /// What Google's open-source parser answers: any crawler name, paths
    /// compared as given, the `index.html` rule, the 16,663-byte line cap.
    Google,
}

impl Profile {
    pub const NAMES: &'static [(&'static str, Profile)] =
        &[("rfc", Profile::Rfc), ("google", Profile::Google)];

    pub fn from_core(profile: robotstxt::Profile) -> Profile {
        match profile {
            robotstxt::Profile::Rfc9309 => Profile::Rfc,
            robotstxt::Profile::Google => Profile::Google,
        }
    }

    fn to_core(self) -> robotstxt::Profile {
        match self {
            Profile::Rfc => robotstxt::Profile::Rfc9309,
            Profile::Google => robotstxt::Profile::Google,
        }
    }
}

/// How to parse a body. Every field is optional; an unknown field throws a
/// `RangeError`, so a misspelt option cannot pass unnoticed.
#[napi(object, object_to_js = false)]
pub struct ParseOptions {
    /// `'rfc'` (default) or `'google'`.
    pub profile: Option<Profile>,
    /// How many bytes of the body to parse: 512,000 (500 KiB, the default
    /// and the least RFC 9309 §2.5 allows) up to 536,870,912. A line cut by
    /// the limit is dropped.
    pub parse_limit: Option<u32>,
    /// Accept Google's key typos such as `useragent` and `dissallow`
    /// (default `true`).
    pub typos: Option<bool>,
}

impl ParseOptions {
    pub const KEYS: &'static [&'static str] = &["profile", "parseLimit", "typos"];

    /// Reads the parse options of `object` (which may have more keys).
    pub fn read(object: Option<Object<'_>>) -> Result<ParseOptions> {
        let mut options = ParseOptions {
            profile: None,
            parse_limit: None,
            typos: None,
        };
        let Some(object) = object else {
            return Ok(options);
        };
        if let Some(v) = object.get("profile")? {
            options.profile = Some(v.one_of("options.profile", Profile::NAMES)?);
        }
        if let Some(v) = object.get("parseLimit")? {
            let limit = v.number("options.parseLimit")?;
            if limit.fract() != 0.0 || !(0.0..=f64::from(u32::MAX)).contains(&limit) {
                return Err(js::range_error(
                    v.env,
                    js::ERR_PARSE_LIMIT,
                    &format!(
                        "options.parseLimit must be a whole number of bytes from {} \
                         (500 KiB, RFC 9309 §2.5) to {}, not {limit}",
                        robotstxt::MIN_PARSE_LIMIT,
                        robotstxt::MAX_PARSE_LIMIT
                    ),
                ));
            }
            options.parse_limit = Some(limit as u32);
        }
        if let Some(v) = object.get("typos")? {
            options.typos = Some(v.bool("options.typos")?);
        }
        Ok(options)
    }

    /// The core's options; a limit out of range throws the core's error.
    pub fn to_core(&self, env: &Env) -> Result<robotstxt::Options> {
        let mut options = robotstxt::Options::new(self.profile.unwrap_or(Profile::Rfc).to_core());
        if let Some(limit) = self.parse_limit {
            options = options
                .with_parse_limit(limit as usize)
                .map_err(|e| js::core_error(env, &e))?;
        }
        if let Some(typos) = self.typos {
            options = options.with_typos(typos);
        }
        Ok(options)
    }

    /// Reads `value` as a whole options object of its own.
    pub fn from_js(env: &Env, value: Option<&Unknown<'_>>) -> Result<robotstxt::Options> {
        let object = match value {
            Some(v) => Js::new(env, v).options("options", Self::KEYS)?,
            None => None,
        };
        Self::read(object)?.to_core(env)
    }
}

/// What one line's key makes of it.
#[napi(string_enum = "kebab-case")]
pub enum LineKind {
    /// `user-agent` (RFC 9309 §2.2.1).
    UserAgent,
    /// `allow` (§2.2.2).
    Allow,
    /// `disallow` (§2.2.2).
    Disallow,
    /// `sitemap` (§2.3.5).
    Sitemap,
    /// `crawl-delay` (extension).
    CrawlDelay,
    /// `request-rate` (extension).
    RequestRate,
    /// `host` (Yandex extension).
    Host,
    /// `content-usage` (usage preferences, behaviour §10).
    ContentUsage,
    /// `content-signal` (Cloudflare's usage signals, behaviour §10.5).
    ContentSignal,
    /// A key the library does not know: the line is ignored.
    Unknown,
    /// Not blank, yet no key: no colon and not two words, or an empty key.
    Invalid,
}

impl LineKind {
    fn from_core(kind: robotstxt::LineKind) -> LineKind {
        match kind {
            robotstxt::LineKind::UserAgent => LineKind::UserAgent,
            robotstxt::LineKind::Allow => LineKind::Allow,
            robotstxt::LineKind::Disallow => LineKind::Disallow,
            robotstxt::LineKind::Sitemap => LineKind::Sitemap,
            robotstxt::LineKind::CrawlDelay => LineKind::CrawlDelay,
            robotstxt::LineKind::RequestRate => LineKind::RequestRate,
            robotstxt::LineKind::Host => LineKind::Host,
            robotstxt::LineKind::ContentUsage => LineKind::ContentUsage,
            robotstxt::LineKind::ContentSignal => LineKind::ContentSignal,
            robotstxt::LineKind::Invalid => LineKind::Invalid,
            // The core's kinds are non-exhaustive: one added later reads as
            // a key this binding does not know yet.
            _ => LineKind::Unknown,
        }
    }
}

/// Something a line has to report.
#[napi(string_enum = "kebab-case")]
pub enum DiagnosticFlag {
    /// The key is one of Google's accepted typos (`useragent`, `dissallow`…).
    Typo,
    /// `key value` without a colon, accepted as Google does.
    MissingColon,
    /// Google profile: the line was cut to 16,663 bytes.
    TooLong,
    /// A group record before any `user-agent` line: ignored.
    OutsideGroup,
    /// A `crawl-delay` or `request-rate` that does not parse (ignored), or
    /// an `allow`/`disallow` value that starts with neither `/` nor `*`
    /// (still applied).
    InvalidValue,
    /// The key is none the library knows; the line is ignored.
    UnknownKey,
    /// A `content-usage` statement that is no RFC 9651 Dictionary: the
    /// rule is kept and states nothing.
    InvalidStatement,
    /// A `content-usage` line with a path and no statement: the rule is
    /// kept and states nothing.
    EmptyStatement,
    /// A `content-usage` label whose value is not the token `y` or `n`
    /// (unknown), or a `content-signal` member that is not `key=yes|no`
    /// (ignored).
    UnknownPreference,
}

impl DiagnosticFlag {
    fn from_name(name: &str) -> Option<DiagnosticFlag> {
        Some(match name {
            "typo" => DiagnosticFlag::Typo,
            "missing-colon" => DiagnosticFlag::MissingColon,
            "too-long" => DiagnosticFlag::TooLong,
            "outside-group" => DiagnosticFlag::OutsideGroup,
            "invalid-value" => DiagnosticFlag::InvalidValue,
            "unknown-key" => DiagnosticFlag::UnknownKey,
            "invalid-statement" => DiagnosticFlag::InvalidStatement,
            "empty-statement" => DiagnosticFlag::EmptyStatement,
            "unknown-preference" => DiagnosticFlag::UnknownPreference,
            _ => return None,
        })
    }
}

/// One line that has something to report. Only such lines are listed:
/// unknown or invalid lines, and lines with a flag.
#[napi(object, object_from_js = false)]
pub struct Diagnostic {
    /// 1-based line number.
    pub line: u32,
    /// What the line is, from its key.
    pub kind: LineKind,
    /// What it has to report, in a fixed order: `typo`, `missing-colon`,
    /// `too-long`, `outside-group`, `invalid-value`, `unknown-key`,
    /// `invalid-statement`, `empty-statement`, `unknown-preference`.
    pub flags: Vec<DiagnosticFlag>,
}

/// A parsed robots.txt: immutable; parse once, then select the rules for
/// your crawler and ask as often as you like.
///
/// ```js
/// const { Robots } = require('robotstxt')
/// const robots = Robots.parse(fs.readFileSync('robots.txt'))
/// const rules = robots.rulesFor('ExampleBot')
/// rules.isAllowed('https://example.com/private/x') // false
/// ```
///
/// Create one with `Robots.parse`; `new Robots()` throws. The garbage
/// collector frees it; `close()` frees it at once.
#[napi(custom_finalize)]
pub struct Robots {
    /// `None` once closed.
    inner: Option<robotstxt::Robots>,
    /// The native memory reported to V8 for this object, so that the
    /// garbage collector knows what a small JavaScript object holds.
    external: i64,
}

impl Robots {
    pub(crate) fn wrap(env: &Env, inner: robotstxt::Robots) -> Robots {
        // An estimate: the object, its rules and groups, sitemaps, host and
        // the records kept as written.
        let others: usize = inner
            .other_records()
            .map(|r| 64 + r.key.len() + r.value.len())
            .sum();
        let strings: usize = inner.sitemaps().map(<[u8]>::len).sum::<usize>()
            + inner.host().map_or(0, <[u8]>::len)
            + others;
        let estimate = 256
            + inner.rule_count() * 48
            + inner.group_count() * 64
            + std::mem::size_of_val(inner.diagnostics())
            + strings;
        let external = i64::try_from(estimate).unwrap_or(i64::MAX);
        let _ = env.adjust_external_memory(external);
        Robots {
            inner: Some(inner),
            external,
        }
    }

    fn core(&self, env: &Env) -> Result<&robotstxt::Robots> {
        js::open(env, &self.inner, "Robots")
    }

    fn select(
        &self,
        env: &Env,
        tokens: &Unknown<'_>,
        select: impl FnOnce(
            &robotstxt::Robots,
            &[Vec<u8>],
        ) -> std::result::Result<robotstxt::Rules, robotstxt::Error>,
    ) -> Result<robotstxt::Rules> {
        let tokens = Js::new(env, tokens);
        let len = tokens.array_len("tokens")?;
        let mut list = Vec::with_capacity(len as usize);
        for i in 0..len {
            // An element getter may run JavaScript (even `close()`): the
            // tokens are all read before the file is.
            let token = tokens.element(i)?;
            list.push(token.with_bytes(format_args!("tokens[{i}]"), <[u8]>::to_vec)?);
        }
        select(self.core(env)?, &list).map_err(|e| js::core_error(env, &e))
    }

    /// The rules for one token (see `rulesFor`).
    fn selected(&self, env: &Env, token: &Unknown<'_>) -> Result<robotstxt::Rules> {
        let robots = self.core(env)?;
        Js::new(env, token)
            .with_bytes("token", |t| robots.rules_for(t))?
            .map_err(|e| js::core_error(env, &e))
    }
}

impl ObjectFinalize for Robots {
    fn finalize(self, env: Env) -> Result<()> {
        env.adjust_external_memory(-self.external)?;
        Ok(())
    }
}

#[napi]
impl Robots {
    /// Parses a robots.txt body. Any bytes parse: invalid UTF-8, NUL
    /// bytes, HTML pages; lines that make no sense are skipped and
    /// reported by `diagnostics`. A string is parsed as its UTF-8 bytes,
    /// a `Buffer` or `Uint8Array` as it is.
    ///
    /// Cost: linear in the parsed size (at most `parseLimit` bytes).
    ///
    /// @throws {TypeError} `body` is neither a string nor a `Uint8Array`,
    ///   or an option has the wrong type.
    /// @throws {RangeError} an unknown option, or an option value out of
    ///   range (`code` `ERR_ROBOTSTXT_PARSE_LIMIT`,
    ///   `ERR_ROBOTSTXT_INVALID_OPTION`).
    #[napi(
        factory,
        catch_unwind,
        ts_args_type = "body: string | Uint8Array, options?: ParseOptions | null"
    )]
    pub fn parse(env: &Env, body: Unknown, options: Option<Unknown>) -> Result<Robots> {
        let options = ParseOptions::from_js(env, options.as_ref())?;
        let inner = Js::new(env, &body).with_bytes("body", |bytes| {
            robotstxt::Robots::parse_with(bytes, &options)
        })?;
        Ok(Robots::wrap(env, inner))
    }

    /// The rules for the crawler whose product token is `token` (RFC 9309
    /// §2.2.1): every group naming it (case-insensitively, whole), merged;
    /// else every `*` group; else none (everything allowed).
    ///
    /// @throws {TypeError} `token` is neither a string nor a `Uint8Array`.
    /// @throws {RangeError} RFC profile: `token` is not a product token
    ///   (one or more of `A-Z a-z _ -`, such as `'ExampleBot'`, never a
    ///   version or a whole User-Agent header); `code`
    ///   `ERR_ROBOTSTXT_INVALID_TOKEN`. The Google profile accepts any
    ///   string.
    #[napi(catch_unwind, ts_args_type = "token: string | Uint8Array")]
    pub fn rules_for(&self, env: &Env, token: Unknown) -> Result<Rules> {
        Ok(Rules::wrap(env, self.selected(env, &token)?))
    }

    /// `rulesFor`, as a handle (see `rules::adopt`) that the package
    /// entry makes its `Rules` around; `null` when the thread has no slot
    /// left.
    #[napi(skip_typescript, catch_unwind, js_name = "_rulesForHandle")]
    pub fn rules_for_handle(&self, env: &Env, token: Unknown) -> Result<Option<u32>> {
        Ok(rules::adopt(env, self.selected(env, &token)?))
    }

    /// The rules for a crawler known by several tokens: every group naming
    /// any of them, merged (Google's semantics); else every `*` group.
    ///
    /// @throws {TypeError} `tokens` is not an array of strings or
    ///   `Uint8Array`s.
    /// @throws {RangeError} an empty list (`ERR_ROBOTSTXT_NO_TOKENS`) or an
    ///   invalid token (`ERR_ROBOTSTXT_INVALID_TOKEN`).
    #[napi(
        catch_unwind,
        ts_args_type = "tokens: ReadonlyArray<string | Uint8Array>"
    )]
    pub fn rules_for_any(&self, env: &Env, tokens: Unknown) -> Result<Rules> {
        let rules = self.select(env, &tokens, |r, t| r.rules_for_any(t))?;
        Ok(Rules::wrap(env, rules))
    }

    /// `rulesForAny`, as a handle (see `_rulesForHandle`).
    #[napi(skip_typescript, catch_unwind, js_name = "_rulesForAnyHandle")]
    pub fn rules_for_any_handle(&self, env: &Env, tokens: Unknown) -> Result<Option<u32>> {
        let rules = self.select(env, &tokens, |r, t| r.rules_for_any(t))?;
        Ok(rules::adopt(env, rules))
    }

    /// Strictest-of: a URL is allowed only if each token's own selection
    /// allows it, and the crawl delay is the largest of them. The way to
    /// honour `GPTBot` and `CCBot` groups as well as your own.
    ///
    /// @throws {TypeError} as `rulesForAny`.
    /// @throws {RangeError} as `rulesForAny`.
    #[napi(
        catch_unwind,
        ts_args_type = "tokens: ReadonlyArray<string | Uint8Array>"
    )]
    pub fn rules_for_strictest(&self, env: &Env, tokens: Unknown) -> Result<Rules> {
        let rules = self.select(env, &tokens, |r, t| r.rules_for_strictest(t))?;
        Ok(Rules::wrap(env, rules))
    }

    /// `rulesForStrictest`, as a handle (see `_rulesForHandle`).
    #[napi(skip_typescript, catch_unwind, js_name = "_rulesForStrictestHandle")]
    pub fn rules_for_strictest_handle(&self, env: &Env, tokens: Unknown) -> Result<Option<u32>> {
        let rules = self.select(env, &tokens, |r, t| r.rules_for_strictest(t))?;
        Ok(rules::adopt(env, rules))
    }

    /// The profile the body was parsed with.
    #[napi(getter, catch_unwind)]
    pub fn profile(&self, env: &Env) -> Result<Profile> {
        Ok(Profile::from_core(self.core(env)?.profile()))
    }

    /// Every `sitemap` value in file order (RFC 9309 §2.3.5), as written
    /// (bytes that are not UTF-8 read as U+FFFD).
    #[napi(getter, catch_unwind)]
    pub fn sitemaps(&self, env: &Env) -> Result<Vec<String>> {
        Ok(self
            .core(env)?
            .sitemaps()
            .map(|s| String::from_utf8_lossy(s).into_owned())
            .collect())
    }

    /// The first `host` value (Yandex extension), or `null`.
    #[napi(getter, catch_unwind)]
    pub fn host(&self, env: &Env) -> Result<Option<String>> {
        Ok(self
            .core(env)?
            .host()
            .map(|h| String::from_utf8_lossy(h).into_owned()))
    }

    /// The lines that have something to report, in line order.
    #[napi(getter, catch_unwind)]
    pub fn diagnostics(&self, env: &Env) -> Result<Vec<Diagnostic>> {
        Ok(self
            .core(env)?
            .diagnostics()
            .iter()
            .map(|d| Diagnostic {
                line: d.line,
                kind: LineKind::from_core(d.kind),
                flags: d
                    .flag_names()
                    .filter_map(DiagnosticFlag::from_name)
                    .collect(),
            })
            .collect())
    }

    /// Every line whose key the library does not read (`Clean-param`,
    /// `LLM-Policy`…), and every `content-signal` line before the first
    /// group, in file order (behaviour §10.7): what they mean is yours to
    /// decide.
    #[napi(catch_unwind)]
    pub fn other_records(&self, env: &Env) -> Result<Vec<OtherRecord>> {
        Ok(self
            .core(env)?
            .other_records()
            .map(OtherRecord::from_core)
            .collect())
    }

    /// How many groups the file has.
    #[napi(getter, catch_unwind)]
    pub fn group_count(&self, env: &Env) -> Result<u32> {
        Ok(u32::try_from(self.core(env)?.group_count()).unwrap_or(u32::MAX))
    }

    /// How many rules the file has (Google's `index.html` extras included).
    #[napi(getter, catch_unwind)]
    pub fn rule_count(&self, env: &Env) -> Result<u32> {
        Ok(u32::try_from(self.core(env)?.rule_count()).unwrap_or(u32::MAX))
    }

    /// Frees the parsed file now rather than when the garbage collector
    /// finds it; rules selected from it keep working. Any other use after
    /// this throws an `Error` with `code` `'ERR_ROBOTSTXT_CLOSED'`.
    /// Closing twice does nothing. `[Symbol.dispose]` does the same, for
    /// `using`.
    #[napi(catch_unwind)]
    pub fn close(&mut self, env: &Env) -> Result<()> {
        if self.inner.take().is_some() {
            env.adjust_external_memory(-std::mem::take(&mut self.external))?;
        }
        Ok(())
    }
}
