"""Every case of tests/vectors/*.json through the Python API (format:
tests/vectors/README.md; tests/vectors.rs is the reference runner). A field
the runner does not know fails the case, so a typo cannot hide one."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any, Dict, Iterator, List, Optional, Tuple

import pytest

import robotstxt
from conftest import VECTORS

Case = Dict[str, Any]


def vector_files() -> List[Path]:
    # http.json (behaviour §11) has its own runner: test_http.py.
    return sorted(p for p in VECTORS.glob("*.json") if p.name != "http.json")


def cases() -> Iterator[Any]:
    for path in vector_files():
        doc = json.loads(path.read_text("utf-8"))
        check_fields(doc, {"spec", "cases", "note"}, path.name)
        for case in doc["cases"]:
            yield pytest.param(path.name, case, id=f"{path.stem}: {case['name']}")


def test_every_vector_file_is_run() -> None:
    names = {p.name for p in vector_files()}
    assert len(names) >= 12, names
    assert {"origins.json", "pacing.json", "cache.json"} <= names
    assert sum(len(json.loads(p.read_text("utf-8"))["cases"]) for p in vector_files()) >= 300


def test_case_names_are_unique() -> None:
    for path in vector_files():
        names = [c["name"] for c in json.loads(path.read_text("utf-8"))["cases"]]
        assert len(names) == len(set(names)), path.name


def check_fields(obj: Dict[str, Any], known: Any, at: str) -> None:
    for key in obj:
        assert key in known, f"{at}: unknown field {key!r}"


def bytes_of(value: Any) -> bytes:
    """A body or URL: a string, or parts of text, hex and repeats."""
    if isinstance(value, str):
        return value.encode("utf-8")
    out = bytearray()
    for part in value:
        if "text" in part:
            out += part["text"].encode("utf-8")
        elif "hex" in part:
            out += bytes.fromhex(part["hex"])
        elif "repeat" in part:
            out += part["repeat"].encode("utf-8") * part["times"]
        else:
            raise AssertionError(f"unknown body part {part!r}")
    return bytes(out)


def ms(seconds: float) -> int:
    return round(seconds * 1000)


def profiles(case: Case) -> List[str]:
    return {"rfc": ["rfc"], "google": ["google"], "both": ["rfc", "google"]}[case.get("profile", "both")]


def parse_options(case: Case, profile: str) -> Dict[str, Any]:
    options: Dict[str, Any] = {"profile": profile}
    o = case.get("options", {})
    check_fields(o, {"parse_limit", "typos"}, "options")
    if "parse_limit" in o:
        options["parse_limit"] = o["parse_limit"]
    if "typos" in o:
        options["typos"] = o["typos"]
    return options


def select(robots: robotstxt.Robots, case: Case) -> robotstxt.Rules:
    if "token" in case:
        return robots.rules_for(case["token"])
    mode = case["mode"]
    if mode == "any":
        return robots.rules_for_any(case["tokens"])
    assert mode == "strictest", mode
    return robots.rules_for_strictest(case["tokens"])


def url_of(check: Dict[str, Any]) -> bytes:
    assert ("url" in check) != ("url_parts" in check), "a check needs exactly one of url and url_parts"
    return bytes_of(check["url"] if "url" in check else check["url_parts"])


def run_checks(rules: robotstxt.Rules, checks: List[Dict[str, Any]], at: str) -> None:
    for check in checks:
        check_fields(check, {"url", "url_parts", "allowed", "line", "kind", "pattern"}, at)
        url = url_of(check)
        shown = url[:80]
        d = rules.decide(url)
        assert rules.can_fetch(url) == d.allowed, f"{at} {shown!r}: can_fetch vs decide"
        assert d.allowed == check["allowed"], f"{at} {shown!r}: allowed"
        if "line" in check:
            assert d.line == check["line"], f"{at} {shown!r}: line"
        if "kind" in check:
            assert d.kind == check["kind"], f"{at} {shown!r}: kind"
        if "pattern" in check:
            assert d.pattern == check["pattern"], f"{at} {shown!r}: pattern"
        # The same answers as str (when the bytes are UTF-8) and in a batch.
        try:
            text = url.decode("utf-8")
        except UnicodeDecodeError:
            text = None
        if text is not None:
            assert rules.decide(text) == d, f"{at} {shown!r}: str vs bytes"
        assert rules.can_fetch_many([url]) == [d.allowed]
        assert rules.decide_many([url]) == [d]


def labels_json(labels: Dict[str, robotstxt.LabelPreference]) -> Dict[str, Any]:
    return {label: {"value": p.value, "lines": list(p.lines)} for label, p in labels.items()}


def run_preference_checks(rules: robotstxt.Rules, case: Case, at: str) -> None:
    """The usage-preference fields of a parse case (behaviour §10)."""
    for check in case.get("preferences", []):
        check_fields(check, {"url", "crawlable", "line", "labels", "statements"}, at)
        url = check["url"]
        got = rules.preferences(url)
        assert got.decision == rules.decide(url), f"{at} {url}: decision"
        # get() answers as labels does, and unknown for a label not listed.
        for label, p in got.labels.items():
            assert got.get(label) == p.value, f"{at} {url}: get({label!r})"
        assert got.get("no-such-label") is None
        answer = {
            "url": url,
            "crawlable": got.crawlable,
            "line": got.decision.line,
            "labels": labels_json(got.labels),
            "statements": [s.line for s in got.statements],
        }
        assert answer == check, f"{at} {url}: preferences"
    if "content_signal" in case:
        signal = rules.content_signal()
        got_signal = None if signal is None else {"signals": signal.signals, "lines": list(signal.lines)}
        assert got_signal == case["content_signal"], f"{at}: content_signal"
    if "other_records_for" in case:
        assert [r.line for r in rules.other_records] == case["other_records_for"], f"{at}: other_records_for"
    for check in case.get("header", []):
        check_fields(check, {"url", "field", "labels", "error"}, at)
        url, field = check["url"], check["field"]
        if "error" in check:
            with pytest.raises(robotstxt.InvalidStatementError) as raised:
                rules.preferences(url, header=field)
            assert raised.value.reason == check["error"], f"{at} {field!r}"
            assert isinstance(raised.value, ValueError)
        else:
            got = rules.preferences(url, header=field)
            assert labels_json(got.labels) == check["labels"], f"{at} {field!r}"
            assert rules.preferences(url, header=field.encode()) == got, f"{at} {field!r}: str vs bytes"


def run_parse_case(case: Case, at: str) -> None:
    check_fields(
        case,
        {
            "name", "profile", "options", "body", "token", "tokens", "mode", "checks", "error",
            "crawl_delay", "request_rate", "sitemaps", "host", "diagnostics", "preferences",
            "content_signal", "other_records", "other_records_for", "header", "note",
        },
        at,
    )
    body = bytes_of(case["body"])
    for profile in profiles(case):
        here = f"{at} [{profile}]"
        robots = robotstxt.Robots.parse(body, **parse_options(case, profile))
        if "sitemaps" in case:
            assert robots.sitemaps == case["sitemaps"], f"{here}: sitemaps"
        if "host" in case:
            assert robots.host == case["host"], f"{here}: host"
        if "diagnostics" in case:
            got = [{"line": d.line, "kind": d.kind, "flags": list(d.flags)} for d in robots.diagnostics]
            assert got == case["diagnostics"], f"{here}: diagnostics"
        if "other_records" in case:
            records = [
                {"key": r.key, "key_lower": r.key_lower, "value": r.value, "line": r.line, "group": r.group}
                for r in robots.other_records
            ]
            assert records == case["other_records"], f"{here}: other_records"
        selects = "token" in case or "tokens" in case
        if "error" in case:
            assert case["error"] == "invalid_token", here
            with pytest.raises(robotstxt.InvalidTokenError) as raised:
                select(robots, case)
            assert isinstance(raised.value, ValueError)
            if "token" in case:
                assert raised.value.token == case["token"], here
                if case["token"].isascii() and case["token"].isprintable():
                    assert json.dumps(case["token"]) in str(raised.value), here
            continue
        if not selects:
            for key in (
                "checks", "crawl_delay", "request_rate", "preferences", "content_signal", "other_records_for",
                "header",
            ):
                assert key not in case, f"{here}: {key} needs a token"
            continue
        rules = select(robots, case)
        if "checks" in case:
            run_checks(rules, case["checks"], here)
        run_preference_checks(rules, case, here)
        if "crawl_delay" in case:
            assert rules.crawl_delay == case["crawl_delay"], f"{here}: crawl_delay"
        if "request_rate" in case:
            rate = rules.request_rate
            got = None if rate is None else {"requests": rate.requests, "seconds": rate.seconds}
            assert got == case["request_rate"], f"{here}: request_rate"


def run_access_case(case: Case, at: str) -> None:
    check_fields(case, {"name", "status", "redirects", "policy", "access", "retry_later", "note"}, at)
    got = robotstxt.classify(case["status"], case.get("redirects", 0), policy=case.get("policy", "careful"))
    assert got.kind == case["access"].replace("_", "-"), f"{at}: access"
    if "retry_later" in case:
        assert got.retry_later == case["retry_later"], f"{at}: retry_later"
    # access.from_outcome agrees, and parses a 2xx.
    outcome = robotstxt.access.from_outcome(
        case["status"], b"User-agent: *\nDisallow: /x\n", redirects=case.get("redirects", 0),
        policy=case.get("policy", "careful"),
    )
    assert outcome.kind == got.kind
    assert (outcome.robots is not None) == (got.kind == "follow-rules")


def freshness_options(policy: Optional[Dict[str, Any]], at: str) -> Dict[str, Any]:
    options: Dict[str, Any] = {}
    if policy is None:
        return options
    check_fields(policy, {"fresh_for_s", "retry_s", "unreachable_limit_s", "after_limit", "access"}, at)
    for key, name in (("fresh_for_s", "fresh_for_ms"), ("retry_s", "retry_ms"), ("unreachable_limit_s", "unreachable_limit_ms")):
        if key in policy:
            options[name] = ms(policy[key])
    if "after_limit" in policy:
        options["after_limit"] = policy["after_limit"]
    if "access" in policy:
        options["policy"] = policy["access"]
    return options


def fetch_args(fetch: Dict[str, Any], at: str) -> Tuple[Optional[int], Dict[str, Any]]:
    check_fields(fetch, {"status", "redirects", "body", "max_age_s", "retry_after_s", "etag", "last_modified"}, at)
    kwargs: Dict[str, Any] = {
        "redirects": fetch.get("redirects", 0),
        "etag": fetch.get("etag"),
        "last_modified": fetch.get("last_modified"),
    }
    if "body" in fetch:
        kwargs["body"] = bytes_of(fetch["body"])
    if "max_age_s" in fetch:
        kwargs["max_age_ms"] = ms(fetch["max_age_s"])
    if "retry_after_s" in fetch:
        kwargs["retry_after_ms"] = ms(fetch["retry_after_s"])
    return fetch["status"], kwargs


def check_validators(want: Dict[str, Any], etag: Optional[str], last_modified: Optional[str], at: str) -> None:
    assert etag == want["etag"], f"{at}: etag"
    assert last_modified == want["last_modified"], f"{at}: last_modified"


ANSWER_NAMES = {"rules": "rules", "allow_all": "allow-all", "disallow_all": "disallow-all"}


def run_timeline(case: Case, at: str) -> None:
    check_fields(case, {"name", "policy", "steps", "fetches", "note"}, at)
    entry = robotstxt.Entry(**freshness_options(case.get("policy"), at))
    fetches = 0
    for i, step in enumerate(case["steps"]):
        here = f"{at} step {i}"
        now = ms(step["at_s"])
        if "fetch" in step:
            check_fields(step, {"at_s", "fetch", "note"}, here)
            status, kwargs = fetch_args(step["fetch"], here)
            entry.record(status, now=now, **kwargs)
            fetches += 1
            continue
        check_fields(step, {"at_s", "due", "access", "checks", "token", "next_try_s", "validators", "note"}, here)
        if "due" in step:
            assert entry.is_due(now=now) == step["due"], f"{here}: due"
        if "next_try_s" in step:
            assert entry.due_at == ms(step["next_try_s"]), f"{here}: next_try"
        if "validators" in step:
            check_validators(step["validators"], entry.etag, entry.last_modified, here)
        answer = entry.answer(now=now)
        if "access" in step:
            assert answer.kind == ANSWER_NAMES[step["access"]], f"{here}: access"
        if "checks" in step:
            rules = answer.rules_for(step.get("token", "ExampleBot"))
            for check in step["checks"]:
                check_fields(check, {"url", "allowed"}, here)
                assert rules.can_fetch(check["url"]) == check["allowed"], f"{here}: {check['url']}"
    if "fetches" in case:
        assert fetches == case["fetches"], f"{at}: fetch steps"


def cause_json(answer: robotstxt.Answer) -> Optional[Dict[str, Any]]:
    blanket = answer.blanket
    if blanket is None:
        return None
    if blanket.cause == "status":
        return {"kind": "status", "status": blanket.status}
    return {"kind": blanket.cause}


def cache_options(case: Case, at: str) -> Dict[str, Any]:
    """A cache case's options, as the keywords of Cache (and of SharedCache)."""
    check_fields(case, {"name", "options", "steps", "note"}, at)
    options: Dict[str, Any] = {}
    if "options" in case:
        o = case["options"]
        check_fields(o, {"capacity", "lease_s", "policy"}, at)
        if "capacity" in o:
            options["capacity"] = o["capacity"]
        if "lease_s" in o:
            options["lease_ms"] = ms(o["lease_s"])
        options.update(freshness_options(o.get("policy"), at))
    return options


class LocalCache:
    """A robotstxt.Cache behind robotstxt.fleet.SharedCache's surface (its
    calls awaited), which the cache runner drives."""

    def __init__(self, **options: Any) -> None:
        self.cache = robotstxt.Cache(**options)

    async def lookup(self, url: Any, *, now: float, when_fetching: Any) -> robotstxt.Lookup:
        return self.cache.lookup(url, now=now, when_fetching=when_fetching)

    async def store(self, lease: Any, status: Optional[int], *, now: float, **outcome: Any) -> robotstxt.Access:
        return self.cache.store(lease, status, now=now, **outcome)

    async def abandon(self, lease: Any) -> None:
        self.cache.abandon(lease)

    @property
    def stats(self) -> robotstxt.CacheStats:
        return self.cache.stats


def run_cache_case(case: Case, at: str) -> None:
    asyncio.run(run_cache_steps(case, at, LocalCache(**cache_options(case, at))))


async def run_cache_steps(
    case: Case,
    at: str,
    cache: Any,
    *,
    epoch: int = 0,
    steps: Optional[Dict[int, Dict[str, Any]]] = None,
) -> None:
    """Runs a cache case's steps through ``cache`` (a LocalCache or a
    SharedCache), each at ``epoch`` + at_s; ``steps`` replaces the steps of those indexes (the caller says
    why)."""
    leases: Dict[str, Any] = {}
    ended: Dict[str, Any] = {}
    for i, step in enumerate(case["steps"]):
        here = f"{at} step {i}"
        step = (steps or {}).get(i, step)
        if "stats" in step:
            check_fields(step, {"stats", "note"}, here)
            stats = cache.stats
            for key, want in step["stats"].items():
                assert getattr(stats, key) == want, f"{here}: stats.{key}"
            continue
        now = epoch + ms(step["at_s"])
        if "store" in step:
            check_fields(step, {"at_s", "store", "fetch", "error", "note"}, here)
            status, kwargs = fetch_args(step["fetch"], here)
            name = step["store"]
            # A lease is stored once: storing one already ended is refused.
            lease = leases.pop(name, None) or ended[name]
            ended[name] = lease
            if "error" in step:
                assert step["error"] == "invalid_lease", here
                with pytest.raises(robotstxt.InvalidLeaseError):
                    await cache.store(lease, status, now=now, **kwargs)
            else:
                await cache.store(lease, status, now=now, **kwargs)
            assert lease.ended, here
            continue
        if "abandon" in step:
            check_fields(step, {"at_s", "abandon", "note"}, here)
            lease = leases.pop(step["abandon"], None)
            if lease is not None:
                await cache.abandon(lease)
                ended[step["abandon"]] = lease
            continue
        check_fields(
            step,
            {
                "at_s", "lookup", "when_fetching", "expect", "stale", "answer", "checks", "token", "validators",
                "lease", "origin", "until_s", "error", "cause", "retry_at_s", "note",
            },
            here,
        )
        when = {"wait": "wait", "disallow_all": "disallow-all"}[step.get("when_fetching", "wait")]
        if "error" in step:
            assert step["error"] == "invalid_url", here
            with pytest.raises(robotstxt.InvalidUrlError):
                await cache.lookup(step["lookup"], now=now, when_fetching=when)
            continue
        got = await cache.lookup(step["lookup"], now=now, when_fetching=when)
        assert got.kind == step["expect"], f"{here}: expect"
        if got.kind == "ready":
            assert got.answer is not None
            if "stale" in step:
                assert got.stale == step["stale"], f"{here}: stale"
            if "retry_at_s" in step:
                want = None if step["retry_at_s"] is None else epoch + ms(step["retry_at_s"])
                assert got.retry_at == want, f"{here}: retry_at"
                assert got.answer.retry_at == want, f"{here}: answer.retry_at"
            if "answer" in step:
                assert got.answer.kind == ANSWER_NAMES[step["answer"]], f"{here}: answer"
            if "cause" in step:
                assert cause_json(got.answer) == step["cause"], f"{here}: cause"
            if "checks" in step:
                rules = got.answer.rules_for(step.get("token", "ExampleBot"))
                assert rules.retry_at == got.retry_at, f"{here}: rules.retry_at"
                blanket = rules.blanket
                assert (blanket is None) == (got.answer.kind == "rules"), here
                for check in step["checks"]:
                    assert rules.can_fetch(check["url"]) == check["allowed"], f"{here}: {check['url']}"
        elif got.kind == "fetch":
            lease = got.lease
            assert lease is not None and not lease.ended
            if "validators" in step:
                check_validators(step["validators"], lease.etag, lease.last_modified, here)
            if "origin" in step:
                assert lease.origin == step["origin"], f"{here}: origin"
            leases[step["lease"]] = lease
        else:
            if "until_s" in step:
                assert got.until == epoch + ms(step["until_s"]), f"{here}: until"


def run_origin_case(case: Case, at: str) -> None:
    check_fields(case, {"name", "url", "origin", "error", "note"}, at)
    cache = robotstxt.Cache()
    if "origin" in case:
        got = cache.lookup(case["url"], now=0)
        assert got.kind == "fetch" and got.lease is not None, at
        assert got.lease.origin == case["origin"], at
        assert got.lease.robots_url == case["origin"] + "/robots.txt", at
        assert robotstxt.origin(case["url"]) == case["origin"], at
    else:
        assert case["error"] == "invalid_url", at
        with pytest.raises(robotstxt.InvalidUrlError) as raised:
            cache.lookup(case["url"], now=0)
        assert isinstance(raised.value, ValueError)
        with pytest.raises(robotstxt.InvalidUrlError):
            robotstxt.origin(case["url"])


def pacing_options(case: Case, at: str) -> Dict[str, Any]:
    """The case's pacer options, as keyword arguments of Pacer and SharedPacer."""
    options: Dict[str, Any] = {}
    if "options" in case:
        o = case["options"]
        check_fields(o, {"floor_s", "backoff_cap_s", "capacity", "max_in_flight", "in_flight_timeout_s"}, at)
        for key, name in (("floor_s", "floor_ms"), ("backoff_cap_s", "backoff_cap_ms"), ("in_flight_timeout_s", "in_flight_timeout_ms")):
            if key in o:
                options[name] = ms(o[key])
        for key in ("capacity", "max_in_flight"):
            if key in o:
                options[key] = o[key]
    return options


class LocalPacer:
    """A robotstxt.Pacer behind robotstxt.fleet.SharedPacer's surface (its
    calls awaited, the time read from `clock`), which the pacing runner
    drives."""

    def __init__(self, clock: List[int], **options: Any) -> None:
        self.pacer = robotstxt.Pacer(**options)
        self.clock = clock

    async def reserve(self, host: Any) -> Optional[robotstxt.Ticket]:
        return self.pacer.reserve(host, now=self.clock[0])

    async def confirm(self, ticket: Any) -> robotstxt.Confirm:
        return self.pacer.confirm(ticket, now=self.clock[0])

    async def cancel(self, ticket: Any) -> None:
        self.pacer.cancel(ticket)

    async def in_flight(self, host: Any) -> int:
        return self.pacer.in_flight(host, now=self.clock[0])

    async def set_rules(self, host: Any, rules: robotstxt.Rules) -> None:
        self.pacer.set_rules(host, rules)

    async def set_delay(self, host: Any, crawl_delay: Optional[float], rate: Optional[robotstxt.RequestRate]) -> None:
        self.pacer.set_delay(host, crawl_delay, rate)

    async def record(self, host: Any, status: Optional[int], *, retry_after_ms: Optional[int]) -> None:
        self.pacer.record(host, status, retry_after_ms=retry_after_ms, now=self.clock[0])

    async def set_enabled(self, host: Any, on: bool) -> None:
        self.pacer.set_enabled(host, on)

    async def gap_ms(self, host: Any) -> int:
        return self.pacer.gap_ms(host)


def run_pacing_case(case: Case, at: str) -> None:
    clock = [0]
    asyncio.run(run_pacing_steps(case, at, LocalPacer(clock, **pacing_options(case, at)), clock))


async def run_pacing_steps(case: Case, at: str, pacer: Any, clock: List[int], base: int = 0) -> None:
    """Runs the case's steps through `pacer`, setting `clock[0]` to each
    step's time, `base` + at_s (the pacer reads its time from it)."""
    tickets: Dict[str, Any] = {}
    for i, step in enumerate(case["steps"]):
        here = f"{at} step {i}"
        check_fields(
            step,
            {
                "at_s", "reserve", "ticket", "start_s", "error", "confirm", "expect", "until_s", "busy", "cancel",
                "in_flight", "set_rules", "set_delay", "record", "enabled", "gap_s", "note",
            },
            here,
        )
        clock[0] = base + ms(step["at_s"])
        if "reserve" in step:
            if "error" in step:
                error = {"invalid_host": robotstxt.InvalidHostError, "pacer_full": robotstxt.PacerFullError}[step["error"]]
                with pytest.raises(error):
                    await pacer.reserve(step["reserve"])
                continue
            ticket = await pacer.reserve(step["reserve"])
            want = None if step["start_s"] is None else ms(step["start_s"])
            assert (None if ticket is None else ticket.start - base) == want, f"{here}: start"
            if "ticket" in step and ticket is not None:
                tickets[step["ticket"]] = ticket
        elif "confirm" in step:
            ticket = tickets[step["confirm"]]
            if "error" in step:
                assert step["error"] == "invalid_ticket", here
                with pytest.raises(robotstxt.InvalidTicketError):
                    await pacer.confirm(ticket)
                continue
            got = await pacer.confirm(ticket)
            assert got.kind == step["expect"], f"{here}: confirm"
            if "until_s" in step:
                assert got.until is not None and got.until - base == ms(step["until_s"]), f"{here}: until"
            if "busy" in step:
                assert got.busy == step["busy"], f"{here}: busy"
            assert ticket.spent == (got.kind != "wait"), here
        elif "cancel" in step:
            await pacer.cancel(tickets.pop(step["cancel"]))
        elif "in_flight" in step:
            count = step["in_flight"]
            assert await pacer.in_flight(count["host"]) == count["count"], f"{here}: in flight"
        elif "set_rules" in step:
            s = step["set_rules"]
            await pacer.set_rules(s["host"], robotstxt.Robots.parse(s["body"]).rules_for(s["token"]))
        elif "set_delay" in step:
            s = step["set_delay"]
            rate = s.get("request_rate")
            await pacer.set_delay(
                s["host"],
                s.get("crawl_delay_s"),
                None if rate is None else robotstxt.RequestRate(rate["requests"], rate["seconds"]),
            )
        elif "record" in step:
            r = step["record"]
            retry = r.get("retry_after_s")
            await pacer.record(r["host"], r["status"], retry_after_ms=None if retry is None else ms(retry))
        elif "enabled" in step:
            await pacer.set_enabled(step["enabled"]["host"], step["enabled"]["on"])
        elif "gap_s" in step:
            assert await pacer.gap_ms(step["gap_s"]["host"]) == ms(step["gap_s"]["gap"]), f"{here}: gap"
        else:
            raise AssertionError(f"{here}: a step with nothing to do")


RUNNERS = {
    "access.json": run_access_case,
    "cache.json": run_cache_case,
    "pacing.json": run_pacing_case,
    "origins.json": run_origin_case,
    "freshness.json": run_timeline,
}


@pytest.mark.parametrize(("file", "case"), list(cases()))
def test_vector(file: str, case: Case) -> None:
    RUNNERS.get(file, run_parse_case)(case, f"{file}: {case['name']}")
