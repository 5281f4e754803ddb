"""robotstxt.fleet through a real Redis server (Debian's redis-server, that
`make redis` unpacks under build/redis, or $ROBOTSTXT_REDIS_SERVER): stored
copies round-trip; workers fetch each robots.txt once and pace each host as
one crawler; the cache vectors hold through SharedCache and the pacing
vectors through SharedPacer as they do locally (where a fleet differs by
design, the test says so and asserts the fleet's answer);
Redis down fails safe; and the fleet worker of examples/python crawls a
local site with another worker. Mirrors bindings/node/__test__/fleet.test.mjs."""

from __future__ import annotations

import asyncio
import itertools
import json
import os
import socket
import subprocess
import sys
import threading
import time
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Awaitable, Callable, Dict, Iterator, List

import pytest
import redis.asyncio
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff

import robotstxt
from conftest import EXAMPLES, REPO, VECTORS, cannot, needs
from robotstxt.aio import FetchOutcome, FetchRequest
from robotstxt.fleet import (
    RedisFallbackWarning,
    SharedCache,
    SharedCacheStats,
    SharedLease,
    SharedLookup,
    SharedPacer,
    SharedRobotsCache,
    SharedTicket,
)
from sites import Site, page, text
from test_vectors import cache_options, pacing_options, run_cache_steps, run_pacing_steps

H = 3_600_000
REDIS_SERVER = Path(os.environ.get("ROBOTSTXT_REDIS_SERVER") or REPO / "build" / "redis" / "redis-server")


# ---------------------------------------------------------------------------
# A real server, started on 127.0.0.1 and a free port, stopped by its pid.


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def listening(port: int) -> bool:
    """Ready means it answered a PING: a server just started can reset its first client."""
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.2) as conn:
            conn.settimeout(1)
            conn.sendall(b"PING\r\n")
            return conn.recv(7) == b"+PONG\r\n"
    except OSError:
        return False


@dataclass
class RedisServer:
    port: int
    process: "subprocess.Popen[bytes]"

    @property
    def pid(self) -> int:
        return self.process.pid

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait(timeout=10)


def start_redis() -> RedisServer:
    reason = cannot("redis")
    if reason is not None:
        pytest.skip(reason)
    if not REDIS_SERVER.exists():
        pytest.fail(f"no redis-server at {REDIS_SERVER}: run `make redis` first (make python-test does)")
    port = free_port()
    process = subprocess.Popen(
        [str(REDIS_SERVER), "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
         "--daemonize", "no"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    server = RedisServer(port, process)
    deadline = time.monotonic() + 10
    while not listening(port):
        if time.monotonic() > deadline or process.poll() is not None:
            server.stop()
            pytest.fail(f"redis-server did not listen on {port}")
        time.sleep(0.02)
    return server


@pytest.fixture(scope="module")
def server() -> Iterator[RedisServer]:
    started = start_redis()
    try:
        yield started
    finally:
        started.stop()


@pytest.fixture
def own_server() -> Iterator[RedisServer]:
    """A server of the test's own, to stop in the middle."""
    started = start_redis()
    try:
        yield started
    finally:
        started.stop()


_prefixes = itertools.count(1)


def prefix() -> str:
    """A key prefix no other test uses."""
    return f"pytest{os.getpid()}-{next(_prefixes)}:"


_clients: List["redis.asyncio.Redis"] = []


def client(port: int, **options: Any) -> "redis.asyncio.Redis":
    """A client that fails at once when the server is down (no retries),
    closed when the test's event loop ends."""
    made = redis.asyncio.Redis(
        host="127.0.0.1", port=port, retry=Retry(NoBackoff(), 0), socket_connect_timeout=1, **options
    )
    _clients.append(made)
    return made


def run(main: Callable[[], Awaitable[None]]) -> None:
    async def wrapped() -> None:
        try:
            await main()
        finally:
            for made in _clients:
                await made.aclose()
            _clients.clear()

    asyncio.run(wrapped())


class Fetcher:
    """A fetch function over fixed outcomes (or functions giving them) that
    counts its calls."""

    def __init__(self, answers: Dict[str, Any], delay: float = 0.03) -> None:
        self.answers = answers
        self.delay = delay
        self.calls: List[str] = []

    async def __call__(self, request: FetchRequest) -> FetchOutcome:
        self.calls.append(request.robots_url)
        await asyncio.sleep(self.delay)
        answer = self.answers[request.robots_url]
        return answer() if callable(answer) else answer  # type: ignore[no-any-return]


SHOP = b"User-agent: *\nDisallow: /private/\nCrawl-delay: 0.5\n"


# ---------------------------------------------------------------------------
# A copy as bytes


BODY = b"User-agent: *\nDisallow: /private/\nCrawl-delay: 2\n"


def test_a_copy_decodes_to_an_entry_that_answers_as_the_one_encoded() -> None:
    entry = robotstxt.Entry()
    entry.record(200, body=BODY, etag='"v1"', now=1000)
    data = entry.encode(BODY)
    assert isinstance(data, bytes)
    copy = robotstxt.Entry.decode(data)
    assert (copy.due_at, copy.fetched_at, copy.failures, copy.etag, copy.last_modified) == (
        entry.due_at, entry.fetched_at, entry.failures, '"v1"', None
    )
    rules = copy.answer(now=2000).rules_for("ExampleBot")
    assert (rules.can_fetch("/private/x"), rules.can_fetch("/x"), rules.crawl_delay) == (False, True, 2.0)
    assert robotstxt.Entry.stored_body(data) == BODY
    assert robotstxt.Entry.stored_body(bytearray(data)) == BODY
    assert robotstxt.Entry.decode(memoryview(data)).due_at == entry.due_at
    # A str body is its UTF-8 form, as record took it.
    assert entry.encode(BODY.decode()) == data
    # A failed refresh recorded into the copy: encoded with the kept body.
    copy.record(503, now=25 * H)
    again = robotstxt.Entry.decode(copy.encode(robotstxt.Entry.stored_body(data)))
    answer = again.answer(now=25 * H)
    assert answer.kind == "rules" and again.failures == 1 and answer.retry_at == 26 * H
    assert answer.rules_for("ExampleBot").retry_at == 26 * H
    # A blanket answer needs no body.
    gone = robotstxt.Entry()
    gone.record(404, now=0)
    assert robotstxt.Entry.decode(gone.encode()).answer(now=1).kind == "allow-all"
    assert robotstxt.Entry.decode(gone.encode(None)).answer(now=1).kind == "allow-all"
    assert robotstxt.Entry.stored_body(gone.encode()) == b""
    # The decoder's options: its profile parses the body.
    assert robotstxt.Entry.decode(data, profile="google").answer(now=2000).rules_for("Example Bot").profile == "google"
    assert robotstxt.Entry.decode(data, fresh_for_ms=1).due_at == entry.due_at  # the due time travels
    assert robotstxt.STORED_COPY_VERSION == data[4] == 1


def test_another_body_damaged_bytes_and_wrong_types_are_refused() -> None:
    entry = robotstxt.Entry()
    entry.record(200, body=BODY, now=0)
    with pytest.raises(robotstxt.BodyMismatchError, match="Entry::stored_body") as raised:
        entry.encode(b"User-agent: *\nDisallow: /\n")
    assert isinstance(raised.value, ValueError) and isinstance(raised.value, robotstxt.Error)
    assert (raised.value.expected, raised.value.given) == (len(BODY), 26)
    with pytest.raises(robotstxt.BodyMismatchError):
        entry.encode()
    data = entry.encode(BODY)
    for at in (0, 4, 9, len(data) - 1):
        damaged = bytearray(data)
        damaged[at] ^= 0x10
        with pytest.raises(robotstxt.InvalidCopyError):
            robotstxt.Entry.decode(bytes(damaged))
        with pytest.raises(robotstxt.InvalidCopyError):
            robotstxt.Entry.stored_body(bytes(damaged))
    with pytest.raises(robotstxt.InvalidCopyError, match="cut short") as cut:
        robotstxt.Entry.decode(data[:20])
    assert isinstance(cut.value, ValueError) and cut.value.reason == "is cut short"
    with pytest.raises(robotstxt.InvalidCopyError):
        robotstxt.Entry.decode(b"")
    # A newer format (its checksum made right): CopyVersionError, an InvalidCopyError.
    import zlib

    newer = bytearray(data)
    newer[4] = 9
    newer[-4:] = zlib.crc32(bytes(newer[:-4])).to_bytes(4, "little")
    with pytest.raises(robotstxt.CopyVersionError, match="format version 9") as version:
        robotstxt.Entry.decode(bytes(newer))
    assert isinstance(version.value, robotstxt.InvalidCopyError)
    assert (version.value.version, version.value.supported) == (9, 1)
    # str where bytes go (a Redis client that decodes its replies), and other types.
    with pytest.raises(robotstxt.ArgumentTypeError, match="^data must be bytes, bytearray or memoryview"):
        robotstxt.Entry.decode(data.decode("latin-1"))  # type: ignore[arg-type]
    for bad in (None, 5, [1, 2]):
        with pytest.raises(TypeError):
            robotstxt.Entry.stored_body(bad)  # type: ignore[arg-type]
        with pytest.raises(TypeError):
            robotstxt.Entry.decode(bad)  # type: ignore[arg-type]
    with pytest.raises(robotstxt.ArgumentTypeError):
        entry.encode(7)  # type: ignore[arg-type]
    with pytest.raises(robotstxt.InvalidArgumentError):
        robotstxt.Entry.decode(data, fresh_for_ms=-1)
    with pytest.raises(TypeError):
        robotstxt.Entry.decode(data, nonsense=1)  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        robotstxt.Entry.decode(data=data)  # type: ignore[call-arg]  # positional only


def test_what_a_store_needs() -> None:
    assert "HostPace::reserve" in robotstxt.fleet_script("reserve")
    assert "local function clock" in robotstxt.fleet_script("lookup")  # the prelude comes first
    with pytest.raises(robotstxt.InvalidArgumentError, match="pass one of lookup, store"):
        robotstxt.fleet_script("nope")  # type: ignore[arg-type]
    with pytest.raises(robotstxt.ArgumentTypeError):
        robotstxt.fleet_script(b"lookup")  # type: ignore[arg-type]
    assert robotstxt.robots_origin("HTTPS://Shop.Test:443/a?b") == "https://shop.test"
    assert robotstxt.robots_origin(b"http://a.test:8080/x") == robotstxt.origin("http://a.test:8080/x")
    with pytest.raises(robotstxt.InvalidUrlError):
        robotstxt.robots_origin("ftp://x")
    assert robotstxt.pacer_host("Shop.TEST") == "shop.test"
    assert robotstxt.pacer_host(b"Shop.Test:8443") == "shop.test:8443"
    with pytest.raises(robotstxt.InvalidHostError):
        robotstxt.pacer_host("")
    assert robotstxt.pace_ms(0.1) == 100
    assert robotstxt.pace_ms(0.0001, None) == 1
    assert robotstxt.pace_ms(1, (1, 3)) == 3000
    assert robotstxt.pace_ms(None, robotstxt.RequestRate(2, 1)) == 500
    assert robotstxt.pace_ms() == 0
    rules = robotstxt.Robots.parse("User-agent: *\nCrawl-delay: 0.2\nRequest-rate: 1/1\n").rules_for("ExampleBot")
    assert robotstxt.pace_ms(rules) == 1000
    with pytest.raises(robotstxt.InvalidArgumentError):
        robotstxt.pace_ms(-1)
    with pytest.raises(robotstxt.InvalidArgumentError):
        robotstxt.pace_ms(rules, (1, 1))  # type: ignore[call-overload]
    with pytest.raises(robotstxt.ArgumentTypeError):
        robotstxt.pace_ms("1")  # type: ignore[call-overload]


# ---------------------------------------------------------------------------
# SharedRobotsCache


def test_two_workers_forty_questions_at_once_one_fetch_per_origin(server: RedisServer) -> None:
    async def main() -> None:
        p = prefix()
        fetch = Fetcher({
            "https://a.test/robots.txt": FetchOutcome(200, SHOP),
            "https://b.test/robots.txt": FetchOutcome(404),
        })
        clients = [client(server.port) for _ in range(2)]
        workers = [SharedRobotsCache(c, fetch, prefix=p) for c in clients]
        asks = []
        for i in range(10):
            for worker in workers:
                asks.append(worker.rules_for(f"https://a.test/private/{i}", "ExampleBot"))
                asks.append(worker.rules_for(f"https://b.test/private/{i}", "ExampleBot"))
        rules = await asyncio.gather(*asks)
        assert sorted(fetch.calls) == ["https://a.test/robots.txt", "https://b.test/robots.txt"]
        for a, b in zip(rules[::2], rules[1::2]):
            assert a.can_fetch("/private/x") is False and a.crawl_delay == 0.5
            assert b.can_fetch("/private/x") is True  # 404: allow all
        # Later questions need no Redis call and no fetch.
        assert (await workers[1].answer_for("https://a.test/")).kind == "rules"
        assert len(fetch.calls) == 2
        assert len(workers[0]) == 2
        stats = workers[0].stats
        assert isinstance(stats, SharedCacheStats) and stats.entries == 2 and stats.redis_errors == 0
        assert sum(w.stats.fetches for w in workers) == 2
        # The keys of every language: <prefix>copy:{<origin>}, no lease left.
        keys = sorted(k.decode() for k in await clients[0].keys(p + "*"))
        assert keys == [f"{p}copy:{{https://a.test}}", f"{p}copy:{{https://b.test}}"]
        assert workers[0].remove("https://a.test/x") is True and workers[0].remove("https://a.test/") is False
        assert (await workers[0].rules_for("https://a.test/private/", "ExampleBot")).can_fetch("/private/") is False
        assert len(fetch.calls) == 2  # adopted from Redis, not fetched
        for worker in workers:
            await worker.aclose()
        with pytest.raises(robotstxt.ClosedError):
            await workers[0].answer_for("https://a.test/")
        for c in clients:
            await c.aclose()

    run(main)


def test_a_due_copy_is_fetched_again_by_one_worker_and_a_503_keeps_the_old_copy_for_all(server: RedisServer) -> None:
    async def main() -> None:
        p = prefix()
        t = [float(int(time.time() * 1000))]
        status = [200]
        fetch = Fetcher({
            "https://a.test/robots.txt": lambda: FetchOutcome(200, SHOP) if status[0] == 200 else FetchOutcome(status[0])
        })
        one, two = (SharedRobotsCache(client(server.port), fetch, prefix=p, clock=lambda: t[0]) for _ in range(2))
        assert (await one.rules_for("https://a.test/x", "ExampleBot")).can_fetch("/private/") is False
        assert (await two.rules_for("https://a.test/x", "ExampleBot")).can_fetch("/private/") is False
        assert len(fetch.calls) == 1
        t[0] += 25 * H
        status[0] = 503
        answers = await asyncio.gather(one.answer_for("https://a.test/"), two.answer_for("https://a.test/"))
        assert len(fetch.calls) == 2
        for answer in answers:
            assert answer.kind == "rules"  # the old copy, kept
            assert answer.rules_for("ExampleBot").can_fetch("/private/") is False
        # The retry is due in an hour, for the fleet.
        t[0] += H - 1
        await two.answer_for("https://a.test/")
        assert len(fetch.calls) == 2
        t[0] += 1
        status[0] = 200
        await two.answer_for("https://a.test/")
        await one.answer_for("https://a.test/")
        assert len(fetch.calls) == 3
        assert one.stats.stale + two.stats.stale >= 1
        await one.aclose()
        await two.aclose()

    run(main)


def test_disallow_all_while_another_worker_fetches(server: RedisServer) -> None:
    async def main() -> None:
        p = prefix()
        slow = Fetcher({"https://a.test/robots.txt": FetchOutcome(200, SHOP)}, delay=0.5)
        one = SharedRobotsCache(client(server.port), slow, prefix=p)
        two = SharedRobotsCache(client(server.port), slow, prefix=p, when_fetching="disallow-all")
        first = asyncio.ensure_future(one.answer_for("https://a.test/"))
        await asyncio.sleep(0.2)
        meanwhile = await two.answer_for("https://a.test/")
        assert meanwhile.kind == "disallow-all" and len(slow.calls) == 1
        assert (await first).kind == "rules"
        assert (await two.answer_for("https://a.test/")).kind == "rules"
        assert len(slow.calls) == 1
        await one.aclose()
        await two.aclose()

    run(main)


def test_what_the_fetch_function_gives_that_is_no_outcome_raises_and_the_lease_goes_back(server: RedisServer) -> None:
    async def main() -> None:
        p = prefix()
        fetch = Fetcher({"https://a.test/robots.txt": FetchOutcome("two hundred")})  # type: ignore[arg-type]
        cache = SharedRobotsCache(client(server.port), fetch, prefix=p)
        with pytest.raises(TypeError):
            await cache.answer_for("https://a.test/")
        # The lease went back: the next question fetches at once.
        with pytest.raises(TypeError):
            await cache.answer_for("https://a.test/")
        assert len(fetch.calls) == 2
        fetch.answers["https://a.test/robots.txt"] = {"status": 200}
        with pytest.raises(TypeError, match="FetchOutcome"):
            await cache.answer_for("https://a.test/")
        fetch.answers["https://a.test/robots.txt"] = FetchOutcome(404)
        assert (await cache.answer_for("https://a.test/")).kind == "allow-all"
        assert len(fetch.calls) == 4
        await cache.aclose()

    run(main)


def test_a_failed_fetch_is_an_answer_and_is_reported(server: RedisServer) -> None:
    async def main() -> None:
        seen: List[BaseException] = []

        async def broken(request: FetchRequest) -> FetchOutcome:
            raise ConnectionResetError("reset")

        cache = SharedRobotsCache(
            client(server.port), broken, prefix=prefix(), on_fetch_error=lambda e, r: seen.append(e), retry_ms=1000
        )
        rules = await cache.rules_for("https://down.test/", "ExampleBot")
        blanket = rules.blanket
        assert blanket is not None and (blanket.allowed, blanket.cause) == (False, "no-response")
        assert rules.retry_at is not None and isinstance(seen[0], ConnectionResetError)
        await cache.aclose()

    run(main)


def test_bad_arguments_of_the_cache(server: RedisServer) -> None:
    async def main() -> None:
        c = client(server.port)

        async def fetch(request: FetchRequest) -> FetchOutcome:
            return FetchOutcome(404)

        with pytest.raises(robotstxt.ArgumentTypeError, match="execute_command"):
            SharedRobotsCache(object(), fetch)  # type: ignore[arg-type]
        with pytest.raises(robotstxt.ArgumentTypeError):
            SharedRobotsCache(c, 5)  # type: ignore[arg-type]
        with pytest.raises(robotstxt.InvalidArgumentError):
            SharedRobotsCache(c, fetch, fresh_for_ms=-1)
        with pytest.raises(TypeError):
            SharedRobotsCache(c, fetch, fresh_for=1)
        with pytest.raises(robotstxt.InvalidOptionError):
            SharedRobotsCache(c, fetch, when_fetching="later")  # type: ignore[arg-type]
        with pytest.raises(robotstxt.InvalidArgumentError):
            SharedRobotsCache(c, fetch, lease_ms=0)
        with pytest.raises(robotstxt.ArgumentTypeError):
            SharedRobotsCache(c, fetch, keep_ms=1.5)  # type: ignore[arg-type]
        with pytest.raises(robotstxt.ArgumentTypeError):
            SharedRobotsCache(c, fetch, local_fallback=1)  # type: ignore[arg-type]
        with pytest.raises(robotstxt.ArgumentTypeError):
            SharedRobotsCache(c, fetch, prefix=b"x")  # type: ignore[arg-type]
        cache = SharedRobotsCache(c, fetch, prefix=prefix())
        with pytest.raises(robotstxt.InvalidUrlError):
            await cache.answer_for("ftp://a.test/")
        with pytest.raises(robotstxt.ArgumentTypeError):
            await cache.rules_for("https://a.test/", 5)  # type: ignore[arg-type]
        with pytest.raises(robotstxt.InvalidTokenError):
            await cache.rules_for("https://a.test/", "ExampleBot/1.0")
        await cache.aclose()
        await cache.aclose()  # twice: nothing
        await c.aclose()

    run(main)


def test_a_client_that_decodes_its_replies_works_too(server: RedisServer) -> None:
    async def main() -> None:
        c = client(server.port, decode_responses=True)
        fetch = Fetcher({"https://a.test/robots.txt": FetchOutcome(200, SHOP + b"# \xff\xfe not UTF-8\n")})
        p = prefix()
        async with SharedRobotsCache(c, fetch, prefix=p) as cache:
            assert (await cache.rules_for("https://a.test/", "ExampleBot")).can_fetch("/private/") is False
        async with SharedRobotsCache(c, fetch, prefix=p) as other:  # adopts the stored copy
            assert (await other.rules_for("https://a.test/", "ExampleBot")).crawl_delay == 0.5
        assert len(fetch.calls) == 1
        async with SharedPacer(c, prefix=p, floor_ms=0) as pacer:
            await pacer.set_delay("a.test", 0.25)
            assert await pacer.gap_ms("a.test") == 250
        await c.aclose()

    run(main)


# ---------------------------------------------------------------------------
# SharedCache: robotstxt.Cache's low-level surface over the fleet's copies


def test_the_low_level_surface_hands_one_worker_the_fetch_and_the_others_its_copy(server: RedisServer) -> None:
    async def main() -> None:
        p = prefix()
        t0 = 1_700_000_000_000
        one, two = (SharedCache(client(server.port), prefix=p, lease_ms=30_000) for _ in range(2))
        got = await one.lookup("https://A.test/x", now=t0)
        assert isinstance(got, SharedLookup) and got.kind == "fetch" and got.answer is None
        lease = got.lease
        assert isinstance(lease, SharedLease) and one.issued(lease) and not two.issued(lease)
        assert (lease.origin, lease.robots_url, lease.etag, lease.ended) == (
            "https://a.test", "https://a.test/robots.txt", None, False
        )
        waiting = await two.lookup("https://a.test/y", now=t0 + 1000)
        assert (waiting.kind, waiting.until) == ("wait", t0 + 30_000)
        meanwhile = await two.lookup("https://a.test/y", now=t0 + 2000, when_fetching="disallow-all")
        assert meanwhile.kind == "ready" and meanwhile.retry_at == t0 + 30_000 and meanwhile.stale is False
        assert meanwhile.answer is not None and meanwhile.answer.retry_at == t0 + 30_000
        blanket = meanwhile.answer.rules_for("ExampleBot").blanket
        assert blanket is not None and (blanket.allowed, blanket.cause) == (False, "not-fetched")
        # A lease of another cache, and a wrong type, change nothing.
        with pytest.raises(robotstxt.InvalidLeaseError, match="belongs to another cache"):
            await two.store(lease, 200, body=SHOP, now=t0 + 3000)
        with pytest.raises(robotstxt.ArgumentTypeError):
            await one.store(object(), 200, now=t0 + 3000)  # type: ignore[arg-type]
        with pytest.raises(robotstxt.ArgumentTypeError):
            await one.store(lease, "200", now=t0 + 3000)  # type: ignore[arg-type]
        assert one.issued(lease)  # still usable
        access = await one.store(lease, 200, body=SHOP, etag='"v1"', now=t0 + 3000)
        assert isinstance(access, robotstxt.Access) and access.kind == "follow-rules" and lease.ended
        # The other worker reads the copy back from Redis; then holds it.
        adopted = await two.lookup("https://a.test/private/", now=t0 + 4000)
        assert adopted.kind == "ready" and adopted.stale is False and adopted.answer is not None
        assert adopted.answer.rules_for("ExampleBot").can_fetch("/private/") is False
        assert len(two) == 1 and two.stats.hits == 1 and two.stats.misses == 2
        # Due a day later: the refresh is conditional, and a 304 renews the copy for the fleet.
        refresh = await two.lookup("https://a.test/", now=t0 + 3000 + 24 * H)
        assert refresh.kind == "fetch" and refresh.lease is not None and refresh.lease.etag == '"v1"'
        old = await one.lookup("https://a.test/", now=t0 + 3001 + 24 * H)
        assert old.kind == "ready" and old.stale is True
        assert (await two.store(refresh.lease, 304, now=t0 + 3002 + 24 * H)).kind == "not-modified"
        renewed = await one.lookup("https://a.test/", now=t0 + 3003 + 24 * H)
        assert renewed.kind == "ready" and renewed.stale is False
        with pytest.raises(robotstxt.InvalidUrlError):
            await one.lookup("ftp://a.test/", now=t0)
        with pytest.raises(robotstxt.InvalidOptionError):
            await one.lookup("https://a.test/", when_fetching="later")  # type: ignore[arg-type]
        with pytest.raises(robotstxt.InvalidArgumentError):
            await one.lookup("https://a.test/", now=-1)
        await one.aclose()
        with pytest.raises(robotstxt.ClosedError):
            await one.lookup("https://a.test/")

    run(main)


def test_an_ended_lease_is_refused_without_a_redis_call_and_a_failed_store_keeps_the_copy_here(
    own_server: RedisServer,
) -> None:
    async def main() -> None:
        errors: List[robotstxt.RedisError] = []
        cache = SharedCache(client(own_server.port), prefix=prefix(), on_redis_error=errors.append)
        stored = (await cache.lookup("https://a.test/")).lease
        abandoned = (await cache.lookup("https://b.test/")).lease
        failed = (await cache.lookup("https://c.test/")).lease
        assert stored is not None and abandoned is not None and failed is not None
        await cache.store(stored, 404)
        await cache.abandon(abandoned)
        own_server.stop()
        for ended in (stored, abandoned):
            with pytest.raises(robotstxt.InvalidLeaseError, match="already stored or abandoned"):
                await cache.store(ended, 200)
            with pytest.raises(robotstxt.InvalidLeaseError):
                await cache.abandon(ended)
        assert errors == []  # refused here: Redis was not asked
        with pytest.raises(robotstxt.RedisError) as raised:
            await cache.store(failed, 200, body=b"User-agent: *\nDisallow: /\n")
        assert raised.value.step == "store" and errors == [raised.value] and failed.ended
        # This worker answers from what it fetched; the fleet never saw it.
        kept = await cache.lookup("https://c.test/x")
        assert kept.kind == "ready" and kept.answer is not None and kept.answer.kind == "rules"
        with pytest.raises(robotstxt.RedisError):
            await cache.lookup("https://d.test/")
        assert cache.stats.redis_errors == 2

    run(main)


# ---------------------------------------------------------------------------
# The cache vectors (tests/vectors/cache.json) through SharedCache, by the
# local runner (test_vectors.run_cache_steps), each case under its own
# prefix, at a fixed epoch far from Redis's clock: the leases run out by the
# times given.

CACHE = json.loads((VECTORS / "cache.json").read_text(encoding="utf-8"))["cases"]
EPOCH = 1_700_000_000_000


@dataclass(frozen=True)
class FleetStep:
    """A step a fleet answers otherwise than one process's cache, by design."""

    index: int
    vector: Dict[str, Any]
    """What the vector's step holds (checked: a vector that changes is noticed)."""
    fleet: Dict[str, Any]
    """The step as the fleet answers it, asserted in its place."""
    why: str


FLEET_STEPS: Dict[str, List[FleetStep]] = {
    "an expired lease goes to the next caller; the late store still counts": [
        FleetStep(
            3,
            {"at_s": 61, "store": "L1"},
            {"at_s": 61, "store": "L1", "fetch": {"status": 200, "body": "User-agent: *\nDisallow: /private/\n"},
             "error": "invalid_lease"},
            "a copy is stored only under the fleet's current lease: a stale worker never overwrites its copy",
        ),
        FleetStep(
            4,
            {"at_s": 62, "lookup": "https://a.test/private/x"},
            {"at_s": 62, "lookup": "https://a.test/private/x", "expect": "wait", "until_s": 120},
            "nothing was stored, and L2 is still held until 120 s",
        ),
    ],
    "origins are normalised: case, default port, userinfo": [
        FleetStep(
            5,
            {"stats": {"entries": 3}},
            {"stats": {"entries": 1}},
            "a worker's entries are the copies it holds: the two origins it is fetching have none yet "
            "(the local cache counts an origin from its first lookup)",
        ),
    ],
    "capacity: the least recently used origin is evicted": [
        FleetStep(
            8,
            {"at_s": 5, "lookup": "https://b.test/", "expect": "fetch"},
            {"at_s": 5, "lookup": "https://b.test/", "expect": "ready", "stale": False, "answer": "allow_all"},
            "capacity bounds the copies a worker holds parsed, not the fleet's copies in Redis: "
            "an origin dropped from the worker is read back from Redis, not fetched again",
        ),
    ],
}


def test_the_fleet_steps_are_steps_of_the_vectors() -> None:
    cases = {c["name"]: c for c in CACHE}
    for name, changes in FLEET_STEPS.items():
        assert name in cases, f"no case {name!r}"
        for change in changes:
            step = cases[name]["steps"][change.index]
            assert {k: step.get(k) for k in change.vector} == change.vector, f"{name} step {change.index}"
            assert change.why


@pytest.mark.parametrize("case", CACHE, ids=lambda c: str(c["name"]))
def test_cache_vector_shared(server: RedisServer, case: Dict[str, Any]) -> None:
    async def main() -> None:
        at = f"cache.json: {case['name']}"
        cache = SharedCache(client(server.port), prefix=prefix(), **cache_options(case, at))
        steps = {change.index: change.fleet for change in FLEET_STEPS.get(case["name"], [])}
        await run_cache_steps(case, at, cache, epoch=EPOCH, steps=steps)

    run(main)


# ---------------------------------------------------------------------------
# Redis unreachable


def test_the_cache_fails_safe_when_redis_is_down(own_server: RedisServer) -> None:
    async def main() -> None:
        fetch = Fetcher({
            "https://a.test/robots.txt": FetchOutcome(200, b"User-agent: *\nDisallow: /x\n"),
            "https://b.test/robots.txt": FetchOutcome(404),
        })
        t = [float(int(time.time() * 1000))]
        errors: List[robotstxt.RedisError] = []
        c = client(own_server.port)
        cache = SharedRobotsCache(c, fetch, prefix=prefix(), clock=lambda: t[0], on_redis_error=errors.append)
        await cache.answer_for("https://a.test/")
        own_server.stop()
        t[0] += 25 * H  # due: Redis is asked, and does not answer
        held = await cache.answer_for("https://a.test/")
        assert held.rules_for("ExampleBot").can_fetch("/x") is False
        none = await cache.answer_for("https://b.test/")
        assert none.kind == "disallow-all"
        assert none.rules_for("ExampleBot").can_fetch("/anything") is False
        assert len(fetch.calls) == 1
        assert len(errors) >= 2 and all(isinstance(e, robotstxt.RedisError) for e in errors), errors
        assert errors[0].step == "lookup" and errors[0].__cause__ is not None
        assert cache.stats.redis_errors == len(errors)
        await cache.aclose()
        await c.aclose()

    run(main)


def test_with_local_fallback_the_worker_fetches_for_itself_and_warns(own_server: RedisServer) -> None:
    async def main() -> None:
        own_server.stop()
        fetch = Fetcher({"https://b.test/robots.txt": FetchOutcome(404)})
        c = client(own_server.port)
        cache = SharedRobotsCache(c, fetch, prefix=prefix(), local_fallback=True)
        with pytest.warns(RedisFallbackWarning, match="Redis is unreachable"):
            answer = await cache.answer_for("https://b.test/")
        assert answer.kind == "allow-all"
        assert len(fetch.calls) == 1
        # Warned once: the next fallback is silent.
        with warnings.catch_warnings(record=True) as later:
            warnings.simplefilter("always")
            assert (await cache.answer_for("https://b.test/x")).kind == "allow-all"
        assert not [w for w in later if issubclass(w.category, RedisFallbackWarning)]
        pacer = SharedPacer(c, prefix=prefix(), local_fallback=True, floor_ms=0)
        with pytest.warns(RedisFallbackWarning):
            start = await pacer.wait("b.test")
        assert abs(start - time.time() * 1000) < 5000
        await cache.aclose()
        await c.aclose()

    run(main)


def test_the_pacer_hands_out_no_slot_when_redis_is_down(own_server: RedisServer) -> None:
    async def main() -> None:
        own_server.stop()
        errors: List[robotstxt.RedisError] = []
        c = client(own_server.port)
        pacer = SharedPacer(c, prefix=prefix(), on_redis_error=errors.append)
        with pytest.raises(robotstxt.RedisError) as raised:
            await pacer.wait("a.test")
        assert raised.value.step == "reserve" and isinstance(raised.value, RuntimeError)
        with pytest.raises(robotstxt.RedisError):
            await pacer.reserve("a.test")
        with pytest.raises(robotstxt.RedisError):
            await pacer.record("a.test", 200)
        assert len(errors) == 3
        await c.aclose()

    run(main)


# ---------------------------------------------------------------------------
# SharedPacer


def test_two_workers_take_turns_one_crawl_delay_apart_and_a_429_holds_back_both(server: RedisServer) -> None:
    async def main() -> None:
        p = prefix()
        one, two = (SharedPacer(client(server.port), prefix=p, floor_ms=0) for _ in range(2))
        await one.set_rules("a.test", robotstxt.Robots.parse("User-agent: *\nCrawl-delay: 0.2\n").rules_for("ExampleBot"))
        assert await two.gap_ms("A.test") == 200
        tickets: List[SharedTicket] = []
        for i in range(4):
            ticket = await (two if i % 2 else one).reserve("a.test")
            assert ticket is not None and ticket.host == "a.test"
            tickets.append(ticket)
        for earlier, later in zip(tickets, tickets[1:]):
            assert later.start - earlier.start == 200
        await two.record("a.test", 429, retry_after_ms=5000)
        after = await one.reserve("a.test")
        assert after is not None and after.start - tickets[0].start >= 5000, after.start - tickets[0].start
        assert await one.gap_ms("a.test") == 400
        await two.set_enabled("a.test", False)
        assert await one.reserve("a.test") is None
        with pytest.raises(robotstxt.HostDisabledError) as raised:
            await one.wait("a.test")
        assert raised.value.host == "a.test"
        await two.set_enabled("a.test", True)
        assert await one.reserve("a.test") is not None
        await one.set_delay("a.test", request_rate=(1, 2))
        assert await two.gap_ms("a.test") >= 2000

    run(main)


def test_a_crawl_delay_outlives_the_pace_redis_lost(server: RedisServer) -> None:
    async def main() -> None:
        p = prefix()
        admin = client(server.port)
        one, two = (SharedPacer(client(server.port), prefix=p, floor_ms=0) for _ in range(2))
        await one.set_delay("d.test", crawl_delay=0.25)
        keys = await admin.keys(f"{p}*")
        assert keys
        await admin.delete(*keys)  # as a restart with empty memory would
        first = await one.reserve("d.test")
        second = await two.reserve("d.test")
        assert first is not None and second is not None
        assert second.start - first.start == 250
        # Any worker that saw the pace gives it back (two only reserved);
        # one that knew nothing of the host has nothing to give: the floor.
        await admin.delete(*(await admin.keys(f"{p}*")))
        a, b = await two.reserve("d.test"), await two.reserve("d.test")
        assert a is not None and b is not None and b.start - a.start == 250
        await admin.delete(*(await admin.keys(f"{p}*")))
        three = SharedPacer(client(server.port), prefix=p, floor_ms=0)
        a, b = await three.reserve("d.test"), await three.reserve("d.test")
        assert a is not None and b is not None and b.start - a.start < 250

    run(main)


def test_wait_starts_requests_of_two_workers_a_gap_apart_one_in_flight_at_a_time(server: RedisServer) -> None:
    async def main() -> None:
        p = prefix()
        one, two = (SharedPacer(client(server.port), prefix=p, floor_ms=100) for _ in range(2))
        starts: List[int] = []

        async def request(pacer: SharedPacer) -> None:
            start = await pacer.wait("b.test")
            starts.append(start)
            assert await pacer.in_flight("b.test") == 1
            await asyncio.sleep(0.01)
            await pacer.record("b.test", 200)

        await asyncio.gather(*(request(pacer) for pacer in (one, two, one, two)))
        starts.sort()
        assert all(later - earlier >= 100 for earlier, later in zip(starts, starts[1:])), starts
        assert abs(starts[0] - time.time() * 1000) < 5000  # Redis's clock
        assert await one.in_flight("b.test") == 0

    run(main)


def test_a_cancelled_wait_gives_its_slot_back(server: RedisServer) -> None:
    async def main() -> None:
        pacer = SharedPacer(client(server.port), prefix=prefix(), floor_ms=10_000)
        await pacer.wait("c.test")
        waiting = asyncio.ensure_future(pacer.wait("c.test"))
        await asyncio.sleep(0.2)
        waiting.cancel()
        with pytest.raises(asyncio.CancelledError):
            await waiting
        ticket = await pacer.reserve("c.test")  # the cancelled slot again, not one after it
        assert ticket is not None and ticket.start - time.time() * 1000 < 10_500

    run(main)


def test_bad_arguments_of_the_pacer(server: RedisServer) -> None:
    async def main() -> None:
        pacer = SharedPacer(client(server.port), prefix=prefix())
        with pytest.raises(robotstxt.InvalidArgumentError):
            SharedPacer(client(server.port), floor_ms=-1)
        with pytest.raises(robotstxt.ArgumentTypeError):
            SharedPacer(client(server.port), max_in_flight="2")  # type: ignore[arg-type]
        with pytest.raises(robotstxt.InvalidArgumentError):
            SharedPacer(client(server.port), retain_ms=0)
        with pytest.raises(robotstxt.InvalidHostError):
            await pacer.reserve("")
        with pytest.raises(robotstxt.ArgumentTypeError):
            await pacer.confirm({})  # type: ignore[arg-type]
        with pytest.raises(robotstxt.InvalidArgumentError):
            await pacer.record("a.test", 7)
        with pytest.raises(robotstxt.ArgumentTypeError):
            await pacer.record("a.test", "200")  # type: ignore[arg-type]
        with pytest.raises(robotstxt.InvalidArgumentError):
            await pacer.record("a.test", 429, retry_after_ms=-5)
        with pytest.raises(robotstxt.ArgumentTypeError):
            await pacer.set_rules("a.test", {})  # type: ignore[arg-type]
        with pytest.raises(robotstxt.ArgumentTypeError):
            await pacer.set_enabled("a.test", "no")  # type: ignore[arg-type]
        with pytest.raises(robotstxt.InvalidArgumentError):
            await pacer.set_delay("a.test", -1)
        ticket = await pacer.reserve("c.test")
        assert ticket is not None
        assert (await pacer.confirm(ticket)).kind == "go" and ticket.spent
        with pytest.raises(robotstxt.InvalidTicketError):
            await pacer.confirm(ticket)
        await pacer.set_enabled("d.test", False)
        off = await pacer.reserve("e.test")
        assert off is not None
        await pacer.set_enabled("e.test", False)
        assert (await pacer.confirm(off)).kind == "disabled"
        with pytest.raises(robotstxt.InvalidTicketError):
            await pacer.confirm(off)
        await pacer.aclose()
        with pytest.raises(robotstxt.ClosedError):
            await pacer.reserve("a.test")

    run(main)


# ---------------------------------------------------------------------------
# The pacing vectors (tests/vectors/pacing.json) through Redis, times
# shifted to now (Redis expires keys by its clock). The capacity cases have
# no counterpart: Redis holds every host.

LOCAL_ONLY = {
    "a full pacer never forgets a switched-off or backing-off host",
    "a full pacer forgets the least recently used idle host, never one inside its gap",
}
PACING = json.loads((VECTORS / "pacing.json").read_text(encoding="utf-8"))["cases"]


def test_every_pacing_case_but_the_capacity_ones_runs() -> None:
    names = [case["name"] for case in PACING]
    for name in LOCAL_ONLY:
        assert name in names, f"no case {name!r}"
    assert len(names) - len(LOCAL_ONLY) >= 15


@pytest.mark.parametrize("case", [c for c in PACING if c["name"] not in LOCAL_ONLY], ids=lambda c: str(c["name"]))
def test_pacing_vector_shared(server: RedisServer, case: Dict[str, Any]) -> None:
    async def main() -> None:
        base = int(time.time() * 1000)
        clock = [base]
        c = client(server.port)
        pacer = SharedPacer(c, prefix=prefix(), clock=lambda: clock[0], **pacing_options(case, case["name"]))
        await run_pacing_steps(case, case["name"], pacer, clock, base)
        await c.aclose()

    run(main)


# ---------------------------------------------------------------------------
# examples/python/fleet_worker.py: two workers share one site's robots.txt
# and pace.


@needs("spawn")
def test_two_fleet_workers_crawl_a_site_as_one(server: RedisServer) -> None:
    robots_agents: List[str] = []
    lock = threading.Lock()
    refused: List[float] = []

    def answer(path: str, site: Site) -> Any:
        with lock:
            if path == "/robots.txt":
                robots_agents.append(site.hits[-1].headers.get("User-Agent", ""))
                return text("User-agent: *\nDisallow: /private/\nCrawl-delay: 0.1\n")
            if path == "/page/3" and not refused:
                refused.append(site.hits[-1].at)
                return text("slow down", 429, {"Retry-After": "1"})
        return page(path)

    site = Site(answer).start()
    p = prefix()
    queue = p + "queue"
    urls = [site.url(f"/private/{i}" if i % 4 == 0 else f"/page/{i}") for i in range(12)]

    async def fill() -> None:
        c = client(server.port)
        await c.rpush(queue, *urls)
        await c.set(queue + ":done", "1")

    run(fill)
    worker = str(EXAMPLES / "python" / "fleet_worker.py")
    try:
        runs = [
            subprocess.Popen(
                [sys.executable, worker, "--redis-port", str(server.port), "--prefix", p, "--queue", queue,
                 "--id", name, "--token", "ExampleBot", "--deadline-ms", "60000", "--floor-ms", "0"],
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
            )
            for name in ("w1", "w2")
        ]
        outputs = [run_.communicate(timeout=90) for run_ in runs]
    finally:
        site.stop()
    for run_, (out, err) in zip(runs, outputs):
        assert run_.returncode == 0, err[-3000:]
    events = [json.loads(line) for out, _ in outputs for line in out.splitlines()]
    # One robots.txt fetch for the fleet, with the worker's User-Agent.
    assert len(robots_agents) == 1 and robots_agents[0].startswith("ExampleBot/1.0 (worker w")
    skipped = sorted(e["url"] for e in events if e["event"] == "skip")
    assert skipped == sorted(u for u in urls if "/private/" in u)
    fetched = [e for e in events if e["event"] == "fetch"]
    assert sorted(e["url"] for e in fetched if e["status"] == 200) == sorted(u for u in urls if "/page/" in u)
    assert [e["status"] for e in fetched if e["status"] != 200] == [429]  # tried again after it
    assert {e["id"] for e in events} <= {"w1", "w2"} and not [e for e in events if e["event"] == "redis-error"]
    pages = site.pages()
    assert not [h for h in pages if h.path.startswith("/private/")]
    assert all(h.headers.get("User-Agent", "").startswith("ExampleBot/1.0 (worker w") for h in pages)
    # The fleet's pace: starts a crawl delay apart (less 50 ms: the site
    # stamps arrivals, which a loaded machine delays unevenly, as
    # tests/fleet allows), nothing during the Retry-After.
    starts = sorted(h.at for h in pages)
    assert min(b - a for a, b in zip(starts, starts[1:])) >= 0.1 - 0.05, starts
    assert not [h for h in pages if refused[0] < h.at < refused[0] + 0.99]
