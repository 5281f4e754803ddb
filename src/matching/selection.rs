//! One selection (§2.2.1): the merged groups' rules, answered by a scan
//! until the prefix index pays for itself.
//!
//! Most copies of a robots.txt get a handful of questions before they
//! expire, and building the index costs some dozens of scans over the same
//! rules. So a selection starts with nothing built and answers by one pass
//! over its rules in file order (longest match, allow wins ties); once the
//! scans have cost `SCAN_BUDGET` ordinary checks, the next check builds the
//! index, and every later one uses it. A crawler that asks many questions
//! pays for the index about once more than it would have eagerly; one that
//! asks few never pays for it.

use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

use crate::index::PrefixIndex;
use crate::pattern;
use crate::rate::RequestRate;
use crate::robots::Inner;

/// Scan checks before the index is built. Measured over the corpus
/// (parse, select, then checks): a scan pass costs some 10 ns a selected
/// rule and the build 60-300 ns a rule, so the build pays after a dozen
/// scans or so; this budget builds it earlier, so that a crawler checking
/// a site's URLs by the score meets the index after a few questions.
const SCAN_BUDGET: u32 = 4;

/// A scan over a path this long counts as one more check: the scan costs
/// the path's length for every wildcard rule, where the index looks only
/// at the rules its prefixes and filters leave. A hostile long URL builds
/// the index at once.
const SCAN_PATH_UNIT: usize = 256;

/// The most one scan may cost, in rule steps (one rule of up to
/// `SCAN_PATH_UNIT` bytes tried over as many bytes of path): some hundred
/// microseconds. A larger selection, or wildcards over a long path, go to
/// the index at once: a check never costs the whole of a hostile file.
const SCAN_WORK: usize = 1 << 15;

/// The indexes of one file's selections, by their groups: the first
/// `SHARED_INDEXES` selections made of a file share theirs with every later
/// selection of the same groups. (A crawler reads its own few groups; a
/// file selected for many different crawlers builds the rest per `Rules`.)
#[derive(Debug, Default)]
pub(crate) struct Indexes {
    known: Mutex<Vec<(Box<[u32]>, SharedIndex)>>,
}

/// One selection's index, built once by whichever holder needs it first.
type SharedIndex = Arc<OnceLock<PrefixIndex>>;

const SHARED_INDEXES: usize = 8;

impl Indexes {
    fn of(&self, groups: &[u32]) -> SharedIndex {
        // A poisoned lock holds no broken state: the list is only pushed to.
        let mut known = self.known.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((_, index)) = known.iter().find(|(g, _)| g[..] == *groups) {
            crate::work::add(groups.len());
            return Arc::clone(index);
        }
        let index = Arc::new(OnceLock::new());
        if known.len() < SHARED_INDEXES {
            known.push((groups.into(), Arc::clone(&index)));
        }
        index
    }
}

/// The rules of the merged groups, and their index once built.
#[derive(Debug)]
pub(crate) struct Selection {
    /// The selected groups' indices in `Inner::groups`, in file order: their
    /// rules are the selection's, and they scope usage preferences and
    /// other records (behaviour §10).
    pub groups: Box<[u32]>,
    /// How many rules the groups hold.
    len: u32,
    pub crawl_delay: Option<Duration>,
    pub request_rate: Option<RequestRate>,
    /// Shared with every selection of the same groups from the same file
    /// (`Indexes`), so that a crawler selecting per URL builds it once.
    index: SharedIndex,
    /// Scan checks spent so far, in units of one ordinary check.
    scanned: AtomicU32,
}

impl Clone for Selection {
    fn clone(&self) -> Selection {
        Selection {
            groups: self.groups.clone(),
            len: self.len,
            crawl_delay: self.crawl_delay,
            request_rate: self.request_rate,
            index: Arc::clone(&self.index),
            scanned: AtomicU32::new(self.scanned.load(Ordering::Relaxed)),
        }
    }
}

impl Selection {
    pub fn new(
        inner: &Inner,
        groups: Vec<u32>,
        crawl_delay: Option<Duration>,
        request_rate: Option<RequestRate>,
    ) -> Selection {
        let len = groups
            .iter()
            .map(|&g| inner.groups()[g as usize].rules.len() as u32)
            .sum();
        let index = inner.indexes.of(&groups);
        Selection {
            groups: groups.into_boxed_slice(),
            len,
            crawl_delay,
            request_rate,
            index,
            scanned: AtomicU32::new(0),
        }
    }

    pub fn len(&self) -> usize {
        self.len as usize
    }

    /// The deciding rule for `path`: its index in `Inner::rules` and
    /// whether it allows.
    #[inline(always)]
    pub fn best(&self, inner: &Inner, path: &[u8]) -> Option<(u32, bool)> {
        match self.index.get() {
            Some(index) => index.best(inner, path),
            None => self.best_before_index(inner, path),
        }
    }

    /// `best` while no index is built: a scan, or the build.
    #[inline(never)]
    fn best_before_index(&self, inner: &Inner, path: &[u8]) -> Option<(u32, bool)> {
        let units = 1 + (path.len() / SCAN_PATH_UNIT).min(SCAN_BUDGET as usize) as u32;
        // Relaxed: the count only decides when to build; `OnceLock` makes
        // the build happen once, whichever thread gets there.
        let before = self.scanned.fetch_add(units, Ordering::Relaxed);
        if before.saturating_add(units) <= SCAN_BUDGET {
            if let Some(best) = self.scan(inner, path) {
                return best;
            }
        }
        self.index(inner).best(inner, path)
    }

    /// The index, built now if it is not yet.
    pub fn index(&self, inner: &Inner) -> &PrefixIndex {
        self.index
            .get_or_init(|| PrefixIndex::build(inner, self.rule_ids(inner)))
    }

    /// The index, if built: for prefetching.
    pub fn built(&self) -> Option<&PrefixIndex> {
        self.index.get()
    }

    fn rule_ids<'a>(&'a self, inner: &'a Inner) -> impl Iterator<Item = u32> + 'a {
        self.groups
            .iter()
            .flat_map(|&g| inner.groups()[g as usize].rules.clone())
    }

    /// The longest matching rule, allow winning ties, then the earliest:
    /// the index's order (§2.2.2), found by trying every rule; `None` when
    /// that would cost more than `SCAN_WORK` (the index then answers).
    fn scan(&self, inner: &Inner, path: &[u8]) -> Option<Option<(u32, bool)>> {
        // What trying one rule may cost, in rule steps: a wildcard
        // pattern searches the path for each of its segments.
        let glob_work = 1 + path.len() / SCAN_PATH_UNIT;
        let mut work = 0;
        let (rules, text) = (inner.rules(), inner.text());
        let path_head = head(path);
        // (pattern length, allows, rule id) of the best match so far.
        let mut best: Option<(u32, bool, u32)> = None;
        for id in self.rule_ids(inner) {
            let rule = &rules[id as usize];
            let len = rule.pattern.len;
            let allow = rule.allow();
            // Only a longer rule, or an allow as long as a disallow, beats
            // the best; file order settles the rest.
            if let Some((best_len, best_allow, _)) = best {
                if len < best_len || (len == best_len && (best_allow || !allow)) {
                    continue;
                }
            }
            let start = rule.pattern.start as usize;
            let pattern = &text[start..start + len as usize];
            work += glob_work * (1 + len as usize / SCAN_PATH_UNIT);
            if work > SCAN_WORK {
                return None;
            }
            if matches(text, start, pattern, path, path_head) {
                best = Some((len, allow, id));
            }
        }
        crate::work::add(work);
        Some(best.map(|(_, allow, id)| (id, allow)))
    }
}

/// Whether `pattern`, found at `start` in `text`, matches `path`, whose
/// `head` is given: most rules of a scan differ from the path in their
/// first bytes, settled here with one word compare and no byte loop (a
/// loop's exit, different for every rule, is a branch no predictor
/// learns), before `pattern::matches` has the rest.
#[inline(always)]
fn matches(text: &[u8], start: usize, pattern: &[u8], path: &[u8], path_head: u64) -> bool {
    let word = match text.get(start..start + 8) {
        Some(bytes) => u64::from_le_bytes(bytes.try_into().expect("8 bytes")),
        None => head(pattern),
    };
    // The literal head: up to 8 bytes, the pattern's own, before any `*`
    // or `$`.
    let literal = first_byte(word, b'*')
        .min(first_byte(word, b'$'))
        .min(pattern.len().min(8));
    let differ = (word ^ path_head).trailing_zeros() as usize / 8;
    if differ < literal || path.len() < literal {
        return false;
    }
    if literal == pattern.len() {
        return true;
    }
    pattern::matches(pattern, path)
}

/// The first 8 bytes of `s` as a little-endian word, zero-padded.
#[inline(always)]
fn head(s: &[u8]) -> u64 {
    let mut bytes = [0; 8];
    let n = s.len().min(8);
    bytes[..n].copy_from_slice(&s[..n]);
    u64::from_le_bytes(bytes)
}

/// The index of the first byte `b` in the little-endian `word`, or 8.
#[inline(always)]
fn first_byte(word: u64, b: u8) -> usize {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    let x = word ^ (ONES * u64::from(b));
    // The lowest byte flagged is the first zero byte of `x`: a borrow only
    // ever flags bytes above a zero one.
    let zeros = x.wrapping_sub(ONES) & !x & HIGHS;
    zeros.trailing_zeros() as usize / 8
}

#[cfg(test)]
mod tests {
    use crate::Robots;

    fn built(rules: &crate::Rules) -> bool {
        rules.parts().iter().all(|p| p.built().is_some())
    }

    /// The index comes with the check after `SCAN_BUDGET` scans, and stays.
    #[test]
    fn the_index_is_built_after_the_budget() {
        let robots = Robots::parse(b"User-agent: *\nDisallow: /a\nAllow: /a/*.css$\n");
        let rules = robots.rules_for("ExampleBot").unwrap();
        for i in 0..super::SCAN_BUDGET {
            assert!(!built(&rules), "built after {i} checks");
            assert!(!rules.can_fetch("/a/b"));
        }
        assert!(rules.can_fetch("/a/b.css"));
        assert!(built(&rules));
        // A copy keeps it, and so does a new selection of the same groups
        // from the same file; another file's starts again.
        assert!(built(&rules.clone()));
        assert!(built(&robots.rules_for("OtherBot").unwrap()));
        let again = Robots::parse(b"User-agent: *\nDisallow: /a\nAllow: /a/*.css$\n");
        assert!(!built(&again.rules_for("ExampleBot").unwrap()));
    }

    /// Past `SHARED_INDEXES` different selections of one file, each builds
    /// its own: the file keeps no more.
    #[test]
    fn a_file_shares_a_bounded_number_of_indexes() {
        let mut body = String::new();
        for i in 0..super::SHARED_INDEXES + 2 {
            body.push_str(&format!(
                "User-agent: bot{}\nDisallow: /{i}\n",
                "x".repeat(i + 1)
            ));
        }
        let robots = Robots::parse(body.as_bytes());
        for i in 0..super::SHARED_INDEXES + 2 {
            let token = format!("bot{}", "x".repeat(i + 1));
            robots.rules_for(&token).unwrap().compile();
            let shared = built(&robots.rules_for(&token).unwrap());
            assert_eq!(shared, i < super::SHARED_INDEXES, "selection {i}");
        }
    }

    /// A scan that would cost more than `SCAN_WORK` leaves the answer to
    /// the index, built at once, and answers the same.
    #[test]
    fn a_costly_scan_builds_the_index_instead() {
        let mut body = String::from("User-agent: *\nAllow: /*a*z\n");
        // Those shorter than the allow rule cost nothing: it is found first.
        for i in 0..super::SCAN_WORK + 1000 {
            body.push_str(&format!("Disallow: /*b*{i}\n"));
        }
        let robots = Robots::parse_with(
            body.as_bytes(),
            &crate::Options::default().with_parse_limit(1 << 24).unwrap(),
        );
        let rules = robots.rules_for("ExampleBot").unwrap();
        assert!(rules.can_fetch("/xaz"));
        assert!(built(&rules));
        let small = Robots::parse(b"User-agent: *\nAllow: /*a*z\nDisallow: /*b*1\n");
        let rules = small.rules_for("ExampleBot").unwrap();
        assert!(rules.can_fetch("/xaz"));
        assert!(!built(&rules));
    }

    /// A long path costs one scan per `SCAN_PATH_UNIT` bytes: long enough,
    /// it builds the index at once.
    #[test]
    fn a_long_path_builds_the_index_at_once() {
        let robots = Robots::parse(b"User-agent: *\nDisallow: /*x*y\n");
        let rules = robots.rules_for("ExampleBot").unwrap();
        assert!(rules.can_fetch(format!("/{}", "a".repeat(super::SCAN_PATH_UNIT))));
        assert!(!built(&rules));
        let long = format!("/{}", "x".repeat(super::SCAN_PATH_UNIT * 8));
        assert!(rules.can_fetch(&long));
        assert!(built(&rules));
    }

    /// `compile` builds every part's index: strictest-of keeps one a token.
    #[test]
    fn compile_builds_every_index() {
        let robots = Robots::parse(b"User-agent: a\nDisallow: /x\n\nUser-agent: b\nDisallow: /y\n");
        let rules = robots.rules_for_strictest(&["a", "b"]).unwrap();
        assert_eq!(rules.parts().len(), 2);
        rules.compile();
        assert!(built(&rules));
        assert!(!rules.can_fetch("/y/1"));
    }
}
