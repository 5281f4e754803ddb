//! Reading the shared corpus and benchmark workload (`../shared`).

#![allow(dead_code)]

use std::path::PathBuf;

pub mod counting;

/// `../shared`, or `$ROBOTSTXT_SHARED`.
pub fn shared() -> PathBuf {
    match std::env::var_os("ROBOTSTXT_SHARED") {
        Some(dir) => PathBuf::from(dir),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared"),
    }
}

/// Rows of a TSV of the workload, without the header.
pub fn tsv(name: &str) -> Vec<Vec<String>> {
    let path = shared().join("bench").join(name);
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e} (set ROBOTSTXT_SHARED)", path.display()));
    text.lines()
        .skip(1)
        .map(|l| l.split('\t').map(str::to_owned).collect())
        .collect()
}

/// A corpus file (`files/<name>.txt`) or workload file, as bytes.
pub fn read(relative: &str) -> Vec<u8> {
    for base in [shared().join("corpus"), shared().join("bench")] {
        if let Ok(bytes) = std::fs::read(base.join(relative)) {
            return bytes;
        }
    }
    panic!("cannot read {relative} under {}", shared().display());
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
