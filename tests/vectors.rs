//! Runs every case of `tests/vectors/*.json` (format: tests/vectors/README.md).

use std::path::{Path, PathBuf};

use robotstxt::access::{classify, AccessPolicy, Disposition};
use std::collections::HashMap;

use robotstxt::{
    AfterLimit, Answer, Cache, CacheOptions, Cached, Confirm, Entry, FetchResult, FreshnessPolicy,
    Lease, Lookup, Options, Pacer, PacerOptions, Profile, RequestRate, Robots, Rules, Ticket,
    WhenFetching,
};
use serde_json::{Map, Value};

fn vector_files() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/vectors");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("tests/vectors")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();
    files
}

/// Fails on a field the runner does not know, so a typo cannot hide a case.
fn check_fields(case: &Map<String, Value>, known: &[&str], at: &str) {
    for key in case.keys() {
        assert!(known.contains(&key.as_str()), "{at}: unknown field {key:?}");
    }
}

/// `body`/`url_parts`: a string, or parts of text, hex and repeats.
fn bytes_of(value: &Value) -> Vec<u8> {
    match value {
        Value::String(s) => s.as_bytes().to_vec(),
        Value::Array(parts) => {
            let mut out = Vec::new();
            for part in parts {
                let part = part.as_object().expect("body part is an object");
                if let Some(text) = part.get("text") {
                    out.extend_from_slice(text.as_str().unwrap().as_bytes());
                } else if let Some(hex) = part.get("hex") {
                    let hex = hex.as_str().unwrap().as_bytes();
                    for pair in hex.chunks(2) {
                        let s = std::str::from_utf8(pair).unwrap();
                        out.push(u8::from_str_radix(s, 16).expect("hex"));
                    }
                } else if let Some(unit) = part.get("repeat") {
                    let times = part["times"].as_u64().unwrap() as usize;
                    out.extend(unit.as_str().unwrap().as_bytes().repeat(times));
                } else {
                    panic!("unknown body part {part:?}");
                }
            }
            out
        }
        other => panic!("bad bytes value {other:?}"),
    }
}

fn profiles(case: &Map<String, Value>) -> Vec<Profile> {
    match case
        .get("profile")
        .and_then(Value::as_str)
        .unwrap_or("both")
    {
        "rfc" => vec![Profile::Rfc9309],
        "google" => vec![Profile::Google],
        "both" => vec![Profile::Rfc9309, Profile::Google],
        other => panic!("unknown profile {other}"),
    }
}

fn options(case: &Map<String, Value>, profile: Profile) -> Options {
    let mut opts = Options::new(profile);
    if let Some(o) = case.get("options") {
        let o = o.as_object().unwrap();
        check_fields(o, &["parse_limit", "typos"], "options");
        if let Some(limit) = o.get("parse_limit") {
            opts = opts
                .with_parse_limit(limit.as_u64().unwrap() as usize)
                .unwrap();
        }
        if let Some(typos) = o.get("typos") {
            opts = opts.with_typos(typos.as_bool().unwrap());
        }
    }
    opts
}

fn tokens(value: &Value) -> Vec<String> {
    value
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t.as_str().unwrap().to_owned())
        .collect()
}

fn select(robots: &Robots, case: &Map<String, Value>) -> Result<Rules, robotstxt::Error> {
    if let Some(token) = case.get("token") {
        return robots.rules_for(token.as_str().unwrap());
    }
    let list = tokens(&case["tokens"]);
    match case["mode"].as_str().unwrap() {
        "any" => robots.rules_for_any(&list),
        "strictest" => robots.rules_for_strictest(&list),
        other => panic!("unknown mode {other}"),
    }
}

fn url_of(check: &Map<String, Value>) -> Vec<u8> {
    match (check.get("url"), check.get("url_parts")) {
        (Some(url), None) => url.as_str().unwrap().as_bytes().to_vec(),
        (None, Some(parts)) => bytes_of(parts),
        _ => panic!("a check needs exactly one of url and url_parts"),
    }
}

fn run_checks(rules: &Rules, checks: &Value, at: &str) {
    for check in checks.as_array().unwrap() {
        let check = check.as_object().unwrap();
        check_fields(
            check,
            &["url", "url_parts", "allowed", "line", "kind", "pattern"],
            at,
        );
        let url = url_of(check);
        let shown = String::from_utf8_lossy(&url[..url.len().min(80)]).into_owned();
        let d = rules.decide(&url);
        assert_eq!(
            rules.can_fetch(&url),
            d.allowed,
            "{at} {shown}: can_fetch vs decide"
        );
        assert_eq!(
            d.allowed,
            check["allowed"].as_bool().unwrap(),
            "{at} {shown}: allowed"
        );
        if let Some(line) = check.get("line") {
            assert_eq!(
                u64::from(d.line),
                line.as_u64().unwrap(),
                "{at} {shown}: line"
            );
        }
        if let Some(kind) = check.get("kind") {
            assert_eq!(d.kind.name(), kind.as_str().unwrap(), "{at} {shown}: kind");
        }
        if let Some(pattern) = check.get("pattern") {
            assert_eq!(
                d.pattern,
                pattern.as_str().unwrap(),
                "{at} {shown}: pattern"
            );
        }
    }
}

fn other_record_json(r: robotstxt::OtherRecord<'_>) -> Value {
    serde_json::json!({
        "key": String::from_utf8_lossy(r.key),
        "key_lower": String::from_utf8_lossy(&r.key_lower()),
        "value": String::from_utf8_lossy(r.value),
        "line": r.line,
        "group": r.group,
    })
}

fn labels_json(labels: &[robotstxt::LabelPreference]) -> Value {
    let map: Map<String, Value> = labels
        .iter()
        .map(|p| {
            let entry = serde_json::json!({"value": p.value.name(), "lines": &p.lines[..]});
            (p.label.to_string(), entry)
        })
        .collect();
    Value::Object(map)
}

/// The usage-preference fields of a parse case (behaviour §10).
fn run_preference_checks(rules: &Rules, case: &Map<String, Value>, at: &str) {
    for check in case
        .get("preferences")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let check = check.as_object().unwrap();
        check_fields(
            check,
            &["url", "crawlable", "line", "labels", "statements"],
            at,
        );
        let url = check["url"].as_str().unwrap();
        let got = rules.preferences(url);
        assert_eq!(
            got.labels.len(),
            labels_json(&got.labels).as_object().unwrap().len(),
            "{at} {url}: a label twice"
        );
        let got = serde_json::json!({
            "url": url,
            "crawlable": got.crawlable,
            "line": got.decision.line,
            "labels": labels_json(&got.labels),
            "statements": got.statements.iter().map(|s| s.line).collect::<Vec<_>>(),
        });
        assert_eq!(
            &got,
            &Value::Object(check.clone()),
            "{at} {url}: preferences"
        );
    }
    if let Some(want) = case.get("content_signal") {
        let got = rules.content_signal().map(|signal| {
            let signals: Map<String, Value> = signal
                .signals
                .iter()
                .map(|(k, v)| {
                    (
                        k.clone(),
                        v.map(|yes| if yes { "yes" } else { "no" }).into(),
                    )
                })
                .collect();
            serde_json::json!({"signals": signals, "lines": signal.lines})
        });
        assert_eq!(&got.unwrap_or(Value::Null), want, "{at}: content_signal");
    }
    if let Some(want) = case.get("other_records_for") {
        let got: Vec<u32> = rules.other_records().map(|r| r.line).collect();
        assert_eq!(&serde_json::json!(got), want, "{at}: other_records_for");
    }
    for check in case
        .get("header")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let check = check.as_object().unwrap();
        check_fields(check, &["url", "field", "labels", "error"], at);
        let url = check["url"].as_str().unwrap();
        let field = check["field"].as_str().unwrap();
        match (
            rules.preferences(url).with_header(field.as_bytes()),
            check.get("error"),
        ) {
            (Ok(got), None) => {
                assert_eq!(&labels_json(&got.labels), &check["labels"], "{at} {field}")
            }
            (Err(err), Some(want)) => {
                let name = match err {
                    robotstxt::StatementError::Syntax => "syntax",
                    robotstxt::StatementError::Empty => "empty",
                };
                assert_eq!(name, want.as_str().unwrap(), "{at} {field}");
            }
            (got, want) => panic!("{at} {field}: got {got:?}, want {want:?}"),
        }
    }
}

fn run_parse_case(case: &Map<String, Value>, at: &str) -> usize {
    check_fields(
        case,
        &[
            "name",
            "profile",
            "options",
            "body",
            "token",
            "tokens",
            "mode",
            "checks",
            "error",
            "crawl_delay",
            "request_rate",
            "sitemaps",
            "host",
            "diagnostics",
            "preferences",
            "content_signal",
            "other_records",
            "other_records_for",
            "header",
            "note",
        ],
        at,
    );
    let body = bytes_of(&case["body"]);
    let mut ran = 0;
    for profile in profiles(case) {
        let at = format!("{at} [{}]", profile.name());
        let robots = Robots::parse_with(&body, &options(case, profile));
        if let Some(sitemaps) = case.get("sitemaps") {
            let got: Vec<String> = robots
                .sitemaps()
                .map(|s| String::from_utf8_lossy(s).into_owned())
                .collect();
            assert_eq!(got, tokens(sitemaps), "{at}: sitemaps");
        }
        if let Some(host) = case.get("host") {
            let got = robots
                .host()
                .map(|h| String::from_utf8_lossy(h).into_owned());
            assert_eq!(got.as_deref(), host.as_str(), "{at}: host");
        }
        if let Some(diagnostics) = case.get("diagnostics") {
            let got: Vec<Value> = robots
                .diagnostics()
                .iter()
                .map(|d| {
                    serde_json::json!({
                        "line": d.line, "kind": d.kind.name(),
                        "flags": d.flag_names().collect::<Vec<_>>(),
                    })
                })
                .collect();
            assert_eq!(&Value::Array(got), diagnostics, "{at}: diagnostics");
        }
        if let Some(others) = case.get("other_records") {
            let got: Vec<Value> = robots.other_records().map(other_record_json).collect();
            assert_eq!(&Value::Array(got), others, "{at}: other_records");
        }
        let selected = (case.contains_key("token") || case.contains_key("tokens"))
            .then(|| select(&robots, case));
        match (case.get("error"), selected) {
            (Some(error), Some(Err(err))) => {
                assert_eq!(error.as_str(), Some("invalid_token"), "{at}");
                assert!(
                    matches!(err, robotstxt::Error::InvalidToken { .. }),
                    "{at}: {err}"
                );
                if let Some(token) = case.get("token").and_then(Value::as_str) {
                    assert!(
                        err.to_string().contains(&format!("{token:?}")),
                        "{at}: {err}"
                    );
                }
            }
            (Some(_), other) => panic!("{at}: expected an invalid-token error, got {other:?}"),
            (None, Some(Err(err))) => panic!("{at}: unexpected error {err}"),
            (None, Some(Ok(rules))) => {
                if let Some(checks) = case.get("checks") {
                    run_checks(&rules, checks, &at);
                }
                run_preference_checks(&rules, case, &at);
                if let Some(delay) = case.get("crawl_delay") {
                    let got = rules.crawl_delay().map(|d| d.as_secs_f64());
                    assert_eq!(got, delay.as_f64(), "{at}: crawl_delay");
                }
                if let Some(rate) = case.get("request_rate") {
                    let got = rules
                        .request_rate()
                        .map(|r| serde_json::json!({"requests": r.requests, "seconds": r.seconds}));
                    assert_eq!(
                        got.as_ref(),
                        rate.as_object().map(|_| rate),
                        "{at}: request_rate"
                    );
                }
            }
            (None, None) => {
                for key in [
                    "checks",
                    "crawl_delay",
                    "request_rate",
                    "preferences",
                    "content_signal",
                    "other_records_for",
                    "header",
                ] {
                    assert!(!case.contains_key(key), "{at}: {key} needs a token");
                }
            }
        }
        ran += 1;
    }
    ran
}

fn run_access_case(case: &Map<String, Value>, at: &str) {
    check_fields(
        case,
        &[
            "name",
            "status",
            "redirects",
            "policy",
            "access",
            "retry_later",
            "note",
        ],
        at,
    );
    let status = case["status"].as_u64().map(|s| s as u16);
    let redirects = case.get("redirects").and_then(Value::as_u64).unwrap_or(0) as u32;
    let policy = match case
        .get("policy")
        .and_then(Value::as_str)
        .unwrap_or("careful")
    {
        "careful" => AccessPolicy::Careful,
        "strict" => AccessPolicy::StrictRfc,
        other => panic!("{at}: unknown policy {other}"),
    };
    let got = classify(status, redirects, policy);
    let name = match got {
        Disposition::FollowRules => "follow_rules",
        Disposition::AllowAll => "allow_all",
        Disposition::DisallowAll => "disallow_all",
        Disposition::NotModified => "not_modified",
    };
    assert_eq!(name, case["access"].as_str().unwrap(), "{at}: access");
    if let Some(retry) = case.get("retry_later") {
        assert_eq!(
            got.retry_later(),
            retry.as_bool().unwrap(),
            "{at}: retry_later"
        );
    }
}

fn ms(value: &Value) -> u64 {
    (value.as_f64().unwrap() * 1000.0).round() as u64
}

fn freshness_policy(value: Option<&Value>, at: &str) -> FreshnessPolicy {
    let mut policy = FreshnessPolicy::default();
    let Some(p) = value else {
        return policy;
    };
    let p = p.as_object().unwrap();
    check_fields(
        p,
        &[
            "fresh_for_s",
            "retry_s",
            "unreachable_limit_s",
            "after_limit",
            "access",
        ],
        at,
    );
    if let Some(v) = p.get("fresh_for_s") {
        policy.fresh_for_ms = ms(v);
    }
    if let Some(v) = p.get("retry_s") {
        policy.retry_ms = ms(v);
    }
    if let Some(v) = p.get("unreachable_limit_s") {
        policy.unreachable_limit_ms = ms(v);
    }
    if let Some(v) = p.get("after_limit") {
        policy.after_limit = match v.as_str().unwrap() {
            "keep" => AfterLimit::KeepCopy,
            "allow" => AfterLimit::AllowAll,
            other => panic!("{at}: after_limit {other}"),
        };
    }
    if let Some(v) = p.get("access") {
        policy.access = match v.as_str().unwrap() {
            "careful" => AccessPolicy::Careful,
            "strict" => AccessPolicy::StrictRfc,
            other => panic!("{at}: access {other}"),
        };
    }
    policy
}

/// A `fetch` object of a timeline; the strings it borrows live in `keep`.
fn fetch_result<'a>(fetch: &'a Value, body: &'a [u8], at: &str) -> FetchResult<'a> {
    let f = fetch.as_object().unwrap();
    check_fields(
        f,
        &[
            "status",
            "redirects",
            "body",
            "max_age_s",
            "retry_after_s",
            "etag",
            "last_modified",
        ],
        at,
    );
    FetchResult {
        status: f["status"].as_u64().map(|s| s as u16),
        redirects: f.get("redirects").and_then(Value::as_u64).unwrap_or(0) as u32,
        body,
        max_age_ms: f.get("max_age_s").map(ms),
        retry_after_ms: f.get("retry_after_s").map(ms),
        etag: f.get("etag").and_then(Value::as_str).map(str::as_bytes),
        last_modified: f
            .get("last_modified")
            .and_then(Value::as_str)
            .map(str::as_bytes),
    }
}

fn check_validators(want: &Value, etag: Option<&[u8]>, last_modified: Option<&[u8]>, at: &str) {
    let v = want.as_object().unwrap();
    let text = |b: Option<&[u8]>| b.map(|b| String::from_utf8_lossy(b).into_owned());
    assert_eq!(text(etag).as_deref(), v["etag"].as_str(), "{at}: etag");
    assert_eq!(
        text(last_modified).as_deref(),
        v["last_modified"].as_str(),
        "{at}: last_modified"
    );
}

fn run_timeline(case: &Map<String, Value>, at: &str) {
    check_fields(case, &["name", "policy", "steps", "fetches", "note"], at);
    let policy = freshness_policy(case.get("policy"), at);
    let mut entry = Entry::new();
    let mut fetches = 0;
    for (i, step) in case["steps"].as_array().unwrap().iter().enumerate() {
        let step = step.as_object().unwrap();
        let at = format!("{at} step {i}");
        let now = ms(&step["at_s"]);
        if let Some(fetch) = step.get("fetch") {
            check_fields(step, &["at_s", "fetch", "note"], &at);
            let body = fetch.get("body").map(bytes_of).unwrap_or_default();
            let result = fetch_result(fetch, &body, &at);
            entry.record(now, &result, &policy);
            fetches += 1;
            continue;
        }
        check_fields(
            step,
            &[
                "at_s",
                "due",
                "access",
                "checks",
                "token",
                "next_try_s",
                "validators",
                "note",
            ],
            &at,
        );
        if let Some(due) = step.get("due") {
            assert_eq!(entry.is_due(now), due.as_bool().unwrap(), "{at}: due");
        }
        if let Some(next) = step.get("next_try_s") {
            assert_eq!(entry.due_at(), ms(next), "{at}: next_try");
        }
        if let Some(v) = step.get("validators") {
            let got = entry.validators();
            check_validators(v, got.etag, got.last_modified, &at);
        }
        let answer = entry.answer(now, &policy);
        if let Some(access) = step.get("access") {
            let name = match answer {
                Answer::Rules(_) => "rules",
                Answer::AllowAll => "allow_all",
                Answer::DisallowAll => "disallow_all",
            };
            assert_eq!(name, access.as_str().unwrap(), "{at}: access");
        }
        if let Some(checks) = step.get("checks") {
            let token = step
                .get("token")
                .and_then(Value::as_str)
                .unwrap_or("ExampleBot");
            for check in checks.as_array().unwrap() {
                let check = check.as_object().unwrap();
                check_fields(check, &["url", "allowed"], &at);
                let url = check["url"].as_str().unwrap();
                let allowed = match answer {
                    Answer::Rules(robots) => robots.rules_for(token).unwrap().can_fetch(url),
                    Answer::AllowAll => true,
                    Answer::DisallowAll => false,
                };
                assert_eq!(allowed, check["allowed"].as_bool().unwrap(), "{at}: {url}");
            }
        }
    }
    if let Some(want) = case.get("fetches") {
        assert_eq!(fetches, want.as_u64().unwrap(), "{at}: fetch steps");
    }
}

fn check_answer(cache: &Cache, answer: &Cached, step: &Map<String, Value>, at: &str) {
    if let Some(want) = step.get("answer") {
        let name = match answer {
            Cached::Rules(_) => "rules",
            Cached::AllowAll(_) => "allow_all",
            Cached::DisallowAll(_) => "disallow_all",
        };
        assert_eq!(name, want.as_str().unwrap(), "{at}: answer");
    }
    if let Some(want) = step.get("cause") {
        let got = answer.blanket().map(|b| cause_json(b.cause));
        assert_eq!(
            got.as_ref(),
            (!want.is_null()).then_some(want),
            "{at}: cause"
        );
    }
    if let Some(checks) = step.get("checks") {
        let token = step
            .get("token")
            .and_then(Value::as_str)
            .unwrap_or("ExampleBot");
        let rules = cache.select(answer, token).unwrap();
        for check in checks.as_array().unwrap() {
            let url = check["url"].as_str().unwrap();
            assert_eq!(
                rules.can_fetch(url),
                check["allowed"].as_bool().unwrap(),
                "{at}: {url}"
            );
        }
    }
}

/// A blanket answer's cause as the vectors write it: `{"kind", "status"}`.
fn cause_json(cause: robotstxt::Cause) -> Value {
    match cause {
        robotstxt::Cause::Status { status, .. } => {
            serde_json::json!({ "kind": cause.name(), "status": status })
        }
        _ => serde_json::json!({ "kind": cause.name() }),
    }
}

fn run_cache_case(case: &Map<String, Value>, at: &str) {
    check_fields(case, &["name", "options", "steps", "note"], at);
    let mut options = CacheOptions::default();
    if let Some(o) = case.get("options") {
        let o = o.as_object().unwrap();
        check_fields(o, &["capacity", "lease_s", "policy"], at);
        if let Some(c) = o.get("capacity") {
            options.capacity = c.as_u64().unwrap() as usize;
        }
        if let Some(l) = o.get("lease_s") {
            options.lease_ms = ms(l);
        }
        options.policy = freshness_policy(o.get("policy"), at);
    }
    let cache = Cache::new(options);
    let mut leases: HashMap<String, Lease> = HashMap::new();
    for (i, step) in case["steps"].as_array().unwrap().iter().enumerate() {
        let step = step.as_object().unwrap();
        let at = format!("{at} step {i}");
        if let Some(stats) = step.get("stats") {
            check_fields(step, &["stats", "note"], &at);
            let got = cache.stats();
            let got = serde_json::json!({
                "hits": got.hits, "misses": got.misses, "fetches": got.fetches,
                "stale": got.stale, "evictions": got.evictions, "entries": got.entries,
            });
            for (key, want) in stats.as_object().unwrap() {
                assert_eq!(got.get(key), Some(want), "{at}: stats.{key}");
            }
            continue;
        }
        let now = ms(&step["at_s"]);
        if let Some(name) = step.get("store") {
            check_fields(step, &["at_s", "store", "fetch", "error", "note"], &at);
            let body = step["fetch"].get("body").map(bytes_of).unwrap_or_default();
            let result = fetch_result(&step["fetch"], &body, &at);
            let name = name.as_str().unwrap();
            // A lease is stored once: a second store of it is refused.
            let got = match leases.remove(name) {
                Some(lease) => cache.store(lease, now, &result),
                None => Err(robotstxt::Error::InvalidLease { reason: "ended" }),
            };
            match step.get("error") {
                Some(e) => {
                    assert_eq!(e, "invalid_lease", "{at}");
                    assert!(
                        matches!(got, Err(robotstxt::Error::InvalidLease { .. })),
                        "{at}: {got:?}"
                    );
                }
                None => {
                    got.unwrap_or_else(|e| panic!("{at}: {e}"));
                }
            }
            continue;
        }
        if let Some(name) = step.get("abandon") {
            check_fields(step, &["at_s", "abandon", "note"], &at);
            if let Some(lease) = leases.remove(name.as_str().unwrap()) {
                cache.abandon(lease).unwrap();
            }
            continue;
        }
        check_fields(
            step,
            &[
                "at_s",
                "lookup",
                "when_fetching",
                "expect",
                "stale",
                "answer",
                "checks",
                "token",
                "validators",
                "lease",
                "origin",
                "until_s",
                "error",
                "cause",
                "retry_at_s",
                "note",
            ],
            &at,
        );
        let when = match step
            .get("when_fetching")
            .and_then(Value::as_str)
            .unwrap_or("wait")
        {
            "wait" => WhenFetching::Wait,
            "disallow_all" => WhenFetching::DisallowAll,
            other => panic!("{at}: when_fetching {other}"),
        };
        let got = cache.lookup(step["lookup"].as_str().unwrap(), now, when);
        if let Some(error) = step.get("error") {
            assert_eq!(error, "invalid_url", "{at}");
            let err = got.unwrap_err();
            assert!(
                matches!(err, robotstxt::Error::InvalidUrl { .. }),
                "{at}: {err}"
            );
            continue;
        }
        let expect = step["expect"].as_str().unwrap();
        match got.unwrap() {
            Lookup::Ready {
                answer,
                stale,
                retry_at,
            } => {
                assert_eq!(expect, "ready", "{at}: expect");
                if let Some(want) = step.get("stale") {
                    assert_eq!(stale, want.as_bool().unwrap(), "{at}: stale");
                }
                if let Some(want) = step.get("retry_at_s") {
                    let want = (!want.is_null()).then(|| ms(want));
                    assert_eq!(retry_at, want, "{at}: retry_at");
                }
                check_answer(&cache, &answer, step, &at);
            }
            Lookup::Fetch(lease) => {
                assert_eq!(expect, "fetch", "{at}: expect");
                if let Some(v) = step.get("validators") {
                    check_validators(v, lease.etag(), lease.last_modified(), &at);
                }
                if let Some(origin) = step.get("origin") {
                    assert_eq!(lease.origin(), origin.as_str().unwrap(), "{at}: origin");
                }
                leases.insert(step["lease"].as_str().unwrap().to_owned(), lease);
            }
            Lookup::Wait { until } => {
                assert_eq!(expect, "wait", "{at}: expect");
                if let Some(want) = step.get("until_s") {
                    assert_eq!(until, ms(want), "{at}: until");
                }
            }
        }
    }
}

fn run_origin_case(case: &Map<String, Value>, at: &str) {
    check_fields(case, &["name", "url", "origin", "error", "note"], at);
    let cache = Cache::new(CacheOptions::default());
    let got = cache.lookup(case["url"].as_str().unwrap(), 0, WhenFetching::Wait);
    match case.get("origin") {
        Some(want) => {
            let Ok(Lookup::Fetch(lease)) = got else {
                panic!("{at}: {got:?}");
            };
            assert_eq!(lease.origin(), want.as_str().unwrap(), "{at}");
            assert_eq!(lease.robots_url(), format!("{}/robots.txt", lease.origin()));
        }
        None => {
            assert_eq!(case["error"], "invalid_url", "{at}");
            assert!(
                matches!(got, Err(robotstxt::Error::InvalidUrl { .. })),
                "{at}: {got:?}"
            );
        }
    }
}

fn run_pacing_case(case: &Map<String, Value>, at: &str) {
    check_fields(case, &["name", "options", "steps", "note"], at);
    let mut options = PacerOptions::default();
    if let Some(o) = case.get("options") {
        let o = o.as_object().unwrap();
        check_fields(
            o,
            &[
                "floor_s",
                "backoff_cap_s",
                "capacity",
                "max_in_flight",
                "in_flight_timeout_s",
            ],
            at,
        );
        if let Some(v) = o.get("floor_s") {
            options.floor_ms = ms(v);
        }
        if let Some(v) = o.get("backoff_cap_s") {
            options.backoff_cap_ms = ms(v);
        }
        if let Some(v) = o.get("capacity") {
            options.capacity = v.as_u64().unwrap() as usize;
        }
        if let Some(v) = o.get("max_in_flight") {
            options.max_in_flight = v.as_u64().unwrap() as u32;
        }
        if let Some(v) = o.get("in_flight_timeout_s") {
            options.in_flight_timeout_ms = ms(v);
        }
    }
    let pacer = Pacer::new(options);
    let mut tickets: HashMap<String, Ticket> = HashMap::new();
    for (i, step) in case["steps"].as_array().unwrap().iter().enumerate() {
        let step = step.as_object().unwrap();
        let at = format!("{at} step {i}");
        check_fields(
            step,
            &[
                "at_s",
                "reserve",
                "ticket",
                "start_s",
                "error",
                "confirm",
                "expect",
                "until_s",
                "busy",
                "cancel",
                "in_flight",
                "set_rules",
                "set_delay",
                "record",
                "enabled",
                "gap_s",
                "note",
            ],
            &at,
        );
        let now = ms(&step["at_s"]);
        if let Some(host) = step.get("reserve") {
            let got = pacer.reserve(host.as_str().unwrap(), now);
            if let Some(error) = step.get("error") {
                match error.as_str().unwrap() {
                    "invalid_host" => assert!(
                        matches!(got, Err(robotstxt::Error::InvalidHost { .. })),
                        "{at}: {got:?}"
                    ),
                    "pacer_full" => assert!(
                        matches!(got, Err(robotstxt::Error::PacerFull { .. })),
                        "{at}: {got:?}"
                    ),
                    other => panic!("{at}: error {other}"),
                }
                continue;
            }
            let ticket = got.unwrap_or_else(|e| panic!("{at}: {e}"));
            let want = step["start_s"]
                .as_f64()
                .map(|s| (s * 1000.0).round() as u64);
            assert_eq!(ticket.as_ref().map(Ticket::start), want, "{at}: start");
            if let (Some(name), Some(ticket)) = (step.get("ticket"), ticket) {
                tickets.insert(name.as_str().unwrap().to_owned(), ticket);
            }
        } else if let Some(name) = step.get("confirm") {
            let ticket = tickets
                .get_mut(name.as_str().unwrap())
                .unwrap_or_else(|| panic!("{at}: no ticket {name}"));
            let got = pacer.confirm(ticket, now);
            if let Some(error) = step.get("error") {
                assert_eq!(error, "invalid_ticket", "{at}");
                assert!(
                    matches!(got, Err(robotstxt::Error::InvalidTicket { .. })),
                    "{at}: {got:?}"
                );
                continue;
            }
            let got = got.unwrap_or_else(|e| panic!("{at}: {e}"));
            let (kind, until, busy) = match got {
                Confirm::Go => ("go", None, false),
                Confirm::Wait { until, busy } => ("wait", Some(until), busy),
                Confirm::Disabled => ("disabled", None, false),
            };
            assert_eq!(kind, step["expect"].as_str().unwrap(), "{at}: confirm");
            if let Some(want) = step.get("until_s") {
                assert_eq!(until, Some(ms(want)), "{at}: until");
            }
            if let Some(want) = step.get("busy") {
                assert_eq!(busy, want.as_bool().unwrap(), "{at}: busy");
            }
        } else if let Some(name) = step.get("cancel") {
            let ticket = tickets.remove(name.as_str().unwrap()).unwrap();
            pacer.cancel(ticket);
        } else if let Some(count) = step.get("in_flight") {
            let got = pacer
                .in_flight(count["host"].as_str().unwrap(), now)
                .unwrap();
            assert_eq!(
                got as u64,
                count["count"].as_u64().unwrap(),
                "{at}: in flight"
            );
        } else if let Some(set) = step.get("set_rules") {
            let robots = Robots::parse(set["body"].as_str().unwrap().as_bytes());
            let rules = robots.rules_for(set["token"].as_str().unwrap()).unwrap();
            pacer
                .set_rules(set["host"].as_str().unwrap(), &rules)
                .unwrap();
        } else if let Some(set) = step.get("set_delay") {
            let delay = set["crawl_delay_s"]
                .as_f64()
                .map(std::time::Duration::from_secs_f64);
            let rate = set["request_rate"].as_object().map(|r| RequestRate {
                requests: r["requests"].as_u64().unwrap() as u32,
                seconds: r["seconds"].as_u64().unwrap() as u32,
            });
            pacer
                .set_delay(set["host"].as_str().unwrap(), delay, rate)
                .unwrap();
        } else if let Some(record) = step.get("record") {
            let status = record["status"].as_u64().map(|s| s as u16);
            let retry = record.get("retry_after_s").map(ms);
            pacer
                .record(record["host"].as_str().unwrap(), now, status, retry)
                .unwrap();
        } else if let Some(enabled) = step.get("enabled") {
            let on = enabled["on"].as_bool().unwrap();
            pacer
                .set_enabled(enabled["host"].as_str().unwrap(), on)
                .unwrap();
        } else if let Some(gap) = step.get("gap_s") {
            let got = pacer.gap_ms(gap["host"].as_str().unwrap()).unwrap();
            assert_eq!(got, ms(&gap["gap"]), "{at}: gap");
        } else {
            panic!("{at}: a step with nothing to do");
        }
    }
}

#[test]
fn every_vector() {
    let files = vector_files();
    assert!(
        files.len() >= 9,
        "expected the vector files, found {files:?}"
    );
    let mut total = 0;
    for file in files {
        let name = file.file_name().unwrap().to_string_lossy().into_owned();
        if name == "http.json" {
            continue; // behaviour §11: src/http/tests.rs runs it, beside the code
        }
        let doc: Value = serde_json::from_slice(&std::fs::read(&file).unwrap()).unwrap();
        let doc = doc.as_object().unwrap();
        check_fields(doc, &["spec", "cases", "note"], &name);
        let mut seen = std::collections::HashSet::new();
        for case in doc["cases"].as_array().unwrap() {
            let case = case.as_object().unwrap();
            let at = format!("{name}: {}", case["name"].as_str().unwrap());
            assert!(
                seen.insert(case["name"].as_str().unwrap().to_owned()),
                "{at}: duplicate"
            );
            match name.as_str() {
                "access.json" => run_access_case(case, &at),
                "cache.json" => run_cache_case(case, &at),
                "pacing.json" => run_pacing_case(case, &at),
                "origins.json" => run_origin_case(case, &at),
                "freshness.json" => run_timeline(case, &at),
                _ => {
                    run_parse_case(case, &at);
                }
            }
            total += 1;
        }
    }
    assert!(total >= 300, "only {total} vector cases");
    println!("{total} vector cases");
}
