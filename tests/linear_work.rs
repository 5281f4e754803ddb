//! Every per-file operation costs work linear in the file (n log n for
//! the sorts), and every check work linear in its URL: counted, not timed
//! (src/work.rs counts the steps of every loop a file or a URL decides).
//! Each hostile family of benches/common/hostile.rs is measured at two
//! sizes four times apart, and each operation's work may grow at most
//! `MOST` times: a quadratic step grows 16 times.
//!
//! `cargo test --release --features work-count --test linear_work`

#![cfg(feature = "work-count")]

#[path = "../benches/common/hostile.rs"]
mod hostile;

use robotstxt::{work, Options, Profile, Robots};

const SMALL: usize = 96 * 1024;
const GROWTH: usize = 4;
/// Four times the input, and some room for log n and for what does not
/// grow with it.
const MOST: f64 = 6.0;
/// Counts below this are constant work, not a trend.
const FLOOR: u64 = 200;

/// The work `f` does on this thread.
fn work_of(f: impl FnOnce()) -> u64 {
    work::take();
    f();
    work::take()
}

/// Per operation, the work one family's file of `size` bytes costs.
fn costs(
    family: &hostile::Family,
    size: usize,
    url_len: usize,
    profile: Profile,
) -> Vec<(&'static str, u64)> {
    let options = Options::new(profile)
        .with_parse_limit(size.max(512_000))
        .unwrap();
    let body = (family.body)(size);
    let url = (family.url)(url_len);
    let mut robots = None;
    let parse = work_of(|| robots = Some(Robots::parse_with(&body, &options)));
    let robots = robots.unwrap();
    let mut rules = None;
    let select = work_of(|| rules = Some(robots.rules_for(family.token).unwrap()));
    let rules = rules.unwrap();
    let index = work_of(|| rules.compile());
    let check = work_of(|| {
        rules.can_fetch(&url);
    });
    let first_check = work_of(|| {
        // A fresh file: its first check scans or builds.
        let robots = Robots::parse_with(&body, &options);
        let rules = robots.rules_for(family.token).unwrap();
        work::take();
        rules.can_fetch(&url);
    });
    let preferences = work_of(|| {
        rules.preferences(&url);
    });
    let signal = work_of(|| {
        rules.content_signal();
    });
    let others = work_of(|| {
        rules.other_records().count();
        robots.other_records().count();
    });
    let diagnostics = work_of(|| {
        robots.diagnostics().iter().count();
    });
    vec![
        ("parse", parse),
        ("rules_for", select),
        ("index", index),
        ("check", check),
        ("first check", first_check),
        ("preferences", preferences),
        ("content_signal", signal),
        ("other_records", others),
        ("diagnostics", diagnostics),
    ]
}

fn growth(small: u64, large: u64) -> f64 {
    large as f64 / small.max(FLOOR) as f64
}

#[test]
fn every_operation_grows_linearly_with_the_file() {
    let mut failures = Vec::new();
    for family in hostile::families() {
        for profile in [Profile::Rfc9309, Profile::Google] {
            let small = costs(&family, SMALL, 2048, profile);
            let large = costs(&family, SMALL * GROWTH, 2048, profile);
            for ((op, s), (_, l)) in small.iter().zip(&large) {
                let g = growth(*s, *l);
                eprintln!(
                    "{:<16} {profile:?} {op:<15} {s:>10} -> {l:>10} ({g:.2}x)",
                    family.name
                );
                if g > MOST {
                    failures.push(format!(
                        "{} {profile:?} {op}: {s} -> {l} steps ({g:.1}x)",
                        family.name
                    ));
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "grew faster than the file:\n{}",
        failures.join("\n")
    );
}

#[test]
fn every_check_grows_linearly_with_its_url() {
    let mut failures = Vec::new();
    for family in hostile::families() {
        let short = costs(&family, SMALL * GROWTH, 1024, Profile::Rfc9309);
        let long = costs(&family, SMALL * GROWTH, 1024 * GROWTH, Profile::Rfc9309);
        for ((op, s), (_, l)) in short.iter().zip(&long) {
            // (The first check may build the index: a cost of the file, not the URL.)
            if !matches!(*op, "check" | "preferences") {
                continue;
            }
            let g = growth(*s, *l);
            eprintln!("{:<16} {op:<15} {s:>10} -> {l:>10} ({g:.2}x)", family.name);
            if g > MOST {
                failures.push(format!("{} {op}: {s} -> {l} steps ({g:.1}x)", family.name));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "grew faster than the URL:\n{}",
        failures.join("\n")
    );
}

/// The counter counts: a file twice as long costs more to parse.
#[test]
fn the_counter_counts() {
    let family = hostile::family("sitemaps").unwrap();
    let small = costs(&family, SMALL, 64, Profile::Rfc9309)[0].1;
    let large = costs(&family, SMALL * 2, 64, Profile::Rfc9309)[0].1;
    assert!(small > FLOOR && large > small, "{small} {large}");
}
