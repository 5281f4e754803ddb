//! Usage-preference lines (behaviour §10): a `Content-Usage` rule's path
//! and statement, a `Content-Signal` line's members, and every record the
//! library does not read, kept as written. Parsed once with the file;
//! files without such lines carry none of this.

use sfv::{Dictionary, FieldType, ListEntry, Parser};

use crate::record::trim;
use crate::robots::Span;
use crate::{percent, Profile};

/// One label's preference (vocabulary §5): `y`, `n`, or unknown (not
/// stated, or stated with a value other than the tokens `y` and `n`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Usage {
    /// The token `y`: the use is allowed.
    Yes,
    /// The token `n`: the use is not allowed.
    No,
    /// Nothing usable stated.
    Unknown,
}

impl Usage {
    /// `"y"`, `"n"`, or `None` for unknown.
    pub fn name(self) -> Option<&'static str> {
        match self {
            Usage::Yes => Some("y"),
            Usage::No => Some("n"),
            Usage::Unknown => None,
        }
    }

    /// Vocabulary §5.1: any `n` wins, then any `y`.
    pub(crate) fn combine(self, other: Usage) -> Usage {
        match (self, other) {
            (Usage::No, _) | (_, Usage::No) => Usage::No,
            (Usage::Yes, _) | (_, Usage::Yes) => Usage::Yes,
            _ => Usage::Unknown,
        }
    }

    fn of(entry: &ListEntry) -> Usage {
        let ListEntry::Item(item) = entry else {
            return Usage::Unknown;
        };
        match item.bare_item.as_token().map(|t| t.as_str()) {
            Some("y") => Usage::Yes,
            Some("n") => Usage::No,
            _ => Usage::Unknown,
        }
    }
}

/// One member of a statement as written (after repeats: the last wins),
/// for labels the vocabulary may add later: the key, and its value
/// serialised as RFC 9651 writes it, parameters included (`n`, `?1`,
/// `"n"`, `y;v=2`, `(a b)`).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Member {
    /// The label.
    pub key: String,
    /// The value with its parameters, in RFC 9651 form.
    pub value: String,
}

/// Why a statement (a `Content-Usage` value, or the HTTP field) states
/// nothing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum StatementError {
    /// Not an RFC 9651 Dictionary (`Train-AI=n`, `a=b c`, a trailing `,`).
    Syntax,
    /// No member at all (`Content-Usage: /path`).
    Empty,
}

impl std::fmt::Display for StatementError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            StatementError::Syntax => {
                "the Content-Usage statement is not an RFC 9651 Dictionary \
                 (lower-case keys, `key=value` members split by commas): it states nothing"
            }
            StatementError::Empty => "the Content-Usage statement is empty: it states nothing",
        })
    }
}

impl std::error::Error for StatementError {}

/// A parsed statement: each label's preference and the raw members.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Statement {
    pub labels: Vec<(String, Usage)>,
    pub members: Vec<Member>,
}

impl Statement {
    /// Vocabulary §6.5: an RFC 9651 Dictionary; a repeated key keeps its
    /// last member (the parser's map does so).
    pub fn parse(text: &[u8]) -> Result<Statement, StatementError> {
        crate::work::add(1 + text.len() / 16);
        let dictionary: Dictionary = Parser::new(text)
            .parse()
            .map_err(|_| StatementError::Syntax)?;
        if dictionary.is_empty() {
            return Err(StatementError::Empty);
        }
        let mut statement = Statement::default();
        for (key, entry) in &dictionary {
            let mut one = Dictionary::new();
            one.insert(key.clone(), entry.clone());
            // `key=value;params`, or `key;params` for Boolean true.
            let written = one.serialize().unwrap_or_default();
            let rest = &written[key.as_str().len()..];
            let value = match rest.strip_prefix('=') {
                Some(value) => value.to_owned(),
                None => format!("?1{rest}"),
            };
            statement
                .labels
                .push((key.as_str().to_owned(), Usage::of(entry)));
            statement.members.push(Member {
                key: key.as_str().to_owned(),
                value,
            });
        }
        Ok(statement)
    }

    /// Whether a label states something other than `y` or `n`.
    pub fn has_unknown(&self) -> bool {
        self.labels.iter().any(|(_, u)| *u == Usage::Unknown)
    }
}

/// A `Content-Usage` line of a group.
#[derive(Clone, Debug)]
pub(crate) struct UsageRule {
    pub group: u32,
    pub line: u32,
    /// The path, normalised as an `allow` pattern is (`/` when none).
    pub path: Vec<u8>,
    /// Empty when the statement states nothing (reported).
    pub statement: Statement,
}

/// Splits a `Content-Usage` value into its path pattern and statement
/// (behaviour §10.2): a value starting with `/` has a path up to the first
/// space or tab; any other value is a statement for `/`.
pub(crate) fn usage_rule(
    profile: Profile,
    group: u32,
    line: u32,
    value: &[u8],
) -> (UsageRule, Result<(), StatementError>) {
    let (path, statement) = if value.first() == Some(&b'/') {
        let end = value
            .iter()
            .position(|&b| b == b' ' || b == b'\t')
            .unwrap_or(value.len());
        (&value[..end], trim(Profile::Rfc9309, &value[end..]))
    } else {
        (&b"/"[..], value)
    };
    let mut normalised = Vec::with_capacity(path.len());
    percent::normalise_pattern(profile, path, &mut normalised);
    let (statement, outcome) = match Statement::parse(statement) {
        Ok(statement) => (statement, Ok(())),
        Err(error) => (Statement::default(), Err(error)),
    };
    let rule = UsageRule {
        group,
        line,
        path: normalised,
        statement,
    };
    (rule, outcome)
}

/// A `Content-Signal` line of a group: its valid members, keys lower-case.
#[derive(Clone, Debug)]
pub(crate) struct SignalLine {
    pub group: u32,
    pub line: u32,
    pub members: Vec<(String, bool)>,
}

/// Reads a `Content-Signal` value (behaviour §10.5): members split on `,`,
/// each `key=yes|no` (ASCII case-insensitive, spaces and tabs trimmed);
/// empty members are skipped. Returns the valid members and whether any
/// member was not valid (reported and ignored).
pub(crate) fn signal_members(value: &[u8]) -> (Vec<(String, bool)>, bool) {
    let mut members = Vec::new();
    let mut invalid = false;
    for member in value.split(|&b| b == b',') {
        let member = trim(Profile::Rfc9309, member);
        if member.is_empty() {
            continue;
        }
        let parsed = member.iter().position(|&b| b == b'=').and_then(|eq| {
            let key = trim(Profile::Rfc9309, &member[..eq]);
            let value = trim(Profile::Rfc9309, &member[eq + 1..]);
            let yes = if value.eq_ignore_ascii_case(b"yes") {
                true
            } else if value.eq_ignore_ascii_case(b"no") {
                false
            } else {
                return None;
            };
            let key = std::str::from_utf8(key).ok().filter(|k| !k.is_empty())?;
            Some((key.to_ascii_lowercase(), yes))
        });
        match parsed {
            Some(member) => members.push(member),
            None => invalid = true,
        }
    }
    (members, invalid)
}

/// A line whose key the library does not read (behaviour §10.7), or a
/// `Content-Signal` line before the first group, as written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct OtherRecord<'a> {
    /// The key as written (trimmed).
    pub key: &'a [u8],
    /// The value: the rest of the line, comment removed, trimmed.
    pub value: &'a [u8],
    /// 1-based line number.
    pub line: u32,
    /// The 0-based index of the group the line is in, or `None` before the
    /// first `user-agent` line (global).
    pub group: Option<u32>,
}

impl OtherRecord<'_> {
    /// The key in ASCII lower case.
    pub fn key_lower(&self) -> Vec<u8> {
        self.key.to_ascii_lowercase()
    }
}

/// An other record as kept: its key and value in the parse's text (one
/// allocation for the whole parse, as HTML served as robots.txt has such a
/// line on nearly every line).
#[derive(Clone, Copy, Debug)]
pub(crate) struct OtherSpan {
    pub key: Span,
    pub value: Span,
    pub line: u32,
    /// `GLOBAL` before the first group.
    group: u32,
}

const GLOBAL: u32 = u32::MAX;

impl OtherSpan {
    pub fn new(key: Span, value: Span, line: u32, group: Option<u32>) -> OtherSpan {
        OtherSpan {
            key,
            value,
            line,
            group: group.unwrap_or(GLOBAL),
        }
    }

    pub fn group(&self) -> Option<u32> {
        (self.group != GLOBAL).then_some(self.group)
    }
}

/// What a file holds beyond access rules: kept only when it has some.
#[derive(Clone, Debug, Default)]
pub(crate) struct Extras {
    pub usage: Vec<UsageRule>,
    pub signals: Vec<SignalLine>,
    pub others: Box<[OtherSpan]>,
}

impl Extras {
    pub fn is_empty(&self) -> bool {
        self.usage.is_empty() && self.signals.is_empty() && self.others.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn labels(text: &str) -> Result<Vec<(String, Usage)>, StatementError> {
        Statement::parse(text.as_bytes()).map(|s| s.labels)
    }

    #[test]
    fn statements_are_rfc_9651_dictionaries() {
        let yes_no = labels("train-ai=n, search=y").unwrap();
        assert_eq!(
            yes_no,
            [
                ("train-ai".into(), Usage::No),
                ("search".into(), Usage::Yes)
            ]
        );
        for bad in [
            "Train-AI=n",
            "train-ai=n,",
            "train-ai=",
            "a=b c",
            "=n",
            "a=n;",
        ] {
            assert_eq!(labels(bad), Err(StatementError::Syntax), "{bad}");
        }
        assert_eq!(labels(""), Err(StatementError::Empty));
        // Anything but the tokens y and n is unknown.
        for unknown in ["a=Y", "a=yes", "a=\"n\"", "a=?1", "a=1", "a", "a=(y n)"] {
            assert_eq!(labels(unknown).unwrap()[0].1, Usage::Unknown, "{unknown}");
        }
        // The last member of a repeated key wins; parameters are ignored.
        assert_eq!(labels("a=y, a=n;v=1").unwrap(), [("a".into(), Usage::No)]);
    }

    #[test]
    fn raw_members_keep_values_and_parameters() {
        let s = Statement::parse(b"train-ai=n;q=1, bots, x=\"n\"").unwrap();
        let raw: Vec<(&str, &str)> = s
            .members
            .iter()
            .map(|m| (m.key.as_str(), m.value.as_str()))
            .collect();
        assert_eq!(raw, [("train-ai", "n;q=1"), ("bots", "?1"), ("x", "\"n\"")]);
    }

    #[test]
    fn a_value_is_a_path_then_a_statement() {
        let (rule, ok) = usage_rule(Profile::Rfc9309, 0, 3, b"/a \ttrain-ai=n");
        assert_eq!((rule.path.as_slice(), ok), (&b"/a"[..], Ok(())));
        assert_eq!(rule.statement.labels, [("train-ai".into(), Usage::No)]);
        let (rule, ok) = usage_rule(Profile::Rfc9309, 0, 3, b"train-ai=y");
        assert_eq!((rule.path.as_slice(), ok), (&b"/"[..], Ok(())));
        let (rule, ok) = usage_rule(Profile::Rfc9309, 0, 3, b"/x");
        assert_eq!(
            (rule.path.as_slice(), ok),
            (&b"/x"[..], Err(StatementError::Empty))
        );
        let (rule, _) = usage_rule(Profile::Rfc9309, 0, 3, b"/caf\xc3\xa9 a=n");
        assert_eq!(rule.path, b"/caf%C3%A9");
    }

    #[test]
    fn content_signal_members() {
        let (members, invalid) = signal_members(b"Search=YES, ai-input=no ,, ai-train = no");
        assert!(!invalid);
        assert_eq!(
            members,
            [
                ("search".into(), true),
                ("ai-input".into(), false),
                ("ai-train".into(), false)
            ]
        );
        for bad in ["search", "search=y", "search=true", "search=", "=yes"] {
            let (members, invalid) = signal_members(bad.as_bytes());
            assert!(members.is_empty() && invalid, "{bad}");
        }
        let (members, invalid) = signal_members(b"search=1, ai-train=no");
        assert_eq!((members.len(), invalid), (1, true));
    }
}
