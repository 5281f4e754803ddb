"""Typed use of the whole API, checked by `mypy --strict` against the wheel's
stubs (make python-test). Not a test module: nothing here runs."""

from __future__ import annotations

import asyncio
from typing import Dict, List, Literal, Optional, Tuple

import robotstxt
from robotstxt import access
from robotstxt.aio import AsyncPacer, AsyncRobotsCache, FetchOutcome, FetchRequest, Fetcher, retry_after_ms
from robotstxt.compat import RobotFileParser
from robotstxt.fleet import SharedCacheStats, SharedConfirm, SharedPacer, SharedRobotsCache, SharedTicket


def parse_and_ask(body: bytes) -> List[str]:
    robots = robotstxt.Robots.parse(body, profile="google", parse_limit=1 << 20, typos=False)
    rules: robotstxt.Rules = robots.rules_for("ExampleBot")
    merged = robots.rules_for_any(["a", b"b"])
    strict = robots.rules_for_strictest(("a", "b"))
    decision: robotstxt.Decision = rules.decide("/x")
    kind: str = decision.kind
    line: int = decision.line
    allowed: bool = rules.can_fetch(memoryview(b"/x")) and merged.can_fetch(bytearray(b"/y"))
    kept: List[str] = rules.filter_allowed(["/a", "/b"])
    flags: List[bool] = strict.can_fetch_many([b"/a"])
    many: List[robotstxt.Decision] = rules.decide_many(["/a"])
    delay: Optional[float] = rules.crawl_delay
    rate = rules.request_rate
    if rate is not None:
        interval: float = rate.interval
    blanket = rules.blanket
    if blanket is not None:
        status: Optional[int] = blanket.status
    retry: Optional[int] = rules.retry_at
    for d in robots.diagnostics:
        print(d.line, d.kind, d.flags, d.message)
    with rules:
        pass
    print(kind, line, allowed, flags, many, delay, retry)
    return kept + robots.sitemaps + [robots.host or ""]


def outcomes() -> None:
    got: robotstxt.Access = access.classify(503, policy="strict")
    parsed = access.from_outcome(200, b"User-agent: *\n")
    if parsed.robots is not None and got.retry_later:
        parsed.robots.rules_for("ExampleBot")
    entry = robotstxt.Entry(fresh_for_ms=3_600_000, after_limit="allow")
    entry.record(200, body=b"", etag='"e"', now=0)
    answer: robotstxt.Answer = entry.answer(now=1.5)
    answer.rules_for("ExampleBot")


def cache_and_pacer() -> None:
    cache = robotstxt.Cache(capacity=100, lease_ms=30_000, policy="careful")
    got = cache.lookup("https://example.com/", now=0, when_fetching="disallow-all")
    if got.kind == "fetch" and got.lease is not None:
        cache.store(got.lease, 200, body=b"User-agent: *\n", max_age_ms=60_000, now=1)
    elif got.answer is not None:
        got.answer.rules_for("ExampleBot")
    stats: robotstxt.CacheStats = cache.stats
    print(stats.hits, len(cache), robotstxt.origin("https://example.com"))
    pacer = robotstxt.Pacer(floor_ms=500, max_in_flight=2)
    pacer.set_delay("example.com", 0.25, robotstxt.RequestRate(1, 2))
    pacer.set_delay("example.com", None, (1, 2))
    ticket = pacer.reserve("example.com", now=0)
    if ticket is not None:
        confirm = pacer.confirm(ticket, now=ticket.start)
        if confirm.kind == "wait" and confirm.until is not None:
            pacer.cancel(ticket)
    pacer.record("example.com", None, retry_after_ms=retry_after_ms("5"))
    token: str = robotstxt.product_token("ExampleBot/1.0")
    print(token, pacer.gap_ms("example.com"), pacer.in_flight("example.com"))


def usage_preferences(robots: robotstxt.Robots, rules: robotstxt.Rules) -> Optional[Literal["y", "n"]]:
    answer: robotstxt.Preferences = rules.preferences("https://example.com/blog/x")
    page = rules.preferences(b"/blog/x", header="train-ai=n")
    decision: robotstxt.Decision = answer.decision
    labels: Dict[str, robotstxt.LabelPreference] = answer.labels
    for label, preference in labels.items():
        lines: Tuple[int, ...] = preference.lines
        print(label, preference.value, lines)
    for statement in answer.statements:
        members: Tuple[Tuple[str, str], ...] = statement.members
        print(statement.line, statement.path, members)
    signal: Optional[robotstxt.ContentSignal] = rules.content_signal()
    if signal is not None:
        ai_train: Optional[Literal["yes", "no"]] = signal.signals["ai-train"]
        print(ai_train, signal.lines)
    records: Tuple[robotstxt.OtherRecord, ...] = robots.other_records + rules.other_records
    for record in records:
        group: Optional[int] = record.group
        print(record.key, record.key_lower, record.value, record.line, group)
    try:
        rules.preferences("/", header="Train-AI=n")
    except robotstxt.InvalidStatementError as error:
        reason: Literal["syntax", "empty"] = error.reason
        print(reason)
    print(answer.crawlable, decision.line, page.get("train-ai"))
    return answer.get("train-ai")


async def fetch(request: FetchRequest) -> FetchOutcome:
    return FetchOutcome(404 if request.etag is None else 304)


async def asyncio_use() -> None:
    fetcher: Fetcher = fetch
    cache = AsyncRobotsCache(fetcher, retry_ms=1000, when_fetching="wait", timeout=5.0)
    rules = await cache.rules_for("https://example.com/x", "ExampleBot")
    pacer = AsyncPacer(floor_ms=100)
    pacer.set_rules("example.com", rules)
    start: int = await pacer.wait("example.com")
    pacer.record("example.com", 200)
    await cache.aclose()
    print(start)


async def fleet_use() -> None:
    import redis.asyncio

    client = redis.asyncio.Redis(host="127.0.0.1", port=6379)
    async with SharedRobotsCache(
        client, fetch, prefix="crawl:", lease_ms=30_000, keep_ms=86_400_000, retry_ms=1000, local_fallback=True,
        on_redis_error=lambda e: print(e.step),
    ) as cache:
        rules = await cache.rules_for("https://example.com/x", "ExampleBot")
        answer: robotstxt.Answer = await cache.answer_for(b"https://example.com/")
        stats: SharedCacheStats = cache.stats
        print(answer.kind, stats.redis_errors, len(cache), cache.remove("https://example.com/"))
    async with SharedPacer(client, floor_ms=100, max_in_flight=2, retain_ms=60_000, clock=lambda: 0.0) as pacer:
        await pacer.set_rules("example.com", rules)
        await pacer.set_delay("example.com", 0.5, (1, 2))
        await pacer.set_enabled("example.com", True)
        ticket: Optional[SharedTicket] = await pacer.reserve("example.com")
        if ticket is not None:
            confirm: SharedConfirm = await pacer.confirm(ticket)
            if confirm.kind == "wait" and confirm.until is not None:
                await pacer.cancel(ticket)
        start: int = await pacer.wait("example.com")
        await pacer.record("example.com", 429, retry_after_ms=1000.0)
        print(start, await pacer.gap_ms("example.com"), await pacer.in_flight("example.com"))
    entry = robotstxt.Entry()
    entry.record(200, body=b"User-agent: *\n", now=0)
    data: bytes = entry.encode(b"User-agent: *\n")
    copy = robotstxt.Entry.decode(data, retry_ms=1000, profile="google")
    body: bytes = robotstxt.Entry.stored_body(bytearray(data))
    try:
        copy.encode(body + b"x")
    except robotstxt.BodyMismatchError as error:
        print(error.expected, error.given)
    except robotstxt.CopyVersionError as error:
        print(error.version, error.supported, error.reason)
    except robotstxt.InvalidCopyError as error:
        print(error.reason)
    script: str = robotstxt.fleet_script("lookup")
    gap: int = robotstxt.pace_ms(rules) + robotstxt.pace_ms(0.5, robotstxt.RequestRate(1, 2))
    print(script, gap, robotstxt.robots_origin("https://example.com/"), robotstxt.pacer_host("Example.com"))
    print(robotstxt.STORED_COPY_VERSION)
    await client.aclose()


def compat() -> Optional[float]:
    rp = RobotFileParser("https://example.com/robots.txt")
    rp.parse(["User-agent: *", "Disallow: /x"])
    rate = rp.request_rate("*")
    print(rp.can_fetch("ExampleBot/1.0", "/x"), rp.site_maps(), rp.mtime(), rate)
    return rp.crawl_delay("*")


def errors() -> None:
    try:
        robotstxt.Robots.parse(b"").rules_for("Bot/1.0")
    except robotstxt.InvalidTokenError as error:
        token: str = error.token
        print(token)
    except robotstxt.Error:
        raise


if __name__ == "__main__":
    asyncio.run(asyncio_use())
