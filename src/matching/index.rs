//! The rule index of one selection (§2.2.2): rules grouped by their literal
//! prefix (the bytes before the first `*` or the final `$`), prefixes
//! sorted, each linked to the longest other prefix that begins it.
//!
//! A rule can only match a path that starts with its literal prefix. The
//! prefixes that begin a path form one chain: find the greatest prefix not
//! above the path with a binary search (among the prefixes that share the
//! path's first two bytes, by their first 16 bytes, then by the bytes
//! among those that tie there), then follow the links, keeping those
//! that begin the path. Strings between a prefix of the path and the
//! path itself all start with that prefix, so the chain holds every
//! candidate. A question costs O(log rules + chain), not O(rules).
//!
//! Many wildcard rules can share one short prefix (`/*.pdf`, `/*?sort=`…).
//! From `FILTER_FROM` of them under one prefix, an Aho-Corasick automaton
//! over a literal segment of each (the one fewest of them share) finds, in
//! one pass over the path, the few rules that can match at all; fewer are
//! tried one by one.

use std::borrow::Cow;
use std::cmp::{Ordering, Reverse};

use foldhash::{HashMap, HashMapExt, HashSet, HashSetExt};

use crate::keys::Keys;
use crate::pattern::Globs;
use crate::prefetch;
use crate::robots::Inner;
use crate::scan;

const NONE: u32 = u32::MAX;

/// Below this many keyed wildcard rules under one prefix, trying each is
/// cheaper than running an automaton. Measured on checks of URLs not seen
/// before, whose branches no predictor has learnt: there the automaton's
/// byte-by-byte steps and its cold states cost more than a few dozen
/// vectorised segment searches, and less than a hundred. (A check
/// repeating recent URLs favours it from about 16 rules.)
const FILTER_FROM: usize = 64;

/// Keys of one automaton at most: each search marks the keys it met in a
/// stack bit set this wide.
const SEEN_KEYS: usize = 2048;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Shape {
    /// A plain prefix: matches whenever the prefix does.
    Prefix,
    /// A prefix ending in `$`: matches the prefix exactly.
    Exact,
    /// Has a `*`: its glob in `PrefixIndex::globs` must match too.
    Wildcard(u32),
}

#[derive(Clone, Copy, Debug)]
struct Candidate {
    rule: u32,
    priority: u32,
    allow: bool,
    shape: Shape,
}

impl Candidate {
    /// Longest pattern first, allow wins ties (§2.2.2), then file order.
    fn rank(&self) -> (Reverse<u32>, bool, u32) {
        (Reverse(self.priority), !self.allow, self.rule)
    }
}

#[derive(Clone, Copy, Debug)]
struct Entry {
    /// The prefix's first 16 bytes as a key: most comparisons end here.
    key: Key,
    /// The prefix: a range of `Inner::text`.
    start: u32,
    len: u32,
    /// The entry whose prefix is the longest proper prefix of this one.
    parent: u32,
    /// This prefix's rules in `PrefixIndex::candidates`, best rank first
    /// (without those its filter holds).
    first: u32,
    end: u32,
    /// The entry's filter in `PrefixIndex::filters`, or `NONE`.
    filter: u32,
}

/// The wildcard rules under one prefix, found by their longest literal
/// segment (their key).
#[derive(Clone, Debug)]
struct Filter {
    /// Automata over `SEEN_KEYS` keys at most: key ids `SEEN_KEYS * i..`
    /// are automaton `i`'s, so that each search can tell every key it met
    /// before, and no path tries one key's rules twice.
    keys: Box<[Keys]>,
    /// Per key id, its rules in `rules`, best rank first.
    ranges: Box<[(u32, u32)]>,
    rules: Box<[Candidate]>,
}

#[derive(Clone, Debug, Default)]
pub(crate) struct PrefixIndex {
    entries: Box<[Entry]>,
    /// With `BUCKETS_FROM` entries or more: per ASCII byte `b`, how many
    /// entries have keys whose first two bytes are below `/` then `b`;
    /// the last bound counts those below `/` then 0x80. A search then
    /// starts among the entries that share the path's first two bytes:
    /// fewer steps, and fewer to mispredict. Measured on checks of the
    /// bench's workload, 3-5% quicker hot and no slower cold.
    buckets: Box<[u16]>,
    candidates: Box<[Candidate]>,
    filters: Box<[Filter]>,
    globs: Globs,
}

impl PrefixIndex {
    /// See `Rules::prefetch`.
    pub fn prefetch(&self, lines: usize) {
        prefetch::slice(&self.entries, lines);
        prefetch::slice(&self.buckets, lines);
        prefetch::slice(&self.candidates, lines);
        self.globs.prefetch(lines);
    }

    pub fn build(inner: &Inner, rules: impl Iterator<Item = u32>) -> PrefixIndex {
        let mut globs = Globs::default();
        let mut keyed: Vec<(Key, u32, u32, Candidate)> = rules
            .map(|id| {
                let rule = &inner.rules()[id as usize];
                let pattern = inner.bytes(rule.pattern);
                let (body, anchored) = match pattern.split_last() {
                    Some((b'$', body)) => (body, true),
                    _ => (pattern, false),
                };
                let star = memchr::memchr(b'*', body);
                let shape = match (star, anchored) {
                    // `/a*` and `/a*$` match what `/a` does: only their
                    // length (their priority) differs.
                    (Some(star), _) if body[star..].iter().all(|&b| b == b'*') => Shape::Prefix,
                    (Some(star), _) => {
                        Shape::Wildcard(globs.add(pattern, rule.pattern.start, star))
                    }
                    (None, true) => Shape::Exact,
                    (None, false) => Shape::Prefix,
                };
                let prefix_len = star.unwrap_or(body.len()) as u32;
                let candidate = Candidate {
                    rule: id,
                    priority: pattern.len() as u32,
                    allow: rule.allow(),
                    shape,
                };
                let key = Key::of(&pattern[..prefix_len as usize]);
                (key, rule.pattern.start, prefix_len, candidate)
            })
            .collect();
        let prefix = |start: u32, len: u32| &inner.text()[start as usize..(start + len) as usize];
        // By prefix, then rank: the keys (the prefixes' first 16 bytes,
        // zero-padded) settle most comparisons without reading the text.
        // Ranks end in the rule id, so the order is total and an unstable
        // sort, which needs no scratch buffer, gives the same result.
        keyed.sort_unstable_by(|a, b| {
            crate::work::add(1);
            a.0.bits()
                .cmp(&b.0.bits())
                .then_with(|| match (a.2, b.2) {
                    // Equal keys of prefixes that fit them: the shorter is
                    // the other's start (zero padding matched the rest).
                    (..=16, ..=16) => a.2.cmp(&b.2),
                    _ => prefix(a.1, a.2).cmp(prefix(b.1, b.2)),
                })
                .then_with(|| a.3.rank().cmp(&b.3.rank()))
        });

        let mut entries: Vec<Entry> = Vec::new();
        let mut chain: Vec<u32> = Vec::new();
        for (i, &(key, start, len, _)) in keyed.iter().enumerate() {
            let i = i as u32;
            if let Some(last) = entries.last_mut() {
                if last.key == key && prefix(last.start, last.len) == prefix(start, len) {
                    last.end = i + 1;
                    continue;
                }
            }
            // Sorted order puts a prefix before what it begins: the chain of
            // entries beginning this one is a stack.
            while let Some(&top) = chain.last() {
                crate::work::add(1);
                let t = &entries[top as usize];
                if prefix(start, len).starts_with(prefix(t.start, t.len)) {
                    break;
                }
                chain.pop();
            }
            let parent = chain.last().copied().unwrap_or(NONE);
            chain.push(entries.len() as u32);
            entries.push(Entry {
                key,
                start,
                len,
                parent,
                first: i,
                end: i + 1,
                filter: NONE,
            });
        }
        let all: Vec<Candidate> = keyed.into_iter().map(|k| k.3).collect();
        let mut candidates = Vec::with_capacity(all.len());
        let mut filters = Vec::new();
        let mut seen = HashSet::new();
        for entry in &mut entries {
            let own = deciding(
                inner,
                &all[entry.first as usize..entry.end as usize],
                entry.len as usize,
                &mut seen,
            );
            let own = &own[..];
            let first = candidates.len() as u32;
            match Filter::build(inner, entry.len as usize, own) {
                Some((filter, direct)) => {
                    candidates.extend(direct);
                    entry.filter = filters.len() as u32;
                    filters.push(filter);
                }
                None => candidates.extend_from_slice(own),
            }
            (entry.first, entry.end) = (first, candidates.len() as u32);
        }
        PrefixIndex {
            buckets: buckets_of(&entries),
            entries: entries.into_boxed_slice(),
            candidates: candidates.into_boxed_slice(),
            filters: filters.into_boxed_slice(),
            globs,
        }
    }

    /// The deciding rule for `path`: its index in `Inner::rules` and
    /// whether it allows.
    pub fn best(&self, inner: &Inner, path: &[u8]) -> Option<(u32, bool)> {
        let path_key = Key::of(path);
        let path_bits = path_key.bits();
        // Keys order the entries but for equal keys: search by key with
        // no branch to mispredict, then settle a run of equal keys (the
        // path's first 16 bytes) by the bytes.
        let mut below = self.count_keys_at_most(path, path_bits);
        if below > 0 && self.entries[below - 1].key == path_key {
            // Most runs of equal keys are one entry long.
            let run_start = if below > 1 && self.entries[below - 2].key == path_key {
                self.entries[..below].partition_point(|e| e.key.bits() < path_bits)
            } else {
                below - 1
            };
            below = run_start
                + self.entries[run_start..below]
                    .partition_point(|e| e.at_most(inner.text(), path_key, path));
        }
        let mut at = below.checked_sub(1)? as u32;
        let mut best: Option<&Candidate> = None;
        // Once one entry of the chain begins the path, so do all its
        // parents: they begin it.
        let mut begins_path = false;
        while at != NONE {
            crate::work::add(1);
            let entry = &self.entries[at as usize];
            begins_path = begins_path || entry.begins(inner.text(), path_key, path);
            if begins_path {
                let own = &self.candidates[entry.first as usize..entry.end as usize];
                best = self.first_match(inner, own, entry.len as usize, path, best);
                if let Some(filter) = self.filters.get(entry.filter as usize) {
                    best = filter.best(self, inner, path, entry.len as usize, best);
                }
            }
            at = entry.parent;
        }
        best.map(|c| (c.rule, c.allow))
    }

    /// How many entries have a key at most `bits`, the key of `path`.
    #[inline(always)]
    fn count_keys_at_most(&self, path: &[u8], bits: u128) -> usize {
        match (self.buckets.len(), path) {
            // Every path a check asks about starts with `/`.
            (BUCKET_BOUNDS, [b'/', rest @ ..]) if rest.first().is_none_or(|&b| b < HIGH) => {
                let second = usize::from(rest.first().copied().unwrap_or(0));
                let lo = usize::from(self.buckets[second]);
                let hi = usize::from(self.buckets[second + 1]);
                lo + count_keys_at_most(&self.entries[lo..hi], bits)
            }
            _ => count_keys_at_most(&self.entries, bits),
        }
    }

    /// The first of `candidates` (best rank first) that matches and beats
    /// `best`, or `best`.
    #[inline(always)]
    fn first_match<'a>(
        &self,
        inner: &Inner,
        candidates: &'a [Candidate],
        prefix_len: usize,
        path: &[u8],
        best: Option<&'a Candidate>,
    ) -> Option<&'a Candidate> {
        for candidate in candidates {
            crate::work::add(1);
            if best.is_some_and(|b| candidate.rank() >= b.rank()) {
                break;
            }
            let matched = match candidate.shape {
                Shape::Prefix => true,
                Shape::Exact => path.len() == prefix_len,
                Shape::Wildcard(glob) => self.globs.matches(glob, inner.text(), path, prefix_len),
            };
            if matched {
                return Some(candidate);
            }
        }
        best
    }
}

/// The candidates of one prefix (best rank first) that can decide: of
/// those that match the same paths — every plain prefix rule, every `$`
/// rule, wildcard rules with the same segments and anchor, however their
/// `*`s are written — only the first is ever tried, so the rest are left
/// out. Copies of one rule cost a hostile file nothing per check.
fn deciding<'t>(
    inner: &'t Inner,
    own: &[Candidate],
    prefix_len: usize,
    seen: &mut HashSet<(Shape, bool, Cow<'t, [u8]>)>,
) -> Vec<Candidate> {
    seen.clear();
    own.iter()
        .filter(|c| {
            crate::work::add(1);
            let matching = match c.shape {
                Shape::Wildcard(_) => {
                    let pattern = inner.bytes(inner.rules()[c.rule as usize].pattern);
                    let (anchored, segments) = matching_form(&pattern[prefix_len..]);
                    (Shape::Wildcard(0), anchored, segments)
                }
                shape => (shape, false, Cow::Borrowed(&[][..])),
            };
            seen.insert(matching)
        })
        .copied()
        .collect()
}

/// A wildcard pattern after its literal prefix (`rest` starts with `*`)
/// as `*segment*segment…` with no empty segment, and whether its last
/// segment must end the path: equal for patterns that match the same
/// paths. Borrowed when the pattern is written so already, as nearly
/// every one is.
fn matching_form(rest: &[u8]) -> (bool, Cow<'_, [u8]>) {
    let anchored = rest.ends_with(b"$") && !rest.ends_with(b"*$");
    let body = rest.strip_suffix(b"$").unwrap_or(rest);
    if !body.ends_with(b"*") && memchr::memmem::find(body, b"**").is_none() {
        return (anchored, Cow::Borrowed(body));
    }
    let mut form = Vec::with_capacity(body.len());
    for segment in body.split(|&b| b == b'*').filter(|s| !s.is_empty()) {
        form.push(b'*');
        form.extend_from_slice(segment);
    }
    (anchored, Cow::Owned(form))
}

impl Entry {
    fn prefix<'t>(&self, text: &'t [u8]) -> &'t [u8] {
        &text[self.start as usize..(self.start + self.len) as usize]
    }

    /// Whether the prefix sorts at or before `path` (whose key is
    /// `path_key`).
    #[inline(always)]
    fn at_most(&self, text: &[u8], path_key: Key, path: &[u8]) -> bool {
        match self.key.cmp(&path_key) {
            // The path begins with the whole prefix, or ends within its
            // zero padding.
            Ordering::Equal if self.len as usize <= Key::WIDTH => self.len as usize <= path.len(),
            Ordering::Equal => self.prefix(text) <= path,
            order => order.is_lt(),
        }
    }

    /// Whether `path` (whose key is `path_key`) begins with the prefix.
    #[inline(always)]
    fn begins(&self, text: &[u8], path_key: Key, path: &[u8]) -> bool {
        let len = self.len as usize;
        if path.len() < len {
            return false;
        }
        // The bits of the prefix's bytes among the key's 128.
        let bits = 8 * len.min(Key::WIDTH) as u32;
        let mask = u128::MAX.checked_shl(128 - bits).unwrap_or(0);
        (self.key.bits() ^ path_key.bits()) & mask == 0
            && (len <= Key::WIDTH || path[Key::WIDTH..len] == self.prefix(text)[Key::WIDTH..])
    }
}

impl Filter {
    /// Splits the rules of one prefix into a filter over the keyed wildcard
    /// rules and the rest, when there are enough of the former.
    fn build(
        inner: &Inner,
        prefix_len: usize,
        own: &[Candidate],
    ) -> Option<(Filter, Vec<Candidate>)> {
        let segments_of = |c: &Candidate| {
            let pattern = inner.bytes(inner.rules()[c.rule as usize].pattern);
            let body = pattern.strip_suffix(b"$").unwrap_or(pattern);
            body[prefix_len..]
                .split(|&b| b == b'*')
                .filter(|s| !s.is_empty())
        };
        let wildcards = || own.iter().filter(|c| matches!(c.shape, Shape::Wildcard(_)));
        if wildcards()
            .filter(|c| segments_of(c).next().is_some())
            .count()
            < FILTER_FROM
        {
            return None;
        }
        // Every segment of a rule must occur in a path it matches; the key
        // is the one fewest rules share (then the longest), so that a path
        // wakes few rules.
        let mut shared: HashMap<&[u8], u32> = HashMap::new();
        for c in wildcards() {
            for segment in segments_of(c) {
                crate::work::add(1);
                *shared.entry(segment).or_default() += 1;
            }
        }
        let key_of = |c: &Candidate| -> Option<&[u8]> {
            if !matches!(c.shape, Shape::Wildcard(_)) {
                return None;
            }
            segments_of(c).min_by_key(|s| (shared[s], Reverse(s.len())))
        };
        let mut keyed: Vec<(&[u8], Candidate)> = Vec::new();
        let mut direct = Vec::new();
        for c in own {
            match key_of(c) {
                Some(key) => keyed.push((key, *c)),
                None => direct.push(*c),
            }
        }
        keyed.sort_by(|a, b| a.0.cmp(b.0).then(a.1.rank().cmp(&b.1.rank())));
        let mut keys: Vec<&[u8]> = Vec::new();
        let mut ranges: Vec<(u32, u32)> = Vec::new();
        for (i, (key, _)) in keyed.iter().enumerate() {
            if keys.last() == Some(key) {
                ranges.last_mut().expect("pushed with its key").1 += 1;
            } else {
                keys.push(key);
                ranges.push((i as u32, i as u32 + 1));
            }
        }
        let filter = Filter {
            keys: keys.chunks(SEEN_KEYS).map(Keys::new).collect(),
            ranges: ranges.into_boxed_slice(),
            rules: keyed.into_iter().map(|k| k.1).collect(),
        };
        Some((filter, direct))
    }

    /// `best` improved by the filtered rules whose key occurs in the path
    /// after the prefix.
    fn best<'a>(
        &'a self,
        index: &PrefixIndex,
        inner: &Inner,
        path: &[u8],
        prefix_len: usize,
        mut best: Option<&'a Candidate>,
    ) -> Option<&'a Candidate> {
        for (i, keys) in self.keys.iter().enumerate() {
            let mut seen = [0u64; SEEN_KEYS / 64];
            keys.each(&path[prefix_len..], |key| {
                let (word, bit) = (&mut seen[key / 64], 1u64 << (key % 64));
                if *word & bit != 0 {
                    return;
                }
                *word |= bit;
                let (first, end) = self.ranges[i * SEEN_KEYS + key];
                best = index.first_match(
                    inner,
                    &self.rules[first as usize..end as usize],
                    prefix_len,
                    path,
                    best,
                );
            });
        }
        best
    }
}

/// Paths whose second byte is this or above search all entries:
/// patterns are escaped to ASCII in both profiles, paths nearly always
/// are, and half the table is half its cache lines.
const HIGH: u8 = 0x80;

/// One bound per ASCII second byte, and the end of the last bucket.
const BUCKET_BOUNDS: usize = HIGH as usize + 1;

/// Below this many entries, the search over all of them takes about as
/// long as the table's load.
const BUCKETS_FROM: usize = 8;

/// See `PrefixIndex::buckets`: none for a small index, or one too large
/// for `u16` counts.
fn buckets_of(entries: &[Entry]) -> Box<[u16]> {
    if entries.len() < BUCKETS_FROM || entries.len() > usize::from(u16::MAX) {
        return Box::new([]);
    }
    // A key's first two bytes, as a number: they order keys first.
    let first_two = |e: &Entry| (e.key.head >> 48) as usize;
    (0..BUCKET_BOUNDS)
        .map(|second| {
            let below = entries.partition_point(|e| first_two(e) < usize::from(b'/') << 8 | second);
            below as u16
        })
        .collect()
}

/// How many of `entries` have a key at most `bits`: a binary search whose
/// steps add, not branch (which way a step goes is the path's business,
/// and a mispredicted branch costs more than the step).
fn count_keys_at_most(entries: &[Entry], bits: u128) -> usize {
    if entries.is_empty() {
        return 0;
    }
    let (mut base, mut size) = (0, entries.len());
    while size > 1 {
        let half = size / 2;
        let at_most = entries[base + half].key.bits() <= bits;
        base += half & usize::from(at_most).wrapping_neg();
        size -= half;
    }
    // `base` is the last entry at most `bits`, or 0 when none is.
    base + usize::from(entries[base].key.bits() <= bits)
}

/// A string's first 16 bytes as two big-endian numbers, zero-padded.
/// Comparing keys orders strings as comparing the strings does, unless
/// the keys are equal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Key {
    head: u64,
    tail: u64,
}

impl Key {
    const WIDTH: usize = 16;

    #[inline(always)]
    fn of(s: &[u8]) -> Key {
        let word = |b: &[u8]| u64::from_be_bytes(b.try_into().expect("8 bytes"));
        match s.len() {
            16.. => Key {
                head: word(&s[..8]),
                tail: word(&s[8..16]),
            },
            // A shorter string as `scan` loads one, its words in
            // big-endian order.
            _ => {
                let (lo, hi) = scan::short_words(s);
                Key {
                    head: lo.swap_bytes(),
                    tail: hi.swap_bytes(),
                }
            }
        }
    }

    fn bits(self) -> u128 {
        u128::from(self.head) << 64 | u128::from(self.tail)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An entry with no parent, rules or filter: only its key and length.
    fn alone(key: Key, len: u32) -> Entry {
        Entry {
            key,
            start: 0,
            len,
            parent: NONE,
            first: 0,
            end: 0,
            filter: NONE,
        }
    }

    #[test]
    fn the_branch_free_search_counts_as_partition_point_does() {
        let entry = |head: u64| alone(Key { head, tail: 0 }, 0);
        for n in 0..40u64 {
            // Keys 0, 2, 4…, some repeated; probes on and between them.
            let entries: Vec<Entry> = (0..n).map(|i| entry(i / 3 * 2)).collect();
            for probe in 0..(n + 2) {
                let bits = Key {
                    head: probe,
                    tail: 0,
                }
                .bits();
                let want = entries.partition_point(|e| e.key.bits() <= bits);
                assert_eq!(count_keys_at_most(&entries, bits), want, "{n} {probe}");
            }
        }
    }

    #[test]
    fn keys_compare_as_the_strings_do() {
        // Strings from a small alphabet with NUL (the key's padding), of
        // lengths around the key's 8- and 16-byte words.
        let alphabet = b"\0a/\xFF";
        let mut draw = crate::draw::Draw::new(0x2545_F491_4F6C_DD1D);
        let mut random =
            |len: usize| -> Vec<u8> { (0..len).map(|_| draw.pick(alphabet)).collect() };
        for round in 0..20_000 {
            let prefix = random(round % 21);
            let mut path = random((round / 21) % 23);
            if round % 3 == 0 {
                // Often a path that begins with the prefix.
                path.splice(0..0, prefix.iter().copied());
            }
            let entry = alone(Key::of(&prefix), prefix.len() as u32);
            let key = Key::of(&path);
            assert_eq!(
                entry.at_most(&prefix, key, &path),
                prefix <= path,
                "{prefix:?} {path:?}"
            );
            assert_eq!(
                entry.begins(&prefix, key, &path),
                path.starts_with(&prefix),
                "{prefix:?} {path:?}"
            );
        }
    }

    /// The bucket table narrows the search and changes no answer: the
    /// same index answers alike with it and without, whatever the paths'
    /// first bytes, also beside prefixes that are empty, `/` alone, or
    /// start with a byte other than `/`.
    #[test]
    fn buckets_change_no_answer() {
        let pieces: &[&[u8]] = &[b"/", b"a", b"b", b"/a", b"/b", b"0", b"%2F", b"z/", b"\x7F"];
        // Paths also with bytes past ASCII, which patterns have not.
        let path_pieces: &[&[u8]] = &[pieces, &[b"\x80", b"\xC3\xA9", b"\xFF"]].concat();
        let mut draw = crate::draw::Draw::new(0x5DEE_CE66_D1CE_4E5B);
        // `make miri` runs this too, some thousand times slower: fewer
        // rounds there.
        let rounds = if cfg!(miri) { 12 } else { 300 };
        for round in 0..rounds {
            let mut body = String::from("User-agent: *\nDisallow: /\nAllow: *.css\n");
            for _ in 0..BUCKETS_FROM + round % 40 {
                let count = 1 + draw.below(4);
                let pattern = draw.joined(pieces, count);
                let kind = draw.pick(&["Allow", "Disallow"]);
                let pattern = String::from_utf8(pattern).unwrap();
                body.push_str(&format!("{kind}: {pattern}\n"));
            }
            let robots = crate::Robots::parse(body.as_bytes());
            let inner = &robots.inner;
            let index = PrefixIndex::build(inner, 0..inner.rules().len() as u32);
            let mut unbucketed = index.clone();
            unbucketed.buckets = Box::new([]);
            assert_eq!(index.buckets.len(), BUCKET_BOUNDS, "{body}");
            for _ in 0..50 {
                let count = draw.below(5);
                let path = draw.joined(path_pieces, count);
                assert_eq!(
                    index.best(inner, &path),
                    unbucketed.best(inner, &path),
                    "{body} {path:?}"
                );
            }
        }
    }

    /// Keyed wildcard rules under one prefix get an automaton from
    /// `FILTER_FROM` of them on, and answer the same either side of it.
    #[test]
    fn the_automaton_starts_at_filter_from_rules_and_changes_no_answer() {
        let body = |n: usize| {
            let mut body = String::from("User-agent: *\nAllow: /*.css$\n");
            for i in 0..n {
                body.push_str(&format!("Disallow: /*p{i}q\n"));
            }
            body
        };
        // `n` disallow rules and the allow rule.
        for n in [FILTER_FROM - 2, FILTER_FROM - 1] {
            let robots = crate::Robots::parse(body(n).as_bytes());
            let inner = &robots.inner;
            let index = PrefixIndex::build(inner, 0..inner.rules().len() as u32);
            let filtered = n + 1 == FILTER_FROM;
            assert_eq!(index.filters.len(), usize::from(filtered), "{n} rules");
            let verdict = |path: &str| index.best(inner, path.as_bytes()).map(|(_, allow)| allow);
            assert_eq!(verdict("/a/p7q/b"), Some(false));
            assert_eq!(verdict(&format!("/p{}q", n - 1)), Some(false));
            assert_eq!(verdict("/a/p7q.css"), Some(true));
            assert_eq!(verdict("/a/p7x"), None);
        }
    }

    /// A pattern whose only wildcards end it is indexed as its prefix; it
    /// keeps its length as its priority, and its text.
    #[test]
    fn trailing_wildcards_match_as_the_prefix_with_their_own_length() {
        let decide = |body: &str, path: &str| {
            let robots = crate::Robots::parse(body.as_bytes());
            let rules = robots.rules_for("ExampleBot").unwrap();
            let d = rules.decide(path);
            (d.allowed, d.pattern.to_owned())
        };
        // Longer than `/a`: it decides.
        let body = "User-agent: *\nDisallow: /a\nAllow: /a*\n";
        assert_eq!(decide(body, "/a"), (true, "/a*".into()));
        assert_eq!(decide(body, "/abc"), (true, "/a*".into()));
        assert_eq!(decide(body, "/b"), (true, "".into()));
        // `$` after a `*` anchors nothing.
        let body = "User-agent: *\nDisallow: /a*$\n";
        assert_eq!(decide(body, "/abc"), (false, "/a*$".into()));
        assert_eq!(decide(body, "/b"), (true, "".into()));
        // Equal lengths: allow wins the tie, whichever shape.
        let body = "User-agent: *\nDisallow: /a**\nAllow: /a*$\n";
        assert_eq!(decide(body, "/ax"), (true, "/a*$".into()));
        let body = "User-agent: *\nDisallow: /ab*\nAllow: /a*b\n";
        assert_eq!(decide(body, "/abx"), (true, "/a*b".into()));
        // Wildcards alone match every path.
        let body = "User-agent: *\nDisallow: *$\nAllow: /\n";
        assert_eq!(decide(body, "/x"), (false, "*$".into()));
    }
}
