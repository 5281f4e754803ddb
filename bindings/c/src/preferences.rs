//! Usage preferences (behaviour §10): `robotstxt_preferences` for one URL,
//! `robotstxt_content_signal` for one crawler, and the records the library
//! does not read (`robotstxt_robots_other_record*`,
//! `robotstxt_rules_other_record*`).

use std::ffi::{c_char, CStr};
use std::sync::Arc;

use super::robots::robotstxt_robots;
use super::rules::{decision_of, robotstxt_decision, robotstxt_rules};
use super::status::{robotstxt_status, Failure};
use super::{bytes, free_handle, guard, guard_value, handle, into_handle, robotstxt_str, Out};
use engine::{ContentSignal, LabelPreference, Member, OtherRecord, Preferences, Usage};

/// One label's preference.
pub type robotstxt_usage = u32;

/// Nothing usable stated.
pub const ROBOTSTXT_USAGE_UNKNOWN: robotstxt_usage = 0;
/// The token `y`: the use is allowed.
pub const ROBOTSTXT_USAGE_YES: robotstxt_usage = 1;
/// The token `n`: the use is not allowed.
pub const ROBOTSTXT_USAGE_NO: robotstxt_usage = 2;

fn usage_code(usage: Usage) -> robotstxt_usage {
    match usage {
        Usage::Unknown => ROBOTSTXT_USAGE_UNKNOWN,
        Usage::Yes => ROBOTSTXT_USAGE_YES,
        Usage::No => ROBOTSTXT_USAGE_NO,
    }
}

/// The usage preferences for one URL, from `robotstxt_rules_preferences`:
/// an answer of its own, independent of the rules it came from. Immutable;
/// free it with `robotstxt_preferences_free`.
pub struct robotstxt_preferences {
    decision_pattern: String,
    decision: robotstxt_decision,
    labels: Vec<LabelPreference<'static>>,
    statements: Vec<(u32, Vec<u8>, Vec<Member>)>,
    /// Kept to combine with an HTTP field.
    crawlable: bool,
}

impl robotstxt_preferences {
    fn of(p: &Preferences<'_>) -> robotstxt_preferences {
        robotstxt_preferences {
            decision_pattern: p.decision.pattern.to_owned(),
            decision: decision_of(&p.decision),
            labels: p.labels.iter().map(|l| l.clone().into_owned()).collect(),
            statements: p
                .statements
                .iter()
                .map(|s| (s.line, s.path.to_vec(), s.members.to_vec()))
                .collect(),
            crawlable: p.crawlable,
        }
    }

    /// The answer as the core's type, to combine with an HTTP field.
    fn with_header(&self, field: &[u8]) -> Result<robotstxt_preferences, engine::StatementError> {
        let core = Preferences {
            crawlable: self.crawlable,
            decision: engine::Decision {
                allowed: self.decision.allowed,
                line: self.decision.line,
                kind: engine::DecisionKind::NoMatch,
                pattern: "",
            },
            labels: self.labels.clone(),
            statements: Vec::new(),
        };
        let combined = core.with_header(field)?;
        Ok(robotstxt_preferences {
            decision_pattern: self.decision_pattern.clone(),
            decision: self.decision,
            labels: combined.labels,
            statements: self.statements.clone(),
            crawlable: self.crawlable,
        })
    }
}

/// One label's answer. Borrows from the preferences handle.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct robotstxt_label_preference {
    /// The label (`train-ai`, `search`, or another a statement gives).
    pub label: robotstxt_str,
    /// A `ROBOTSTXT_USAGE_*` value.
    pub value: robotstxt_usage,
    /// The 1-based lines that supplied the value: `line_count` of them.
    pub lines: *const u32,
    /// How many lines `lines` holds (0: none; `lines` is then NULL).
    pub line_count: usize,
}

/// A `content-usage` rule that applied. Borrows from the preferences
/// handle.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct robotstxt_usage_statement {
    /// 1-based line number.
    pub line: u32,
    /// The path pattern as compared (normalised; `/` when none was
    /// written).
    pub path: robotstxt_str,
    /// How many members its statement has (0 when it stated nothing); read
    /// them with `robotstxt_preferences_member`.
    pub member_count: usize,
}

/// One member of a statement as written: the label, and its value with
/// parameters in RFC 9651 form (`n`, `?1`, `y;v=2`). Borrows from the
/// preferences handle.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct robotstxt_member {
    /// The label.
    pub key: robotstxt_str,
    /// The value and its parameters.
    pub value: robotstxt_str,
}

/// Writes the usage preferences for `url` to `*preferences_out` (a new
/// handle): of the selected groups' `content-usage` rules whose path
/// matches, the longest, combined per label (any `n` wins, then any `y`).
/// `train-ai` and `search` are always listed. A URL the rules disallow gets
/// none (`robotstxt_preferences_crawlable` is false).
///
/// # Safety
/// `rules` must be a live handle; `url` readable for `url_len` bytes (or
/// NULL when 0); `preferences_out` writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn robotstxt_rules_preferences(
    rules: *const robotstxt_rules,
    url: *const u8,
    url_len: usize,
    preferences_out: *mut *mut robotstxt_preferences,
) -> robotstxt_status {
    guard("robotstxt_rules_preferences", || {
        // SAFETY: per the contract above.
        let (rules, url) = unsafe { (handle(rules, "rules")?, bytes(url, url_len, "url")?) };
        let out = Out::new(preferences_out, "preferences_out")?;
        let answer = robotstxt_preferences::of(&rules.rules.preferences(url));
        // SAFETY: writable per the contract.
        unsafe { out.put(into_handle(answer)) };
        Ok(())
    })
}

/// Writes to `*combined_out` a new handle: `preferences` combined with the
/// HTTP `Content-Usage` field of the response (`field_len` bytes), per
/// label any `n` wins, then any `y`. A URL that is not crawlable keeps its
/// answer. `ROBOTSTXT_STATUS_INVALID_FIELD` (and nothing written) when the
/// field is no RFC 9651 Dictionary or is empty.
///
/// # Safety
/// `preferences` must be a live handle; `field` readable for `field_len`
/// bytes (or NULL when 0); `combined_out` writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn robotstxt_preferences_with_header(
    preferences: *const robotstxt_preferences,
    field: *const u8,
    field_len: usize,
    combined_out: *mut *mut robotstxt_preferences,
) -> robotstxt_status {
    guard("robotstxt_preferences_with_header", || {
        // SAFETY: per the contract above.
        let (p, field) = unsafe {
            (
                handle(preferences, "preferences")?,
                bytes(field, field_len, "field")?,
            )
        };
        let out = Out::new(combined_out, "combined_out")?;
        let combined = p.with_header(field)?;
        // SAFETY: writable per the contract.
        unsafe { out.put(into_handle(combined)) };
        Ok(())
    })
}

/// Frees a handle from `robotstxt_rules_preferences` or
/// `robotstxt_preferences_with_header`. NULL does nothing.
///
/// # Safety
/// `preferences` must be NULL or a live handle, not used again after this.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn robotstxt_preferences_free(preferences: *mut robotstxt_preferences) {
    // SAFETY: forwarded to the caller.
    unsafe { free_handle("robotstxt_preferences_free", preferences) }
}

/// Writes to `*crawlable_out` whether the rules allow the URL, and the
/// access answer with its deciding line to `*decision_out` (NULL to skip).
/// The pattern borrows from `preferences`.
///
/// # Safety
/// `preferences` must be a live handle; `crawlable_out` writable;
/// `decision_out` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn robotstxt_preferences_crawlable(
    preferences: *const robotstxt_preferences,
    crawlable_out: *mut bool,
    decision_out: *mut robotstxt_decision,
) -> robotstxt_status {
    guard("robotstxt_preferences_crawlable", || {
        // SAFETY: per the contract above.
        let p = unsafe { handle(preferences, "preferences")? };
        let out = Out::new(crawlable_out, "crawlable_out")?;
        let mut decision = p.decision;
        decision.pattern = robotstxt_str::borrow(p.decision_pattern.as_bytes());
        // SAFETY: writable per the contract.
        unsafe {
            out.put(p.crawlable);
            if let Some(d) = Out::optional(decision_out) {
                d.put(decision);
            }
        }
        Ok(())
    })
}

/// Writes how many labels the answer lists to `*count_out` (at least 2:
/// `train-ai` and `search` come first).
///
/// # Safety
/// `preferences` must be a live handle; `count_out` writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn robotstxt_preferences_label_count(
    preferences: *const robotstxt_preferences,
    count_out: *mut usize,
) -> robotstxt_status {
    guard("robotstxt_preferences_label_count", || {
        // SAFETY: per the contract above.
        let p = unsafe { handle(preferences, "preferences")? };
        let out = Out::new(count_out, "count_out")?;
        // SAFETY: writable per the contract.
        unsafe { out.put(p.labels.len()) };
        Ok(())
    })
}

/// Writes the `index`-th label's answer (from 0) to `*label_out`; it
/// borrows from `preferences`.
///
/// # Safety
/// `preferences` must be a live handle; `label_out` writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn robotstxt_preferences_label(
    preferences: *const robotstxt_preferences,
    index: usize,
    label_out: *mut robotstxt_label_preference,
) -> robotstxt_status {
    guard("robotstxt_preferences_label", || {
        // SAFETY: per the contract above.
        let p = unsafe { handle(preferences, "preferences")? };
        let out = Out::new(label_out, "label_out")?;
        let label = p
            .labels
            .get(index)
            .ok_or_else(|| Failure::index("label", index, p.labels.len()))?;
        let lines = if label.lines.is_empty() {
            std::ptr::null()
        } else {
            label.lines.as_ptr()
        };
        // SAFETY: writable per the contract.
        unsafe {
            out.put(robotstxt_label_preference {
                label: robotstxt_str::borrow(label.label.as_bytes()),
                value: usage_code(label.value),
                lines,
                line_count: label.lines.len(),
            })
        };
        Ok(())
    })
}

/// Writes the answer for the label `label_len` bytes at `label` to
/// `*usage_out`: `ROBOTSTXT_USAGE_UNKNOWN` when nothing states it.
///
/// # Safety
/// `preferences` must be a live handle; `label` readable for `label_len`
/// bytes (or NULL when 0); `usage_out` writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn robotstxt_preferences_get(
    preferences: *const robotstxt_preferences,
    label: *const u8,
    label_len: usize,
    usage_out: *mut robotstxt_usage,
) -> robotstxt_status {
    guard("robotstxt_preferences_get", || {
        // SAFETY: per the contract above.
        let (p, label) = unsafe {
            (
                handle(preferences, "preferences")?,
                bytes(label, label_len, "label")?,
            )
        };
        let out = Out::new(usage_out, "usage_out")?;
        let usage = p
            .labels
            .iter()
            .find(|l| l.label.as_bytes() == label)
            .map_or(Usage::Unknown, |l| l.value);
        // SAFETY: writable per the contract.
        unsafe { out.put(usage_code(usage)) };
        Ok(())
    })
}

/// Writes how many `content-usage` rules applied to `*count_out`.
///
/// # Safety
/// `preferences` must be a live handle; `count_out` writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn robotstxt_preferences_statement_count(
    preferences: *const robotstxt_preferences,
    count_out: *mut usize,
) -> robotstxt_status {
    guard("robotstxt_preferences_statement_count", || {
        // SAFETY: per the contract above.
        let p = unsafe { handle(preferences, "preferences")? };
        let out = Out::new(count_out, "count_out")?;
        // SAFETY: writable per the contract.
        unsafe { out.put(p.statements.len()) };
        Ok(())
    })
}

/// Writes the `index`-th rule that applied (from 0, in file order) to
/// `*statement_out`; it borrows from `preferences`.
///
/// # Safety
/// `preferences` must be a live handle; `statement_out` writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn robotstxt_preferences_statement(
    preferences: *const robotstxt_preferences,
    index: usize,
    statement_out: *mut robotstxt_usage_statement,
) -> robotstxt_status {
    guard("robotstxt_preferences_statement", || {
        // SAFETY: per the contract above.
        let p = unsafe { handle(preferences, "preferences")? };
        let out = Out::new(statement_out, "statement_out")?;
        let (line, path, members) = p
            .statements
            .get(index)
            .ok_or_else(|| Failure::index("statement", index, p.statements.len()))?;
        // SAFETY: writable per the contract.
        unsafe {
            out.put(robotstxt_usage_statement {
                line: *line,
                path: robotstxt_str::borrow(path),
                member_count: members.len(),
            })
        };
        Ok(())
    })
}

/// Writes member `member` of rule `statement` (both from 0) to
/// `*member_out`; it borrows from `preferences`.
///
/// # Safety
/// `preferences` must be a live handle; `member_out` writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn robotstxt_preferences_member(
    preferences: *const robotstxt_preferences,
    statement: usize,
    member: usize,
    member_out: *mut robotstxt_member,
) -> robotstxt_status {
    guard("robotstxt_preferences_member", || {
        // SAFETY: per the contract above.
        let p = unsafe { handle(preferences, "preferences")? };
        let out = Out::new(member_out, "member_out")?;
        let (_, _, members) = p
            .statements
            .get(statement)
            .ok_or_else(|| Failure::index("statement", statement, p.statements.len()))?;
        let m = members
            .get(member)
            .ok_or_else(|| Failure::index("member", member, members.len()))?;
        // SAFETY: writable per the contract.
        unsafe {
            out.put(robotstxt_member {
                key: robotstxt_str::borrow(m.key.as_bytes()),
                value: robotstxt_str::borrow(m.value.as_bytes()),
            })
        };
        Ok(())
    })
}

/// The name of a `ROBOTSTXT_USAGE_*` value: `"y"`, `"n"`, or `"unknown"`.
/// A static, NUL-terminated string; NULL for an unknown value.
#[unsafe(no_mangle)]
pub extern "C" fn robotstxt_usage_name(usage: robotstxt_usage) -> *const c_char {
    guard_value("robotstxt_usage_name", std::ptr::null(), || {
        let name: Option<&CStr> = match usage {
            ROBOTSTXT_USAGE_YES => Some(c"y"),
            ROBOTSTXT_USAGE_NO => Some(c"n"),
            ROBOTSTXT_USAGE_UNKNOWN => Some(c"unknown"),
            _ => None,
        };
        name.map_or(std::ptr::null(), CStr::as_ptr)
    })
}

/// The `content-signal` of one crawler's groups, from
/// `robotstxt_rules_content_signal`. Immutable; free it with
/// `robotstxt_content_signal_free`.
pub struct robotstxt_content_signal {
    signal: Arc<ContentSignal>,
}

/// One Content-Signal key and its answer. Borrows from the handle.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct robotstxt_signal {
    /// The key, lower case (`search`, `ai-input`, `ai-train` come first).
    pub key: robotstxt_str,
    /// Whether a valid member set it.
    pub is_set: bool,
    /// When set: `yes` (true) or `no` (false). Any `no` wins.
    pub yes: bool,
}

/// Writes to `*signal_out` a new handle holding the combined
/// `content-signal` of the selected groups, or NULL when they hold no
/// `content-signal` line. Independent of URLs and of what is allowed.
///
/// # Safety
/// `rules` must be a live handle; `signal_out` writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn robotstxt_rules_content_signal(
    rules: *const robotstxt_rules,
    signal_out: *mut *mut robotstxt_content_signal,
) -> robotstxt_status {
    guard("robotstxt_rules_content_signal", || {
        // SAFETY: per the contract above.
        let rules = unsafe { handle(rules, "rules")? };
        let out = Out::new(signal_out, "signal_out")?;
        let handle = match rules.rules.content_signal_shared() {
            Some(signal) => into_handle(robotstxt_content_signal {
                signal: Arc::clone(signal),
            }),
            None => std::ptr::null_mut(),
        };
        // SAFETY: writable per the contract.
        unsafe { out.put(handle) };
        Ok(())
    })
}

/// Frees a handle from `robotstxt_rules_content_signal`. NULL does nothing.
///
/// # Safety
/// `signal` must be NULL or a live handle, not used again after this.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn robotstxt_content_signal_free(signal: *mut robotstxt_content_signal) {
    // SAFETY: forwarded to the caller.
    unsafe { free_handle("robotstxt_content_signal_free", signal) }
}

/// Writes how many keys the answer lists to `*count_out` (at least 3).
///
/// # Safety
/// `signal` must be a live handle; `count_out` writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn robotstxt_content_signal_count(
    signal: *const robotstxt_content_signal,
    count_out: *mut usize,
) -> robotstxt_status {
    guard("robotstxt_content_signal_count", || {
        // SAFETY: per the contract above.
        let s = unsafe { handle(signal, "signal")? };
        let out = Out::new(count_out, "count_out")?;
        // SAFETY: writable per the contract.
        unsafe { out.put(s.signal.signals.len()) };
        Ok(())
    })
}

/// Writes the `index`-th key and its answer (from 0) to `*entry_out`; it
/// borrows from `signal`.
///
/// # Safety
/// `signal` must be a live handle; `entry_out` writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn robotstxt_content_signal_entry(
    signal: *const robotstxt_content_signal,
    index: usize,
    entry_out: *mut robotstxt_signal,
) -> robotstxt_status {
    guard("robotstxt_content_signal_entry", || {
        // SAFETY: per the contract above.
        let s = unsafe { handle(signal, "signal")? };
        let out = Out::new(entry_out, "entry_out")?;
        let signals = &s.signal.signals;
        let (key, value) = signals
            .get(index)
            .ok_or_else(|| Failure::index("signal", index, signals.len()))?;
        // SAFETY: writable per the contract.
        unsafe {
            out.put(robotstxt_signal {
                key: robotstxt_str::borrow(key.as_bytes()),
                is_set: value.is_some(),
                yes: value.unwrap_or(false),
            })
        };
        Ok(())
    })
}

/// Writes how many `content-signal` lines the selected groups hold to
/// `*count_out`, and their 1-based line numbers to `*lines_out` (borrowed
/// from `signal`).
///
/// # Safety
/// `signal` must be a live handle; both outputs writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn robotstxt_content_signal_lines(
    signal: *const robotstxt_content_signal,
    lines_out: *mut *const u32,
    count_out: *mut usize,
) -> robotstxt_status {
    guard("robotstxt_content_signal_lines", || {
        // SAFETY: per the contract above.
        let s = unsafe { handle(signal, "signal")? };
        let lines = Out::new(lines_out, "lines_out")?;
        let count = Out::new(count_out, "count_out")?;
        // SAFETY: writable per the contract.
        unsafe {
            lines.put(s.signal.lines.as_ptr());
            count.put(s.signal.lines.len());
        }
        Ok(())
    })
}

/// A line the library does not read, as written (behaviour §10.7). Borrows
/// from the handle it came from.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct robotstxt_other_record {
    /// The key as written.
    pub key: robotstxt_str,
    /// The value: the rest of the line, comment removed, trimmed.
    pub value: robotstxt_str,
    /// 1-based line number.
    pub line: u32,
    /// False before the first `user-agent` line (global).
    pub in_group: bool,
    /// When `in_group`: the 0-based index of the group; else 0.
    pub group: u32,
}

fn other_record(r: OtherRecord<'_>) -> robotstxt_other_record {
    robotstxt_other_record {
        key: robotstxt_str::borrow(r.key),
        value: robotstxt_str::borrow(r.value),
        line: r.line,
        in_group: r.group.is_some(),
        group: r.group.unwrap_or(0),
    }
}

/// Writes how many lines the library does not read the file has to
/// `*count_out`: unknown keys, and `content-signal` lines before the first
/// `user-agent`.
///
/// # Safety
/// `robots` must be a live handle; `count_out` writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn robotstxt_robots_other_record_count(
    robots: *const robotstxt_robots,
    count_out: *mut usize,
) -> robotstxt_status {
    guard("robotstxt_robots_other_record_count", || {
        // SAFETY: per the contract above.
        let robots = unsafe { handle(robots, "robots")? };
        let out = Out::new(count_out, "count_out")?;
        // SAFETY: writable per the contract.
        unsafe { out.put(robots.robots.other_records().len()) };
        Ok(())
    })
}

/// Writes the `index`-th such line (from 0, in file order) to
/// `*record_out`; it borrows from `robots`.
///
/// # Safety
/// `robots` must be a live handle; `record_out` writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn robotstxt_robots_other_record(
    robots: *const robotstxt_robots,
    index: usize,
    record_out: *mut robotstxt_other_record,
) -> robotstxt_status {
    guard("robotstxt_robots_other_record", || {
        // SAFETY: per the contract above.
        let robots = unsafe { handle(robots, "robots")? };
        let out = Out::new(record_out, "record_out")?;
        let r = robots.robots.other_record(index).ok_or_else(|| {
            Failure::index("other record", index, robots.robots.other_records().len())
        })?;
        // SAFETY: writable per the contract.
        unsafe { out.put(other_record(r)) };
        Ok(())
    })
}

/// Writes how many of the file's other records apply to these rules to
/// `*count_out`: those in the selected groups and those before the first
/// group.
///
/// # Safety
/// `rules` must be a live handle; `count_out` writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn robotstxt_rules_other_record_count(
    rules: *const robotstxt_rules,
    count_out: *mut usize,
) -> robotstxt_status {
    guard("robotstxt_rules_other_record_count", || {
        // SAFETY: per the contract above.
        let rules = unsafe { handle(rules, "rules")? };
        let out = Out::new(count_out, "count_out")?;
        // SAFETY: writable per the contract.
        unsafe { out.put(rules.rules.other_records().len()) };
        Ok(())
    })
}

/// Writes the `index`-th of them (from 0, in file order) to `*record_out`;
/// it borrows from `rules`.
///
/// # Safety
/// `rules` must be a live handle; `record_out` writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn robotstxt_rules_other_record(
    rules: *const robotstxt_rules,
    index: usize,
    record_out: *mut robotstxt_other_record,
) -> robotstxt_status {
    guard("robotstxt_rules_other_record", || {
        // SAFETY: per the contract above.
        let rules = unsafe { handle(rules, "rules")? };
        let out = Out::new(record_out, "record_out")?;
        let r = rules.rules.other_record(index).ok_or_else(|| {
            Failure::index("other record", index, rules.rules.other_records().len())
        })?;
        // SAFETY: writable per the contract.
        unsafe { out.put(other_record(r)) };
        Ok(())
    })
}
