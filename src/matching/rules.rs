//! `Rules`: the compiled matcher for one crawler (§2.2.2): longest match
//! wins, allow wins ties, and no allocation per question.

use std::sync::{Arc, OnceLock};
use std::time::Duration;

use crate::access::Cause;
use crate::preferences::{self, ContentSignal, Preferences};
use crate::rate::RequestRate;
use crate::robots::{slowest, Group, Inner};
use crate::selection::Selection;
use crate::usage::{Extras, OtherRecord};
use crate::usage_index::UsageRules;
use crate::{percent, url, Profile};

/// Whether the deciding rule allowed or disallowed, or that none matched.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DecisionKind {
    /// An `allow` rule decided.
    Allow,
    /// A `disallow` rule decided.
    Disallow,
    /// No rule matched (or the RFC `/robots.txt` exemption applied).
    NoMatch,
    /// No file's rules: the robots.txt is unavailable (a 404, say) and
    /// everything is allowed. [`Rules::blanket`] says why.
    AllowAll,
    /// No file's rules: the robots.txt is unreachable (a 5xx, a network
    /// error, not fetched yet) and everything is disallowed until the next
    /// try. [`Rules::blanket`] says why, [`Rules::retry_at`] when.
    DisallowAll,
}

impl DecisionKind {
    /// `allow`, `disallow`, `none`, `allow-all` or `disallow-all`.
    pub fn name(self) -> &'static str {
        match self {
            DecisionKind::Allow => "allow",
            DecisionKind::Disallow => "disallow",
            DecisionKind::NoMatch => "none",
            DecisionKind::AllowAll => "allow-all",
            DecisionKind::DisallowAll => "disallow-all",
        }
    }
}

/// A blanket answer that stands where a file's rules would, and why.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Blanket {
    /// Whether everything is allowed (else everything is disallowed).
    pub allowed: bool,
    /// The fetch outcome that caused it.
    pub cause: Cause,
}

/// The answer for one URL and the rule that gave it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Decision<'a> {
    /// May the crawler fetch the URL.
    pub allowed: bool,
    /// The deciding rule's 1-based line, or 0 when no rule matched or a
    /// blanket answer decided.
    pub line: u32,
    /// The deciding rule's kind.
    pub kind: DecisionKind,
    /// The deciding pattern as compared (normalised for the profile; the
    /// synthesised `/dir/$` for Google's index.html rule), or `""`.
    pub pattern: &'a str,
}

impl Decision<'_> {
    const NO_MATCH: Decision<'static> = Decision {
        allowed: true,
        line: 0,
        kind: DecisionKind::NoMatch,
        pattern: "",
    };
}

/// What decided a question, before it is dressed as a [`Decision`].
#[derive(Clone, Copy)]
enum Verdict {
    NoMatch,
    DisallowAll,
    /// The deciding rule's index in `Inner::rules`, and whether it allows.
    Rule(u32, bool),
}

/// The rules that apply to one crawler, compiled for matching.
///
/// Cheap to keep, `Send + Sync`, and independent of the [`Robots`] it came
/// from: dropping that first is fine. Every question takes `&self` and
/// allocates nothing (see [`Rules::decide`] for the one exception), but
/// for the index: the first few questions scan the rules, and the one
/// after them builds an index that every later question uses, once per
/// `Rules` (see [`Rules::compile`]).
///
/// [`Robots`]: crate::Robots
#[derive(Clone, Debug)]
pub struct Rules {
    inner: Inner,
    /// One selection, or one per token in strictest-of mode.
    parts: Box<[Selection]>,
    /// A blanket answer (allow-all or disallow-all) instead of a file's rules.
    blanket: Option<bool>,
    /// Why, for a blanket answer.
    cause: Cause,
    /// When the cache that handed these rules out tries the file again.
    retry_at: Option<u64>,
    /// How a check runs, settled once here rather than at every check.
    check: Check,
    /// `content_signal()`, once asked.
    content_signal: OnceLock<Option<Arc<ContentSignal>>>,
    /// The indices of the other records these rules select, once asked.
    other_records: OnceLock<Box<[u32]>>,
    /// The `content-usage` rules of each selection, once asked.
    usage: OnceLock<UsageRules>,
}

/// Which copy of the check a question takes.
#[derive(Clone, Copy, Debug)]
enum Check {
    Rfc9309,
    Google,
    /// No rule applies and nothing is disallowed: every answer is
    /// `NoMatch`, and the URL need not even be cut (a site without a
    /// robots.txt, a crawler that no group names and no `*` group).
    NoMatch,
}

impl Check {
    fn new(profile: Profile, allows_everything: bool) -> Check {
        match profile {
            _ if allows_everything => Check::NoMatch,
            Profile::Rfc9309 => Check::Rfc9309,
            Profile::Google => Check::Google,
        }
    }
}

impl Rules {
    /// `parts` holds, per selection, the tokens merged into it.
    pub(crate) fn new(inner: Inner, parts: Vec<&[&[u8]]>) -> Rules {
        let parts: Box<[Selection]> = parts
            .into_iter()
            .map(|tokens| select(&inner, tokens))
            .collect();
        Rules {
            check: Check::new(inner.profile, parts.iter().all(|p| p.len() == 0)),
            inner,
            parts,
            blanket: None,
            cause: Cause::Caller,
            retry_at: None,
            content_signal: OnceLock::new(),
            other_records: OnceLock::new(),
            usage: OnceLock::new(),
        }
    }

    /// Rules that allow everything: what an unavailable robots.txt means
    /// (§2.3.1.3, a 404). Decisions have line 0 and kind
    /// [`DecisionKind::AllowAll`]. Their checks, like those of any rules
    /// that match nothing, answer without reading the URL.
    pub fn allow_all(profile: Profile) -> Rules {
        Rules::from_blanket(
            profile,
            Blanket {
                allowed: true,
                cause: Cause::Caller,
            },
        )
    }

    /// Rules that disallow everything: what an unreachable robots.txt means
    /// (§2.3.1.4, a 5xx), until it can be fetched. Decisions have line 0 and
    /// kind [`DecisionKind::DisallowAll`]; in the RFC profile `/robots.txt`
    /// itself stays allowed (kind [`DecisionKind::NoMatch`]).
    pub fn disallow_all(profile: Profile) -> Rules {
        Rules::from_blanket(
            profile,
            Blanket {
                allowed: false,
                cause: Cause::Caller,
            },
        )
    }

    /// Rules that answer `blanket` for every URL, reporting its cause.
    pub fn from_blanket(profile: Profile, blanket: Blanket) -> Rules {
        let empty = crate::Robots::parse_with(b"", &crate::Options::new(profile));
        Rules {
            inner: empty.inner,
            parts: Box::new([]),
            blanket: Some(blanket.allowed),
            cause: blanket.cause,
            retry_at: None,
            check: Check::new(profile, blanket.allowed),
            content_signal: OnceLock::new(),
            other_records: OnceLock::new(),
            usage: OnceLock::new(),
        }
    }

    /// These rules with `retry_at`: when the cache that hands them out will
    /// fetch the file again (ms, the cache's clock), after a failed fetch.
    pub fn with_retry_at(mut self, retry_at: Option<u64>) -> Rules {
        self.retry_at = retry_at;
        self
    }

    /// When the robots.txt these rules stand for will be fetched again
    /// (ms), set when the last fetch failed: the rules are then an old copy
    /// kept meanwhile, or a disallow-all. `None` otherwise.
    pub fn retry_at(&self) -> Option<u64> {
        self.retry_at
    }

    /// The blanket answer and its cause, for rules that stand where a
    /// file's rules would; `None` for a file's rules.
    pub fn blanket(&self) -> Option<Blanket> {
        self.blanket.map(|allowed| Blanket {
            allowed,
            cause: self.cause,
        })
    }

    /// `Some(allowed)` for a blanket answer ([`Rules::allow_all`],
    /// [`Rules::disallow_all`], a cache's answer for a file it could not
    /// use), `None` for a file's rules.
    pub fn blanket_answer(&self) -> Option<bool> {
        self.blanket
    }

    /// May the crawler fetch `url`? `url` may be absolute, scheme-relative
    /// or a path; only its path, params and query are matched.
    ///
    /// ```
    /// let robots = robotstxt::Robots::parse(b"User-agent: *\nDisallow: /a\nAllow: /a/b\n");
    /// let rules = robots.rules_for("ExampleBot")?;
    /// assert!(rules.can_fetch("https://example.com/a/b/c"));
    /// assert!(!rules.can_fetch("/a/x"));
    /// # Ok::<(), robotstxt::Error>(())
    /// ```
    pub fn can_fetch(&self, url: impl AsRef<[u8]>) -> bool {
        match self.verdict(url.as_ref()) {
            Verdict::NoMatch => true,
            Verdict::DisallowAll => false,
            Verdict::Rule(_, allow) => allow,
        }
    }

    /// The answer for `url` and the rule that decided it.
    ///
    /// Cost: one binary search over the rules' literal prefixes and the few
    /// rules that share a prefix with the path; O(path × patterns) at worst
    /// (`*` never backtracks). The first few questions scan every rule
    /// instead, and the next one builds the index (see [`Rules::compile`]).
    /// Allocates nothing but that index, except in the RFC
    /// profile for a URL whose path needs percent-normalising and grows
    /// past 4 KiB on the way (one temporary buffer).
    pub fn decide(&self, url: impl AsRef<[u8]>) -> Decision<'_> {
        match self.verdict(url.as_ref()) {
            Verdict::NoMatch if self.blanket == Some(true) => Decision {
                kind: DecisionKind::AllowAll,
                ..Decision::NO_MATCH
            },
            Verdict::NoMatch => Decision::NO_MATCH,
            Verdict::DisallowAll => Decision {
                allowed: false,
                line: 0,
                kind: DecisionKind::DisallowAll,
                pattern: "",
            },
            Verdict::Rule(id, _) => {
                let rule = &self.inner.rules()[id as usize];
                Decision {
                    allowed: rule.allow(),
                    line: rule.line(),
                    kind: if rule.allow() {
                        DecisionKind::Allow
                    } else {
                        DecisionKind::Disallow
                    },
                    pattern: self.inner.pattern(rule),
                }
            }
        }
    }

    fn verdict(&self, url: &[u8]) -> Verdict {
        // One copy of the check per profile: what differs between them is
        // then settled when compiling, not asked at every step.
        match self.check {
            Check::Rfc9309 => self.verdict_in::<true>(url),
            Check::Google => self.verdict_in::<false>(url),
            Check::NoMatch => Verdict::NoMatch,
        }
    }

    /// `verdict` in the RFC profile (`RFC`) or the Google profile.
    #[inline(never)]
    fn verdict_in<const RFC: bool>(&self, url: &[u8]) -> Verdict {
        with_path::<RFC, _>(url, |path| self.decide_path::<RFC>(path))
    }

    fn decide_path<const RFC: bool>(&self, path: &[u8]) -> Verdict {
        // §2.2.2: /robots.txt is implicitly allowed (RFC profile only).
        if RFC && path == b"/robots.txt" {
            return Verdict::NoMatch;
        }
        if self.blanket == Some(false) {
            return Verdict::DisallowAll;
        }
        let mut first_allow = None;
        for part in self.parts.iter() {
            match part.best(&self.inner, path) {
                Some((id, false)) => return Verdict::Rule(id, false),
                Some((id, true)) => first_allow = first_allow.or(Some(id)),
                None => {}
            }
        }
        first_allow.map_or(Verdict::NoMatch, |id| Verdict::Rule(id, true))
    }

    /// Builds the rules' index now, where the check after the first few
    /// would. A selection answers its first questions by scanning its
    /// rules, which costs far less than the index when a copy of
    /// robots.txt gets a handful of questions before it expires; the index
    /// answers a large file's later ones faster. Call this to have every
    /// check take the index from the first, and none of them allocate;
    /// the index of the `content-usage` rules, which the first
    /// [`Rules::preferences`] would build, is built too. Changes no answer.
    ///
    /// ```
    /// let robots = robotstxt::Robots::parse(b"User-agent: *\nDisallow: /a\n");
    /// let rules = robots.rules_for("ExampleBot")?;
    /// rules.compile();
    /// assert!(!rules.can_fetch("/a/1"));
    /// # Ok::<(), robotstxt::Error>(())
    /// ```
    pub fn compile(&self) {
        for part in self.parts.iter() {
            part.index(&self.inner);
        }
        if let Some(extras) = self.inner.extras() {
            self.usage_index(extras);
        }
    }

    /// The index of each selection's `content-usage` rules, built once.
    fn usage_index(&self, extras: &Extras) -> &UsageRules {
        self.usage.get_or_init(|| {
            UsageRules::build(&extras.usage, self.parts.iter().map(|p| &p.groups[..]))
        })
    }

    #[cfg(test)]
    pub(crate) fn parts(&self) -> &[Selection] {
        &self.parts
    }

    /// Brings these rules into the CPU cache before a batch of checks:
    /// about one load per cache line of the index (of a large index, 256
    /// evenly spaced lines per array), issued together so that their
    /// misses overlap, where a check on rules not used lately would meet
    /// them one after another. Changes no answer. Worth it before a batch
    /// on rules that have gone cold; the Node binding's batch calls do it
    /// (BENCHMARKS.md, `filterAllowed`).
    ///
    /// ```
    /// let robots = robotstxt::Robots::parse(b"User-agent: *\nDisallow: /a\n");
    /// let rules = robots.rules_for("ExampleBot")?;
    /// rules.prefetch();
    /// let urls = ["/a/1", "/b/2"];
    /// assert_eq!(urls.map(|u| rules.can_fetch(u)), [false, true]);
    /// # Ok::<(), robotstxt::Error>(())
    /// ```
    pub fn prefetch(&self) {
        // 256 lines (16 KiB) per array: the whole index up to some 300
        // rules, and the first steps of every search in larger ones.
        // Checks on cold rules took 3-6% less than with 64; 1,024 saved
        // no more.
        const LINES: usize = 256;
        for index in self.parts.iter().filter_map(Selection::built) {
            index.prefetch(LINES);
        }
        crate::prefetch::slice(self.inner.text(), LINES);
    }

    /// The usage preferences that apply to `url` (behaviour §10.3–§10.4):
    /// of the selected groups' `content-usage` rules whose path matches,
    /// those of the greatest length, combined per label (any `n` wins,
    /// then any `y`). A URL these rules disallow gets none
    /// (`crawlable: false`). Allocates the answer, and for an answer that
    /// combines several statements, one table of the file's labels.
    ///
    /// ```
    /// use robotstxt::{Robots, Usage};
    /// let robots = Robots::parse(b"User-agent: *\nContent-Usage: train-ai=n\nContent-Usage: /blog/ train-ai=y\n");
    /// let rules = robots.rules_for("ExampleBot")?;
    /// assert_eq!(rules.preferences("https://a.test/shop").get("train-ai"), Usage::No);
    /// assert_eq!(rules.preferences("https://a.test/blog/1").get("train-ai"), Usage::Yes);
    /// assert_eq!(rules.preferences("https://a.test/blog/1").get("search"), Usage::Unknown);
    /// # Ok::<(), robotstxt::Error>(())
    /// ```
    pub fn preferences(&self, url: impl AsRef<[u8]>) -> Preferences<'_> {
        let url = url.as_ref();
        let decision = self.decide(url);
        let extras = self.inner.extras().filter(|_| decision.allowed);
        let Some(extras) = extras else {
            return Preferences::nothing(decision);
        };
        let parts = self.usage_index(extras);
        match self.inner.profile {
            Profile::Rfc9309 => with_path::<true, _>(url, |path| {
                preferences::answer(decision, extras, parts, path)
            }),
            Profile::Google => with_path::<false, _>(url, |path| {
                preferences::answer(decision, extras, parts, path)
            }),
        }
    }

    /// The `content-signal` of the selected groups (behaviour §10.5), per
    /// key: any `no` wins, then any `yes`; `None` when they hold no
    /// `content-signal` line. Independent of URLs and of what is allowed.
    ///
    /// Combined on the first call and kept with these rules: later calls
    /// cost nothing.
    pub fn content_signal(&self) -> Option<&ContentSignal> {
        self.content_signal_shared().map(|s| &**s)
    }

    /// [`Rules::content_signal`] as a handle that outlives these rules.
    pub fn content_signal_shared(&self) -> Option<&Arc<ContentSignal>> {
        self.content_signal
            .get_or_init(|| {
                let extras = self.inner.extras()?;
                preferences::content_signal(extras, |g| self.selects(g)).map(Arc::new)
            })
            .as_ref()
    }

    /// The records of [`Robots::other_records`] in the selected groups, and
    /// those before the first group (behaviour §10.7).
    ///
    /// [`Robots::other_records`]: crate::Robots::other_records
    pub fn other_records(&self) -> impl ExactSizeIterator<Item = OtherRecord<'_>> + '_ {
        self.other_record_ids()
            .iter()
            .map(|&i| self.inner.other(i as usize).expect("in range"))
    }

    /// The `index`-th of [`Rules::other_records`] (from 0); O(1) once the
    /// first call has listed them.
    pub fn other_record(&self, index: usize) -> Option<OtherRecord<'_>> {
        let id = *self.other_record_ids().get(index)?;
        self.inner.other(id as usize)
    }

    /// Which of the file's other records these rules select, listed once.
    fn other_record_ids(&self) -> &[u32] {
        self.other_records.get_or_init(|| {
            (0..self.inner.other_count())
                .filter(|&i| {
                    crate::work::add(1);
                    let record = self.inner.other(i).expect("in range");
                    record.group.is_none_or(|g| self.selects(g))
                })
                .map(|i| i as u32)
                .collect()
        })
    }

    fn selects(&self, group: u32) -> bool {
        self.parts
            .iter()
            .any(|p| p.groups.binary_search(&group).is_ok())
    }

    /// The crawl delay: the largest valid `crawl-delay` of the selected
    /// groups, or `None` when they set none (the caller's floor applies).
    pub fn crawl_delay(&self) -> Option<Duration> {
        self.parts.iter().filter_map(|p| p.crawl_delay).max()
    }

    /// The slowest valid `request-rate` of the selected groups.
    pub fn request_rate(&self) -> Option<RequestRate> {
        self.parts
            .iter()
            .fold(None, |acc, p| slowest(acc, p.request_rate))
    }

    /// The profile of the file these rules came from.
    pub fn profile(&self) -> Profile {
        self.inner.profile
    }

    /// How many rules apply (over all tokens in strictest-of mode).
    pub fn len(&self) -> usize {
        self.parts.iter().map(Selection::len).sum()
    }

    /// Whether no rule applies: everything is allowed.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// Runs `f` on the path of `url` as rules match it: cut from the URL and,
/// in the RFC profile (`RFC`), percent-normalised (behaviour §4). On the
/// stack unless the rewritten path is longer than 4 KiB.
#[inline(always)]
pub(crate) fn with_path<const RFC: bool, R>(url: &[u8], f: impl FnOnce(&[u8]) -> R) -> R {
    let parts = url::path_of::<RFC>(url);
    if !parts.slash && !parts.escapable {
        return f(parts.rest);
    }
    // Most rewritten paths fit a small stack buffer: try it before
    // measuring the rewrite.
    let mut small = [0; 256];
    if let Some(len) = rewrite::<RFC>(parts, &mut small) {
        return f(&small[..len]);
    }
    let rest = if RFC {
        percent::normalised_path_len(Profile::Rfc9309, parts.rest)
    } else {
        parts.rest.len()
    };
    let len = usize::from(parts.slash) + rest;
    let mut large = [0; 4096];
    let mut heap = Vec::new();
    let buf: &mut [u8] = if len <= large.len() {
        &mut large
    } else {
        heap.resize(len, 0);
        &mut heap
    };
    let len = rewrite::<RFC>(parts, buf).expect("the buffer fits the rewritten path");
    f(&buf[..len])
}

/// Writes the rewritten path into `buf`; its length, or `None` when it does
/// not fit.
#[inline(never)]
fn rewrite<const RFC: bool>(parts: url::PathParts<'_>, buf: &mut [u8]) -> Option<usize> {
    let (head, tail) = buf.split_at_mut(usize::from(parts.slash));
    head.fill(b'/');
    let n = if RFC {
        percent::normalise_path_into(Profile::Rfc9309, parts.rest, tail)?
    } else {
        tail.get_mut(..parts.rest.len())?
            .copy_from_slice(parts.rest);
        parts.rest.len()
    };
    Some(head.len() + n)
}

/// §2.2.1: every group naming any of `tokens`, else every `*` group.
fn select(inner: &Inner, tokens: &[&[u8]]) -> Selection {
    let named = |g: &Group| {
        crate::work::add(tokens.len() * g.agents.len());
        tokens.iter().any(|t| inner.names(g, t))
    };
    let any_named = inner.groups().iter().any(named);
    let chosen = inner.groups().iter().enumerate().filter(|(_, g)| {
        if any_named {
            named(g)
        } else {
            inner.is_global(g)
        }
    });
    let mut crawl_delay = None;
    let mut request_rate = None;
    let mut groups = Vec::new();
    for (i, group) in chosen {
        crawl_delay = crawl_delay.max(group.crawl_delay());
        request_rate = slowest(request_rate, group.request_rate);
        groups.push(i as u32);
    }
    Selection::new(inner, groups, crawl_delay, request_rate)
}
