//! Work grows no faster than the file: the input is a head, a unit and a
//! URL (split by 0xFF); the unit, with each `\x01` replaced by its
//! repetition's number, is repeated `SMALL` and then `GROWTH` times as
//! many times after the head, and every per-file operation's counted work
//! (src/work.rs) may grow at most `MOST` times. No clock: a quadratic step
//! fails however fast the machine.

#![no_main]

use libfuzzer_sys::fuzz_target;
use robotstxt::{work, Options, Profile, Robots};

/// Above the index's thresholds (a filter from 64 wildcard rules under
/// one prefix), so that both sizes take the same path.
const SMALL: usize = 80;
const GROWTH: usize = 4;
const MOST: u64 = 6;
/// Counts below this are constant work, not a trend.
const FLOOR: u64 = 400;

fn body(head: &[u8], unit: &[u8], times: usize) -> Vec<u8> {
    let mut body = head.to_vec();
    for i in 0..times {
        for &b in unit {
            match b {
                1 => body.extend_from_slice(i.to_string().as_bytes()),
                b => body.push(b),
            }
        }
    }
    body
}

/// The work of each operation on `body`.
fn costs(body: &[u8], url: &[u8], profile: Profile) -> [u64; 6] {
    let options = Options::new(profile).with_parse_limit(1 << 22).unwrap();
    let mut counts = [0; 6];
    work::take();
    let robots = Robots::parse_with(body, &options);
    counts[0] = work::take();
    let rules = match robots.rules_for("hostilebot") {
        Ok(rules) => rules,
        Err(_) => return counts,
    };
    counts[1] = work::take();
    rules.compile();
    counts[2] = work::take();
    rules.can_fetch(url);
    counts[3] = work::take();
    rules.preferences(url);
    counts[4] = work::take();
    rules.content_signal();
    rules.other_records().count();
    counts[5] = work::take();
    counts
}

fuzz_target!(|data: &[u8]| {
    let mut parts = data.splitn(3, |&b| b == 0xFF);
    let (Some(head), Some(unit), url) = (parts.next(), parts.next(), parts.next()) else {
        return;
    };
    let url = url.unwrap_or(b"/");
    if head.len() > 256 || unit.is_empty() || unit.len() > 256 || url.len() > 4096 {
        return;
    }
    for profile in [Profile::Rfc9309, Profile::Google] {
        let small = costs(&body(head, unit, SMALL), url, profile);
        let large = costs(&body(head, unit, SMALL * GROWTH), url, profile);
        for (op, (s, l)) in small.iter().zip(&large).enumerate() {
            assert!(
                *l <= MOST * (*s).max(FLOOR),
                "operation {op} grew from {s} to {l} steps for {GROWTH}x the units ({profile:?})"
            );
        }
    }
});
