//! Every citation of the behaviour contract, `docs/behaviour.md`, names a
//! section the contract has: `behaviour §6`, `behaviour §4.1` and
//! `behaviour §6–§7` in comments and docs, and Markdown links to the
//! contract (`docs/behaviour.md#6-fetch-outcome--access` from the root),
//! whose path must lead to it and whose anchor must be one of its headings.
//! A citation of any other contract document fails.
//!
//! The walk covers the source and documentation the repository keeps:
//! build output, dependencies and fuzz inputs are left out.

use std::collections::{BTreeSet, HashMap};
use std::io::Write;
use std::path::{Component, Path, PathBuf};

/// The contract, relative to the repository root.
const CONTRACT: &str = "docs/behaviour.md";

/// Folders walked, and single files read, relative to the repository root.
const ROOTS: &[&str] = &[
    "src", "include", "bindings", "tests", "examples", "fuzz", "benches", "mk", "tools", "docs",
    ".ci",
];
const FILES: &[&str] = &[
    "README.md",
    "SECURITY.md",
    "BENCHMARKS.md",
    "Makefile",
    "Cargo.toml",
    "cbindgen.toml",
    "build.rs",
];

/// Folders that hold no source, whether or not a `.gitignore` says so:
/// build output, dependencies, caches. Fuzz inputs and findings are data,
/// not documentation, and `.gitignore` leaves them out too.
const SKIP_DIRS: &[&str] = &[
    "target",
    "build",
    "node_modules",
    ".git",
    "__pycache__",
    ".pytest_cache",
    ".mypy_cache",
    ".venv",
];

/// Written in two pieces so that this file does not cite anything itself.
const CITE: &str = concat!("behaviour ", "§");
const OTHER_CITES: &[&str] = &[concat!("SP", "EC §"), concat!("SP", "EC.md")];

/// The contract's headings: numbered sections and anchors.
struct Contract {
    /// "1" … "9", "4.1", …
    sections: BTreeSet<String>,
    /// GitHub's anchors for every heading.
    anchors: BTreeSet<String>,
    /// Top-level section numbers in document order.
    top: Vec<u32>,
}

/// GitHub's anchor for a heading: lower case, punctuation and symbols
/// dropped (letters, digits, `-` and `_` stay), spaces as `-`.
fn slug(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            '-' | '_' => Some(c),
            c if c.is_alphanumeric() => Some(c),
            _ => None,
        })
        .collect()
}

/// The leading section number of a heading (`6. Fetch…` → `6`,
/// `4.1 Percent…` → `4.1`), if it has one.
fn heading_number(text: &str) -> Option<String> {
    let end = text
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(text.len());
    let number = text[..end].trim_end_matches('.');
    let well_formed = !number.is_empty()
        && number
            .split('.')
            .all(|part| !part.is_empty() && part.bytes().all(|b| b.is_ascii_digit()));
    (well_formed && text[end..].starts_with(' ')).then(|| number.to_string())
}

fn read_contract(root: &Path) -> Contract {
    let text = std::fs::read_to_string(root.join(CONTRACT))
        .unwrap_or_else(|e| panic!("{CONTRACT} cannot be read: {e}"));
    let mut contract = Contract {
        sections: BTreeSet::new(),
        anchors: BTreeSet::new(),
        top: Vec::new(),
    };
    let mut seen: HashMap<String, usize> = HashMap::new();
    let mut fence = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fence = !fence;
        }
        if fence || !line.starts_with('#') {
            continue;
        }
        let level = line.bytes().take_while(|&b| b == b'#').count();
        let Some(heading) = line[level..].strip_prefix(' ') else {
            continue;
        };
        // Repeated headings get -1, -2, … as on GitHub.
        let base = slug(heading);
        let count = seen.entry(base.clone()).or_insert(0);
        let anchor = match *count {
            0 => base.clone(),
            n => format!("{base}-{n}"),
        };
        *count += 1;
        contract.anchors.insert(anchor);
        if let Some(number) = heading_number(heading.trim()) {
            if level == 2 && !number.contains('.') {
                contract.top.push(number.parse().expect("digits"));
            }
            assert!(
                contract.sections.insert(number.clone()),
                "{CONTRACT}: section {number} is numbered twice"
            );
        }
    }
    contract
}

/// `*` matches any run of characters but `/`; everything else is literal.
fn glob(pattern: &[u8], name: &[u8]) -> bool {
    match pattern.split_first() {
        None => name.is_empty(),
        Some((b'*', rest)) => (0..=name.len()).any(|skip| glob(rest, &name[skip..])),
        Some((&c, rest)) => name.first() == Some(&c) && glob(rest, &name[1..]),
    }
}

/// The patterns of one `.gitignore`, for the files under its folder: the
/// untracked files (staged copies, build output) are not the repository's.
/// Enough of git's rules for this repository's files: `*`, a leading or
/// inner `/` anchors, a trailing `/` matches folders only; `!` is not read.
struct Ignore {
    /// The folder of the `.gitignore`, relative to the root.
    base: PathBuf,
    /// (pattern, anchored, folders only)
    patterns: Vec<(String, bool, bool)>,
}

impl Ignore {
    fn read(root: &Path, base: &Path) -> Option<Ignore> {
        let text = std::fs::read_to_string(root.join(base).join(".gitignore")).ok()?;
        let patterns = text
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty() && !l.starts_with('#') && !l.starts_with('!'))
            .map(|l| {
                let dir_only = l.ends_with('/');
                let l = l.trim_end_matches('/');
                let anchored = l.contains('/');
                (l.trim_start_matches('/').to_string(), anchored, dir_only)
            })
            .collect();
        Some(Ignore {
            base: base.to_path_buf(),
            patterns,
        })
    }

    fn ignores(&self, rel: &Path, is_dir: bool) -> bool {
        let Ok(below) = rel.strip_prefix(&self.base) else {
            return false;
        };
        let below = below.to_string_lossy();
        let name = below.rsplit('/').next().unwrap_or_default();
        self.patterns.iter().any(|(pattern, anchored, dir_only)| {
            (is_dir || !dir_only)
                && if *anchored {
                    let parts: Vec<&str> = pattern.split('/').collect();
                    let names: Vec<&str> = below.split('/').collect();
                    parts.len() == names.len()
                        && parts
                            .iter()
                            .zip(&names)
                            .all(|(p, n)| glob(p.as_bytes(), n.as_bytes()))
                } else {
                    glob(pattern.as_bytes(), name.as_bytes())
                }
        })
    }
}

/// Files under `dir` worth reading, in a stable order.
fn walk(root: &Path, dir: &Path, ignores: &mut Vec<Ignore>, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let rel_dir = dir.strip_prefix(root).expect("under root");
    let scoped = Ignore::read(root, rel_dir)
        .map(|i| ignores.push(i))
        .is_some();
    let mut entries: Vec<_> = entries.filter_map(Result::ok).collect();
    entries.sort_by_key(|e| e.file_name());
    for entry in entries {
        let path = entry.path();
        let rel = path.strip_prefix(root).expect("under root");
        let Ok(kind) = entry.file_type() else {
            continue;
        };
        let is_dir = kind.is_dir();
        if ignores.iter().any(|i| i.ignores(rel, is_dir)) {
            continue;
        }
        if is_dir {
            if !SKIP_DIRS.iter().any(|d| entry.file_name() == *d) {
                walk(root, &path, ignores, out);
            }
        } else if kind.is_file() {
            out.push(path);
        }
    }
    if scoped {
        ignores.pop();
    }
}

/// `a/b/../c` → `a/c`, without touching the file system.
fn normalise(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for part in path.components() {
        match part {
            Component::ParentDir => {
                if !out.pop() {
                    out.push("..");
                }
            }
            Component::CurDir => {}
            other => out.push(other),
        }
    }
    out
}

/// A section number at the start of `s` (`4`, `4.1`), and its length.
fn cited_number(s: &str) -> Option<(&str, usize)> {
    let b = s.as_bytes();
    let digits = |from: usize| b[from..].iter().take_while(|c| c.is_ascii_digit()).count();
    let mut end = digits(0);
    if end == 0 {
        return None;
    }
    // A `.` continues the number only when a digit follows it.
    while end + 1 < b.len() && b[end] == b'.' && b[end + 1].is_ascii_digit() {
        end += 1 + digits(end + 1);
    }
    Some((&s[..end], end))
}

/// Checks one file's citations; returns how many there were.
fn check_file(
    root: &Path,
    rel: &Path,
    text: &str,
    contract: &Contract,
    problems: &mut Vec<String>,
) -> usize {
    let line_of = |at: usize| text[..at].matches('\n').count() + 1;
    let where_ = |at: usize| format!("{}:{}", rel.display(), line_of(at));
    let mut checked = 0;

    for other in OTHER_CITES {
        for (at, _) in text.match_indices(other) {
            problems.push(format!(
                "{}: `{other}…` is no citation of {CONTRACT}: cite it as `{CITE}N`",
                where_(at)
            ));
        }
    }

    // `behaviour §6`, `behaviour §4.1`, `behaviour §6–§7`.
    for (at, _) in text.match_indices(CITE) {
        checked += 1;
        let rest = &text[at + CITE.len()..];
        let Some((first, len)) = cited_number(rest) else {
            problems.push(format!("{}: `{CITE}` without a section number", where_(at)));
            continue;
        };
        let mut numbers = vec![first];
        let after = &rest[len..];
        let range = after
            .strip_prefix('–')
            .or_else(|| after.strip_prefix('-'))
            .map(|r| r.strip_prefix('§').unwrap_or(r));
        if let Some((last, _)) = range.and_then(cited_number) {
            numbers.push(last);
        }
        for number in numbers {
            if !contract.sections.contains(number) {
                problems.push(format!(
                    "{}: {CITE}{number} is cited, but {CONTRACT} has no section {number}",
                    where_(at)
                ));
            }
        }
    }

    // Markdown links to the contract, and, inside the contract, to its
    // own headings (an anchor with no path).
    let is_contract = rel == Path::new(CONTRACT);
    for (at, _) in text.match_indices("](") {
        let target_start = at + 2;
        let Some(len) = text[target_start..].find([')', ' ', '\n']) else {
            continue;
        };
        let target = &text[target_start..target_start + len];
        let (path, anchor) = match target.split_once('#') {
            Some((path, anchor)) => (path, Some(anchor)),
            None => (target, None),
        };
        let dir = rel.parent().unwrap_or(Path::new(""));
        let external = path.contains("://") || path.starts_with("mailto:");
        if is_contract && !path.is_empty() && !external && !root.join(dir).join(path).exists() {
            problems.push(format!(
                "{}: link to `{path}`, which does not exist",
                where_(at)
            ));
        }
        let to_contract = if path.is_empty() {
            is_contract
        } else if path.ends_with("behaviour.md") {
            let resolved = normalise(&dir.join(path));
            if resolved != Path::new(CONTRACT) {
                problems.push(format!(
                    "{}: link to `{path}` resolves to {}, not {CONTRACT}",
                    where_(at),
                    resolved.display()
                ));
                checked += 1;
                continue;
            }
            true
        } else {
            false
        };
        if !to_contract {
            continue;
        }
        checked += 1;
        if let Some(anchor) = anchor {
            if !contract.anchors.contains(anchor) {
                problems.push(format!(
                    "{}: link to {CONTRACT}#{anchor}, a heading {CONTRACT} does not have",
                    where_(at)
                ));
            }
        }
    }
    checked
}

#[test]
fn every_citation_names_a_section_the_contract_has() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let contract = read_contract(root);

    // The numbering is what citations rely on: 1, 2, 3, … with no gap.
    let expected: Vec<u32> = (1..=contract.top.len() as u32).collect();
    assert_eq!(
        contract.top, expected,
        "{CONTRACT}: top-level sections must be numbered 1, 2, 3, … in order"
    );
    assert!(
        contract.top.len() >= 9,
        "{CONTRACT}: sections 1 to 9 are cited throughout the repository"
    );

    let mut files = Vec::new();
    let mut ignores: Vec<Ignore> = Ignore::read(root, Path::new("")).into_iter().collect();
    for dir in ROOTS {
        walk(root, &root.join(dir), &mut ignores, &mut files);
    }
    files.extend(FILES.iter().map(|f| root.join(f)).filter(|p| p.is_file()));

    let mut problems = Vec::new();
    let (mut citations, mut citing_files, mut read) = (0, 0, 0);
    for path in &files {
        let rel = path.strip_prefix(root).expect("under root");
        let Ok(bytes) = std::fs::read(path) else {
            continue;
        };
        // Text only: binaries and non-UTF-8 data have no citations.
        let Ok(text) = String::from_utf8(bytes) else {
            continue;
        };
        if text.contains('\0') {
            continue;
        }
        read += 1;
        let n = check_file(root, rel, &text, &contract, &mut problems);
        citations += n;
        citing_files += usize::from(n > 0);
    }

    // Printed past the test harness's capture, so that a passing run shows it.
    let _ = writeln!(
        std::io::stderr(),
        "doc_refs: checked {citations} citations of {CONTRACT} in {citing_files} files \
         ({read} files read; {} numbered sections, {} anchors)",
        contract.sections.len(),
        contract.anchors.len(),
    );
    assert!(
        citations > 0,
        "no citation found: is the walk reading the repository?"
    );
    assert!(
        problems.is_empty(),
        "{} citation problem(s):\n  {}",
        problems.len(),
        problems.join("\n  ")
    );
}

#[test]
fn anchors_are_githubs() {
    assert_eq!(slug("6. Fetch outcome → access"), "6-fetch-outcome--access");
    assert_eq!(slug("4.1 Percent-encoding"), "41-percent-encoding");
    assert_eq!(
        slug("9. Acceptance: the practice shop"),
        "9-acceptance-the-practice-shop"
    );
    assert_eq!(
        heading_number("4.1 Percent-encoding").as_deref(),
        Some("4.1")
    );
    assert_eq!(heading_number("6. Fetch outcome").as_deref(), Some("6"));
    assert_eq!(heading_number("Percent-encoding"), None);
    assert_eq!(cited_number("6–§7)"), Some(("6", 1)));
    assert_eq!(cited_number("4.1."), Some(("4.1", 3)));
    assert_eq!(cited_number("10.2, x"), Some(("10.2", 4)));
    assert_eq!(cited_number("x"), None);
    assert!(glob(b"*.node", b"robotstxt.linux-x64-gnu.node"));
    assert!(!glob(b"*.node", b"index.js"));
    let ignore = Ignore {
        base: PathBuf::new(),
        patterns: vec![
            ("bindings/go/lib/*/librobotstxt.a".into(), true, false),
            ("node_modules".into(), false, true),
        ],
    };
    assert!(ignore.ignores(
        Path::new("bindings/go/lib/linux_amd64/librobotstxt.a"),
        false
    ));
    assert!(ignore.ignores(Path::new("bindings/node/node_modules"), true));
    assert!(!ignore.ignores(Path::new("bindings/node/node_modules"), false));
    assert!(!ignore.ignores(Path::new("bindings/go/cgo.go"), false));
}

#[test]
fn missing_sections_and_anchors_are_flagged() {
    let contract = Contract {
        sections: ["1", "4", "4.1", "6"].map(String::from).into(),
        anchors: ["4-matching", "6-fetch-outcome--access"]
            .map(String::from)
            .into(),
        top: vec![1, 4, 6],
    };
    let other = concat!("SP", "EC §6");
    let text = format!(
        "{CITE}4.1, {CITE}6–{CITE}7 and {CITE}4–§6; {other}\n\
         [a]({CONTRACT}#6-fetch-outcome--access) [b](../{CONTRACT}#4-matching)\n\
         [c]({CONTRACT}#nope) [d](https://example.com/x)\n"
    );
    let mut problems = Vec::new();
    let checked = check_file(
        Path::new("."),
        Path::new("README.md"),
        &text,
        &contract,
        &mut problems,
    );
    // 4.1, 6, 7, 4–6: four citations; three links to the contract.
    assert_eq!(checked, 7, "{problems:#?}");
    let wanted = [
        "README.md:1: behaviour §7 is cited".to_string(),
        format!("README.md:1: `{}…` is no citation", OTHER_CITES[0]),
        "README.md:2: link to `../docs/behaviour.md` resolves to".to_string(),
        "README.md:3: link to docs/behaviour.md#nope".to_string(),
    ];
    assert_eq!(problems.len(), wanted.len(), "{problems:#?}");
    for want in &wanted {
        assert!(
            problems.iter().any(|p| p.starts_with(want.as_str())),
            "{want} in {problems:#?}"
        );
    }
}
