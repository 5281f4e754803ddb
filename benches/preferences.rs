//! What usage preferences (behaviour §10) cost, and that checks which do
//! not ask for them cost what they did: on the check workload of
//! `../shared/bench` (2,000 files × 20 URLs, ExampleBot), each file as it
//! is and with a `Content-Usage` and a `Content-Signal` line put after its
//! first `user-agent` line (where they change no access answer).
//!
//! `cargo bench --bench preferences [-- --rounds N --out FILE]`

mod common;

use std::collections::BTreeMap;
use std::hint::black_box;
use std::path::PathBuf;
use std::time::Instant;

use robotstxt::{Robots, Rules};

const TOKEN: &str = "ExampleBot";
/// Each file's URLs are asked this many times over in one timing, as in
/// benches/compare.rs.
const PASSES: usize = 20;
const ADDED: &str = "Content-Usage: train-ai=n\nContent-Usage: /blog/ train-ai=y, search=y\n\
                     Content-Signal: search=yes, ai-input=no, ai-train=no\n";

fn shared() -> PathBuf {
    let dir =
        PathBuf::from(std::env::var("ROBOTSTXT_SHARED").unwrap_or_else(|_| "../shared".into()));
    let urls = dir.join("bench/check_urls.tsv");
    assert!(
        urls.is_file(),
        "benches/preferences needs the full workload: {} is missing (set ROBOTSTXT_SHARED)",
        urls.display()
    );
    dir
}

/// `body` with `ADDED` after its first `user-agent` line (unchanged when it
/// has none).
fn with_preferences(body: &[u8]) -> Vec<u8> {
    let mut at = 0;
    for line in body.split_inclusive(|&b| b == b'\n') {
        at += line.len();
        let key = line.iter().position(|&b| b == b':').map(|c| &line[..c]);
        if key.is_some_and(|k| k.trim_ascii().eq_ignore_ascii_case(b"user-agent")) {
            let mut out = body[..at].to_vec();
            if !out.ends_with(b"\n") {
                out.push(b'\n');
            }
            out.extend_from_slice(ADDED.as_bytes());
            out.extend_from_slice(&body[at..]);
            return out;
        }
    }
    body.to_vec()
}

/// ns per URL of one pass of `f` over every file's URLs, `PASSES` times
/// each.
fn pass(files: &[(Rules, Vec<String>)], f: &impl Fn(&Rules, &str)) -> f64 {
    let urls: usize = files.iter().map(|(_, u)| u.len()).sum();
    let start = Instant::now();
    for (rules, file_urls) in files {
        for _ in 0..PASSES {
            for url in file_urls {
                f(rules, url);
            }
        }
    }
    start.elapsed().as_nanos() as f64 / (urls * PASSES) as f64
}

/// `f` on the files as they are and on the files with preference lines,
/// the two taking turns round by round so that both meet the same
/// machine; the median of `rounds` each.
fn side_by_side(
    rounds: usize,
    plain: &[(Rules, Vec<String>)],
    marked: &[(Rules, Vec<String>)],
    f: impl Fn(&Rules, &str),
) -> (f64, f64) {
    let (mut a, mut b): (Vec<f64>, Vec<f64>) = (0..rounds)
        .map(|_| (pass(plain, &f), pass(marked, &f)))
        .unzip();
    let median = |v: &mut Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    (median(&mut a), median(&mut b))
}

fn main() {
    let rounds = common::rounds();
    let shared = shared();
    let mut by_file: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let tsv = std::fs::read_to_string(shared.join("bench/check_urls.tsv")).unwrap();
    for row in tsv.lines().skip(1) {
        let cols: Vec<&str> = row.split('\t').collect();
        by_file
            .entry(cols[0].to_owned())
            .or_default()
            .push(cols[2].to_owned());
    }
    let mut plain = Vec::new();
    let mut marked = Vec::new();
    let (mut plain_bytes, mut marked_bytes) = (Vec::new(), Vec::new());
    for (file, urls) in by_file {
        let body = std::fs::read(shared.join("corpus").join(&file)).unwrap();
        let body = body[..body.len().min(512_000)].to_vec();
        let added = with_preferences(&body);
        plain.push((Robots::parse(&body).rules_for(TOKEN).unwrap(), urls.clone()));
        marked.push((Robots::parse(&added).rules_for(TOKEN).unwrap(), urls));
        plain_bytes.push(body);
        marked_bytes.push(added);
    }
    let parse_rate = |bodies: &[Vec<u8>]| {
        let total: usize = bodies.iter().map(Vec::len).sum();
        let mut best = f64::INFINITY;
        for _ in 0..rounds {
            let start = Instant::now();
            for b in bodies {
                black_box(Robots::parse(b));
            }
            best = best.min(start.elapsed().as_secs_f64());
        }
        total as f64 / 1e6 / best
    };
    let check = |r: &Rules, u: &str| {
        black_box(r.can_fetch(u));
    };
    let prefs = |r: &Rules, u: &str| {
        black_box(r.preferences(u));
    };
    let signal = |r: &Rules, _: &str| {
        black_box(r.content_signal());
    };
    let decide = |r: &Rules, u: &str| {
        black_box(r.decide(u));
    };
    let rows = [
        ("`can_fetch`", side_by_side(rounds, &plain, &marked, check)),
        ("`decide`", side_by_side(rounds, &plain, &marked, decide)),
        (
            "`preferences(url)`",
            side_by_side(rounds, &plain, &marked, prefs),
        ),
        (
            "`content_signal()`",
            side_by_side(rounds, &plain, &marked, signal),
        ),
    ];
    let (rate_plain, rate_marked) = (parse_rate(&plain_bytes), parse_rate(&marked_bytes));
    let mut out = String::new();
    let mut line = |s: String| {
        println!("{s}");
        out += &s;
        out.push('\n');
    };
    line("## Usage preferences: what they cost, and what plain checks cost beside them\n".into());
    line(format!(
        "The check workload ({} files × 20 URLs, {TOKEN}), each file as it is and with two \
         `Content-Usage` lines and a `Content-Signal` line after its first `user-agent` line \
         (they change no access answer). ns per URL, each file's URLs asked {PASSES} times over, \
         the median of {rounds} rounds. Command: `cargo bench --bench preferences`.\n",
        plain.len()
    ));
    line("| call | files as they are | files with preference lines |".into());
    line("|---|---:|---:|".into());
    for (name, (a, b)) in rows {
        line(format!("| {name} | {a:.0} ns | {b:.0} ns |"));
    }
    line(format!(
        "| parse (MB/s, best of {rounds}) | {rate_plain:.0} MB/s | {rate_marked:.0} MB/s |"
    ));
    line(String::new());
    let (check_plain, check_marked) = rows[0].1;
    line(format!(
        "A plain check never reads the preference lines: `can_fetch` took {check_plain:.0} ns \
         on the files as they are and {check_marked:.0} ns with the lines, in the same rounds. \
         A preferences answer is a decision plus, for a file with `content-usage` rules, one \
         pass over them; it allocates its result (the `train-ai` and `search` entries at \
         least). Parsing files with preference lines costs more: each `content-usage` \
         statement is parsed as an RFC 9651 Dictionary and kept with its raw members."
    ));
    if let Some(path) = common::arg("--out") {
        std::fs::write(&path, out).unwrap();
        eprintln!("wrote {path}");
    }
}
