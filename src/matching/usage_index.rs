//! The `content-usage` rules of one selection, arranged once per `Rules`
//! for the question of behaviour §10.3: which of them, of the greatest
//! length, match a path.
//!
//! Rules are kept by path, so copies of one path are tried once; paths are
//! tried longest first, so the first length that matches ends the search;
//! and a wildcard path is tried only when its key (the literal segment the
//! fewest paths share, then the longest) occurs in the path, found for all
//! keys in one pass. A question costs the path's length plus the paths it
//! tries, not every rule of the file.

use std::cmp::Reverse;

use foldhash::{HashMap, HashMapExt};
use smallvec::SmallVec;

use crate::keys::Keys;
use crate::pattern;
use crate::usage::UsageRule;

const NONE: u32 = u32::MAX;

/// A bit per key, on the stack for up to 2,048 keys: an answer allocates
/// its result only, but for the paths of a file with more.
type Woken = SmallVec<[u64; 32]>;

/// What answering §10.3 needs of one `Rules`, built on its first answer.
#[derive(Clone, Debug, Default)]
pub(crate) struct UsageRules {
    /// One index per selection.
    pub parts: Box<[UsageIndex]>,
    pub labels: LabelIds,
}

impl UsageRules {
    /// The indexes of `usage` for each selection (its groups, sorted).
    pub fn build<'g>(usage: &[UsageRule], parts: impl Iterator<Item = &'g [u32]>) -> UsageRules {
        UsageRules {
            parts: parts
                .map(|groups| UsageIndex::build(usage, groups))
                .collect(),
            labels: LabelIds::build(usage),
        }
    }
}

/// Every label the file's `content-usage` statements name, as a number:
/// combining several statements (vocabulary §5.1) finds a label's place
/// in a table, not by hashing its name.
#[derive(Clone, Debug, Default)]
pub(crate) struct LabelIds {
    /// Rule `i`'s label ids (one per label, in its order) are
    /// `ids[starts[i]..starts[i + 1]]`.
    starts: Box<[u32]>,
    ids: Box<[u32]>,
    count: usize,
}

impl LabelIds {
    fn build(usage: &[UsageRule]) -> LabelIds {
        let total = usage.iter().map(|r| r.statement.labels.len()).sum();
        // Sized once: growing a table of millions rehashes it many times.
        let mut numbered: HashMap<&str, u32> = HashMap::with_capacity(total);
        let mut starts = Vec::with_capacity(usage.len() + 1);
        let mut ids = Vec::with_capacity(total);
        starts.push(0);
        for rule in usage {
            for (label, _) in &rule.statement.labels {
                crate::work::add(1);
                let next = numbered.len() as u32;
                ids.push(*numbered.entry(label).or_insert(next));
            }
            starts.push(ids.len() as u32);
        }
        LabelIds {
            starts: starts.into_boxed_slice(),
            ids: ids.into_boxed_slice(),
            count: numbered.len(),
        }
    }

    /// The ids of rule `rule`'s labels.
    pub fn of(&self, rule: u32) -> &[u32] {
        let rule = rule as usize;
        &self.ids[self.starts[rule] as usize..self.starts[rule + 1] as usize]
    }

    /// How many distinct labels there are: every id is below.
    pub fn count(&self) -> usize {
        self.count
    }
}

#[derive(Clone, Debug, Default)]
pub(crate) struct UsageIndex {
    /// Distinct paths, longest first, then in file order.
    paths: Box<[Path]>,
    /// Per path, its rules (indices in `Extras::usage`), in file order.
    rules: Box<[u32]>,
    /// Over the keys of the wildcard paths that have one.
    keys: Option<Keys>,
    key_count: usize,
}

#[derive(Clone, Copy, Debug)]
struct Path {
    /// Its rules in `UsageIndex::rules`; the first holds its bytes.
    first: u32,
    end: u32,
    /// Its key's id, or `NONE` when it is tried whatever the path holds.
    key: u32,
}

impl UsageIndex {
    /// The index of the rules of `usage` in `groups` (sorted).
    pub fn build(usage: &[UsageRule], groups: &[u32]) -> UsageIndex {
        // Per distinct path, its rules in file order.
        let mut by_path: HashMap<&[u8], usize> = HashMap::new();
        let mut members: Vec<Vec<u32>> = Vec::new();
        for (id, rule) in usage.iter().enumerate() {
            crate::work::add(1);
            if groups.binary_search(&rule.group).is_err() {
                continue;
            }
            let at = *by_path.entry(&rule.path).or_insert_with(|| {
                members.push(Vec::new());
                members.len() - 1
            });
            members[at].push(id as u32);
        }
        let path_of = |m: &Vec<u32>| &usage[m[0] as usize].path[..];
        // Longest first; a stable sort keeps file order within a length.
        members.sort_by_key(|m| Reverse(path_of(m).len()));

        let mut shared: HashMap<&[u8], u32> = HashMap::new();
        for m in &members {
            for segment in segments_of(path_of(m)) {
                crate::work::add(1);
                *shared.entry(segment).or_default() += 1;
            }
        }
        let mut key_ids: HashMap<&[u8], u32> = HashMap::new();
        let mut keys: Vec<&[u8]> = Vec::new();
        let mut paths = Vec::with_capacity(members.len());
        let mut rules = Vec::new();
        for m in &members {
            let key = segments_of(path_of(m))
                .min_by_key(|s| (shared[s], Reverse(s.len())))
                .map_or(NONE, |segment| {
                    *key_ids.entry(segment).or_insert_with(|| {
                        keys.push(segment);
                        keys.len() as u32 - 1
                    })
                });
            let first = rules.len() as u32;
            rules.extend_from_slice(m);
            paths.push(Path {
                first,
                end: rules.len() as u32,
                key,
            });
        }
        UsageIndex {
            paths: paths.into_boxed_slice(),
            rules: rules.into_boxed_slice(),
            key_count: keys.len(),
            keys: (!keys.is_empty()).then(|| Keys::new(&keys)),
        }
    }

    /// Calls `found` with each rule (an index in `usage`, the slice this
    /// was built from) whose path matches `path` and is of the greatest
    /// length among those that do: a path's rules in file order, paths of
    /// one length in the order their first rule was met.
    pub fn longest(&self, usage: &[UsageRule], path: &[u8], mut found: impl FnMut(u32)) {
        let mut found_len = None;
        // Which keys occur in the path: found on the first path that asks.
        let mut woken: Option<Woken> = None;
        for p in self.paths.iter() {
            crate::work::add(1);
            let pattern = &usage[self.rules[p.first as usize] as usize].path[..];
            if found_len.is_some_and(|len| pattern.len() < len) {
                break;
            }
            if p.key != NONE {
                let woken = woken.get_or_insert_with(|| self.woken(path));
                if woken[p.key as usize / 64] & (1 << (p.key % 64)) == 0 {
                    continue;
                }
            }
            if pattern::matches(pattern, path) {
                found_len = Some(pattern.len());
                for &id in &self.rules[p.first as usize..p.end as usize] {
                    found(id);
                }
            }
        }
    }

    /// A bit per key: whether it occurs in `path`.
    fn woken(&self, path: &[u8]) -> Woken {
        let mut woken = Woken::from_elem(0, self.key_count.div_ceil(64));
        if let Some(keys) = &self.keys {
            keys.each(path, |key| woken[key / 64] |= 1 << (key % 64));
        }
        woken
    }
}

/// The segments after a pattern's literal prefix: every one must occur in
/// a path the pattern matches.
fn segments_of(pattern: &[u8]) -> impl Iterator<Item = &[u8]> {
    let body = pattern.strip_suffix(b"$").unwrap_or(pattern);
    let star = memchr::memchr(b'*', body).unwrap_or(body.len());
    body[star..].split(|&b| b == b'*').filter(|s| !s.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::usage::Statement;

    fn rule(group: u32, line: u32, path: &str) -> UsageRule {
        UsageRule {
            group,
            line,
            path: path.as_bytes().to_vec(),
            statement: Statement::parse(b"train-ai=n").expect("a statement"),
        }
    }

    /// Every rule tried, as the answer was found before the index.
    fn naive(usage: &[UsageRule], groups: &[u32], path: &[u8]) -> Vec<u32> {
        let mut found = Vec::new();
        let mut longest = 0;
        for (id, rule) in usage.iter().enumerate() {
            if groups.binary_search(&rule.group).is_err() || !pattern::matches(&rule.path, path) {
                continue;
            }
            if rule.path.len() > longest {
                longest = rule.path.len();
                found.clear();
            }
            if rule.path.len() == longest {
                found.push(id as u32);
            }
        }
        found
    }

    #[test]
    fn finds_what_trying_every_rule_finds() {
        // Paths over a small alphabet, so that many match, tie and repeat.
        let mut seed = 0x2545_f491_u32;
        let mut next = |n: u32| {
            seed ^= seed << 13;
            seed ^= seed >> 17;
            seed ^= seed << 5;
            seed % n
        };
        let mut random_path = |len: u32, with_stars: bool| {
            let mut path = String::from("/");
            for _ in 0..len {
                let alphabet: &[u8] = if with_stars { b"ab*" } else { b"ab" };
                path.push(alphabet[next(alphabet.len() as u32) as usize] as char);
            }
            path
        };
        for round in 0..300 {
            let count = 1 + round % 90;
            let usage: Vec<UsageRule> = (0..count)
                .map(|i| {
                    let mut path = random_path(i % 5, true);
                    if i % 7 == 0 {
                        path.push('$');
                    }
                    rule(i % 3, i + 1, &path)
                })
                .collect();
            for groups in [&[0, 1, 2][..], &[1], &[0, 2]] {
                let index = UsageIndex::build(&usage, groups);
                for len in 0..8 {
                    let path = random_path(len, false);
                    let mut found = Vec::new();
                    index.longest(&usage, path.as_bytes(), |id| found.push(id));
                    found.sort_unstable();
                    assert_eq!(
                        found,
                        naive(&usage, groups, path.as_bytes()),
                        "{path} in round {round}"
                    );
                }
            }
        }
    }

    #[test]
    fn copies_of_a_path_are_tried_once() {
        let usage: Vec<UsageRule> = (0..500).map(|i| rule(0, i + 1, "/*x*y")).collect();
        let index = UsageIndex::build(&usage, &[0]);
        assert_eq!(index.paths.len(), 1);
        let count = |path: &[u8]| {
            let mut n = 0;
            index.longest(&usage, path, |_| n += 1);
            n
        };
        assert_eq!(count(b"/axby"), 500);
        assert_eq!(count(b"/ayb"), 0);
    }
}
