#!/usr/bin/env python3
"""Turns the JSON files of tests/vectors/ into a C table for tests/c/test_vectors.c.

Usage: gen_vectors.py VECTOR_DIR OUT.h

The format is tests/vectors/README.md. Like every runner, this one fails on
a field it does not know, so a typo cannot hide a case. It only transcribes:
every answer is computed by the C test through the C ABI.
"""

import json
import os
import sys

CHUNK = 2000  # bytes per C literal: -pedantic caps literals at 4095.

# Vector files for handles the C ABI does not have yet. Named here so that
# they are skipped out loud, and any other new file still fails.
NOT_IN_C_ABI_YET = set()


class Gen:
    def __init__(self):
        self.defs = []  # static arrays, emitted before the case tables
        self.count = 0

    def name(self, prefix):
        self.count += 1
        return f"{prefix}{self.count}"

    def array(self, ctype, prefix, items):
        """A static array of `items` (C initialisers); (NULL, 0) when empty."""
        if not items:
            return "NULL", 0
        name = self.name(prefix)
        body = ",\n    ".join(items)
        self.defs.append(f"static const {ctype} {name}[] = {{\n    {body}\n}};")
        return name, len(items)

    def bytes_value(self, parts):
        """[(bytes, times)] → a vt_bytes initialiser."""
        items = []
        for data, times in parts:
            if not data:
                continue
            for i in range(0, len(data), CHUNK):
                chunk = data[i : i + CHUNK]
                items.append(f"{{{c_literal(chunk)}, {len(chunk)}, {times}}}")
        name, n = self.array("vt_part", "part", items)
        return f"{{{name}, {n}}}"


def c_literal(data):
    out = ['"']
    for b in data:
        c = chr(b)
        # Octal escapes are always three digits, so a following digit is
        # never swallowed; `?` is escaped against trigraphs.
        if 0x20 <= b < 0x7F and c not in '"\\?':
            out.append(c)
        else:
            out.append(f"\\{b:03o}")
    out.append('"')
    return "".join(out)


def fail(at, message):
    sys.exit(f"gen_vectors: {at}: {message}")


def check_fields(obj, known, at):
    if not isinstance(obj, dict):
        fail(at, f"expected an object, got {obj!r}")
    for key in obj:
        if key not in known:
            fail(at, f"unknown field {key!r}")


def parts_of(value, at):
    """`body`/`url_parts`: a string, or parts of text, hex and repeats."""
    if isinstance(value, str):
        return [(value.encode("utf-8"), 1)]
    if not isinstance(value, list):
        fail(at, f"bad bytes value {value!r}")
    parts = []
    for part in value:
        if "text" in part:
            check_fields(part, ["text"], at)
            parts.append((part["text"].encode("utf-8"), 1))
        elif "hex" in part:
            check_fields(part, ["hex"], at)
            parts.append((bytes.fromhex(part["hex"]), 1))
        elif "repeat" in part:
            check_fields(part, ["repeat", "times"], at)
            parts.append((part["repeat"].encode("utf-8"), int(part["times"])))
        else:
            fail(at, f"unknown body part {part!r}")
    return parts


def flag(b):
    return "true" if b else "false"


def ms(seconds):
    return int(round(float(seconds) * 1000))


PARSE_FIELDS = [
    "name", "profile", "options", "body", "token", "tokens", "mode", "checks",
    "error", "crawl_delay", "request_rate", "sitemaps", "host", "diagnostics",
    "preferences", "content_signal", "other_records", "other_records_for", "header",
    "note",
]

# Fields that ask the selected rules, so a case without a token cannot
# hold them.
NEEDS_TOKEN = [
    "checks", "crawl_delay", "request_rate", "error", "preferences", "content_signal",
    "other_records_for", "header",
]

USAGE = {"y": "ROBOTSTXT_USAGE_YES", "n": "ROBOTSTXT_USAGE_NO", None: "ROBOTSTXT_USAGE_UNKNOWN"}
SIGNAL = {"yes": "VT_SIGNAL_YES", "no": "VT_SIGNAL_NO", None: "VT_SIGNAL_UNSET"}
FIELD_ERROR = {"syntax": "VT_FIELD_SYNTAX", "empty": "VT_FIELD_EMPTY"}


def text(g, s):
    """A JSON string → a vt_bytes initialiser of its UTF-8 bytes."""
    if not isinstance(s, str):
        fail("text", f"expected a string, got {s!r}")
    return g.bytes_value([(s.encode("utf-8"), 1)])


def line_list(g, lines, at):
    """A JSON list of line numbers → (array name, count)."""
    if not isinstance(lines, list) or not all(isinstance(n, int) and n > 0 for n in lines):
        fail(at, f"expected a list of line numbers, got {lines!r}")
    return g.array("uint32_t", "ln", [str(n) for n in lines])


def require(obj, keys, at):
    """The reference runner compares whole objects: every key must be there."""
    for key in keys:
        if key not in obj:
            fail(at, f"missing {key!r}")


def labels_value(g, labels, at):
    """`labels`: {label: {"value", "lines"}} → (vt_label array, count)."""
    if not isinstance(labels, dict):
        fail(at, f"labels must be an object, got {labels!r}")
    items = []
    for label, answer in labels.items():
        check_fields(answer, ["value", "lines"], f"{at} label {label}")
        require(answer, ["value", "lines"], f"{at} label {label}")
        if answer["value"] not in USAGE:
            fail(at, f"label {label}: unknown value {answer['value']!r}")
        ln_name, ln_n = line_list(g, answer["lines"], f"{at} label {label}")
        items.append(
            designated(
                [
                    ("label", text(g, label)),
                    ("value", USAGE[answer["value"]]),
                    ("lines", ln_name),
                    ("line_count", ln_n),
                ]
            )
        )
    return g.array("vt_label", "lab", items)


def preference_fields(g, case, at):
    """The usage-preference fields of a parse case (behaviour §10)."""
    prefs = []
    for check in case.get("preferences", []):
        keys = ["url", "crawlable", "line", "labels", "statements"]
        check_fields(check, keys, at + " preferences")
        require(check, keys, at + " preferences")
        lab_name, lab_n = labels_value(g, check["labels"], at)
        st_name, st_n = line_list(g, check["statements"], at + " statements")
        prefs.append(
            designated(
                [
                    ("url", text(g, check["url"])),
                    ("crawlable", flag(check["crawlable"])),
                    ("line", int(check["line"])),
                    ("labels", lab_name),
                    ("label_count", lab_n),
                    ("statements", st_name),
                    ("statement_count", st_n),
                ]
            )
        )
    pf_name, pf_n = g.array("vt_preference_check", "pf", prefs)

    fields = [("preferences", pf_name), ("preference_count", pf_n)]
    if "content_signal" not in case:
        fields.append(("content_signal_state", "VT_UNCHECKED"))
    elif case["content_signal"] is None:
        fields.append(("content_signal_state", "VT_ABSENT"))
    else:
        cs = case["content_signal"]
        check_fields(cs, ["signals", "lines"], at + " content_signal")
        require(cs, ["signals", "lines"], at + " content_signal")
        if not isinstance(cs["signals"], dict):
            fail(at, "content_signal signals must be an object")
        signals = []
        for key, value in cs["signals"].items():
            if value not in SIGNAL:
                fail(at, f"content_signal {key}: unknown value {value!r}")
            signals.append(designated([("key", text(g, key)), ("value", SIGNAL[value])]))
        sg_name, sg_n = g.array("vt_signal", "sg", signals)
        ln_name, ln_n = line_list(g, cs["lines"], at + " content_signal lines")
        fields += [
            ("content_signal_state", "VT_PRESENT"),
            ("signals", sg_name),
            ("signal_count", sg_n),
            ("signal_lines", ln_name),
            ("signal_line_count", ln_n),
        ]

    if "other_records" in case:
        records = []
        for r in case["other_records"]:
            keys = ["key", "key_lower", "value", "line", "group"]
            check_fields(r, keys, at + " other_records")
            require(r, keys, at + " other_records")
            records.append(
                designated(
                    [
                        ("key", text(g, r["key"])),
                        ("key_lower", text(g, r["key_lower"])),
                        ("value", text(g, r["value"])),
                        ("line", int(r["line"])),
                        ("in_group", flag(r["group"] is not None)),
                        ("group", int(r["group"] or 0)),
                    ]
                )
            )
        or_name, or_n = g.array("vt_other_record", "orec", records)
        fields += [("check_other_records", "true"), ("other_records", or_name),
                   ("other_record_count", or_n)]
    if "other_records_for" in case:
        ln_name, ln_n = line_list(g, case["other_records_for"], at + " other_records_for")
        fields += [("check_other_records_for", "true"), ("other_records_for", ln_name),
                   ("other_record_for_count", ln_n)]

    headers = []
    for check in case.get("header", []):
        check_fields(check, ["url", "field", "labels", "error"], at + " header")
        require(check, ["url", "field"], at + " header")
        if ("labels" in check) == ("error" in check):
            fail(at, "a header check has exactly one of labels and error")
        if "error" in check and check["error"] not in FIELD_ERROR:
            fail(at, f"unknown header error {check['error']!r}")
        lab_name, lab_n = labels_value(g, check.get("labels", {}), at + " header")
        headers.append(
            designated(
                [
                    ("url", text(g, check["url"])),
                    ("field", text(g, check["field"])),
                    ("error", FIELD_ERROR.get(check.get("error"), "VT_FIELD_OK")),
                    ("labels", lab_name),
                    ("label_count", lab_n),
                ]
            )
        )
    hd_name, hd_n = g.array("vt_header_check", "hd", headers)
    fields += [("headers", hd_name), ("header_count", hd_n)]
    return fields


def parse_case(g, case, at):
    check_fields(case, PARSE_FIELDS, at)
    profile = case.get("profile", "both")
    if profile not in ("rfc", "google", "both"):
        fail(at, f"unknown profile {profile!r}")
    options = case.get("options", {})
    check_fields(options, ["parse_limit", "typos"], at + " options")
    body = g.bytes_value(parts_of(case["body"], at))

    if "token" in case:
        if "tokens" in case or "mode" in case:
            fail(at, "both token and tokens")
        select, tokens = "VT_SELECT_ONE", [case["token"]]
    elif "tokens" in case:
        select = {"any": "VT_SELECT_ANY", "strictest": "VT_SELECT_STRICTEST"}.get(case.get("mode"))
        if select is None:
            fail(at, f"unknown mode {case.get('mode')!r}")
        tokens = case["tokens"]
    else:
        select, tokens = "VT_SELECT_NONE", []
        for key in NEEDS_TOKEN:
            if key in case:
                fail(at, f"{key} needs a token")
    tok_name, tok_n = g.array(
        "vt_bytes", "tok", [g.bytes_value([(t.encode("utf-8"), 1)]) for t in tokens]
    )

    error = case.get("error")
    if error not in (None, "invalid_token"):
        fail(at, f"unknown error {error!r}")

    checks = []
    for check in case.get("checks", []):
        check_fields(check, ["url", "url_parts", "allowed", "line", "kind", "pattern"], at)
        if ("url" in check) == ("url_parts" in check):
            fail(at, "a check needs exactly one of url and url_parts")
        url = g.bytes_value(parts_of(check.get("url", check.get("url_parts")), at))
        kind = check.get("kind")
        if kind not in (None, "allow", "disallow", "none"):
            fail(at, f"unknown kind {kind!r}")
        pattern = check.get("pattern")
        checks.append(
            "{%s, %s, %s, %d, %s, %s, %s}"
            % (
                url,
                flag(check["allowed"]),
                flag("line" in check),
                check.get("line", 0),
                c_literal(kind.encode()) if kind else "NULL",
                flag(pattern is not None),
                g.bytes_value([((pattern or "").encode("utf-8"), 1)]),
            )
        )
    chk_name, chk_n = g.array("vt_check", "chk", checks)

    def state(key):
        if key not in case:
            return "VT_UNCHECKED"
        return "VT_ABSENT" if case[key] is None else "VT_PRESENT"

    delay = case.get("crawl_delay")
    rate = case.get("request_rate") or {}
    if rate:
        check_fields(rate, ["requests", "seconds"], at + " request_rate")
    sitemaps = case.get("sitemaps")
    sm_name, sm_n = g.array(
        "vt_bytes", "sm", [g.bytes_value([(s.encode("utf-8"), 1)]) for s in sitemaps or []]
    )
    host = case.get("host")

    diags = []
    for d in case.get("diagnostics", []):
        check_fields(d, ["line", "kind", "flags"], at + " diagnostics")
        fl_name, fl_n = g.array(
            "char *const", "fl", [c_literal(f.encode()) for f in d.get("flags", [])]
        )
        diags.append("{%d, %s, %s, %d}" % (d["line"], c_literal(d["kind"].encode()), fl_name, fl_n))
    dg_name, dg_n = g.array("vt_diag", "dg", diags)

    return designated(
        [
            ("where", c_literal(at.encode("utf-8"))),
            ("rfc", flag(profile in ("rfc", "both"))),
            ("google", flag(profile in ("google", "both"))),
            ("has_parse_limit", flag("parse_limit" in options)),
            ("parse_limit", options.get("parse_limit", 0)),
            ("has_typos", flag("typos" in options)),
            ("typos", flag(options.get("typos", True))),
            ("body", body),
            ("select", select),
            ("tokens", tok_name),
            ("token_count", tok_n),
            ("expect_invalid_token", flag(error is not None)),
            ("checks", chk_name),
            ("check_count", chk_n),
            ("crawl_delay_state", state("crawl_delay")),
            ("crawl_delay", "%.17g" % float(delay or 0)),
            ("request_rate_state", state("request_rate")),
            ("rate_requests", rate.get("requests", 0)),
            ("rate_seconds", rate.get("seconds", 0)),
            ("check_sitemaps", flag(sitemaps is not None)),
            ("sitemaps", sm_name),
            ("sitemap_count", sm_n),
            ("host_state", state("host")),
            ("host", g.bytes_value([((host or "").encode("utf-8"), 1)])),
            ("check_diagnostics", flag("diagnostics" in case)),
            ("diagnostics", dg_name),
            ("diagnostic_count", dg_n),
        ]
        + preference_fields(g, case, at)
    )


ACCESS = {
    "follow_rules": "ROBOTSTXT_DISPOSITION_FOLLOW_RULES",
    "allow_all": "ROBOTSTXT_DISPOSITION_ALLOW_ALL",
    "disallow_all": "ROBOTSTXT_DISPOSITION_DISALLOW_ALL",
    "not_modified": "ROBOTSTXT_DISPOSITION_NOT_MODIFIED",
}
POLICY = {"careful": "ROBOTSTXT_ACCESS_CAREFUL", "strict": "ROBOTSTXT_ACCESS_STRICT_RFC"}


def status_of(value, at):
    if value is None:
        return 0  # no response: the C ABI's http_status 0
    if not isinstance(value, int) or not 1 <= value <= 65535:
        fail(at, f"bad status {value!r}")
    return value


def access_case(case, at):
    check_fields(case, ["name", "status", "redirects", "policy", "access", "retry_later", "note"], at)
    policy = POLICY.get(case.get("policy", "careful"))
    access = ACCESS.get(case["access"])
    if policy is None or access is None:
        fail(at, "unknown policy or access")
    retry = case.get("retry_later")
    return "{%s, %d, %d, %s, %s, %s, %s}" % (
        c_literal(at.encode("utf-8")),
        status_of(case["status"], at),
        case.get("redirects", 0),
        policy,
        access,
        flag(retry is not None),
        flag(bool(retry)),
    )


ANSWER = {
    "rules": "ROBOTSTXT_ANSWER_RULES",
    "allow_all": "ROBOTSTXT_ANSWER_ALLOW_ALL",
    "disallow_all": "ROBOTSTXT_ANSWER_DISALLOW_ALL",
}


def optional_text(g, value):
    """(state, vt_bytes) for a string-or-null field."""
    state = "VT_ABSENT" if value is None else "VT_PRESENT"
    return state, g.bytes_value([((value or "").encode("utf-8"), 1)])


def timeline(g, case, at):
    check_fields(case, ["name", "policy", "steps", "fetches", "note"], at)
    p = case.get("policy", {})
    check_fields(p, ["fresh_for_s", "retry_s", "unreachable_limit_s", "after_limit", "access"], at)
    after = {"keep": "ROBOTSTXT_AFTER_LIMIT_KEEP_COPY", "allow": "ROBOTSTXT_AFTER_LIMIT_ALLOW_ALL"}
    if "after_limit" in p and p["after_limit"] not in after:
        fail(at, f"after_limit {p['after_limit']!r}")
    if "access" in p and p["access"] not in POLICY:
        fail(at, f"access {p['access']!r}")

    steps = []
    fetches = 0
    for i, step in enumerate(case["steps"]):
        sat = f"{at} step {i}"
        now = ms(step["at_s"])
        if "fetch" in step:
            check_fields(step, ["at_s", "fetch", "note"], sat)
            f = step["fetch"]
            check_fields(
                f,
                ["status", "redirects", "body", "max_age_s", "retry_after_s", "etag", "last_modified"],
                sat,
            )
            fetches += 1
            body = g.bytes_value(parts_of(f.get("body", ""), sat))
            etag_state, etag = optional_text(g, f.get("etag"))
            lm_state, lm = optional_text(g, f.get("last_modified"))
            steps.append(
                "{%d, true, %d, %d, %s, %s, %d, %s, %d, %s, %s, %s, %s, "
                "VT_UNCHECKED, false, VT_UNCHECKED, 0, {NULL, 0}, NULL, 0, false, 0, false, "
                "VT_ABSENT, {NULL, 0}, VT_ABSENT, {NULL, 0}}"
                % (
                    now,
                    status_of(f["status"], sat),
                    f.get("redirects", 0),
                    body,
                    flag("max_age_s" in f),
                    ms(f.get("max_age_s", 0)),
                    flag("retry_after_s" in f),
                    ms(f.get("retry_after_s", 0)),
                    flag(etag_state == "VT_PRESENT"),
                    etag,
                    flag(lm_state == "VT_PRESENT"),
                    lm,
                )
            )
            continue
        check_fields(
            step,
            ["at_s", "due", "access", "checks", "token", "next_try_s", "validators", "note"],
            sat,
        )
        if "access" in step and step["access"] not in ANSWER:
            fail(sat, f"access {step['access']!r}")
        checks = []
        for check in step.get("checks", []):
            check_fields(check, ["url", "allowed"], sat)
            url = g.bytes_value([(check["url"].encode("utf-8"), 1)])
            checks.append("{%s, %s}" % (url, flag(check["allowed"])))
        fc_name, fc_n = g.array("vt_fcheck", "fc", checks)
        v = step.get("validators")
        if v is not None:
            check_fields(v, ["etag", "last_modified"], sat)
        etag_state, etag = optional_text(g, (v or {}).get("etag"))
        lm_state, lm = optional_text(g, (v or {}).get("last_modified"))
        steps.append(
            "{%d, false, 0, 0, {NULL, 0}, false, 0, false, 0, false, {NULL, 0}, false, {NULL, 0}, "
            "%s, %s, %s, %s, %s, %s, %d, %s, %d, %s, %s, %s, %s, %s}"
            % (
                now,
                "VT_PRESENT" if "due" in step else "VT_UNCHECKED",
                flag(step.get("due", False)),
                "VT_PRESENT" if "access" in step else "VT_UNCHECKED",
                ANSWER.get(step.get("access"), "0"),
                g.bytes_value([(step.get("token", "ExampleBot").encode("utf-8"), 1)]),
                fc_name,
                fc_n,
                flag("next_try_s" in step),
                ms(step.get("next_try_s", 0)),
                flag(v is not None),
                etag_state,
                etag,
                lm_state,
                lm,
            )
        )
    if "fetches" in case and case["fetches"] != fetches:
        fail(at, f"{fetches} fetch steps, but the case says {case['fetches']}")
    st_name, st_n = g.array("vt_step", "st", steps)
    return "{%s, %s, %d, %s, %d, %s, %d, %s, %s, %s, %s, %s, %d}" % (
        c_literal(at.encode("utf-8")),
        flag("fresh_for_s" in p),
        ms(p.get("fresh_for_s", 0)),
        flag("retry_s" in p),
        ms(p.get("retry_s", 0)),
        flag("unreachable_limit_s" in p),
        ms(p.get("unreachable_limit_s", 0)),
        flag("after_limit" in p),
        after.get(p.get("after_limit"), "0"),
        flag("access" in p),
        POLICY.get(p.get("access"), "0"),
        st_name,
        st_n,
    )


def designated(fields):
    """A C99 designated initialiser; fields left out are zero."""
    return "{" + ", ".join(f".{k} = {v}" for k, v in fields) + "}"


def fetch_value(g, f, at):
    """A `fetch` object (as in freshness.json) → a vt_fetch initialiser."""
    check_fields(
        f,
        ["status", "redirects", "body", "max_age_s", "retry_after_s", "etag", "last_modified"],
        at,
    )
    etag_state, etag = optional_text(g, f.get("etag"))
    lm_state, lm = optional_text(g, f.get("last_modified"))
    return designated(
        [
            ("http_status", status_of(f["status"], at)),
            ("redirects", f.get("redirects", 0)),
            ("body", g.bytes_value(parts_of(f.get("body", ""), at))),
            ("has_max_age", flag("max_age_s" in f)),
            ("max_age_ms", ms(f.get("max_age_s", 0))),
            ("has_retry_after", flag("retry_after_s" in f)),
            ("retry_after_ms", ms(f.get("retry_after_s", 0))),
            ("has_etag", flag(etag_state == "VT_PRESENT")),
            ("etag", etag),
            ("has_last_modified", flag(lm_state == "VT_PRESENT")),
            ("last_modified", lm),
        ]
    )


def policy_fields(g, p, at):
    """A `policy` object (as in freshness.json) → vt_policy fields."""
    check_fields(p, ["fresh_for_s", "retry_s", "unreachable_limit_s", "after_limit", "access"], at)
    after = {"keep": "ROBOTSTXT_AFTER_LIMIT_KEEP_COPY", "allow": "ROBOTSTXT_AFTER_LIMIT_ALLOW_ALL"}
    if "after_limit" in p and p["after_limit"] not in after:
        fail(at, f"after_limit {p['after_limit']!r}")
    if "access" in p and p["access"] not in POLICY:
        fail(at, f"access {p['access']!r}")
    return designated(
        [
            ("has_fresh_for", flag("fresh_for_s" in p)),
            ("fresh_for_ms", ms(p.get("fresh_for_s", 0))),
            ("has_retry", flag("retry_s" in p)),
            ("retry_ms", ms(p.get("retry_s", 0))),
            ("has_unreachable_limit", flag("unreachable_limit_s" in p)),
            ("unreachable_limit_ms", ms(p.get("unreachable_limit_s", 0))),
            ("has_after_limit", flag("after_limit" in p)),
            ("after_limit", after.get(p.get("after_limit"), "0")),
            ("has_access", flag("access" in p)),
            ("access", POLICY.get(p.get("access"), "0")),
        ]
    )


STATS = ["hits", "misses", "fetches", "stale", "evictions", "entries"]
EXPECT = {
    "ready": "ROBOTSTXT_LOOKUP_READY",
    "fetch": "ROBOTSTXT_LOOKUP_FETCH",
    "wait": "ROBOTSTXT_LOOKUP_WAIT",
}
WHEN = {"wait": "ROBOTSTXT_WHEN_FETCHING_WAIT", "disallow_all": "ROBOTSTXT_WHEN_FETCHING_DISALLOW_ALL"}


CAUSES = ["status", "no-response", "not-fetched", "unreachable-limit", "caller"]


def cause_fields(cause, at):
    """A lookup's `cause`: null (a parsed copy) or {"kind", "status"?}. The
    runner compares the kind with robotstxt_cause_name."""
    if cause is None:
        return [("cause_state", "VT_ABSENT")]
    check_fields(cause, ["kind", "status"], at + " cause")
    if cause.get("kind") not in CAUSES:
        fail(at, f"unknown cause {cause.get('kind')!r}")
    if ("status" in cause) != (cause["kind"] == "status"):
        fail(at, "a status cause, and only it, names its status")
    return [
        ("cause_state", "VT_PRESENT"),
        ("cause", c_literal(cause["kind"].encode())),
        ("cause_status", status_of(cause["status"], at) if "status" in cause else 0),
    ]


def cache_case(g, case, at):
    check_fields(case, ["name", "options", "steps", "note"], at)
    o = case.get("options", {})
    check_fields(o, ["capacity", "lease_s", "policy"], at + " options")
    leases = {}  # name → index into the runner's lease array
    steps = []
    for i, step in enumerate(case["steps"]):
        sat = f"{at} step {i}"
        if "stats" in step:
            check_fields(step, ["stats", "note"], sat)
            check_fields(step["stats"], STATS, sat + " stats")
            mask = sum(1 << k for k, name in enumerate(STATS) if name in step["stats"])
            values = ", ".join(str(step["stats"].get(name, 0)) for name in STATS)
            steps.append(designated([("op", "VT_CACHE_STATS"), ("stats_mask", mask), ("stats", "{%s}" % values)]))
            continue
        now = ms(step["at_s"])
        if "store" in step:
            # A lease is kept by name after its store or abandon: storing it
            # again must be refused by the library itself.
            check_fields(step, ["at_s", "store", "fetch", "error", "note"], sat)
            if step["store"] not in leases:
                fail(sat, f"unknown lease {step['store']!r}")
            if step.get("error", "invalid_lease") != "invalid_lease":
                fail(sat, f"unknown error {step['error']!r}")
            steps.append(
                designated(
                    [
                        ("op", "VT_CACHE_STORE"),
                        ("at_ms", now),
                        ("lease", leases[step["store"]]),
                        ("fetch", fetch_value(g, step["fetch"], sat)),
                        ("expect_invalid_lease", flag("error" in step)),
                    ]
                )
            )
            continue
        if "abandon" in step:
            check_fields(step, ["at_s", "abandon", "note"], sat)
            if step["abandon"] not in leases:
                fail(sat, f"unknown lease {step['abandon']!r}")
            steps.append(
                designated([("op", "VT_CACHE_ABANDON"), ("at_ms", now), ("lease", leases[step["abandon"]])])
            )
            continue
        check_fields(
            step,
            [
                "at_s", "lookup", "when_fetching", "expect", "stale", "answer", "checks", "token",
                "validators", "lease", "origin", "until_s", "error", "cause", "retry_at_s", "note",
            ],
            sat,
        )
        fields = [
            ("op", "VT_CACHE_LOOKUP"),
            ("at_ms", now),
            ("url", g.bytes_value([(step["lookup"].encode("utf-8"), 1)])),
            ("token", g.bytes_value([(step.get("token", "ExampleBot").encode("utf-8"), 1)])),
        ]
        when = WHEN.get(step.get("when_fetching", "wait"))
        if when is None:
            fail(sat, f"when_fetching {step['when_fetching']!r}")
        fields.append(("when_fetching", when))
        if "error" in step:
            if step["error"] != "invalid_url":
                fail(sat, f"unknown error {step['error']!r}")
            for key in (
                "expect", "stale", "answer", "checks", "lease", "origin", "until_s", "validators",
                "cause", "retry_at_s",
            ):
                if key in step:
                    fail(sat, f"{key} with an error")
            fields.append(("expect_invalid_url", "true"))
            steps.append(designated(fields))
            continue
        expect = EXPECT.get(step["expect"])
        if expect is None:
            fail(sat, f"expect {step['expect']!r}")
        fields.append(("expect", expect))
        if "stale" in step:
            fields += [("has_stale", "true"), ("stale", flag(step["stale"]))]
        if "answer" in step:
            if step["answer"] not in ANSWER:
                fail(sat, f"answer {step['answer']!r}")
            fields += [("has_answer", "true"), ("answer", ANSWER[step["answer"]])]
        checks = []
        for check in step.get("checks", []):
            check_fields(check, ["url", "allowed"], sat)
            url = g.bytes_value([(check["url"].encode("utf-8"), 1)])
            checks.append("{%s, %s}" % (url, flag(check["allowed"])))
        fc_name, fc_n = g.array("vt_fcheck", "fc", checks)
        fields += [("checks", fc_name), ("check_count", fc_n)]
        if step["expect"] == "fetch":
            name = step.get("lease")
            if name is None:
                fail(sat, "a fetch names its lease")
            if name in leases:
                fail(sat, f"lease {name!r} named twice")
            leases[name] = len(leases)
            fields.append(("lease", leases[name]))
        elif "lease" in step or "origin" in step or "validators" in step:
            fail(sat, "lease, origin and validators go with a fetch")
        if "origin" in step:
            fields += [("has_origin", "true"), ("origin", g.bytes_value([(step["origin"].encode("utf-8"), 1)]))]
        v = step.get("validators")
        if v is not None:
            check_fields(v, ["etag", "last_modified"], sat)
            etag_state, etag = optional_text(g, v.get("etag"))
            lm_state, lm = optional_text(g, v.get("last_modified"))
            fields += [
                ("check_validators", "true"),
                ("etag_state", etag_state),
                ("etag_want", etag),
                ("last_modified_state", lm_state),
                ("last_modified_want", lm),
            ]
        if "until_s" in step:
            fields += [("has_until", "true"), ("until_ms", ms(step["until_s"]))]
        if ("cause" in step or "retry_at_s" in step) and step["expect"] != "ready":
            fail(sat, "cause and retry_at_s go with a ready answer")
        if "cause" in step:
            fields += cause_fields(step["cause"], sat)
        if "retry_at_s" in step:
            at_s = step["retry_at_s"]
            fields += [
                ("retry_at_state", "VT_ABSENT" if at_s is None else "VT_PRESENT"),
                ("retry_at_ms", ms(at_s or 0)),
            ]
        steps.append(designated(fields))
    st_name, st_n = g.array("vt_cache_step", "cst", steps)
    return designated(
        [
            ("where", c_literal(at.encode("utf-8"))),
            ("has_capacity", flag("capacity" in o)),
            ("capacity", o.get("capacity", 0)),
            ("has_lease", flag("lease_s" in o)),
            ("lease_ms", ms(o.get("lease_s", 0))),
            ("policy", policy_fields(g, o.get("policy", {}), at + " policy")),
            ("lease_count", len(leases)),
            ("steps", st_name),
            ("step_count", st_n),
        ]
    )


# Each pacing step does one thing; these are the other fields it may carry.
PACE_OPS = {
    "reserve": ["ticket", "start_s", "error"],
    "confirm": ["expect", "until_s", "busy", "error"],
    "cancel": [],
    "in_flight": [],
    "set_rules": [],
    "set_delay": [],
    "record": [],
    "enabled": [],
    "gap_s": [],
}
CONFIRM = {
    "go": "ROBOTSTXT_CONFIRM_GO",
    "wait": "ROBOTSTXT_CONFIRM_WAIT",
    "disabled": "ROBOTSTXT_CONFIRM_DISABLED",
}


def pacing_case(g, case, at):
    check_fields(case, ["name", "options", "steps", "note"], at)
    o = case.get("options", {})
    check_fields(
        o,
        ["floor_s", "backoff_cap_s", "capacity", "max_in_flight", "in_flight_timeout_s"],
        at + " options",
    )
    tickets = {}  # name → index into the runner's ticket array
    steps = []
    text = lambda value: g.bytes_value([(value.encode("utf-8"), 1)])
    for i, step in enumerate(case["steps"]):
        sat = f"{at} step {i}"
        ops = [k for k in PACE_OPS if k in step]
        if len(ops) != 1:
            fail(sat, f"a step does one thing, not {ops!r}")
        op = ops[0]
        check_fields(step, ["at_s", op, "note"] + PACE_OPS[op], sat)
        fields = [("at_ms", ms(step["at_s"]))]
        if op == "reserve":
            fields += [("op", "VT_PACE_RESERVE"), ("host", text(step["reserve"]))]
            if "error" in step:
                error = {"invalid_host": "expect_invalid_host", "pacer_full": "expect_pacer_full"}
                if step["error"] not in error:
                    fail(sat, f"unknown error {step['error']!r}")
                if "start_s" in step or "ticket" in step:
                    fail(sat, "an error hands out no start and no ticket")
                fields.append((error[step["error"]], "true"))
            else:
                start = step["start_s"]
                fields += [("has_start", flag(start is not None)), ("start_ms", ms(start or 0))]
            if "ticket" in step:
                name = step["ticket"]
                if name in tickets:
                    fail(sat, f"ticket {name!r} named twice")
                tickets[name] = len(tickets)
                fields += [("keep_ticket", "true"), ("ticket", tickets[name])]
        elif op in ("confirm", "cancel"):
            name = step[op]
            if name not in tickets:
                fail(sat, f"unknown ticket {name!r}")
            fields += [("op", "VT_PACE_" + op.upper()), ("ticket", tickets[name])]
            if op == "confirm" and "error" in step:
                # `expect` may stay beside the error: what a spent ticket
                # would have been asked.
                if step["error"] != "invalid_ticket" or "until_s" in step or "busy" in step:
                    fail(sat, f"unknown error {step['error']!r}")
                fields.append(("expect_invalid_ticket", "true"))
            elif op == "confirm":
                expect = CONFIRM.get(step["expect"])
                if expect is None:
                    fail(sat, f"expect {step['expect']!r}")
                if ("until_s" in step or "busy" in step) and step["expect"] != "wait":
                    fail(sat, "until_s and busy go with a wait")
                fields += [
                    ("expect", expect),
                    ("has_until", flag("until_s" in step)),
                    ("until_ms", ms(step.get("until_s", 0))),
                    ("has_busy", flag("busy" in step)),
                    ("busy", flag(step.get("busy", False))),
                ]
        elif op == "in_flight":
            f = step["in_flight"]
            check_fields(f, ["host", "count"], sat)
            fields += [
                ("op", "VT_PACE_IN_FLIGHT"),
                ("host", text(f["host"])),
                ("count", int(f["count"])),
            ]
        elif op == "set_rules":
            r = step["set_rules"]
            check_fields(r, ["host", "body", "token"], sat)
            fields += [
                ("op", "VT_PACE_SET_RULES"),
                ("host", text(r["host"])),
                ("body", g.bytes_value(parts_of(r["body"], sat))),
                ("token", text(r["token"])),
            ]
        elif op == "set_delay":
            d = step["set_delay"]
            check_fields(d, ["host", "crawl_delay_s", "request_rate"], sat)
            delay = d.get("crawl_delay_s")
            rate = d.get("request_rate")
            if rate is not None:
                check_fields(rate, ["requests", "seconds"], sat)
            fields += [
                ("op", "VT_PACE_SET_DELAY"),
                ("host", text(d["host"])),
                ("has_crawl_delay", flag(delay is not None)),
                ("crawl_delay_s", "%.17g" % float(delay or 0)),
                ("has_rate", flag(rate is not None)),
                ("rate_requests", (rate or {}).get("requests", 0)),
                ("rate_seconds", (rate or {}).get("seconds", 0)),
            ]
        elif op == "record":
            r = step["record"]
            check_fields(r, ["host", "status", "retry_after_s"], sat)
            fields += [
                ("op", "VT_PACE_RECORD"),
                ("host", text(r["host"])),
                ("http_status", status_of(r["status"], sat)),
                ("has_retry_after", flag("retry_after_s" in r)),
                ("retry_after_ms", ms(r.get("retry_after_s", 0))),
            ]
        elif op == "enabled":
            e = step["enabled"]
            check_fields(e, ["host", "on"], sat)
            fields += [("op", "VT_PACE_ENABLED"), ("host", text(e["host"])), ("on", flag(e["on"]))]
        else:
            gap = step["gap_s"]
            check_fields(gap, ["host", "gap"], sat)
            fields += [("op", "VT_PACE_GAP"), ("host", text(gap["host"])), ("gap_ms", ms(gap["gap"]))]
        steps.append(designated(fields))
    st_name, st_n = g.array("vt_pace_step", "pst", steps)
    return designated(
        [
            ("where", c_literal(at.encode("utf-8"))),
            ("has_floor", flag("floor_s" in o)),
            ("floor_ms", ms(o.get("floor_s", 0))),
            ("has_backoff_cap", flag("backoff_cap_s" in o)),
            ("backoff_cap_ms", ms(o.get("backoff_cap_s", 0))),
            ("has_capacity", flag("capacity" in o)),
            ("capacity", o.get("capacity", 0)),
            ("has_max_in_flight", flag("max_in_flight" in o)),
            ("max_in_flight", o.get("max_in_flight", 0)),
            ("has_in_flight_timeout", flag("in_flight_timeout_s" in o)),
            ("in_flight_timeout_ms", ms(o.get("in_flight_timeout_s", 0))),
            ("ticket_count", len(tickets)),
            ("steps", st_name),
            ("step_count", st_n),
        ]
    )


def origin_case(g, case, at):
    check_fields(case, ["name", "url", "origin", "error", "note"], at)
    if ("origin" in case) == ("error" in case):
        fail(at, "a case has exactly one of origin and error")
    if case.get("error", "invalid_url") != "invalid_url":
        fail(at, f"unknown error {case['error']!r}")
    return designated(
        [
            ("where", c_literal(at.encode("utf-8"))),
            ("url", g.bytes_value([(case["url"].encode("utf-8"), 1)])),
            ("expect_invalid_url", flag("error" in case)),
            ("origin", g.bytes_value([(case.get("origin", "").encode("utf-8"), 1)])),
        ]
    )


def http_header(g, value, at):
    """A header value or null → a vt_http_header initialiser."""
    if value is None:
        return "{false, {NULL, 0}}"
    return "{true, %s}" % g.bytes_value(parts_of(value, at))


HTTP_IGNORED = {
    "Retry-After": "ROBOTSTXT_HTTP_IGNORED_RETRY_AFTER",
    "Cache-Control": "ROBOTSTXT_HTTP_IGNORED_CACHE_CONTROL",
}


def http_case(g, case, at):
    """http.json: a header value (`header`) or a whole `response`."""
    fields = [("where", c_literal(at.encode("utf-8")))]
    if "response" in case:
        check_fields(case, ["name", "note", "response", "now_s", "min_max_age_s", "expect"], at)
        r, e = case["response"], case["expect"]
        check_fields(
            r, ["status", "redirects", "retry_after", "cache_control", "etag", "last_modified"], at
        )
        check_fields(e, ["max_age_s", "retry_after_s", "etag", "last_modified", "ignored"], at)
        ignored = [HTTP_IGNORED[name] for name in e["ignored"]] or ["0"]
        fields += [
            ("kind", "VT_HTTP_RESPONSE"),
            ("now_ms", f"{ms(case['now_s'])}u"),
            ("status", str(r["status"] or 0)),
            ("redirects", str(r["redirects"])),
            ("retry_after", http_header(g, r["retry_after"], at)),
            ("cache_control", http_header(g, r["cache_control"], at)),
            ("etag", http_header(g, r["etag"], at)),
            ("last_modified", http_header(g, r["last_modified"], at)),
            ("min_max_age_ms", f"{ms(case['min_max_age_s'])}u"),
            ("has_max_age", flag(e["max_age_s"] is not None)),
            ("max_age_ms", f"{ms(e['max_age_s'] or 0)}u"),
            ("has_retry_after", flag(e["retry_after_s"] is not None)),
            ("retry_after_ms", f"{ms(e['retry_after_s'] or 0)}u"),
            ("want_etag", http_header(g, e["etag"], at)),
            ("want_last_modified", http_header(g, e["last_modified"], at)),
            ("ignored", " | ".join(ignored)),
        ]
        return designated(fields)
    header = case.get("header")
    if header == "retry-after":
        check_fields(case, ["name", "note", "header", "value", "now_s", "wait_s", "error"], at)
        fields += [("kind", "VT_HTTP_RETRY_AFTER"), ("now_ms", f"{ms(case['now_s'])}u")]
        answer = "wait_s"
    elif header == "cache-control":
        check_fields(case, ["name", "note", "header", "value", "max_age_s", "error"], at)
        fields.append(("kind", "VT_HTTP_CACHE_CONTROL"))
        answer = "max_age_s"
    else:
        fail(at, f"unknown header {header!r}")
    if ("error" in case) == (answer in case):
        fail(at, f"a case has exactly one of {answer} and error")
    want = case.get(answer)
    fields.append(("value", g.bytes_value(parts_of(case["value"], at))))
    if "error" in case:
        fields.append(("error", c_literal(case["error"].encode("utf-8"))))
    elif want is not None:
        fields += [("has_ms", "true"), ("ms", f"{ms(want)}u")]
    return designated(fields)


def main():
    vector_dir, out_path = sys.argv[1], sys.argv[2]
    files = sorted(f for f in os.listdir(vector_dir) if f.endswith(".json"))
    if not files:
        fail(vector_dir, "no vector files")
    g = Gen()
    parse_cases, access_cases, timelines, cache_cases, pacing_cases = [], [], [], [], []
    origin_cases, http_cases = [], []
    skipped = [f for f in files if f in NOT_IN_C_ABI_YET]
    files = [f for f in files if f not in NOT_IN_C_ABI_YET]
    for file in files:
        with open(os.path.join(vector_dir, file), "rb") as fh:
            doc = json.load(fh)
        check_fields(doc, ["spec", "cases", "note"], file)
        seen = set()
        for case in doc["cases"]:
            at = f"{file}: {case['name']}"
            if case["name"] in seen:
                fail(at, "duplicate name")
            seen.add(case["name"])
            if file == "access.json":
                access_cases.append(access_case(case, at))
            elif file == "freshness.json":
                timelines.append(timeline(g, case, at))
            elif file == "cache.json":
                cache_cases.append(cache_case(g, case, at))
            elif file == "pacing.json":
                pacing_cases.append(pacing_case(g, case, at))
            elif file == "origins.json":
                origin_cases.append(origin_case(g, case, at))
            elif file == "http.json":
                http_cases.append(http_case(g, case, at))
            else:
                parse_cases.append(parse_case(g, case, at))
    pc = g.array("vt_parse_case", "parse_cases_", parse_cases)
    ac = g.array("vt_access_case", "access_cases_", access_cases)
    tl = g.array("vt_timeline", "timelines_", timelines)
    cc = g.array("vt_cache_case", "cache_cases_", cache_cases)
    pc2 = g.array("vt_pacing", "pacings_", pacing_cases)
    oc = g.array("vt_origin_case", "origin_cases_", origin_cases)
    hc = g.array("vt_http_case", "http_cases_", http_cases)
    with open(out_path + ".tmp", "w") as out:
        out.write("/* Generated by tests/c/gen_vectors.py from the JSON files of tests/vectors/. */\n")
        out.write('#include "vector_types.h"\n\n')
        out.write("\n".join(g.defs))
        out.write("\n\nstatic const vt_parse_case *const vt_parse_cases = %s;\n" % pc[0])
        out.write("static const size_t vt_parse_case_count = %d;\n" % pc[1])
        out.write("static const vt_access_case *const vt_access_cases = %s;\n" % ac[0])
        out.write("static const size_t vt_access_case_count = %d;\n" % ac[1])
        out.write("static const vt_timeline *const vt_timelines = %s;\n" % tl[0])
        out.write("static const size_t vt_timeline_count = %d;\n" % tl[1])
        out.write("static const vt_cache_case *const vt_cache_cases = %s;\n" % cc[0])
        out.write("static const size_t vt_cache_case_count = %d;\n" % cc[1])
        out.write("static const vt_pacing *const vt_pacings = %s;\n" % pc2[0])
        out.write("static const size_t vt_pacing_count = %d;\n" % pc2[1])
        out.write("static const vt_origin_case *const vt_origin_cases = %s;\n" % oc[0])
        out.write("static const size_t vt_origin_case_count = %d;\n" % oc[1])
        out.write("static const vt_http_case *const vt_http_cases = %s;\n" % hc[0])
        out.write("static const size_t vt_http_case_count = %d;\n" % hc[1])
        out.write("static const size_t vt_file_count = %d;\n" % len(files))
        out.write('static const char vt_skipped[] = "%s";\n' % " ".join(skipped))
    os.replace(out_path + ".tmp", out_path)


if __name__ == "__main__":
    main()
