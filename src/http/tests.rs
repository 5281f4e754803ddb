//! The module's own cases, then every case of `tests/vectors/http.json`
//! (format: tests/vectors/README.md).

use super::*;
use serde_json::{Map, Value};

/// Sun, 06 Nov 1994 08:49:37 GMT, RFC 9110's example date.
const NOW: u64 = 784_111_777_000;

#[test]
fn the_three_forms_name_one_instant() {
    // RFC 9110 §5.6.7's three spellings of the same date.
    for form in [
        &b"Sun, 06 Nov 1994 08:49:37 GMT"[..],
        b"Sunday, 06-Nov-94 08:49:37 GMT",
        b"Sun Nov  6 08:49:37 1994",
    ] {
        assert_eq!(date::epoch_ms(form), Ok(NOW), "{}", shown(form));
        assert_eq!(retry_after_ms(form, NOW - 1500), Ok(1500));
    }
}

#[test]
fn delta_seconds_saturate() {
    assert_eq!(delta_ms(b"0"), Some(0));
    assert_eq!(delta_ms(b"2147483647"), Some(2_147_483_647_000));
    assert_eq!(delta_ms(&[b'9'; 400]), Some(MAX_DELTA_MS));
    assert_eq!(delta_ms(b""), None);
    assert_eq!(delta_ms(b"1e3"), None);
    // A wait from a date far off is capped the same way.
    assert_eq!(
        retry_after_ms(b"Fri, 31 Dec 9999 23:59:59 GMT", 0),
        Ok(MAX_DELTA_MS)
    );
    assert_eq!(retry_after_ms(b"120", u64::MAX), Ok(120_000));
    assert_eq!(
        retry_after_ms(b"Sun, 06 Nov 1994 08:49:37 GMT", u64::MAX),
        Ok(0)
    );
}

#[test]
fn reasons_name_the_header_and_show_the_value_safely() {
    let error = retry_after_ms(b"soon", NOW).unwrap_err();
    assert_eq!(error.header(), "Retry-After");
    assert_eq!(error.reason(), "not delta-seconds nor an HTTP-date");
    assert_eq!(
        error.to_string(),
        "Retry-After ignored: not delta-seconds nor an HTTP-date: \"soon\""
    );
    let error = retry_after_ms(b"1\xff\"\\\n", NOW).unwrap_err();
    assert!(
        error.to_string().ends_with(r#": "1\xff\"\\\x0a""#),
        "{error}"
    );
    let long = [b'x'; 100];
    let error = retry_after_ms(&long, NOW).unwrap_err();
    assert!(error
        .to_string()
        .ends_with(&format!("\"{}\" (cut)", "x".repeat(64))));
    let error = max_age_ms(b"public, max-age=-1 ").unwrap_err();
    assert_eq!(error.header(), "Cache-Control");
    assert_eq!(
        error.to_string(),
        "Cache-Control ignored: max-age is not a number of seconds: \"max-age=-1\""
    );
}

#[test]
fn loose_spellings_are_normalised_and_the_rest_refused() {
    let norm = |text: &[u8]| {
        let mut buf = [0u8; 40];
        date::normalise(text, &mut buf).map(|len| buf[..len].to_vec())
    };
    assert_eq!(
        norm(b"sUN,  06\tnOV 1994 08:49:37 gmt").as_deref(),
        Some(&b"Sun, 06 Nov 1994 08:49:37 GMT"[..])
    );
    assert_eq!(
        norm(b"Sun Nov 6 08:49:37 1994").as_deref(),
        Some(&b"Sun Nov  6 08:49:37 1994"[..])
    );
    assert_eq!(norm("Sun, 06 Nov 1994 08:49:37 GMT\u{e9}".as_bytes()), None);
    assert_eq!(norm(&[b'a'; 41]), None);
    assert_eq!(
        date::epoch_ms(b"Sun, 06 Nov 1994 08:49:37 CET"),
        Err(date::NotADate::Zone("CET".into()))
    );
    assert_eq!(
        date::epoch_ms(b"Sat, 06 Nov 1994 08:49:37 GMT"),
        Err(date::NotADate::Weekday)
    );
    assert_eq!(
        date::epoch_ms(b"Sun, 06 Nov 1994"),
        Err(date::NotADate::Shape)
    );
    // Before 1970: a past date, whatever the year, but still checked.
    assert_eq!(date::epoch_ms(b"Mon, 01 Jan 1900 00:00:00 GMT"), Ok(0));
    assert_eq!(date::epoch_ms(b"Mon Jan  1 00:00:00 0001"), Ok(0));
    assert_eq!(
        date::epoch_ms(b"Tue, 01 Jan 1900 00:00:00 GMT"),
        Err(date::NotADate::Weekday)
    );
    assert_eq!(
        date::epoch_ms(b"Thu, 29 Feb 1900 00:00:00 GMT"),
        Err(date::NotADate::Shape)
    );
}

#[test]
fn directives_split_outside_quoted_strings() {
    let parts: Vec<&[u8]> = cache_control::Directives(br#"a="x, \"y, z", max-age=1,,b"#).collect();
    assert_eq!(parts, [&br#"a="x, \"y, z""#[..], b" max-age=1", b"", b"b"]);
    assert_eq!(
        max_age_ms(br#"a="x, max-age=5", max-age=1"#),
        Ok(Some(1000))
    );
}

#[test]
fn a_response_reads_every_header_once() {
    let read = HttpResponse {
        status: Some(503),
        redirects: 1,
        body: b"busy",
        retry_after: Some(b"Sun Nov  6 08:51:37 1994"),
        cache_control: Some(b"max-age=soon"),
        etag: Some(b" \"v1\" "),
        last_modified: Some(b""),
    }
    .read(NOW, 60_000);
    let r = read.result;
    assert_eq!(
        (r.status, r.redirects, r.body),
        (Some(503), 1, &b"busy"[..])
    );
    assert_eq!((r.retry_after_ms, r.max_age_ms), (Some(120_000), None));
    assert_eq!((r.etag, r.last_modified), (Some(&b"\"v1\""[..]), None));
    let ignored: Vec<_> = read.ignored().map(HeaderError::header).collect();
    assert_eq!(ignored, ["Cache-Control"]);
    // Nothing given, nothing read.
    let none = HttpResponse::default().read(NOW, 60_000);
    assert_eq!(none.result.max_age_ms, None);
    assert_eq!(none.ignored().count(), 0);
}

#[test]
fn a_read_response_records_as_the_cache_expects() {
    // Retry-After as an asctime date, 2 minutes on: the retry is due then
    // (behaviour §7 keeps it between 1 minute and a day).
    let policy = crate::FreshnessPolicy::default();
    let mut entry = crate::Entry::new();
    let read = HttpResponse {
        status: Some(503),
        retry_after: Some(b"Sun Nov  6 08:51:37 1994"),
        ..HttpResponse::default()
    }
    .read(NOW, 0);
    entry.record(NOW, &read.result, &policy);
    assert!(!entry.is_due(NOW + 119_999));
    assert!(entry.is_due(NOW + 120_000));
}

// --- the shared vectors ---

fn check_fields(object: &Map<String, Value>, known: &[&str], at: &str) {
    for key in object.keys() {
        assert!(known.contains(&key.as_str()), "{at}: unknown field {key:?}");
    }
}

/// A value: a string (its UTF-8 bytes) or parts `{"text"}` / `{"hex"}`.
fn bytes(value: &Value, at: &str) -> Vec<u8> {
    match value {
        Value::String(s) => s.as_bytes().to_vec(),
        Value::Array(parts) => parts
            .iter()
            .flat_map(|part| {
                let part = part.as_object().unwrap();
                check_fields(part, &["text", "hex"], at);
                match (part.get("text"), part.get("hex")) {
                    (Some(text), None) => text.as_str().unwrap().as_bytes().to_vec(),
                    (None, Some(hex)) => {
                        let hex = hex.as_str().unwrap();
                        (0..hex.len())
                            .step_by(2)
                            .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).unwrap())
                            .collect()
                    }
                    _ => panic!("{at}: a part is text or hex"),
                }
            })
            .collect(),
        _ => panic!("{at}: a value is a string or parts"),
    }
}

fn ms(seconds: &Value) -> u64 {
    (seconds.as_f64().unwrap() * 1000.0).round() as u64
}

fn optional_ms(seconds: &Value) -> Option<u64> {
    (!seconds.is_null()).then(|| ms(seconds))
}

fn run_header_case(case: &Map<String, Value>, at: &str) {
    let value = bytes(&case["value"], at);
    match case["header"].as_str().unwrap() {
        "retry-after" => {
            check_fields(
                case,
                &[
                    "name", "note", "header", "value", "now_s", "wait_s", "error",
                ],
                at,
            );
            let got = retry_after_ms(&value, ms(&case["now_s"]));
            match case.get("error") {
                Some(reason) => {
                    let error = got.expect_err(at);
                    assert_eq!(error.header(), "Retry-After", "{at}");
                    assert_eq!(error.reason(), reason.as_str().unwrap(), "{at}");
                }
                None => assert_eq!(got, Ok(ms(&case["wait_s"])), "{at}"),
            }
        }
        "cache-control" => {
            check_fields(
                case,
                &["name", "note", "header", "value", "max_age_s", "error"],
                at,
            );
            let got = max_age_ms(&value);
            match case.get("error") {
                Some(reason) => {
                    let error = got.expect_err(at);
                    assert_eq!(error.header(), "Cache-Control", "{at}");
                    assert_eq!(error.reason(), reason.as_str().unwrap(), "{at}");
                }
                None => assert_eq!(got, Ok(optional_ms(&case["max_age_s"])), "{at}"),
            }
        }
        other => panic!("{at}: unknown header {other:?}"),
    }
}

fn run_response_case(case: &Map<String, Value>, at: &str) {
    check_fields(
        case,
        &[
            "name",
            "note",
            "response",
            "now_s",
            "min_max_age_s",
            "expect",
        ],
        at,
    );
    let response = case["response"].as_object().unwrap();
    check_fields(
        response,
        &[
            "status",
            "redirects",
            "retry_after",
            "cache_control",
            "etag",
            "last_modified",
        ],
        at,
    );
    let header = |name: &str| (!response[name].is_null()).then(|| bytes(&response[name], at));
    let (retry_after, cache_control) = (header("retry_after"), header("cache_control"));
    let (etag, last_modified) = (header("etag"), header("last_modified"));
    let read = HttpResponse {
        status: response["status"].as_u64().map(|s| s as u16),
        redirects: response["redirects"].as_u64().unwrap() as u32,
        body: b"",
        retry_after: retry_after.as_deref(),
        cache_control: cache_control.as_deref(),
        etag: etag.as_deref(),
        last_modified: last_modified.as_deref(),
    }
    .read(ms(&case["now_s"]), ms(&case["min_max_age_s"]));
    let expect = case["expect"].as_object().unwrap();
    check_fields(
        expect,
        &[
            "max_age_s",
            "retry_after_s",
            "etag",
            "last_modified",
            "ignored",
        ],
        at,
    );
    let r = &read.result;
    assert_eq!(
        r.status,
        response["status"].as_u64().map(|s| s as u16),
        "{at}"
    );
    assert_eq!(
        r.max_age_ms,
        optional_ms(&expect["max_age_s"]),
        "{at}: max-age"
    );
    assert_eq!(
        r.retry_after_ms,
        optional_ms(&expect["retry_after_s"]),
        "{at}: retry-after"
    );
    let text = |v: &Value| v.as_str().map(|s| s.as_bytes().to_vec());
    assert_eq!(
        r.etag.map(<[u8]>::to_vec),
        text(&expect["etag"]),
        "{at}: etag"
    );
    assert_eq!(
        r.last_modified.map(<[u8]>::to_vec),
        text(&expect["last_modified"]),
        "{at}: last-modified"
    );
    let ignored: Vec<&str> = read.ignored().map(HeaderError::header).collect();
    let want: Vec<&str> = expect["ignored"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    assert_eq!(ignored, want, "{at}: ignored");
}

#[test]
fn every_http_vector() {
    let doc: Value = serde_json::from_str(include_str!("../../tests/vectors/http.json")).unwrap();
    let doc = doc.as_object().unwrap();
    check_fields(doc, &["spec", "note", "cases"], "http.json");
    let mut seen = std::collections::HashSet::new();
    let cases = doc["cases"].as_array().unwrap();
    for case in cases {
        let case = case.as_object().unwrap();
        let at = format!("http.json: {}", case["name"].as_str().unwrap());
        assert!(
            seen.insert(case["name"].as_str().unwrap()),
            "{at}: duplicate"
        );
        if case.contains_key("response") {
            run_response_case(case, &at);
        } else {
            run_header_case(case, &at);
        }
    }
    assert!(cases.len() >= 80, "only {} cases", cases.len());
}
