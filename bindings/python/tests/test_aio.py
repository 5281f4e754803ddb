"""robotstxt.aio: one fetch per origin however many tasks ask, failures
as answers, the httpx and aiohttp fetchers against a local site, and
AsyncPacer.wait."""

from __future__ import annotations

import asyncio
import time
from typing import Any, Dict, List, Optional

import pytest

import robotstxt
from conftest import jitter
from robotstxt.aio import (
    AsyncPacer,
    AsyncRobotsCache,
    FetchOutcome,
    FetchRequest,
    aiohttp_fetcher,
    httpx_fetcher,
    retry_after_ms,
)
from sites import Site, page, text

BODY = b"User-agent: *\nDisallow: /private/\n"


class FakeFetcher:
    """Answers after `delay` seconds and counts its calls per origin."""

    def __init__(self, outcome: Any = None, delay: float = 0.05, error: Optional[BaseException] = None) -> None:
        self.outcome = outcome if outcome is not None else FetchOutcome(200, BODY)
        self.delay = delay
        self.error = error
        self.calls: List[FetchRequest] = []

    async def __call__(self, request: FetchRequest) -> FetchOutcome:
        self.calls.append(request)
        await asyncio.sleep(self.delay)
        if self.error is not None:
            raise self.error
        return self.outcome  # type: ignore[no-any-return]


def run(coro: Any) -> Any:
    return asyncio.run(coro)


def test_one_fetch_for_100_concurrent_callers_on_a_new_origin() -> None:
    async def main() -> None:
        fetch = FakeFetcher()
        cache = AsyncRobotsCache(fetch)
        rules = await asyncio.gather(*(cache.rules_for("https://shop.test/p/%d" % i, "ExampleBot") for i in range(100)))
        assert len(fetch.calls) == 1
        assert fetch.calls[0].robots_url == "https://shop.test/robots.txt"
        assert all(r.can_fetch("/private/x") is False for r in rules)
        # 1,000 callers over 10 origins: 10 fetches.
        await asyncio.gather(
            *(cache.rules_for("https://h%d.test/p/%d" % (i % 10, i), "ExampleBot") for i in range(1000))
        )
        assert len(fetch.calls) == 11 and cache.fetching == 0 and len(cache) == 11

    run(main())


def test_failed_fetches_are_answers() -> None:
    async def main() -> None:
        seen: List[BaseException] = []
        fetch = FakeFetcher(error=ConnectionResetError("reset"))
        cache = AsyncRobotsCache(fetch, on_fetch_error=lambda e, r: seen.append(e), retry_ms=1000)
        rules = await asyncio.gather(*(cache.rules_for("https://down.test/", "ExampleBot") for _ in range(10)))
        assert len(fetch.calls) == 1 and isinstance(seen[0], ConnectionResetError)
        blanket = rules[0].blanket
        assert blanket is not None and (blanket.allowed, blanket.cause) == (False, "no-response")
        assert rules[0].retry_at is not None and rules[0].can_fetch("/") is False
        # A 503 with a copy: the old copy answers, with retry_at.
        fetch2 = FakeFetcher(FetchOutcome(200, BODY, max_age_ms=0))
        clock = [1_000_000.0]
        cache2 = AsyncRobotsCache(fetch2, clock=lambda: clock[0])
        assert (await cache2.rules_for("https://a.test/", "ExampleBot")).can_fetch("/private/") is False
        fetch2.outcome = FetchOutcome(503, retry_after_ms=120_000)
        clock[0] += 1
        kept = await cache2.rules_for("https://a.test/", "ExampleBot")
        assert kept.blanket is None and kept.can_fetch("/private/") is False
        assert kept.retry_at == clock[0] + 120_000

    run(main())


def test_a_slow_fetch_times_out_and_a_bad_fetcher_is_reported() -> None:
    async def main() -> None:
        slow = FakeFetcher(delay=10)
        cache = AsyncRobotsCache(slow, timeout=0.1)
        start = time.monotonic()
        rules = await cache.rules_for("https://slow.test/", "ExampleBot")
        assert time.monotonic() - start < 5
        blanket = rules.blanket
        assert blanket is not None and blanket.cause == "no-response"
        bad = FakeFetcher(outcome={"status": 200})
        cache = AsyncRobotsCache(bad)
        with pytest.raises(TypeError, match="FetchOutcome"):
            await cache.rules_for("https://bad.test/", "ExampleBot")
        bad.outcome = FetchOutcome(404)
        allowed = await cache.rules_for("https://bad.test/x", "ExampleBot")
        assert len(bad.calls) == 2 and allowed.decide("/x").kind == "allow-all"
        with pytest.raises(robotstxt.InvalidUrlError):
            await cache.rules_for("/relative", "ExampleBot")
        with pytest.raises(robotstxt.InvalidTokenError):
            await cache.rules_for("https://bad.test/x", "ExampleBot/1.0")

    run(main())


def test_a_cancelled_caller_leaves_the_fetch_to_the_others() -> None:
    async def main() -> None:
        fetch = FakeFetcher(delay=0.2)
        cache = AsyncRobotsCache(fetch)
        first = asyncio.ensure_future(cache.rules_for("https://c.test/", "ExampleBot"))
        second = asyncio.ensure_future(cache.rules_for("https://c.test/", "ExampleBot"))
        await asyncio.sleep(0.05)
        first.cancel()
        rules = await second
        assert rules.can_fetch("/private/") is False and len(fetch.calls) == 1
        assert first.cancelled()

    run(main())


def test_when_fetching_disallow_all() -> None:
    async def main() -> None:
        fetch = FakeFetcher(delay=0.2)
        cache = AsyncRobotsCache(fetch, when_fetching="disallow-all")
        first = asyncio.ensure_future(cache.rules_for("https://d.test/", "ExampleBot"))
        await asyncio.sleep(0.01)
        now = await cache.rules_for("https://d.test/public", "ExampleBot")
        assert now.decide("/public").kind == "disallow-all"
        assert (await first).can_fetch("/public") is True

    run(main())


def robots_site() -> Site:
    def answer(path: str, site: Site) -> Any:
        if path == "/robots.txt":
            return text("User-agent: *\nDisallow: /private/\n", headers={"ETag": '"v1"', "Cache-Control": "max-age=0"})
        if path == "/moved/robots.txt":
            return 301, {"Location": "/robots.txt"}, b""
        if path.startswith("/busy"):
            return text("busy", 503, {"Retry-After": "7"})
        return page(path)

    return Site(answer)


@pytest.mark.parametrize("client", ["httpx", "aiohttp"])
def test_ready_made_fetchers(client: str) -> None:
    async def main() -> Dict[str, Any]:
        with robots_site() as site:
            if client == "httpx":
                import httpx

                async with httpx.AsyncClient() as http:
                    fetch = httpx_fetcher(http, user_agent="ExampleBot/1.0")
                    return await exercise(site, fetch)
            import aiohttp

            async with aiohttp.ClientSession() as session:
                return await exercise(site, aiohttp_fetcher(session, user_agent="ExampleBot/1.0"))

    async def exercise(site: Site, fetch: Any) -> Dict[str, Any]:
        plain = await fetch(FetchRequest(site.url("/robots.txt"), site.origin))
        moved = await fetch(FetchRequest(site.url("/moved/robots.txt"), site.origin, etag='"v0"'))
        busy = await fetch(FetchRequest(site.url("/busy/robots.txt"), site.origin))
        cache = AsyncRobotsCache(fetch)
        rules = await cache.rules_for(site.url("/private/x"), "ExampleBot")
        return {"plain": plain, "moved": moved, "busy": busy, "rules": rules, "hits": list(site.hits)}

    got = run(main())
    plain, moved, busy = got["plain"], got["moved"], got["busy"]
    assert (plain.status, plain.body, plain.etag, plain.redirects) == (200, b"User-agent: *\nDisallow: /private/\n", '"v1"', 0)
    assert plain.max_age_ms == 60_000  # max-age=0 raised to a minute
    assert (moved.status, moved.redirects) == (200, 1)
    assert (busy.status, busy.body, busy.retry_after_ms) == (503, b"", 7000)
    assert got["rules"].can_fetch("/private/x") is False
    hits = got["hits"]
    assert all(h.headers.get("User-Agent") == "ExampleBot/1.0" for h in hits)
    assert any(h.headers.get("If-None-Match") == '"v0"' for h in hits)


def test_retry_after() -> None:
    assert retry_after_ms("120") == 120_000
    assert retry_after_ms(b" 3 ") == 3000
    assert retry_after_ms("Wed, 21 Oct 2015 07:28:00 GMT", now_ms=1445412480000 - 5000) == 5000
    assert retry_after_ms("Wed, 21 Oct 2015 07:28:00 GMT") == 0  # in the past
    for junk in (None, "", "soon", "-5", "1.5"):
        assert retry_after_ms(junk) is None


def test_pacer_wait_spaces_the_starts() -> None:
    async def main() -> List[float]:
        pacer = AsyncPacer(floor_ms=0, max_in_flight=100)
        pacer.set_delay("p.test", 0.05)
        starts: List[float] = []

        async def one() -> None:
            await pacer.wait("P.test")
            starts.append(time.monotonic())
            pacer.record("p.test", 200)

        await asyncio.gather(*(one() for _ in range(8)))
        return starts

    starts = run(main())
    gaps = [b - a for a, b in zip(starts, starts[1:])]
    assert min(gaps) >= 0.05 - jitter(0.005), gaps


def test_pacer_wait_honours_a_retry_after_recorded_meanwhile() -> None:
    async def main() -> None:
        pacer = AsyncPacer(floor_ms=0)
        await pacer.wait("r.test")  # one in flight
        waiter = asyncio.ensure_future(pacer.wait("r.test"))
        await asyncio.sleep(0.05)
        assert not waiter.done()  # busy: the in-flight request has not ended
        t429 = time.monotonic()
        pacer.record("r.test", 429, retry_after_ms=300)  # wakes the waiter, which waits on
        await waiter
        assert time.monotonic() - t429 >= 0.29
        pacer.record("r.test", 200)

    run(main())


def test_pacer_wait_on_a_host_switched_off() -> None:
    async def main() -> None:
        pacer = AsyncPacer(floor_ms=1000)
        await pacer.wait("k.test")
        pacer.record("k.test", 200)
        waiter = asyncio.ensure_future(pacer.wait("k.test"))
        await asyncio.sleep(0.05)
        pacer.set_enabled("k.test", False)
        with pytest.raises(robotstxt.HostDisabledError) as raised:
            await waiter
        assert raised.value.host == "k.test"
        with pytest.raises(robotstxt.HostDisabledError):
            await pacer.wait("k.test")
        pacer.set_enabled("k.test", True)
        # A cancelled wait gives its slot back.
        slow = AsyncPacer(floor_ms=60_000)
        await slow.wait("c.test")
        slow.record("c.test", 200)
        cancelled = asyncio.ensure_future(slow.wait("c.test"))
        await asyncio.sleep(0.05)
        cancelled.cancel()
        await asyncio.gather(cancelled, return_exceptions=True)
        ticket = slow.pacer.reserve("c.test")
        assert ticket is not None and ticket.start is not None
        assert ticket.start < time.time() * 1000 + 61_000

    run(main())
