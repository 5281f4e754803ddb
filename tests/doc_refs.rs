//! Every citation of the behaviour contract, `docs/behaviour.md`, names a
//! section the contract has: `behaviour §6`, `behaviour §4.1` and
//! `behaviour §6–§7` in comments and docs, and Markdown links to the
//! contract (`docs/behaviour.md#6-fetch-outcome--access` from the root),
//! whose path must lead to it and whose anchor must be one of its headings.
//! A citation of any other contract document fails.
//!
//! The walk covers the source and documentation the repository keeps:
//! build output, dependencies and fuzz inputs are left out.
//!
//! The second test holds the documentation's own links: every relative
//! link in README.md, the other root documents and docs/ leads to a file
//! or folder of the repository, and an `#anchor` into a Markdown file to
//! one of its headings. A block of code shown from a file of the
//! repository (the Go polite crawler, for one) is that file's text.

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
    "CHANGELOG.md",
    "CONTRIBUTING.md",
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

/// Whether `line` opens or closes a fenced code block.
fn is_fence(line: &str) -> bool {
    let line = line.trim_start();
    line.starts_with("```") || line.starts_with("~~~")
}

/// A Markdown file's headings outside code blocks: (level, text, GitHub's
/// anchor). Repeated headings get -1, -2, … as on GitHub; a link in a
/// heading counts by its text.
fn headings(text: &str) -> Vec<(usize, String, String)> {
    let mut out = Vec::new();
    let mut seen: HashMap<String, usize> = HashMap::new();
    let mut fence = false;
    for line in text.lines() {
        if is_fence(line) {
            fence = !fence;
        }
        if fence || !line.starts_with('#') {
            continue;
        }
        let level = line.bytes().take_while(|&b| b == b'#').count();
        let Some(heading) = line[level..].strip_prefix(' ') else {
            continue;
        };
        let base = slug(&link_text(heading.trim_end().trim_end_matches('#')));
        let count = seen.entry(base.clone()).or_insert(0);
        let anchor = match *count {
            0 => base.clone(),
            n => format!("{base}-{n}"),
        };
        *count += 1;
        out.push((level, heading.to_string(), anchor));
    }
    out
}

/// `[text](target)` → `text`: what a heading with a link reads as.
fn link_text(heading: &str) -> String {
    let mut out = String::new();
    let mut rest = heading;
    while let Some(at) = rest.find("](") {
        let close = rest[at..].find(')').map_or(rest.len(), |c| at + c + 1);
        out.push_str(&rest[..at].replacen('[', "", 1));
        rest = &rest[close..];
    }
    out.push_str(rest);
    out
}

fn read_contract(root: &Path) -> Contract {
    let text = std::fs::read_to_string(root.join(CONTRACT))
        .unwrap_or_else(|e| panic!("{CONTRACT} cannot be read: {e}"));
    let mut contract = Contract {
        sections: BTreeSet::new(),
        anchors: BTreeSet::new(),
        top: Vec::new(),
    };
    for (level, heading, anchor) in headings(&text) {
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
            // `..` past the start stays: `../../x` is outside, not `x`.
            Component::ParentDir => {
                if out.file_name().is_some() {
                    out.pop();
                } else {
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
        // A page shown outside the repository (the package index's) links
        // to the contract by URL, which is not resolved here.
        let to_contract = if path.is_empty() {
            is_contract
        } else if path.ends_with("behaviour.md") && !external {
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

// --- The documentation's own links ---

/// Markdown documents whose relative links must resolve: files, or
/// folders whose `.md` files are all read.
const LINKED: &[&str] = &[
    "README.md",
    "CHANGELOG.md",
    "CONTRIBUTING.md",
    "SECURITY.md",
    "BENCHMARKS.md",
    "docs",
];

/// Code blocks that show a file of the repository: the block whose fence
/// says `info`, in any document of `LINKED`, is a run of whole lines of
/// `file` (`mk/go.mk` also compares README.md's Go crawler with it).
const SHOWN: &[(&str, &str)] = &[
    ("go polite", "examples/go/polite/polite.go"),
    ("js polite", "examples/node/polite-crawler.mjs"),
];

/// `text` with code blocks and code spans blanked (newlines kept, so
/// that line numbers hold): a `](` in code is no link.
fn prose(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut fence = false;
    for line in text.split_inclusive('\n') {
        if is_fence(line) {
            fence = !fence;
        }
        if fence || is_fence(line) {
            out.extend(line.chars().map(|c| if c == '\n' { c } else { ' ' }));
        } else {
            out.push_str(line);
        }
    }
    // Code spans: a run of backticks up to the next run as long, within a
    // paragraph (it may cross a line end, not a blank line).
    let chars: Vec<char> = out.chars().collect();
    let mut blanked = String::with_capacity(out.len());
    let mut i = 0;
    while i < chars.len() {
        if chars[i] != '`' {
            blanked.push(chars[i]);
            i += 1;
            continue;
        }
        let run = chars[i..].iter().take_while(|&&c| c == '`').count();
        let mut j = i + run;
        let mut close = None;
        while j < chars.len() {
            if chars[j] == '\n'
                && chars[j + 1..]
                    .iter()
                    .take_while(|c| **c != '\n')
                    .all(|c| c.is_whitespace())
            {
                break;
            }
            if chars[j] == '`' {
                let n = chars[j..].iter().take_while(|&&c| c == '`').count();
                if n == run {
                    close = Some(j + n);
                    break;
                }
                j += n;
            } else {
                j += 1;
            }
        }
        let end = close.unwrap_or(i + run);
        if close.is_some() {
            blanked.extend(
                chars[i..end]
                    .iter()
                    .map(|&c| if c == '\n' { c } else { ' ' }),
            );
        } else {
            blanked.extend(&chars[i..end]);
        }
        i = end;
    }
    blanked
}

/// The link targets of `text` (prose only) with their byte offsets:
/// inline links `[text](target)` and reference definitions
/// `[label]: target`.
fn link_targets(text: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    for (at, _) in text.match_indices("](") {
        let start = at + 2;
        let rest = &text[start..];
        let target = match rest.strip_prefix('<') {
            Some(inner) => inner.split('>').next().unwrap_or(""),
            None => rest.split([')', ' ', '\n']).next().unwrap_or(""),
        };
        out.push((start, target));
    }
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        let trimmed = line.trim_start();
        if trimmed.starts_with('[') && !trimmed.starts_with("[^") {
            if let Some(close) = trimmed.find("]:") {
                let target = trimmed[close + 2..].split_whitespace().next().unwrap_or("");
                if !target.is_empty() {
                    out.push((offset + (line.len() - trimmed.len()) + close + 2, target));
                }
            }
        }
        offset += line.len();
    }
    out
}

/// The anchors a Markdown file has: its headings' and any `id`/`name` an
/// HTML element gives.
fn anchors_of(text: &str) -> BTreeSet<String> {
    let mut anchors: BTreeSet<String> = headings(text).into_iter().map(|(_, _, a)| a).collect();
    for attribute in ["id=\"", "name=\""] {
        for (at, _) in text.match_indices(attribute) {
            let value = &text[at + attribute.len()..];
            if let Some(end) = value.find('"') {
                anchors.insert(value[..end].to_string());
            }
        }
    }
    anchors
}

/// Checks the links of one Markdown file; returns how many were relative.
fn check_links(
    root: &Path,
    rel: &Path,
    text: &str,
    anchors: &mut HashMap<PathBuf, Option<BTreeSet<String>>>,
    problems: &mut Vec<String>,
) -> usize {
    // The file's own anchors come from the text at hand.
    anchors.insert(rel.to_path_buf(), Some(anchors_of(text)));
    let prose = prose(text);
    let line_of = |at: usize| prose[..at].matches('\n').count() + 1;
    let dir = rel.parent().unwrap_or(Path::new(""));
    let mut checked = 0;
    for (at, target) in link_targets(&prose) {
        let where_ = format!("{}:{}", rel.display(), line_of(at));
        if target.is_empty() || target.contains("://") || target.starts_with("mailto:") {
            continue;
        }
        checked += 1;
        let (path, anchor) = match target.split_once('#') {
            Some((path, anchor)) => (path, Some(anchor)),
            None => (target, None),
        };
        let resolved = if path.is_empty() {
            rel.to_path_buf()
        } else {
            normalise(&dir.join(path))
        };
        if path.starts_with('/') || resolved.starts_with("..") {
            problems.push(format!(
                "{where_}: link to `{target}` leads outside the repository \
                 (links are relative to {})",
                if dir.as_os_str().is_empty() {
                    "the root".to_string()
                } else {
                    dir.display().to_string()
                }
            ));
            continue;
        }
        if !root.join(&resolved).exists() {
            problems.push(format!(
                "{where_}: link to `{target}`: {} does not exist",
                resolved.display()
            ));
            continue;
        }
        let Some(anchor) = anchor else { continue };
        if resolved.extension().is_none_or(|e| e != "md") {
            continue; // `#L10` into source and the like: GitHub's, not ours
        }
        let known = anchors.entry(resolved.clone()).or_insert_with(|| {
            std::fs::read_to_string(root.join(&resolved))
                .ok()
                .map(|t| anchors_of(&t))
        });
        if !known.as_ref().is_some_and(|a| a.contains(anchor)) {
            problems.push(format!(
                "{where_}: link to `{target}`: {} has no heading with the anchor `{anchor}`",
                resolved.display()
            ));
        }
    }
    checked
}

/// The fenced blocks of `text` whose info string is `info`, as written.
fn blocks(text: &str, info: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut current: Option<(usize, String)> = None;
    for (number, line) in text.lines().enumerate() {
        match current.as_mut() {
            Some(_) if line.trim() == "```" => out.extend(current.take()),
            Some((_, block)) => {
                block.push_str(line);
                block.push('\n');
            }
            None if line.trim_start().strip_prefix("```").map(str::trim) == Some(info) => {
                current = Some((number + 1, String::new()));
            }
            None => {}
        }
    }
    out
}

/// The Markdown files of `LINKED`, relative to the root.
fn linked_documents(root: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for entry in LINKED {
        let path = root.join(entry);
        if path.is_dir() {
            let mut files: Vec<PathBuf> = std::fs::read_dir(&path)
                .map(|d| d.filter_map(Result::ok).map(|e| e.path()).collect())
                .unwrap_or_default();
            files.retain(|f| f.extension().is_some_and(|e| e == "md"));
            files.sort();
            out.extend(
                files
                    .into_iter()
                    .map(|f| f.strip_prefix(root).expect("under root").to_path_buf()),
            );
        } else if path.is_file() {
            out.push(PathBuf::from(entry));
        }
    }
    out
}

#[test]
fn every_relative_link_in_the_documents_resolves() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let documents = linked_documents(root);
    assert!(
        documents.iter().any(|d| d == Path::new("README.md")),
        "README.md is missing: is the test reading the repository?"
    );
    let mut anchors = HashMap::new();
    let mut problems = Vec::new();
    let (mut links, mut shown) = (0, 0);
    for rel in &documents {
        let text = std::fs::read_to_string(root.join(rel))
            .unwrap_or_else(|e| panic!("{} cannot be read: {e}", rel.display()));
        links += check_links(root, rel, &text, &mut anchors, &mut problems);
        for (info, file) in SHOWN {
            for (line, block) in blocks(&text, info) {
                shown += 1;
                let source = std::fs::read_to_string(root.join(file)).unwrap_or_default();
                let whole_lines =
                    source.starts_with(&block) || source.contains(&format!("\n{block}"));
                if !whole_lines {
                    problems.push(format!(
                        "{}:{line}: the `{info}` block is not {file} as it is: copy it again",
                        rel.display()
                    ));
                }
            }
        }
    }
    let _ = writeln!(
        std::io::stderr(),
        "doc_refs: checked {links} relative links and {shown} blocks shown from files \
         in {} documents",
        documents.len()
    );
    assert!(
        problems.is_empty(),
        "{} link problem(s):\n  {}",
        problems.len(),
        problems.join("\n  ")
    );
}

#[test]
fn broken_links_are_flagged() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    // The contract's path is spelt through CONTRACT, so that the citation
    // test does not read this file's example as a link of its own.
    let text = format!(
        "## Contents\n[a](../examples/node/polite-crawler.mjs) [b](examples/nope.mjs)\n\
         [c](README.md#no-such-heading) [d](#contents) [e](https://example.com/x)\n\
         `[f](nope.md)` and [g]({CONTRACT}#4-matching)\n\
         ```\n[h](nope.md)\n```\n\
         [i]: ../../outside.md\n"
    );
    let mut problems = Vec::new();
    let checked = check_links(
        root,
        Path::new("README.md"),
        &text,
        &mut HashMap::new(),
        &mut problems,
    );
    // a, b, c, d, g, i: the code span, the code block and the URL are not read.
    assert_eq!(checked, 6, "{problems:#?}");
    let wanted = [
        "README.md:2: link to `../examples/node/polite-crawler.mjs` leads outside",
        "README.md:2: link to `examples/nope.mjs`: examples/nope.mjs does not exist",
        "README.md:3: link to `README.md#no-such-heading`: README.md has no heading",
        "README.md:8: link to `../../outside.md` leads outside",
    ];
    assert_eq!(problems.len(), wanted.len(), "{problems:#?}");
    for want in wanted {
        assert!(
            problems.iter().any(|p| p.starts_with(want)),
            "{want} in {problems:#?}"
        );
    }
    assert_eq!(
        link_text("Fetching robots.txt: [`RobotsCache`](x.md) and `Pacer.wait`"),
        "Fetching robots.txt: `RobotsCache` and `Pacer.wait`"
    );
    assert_eq!(
        slug("Fetching robots.txt: `RobotsCache` and `Pacer.wait`"),
        "fetching-robotstxt-robotscache-and-pacerwait"
    );
    let repeated = anchors_of("# A\n## Install\n```\n# not a heading\n```\n## Install\n");
    assert!(repeated.contains("install") && repeated.contains("install-1"));
    assert!(!repeated.contains("not-a-heading"));
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
