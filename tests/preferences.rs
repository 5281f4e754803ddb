//! Usage preferences (behaviour §10) beyond the vectors: docs/usage-preferences.md's
//! example, the guarantees of §10.8 over the whole check workload, and
//! what an answer allocates.

mod common;

use robotstxt::{Options, Profile, Robots, Rules, StatementError, Usage};

use common::counting::{allocations, Counting};

#[global_allocator]
static GLOBAL: Counting = Counting;

const LINES: &str = "Content-Usage: train-ai=n\nContent-Usage: /blog/ train-ai=y, search=y\n\
                     Content-Signal: search=yes, ai-input=no, ai-train=no\nClean-param: ref /a/\n";

/// `body` with `LINES` after each `user-agent` line.
fn with_lines(body: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(body.len() + 512);
    for line in body.split_inclusive(|&b| b == b'\n') {
        out.extend_from_slice(line);
        let key = line.iter().position(|&b| b == b':').map(|c| &line[..c]);
        if key.is_some_and(|k| k.trim_ascii().eq_ignore_ascii_case(b"user-agent")) {
            if !line.ends_with(b"\n") {
                out.push(b'\n');
            }
            out.extend_from_slice(LINES.as_bytes());
        }
    }
    out
}

#[test]
fn the_readme_example() -> Result<(), Box<dyn std::error::Error>> {
    let body = b"User-agent: *\nContent-Signal: search=yes, ai-input=no, ai-train=no\n\
                 Content-Usage: train-ai=n\nContent-Usage: /blog/ train-ai=y\n\
                 Clean-param: ref /articles/\n";
    let robots = Robots::parse(body);
    let rules = robots.rules_for("ExampleBot")?;
    let answer = rules.preferences("https://a.test/blog/post");
    assert!(answer.crawlable);
    assert_eq!(answer.get("train-ai"), Usage::Yes);
    assert_eq!(answer.get("search"), Usage::Unknown);
    let signal = rules.content_signal().expect("the group has a line");
    assert_eq!(signal.get("ai-train"), Some(false));
    let page = answer.with_header(b"train-ai=n")?;
    assert_eq!(page.get("train-ai"), Usage::No);
    // A bare key is Boolean true: unknown, so the file's `y` stands.
    assert_eq!(answer.with_header(b"train-ai")?.get("train-ai"), Usage::Yes);
    assert_eq!(
        answer.with_header(b"Train-AI=n"),
        Err(StatementError::Syntax)
    );
    let keys: Vec<&[u8]> = robots.other_records().map(|r| r.key).collect();
    assert_eq!(keys, [&b"Clean-param"[..]]);
    Ok(())
}

/// Everything a check answered before, for one crawler.
fn answers(rules: &Rules, urls: &[String]) -> Vec<(bool, u32, String)> {
    urls.iter()
        .map(|u| {
            let d = rules.decide(u);
            (d.allowed, d.line, d.pattern.to_owned())
        })
        .collect()
}

/// Behaviour §10.8: preference lines change no access answer, deciding
/// line, delay, rate, sitemap or host, in either profile; and plain checks
/// on such files still allocate nothing.
#[test]
fn preference_lines_change_nothing_else() {
    let workload = common::check_workload();
    let mut files_with_groups = 0;
    for profile in [Profile::Rfc9309, Profile::Google] {
        let options = Options::new(profile);
        for (file, urls) in &workload {
            let body = common::read(file);
            let added = with_lines(&body);
            let (plain, marked) = (
                Robots::parse_with(&body, &options),
                Robots::parse_with(&added, &options),
            );
            assert_eq!(plain.group_count(), marked.group_count(), "{file}");
            assert!(plain.sitemaps().eq(marked.sitemaps()), "{file}");
            assert_eq!(plain.host(), marked.host(), "{file}");
            files_with_groups += usize::from(plain.group_count() > 0);
            for agent in ["ExampleBot", "Googlebot"] {
                let (a, b) = (
                    plain.rules_for(agent).unwrap(),
                    marked.rules_for(agent).unwrap(),
                );
                // The inserted lines move later lines down: compare the
                // answers, not the line numbers, when lines were added.
                let (x, y) = (answers(&a, urls), answers(&b, urls));
                let strip = |v: Vec<(bool, u32, String)>| -> Vec<(bool, String)> {
                    v.into_iter().map(|(ok, _, p)| (ok, p)).collect()
                };
                assert_eq!(strip(x), strip(y), "{file} {agent}");
                assert_eq!(a.crawl_delay(), b.crawl_delay(), "{file} {agent}");
                assert_eq!(a.request_rate(), b.request_rate(), "{file} {agent}");
                let ((), n) = allocations(|| {
                    for url in urls {
                        std::hint::black_box(b.can_fetch(url));
                        std::hint::black_box(b.decide(url));
                    }
                });
                assert_eq!(n, 0, "{file} {agent}: plain checks allocated");
            }
        }
    }
    assert!(files_with_groups > 0, "the workload has files with groups");
    println!(
        "preference lines added to {} files, answers unchanged",
        workload.len()
    );
}

/// Behaviour §10.8: an answer allocates its result and nothing else: the
/// label list, the lines of a label given by more than two, the statements
/// list; and, combining several statements, one table of the file's labels.
/// A label's name is borrowed from the rules.
#[test]
fn an_answer_allocates_only_its_result() {
    let workload = common::check_workload();
    let mut answers_seen = 0;
    for (file, urls) in workload.iter().take(300) {
        let robots = Robots::parse(&with_lines(&common::read(file)));
        let rules = robots.rules_for("ExampleBot").unwrap();
        // The indexes are the selection's, built once: not the answer's.
        rules.compile();
        for url in urls {
            let (answer, n) = allocations(|| rules.preferences(url));
            // Each vector allocated once, plus its doublings as it grew
            // (a vector's first allocation holds 4 or fewer items).
            let vec = |len: usize| {
                usize::from(len > 0) + len.max(4).div_ceil(4).next_power_of_two().ilog2() as usize
            };
            // Two lines are held inline.
            let lines: usize = answer
                .labels
                .iter()
                .map(|l| {
                    if l.lines.len() > 2 {
                        vec(l.lines.len())
                    } else {
                        0
                    }
                })
                .sum();
            let places = usize::from(answer.statements.len() > 1);
            let bound =
                vec(answer.labels.len().max(1)) + places + lines + vec(answer.statements.len());
            // A path longer than 4 KiB is rewritten on the heap: one more.
            let long = usize::from(url.len() > 4096);
            assert!(
                n <= bound + long,
                "{file} {url}: {n} allocations for {answer:?}"
            );
            answers_seen += 1;
        }
    }
    assert!(answers_seen > 1000, "{answers_seen} answers");
}
