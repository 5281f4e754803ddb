//! Usage preferences (behaviour §10): the answers of `rules.preferences`,
//! `rules.contentSignal` and `otherRecords`, and the options that add the
//! HTTP `Content-Usage` field. The methods live with their classes, in
//! `rules` and `robots`.

use napi::bindgen_prelude::Unknown;
use napi::{Env, Result};
use napi_derive::napi;

use crate::js::{Js, Keyed};
use crate::rules::Decision;

/// One label's answer: `'y'` (the use is allowed) or `'n'` (it is not).
#[napi(string_enum)]
pub enum UsageValue {
    /// The token `y`.
    #[napi(value = "y")]
    Yes,
    /// The token `n`.
    #[napi(value = "n")]
    No,
}

impl UsageValue {
    fn from_core(usage: robotstxt::Usage) -> Option<UsageValue> {
        match usage {
            robotstxt::Usage::Yes => Some(UsageValue::Yes),
            robotstxt::Usage::No => Some(UsageValue::No),
            robotstxt::Usage::Unknown => None,
        }
    }
}

/// One label's answer and the lines that gave it.
#[napi(object, object_from_js = false, use_nullable = true)]
pub struct LabelPreference {
    /// `'y'`, `'n'`, or `null` when nothing usable is stated.
    pub value: Option<UsageValue>,
    /// The 1-based lines whose statements gave this value (for `null`,
    /// those that named the label with another value, such as `Y` or
    /// `"n"`); empty when none did, or when the HTTP field decided.
    pub lines: Vec<u32>,
}

/// One member of a statement as written (the last of a repeated key): the
/// label, and its value with any parameters in RFC 9651 form (`n`, `?1`
/// for a bare key, `"n"`, `y;v=2`).
#[napi(object, object_from_js = false)]
pub struct StatementMember {
    /// The label.
    pub key: String,
    /// The value and its parameters.
    pub value: String,
}

/// A `content-usage` rule that applied to the URL.
#[napi(object, object_from_js = false)]
pub struct UsageStatement {
    /// 1-based line number.
    pub line: u32,
    /// The path pattern as compared (percent-normalised for the profile;
    /// `/` when the line has none).
    pub path: String,
    /// The statement's members (empty when it states nothing): labels the
    /// vocabulary may add later stay readable here.
    pub members: Vec<StatementMember>,
}

/// The usage preferences for one URL (behaviour §10.3–§10.4).
#[napi(object, object_from_js = false)]
pub struct Preferences {
    /// Whether the rules allow the URL. When not, nothing is stated: every
    /// label is `null` and `decision` names the rule that disallowed.
    pub crawlable: bool,
    /// The access answer, as `rules.decide(url)` gives it.
    pub decision: Decision,
    /// `train-ai` and `search` always, then every other label a statement
    /// gives `'y'` or `'n'`, in the order first met.
    #[napi(ts_type = "Record<string, LabelPreference>")]
    pub labels: Keyed<LabelPreference>,
    /// The rules that applied: of the selected groups' `content-usage`
    /// rules whose path matches, those of the greatest length, in file
    /// order.
    pub statements: Vec<UsageStatement>,
}

impl Preferences {
    pub fn from_core(p: &robotstxt::Preferences<'_>) -> Preferences {
        Preferences {
            crawlable: p.crawlable,
            decision: Decision::from_core(p.decision),
            labels: Keyed(
                p.labels
                    .iter()
                    .map(|l| {
                        let value = LabelPreference {
                            value: UsageValue::from_core(l.value),
                            lines: l.lines.to_vec(),
                        };
                        (l.label.to_string(), value)
                    })
                    .collect(),
            ),
            statements: p
                .statements
                .iter()
                .map(|s| UsageStatement {
                    line: s.line,
                    path: String::from_utf8_lossy(s.path).into_owned(),
                    members: s
                        .members
                        .iter()
                        .map(|m| StatementMember {
                            key: m.key.clone(),
                            value: m.value.clone(),
                        })
                        .collect(),
                })
                .collect(),
        }
    }
}

/// Options of `rules.preferences`. An unknown field throws a `RangeError`.
#[napi(object, object_to_js = false)]
#[allow(dead_code)] // Declares the argument for index.d.ts; read field by field.
pub struct PreferencesOptions {
    /// The response's own `Content-Usage` field (behaviour §10.6), combined
    /// per label with the file's answer: any `n` wins, then any `y`. `null`
    /// or left out: none (`headers.get('content-usage')` gives `null` for a
    /// response without one).
    #[napi(ts_type = "string | Uint8Array | null")]
    pub header: Option<Vec<u8>>,
}

impl PreferencesOptions {
    const KEYS: &'static [&'static str] = &["header"];

    /// The `header` of `options`, if any. Read before the rules are: a
    /// getter may run JavaScript.
    pub fn header(env: &Env, options: Option<&Unknown<'_>>) -> Result<Option<Vec<u8>>> {
        let Some(options) = options else {
            return Ok(None);
        };
        let Some(object) = Js::new(env, options).options("options", Self::KEYS)? else {
            return Ok(None);
        };
        match object.get("header")? {
            Some(v) if !v.is_nullish()? => {
                Ok(Some(v.with_bytes("options.header", <[u8]>::to_vec)?))
            }
            _ => Ok(None),
        }
    }
}

/// What `content-signal` says: `'yes'` or `'no'`.
#[napi(string_enum = "lowercase")]
pub enum SignalValue {
    /// `yes`: the use is allowed.
    Yes,
    /// `no`: the use is not allowed.
    No,
}

/// The combined `content-signal` lines of the selected groups (behaviour
/// §10.5).
#[napi(object, object_from_js = false)]
pub struct ContentSignal {
    /// `search`, `ai-input` and `ai-train` always, then every other key a
    /// valid member sets, in lower case: any `no` wins, then any `yes`;
    /// `null` when no member sets it.
    #[napi(ts_type = "Record<string, SignalValue | null>")]
    pub signals: Keyed<Option<SignalValue>>,
    /// The 1-based `content-signal` lines of the selected groups.
    pub lines: Vec<u32>,
}

impl ContentSignal {
    pub fn from_core(signal: robotstxt::ContentSignal) -> ContentSignal {
        ContentSignal {
            signals: Keyed(
                signal
                    .signals
                    .into_iter()
                    .map(|(key, yes)| {
                        (
                            key,
                            yes.map(|y| if y { SignalValue::Yes } else { SignalValue::No }),
                        )
                    })
                    .collect(),
            ),
            lines: signal.lines,
        }
    }
}

/// A line whose key the library does not read (`Clean-param`,
/// `LLM-Policy`…), or a `content-signal` line before the first group, as
/// written (behaviour §10.7). Bytes that are not UTF-8 read as U+FFFD.
#[napi(object, object_from_js = false, use_nullable = true)]
pub struct OtherRecord {
    /// The key as written.
    pub key: String,
    /// The key in ASCII lower case, to compare.
    pub key_lower: String,
    /// The value: the rest of the line, comment removed, trimmed.
    pub value: String,
    /// 1-based line number.
    pub line: u32,
    /// The 0-based index of the group the line is in, or `null` before the
    /// first `user-agent` line.
    pub group: Option<u32>,
}

impl OtherRecord {
    pub fn from_core(r: robotstxt::OtherRecord<'_>) -> OtherRecord {
        let text = |bytes: &[u8]| String::from_utf8_lossy(bytes).into_owned();
        OtherRecord {
            key: text(r.key),
            key_lower: text(&r.key_lower()),
            value: text(r.value),
            line: r.line,
            group: r.group,
        }
    }
}
