//! Every real file of `../shared/corpus` (or of the committed sample
//! `tests/corpus-sample`: `tests/common` chooses) parses in both profiles
//! without a panic and answers questions.

mod common;

use std::time::{Duration, Instant};

use robotstxt::{Options, Profile, Robots};

#[test]
fn every_corpus_file_parses_and_answers() {
    let files = common::tsv("parse_files.tsv");
    let data = common::data();
    assert_eq!(files.len(), data.files, "parse_files.tsv lists every file");
    let urls = [
        "/",
        "/robots.txt",
        "https://example.com/a/b?c=d#e",
        "/%E3%83%84/*$",
        "//x/y",
    ];
    let mut slowest = (Duration::ZERO, String::new());
    let (mut rules_seen, mut disallowed) = (0usize, 0usize);
    for row in &files {
        let body = common::read(&row[0]);
        assert_eq!(body.len().to_string(), row[1], "{}: size", row[0]);
        for profile in [Profile::Rfc9309, Profile::Google] {
            let start = Instant::now();
            let robots = Robots::parse_with(&body, &Options::new(profile));
            let took = start.elapsed();
            if took > slowest.0 {
                slowest = (took, format!("{} [{}]", row[0], profile.name()));
            }
            rules_seen += robots.rule_count();
            for agent in ["ExampleBot", "Googlebot"] {
                let rules = robots.rules_for(agent).unwrap();
                for url in urls {
                    let d = rules.decide(url);
                    assert_eq!(d.allowed, rules.can_fetch(url));
                    disallowed += usize::from(!d.allowed);
                }
                let _ = rules.crawl_delay();
            }
            let _ = (
                robots.sitemaps().count(),
                robots.host(),
                robots.diagnostics().len(),
            );
        }
    }
    // The corpus is real: it has rules, and some of them bite (per file,
    // so that the figures hold for the sample too).
    assert!(rules_seen > 5 * data.files, "{rules_seen} rules");
    assert!(
        disallowed > data.files / 20,
        "{disallowed} disallowed answers"
    );
    println!("slowest parse: {} in {:?}", slowest.1, slowest.0);
}
