//! The usage-preference answers (behaviour §10.3–§10.6): for one URL, the
//! longest matching `content-usage` rules combined per label; per crawler,
//! the `content-signal` of its groups; and an HTTP `Content-Usage` field
//! combined with either.

use std::collections::HashMap;

use crate::pattern;
use crate::rules::Decision;
use crate::usage::{Extras, Member, Statement, StatementError, Usage};

/// Labels every answer holds, stated or not (vocabulary §4.1, §4.2).
const ALWAYS: [&str; 2] = ["train-ai", "search"];

/// Content-Signal keys every answer holds, set or not.
const SIGNALS: [&str; 3] = ["search", "ai-input", "ai-train"];

/// One label's answer and the lines that supplied it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct LabelPreference {
    /// The label (`train-ai`, `search`, or any other a statement gives).
    pub label: String,
    /// `y`, `n`, or unknown.
    pub value: Usage,
    /// The lines whose statements gave this value (for unknown: those that
    /// named the label with another value); empty when none did. A value
    /// from an HTTP field adds no line.
    pub lines: Vec<u32>,
}

/// A `content-usage` rule that applied: its line, path and raw members.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct UsageStatement<'a> {
    /// 1-based line number.
    pub line: u32,
    /// The path pattern as compared (normalised; `/` when none was written).
    pub path: &'a [u8],
    /// The statement's members as written (empty when it stated nothing).
    pub members: &'a [Member],
    /// What each label states, after repeats.
    labels: &'a [(String, Usage)],
}

/// The usage preferences for one URL, from [`Rules::preferences`].
///
/// [`Rules::preferences`]: crate::Rules::preferences
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Preferences<'a> {
    /// Whether the rules allow the URL; when not, nothing is stated
    /// (attach draft §3.1) and `decision` names the rule that disallowed.
    pub crawlable: bool,
    /// The access answer, with its deciding line.
    pub decision: Decision<'a>,
    /// `train-ai` and `search` always, then every other label a kept
    /// statement gives `y` or `n`, in the order first met.
    pub labels: Vec<LabelPreference>,
    /// The rules that applied: those of the greatest length among the
    /// matching ones, in file order.
    pub statements: Vec<UsageStatement<'a>>,
}

impl<'a> Preferences<'a> {
    pub(crate) fn nothing(decision: Decision<'a>) -> Preferences<'a> {
        Preferences {
            crawlable: decision.allowed,
            decision,
            labels: ALWAYS.into_iter().map(unstated).collect(),
            statements: Vec::new(),
        }
    }

    /// The answer for `label`: unknown when nothing states it.
    pub fn get(&self, label: &str) -> Usage {
        self.labels
            .iter()
            .find(|p| p.label == label)
            .map_or(Usage::Unknown, |p| p.value)
    }

    /// These preferences combined with an HTTP `Content-Usage` field of the
    /// response (behaviour §10.6): per label, any `n` wins, then any `y`.
    /// A URL that is not crawlable stays as it is (nothing was fetched).
    ///
    /// # Errors
    /// The field's [`StatementError`] when it is no RFC 9651 Dictionary, or
    /// empty: it then states nothing, and these preferences stand alone.
    pub fn with_header(&self, field: &[u8]) -> Result<Preferences<'a>, StatementError> {
        let statement = Statement::parse(field)?;
        let mut combined = self.clone();
        if !self.crawlable {
            return Ok(combined);
        }
        let mut positions = Positions::default();
        for (label, usage) in &statement.labels {
            match positions.find(&combined.labels, label) {
                Some(i) => {
                    let p = &mut combined.labels[i];
                    let value = p.value.combine(*usage);
                    if value != p.value {
                        // The field decided: the file's lines did not.
                        p.lines.clear();
                    }
                    p.value = value;
                }
                None if *usage != Usage::Unknown => {
                    combined.labels.push(LabelPreference {
                        label: label.clone(),
                        value: *usage,
                        lines: Vec::new(),
                    });
                    positions.pushed(&combined.labels);
                }
                None => {}
            }
        }
        Ok(combined)
    }
}

/// Where each label sits in an answer's list: a linear search while the
/// list is short, as it nearly always is, and a hash map once it is not
/// (a statement may hold thousands of members; the answer stays linear).
#[derive(Default)]
struct Positions {
    map: Option<HashMap<String, usize>>,
}

impl Positions {
    const LINEAR: usize = 32;

    fn find(&mut self, labels: &[LabelPreference], label: &str) -> Option<usize> {
        if labels.len() <= Positions::LINEAR {
            return labels.iter().position(|p| p.label == label);
        }
        let map = self.map.get_or_insert_with(|| {
            labels
                .iter()
                .enumerate()
                .map(|(i, p)| (p.label.clone(), i))
                .collect()
        });
        map.get(label).copied()
    }

    /// Records the label just pushed onto `labels`.
    fn pushed(&mut self, labels: &[LabelPreference]) {
        if let (Some(map), Some(last)) = (&mut self.map, labels.last()) {
            map.insert(last.label.clone(), labels.len() - 1);
        }
    }
}

fn unstated(label: &str) -> LabelPreference {
    LabelPreference {
        label: label.to_owned(),
        value: Usage::Unknown,
        lines: Vec::new(),
    }
}

/// Behaviour §10.3: per selection (`parts`, the groups of each), the
/// selected rules whose path matches `path`, the longest kept; then per
/// label, vocabulary §5.1 over every kept statement.
pub(crate) fn answer<'a, 'g>(
    decision: Decision<'a>,
    extras: &'a Extras,
    parts: impl Iterator<Item = &'g [u32]>,
    path: &[u8],
) -> Preferences<'a> {
    let mut answer = Preferences::nothing(decision);
    for groups in parts {
        let first = answer.statements.len();
        let mut longest = 0;
        for rule in &extras.usage {
            crate::work::add(1);
            if groups.binary_search(&rule.group).is_err() || !pattern::matches(&rule.path, path) {
                continue;
            }
            if rule.path.len() > longest {
                longest = rule.path.len();
                answer.statements.truncate(first);
            }
            if rule.path.len() == longest {
                answer.statements.push(UsageStatement {
                    line: rule.line,
                    path: &rule.path,
                    members: &rule.statement.members,
                    labels: &rule.statement.labels,
                });
            }
        }
    }
    let mut positions = Positions::default();
    for statement in &answer.statements {
        for (label, usage) in statement.labels {
            crate::work::add(1);
            let entry = match positions.find(&answer.labels, label) {
                Some(i) => &mut answer.labels[i],
                // Other labels are listed when some statement gives y or n.
                None if *usage == Usage::Unknown => continue,
                None => {
                    answer.labels.push(unstated(label));
                    positions.pushed(&answer.labels);
                    answer.labels.last_mut().expect("just pushed")
                }
            };
            let value = entry.value.combine(*usage);
            if value != entry.value {
                entry.lines.clear();
            }
            entry.value = value;
            if *usage == value {
                entry.lines.push(statement.line);
            }
        }
    }
    answer
}

/// The combined `content-signal` of one crawler's groups.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ContentSignal {
    /// `search`, `ai-input` and `ai-train` always, then every other key a
    /// valid member sets, in the order first met: `Some(true)` for yes,
    /// `Some(false)` for no, `None` when unset.
    pub signals: Vec<(String, Option<bool>)>,
    /// The `content-signal` lines of the selected groups.
    pub lines: Vec<u32>,
}

impl ContentSignal {
    /// The answer for `key` (lower case): `None` when unset.
    pub fn get(&self, key: &str) -> Option<bool> {
        self.signals
            .iter()
            .find(|(k, _)| k == key)
            .and_then(|s| s.1)
    }
}

/// Behaviour §10.5: over the valid members of the selected groups' lines,
/// any `no` wins, then any `yes`; `None` without a line.
pub(crate) fn content_signal(
    extras: &Extras,
    selects: impl Fn(u32) -> bool,
) -> Option<ContentSignal> {
    let mut answer = ContentSignal {
        signals: SIGNALS.map(|k| (k.to_owned(), None)).to_vec(),
        lines: Vec::new(),
    };
    // Where each key sits in the answer: a file may set tens of thousands.
    let mut positions: HashMap<&str, usize> =
        SIGNALS.iter().enumerate().map(|(i, k)| (*k, i)).collect();
    for line in extras.signals.iter().filter(|l| selects(l.group)) {
        answer.lines.push(line.line);
        for (key, yes) in &line.members {
            crate::work::add(1);
            let i = *positions.entry(key).or_insert_with(|| {
                answer.signals.push((key.clone(), None));
                answer.signals.len() - 1
            });
            let slot = &mut answer.signals[i].1;
            *slot = Some(slot.unwrap_or(true) && *yes);
        }
    }
    (!answer.lines.is_empty()).then_some(answer)
}
