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

# Vector files for handles the C ABI does not have yet (the cache and pacer
# come with their own issue). Named here so that they are skipped out loud,
# and any other new file still fails.
NOT_IN_C_ABI_YET = {"cache.json", "pacing.json"}


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
    "note",
]


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
        for key in ("checks", "crawl_delay", "request_rate", "error"):
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

    return (
        "{%s, %s, %s, %s, %d, %s, %s, %s, %s, %s, %d, %s, %s, %d, %s, %.17g, %s, %d, %d, %s, %s, %d, %s, %s, %s, %s, %d}"
        % (
            c_literal(at.encode("utf-8")),
            flag(profile in ("rfc", "both")),
            flag(profile in ("google", "both")),
            flag("parse_limit" in options),
            options.get("parse_limit", 0),
            flag("typos" in options),
            flag(options.get("typos", True)),
            body,
            select,
            tok_name,
            tok_n,
            flag(error is not None),
            chk_name,
            chk_n,
            state("crawl_delay"),
            float(delay or 0),
            state("request_rate"),
            rate.get("requests", 0),
            rate.get("seconds", 0),
            flag(sitemaps is not None),
            sm_name,
            sm_n,
            state("host"),
            g.bytes_value([((host or "").encode("utf-8"), 1)]),
            flag("diagnostics" in case),
            dg_name,
            dg_n,
        )
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


def main():
    vector_dir, out_path = sys.argv[1], sys.argv[2]
    files = sorted(f for f in os.listdir(vector_dir) if f.endswith(".json"))
    if not files:
        fail(vector_dir, "no vector files")
    g = Gen()
    parse_cases, access_cases, timelines = [], [], []
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
            else:
                parse_cases.append(parse_case(g, case, at))
    pc = g.array("vt_parse_case", "parse_cases_", parse_cases)
    ac = g.array("vt_access_case", "access_cases_", access_cases)
    tl = g.array("vt_timeline", "timelines_", timelines)
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
        out.write("static const size_t vt_file_count = %d;\n" % len(files))
        out.write('static const char vt_skipped[] = "%s";\n' % " ".join(skipped))
    os.replace(out_path + ".tmp", out_path)


if __name__ == "__main__":
    main()
