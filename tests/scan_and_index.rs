//! A selection answers its first questions by scanning its rules and the
//! rest through its index: both ways give the same decision, the same
//! rule, on every URL of the workload and the worst cases (or of the
//! committed sample: `tests/common` chooses), both profiles, both agents.

mod common;

use robotstxt::{Options, Profile, Robots};

#[test]
fn the_scan_and_the_index_decide_alike() {
    let mut workload = common::check_workload();
    workload.extend(common::worst_cases());
    let extra = [
        "/",
        "/robots.txt",
        "https://example.com/a/b?c=d#e",
        "/%E3%83%84/*$",
        "example.com?a",
    ];
    let mut compared = 0;
    for profile in [Profile::Rfc9309, Profile::Google] {
        let options = Options::new(profile);
        for (file, urls) in &workload {
            let robots = Robots::parse_with(&common::read(file), &options);
            for agent in ["ExampleBot", "Googlebot"] {
                let fresh = robots.rules_for(agent).unwrap();
                let indexed = fresh.clone();
                indexed.compile();
                for url in urls.iter().map(String::as_str).chain(extra) {
                    // A copy that has answered nothing scans (a path under
                    // 256 bytes: a longer one builds the index at once).
                    let scanning = fresh.clone();
                    assert_eq!(
                        scanning.decide(url),
                        indexed.decide(url),
                        "{file} [{}] {agent}: {url}",
                        profile.name()
                    );
                    compared += 1;
                }
            }
        }
    }
    assert!(compared > 10_000, "{compared} URLs compared");
}
