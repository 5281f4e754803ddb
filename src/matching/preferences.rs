//! The usage-preference answers (behaviour §10.3–§10.6): for one URL, the
//! longest matching `content-usage` rules combined per label; per crawler,
//! the `content-signal` of its groups; and an HTTP `Content-Usage` field
//! combined with either.

use std::borrow::Cow;
use std::ops::Deref;

use foldhash::HashMap;
use smallvec::SmallVec;

use crate::rules::Decision;
use crate::usage::{Extras, Member, Statement, StatementError, Usage};
use crate::usage_index::UsageRules;

/// Labels every answer holds, stated or not (vocabulary §4.1, §4.2).
const ALWAYS: [&str; 2] = ["train-ai", "search"];

/// A label no earlier statement of an answer placed.
const NOT_PLACED: u32 = u32::MAX;

/// Content-Signal keys every answer holds, set or not.
const SIGNALS: [&str; 3] = ["search", "ai-input", "ai-train"];

/// One label's answer and the lines that supplied it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct LabelPreference<'a> {
    /// The label (`train-ai`, `search`, or any other a statement gives),
    /// borrowed from the rules unless an HTTP field brought it.
    pub label: Cow<'a, str>,
    /// `y`, `n`, or unknown.
    pub value: Usage,
    /// The lines whose statements gave this value (for unknown: those that
    /// named the label with another value); empty when none did. A value
    /// from an HTTP field adds no line.
    pub lines: Lines,
}

impl LabelPreference<'_> {
    /// This answer, owning its label.
    pub fn into_owned(self) -> LabelPreference<'static> {
        LabelPreference {
            label: Cow::Owned(self.label.into_owned()),
            value: self.value,
            lines: self.lines,
        }
    }
}

/// Line numbers, read as a slice. Up to two are held without a heap
/// block: nearly every label has one line, and a statement may give tens
/// of thousands of labels.
#[derive(Clone, Default, PartialEq, Eq, Hash)]
pub struct Lines(SmallVec<[u32; 2]>);

impl Lines {
    fn push(&mut self, line: u32) {
        self.0.push(line);
    }

    fn clear(&mut self) {
        self.0.clear();
    }
}

impl Deref for Lines {
    type Target = [u32];

    fn deref(&self) -> &[u32] {
        &self.0
    }
}

impl std::fmt::Debug for Lines {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl<'l> IntoIterator for &'l Lines {
    type Item = &'l u32;
    type IntoIter = std::slice::Iter<'l, u32>;

    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
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
    /// Each label's number (`LabelIds`).
    label_ids: &'a [u32],
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
    pub labels: Vec<LabelPreference<'a>>,
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
        let mut positions = Positions::new(self.labels.iter().map(|p| &*p.label).collect());
        for (label, usage) in &statement.labels {
            match positions.find(label) {
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
                        label: Cow::Owned(label.clone()),
                        value: *usage,
                        lines: Lines::default(),
                    });
                    positions.pushed(label);
                }
                None => {}
            }
        }
        Ok(combined)
    }
}

/// Where each label sits in an answer's list, by names borrowed from where
/// the labels came from: a linear search while the list is short, as it
/// nearly always is, and a hash map once it is not (a statement may hold
/// thousands of members; the answer stays linear).
struct Positions<'k> {
    names: Vec<&'k str>,
    map: Option<HashMap<&'k str, usize>>,
}

impl<'k> Positions<'k> {
    const LINEAR: usize = 32;

    fn new(names: Vec<&'k str>) -> Positions<'k> {
        Positions { names, map: None }
    }

    fn find(&mut self, label: &str) -> Option<usize> {
        if self.names.len() <= Positions::LINEAR {
            return self.names.iter().position(|n| *n == label);
        }
        let names = &self.names;
        let map = self
            .map
            .get_or_insert_with(|| names.iter().enumerate().map(|(i, n)| (*n, i)).collect());
        map.get(label).copied()
    }

    /// Records the label just pushed onto the answer's list.
    fn pushed(&mut self, label: &'k str) {
        if let Some(map) = &mut self.map {
            map.insert(label, self.names.len());
        }
        self.names.push(label);
    }
}

fn unstated(label: &str) -> LabelPreference<'_> {
    LabelPreference {
        label: Cow::Borrowed(label),
        value: Usage::Unknown,
        lines: Lines::default(),
    }
}

/// Behaviour §10.3: per selection (the index of each's rules), the
/// selected rules whose path matches `path`, the longest kept; then per
/// label, vocabulary §5.1 over every kept statement.
pub(crate) fn answer<'a>(
    decision: Decision<'a>,
    extras: &'a Extras,
    usage: &'a UsageRules,
    path: &[u8],
) -> Preferences<'a> {
    let mut answer = Preferences::nothing(decision);
    for index in usage.parts.iter() {
        let first = answer.statements.len();
        index.longest(&extras.usage, path, |id| {
            let rule = &extras.usage[id as usize];
            answer.statements.push(UsageStatement {
                line: rule.line,
                path: &rule.path,
                members: &rule.statement.members,
                labels: &rule.statement.labels,
                label_ids: usage.labels.of(id),
            });
        });
        // File order: paths of one length come one after another.
        answer.statements[first..].sort_unstable_by_key(|s| s.line);
    }
    // Per label id, its place in the answer. One statement needs none: it
    // names each label once (repeats collapse).
    let several = answer.statements.len() > 1;
    let mut places = match several {
        true => vec![NOT_PLACED; usage.labels.count()],
        false => Vec::new(),
    };
    for statement in &answer.statements {
        for ((label, usage), &id) in statement.labels.iter().zip(statement.label_ids) {
            crate::work::add(1);
            let place = match several {
                true => places[id as usize],
                false => NOT_PLACED,
            };
            let at = match place {
                NOT_PLACED => ALWAYS.iter().position(|a| a == label),
                place => Some(place as usize),
            };
            let i = match at {
                Some(i) => i,
                // Other labels are listed when some statement gives y or n.
                None if *usage == Usage::Unknown => continue,
                None => {
                    answer.labels.push(unstated(label));
                    answer.labels.len() - 1
                }
            };
            if several {
                places[id as usize] = i as u32;
            }
            let entry = &mut answer.labels[i];
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
