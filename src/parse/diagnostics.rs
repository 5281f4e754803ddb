//! Per-line findings of a parse, for linting a robots.txt.

use crate::LineKind;

/// What one line of a parsed body has to report. Only lines with something
/// to report are listed: unknown or invalid lines, and lines with a flag.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Diagnostic {
    /// 1-based line number.
    pub line: u32,
    /// What the line is, from its key.
    pub kind: LineKind,
    /// The key is one of Google's accepted typos (`useragent`, `dissallow`…).
    pub typo: bool,
    /// `key value` without a colon, accepted as Google does.
    pub missing_colon: bool,
    /// Google profile: the line was cut to 16,663 bytes.
    pub too_long: bool,
    /// A group record (`allow`, `disallow`, `crawl-delay`, `request-rate`)
    /// before any `user-agent` line: ignored.
    pub outside_group: bool,
    /// A `crawl-delay` or `request-rate` that does not parse (ignored), or
    /// an `allow`/`disallow` value that starts with neither `/` nor `*`
    /// (still applied, as Google does).
    pub invalid_value: bool,
    /// The key is none the library knows; the line is ignored.
    pub unknown_key: bool,
    /// A `content-usage` statement that is no RFC 9651 Dictionary: the rule
    /// is kept and states nothing (behaviour §10.2).
    pub invalid_statement: bool,
    /// A `content-usage` line with a path and no statement: the rule is
    /// kept and states nothing.
    pub empty_statement: bool,
    /// A `content-usage` label whose value is not the token `y` or `n`
    /// (unknown), or a `content-signal` member that is not `key=yes|no`
    /// (ignored).
    pub unknown_preference: bool,
}

impl Diagnostic {
    /// The names of the flags that are set, in a fixed order: `typo`,
    /// `missing-colon`, `too-long`, `outside-group`, `invalid-value`,
    /// `unknown-key`, `invalid-statement`, `empty-statement`,
    /// `unknown-preference`. (A new flag goes into `worth_reporting` too.)
    pub fn flag_names(&self) -> impl Iterator<Item = &'static str> {
        [
            (self.typo, "typo"),
            (self.missing_colon, "missing-colon"),
            (self.too_long, "too-long"),
            (self.outside_group, "outside-group"),
            (self.invalid_value, "invalid-value"),
            (self.unknown_key, "unknown-key"),
            (self.invalid_statement, "invalid-statement"),
            (self.empty_statement, "empty-statement"),
            (self.unknown_preference, "unknown-preference"),
        ]
        .into_iter()
        .filter_map(|(set, name)| set.then_some(name))
    }

    /// A diagnostic of line `line` with no flag set, for code that builds
    /// or maps reports (a binding's tests, say).
    pub fn new(line: u32, kind: LineKind) -> Self {
        Diagnostic {
            line,
            kind,
            typo: false,
            missing_colon: false,
            too_long: false,
            outside_group: false,
            invalid_value: false,
            unknown_key: kind == LineKind::Unknown,
            invalid_statement: false,
            empty_statement: false,
            unknown_preference: false,
        }
    }

    /// Asked of every line a parse reads: the flags are or-ed, not listed.
    pub(crate) fn worth_reporting(&self) -> bool {
        matches!(self.kind, LineKind::Unknown | LineKind::Invalid)
            | self.typo
            | self.missing_colon
            | self.too_long
            | self.outside_group
            | self.invalid_value
            | self.unknown_key
            | self.invalid_statement
            | self.empty_statement
            | self.unknown_preference
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn worth_reporting_is_a_listed_flag_or_a_line_without_a_known_key() {
        let kinds = [LineKind::Allow, LineKind::Unknown, LineKind::Invalid];
        for kind in kinds {
            for bits in 0..512u16 {
                let mut d = Diagnostic::new(1, kind);
                let flag = |i: u16| bits & (1 << i) != 0;
                (d.typo, d.missing_colon, d.too_long) = (flag(0), flag(1), flag(2));
                (d.outside_group, d.invalid_value) = (flag(3), flag(4));
                d.unknown_key |= flag(5);
                (d.invalid_statement, d.empty_statement) = (flag(6), flag(7));
                d.unknown_preference = flag(8);
                let listed = d.flag_names().next().is_some();
                let keyless = matches!(kind, LineKind::Unknown | LineKind::Invalid);
                assert_eq!(d.worth_reporting(), listed || keyless, "{d:?}");
            }
        }
    }
}
