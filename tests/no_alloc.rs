//! Questions allocate nothing: `can_fetch`, `decide` and `crawl_delay` over
//! the whole URL workload, on rules still scanning and on their index of `../shared/bench` (or of the committed sample
//! `tests/corpus-sample`: `tests/common` chooses), both profiles.

mod common;

use robotstxt::{Options, Profile, Robots};

use common::counting::{allocations, Counting};

#[global_allocator]
static GLOBAL: Counting = Counting;

#[test]
fn questions_allocate_nothing() {
    // The counter works: a selection allocates.
    let probe = Robots::parse(b"User-agent: *\nDisallow: /x\n");
    assert!(allocations(|| drop(std::hint::black_box(probe.rules_for("a").unwrap()))).1 > 0);

    let mut workload = common::check_workload();
    workload.extend(common::worst_cases());
    // Long and percent-encoded paths on top of the workload's own.
    let extra = [
        format!("/{}", "a%2Fb%7e".repeat(250)),
        format!("https://x.test/{}?q=%E3%83%84*$", "ツ".repeat(300)),
        "example.com?a".to_owned(),
    ];
    let mut questions = 0;
    for profile in [Profile::Rfc9309, Profile::Google] {
        let options = Options::new(profile);
        for (file, urls) in &workload {
            let robots = Robots::parse_with(&common::read(file), &options);
            for agent in ["ExampleBot", "Googlebot"] {
                let rules = robots.rules_for(agent).unwrap();
                let mut allowed = 0;
                // The first questions of a selection scan its rules: each
                // asked of a copy that has answered nothing yet.
                for url in urls.iter().chain(&extra) {
                    let fresh = rules.clone();
                    let ((), n) = allocations(|| {
                        allowed += usize::from(fresh.can_fetch(url));
                        allowed += fresh.crawl_delay().map_or(0, |d| d.as_millis() as usize);
                    });
                    // A long path builds the index at once: that check
                    // allocates the index, once per `Rules`.
                    if url.len() < 256 {
                        assert_eq!(
                            n,
                            0,
                            "{file} [{}] {agent}: a scan allocated {n} times: {url}",
                            profile.name()
                        );
                    }
                }
                // Then the index.
                rules.compile();
                let ((), n) = allocations(|| {
                    for url in urls.iter().chain(&extra) {
                        allowed += usize::from(rules.can_fetch(url));
                        allowed += rules.decide(url).line as usize;
                        allowed += rules.crawl_delay().map_or(0, |d| d.as_millis() as usize);
                        questions += 3;
                    }
                });
                assert_eq!(n, 0, "{file} [{}] {agent}: {n} allocations", profile.name());
                std::hint::black_box(allowed);
            }
        }
    }
    // Every URL, plus the extras, per file, agent and profile.
    let urls: usize = workload.iter().map(|(_, urls)| urls.len()).sum();
    let expected = (urls + extra.len() * workload.len()) * 3 * 2 * 2;
    assert_eq!(questions, expected, "questions asked");
}
