"""Behaviour §11, the HTTP facts, through the Python package: every case of
tests/vectors/http.json (format: tests/vectors/README.md), and an asctime
Retry-After read as GMT (as every HTTP-date is) in another time zone."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from typing import Any, Dict, List, Optional, Union

import pytest

from conftest import VECTORS, needs
from robotstxt._robotstxt import http_read
from robotstxt.aio import max_age_ms, retry_after_ms

Case = Dict[str, Any]


def load() -> List[Case]:
    doc = json.loads((VECTORS / "http.json").read_text("utf-8"))
    check_fields(doc, {"spec", "note", "cases"}, "http.json")
    cases: List[Case] = doc["cases"]
    return cases


def check_fields(obj: Dict[str, Any], known: set[str], at: str) -> None:
    unknown = set(obj) - known
    assert not unknown, f"{at}: unknown fields {sorted(unknown)}"


def value_of(value: Any) -> Union[str, bytes, None]:
    """A string, or parts {"text"} / {"hex"} as bytes."""
    if value is None or isinstance(value, str):
        return value
    return b"".join(bytes.fromhex(p["hex"]) if "hex" in p else p["text"].encode("utf-8") for p in value)


def ms(seconds: Optional[float]) -> Optional[int]:
    return None if seconds is None else round(seconds * 1000)


def headers_of(ignored: List[str]) -> List[str]:
    return [reason.split(" ignored: ")[0] for reason in ignored]


def test_the_vectors_are_there() -> None:
    cases = load()
    assert len(cases) >= 80
    names = [c["name"] for c in cases]
    assert len(names) == len(set(names))


@pytest.mark.parametrize("case", load(), ids=lambda c: str(c["name"]))
def test_vector(case: Case) -> None:
    at = f"http.json: {case['name']}"
    if "response" in case:
        check_fields(case, {"name", "note", "response", "now_s", "min_max_age_s", "expect"}, at)
        r, e = case["response"], case["expect"]
        check_fields(r, {"status", "redirects", "retry_after", "cache_control", "etag", "last_modified"}, at)
        check_fields(e, {"max_age_s", "retry_after_s", "etag", "last_modified", "ignored"}, at)
        max_age, retry_after, etag, last_modified, ignored = http_read(
            value_of(r["retry_after"]),
            value_of(r["cache_control"]),
            value_of(r["etag"]),
            value_of(r["last_modified"]),
            now_ms=ms(case["now_s"]),
            min_max_age_ms=ms(case["min_max_age_s"]),
        )
        assert (max_age, retry_after) == (ms(e["max_age_s"]), ms(e["retry_after_s"])), at
        assert (etag, last_modified) == (e["etag"], e["last_modified"]), at
        assert headers_of(ignored) == e["ignored"], at
        return
    value = value_of(case["value"])
    if case["header"] == "retry-after":
        check_fields(case, {"name", "note", "header", "value", "now_s", "wait_s", "error"}, at)
        now = ms(case["now_s"])
        _, got, _, _, ignored = http_read(retry_after=value, now_ms=now)
        assert retry_after_ms(value, now) == got, at
        want = ms(case.get("wait_s"))
    elif case["header"] == "cache-control":
        check_fields(case, {"name", "note", "header", "value", "max_age_s", "error"}, at)
        got, _, _, _, ignored = http_read(cache_control=value)
        assert max_age_ms(value) == got, at
        want = ms(case.get("max_age_s"))
    else:
        raise AssertionError(f"{at}: unknown header {case['header']!r}")
    if "error" in case:
        assert got is None, at
        assert len(ignored) == 1 and f" ignored: {case['error']}: " in ignored[0], (at, ignored)
    else:
        assert (got, ignored) == (want, []), at


def test_validators_keep_their_type_and_bad_arguments_raise() -> None:
    assert http_read(etag=b' "v1" ', last_modified="  x ")[2:4] == (b'"v1"', "x")
    assert http_read(etag=bytearray(b"e"))[2] == b"e"
    assert http_read() == (None, None, None, None, [])
    assert retry_after_ms(None) is None and max_age_ms(None) is None
    with pytest.raises(TypeError):
        http_read(retry_after=120)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        http_read(retry_after="120", now_ms=-1)


# The child reads an asctime Retry-After (which names no zone: GMT, RFC
# 9110 §5.6.7) through retry_after_ms and through the fetchers' outcome,
# with its local time New York's; it prints what it got.
CHILD = """
import json, time
from robotstxt.aio import _outcome, retry_after_ms
now = time.time()
t = time.gmtime(now + 120)
asctime = time.strftime("%a %b ", t) + f"{t.tm_mday:2d}" + time.strftime(" %H:%M:%S %Y", t)
outcome = _outcome(503, 0, b"", {"retry-after": asctime}.get, 60_000)
print(json.dumps({
    "offset": time.localtime(784111777).tm_gmtoff,
    "fixed": retry_after_ms("Sun Nov  6 08:51:37 1994", now_ms=784111777000),
    "outcome": outcome.retry_after_ms,
}))
"""


@needs("spawn")
def test_an_asctime_retry_after_is_gmt_in_new_york_too() -> None:
    env = dict(os.environ, TZ="America/New_York")
    out = subprocess.run([sys.executable, "-c", CHILD], env=env, capture_output=True, text=True, check=True)
    got = json.loads(out.stdout)
    if got["offset"] == 0:
        pytest.skip("no time zone data for America/New_York here: the child ran on GMT and proves nothing")
    assert got["offset"] == -5 * 3600, "the child runs on New York time (EST in November)"
    assert got["fixed"] == 120_000, "retry_after_ms: 2 minutes, not 5 hours more"
    assert 115_000 < got["outcome"] <= 120_000, f"the fetchers' outcome: {got['outcome']} ms, about 2 minutes"
