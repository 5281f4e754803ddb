//! A cached copy encoded for a shared store (`Entry::encode`) decodes to an
//! entry that answers as the one encoded: the same decisions on every
//! workload URL, the same freshness, validators and failures, through
//! every fetch outcome; and bytes that are not a whole, intact encoding
//! are refused, never read as a copy.

mod common;

use robotstxt::{
    AfterLimit, Answer, Entry, Error, FetchResult, FreshnessPolicy, Options, Profile,
    STORED_COPY_VERSION,
};

const H: u64 = 3_600_000;

fn ok(body: &[u8]) -> FetchResult<'_> {
    FetchResult {
        status: Some(200),
        body,
        ..Default::default()
    }
}

fn status(status: Option<u16>) -> FetchResult<'static> {
    FetchResult {
        status,
        ..Default::default()
    }
}

/// What an entry answers at `now`, for `urls`, in one comparable value.
fn answers(entry: &Entry, now: u64, policy: &FreshnessPolicy, urls: &[&str]) -> String {
    let head = format!(
        "due {} fetched {:?} failures {} retry {:?} copy {} cause {:?} validators {:?} due-now {}",
        entry.due_at(),
        entry.fetched_at(),
        entry.failures(),
        entry.retry_at(),
        entry.has_copy(),
        entry.cause(now, policy),
        entry.validators(),
        entry.is_due(now),
    );
    let decisions: Vec<String> = match entry.answer(now, policy) {
        Answer::Rules(robots) => ["ExampleBot", "Googlebot"]
            .iter()
            .flat_map(|agent| {
                let rules = robots.rules_for(agent).unwrap();
                urls.iter()
                    .map(move |url| format!("{:?}", rules.decide(url)))
                    .collect::<Vec<_>>()
            })
            .collect(),
        Answer::AllowAll => vec!["allow-all".into()],
        Answer::DisallowAll => vec!["disallow-all".into()],
    };
    format!("{head}\n{}", decisions.join("\n"))
}

/// Encodes `entry` with `body`, decodes it, and checks the two answer alike.
fn round_trip(
    entry: &Entry,
    body: &[u8],
    now: u64,
    policy: &FreshnessPolicy,
    urls: &[&str],
) -> Vec<u8> {
    let bytes = entry.encode(body).expect("encodes with its own body");
    let copy = Entry::decode(&bytes, policy).expect("decodes what it encoded");
    for at in [now, now + H, now + 25 * H, now + 40 * 24 * H] {
        assert_eq!(
            answers(&copy, at, policy, urls),
            answers(entry, at, policy, urls)
        );
    }
    // And encodes to the same bytes again.
    assert_eq!(
        copy.encode(Entry::stored_body(&bytes).unwrap()).unwrap(),
        bytes
    );
    bytes
}

#[test]
fn every_workload_file_survives_the_store_through_refresh_failure_and_recovery() {
    let policies = [
        FreshnessPolicy::default(),
        FreshnessPolicy {
            parse: Options::new(Profile::Google),
            after_limit: AfterLimit::AllowAll,
            ..FreshnessPolicy::default()
        },
    ];
    let mut files = 0;
    for (file, urls) in common::check_workload() {
        let body = common::read(&file);
        let urls: Vec<&str> = urls.iter().map(String::as_str).collect();
        for policy in &policies {
            let mut entry = Entry::new();
            entry.record(
                0,
                &FetchResult {
                    etag: Some(b"\"v1\""),
                    max_age_ms: Some(2 * H),
                    ..ok(&body)
                },
                policy,
            );
            let bytes = round_trip(&entry, &body, 0, policy, &urls);
            // A failed refresh, recorded into the decoded copy by another
            // worker: the old copy answers, the retry is due in an hour.
            let mut later = Entry::decode(&bytes, policy).unwrap();
            later.record(
                3 * H,
                &FetchResult {
                    retry_after_ms: Some(90_000),
                    ..status(Some(503))
                },
                policy,
            );
            round_trip(
                &later,
                Entry::stored_body(&bytes).unwrap(),
                3 * H,
                policy,
                &urls,
            );
            // A 304 renews it.
            later.record(4 * H, &status(Some(304)), policy);
            round_trip(&later, &body, 4 * H, policy, &urls);
        }
        files += 1;
    }
    assert!(files > 0);
}

#[test]
fn blanket_outcomes_and_no_copy_round_trip() {
    let policy = FreshnessPolicy::default();
    let urls = ["/", "/x"];
    let outcomes: [&[FetchResult<'_>]; 6] = [
        &[],
        &[status(Some(404))],
        &[status(Some(503))],
        &[status(None), status(Some(429))],
        &[FetchResult {
            redirects: 6,
            ..status(Some(301))
        }],
        &[
            ok(b"User-agent: *\nDisallow: /x\n"),
            status(Some(404)),
            status(Some(500)),
        ],
    ];
    for steps in outcomes {
        let mut entry = Entry::new();
        for (i, step) in steps.iter().enumerate() {
            entry.record(i as u64 * H, step, &policy);
        }
        round_trip(&entry, b"", 0, &policy, &urls);
    }
    // Past the unreachable limit, with a policy that then allows all.
    let policy = FreshnessPolicy {
        after_limit: AfterLimit::AllowAll,
        ..FreshnessPolicy::default()
    };
    let body = b"User-agent: *\nDisallow: /\n";
    let mut entry = Entry::new();
    entry.record(0, &ok(body), &policy);
    for day in 1..=31 {
        entry.record(day * 24 * H, &status(Some(503)), &policy);
    }
    round_trip(&entry, body, 31 * 24 * H, &policy, &urls);
}

#[test]
fn another_body_is_refused_and_the_parsed_part_is_enough() {
    let policy = FreshnessPolicy::default();
    let mut body = b"User-agent: *\nDisallow: /x\n".to_vec();
    let mut entry = Entry::new();
    entry.record(0, &ok(&body), &policy);
    let other = b"User-agent: *\nDisallow: /y\n";
    assert_eq!(
        entry.encode(other),
        Err(Error::BodyMismatch {
            expected: body.len(),
            given: other.len()
        })
    );
    assert!(matches!(entry.encode(b""), Err(Error::BodyMismatch { .. })));
    let message = entry.encode(other).unwrap_err().to_string();
    assert!(message.contains("Entry::stored_body"), "{message}");
    // Past the parse limit, only the part parsed is stored.
    let limit = policy.parse.parse_limit();
    body.resize(limit + 1000, b'#');
    entry.record(0, &ok(&body), &policy);
    let bytes = entry.encode(&body).unwrap();
    assert_eq!(Entry::stored_body(&bytes).unwrap().len(), limit);
    assert_eq!(entry.encode(&body[..limit]).unwrap(), bytes);
}

#[test]
fn damaged_cut_or_foreign_bytes_are_refused() {
    let policy = FreshnessPolicy::default();
    let body = b"User-agent: *\nDisallow: /x\nCrawl-delay: 2\n";
    let mut entry = Entry::new();
    entry.record(
        0,
        &FetchResult {
            etag: Some(b"\"e\""),
            last_modified: Some(b"Tue"),
            ..ok(body)
        },
        &policy,
    );
    let bytes = entry.encode(body).unwrap();
    assert_eq!(bytes[4], STORED_COPY_VERSION);
    // Every single bit flipped: refused (the checksum, or the header).
    for at in 0..bytes.len() {
        for bit in 0..8 {
            let mut damaged = bytes.clone();
            damaged[at] ^= 1 << bit;
            assert!(
                Entry::decode(&damaged, &policy).is_err(),
                "byte {at} bit {bit}"
            );
        }
    }
    // Cut anywhere, or with a byte more: refused.
    for len in 0..bytes.len() {
        assert!(
            Entry::decode(&bytes[..len], &policy).is_err(),
            "cut at {len}"
        );
        assert!(Entry::stored_body(&bytes[..len]).is_err());
    }
    let mut longer = bytes.clone();
    longer.push(0);
    assert!(Entry::decode(&longer, &policy).is_err());
    for foreign in [
        &b""[..],
        b"User-agent: *\nDisallow: /\n",
        b"RTXC",
        &[0xff; 64],
    ] {
        let error = Entry::decode(foreign, &policy).unwrap_err();
        assert!(matches!(error, Error::InvalidCopy { .. }), "{error}");
    }
    // A newer format says so, whatever follows.
    let mut newer = bytes.clone();
    newer[4] = STORED_COPY_VERSION + 1;
    let error = Entry::decode(&newer, &policy).unwrap_err();
    assert_eq!(
        error,
        Error::CopyVersion {
            version: STORED_COPY_VERSION + 1,
            supported: STORED_COPY_VERSION
        }
    );
    assert!(error.to_string().contains("upgrade"), "{error}");
}
