//! Worst cases: what each family of hostile files (benches/common/hostile.rs)
//! costs per operation, at the default parse limit and at 64 MiB.
//!
//! `cargo bench --bench hostile [-- --rounds N --out FILE --family NAME --no-large]`
//! `cargo bench --bench hostile -- --write DIR`
//! (`--write DIR` saves every family's file at the default limit, for
//! timing the bindings and the CLI on them).

mod common;

use std::hint::black_box;
use std::time::{Duration, Instant};

use common::hostile::{self, Family};
use robotstxt::{Options, Profile, Robots, MIN_PARSE_LIMIT};

/// The largest limit the table reports: 64 MiB.
const LARGE_LIMIT: usize = 64 << 20;
/// The URLs the checks ask about are this long.
const URL_LEN: usize = 2048;

/// Median of `rounds` timings of `f`.
fn median(rounds: usize, mut f: impl FnMut() -> Duration) -> Duration {
    let mut times: Vec<Duration> = (0..rounds).map(|_| f()).collect();
    times.sort();
    times[times.len() / 2]
}

fn timed<R>(f: impl FnOnce() -> R) -> (Duration, R) {
    let start = Instant::now();
    let r = f();
    (start.elapsed(), r)
}

/// One family's figures at one size.
struct Row {
    bytes: usize,
    parse: Duration,
    select: Duration,
    index: Duration,
    first_check: Duration,
    check: Duration,
    preferences: Duration,
    signal: Duration,
    others: Duration,
    diagnostics: Duration,
}

impl Row {
    fn build(&self) -> Duration {
        self.parse + self.select + self.index
    }
}

fn measure(family: &Family, size: usize, profile: Profile, rounds: usize) -> Row {
    let options = Options::new(profile)
        .with_parse_limit(size.max(MIN_PARSE_LIMIT))
        .unwrap();
    let body = (family.body)(size);
    let url = (family.url)(URL_LEN);
    let parse = median(rounds, || {
        timed(|| black_box(Robots::parse_with(&body, &options))).0
    });
    let robots = Robots::parse_with(&body, &options);
    let select = median(rounds, || {
        timed(|| black_box(robots.rules_for(family.token).unwrap())).0
    });
    // A fresh file each round: selections of one file share their index.
    let index = median(rounds, || {
        let robots = Robots::parse_with(&body, &options);
        let rules = robots.rules_for(family.token).unwrap();
        timed(|| rules.compile()).0
    });
    // The first check of a fresh file: a scan, or the index's build.
    let first_check = median(rounds, || {
        let robots = Robots::parse_with(&body, &options);
        let rules = robots.rules_for(family.token).unwrap();
        timed(|| black_box(rules.can_fetch(black_box(&url)))).0
    });
    let rules = robots.rules_for(family.token).unwrap();
    rules.compile();
    let per_call = |f: &dyn Fn()| {
        median(rounds, || {
            let (t, _) = timed(|| {
                for _ in 0..10 {
                    f();
                }
            });
            t / 10
        })
    };
    let check = per_call(&|| {
        black_box(rules.can_fetch(black_box(&url)));
    });
    let preferences = per_call(&|| {
        black_box(rules.preferences(black_box(&url)));
    });
    let signal = per_call(&|| {
        black_box(rules.content_signal());
    });
    let others = per_call(&|| {
        black_box(rules.other_records().count());
    });
    let diagnostics = per_call(&|| {
        black_box(robots.diagnostics().iter().map(|d| d.line).sum::<u32>());
    });
    Row {
        bytes: body.len(),
        parse,
        select,
        index,
        first_check,
        check,
        preferences,
        signal,
        others,
        diagnostics,
    }
}

fn show(d: Duration) -> String {
    let ns = d.as_nanos() as f64;
    match ns {
        n if n >= 1e9 => format!("{:.2} s", n / 1e9),
        n if n >= 1e6 => format!("{:.2} ms", n / 1e6),
        n if n >= 1e3 => format!("{:.1} µs", n / 1e3),
        n => format!("{n:.0} ns"),
    }
}

fn table(title: &str, rows: &[(&Family, Row)]) -> String {
    let mut md = format!("### {title}\n\n");
    md.push_str(
        "| family | bytes | parse | select | index | parse + select + index | first check | check | preferences | content_signal | other_records | diagnostics |\n\
         |---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n",
    );
    for (family, r) in rows {
        md.push_str(&format!(
            "| {} | {} | {} | {} | {} | **{}** | {} | {} | {} | {} | {} | {} |\n",
            family.name,
            r.bytes,
            show(r.parse),
            show(r.select),
            show(r.index),
            show(r.build()),
            show(r.first_check),
            show(r.check),
            show(r.preferences),
            show(r.signal),
            show(r.others),
            show(r.diagnostics),
        ));
    }
    md
}

fn main() {
    let rounds = common::rounds();
    let families = hostile::families();
    if let Some(dir) = common::arg("--write") {
        std::fs::create_dir_all(&dir).expect("create the --write folder");
        for family in &families {
            let path = format!("{dir}/{}.txt", family.name);
            std::fs::write(&path, (family.body)(MIN_PARSE_LIMIT)).expect("write a file");
            std::fs::write(format!("{dir}/{}.url", family.name), (family.url)(URL_LEN))
                .expect("write a URL");
            eprintln!("wrote {path}");
        }
        return;
    }
    let only = common::arg("--family");
    let chosen: Vec<&Family> = families
        .iter()
        .filter(|f| only.as_deref().is_none_or(|o| o == f.name))
        .collect();
    let mut md = String::from(
        "## Worst cases: hostile files\n\n\
         Every family of `benches/common/hostile.rs`, filled to the size shown; each \
         operation timed alone (median of rounds; the per-call columns are the mean of ten \
         calls). `index` is `Rules::compile` on a fresh file's selection; `first check` \
         is one check on a fresh file's selection (a scan, or the index's build); `check` and \
         `preferences` ask about the family's hardest URL, 2 KiB long, once the index is \
         built. Reproduce: `cargo bench --bench hostile`; `-- --write DIR` saves the files \
         and URLs.\n\n",
    );
    for profile in [Profile::Rfc9309, Profile::Google] {
        let name = if profile == Profile::Rfc9309 {
            "rfc"
        } else {
            "google"
        };
        let rows: Vec<(&Family, Row)> = chosen
            .iter()
            .map(|f| {
                eprintln!("{} {name} {MIN_PARSE_LIMIT}", f.name);
                (*f, measure(f, MIN_PARSE_LIMIT, profile, rounds))
            })
            .collect();
        md.push_str(&table(
            &format!("Worst cases at the default limit (500 KiB), {name} profile"),
            &rows,
        ));
        md.push('\n');
    }
    let large = if std::env::args().any(|a| a == "--no-large") {
        0
    } else {
        chosen.len()
    };
    let rows: Vec<(&Family, Row)> = chosen[..large]
        .iter()
        .map(|f| {
            eprintln!("{} rfc {LARGE_LIMIT}", f.name);
            (*f, measure(f, LARGE_LIMIT, Profile::Rfc9309, 1))
        })
        .collect();
    if large > 0 {
        md.push_str(&table(
            "Worst cases at the 64 MiB limit, rfc profile",
            &rows,
        ));
    }
    match common::arg("--out") {
        Some(out) => std::fs::write(&out, md).expect("write --out"),
        None => print!("{md}"),
    }
}
