//! The corpus and workload the tests read: the full shared data
//! (`$ROBOTSTXT_SHARED`, or `../shared`) when it is there, and the
//! committed sample `tests/corpus-sample` (same layout, a slice of it;
//! `tools/sample-corpus.py`) otherwise, so that a bare clone tests too.

#![allow(dead_code)]

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

pub mod counting;
pub mod redis_cluster;
pub mod redis_server;

/// The data a test binary runs on, chosen once.
pub struct Data {
    /// Holds `corpus/files/` and `bench/`.
    pub root: PathBuf,
    /// The full shared data rather than the sample.
    pub full: bool,
    /// Files in `corpus/files/`.
    pub files: usize,
}

/// The shared directory: `$ROBOTSTXT_SHARED`, or `../shared`.
fn shared_dir() -> PathBuf {
    match std::env::var_os("ROBOTSTXT_SHARED") {
        Some(dir) if !dir.is_empty() => PathBuf::from(dir),
        _ => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared"),
    }
}

fn has_data(root: &Path) -> bool {
    root.join("corpus/files").is_dir() && root.join("bench/parse_files.tsv").is_file()
}

/// The full shared data if present, else the committed sample; says which
/// on first use.
pub fn data() -> &'static Data {
    static DATA: OnceLock<Data> = OnceLock::new();
    DATA.get_or_init(|| {
        let shared = shared_dir();
        // The Makefile exports ROBOTSTXT_SHARED even when it does not exist.
        let full = has_data(&shared);
        let root = if full {
            shared.clone()
        } else {
            PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/corpus-sample")
        };
        let files = std::fs::read_dir(root.join("corpus/files"))
            .unwrap_or_else(|e| panic!("{}/corpus/files: {e}", root.display()))
            .count();
        let line = if full {
            format!(
                "corpus: full shared corpus ({files} files) at {}",
                root.display()
            )
        } else {
            format!(
                "corpus: committed sample tests/corpus-sample ({files} files); \
                 the full corpus is in ../shared (none at {})",
                shared.display()
            )
        };
        // Straight to stderr: libtest captures println!, and this line
        // must show in every run.
        let _ = writeln!(std::io::stderr(), "{line}");
        Data { root, full, files }
    })
}

/// Rows of a TSV of the workload, without the header.
pub fn tsv(name: &str) -> Vec<Vec<String>> {
    let path = data().root.join("bench").join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines()
        .skip(1)
        .map(|l| l.split('\t').map(str::to_owned).collect())
        .collect()
}

/// A corpus file (`files/<name>.txt`) or workload file, as bytes.
pub fn read(relative: &str) -> Vec<u8> {
    let root = &data().root;
    for base in [root.join("corpus"), root.join("bench")] {
        if let Ok(bytes) = std::fs::read(base.join(relative)) {
            return bytes;
        }
    }
    panic!("cannot read {relative} under {}", root.display());
}

/// The largest file of kind `robots` (`parse_files.tsv`): its name and
/// size. The 3.7 MB one in the full corpus, a 514 KB one in the sample;
/// both exceed the parse limit.
pub fn largest_robots() -> (String, usize) {
    tsv("parse_files.tsv")
        .into_iter()
        .filter(|row| row[3] == "robots")
        .map(|row| (row[0].clone(), row[1].parse().unwrap()))
        .max_by_key(|(_, bytes)| *bytes)
        .expect("no robots file in parse_files.tsv")
}

/// The check workload: each sample file with its URLs, in file order.
pub fn check_workload() -> Vec<(String, Vec<String>)> {
    let mut out: Vec<(String, Vec<String>)> = Vec::new();
    for row in tsv("check_urls.tsv") {
        match out.last_mut() {
            Some((file, urls)) if *file == row[0] => urls.push(row[2].clone()),
            _ => out.push((row[0].clone(), vec![row[2].clone()])),
        }
    }
    out
}

/// The worst cases: (source file, URLs).
pub fn worst_cases() -> Vec<(String, Vec<String>)> {
    let mut out: Vec<(String, Vec<String>)> = Vec::new();
    for row in tsv("worst_cases.tsv") {
        match out.last_mut() {
            Some((file, urls)) if *file == row[1] => urls.push(row[3].clone()),
            _ => out.push((row[1].clone(), vec![row[3].clone()])),
        }
    }
    out
}
