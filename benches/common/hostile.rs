//! Adversarial robots.txt files: each family fills a body of a chosen size
//! with the one construct that could make some per-file operation cost
//! more than linear time, and names the URL that is hardest to answer
//! against it. Used by `benches/hostile.rs` (the "Worst cases" section of
//! BENCHMARKS.md; `--write DIR` saves every file), by `tests/linear_work.rs`
//! and by the `linear` fuzz target, which count work and fail when it grows
//! faster than the file.
//!
//! No randomness: a family at a size is always the same bytes.

// Each user of this file reads some of it.
#![allow(dead_code)]

/// One kind of hostile file.
pub struct Family {
    /// A short name: the benchmark's row and the file's name.
    pub name: &'static str,
    /// What it attacks.
    pub attacks: &'static str,
    /// A body of at most `size` bytes and close to it.
    pub body: fn(usize) -> Vec<u8>,
    /// The crawler the file is read for.
    pub token: &'static str,
    /// The hardest URL to check against it, about `len` bytes long.
    pub url: fn(usize) -> String,
}

/// The token every family's groups are read for.
pub const TOKEN: &str = "hostilebot";

/// Every family.
pub fn families() -> Vec<Family> {
    vec![
        Family {
            name: "wildcards-2",
            attacks: "index build: rules with two wildcard segments, `/*qN*qM`",
            body: |size| {
                repeat(size, "User-agent: *\n", |i| {
                    format!("Disallow: /*q{}*q{}\n", i, i / 7)
                })
            },
            token: TOKEN,
            url: |len| fill_url("/", "q1q2q3q4q5q6q7q8q9", len),
        },
        Family {
            name: "wildcards-chain",
            attacks: "index build and checks: many segments, `/*a*a*…*aN$`",
            body: |size| {
                repeat(size, "User-agent: *\n", |i| {
                    format!("Disallow: /{}a{}$\n", "*a".repeat(1 + i % 24), i)
                })
            },
            token: TOKEN,
            url: |len| fill_url("/", "a", len),
        },
        Family {
            name: "shared-segment",
            attacks: "checks: wildcard rules that all share one rare segment, `/*ab*ab…`",
            body: |size| {
                let mut i = 0;
                repeat(size, "User-agent: *\n", |_| {
                    i += 1;
                    format!("Disallow: /{}*ab*zz\n", "*ab".repeat(i))
                })
            },
            token: TOKEN,
            url: |len| fill_url("/", "ab", len),
        },
        Family {
            name: "nested-prefixes",
            attacks: "index chains: `/a`, `/aa`, `/aaa`…",
            body: |size| {
                repeat(size, "User-agent: *\n", |i| {
                    format!("Disallow: /{}\n", "a".repeat(i + 1))
                })
            },
            token: TOKEN,
            url: |len| fill_url("/", "a", len),
        },
        Family {
            name: "one-prefix",
            attacks: "index build: every rule under one long literal prefix",
            body: |size| {
                repeat(size, "User-agent: *\n", |i| {
                    format!("Disallow: /{}/{}\n", "p".repeat(200), i)
                })
            },
            token: TOKEN,
            url: |len| fill_url(&format!("/{}/", "p".repeat(200)), "1", len),
        },
        Family {
            name: "groups",
            attacks: "selection: thousands of groups naming the crawler, merged",
            body: |size| {
                repeat(size, "", |i| {
                    format!(
                        "User-agent: {TOKEN}\nDisallow: /g{i}/*x\nCrawl-delay: {}\n",
                        i % 9
                    )
                })
            },
            token: TOKEN,
            url: |len| fill_url("/g1/", "x", len),
        },
        Family {
            name: "agents",
            attacks: "selection: one group with thousands of user-agent lines",
            body: |size| {
                let mut body = repeat(size - 64, "", |i| format!("User-agent: bot{i}\n"));
                body.extend_from_slice(b"User-agent: hostilebot\nDisallow: /x\n");
                body
            },
            token: TOKEN,
            url: |len| fill_url("/x", "y", len),
        },
        Family {
            name: "signal-keys",
            attacks: "content_signal: distinct Content-Signal keys",
            body: |size| {
                repeat(size, "User-agent: *\n", |line| {
                    format!("Content-Signal: {}\n", members(line, "k", ["no", "yes"]))
                })
            },
            token: TOKEN,
            url: |len| fill_url("/", "s", len),
        },
        Family {
            name: "usage-labels",
            attacks: "preferences: distinct Content-Usage labels",
            body: |size| {
                repeat(size, "User-agent: *\n", |line| {
                    format!("Content-Usage: / {}\n", members(line, "l", ["n", "y"]))
                })
            },
            token: TOKEN,
            url: |len| fill_url("/", "u", len),
        },
        Family {
            name: "usage-rules",
            attacks: "preferences: Content-Usage rules with wildcard paths",
            body: |size| {
                repeat(size, "User-agent: *\n", |i| {
                    format!("Content-Usage: /*u*u*{} train-ai=n\n", i % 97)
                })
            },
            token: TOKEN,
            url: |len| fill_url("/", "u", len),
        },
        Family {
            name: "long-line",
            attacks: "parse: one rule line as long as the file",
            body: |size| {
                let mut body = b"User-agent: *\nDisallow: /".to_vec();
                body.resize(size - 1, b'a');
                body.push(b'\n');
                body
            },
            token: TOKEN,
            url: |len| fill_url("/", "a", len),
        },
        Family {
            name: "percent",
            attacks: "parse and checks: percent-encoding everywhere, `%25` and `%2F`",
            body: |size| {
                repeat(size, "User-agent: *\n", |i| {
                    format!(
                        "Disallow: /%25{i}/%41%62%2F%7e*%E2%82%AC%zz{}\n",
                        "%25".repeat(i % 30)
                    )
                })
            },
            token: TOKEN,
            url: |len| fill_url("/", "%25%2F%41%E2%82%AC%", len),
        },
        Family {
            name: "other-records",
            attacks: "other_records: thousands of unknown keys in the crawler's group",
            body: |size| repeat(size, "User-agent: *\n", |i| format!("X-Key{i}: v{i}\n")),
            token: TOKEN,
            url: |len| fill_url("/", "o", len),
        },
        Family {
            name: "diagnostics",
            attacks: "diagnostics: a report on every line",
            body: |size| repeat(size, "", |i| format!("Disalow /d{i}\n")),
            token: TOKEN,
            url: |len| fill_url("/d1", "d", len),
        },
        Family {
            name: "sitemaps",
            attacks: "parse: thousands of sitemap lines",
            body: |size| repeat(size, "", |i| format!("Sitemap: https://a.test/s{i}.xml\n")),
            token: TOKEN,
            url: |len| fill_url("/", "s", len),
        },
    ]
}

/// Line `line`'s 64 members `{key}N=…`, N distinct across lines; every
/// third `values[0]`, the rest `values[1]`.
fn members(line: usize, key: &str, values: [&str; 2]) -> String {
    let members: Vec<String> = (64 * line + 1..=64 * line + 64)
        .map(|i| format!("{key}{i}={}", values[usize::from(i % 3 != 0)]))
        .collect();
    members.join(", ")
}

/// The family called `name`.
pub fn family(name: &str) -> Option<Family> {
    families().into_iter().find(|f| f.name == name)
}

/// `head`, then `line(0)`, `line(1)`… while the next line fits `size`.
pub fn repeat(size: usize, head: &str, mut line: impl FnMut(usize) -> String) -> Vec<u8> {
    let mut body = head.as_bytes().to_vec();
    for i in 0.. {
        let next = line(i);
        if body.len() + next.len() > size {
            break;
        }
        body.extend_from_slice(next.as_bytes());
    }
    body
}

/// A full URL whose path is `path` then `piece` repeated to about `len`
/// bytes.
pub fn fill_url(path: &str, piece: &str, len: usize) -> String {
    let mut url = format!("https://hostile.test{path}");
    while url.len() + piece.len() <= len {
        url.push_str(piece);
    }
    url
}
