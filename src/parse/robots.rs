//! `Robots`: a body parsed once into groups and normalised rules (§2.1–2.2),
//! immutable and shared.

use std::cell::Cell;
use std::ops::Range;
use std::sync::Arc;
use std::time::Duration;

use crate::agent::{self, Named};
use crate::append;
use crate::lex::{Lines, RawLine};
use crate::packed::Packed;
use crate::rate::{self, RequestRate};
use crate::record::{self, LineKind};
use crate::selection::Indexes;
use crate::usage::{self, Extras, OtherRecord, OtherSpan};
use crate::{percent, Diagnostic, Error, Options, Profile, Rules};

/// A byte range of `Inner::text`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Span {
    pub start: u32,
    pub len: u32,
}

/// One `allow`/`disallow` rule with a non-empty, normalised pattern: 12
/// bytes, since a large file holds tens of thousands.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Rule {
    pub pattern: Span,
    /// The line number, with `ALLOW` set for an allow rule. The parse limit
    /// keeps line numbers far below 2^31.
    line_and_kind: u32,
}

impl Rule {
    const ALLOW: u32 = 1 << 31;

    pub fn new(pattern: Span, line: u32, allow: bool) -> Rule {
        let kind = if allow { Rule::ALLOW } else { 0 };
        Rule {
            pattern,
            line_and_kind: (line & !Rule::ALLOW) | kind,
        }
    }

    pub fn line(&self) -> u32 {
        self.line_and_kind & !Rule::ALLOW
    }

    pub fn allow(&self) -> bool {
        self.line_and_kind & Rule::ALLOW != 0
    }
}

#[derive(Clone, Debug)]
pub(crate) enum Agent {
    Everyone,
    Token(Span),
}

const NO_DELAY: u64 = u64::MAX;

/// Consecutive `user-agent` lines and the records that follow them.
#[derive(Clone, Debug)]
pub(crate) struct Group {
    pub agents: Range<u32>,
    pub rules: Range<u32>,
    /// The largest valid crawl delay, in nanoseconds (`NO_DELAY`: none):
    /// half the size of an `Option<Duration>`.
    crawl_delay_ns: u64,
    pub request_rate: Option<RequestRate>,
    /// An `allow` or `disallow` line (even an empty one) was seen: the next
    /// `user-agent` line starts a new group.
    closed: bool,
}

impl Group {
    pub fn crawl_delay(&self) -> Option<Duration> {
        (self.crawl_delay_ns != NO_DELAY).then(|| Duration::from_nanos(self.crawl_delay_ns))
    }

    fn add_crawl_delay(&mut self, delay: Option<Duration>) {
        if let Some(delay) = delay.max(self.crawl_delay()) {
            // MAX_DELAY (a year) fits in u64 nanoseconds.
            self.crawl_delay_ns = u64::try_from(delay.as_nanos()).unwrap_or(NO_DELAY - 1);
        }
    }
}

#[derive(Clone, Debug)]
pub(crate) struct Inner {
    pub profile: Profile,
    host: Option<Span>,
    arrays: Packed,
    /// Usage preferences and other records (behaviour §10), when the file
    /// has any.
    extras: Option<Arc<Extras>>,
    /// The rule indexes its selections share.
    pub indexes: Arc<Indexes>,
}

impl Inner {
    pub fn text(&self) -> &[u8] {
        self.arrays.text()
    }

    pub fn rules(&self) -> &[Rule] {
        self.arrays.rules()
    }

    pub fn groups(&self) -> &[Group] {
        self.arrays.groups()
    }

    fn agents(&self) -> &[Agent] {
        self.arrays.agents()
    }

    fn sitemaps(&self) -> &[Span] {
        self.arrays.sitemaps()
    }

    fn diagnostics(&self) -> &[Diagnostic] {
        self.arrays.diagnostics()
    }

    pub fn extras(&self) -> Option<&Extras> {
        self.extras.as_deref()
    }

    pub fn other_count(&self) -> usize {
        self.extras().map_or(0, |e| e.others.len())
    }

    /// The `index`-th other record, its bytes read from the text.
    pub fn other(&self, index: usize) -> Option<OtherRecord<'_>> {
        let span = self.extras()?.others.get(index)?;
        Some(OtherRecord {
            key: self.bytes(span.key),
            value: self.bytes(span.value),
            line: span.line,
            group: span.group(),
        })
    }

    pub fn bytes(&self, span: Span) -> &[u8] {
        let start = span.start as usize;
        &self.text()[start..start + span.len as usize]
    }

    /// Patterns are ASCII: normalising escapes every byte ≥ 0x80.
    pub fn pattern(&self, rule: &Rule) -> &str {
        std::str::from_utf8(self.bytes(rule.pattern)).unwrap_or_default()
    }

    /// Whether `group` names the crawler `token` (case-insensitive, whole).
    pub fn names(&self, group: &Group, token: &[u8]) -> bool {
        self.agents()[group.agents.start as usize..group.agents.end as usize]
            .iter()
            .any(|a| match a {
                Agent::Token(span) => self.bytes(*span).eq_ignore_ascii_case(token),
                Agent::Everyone => false,
            })
    }

    pub fn is_global(&self, group: &Group) -> bool {
        self.agents()[group.agents.start as usize..group.agents.end as usize]
            .iter()
            .any(|a| matches!(a, Agent::Everyone))
    }
}

/// A parsed robots.txt: immutable, cheap to clone, `Send + Sync`.
///
/// Parsing is total: any bytes parse, and lines that make no sense are
/// skipped (and reported by [`Robots::diagnostics`]). Parsing allocates;
/// nothing after it does.
///
/// ```
/// use robotstxt::Robots;
/// let robots = Robots::parse(b"User-agent: *\nDisallow: /private\nSitemap: https://a.test/s.xml\n");
/// let rules = robots.rules_for("ExampleBot")?;
/// assert!(!rules.can_fetch("https://a.test/private/x"));
/// assert_eq!(robots.sitemaps().next(), Some(&b"https://a.test/s.xml"[..]));
/// # Ok::<(), robotstxt::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct Robots {
    pub(crate) inner: Inner,
}

impl Robots {
    /// Parses `body` with the default options (RFC profile, 500 KiB, typos
    /// accepted). Cost: linear in `min(body.len(), 512,000)`.
    pub fn parse(body: &[u8]) -> Robots {
        Robots::parse_with(body, &Options::default())
    }

    /// Parses `body` with `options`.
    ///
    /// Each thread that parses keeps its working vectors between parses,
    /// emptied and trimmed to 128 KiB each (at most 768 KiB; freed with
    /// the thread): parsing one file after another then allocates each
    /// array of the result once, at its final size.
    pub fn parse_with(body: &[u8], options: &Options) -> Robots {
        let mut builder = Builder::new(options.profile(), body.len().min(options.parse_limit()));
        for line in Lines::new(body, options.parse_limit(), options.profile()) {
            // Over half the lines of real files are plain rules
            // (`Disallow: /path`), which need none of the general reading:
            // trims, the key table, checks for diagnostics. Parsing the
            // corpus takes 5-6% less time so.
            if builder.add_plain_rule(&line) {
                continue;
            }
            let record = record::read(
                line.content,
                line.window,
                line.colon,
                options.profile(),
                options.typos(),
            );
            if let Some(record) = record {
                let mut diagnostic = Diagnostic::new(line.number, record.kind);
                diagnostic.typo = record.typo;
                diagnostic.missing_colon = record.missing_colon;
                diagnostic.too_long = line.too_long;
                builder.add(&line, &record, &mut diagnostic);
                if diagnostic.worth_reporting() {
                    builder.filled.diagnostics.push(diagnostic);
                }
            }
        }
        Robots {
            inner: builder.finish(),
        }
    }

    /// The profile the body was parsed with.
    pub fn profile(&self) -> Profile {
        self.inner.profile
    }

    /// The rules for the crawler whose product token is `token` (§2.2.1):
    /// every group naming it, merged in file order; else every `*` group;
    /// else none (everything allowed).
    ///
    /// # Errors
    /// RFC profile: [`Error::InvalidToken`] unless `token` is one or more of
    /// `A-Z a-z _ -`. The Google profile accepts any string, compared whole.
    pub fn rules_for(&self, token: impl AsRef<[u8]>) -> Result<Rules, Error> {
        self.rules_for_any(&[token])
    }

    /// The rules for a crawler known by several tokens: every group naming
    /// any of them, merged (Google's semantics); else every `*` group.
    ///
    /// # Errors
    /// [`Error::NoTokens`] for an empty list; [`Error::InvalidToken`] as
    /// for [`Robots::rules_for`].
    pub fn rules_for_any<T: AsRef<[u8]>>(&self, tokens: &[T]) -> Result<Rules, Error> {
        self.check_tokens(tokens)?;
        let tokens: Vec<&[u8]> = tokens.iter().map(AsRef::as_ref).collect();
        Ok(Rules::new(self.inner.clone(), vec![&tokens[..]]))
    }

    /// Strictest-of: a URL is allowed only if each token's own selection
    /// allows it, and the crawl delay is the largest of them. The way to
    /// honour `GPTBot` and `CCBot` groups as well as your own.
    ///
    /// # Errors
    /// As for [`Robots::rules_for_any`].
    pub fn rules_for_strictest<T: AsRef<[u8]>>(&self, tokens: &[T]) -> Result<Rules, Error> {
        self.check_tokens(tokens)?;
        let tokens: Vec<[&[u8]; 1]> = tokens.iter().map(|t| [t.as_ref()]).collect();
        Ok(Rules::new(
            self.inner.clone(),
            tokens.iter().map(|t| &t[..]).collect(),
        ))
    }

    fn check_tokens<T: AsRef<[u8]>>(&self, tokens: &[T]) -> Result<(), Error> {
        if tokens.is_empty() {
            return Err(Error::NoTokens);
        }
        tokens
            .iter()
            .try_for_each(|t| agent::check_crawler(self.inner.profile, t.as_ref()))
    }

    /// Every `sitemap` value in file order (§2.3.5), as written.
    pub fn sitemaps(&self) -> impl ExactSizeIterator<Item = &[u8]> + '_ {
        self.inner.sitemaps().iter().map(|s| self.inner.bytes(*s))
    }

    /// The `index`-th `sitemap` value (from 0), as written; O(1).
    pub fn sitemap(&self, index: usize) -> Option<&[u8]> {
        let span = self.inner.sitemaps().get(index)?;
        Some(self.inner.bytes(*span))
    }

    /// The first `host` value (Yandex extension), as written.
    pub fn host(&self) -> Option<&[u8]> {
        self.inner.host.map(|s| self.inner.bytes(s))
    }

    /// The lines that have something to report, in line order.
    pub fn diagnostics(&self) -> &[Diagnostic] {
        self.inner.diagnostics()
    }

    /// Every line whose key the library does not read, and every
    /// `Content-Signal` line before the first `user-agent`, in file order
    /// (behaviour §10.7): what `Clean-param`, `LLM-Policy` or a newer key
    /// says is the caller's to read.
    pub fn other_records(&self) -> impl ExactSizeIterator<Item = OtherRecord<'_>> + '_ {
        (0..self.inner.other_count()).map(|i| self.inner.other(i).expect("in range"))
    }

    /// The `index`-th of [`Robots::other_records`] (from 0); O(1).
    pub fn other_record(&self, index: usize) -> Option<OtherRecord<'_>> {
        self.inner.other(index)
    }

    /// How many groups the file has.
    pub fn group_count(&self) -> usize {
        self.inner.groups().len()
    }

    /// How many rules the file has (`index.html` extras included).
    pub fn rule_count(&self) -> usize {
        self.inner.rules().len()
    }
}

struct Builder {
    profile: Profile,
    host: Option<Span>,
    filled: Box<Scratch>,
    extras: Extras,
}

/// The vectors a parse fills. Kept per thread between parses, emptied: a
/// parse then allocates each array of its result once, at its final
/// size, instead of growing fresh vectors and trimming them each time.
#[derive(Default)]
struct Scratch {
    text: Vec<u8>,
    others: Vec<OtherSpan>,
    rules: Vec<Rule>,
    groups: Vec<Group>,
    agents: Vec<Agent>,
    sitemaps: Vec<Span>,
    diagnostics: Vec<Diagnostic>,
}

thread_local! {
    // Boxed: taking and giving it back moves a pointer, not six vectors
    // (a call to memcpy each way, a third of a small file's parse).
    static SCRATCH: Cell<Option<Box<Scratch>>> = const { Cell::new(None) };
}

impl Scratch {
    /// At most this much of each vector is kept: most bodies fit, and a
    /// thread holds at most 6 × 128 KiB between parses.
    const KEPT_BYTES: usize = 128 << 10;

    /// This thread's scratch, empty as `keep` left it (new when the
    /// thread has none, or is ending; a parse that panicked kept none).
    fn take() -> Box<Scratch> {
        SCRATCH
            .try_with(Cell::take)
            .ok()
            .flatten()
            .unwrap_or_default()
    }

    /// Gives the vectors back to this thread, emptied and trimmed to
    /// `KEPT_BYTES` each.
    fn keep(mut self: Box<Self>) {
        fn trim<T>(v: &mut Vec<T>) {
            v.clear();
            v.shrink_to(Scratch::KEPT_BYTES / std::mem::size_of::<T>().max(1));
        }
        trim(&mut self.text);
        trim(&mut self.others);
        trim(&mut self.rules);
        trim(&mut self.groups);
        trim(&mut self.agents);
        trim(&mut self.sitemaps);
        trim(&mut self.diagnostics);
        // A thread being torn down keeps nothing.
        let _ = SCRATCH.try_with(|scratch| scratch.set(Some(self)));
    }
}

impl Builder {
    /// Sized for a body of `len` bytes: its stored text rarely outgrows
    /// the body, and a rule line takes some 30 bytes.
    fn new(profile: Profile, len: usize) -> Self {
        let mut filled = Scratch::take();
        filled.text.reserve(len);
        filled.rules.reserve(len / 32);
        Builder {
            profile,
            host: None,
            filled,
            extras: Extras::default(),
        }
    }

    fn span_from(&self, start: usize) -> Span {
        // The parse limit keeps `text` far below 4 GiB.
        Span {
            start: start as u32,
            len: (self.filled.text.len() - start) as u32,
        }
    }

    /// Stores `bytes`, which lie within `window` (see `append_within`).
    fn store(&mut self, window: &[u8], bytes: &[u8]) -> Span {
        let start = self.filled.text.len();
        append::append_within(&mut self.filled.text, window, bytes);
        self.span_from(start)
    }

    /// Adds `record`, read from `line`.
    fn add(
        &mut self,
        line: &RawLine<'_>,
        record: &record::Record<'_>,
        diagnostic: &mut Diagnostic,
    ) {
        let (kind, value) = (record.kind, record.value);
        match kind {
            LineKind::UserAgent => self.add_agent(line.window, value),
            LineKind::Allow | LineKind::Disallow => {
                // An empty value is no rule (§2.2.2); others should be paths.
                diagnostic.invalid_value = !value.is_empty() && !matches!(value[0], b'/' | b'*');
                let Some(group) = self.filled.groups.last_mut() else {
                    diagnostic.outside_group = true;
                    return;
                };
                group.closed = true;
                if !value.is_empty() {
                    self.add_rule(line, kind == LineKind::Allow, value);
                }
            }
            LineKind::CrawlDelay => {
                let delay = rate::parse_crawl_delay(value);
                diagnostic.invalid_value = delay.is_none();
                match self.filled.groups.last_mut() {
                    Some(group) => group.add_crawl_delay(delay),
                    None => diagnostic.outside_group = true,
                }
            }
            LineKind::RequestRate => {
                let rate = rate::parse_request_rate(value);
                diagnostic.invalid_value = rate.is_none();
                match self.filled.groups.last_mut() {
                    Some(group) => group.request_rate = slowest(group.request_rate, rate),
                    None => diagnostic.outside_group = true,
                }
            }
            LineKind::Sitemap => {
                let span = self.store(line.window, value);
                self.filled.sitemaps.push(span);
            }
            LineKind::Host => {
                if self.host.is_none() {
                    self.host = Some(self.store(line.window, value));
                }
            }
            LineKind::ContentUsage => {
                let Some(group) = self.current_group() else {
                    // Behaviour §10.1: preferences belong to groups only.
                    diagnostic.outside_group = true;
                    return;
                };
                let (rule, parsed) = usage::usage_rule(self.profile, group, line.number, value);
                match parsed {
                    Err(usage::StatementError::Syntax) => diagnostic.invalid_statement = true,
                    Err(usage::StatementError::Empty) => diagnostic.empty_statement = true,
                    Ok(()) => diagnostic.unknown_preference = rule.statement.has_unknown(),
                }
                self.extras.usage.push(rule);
            }
            LineKind::ContentSignal => {
                let (members, invalid) = usage::signal_members(value);
                diagnostic.unknown_preference = invalid;
                match self.current_group() {
                    Some(group) => self.extras.signals.push(usage::SignalLine {
                        group,
                        line: line.number,
                        members,
                    }),
                    None => {
                        // Behaviour §10.5: listed with the other records.
                        diagnostic.outside_group = true;
                        self.add_other(line, record);
                    }
                }
            }
            LineKind::Unknown => self.add_other(line, record),
            LineKind::Invalid => {}
        }
    }

    fn current_group(&self) -> Option<u32> {
        self.filled.groups.len().checked_sub(1).map(|g| g as u32)
    }

    /// Keeps a line the library does not read, as written (behaviour §10.7).
    fn add_other(&mut self, line: &RawLine<'_>, record: &record::Record<'_>) {
        let group = self.current_group();
        let key = self.store(line.window, record.key);
        let value = self.store(line.window, record.value);
        let span = OtherSpan::new(key, value, line.number, group);
        self.filled.others.push(span);
    }

    fn add_agent(&mut self, window: &[u8], value: &[u8]) {
        if self.filled.groups.last().is_none_or(|g| g.closed) {
            let (a, r) = (
                self.filled.agents.len() as u32,
                self.filled.rules.len() as u32,
            );
            self.filled.groups.push(Group {
                agents: a..a,
                rules: r..r,
                crawl_delay_ns: NO_DELAY,
                request_rate: None,
                closed: false,
            });
        }
        let agent = match agent::named(self.profile, value) {
            Named::Everyone => Agent::Everyone,
            Named::Token(token) => Agent::Token(self.store(window, token)),
        };
        self.filled.agents.push(agent);
        if let Some(group) = self.filled.groups.last_mut() {
            group.agents.end += 1;
        }
    }

    /// Adds `line` when it is a plain rule (see `record::plain_rule`) in
    /// a group, as `add` would; false for any other line.
    #[inline(always)]
    fn add_plain_rule(&mut self, line: &RawLine<'_>) -> bool {
        // A line the Google line cap cut has a diagnostic to report.
        if line.too_long {
            return false;
        }
        let Some((allow, value)) =
            record::plain_rule(line.content, line.window, line.colon, self.profile)
        else {
            return false;
        };
        let Some(group) = self.filled.groups.last_mut() else {
            return false;
        };
        group.closed = true;
        self.add_rule(line, allow, value);
        true
    }

    // Called for every rule line from two places: left to the compiler,
    // it was a call from the parse loop. A line that may hold bytes that
    // normalising changes (`RawLine::escapable`) is normalised; any other
    // is stored as it is.
    #[inline(always)]
    fn add_rule(&mut self, line: &RawLine<'_>, allow: bool, value: &[u8]) {
        let start = self.filled.text.len();
        if line.escapable {
            percent::normalise_pattern(self.profile, value, &mut self.filled.text);
        } else {
            append::append_within(&mut self.filled.text, line.window, value);
        }
        let pattern = self.span_from(start);
        self.push_rule(Rule::new(pattern, line.number, allow));
        if allow && self.profile == Profile::Google {
            // Google deviation: `allow: /dir/index.htm…` also allows `/dir/`
            // exactly, as if `allow: /dir/$` were written.
            let encoded = &self.filled.text[start..];
            if let Some(slash) = memchr::memrchr(b'/', encoded) {
                if encoded[slash..].starts_with(b"/index.htm") {
                    let extra = self.filled.text.len();
                    self.filled.text.extend_from_within(start..=start + slash);
                    self.filled.text.push(b'$');
                    let pattern = self.span_from(extra);
                    self.push_rule(Rule::new(pattern, line.number, allow));
                }
            }
        }
    }

    fn push_rule(&mut self, rule: Rule) {
        self.filled.rules.push(rule);
        if let Some(group) = self.filled.groups.last_mut() {
            group.rules.end += 1;
        }
    }

    fn finish(self) -> Inner {
        let filled = self.filled;
        let mut extras = self.extras;
        extras.others = filled.others.as_slice().into();
        let extras = (!extras.is_empty()).then(|| Arc::new(extras));
        let inner = Inner {
            profile: self.profile,
            host: self.host,
            extras,
            indexes: Arc::default(),
            arrays: Packed::new(
                &filled.groups,
                &filled.rules,
                &filled.agents,
                &filled.sitemaps,
                &filled.diagnostics,
                &filled.text,
            ),
        };
        filled.keep();
        inner
    }
}

/// The rate with the longer interval between requests.
pub(crate) fn slowest(a: Option<RequestRate>, b: Option<RequestRate>) -> Option<RequestRate> {
    match (a, b) {
        (Some(x), Some(y)) => {
            // x.seconds / x.requests ≥ y.seconds / y.requests, without division.
            let x_slower = u64::from(x.seconds) * u64::from(y.requests)
                >= u64::from(y.seconds) * u64::from(x.requests);
            Some(if x_slower { x } else { y })
        }
        (x, y) => x.or(y),
    }
}
